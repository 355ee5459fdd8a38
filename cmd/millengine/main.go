// Command millengine is a mill (Nine Men's Morris and variants) engine that
// speaks UCI on stdin/stdout, with perft and bench subcommands for scripts.
//
// stdout carries protocol lines (or a subcommand's report) only; logs go to
// stderr or to the file given with --log-file.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// version is set by the build: go build -ldflags "-X main.version=v1.2.3".
var version string

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// globals are the flags accepted before the subcommand.
type globals struct {
	logLevel string
	level    zerolog.Level // logLevel parsed by check
	logFile  string
	hashMB   int
	threads  int
	variant  string
}

const usageText = `millengine — a UCI engine for Nine Men's Morris (mill) and its variants.

Usage:
  millengine [global flags] [command] [command flags]

Commands:
  uci        run the UCI protocol loop on stdin/stdout (the default with no command)
  perft      count the leaves of the action tree:
             millengine perft --depth D [--fen F] [--moves "t1 t2 …"] [--variant V] [--divide]
  bench      search a fixed set of positions and print the node count (the build signature):
             millengine bench [--depth D] [--threads T] [--hash MB]
  serve      serve a board for people in the browser, playing against the engine:
             millengine serve [--addr 127.0.0.1:8080] [--engine "CMD ARGS"]
  version    print the version
  help       print this help

Run "millengine <command> --help" for a command's flags. Global flags go before
the command. stdout carries protocol lines (or the command's report) only; the
log goes to stderr, or to --log-file.

Global flags:
`

func usage(fs *pflag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usageText)
	fmt.Fprint(w, fs.FlagUsages())
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var g globals
	fs := pflag.NewFlagSet("millengine", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SetInterspersed(false) // flags after the command belong to the command
	fs.StringVar(&g.logLevel, "log-level", "warn", "log level: trace, debug, info, warn, error or disabled")
	fs.StringVar(&g.logFile, "log-file", "", "append the log (JSON lines) to this file instead of stderr")
	fs.IntVar(&g.hashMB, "hash", uci.DefaultHashMB, "start-up value of the Hash option, in MB")
	fs.IntVar(&g.threads, "threads", 1, "start-up value of the Threads option")
	fs.StringVar(&g.variant, "variant", rules.Presets[0].Key, "start-up rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fs.SortFlags = false
	fs.Usage = func() { usage(fs, stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "millengine: %v (see millengine --help)\n", err)
		return 2
	}
	if err := g.check(); err != nil {
		fmt.Fprintf(stderr, "millengine: %v\n", err)
		return 2
	}
	cmd, rest := "uci", fs.Args()
	if len(rest) > 0 {
		cmd, rest = rest[0], rest[1:]
	}
	switch cmd {
	case "uci":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "millengine uci: unexpected argument %q\n", rest[0])
			return 2
		}
		return runUCI(&g, stdin, stdout, stderr)
	case "perft":
		if fs.Changed("variant") {
			// A --variant after the command comes later and wins.
			rest = append([]string{"--variant=" + g.variant}, rest...)
		}
		return runPerft(rest, stdout, stderr)
	case "bench":
		return runBench(&g, rest, stdout, stderr)
	case "serve":
		return runServe(&g, rest, stderr)
	case "version":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "millengine version: unexpected argument %q\n", rest[0])
			return 2
		}
		fmt.Fprintf(stdout, "millengine %s\n", versionString(version, debug.ReadBuildInfo))
		return 0
	case "help":
		fs.SetOutput(stdout)
		usage(fs, stdout)
		return 0
	}
	fmt.Fprintf(stderr, "millengine: unknown command %q (want uci, perft, bench, serve, version or help)\n", cmd)
	return 2
}

// check validates the global flags.
func (g *globals) check() error {
	if err := checkRange("--hash", g.hashMB, 1, uci.DefaultMaxHashMB); err != nil {
		return err
	}
	if err := checkRange("--threads", g.threads, 1, uci.DefaultMaxThreads); err != nil {
		return err
	}
	p, ok := rules.PresetByName(g.variant)
	if !ok {
		return fmt.Errorf("--variant %q: unknown variant (want one of %s)", g.variant, strings.Join(rules.PresetKeys(), ", "))
	}
	g.variant = p.Key
	var err error
	g.level, err = parseLevel(g.logLevel)
	return err
}

// checkRange reports a flag value outside lo..hi.
func checkRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d is out of range %d..%d", flag, v, lo, hi)
	}
	return nil
}

// parseLevel reads a zerolog level; "off" and "none" mean disabled.
func parseLevel(s string) (zerolog.Level, error) {
	switch strings.ToLower(s) {
	case "off", "none", "disabled":
		return zerolog.Disabled, nil
	case "":
		return zerolog.NoLevel, fmt.Errorf("--log-level: empty level")
	}
	l, err := zerolog.ParseLevel(strings.ToLower(s))
	if err != nil {
		return l, fmt.Errorf("--log-level %q: want trace, debug, info, warn, error or disabled", s)
	}
	return l, nil
}

// newLogger returns the logger the (checked) flags ask for and a function
// that closes its file. It never writes to stdout.
func newLogger(g *globals, stderr io.Writer) (zerolog.Logger, func(), error) {
	level := g.level
	zerolog.TimeFieldFormat = "2006-01-02T15:04:05.000000Z07:00"
	if g.logFile != "" {
		f, err := os.OpenFile(g.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return zerolog.Nop(), func() {}, fmt.Errorf("--log-file: %w", err)
		}
		return zerolog.New(f).Level(level).With().Timestamp().Logger(), func() { f.Close() }, nil
	}
	cw := zerolog.ConsoleWriter{Out: stderr, NoColor: !isTerminal(stderr), TimeFormat: "15:04:05.000"}
	return zerolog.New(cw).Level(level).With().Timestamp().Logger(), func() {}, nil
}

// isTerminal reports whether w is a character device (colours are then fine).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runUCI runs the protocol loop until quit, end of input or a signal.
func runUCI(g *globals, stdin io.Reader, stdout, stderr io.Writer) int {
	log, closeLog, err := newLogger(g, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "millengine: %v\n", err)
		return 2
	}
	defer closeLog()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	err = uci.Run(ctx, stdin, stdout, uci.Config{
		Version: versionString(version, debug.ReadBuildInfo),
		HashMB:  g.hashMB,
		Threads: g.threads,
		Variant: g.variant,
		Log:     log,
	})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		log.Info().Msg("interrupted")
		return 130
	}
	log.Error().Err(err).Msg("uci")
	fmt.Fprintf(stderr, "millengine: %v\n", err)
	return 1
}

// runBench implements 'millengine bench'.
func runBench(g *globals, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.IntP("depth", "d", search.DefaultBenchDepth, "depth every position is searched to")
	threads := fs.IntP("threads", "t", g.threads, "search threads (the node count is deterministic with 1)")
	hash := fs.Int("hash", g.hashMB, "transposition table size in MB")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: millengine bench [--depth D] [--threads T] [--hash MB]")
		fmt.Fprintln(stderr, "\nSearches a fixed set of positions to a fixed depth and prints per-position lines,")
		fmt.Fprintln(stderr, "then 'Nodes searched: N', 'Time: T ms' and 'Nodes/second: R'.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bench: %v (see millengine bench --help)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	for _, err := range []error{
		checkRange("--depth", *depth, 1, search.MaxPly-1),
		checkRange("--threads", *threads, 1, uci.DefaultMaxThreads),
		checkRange("--hash", *hash, 1, uci.DefaultMaxHashMB),
	} {
		if err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 2
		}
	}
	if _, err := search.Bench(search.BenchConfig{Depth: *depth, Threads: *threads, HashMB: *hash}, stdout); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	return 0
}

// versionString returns the version set with -ldflags, else the module
// version or VCS revision recorded in the binary, else "dev".
func versionString(ldflags string, buildInfo func() (*debug.BuildInfo, bool)) string {
	if ldflags != "" {
		return ldflags
	}
	bi, ok := buildInfo()
	if !ok || bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
