// Command startpair times the start of two builds of millengine against each
// other, the way a tournament manager, a GUI reading the options and the
// browser board start the engine: a fresh process for each run that is sent
// uci, then isready, then (optionally) one go from the start position, then
// quit. The runs alternate between the builds in pairs, so a machine's drift
// and load fall on both alike, and it prints each build's medians and the
// paired ratios (new/previous: median and range):
//
//   - uciok: from the process's start (uci is written at once) to uciok,
//     which bounds uci→uciok from above and includes the runtime's and the
//     packages' initialisation;
//   - readyok: from isready (sent after uciok) to readyok;
//   - go: from the go to its bestmove, and the bestmove and book line seen;
//   - peak RSS: the process's peak resident memory (getrusage's ru_maxrss
//     after it exited, what VmHWM said last), and VmRSS just before quit.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/scripts/internal/paired"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// sample is one run's measurements.
type sample struct {
	uciok, readyok, gotime float64 // milliseconds
	peakKB, rssKB          float64
	bestmove, bookLine     string
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("startpair", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	newBin := fs.String("new", "bin/millengine", "the new build")
	prevBin := fs.String("prev", "", "the previous build (none: only the new one is timed)")
	pairs := fs.Int("pairs", 11, "runs of each build (1-1000)")
	engArgs := fs.StringArray("arg", nil, "an argument for both builds (repeat: --arg=--egtb-path --arg=/dir)")
	goCmd := fs.String("go", "", `a go from the start position after readyok, e.g. "go movetime 1000" ("": none)`)
	uciOnly := fs.Bool("uci-only", false, "send uci and quit only, as a GUI that reads the options does (no isready, no go)")
	if code, ok := paired.ParseFlags(fs, args, stderr); !ok {
		return code
	}
	if *uciOnly && *goCmd != "" {
		fmt.Fprintln(stderr, "startpair: --uci-only and --go are exclusive")
		return 2
	}
	if *pairs < 1 || *pairs > 1000 {
		fmt.Fprintf(stderr, "startpair: --pairs %d: want 1-1000\n", *pairs)
		return 2
	}
	bins := []string{*newBin}
	if *prevBin != "" {
		bins = []string{*prevBin, *newBin}
	}
	got := make(map[string][]sample)
	for i := range *pairs {
		order := slices.Clone(bins)
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, bin := range order {
			s, err := startOnce(bin, *engArgs, *goCmd, *uciOnly)
			if err != nil {
				fmt.Fprintf(stderr, "startpair: %s: %v\n", bin, err)
				return 1
			}
			got[bin] = append(got[bin], s)
		}
	}
	for _, bin := range bins {
		ss := got[bin]
		fmt.Fprintf(stdout, "%s (medians of %d): uciok %.1f ms", bin, len(ss), med(ss, func(s sample) float64 { return s.uciok }))
		if !*uciOnly {
			fmt.Fprintf(stdout, ", readyok %.1f ms", med(ss, func(s sample) float64 { return s.readyok }))
		}
		fmt.Fprintf(stdout, ", peak RSS %.1f MB, RSS at quit %.1f MB",
			med(ss, func(s sample) float64 { return s.peakKB })/1024, med(ss, func(s sample) float64 { return s.rssKB })/1024)
		if *goCmd != "" {
			fmt.Fprintf(stdout, ", go %.1f ms (%s; %s)", med(ss, func(s sample) float64 { return s.gotime }), ss[0].bestmove, ss[0].bookLine)
		}
		fmt.Fprintln(stdout)
	}
	if len(bins) == 2 {
		prev, cur := got[bins[0]], got[bins[1]]
		for _, m := range []struct {
			name string
			f    func(s sample) float64
		}{{"uciok", func(s sample) float64 { return s.uciok }}, {"readyok", func(s sample) float64 { return s.readyok }},
			{"peak RSS", func(s sample) float64 { return s.peakKB }}, {"go", func(s sample) float64 { return s.gotime }}} {
			if m.name == "go" && *goCmd == "" {
				continue
			}
			if *uciOnly && m.name == "readyok" {
				continue
			}
			fmt.Fprintf(stdout, "%-8s %s\n", m.name, paired.Ratios(values(prev, m.f), values(cur, m.f)))
		}
	}
	return 0
}

// startOnce starts bin with args and takes one run's measurements.
func startOnce(bin string, args []string, goCmd string, uciOnly bool) (sample, error) {
	var s sample
	cmd := exec.Command(bin, args...)
	start := time.Now() // the pipes are made first: microseconds more
	in, outPipe, err := paired.Start(cmd)
	if err != nil {
		return s, err
	}
	defer cmd.Process.Kill() // after a failure only; a run that ends well has waited
	out := bufio.NewScanner(outPipe)
	out.Buffer(make([]byte, 1<<16), 1<<20)
	// await reads lines until one starts with prefix and returns it.
	await := func(prefix string, seen func(string)) (string, error) {
		for out.Scan() {
			l := out.Text()
			if seen != nil {
				seen(l)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
		}
		return "", fmt.Errorf("no %q line (%v)", prefix, out.Err())
	}
	ms := func(since time.Time) float64 { return float64(time.Since(since).Microseconds()) / 1000 }
	if _, err := io.WriteString(in, "uci\n"); err != nil {
		return s, err
	}
	if _, err := await("uciok", nil); err != nil {
		return s, err
	}
	s.uciok = ms(start)
	if uciOnly {
		return s, quit(cmd, in, &s)
	}
	t := time.Now()
	if _, err := io.WriteString(in, "isready\n"); err != nil {
		return s, err
	}
	if _, err := await("readyok", nil); err != nil {
		return s, err
	}
	s.readyok = ms(t)
	if goCmd != "" {
		t = time.Now()
		if _, err := io.WriteString(in, "position startpos\n"+goCmd+"\n"); err != nil {
			return s, err
		}
		l, err := await("bestmove", func(l string) {
			if strings.HasPrefix(l, "info string book move") {
				s.bookLine = strings.TrimPrefix(l, "info string ")
			}
		})
		if err != nil {
			return s, err
		}
		s.gotime, s.bestmove = ms(t), l
		if s.bookLine == "" {
			s.bookLine = "not from the book"
		}
	}
	return s, quit(cmd, in, &s)
}

// quit reads the engine's resident memory, sends quit, waits for the end
// and reads its peak resident memory.
func quit(cmd *exec.Cmd, in io.Writer, s *sample) error {
	s.rssKB = statusKB(cmd.Process.Pid, "VmRSS:")
	if _, err := io.WriteString(in, "quit\n"); err != nil {
		return err
	}
	if err := cmd.Wait(); err != nil {
		return err
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.peakKB = float64(ru.Maxrss) // kilobytes on Linux
	}
	return nil
}

// statusKB reads a field of /proc/<pid>/status in kB (0 if it cannot).
func statusKB(pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(l, field); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseFloat(f[0], 64)
				return v
			}
		}
	}
	return 0
}

// med is the median of f over ss.
func med(ss []sample, f func(sample) float64) float64 {
	return paired.Median(values(ss, f))
}

// values is f of each of ss.
func values(ss []sample, f func(sample) float64) []float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	return v
}
