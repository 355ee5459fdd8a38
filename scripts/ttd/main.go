// Command ttd measures time to a fixed depth of two UCI engines on the same
// positions: the wall time from go to bestmove, through pipes, each engine
// told to forget its table (ucinewgame) before every position. Runs
// alternate between the engines so that the machine's drift falls on both
// alike. It prints each position's times and the geometric mean of the
// ratios (first engine / second).
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
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
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
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "ttd: %v\n", err)
		return 2
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
	var logSum float64
	var n int
	var tot [2]time.Duration
	fmt.Fprintf(stdout, "depth %d: %s vs %s\n", *depth, es[0].name, es[1].name)
	for pi, pos := range positions {
		var best [2]time.Duration
		for r := range *rounds {
			order := []int{0, 1}
			if (pi+r)%2 == 1 {
				order = []int{1, 0}
			}
			for _, i := range order {
				el, err := es[i].timeTo(pos, d)
				if err != nil {
					fmt.Fprintf(stderr, "ttd: %s: %v\n", es[i].name, err)
					return 1
				}
				if best[i] == 0 || el < best[i] {
					best[i] = el
				}
			}
		}
		ratio := best[0].Seconds() / best[1].Seconds()
		logSum += math.Log(ratio)
		n++
		tot[0] += best[0]
		tot[1] += best[1]
		fmt.Fprintf(stdout, "%3d %9.1f ms %9.1f ms  %.3f  %s\n", pi+1, ms(best[0]), ms(best[1]), ratio, pos)
	}
	fmt.Fprintf(stdout, "total %.0f ms / %.0f ms = %.3f; geometric mean of the ratios %.3f over %d positions\n",
		ms(tot[0]), ms(tot[1]), tot[0].Seconds()/tot[1].Seconds(), math.Exp(logSum/float64(n)), n)
	return 0
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

func readPositions(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			if !strings.HasPrefix(l, "position ") {
				return nil, fmt.Errorf("%s: %q is not a position command", path, l)
			}
			out = append(out, l)
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
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &engine{name: f[0], cmd: cmd, in: in, out: bufio.NewScanner(out)}
	e.out.Buffer(make([]byte, 1<<20), 1<<20)
	fmt.Fprintln(in, "uci")
	if err := e.until("uciok"); err != nil {
		return nil, err
	}
	return e, nil
}

// until reads lines until one contains word as a whole token.
func (e *engine) until(word string) error {
	for e.out.Scan() {
		for _, f := range strings.Fields(e.out.Text()) {
			if f == word {
				return nil
			}
		}
	}
	return fmt.Errorf("output ended before %q", word)
}

// timeTo sets up pos and returns the time from go to bestmove.
func (e *engine) timeTo(pos, depth string) (time.Duration, error) {
	for _, l := range e.setup {
		fmt.Fprintln(e.in, strings.ReplaceAll(l, "{d}", depth))
	}
	fmt.Fprintln(e.in, "ucinewgame")
	fmt.Fprintln(e.in, pos)
	fmt.Fprintln(e.in, "isready")
	if err := e.until("readyok"); err != nil {
		return 0, err
	}
	t0 := time.Now()
	fmt.Fprintln(e.in, strings.ReplaceAll(e.goCmd, "{d}", depth))
	if err := e.until("bestmove"); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
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
