// Command ttd measures time to a fixed depth of two UCI engines on the same
// positions: the wall time from go to bestmove, through pipes, each engine
// told to forget its table (ucinewgame) before every position. Runs
// alternate between the engines so that the machine's drift falls on both
// alike. It prints each position's times, then the totals and the
// geometric mean of the ratios (first engine / second) of each phase the
// positions file tags ("# phase: NAME" lines) and of all positions. A
// position where an engine's info lines stop short of the depth (it proved
// the result and ended its iterations) is marked s and left out of them:
// its time is no time to depth.
//
// With --generate N it writes instead a positions file of N positions of
// each phase of Nine Men's Morris from random games (--seed).
//
// For Sanmill's C++ engine, which has no go depth, the depth is its
// SkillLevel with DeveloperMode and DrawOnHumanExperience off (so that the
// level is the depth in both phases), MoveTime 0 and IDS off (one search to
// that depth); see docs/speed.md, "Time to depth", for the command line.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/scripts/internal/paired"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type engine struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	setup []string // lines before every position, {d} replaced by the depth
	goCmd string   // the go command, {d} replaced by the depth
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("ttd", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	engines := fs.StringArray("engine", nil, "engine command line, split on spaces (twice)")
	setup := fs.StringArray("setup", nil, `"N:line" sent to engine N before every position ({d}: the depth)`)
	goCmds := fs.StringArray("go", nil, `"N:go …" engine N's go command ({d}: the depth; default "go depth {d}")`)
	depth := fs.Int("depth", 8, "the depth")
	posFile := fs.String("positions", "", `file of positions, one "position …" command a line (# comments)`)
	rounds := fs.Int("rounds", 1, "times each position is searched by each engine")
	gen := fs.Int("generate", 0, "write a positions file of this many positions a phase from random games, and exit")
	seed := fs.Uint64("seed", 1, "the random games' seed (--generate)")
	if code, ok := paired.ParseFlags(fs, args, stderr); !ok {
		return code
	}
	if *gen > 0 {
		if err := generate(stdout, *gen, *seed); err != nil {
			fmt.Fprintf(stderr, "ttd: %v\n", err)
			return 1
		}
		return 0
	}
	if len(*engines) != 2 || *posFile == "" || *depth < 1 || *rounds < 1 {
		fmt.Fprintln(stderr, "ttd: want two --engine, --positions, --depth >= 1 and --rounds >= 1")
		return 2
	}
	positions, err := readPositions(*posFile)
	if err != nil {
		fmt.Fprintf(stderr, "ttd: %v\n", err)
		return 1
	}
	var es [2]*engine
	for i, c := range *engines {
		e, err := start(c)
		if err != nil {
			fmt.Fprintf(stderr, "ttd: engine %d: %v\n", i+1, err)
			return 1
		}
		defer e.close()
		e.goCmd = "go depth {d}"
		es[i] = e
	}
	for _, s := range *setup {
		n, line, ok := indexed(s)
		if !ok {
			fmt.Fprintf(stderr, "ttd: --setup %q: want N:line with N 1 or 2\n", s)
			return 2
		}
		es[n].setup = append(es[n].setup, line)
	}
	for _, s := range *goCmds {
		n, line, ok := indexed(s)
		if !ok {
			fmt.Fprintf(stderr, "ttd: --go %q: want N:go … with N 1 or 2\n", s)
			return 2
		}
		es[n].goCmd = line
	}
	d := strconv.Itoa(*depth)
	var results []result
	fmt.Fprintf(stdout, "depth %d: %s vs %s\n", *depth, es[0].name, es[1].name)
	for pi, pos := range positions {
		var best [2]time.Duration
		var pairs []float64
		short := false
		for r := range *rounds {
			order := []int{0, 1}
			if (pi+r)%2 == 1 {
				order = []int{1, 0}
			}
			var this [2]time.Duration
			for _, i := range order {
				el, reached, err := es[i].timeTo(pos.cmd, d)
				if err != nil {
					fmt.Fprintf(stderr, "ttd: %s: %v\n", es[i].name, err)
					return 1
				}
				if best[i] == 0 || el < best[i] {
					best[i] = el
				}
				this[i] = el
				short = short || (reached > 0 && reached < *depth)
			}
			pairs = append(pairs, math.Log(this[0].Seconds()/this[1].Seconds()))
		}
		ratio := best[0].Seconds() / best[1].Seconds()
		mark := " "
		if short {
			mark = "s"
		}
		fmt.Fprintf(stdout, "%3d %9.1f ms %9.1f ms  %.3f %s %s\n", pi+1, ms(best[0]), ms(best[1]), ratio, mark, pos.cmd)
		results = append(results, result{pos.phase, best, short, pairs})
	}
	summarize(stdout, results)
	return 0
}

// result is one position's phase ("" untagged), best times, whether an
// engine ended its search short of the depth (its info lines went less
// deep: it had proven the result), which makes the times no time to depth,
// and the logarithm of the ratio of each round's pair of times.
type result struct {
	phase string
	best  [2]time.Duration
	short bool
	pairs []float64
}

// summarize writes a line for each phase, in the order of their first
// positions, and one for all positions: the totals of both engines, their
// ratio, the geometric mean of the positions' ratios and, over two rounds
// or more, the geometric mean of the ratios of the rounds' pairs with two
// standard errors either side (each pair ran back to back, so a slow spell
// of a shared machine slows both alike; the best times of the rounds can
// come from different spells). Positions where an engine ended short of
// the depth (marked s) are left out and counted. With no phase tagged
// there is only the line of all positions.
func summarize(w io.Writer, results []result) {
	line := func(label string, keep func(result) bool) {
		var logSum float64
		var n, short int
		var tot [2]time.Duration
		var pairs []float64
		for _, r := range results {
			switch {
			case !keep(r):
			case r.short:
				short++
			default:
				logSum += math.Log(r.best[0].Seconds() / r.best[1].Seconds())
				n++
				tot[0] += r.best[0]
				tot[1] += r.best[1]
				pairs = append(pairs, r.pairs...)
			}
		}
		fmt.Fprintf(w, "%-14s total %.0f ms / %.0f ms = %.3f; geometric mean of the ratios %.3f over %d positions",
			label, ms(tot[0]), ms(tot[1]), tot[0].Seconds()/tot[1].Seconds(), math.Exp(logSum/float64(n)), n)
		if k := len(pairs); k > n {
			mean, lo, hi := paired.GeoMean(pairs)
			fmt.Fprintf(w, "; paired %.3f [%.3f..%.3f] over %d pairs", mean, lo, hi, k)
		}
		if short > 0 {
			fmt.Fprintf(w, " (%d ended short of the depth, left out)", short)
		}
		fmt.Fprintln(w)
	}
	var phases []string
	for _, r := range results {
		if r.phase != "" && !slices.Contains(phases, r.phase) {
			phases = append(phases, r.phase)
		}
	}
	for _, ph := range phases {
		line(ph, func(r result) bool { return r.phase == ph })
	}
	line("all", func(result) bool { return true })
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// indexed splits "N:rest" with N 1 or 2 into a zero-based index and rest.
func indexed(s string) (int, string, bool) {
	k, rest, ok := strings.Cut(s, ":")
	if !ok || (k != "1" && k != "2") {
		return 0, "", false
	}
	return int(k[0] - '1'), rest, true
}

// pos is a position command and its phase ("" untagged).
type pos struct{ cmd, phase string }

// readPositions reads a positions file: a position command a line, lines
// starting with # comments, "# phase: NAME" giving the phase of the
// positions below it.
func readPositions(path string) ([]pos, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []pos
	phase := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if name, ok := strings.CutPrefix(l, phaseTag); ok {
			phase = strings.TrimSpace(name)
		} else if l != "" && !strings.HasPrefix(l, "#") {
			if !strings.HasPrefix(l, "position ") {
				return nil, fmt.Errorf("%s: %q is not a position command", path, l)
			}
			out = append(out, pos{l, phase})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return out, nil
}

func start(cmdline string) (*engine, error) {
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return nil, errors.New("empty command")
	}
	cmd := exec.Command(f[0], f[1:]...)
	in, out, err := paired.Start(cmd)
	if err != nil {
		return nil, err
	}
	e := &engine{name: f[0], cmd: cmd, in: in, out: bufio.NewScanner(out)}
	e.out.Buffer(make([]byte, 1<<20), 1<<20)
	fmt.Fprintln(in, "uci")
	if _, err := e.until("uciok"); err != nil {
		return nil, err
	}
	return e, nil
}

// until reads lines until one contains word as a whole token. It returns
// the greatest depth of the "info depth N" lines read on the way (0: none).
func (e *engine) until(word string) (int, error) {
	deepest := 0
	for e.out.Scan() {
		f := strings.Fields(e.out.Text())
		if slices.Contains(f, word) {
			return deepest, nil
		}
		if len(f) >= 3 && f[0] == "info" && f[1] == "depth" {
			if d, err := strconv.Atoi(f[2]); err == nil {
				deepest = max(deepest, d)
			}
		}
	}
	return deepest, fmt.Errorf("output ended before %q", word)
}

// timeTo sets up pos and returns the time from go to bestmove and the
// greatest depth of the engine's info lines (0: it wrote none).
func (e *engine) timeTo(pos, depth string) (time.Duration, int, error) {
	for _, l := range e.setup {
		fmt.Fprintln(e.in, strings.ReplaceAll(l, "{d}", depth))
	}
	fmt.Fprintln(e.in, "ucinewgame")
	fmt.Fprintln(e.in, pos)
	fmt.Fprintln(e.in, "isready")
	if _, err := e.until("readyok"); err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	fmt.Fprintln(e.in, strings.ReplaceAll(e.goCmd, "{d}", depth))
	reached, err := e.until("bestmove")
	if err != nil {
		return 0, 0, err
	}
	return time.Since(t0), reached, nil
}

func (e *engine) close() {
	fmt.Fprintln(e.in, "quit")
	e.in.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		e.cmd.Process.Kill()
	}
}
