// Command millengine is a mill (Nine Men's Morris and variants) engine that
// speaks UCI on stdin/stdout, with perft and bench subcommands for scripts.
//
// stdout carries protocol lines (or a subcommand's report, or help) only;
// logs go to stderr or to the file given with --log-file. SIGINT and SIGTERM
// end any command promptly (a search or bench first writes what it has) with
// the exit status 128 + the signal's number.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/book"
	"github.com/millengine/millengine/internal/buildinfo"
	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/report"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// version is set by the build: go build -ldflags "-X main.version=v1.2.3".
var version string

func main() {
	ctx := cli.SignalContext()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if cli.Signal(ctx) != 0 && code != cli.ExitUsage {
		code = cli.StoppedCode(ctx)
	}
	os.Exit(code)
}

// globals are the flags accepted before the command.
type globals struct {
	logLevel string
	level    zerolog.Level // logLevel parsed by check
	logFile  string
	hashMB   int
	threads  int
	variant  string
	egtbPath string
	book     string
	version  bool
	cpuProf  string // --cpuprofile: write a CPU profile of the command here
}

// env is what a command runs with.
type env struct {
	ctx    context.Context
	g      *globals
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	log    zerolog.Logger
}

// command is a subcommand: its name, a line for the help, and its code.
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// commands lists the subcommands; "uci" runs when none is given.
var commands = []command{
	{"uci", "run the UCI protocol loop on stdin/stdout (the default with no command)", runUCI},
	{"perft", "count the leaves of the action tree", runPerft},
	{"bench", "search a fixed set of positions; the node count is the build signature", runBench},
	{"egtb", "endgame tables: plan, build, verify, stats, probe, games, compare (millengine egtb --help)", runEGTB},
	{"book", "the opening book: build, prove, stats, pack, check (millengine book --help)", runBook},
	{"solve", "prove the value of a placing-phase position with the endgame tables", runSolve},
	{"annotate", "review the games of a PGN file: grades, the engine's choices, a summary per side", runAnnotate},
	{"serve", "a board for people in the browser, playing over UCI (millengine serve --help)", runServe},
	{"version", "print the version", runVersion},
	{"help", "print this help, or a command's help: help <command>", nil},
}

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

const usageHead = `millengine — a UCI engine for Nine Men's Morris (mill) and its variants.

Usage:
  millengine [global flags] [command] [command flags]

Commands:
`

const usageTail = `
Run "millengine <command> --help" (or "millengine help <command>") for a
command's flags. Global flags go before the command. stdout carries protocol
lines (or the command's report) only; the log goes to stderr, or to --log-file.

Global flags:
`

func globalFlags(g *globals) *pflag.FlagSet {
	fs := pflag.NewFlagSet("millengine", pflag.ContinueOnError)
	fs.SetInterspersed(false) // flags after the command belong to the command
	fs.StringVar(&g.logLevel, "log-level", "warn", "log level: trace, debug, info, warn, error or disabled")
	fs.StringVar(&g.logFile, "log-file", "", "append the log (JSON lines) to this file instead of stderr")
	fs.IntVar(&g.hashMB, "hash", uci.DefaultHashMB, "start-up value of the Hash option, in MB")
	fs.IntVar(&g.threads, "threads", 1, "start-up value of the Threads option")
	fs.StringVar(&g.variant, "variant", rules.Presets[0].Key, "start-up rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fs.StringVar(&g.egtbPath, "egtb-path", egtb.DefaultDir(), "start-up value of the EGTBPath option, the endgame tables' directory (\"\": none)")
	fs.StringVar(&g.book, "book", book.Builtin, "start-up value of the Book option: a book file, "+book.Builtin+" for the shipped one (\"\": none)")
	fs.BoolVar(&g.version, "version", false, "print the version and exit")
	fs.StringVar(&g.cpuProf, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof reads it)")
	fs.SortFlags = false
	return fs
}

func usage(fs *pflag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usageHead)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, usageTail)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var g globals
	fs := globalFlags(&g)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage(fs, stdout)
			return 0
		}
		fmt.Fprintf(stderr, "millengine: %v (see millengine --help)\n", err)
		return 2
	}
	if g.version {
		fmt.Fprintf(stdout, "millengine %s\n", buildinfo.Version(version, debug.ReadBuildInfo))
		return 0
	}
	if err := g.check(); err != nil {
		fmt.Fprintf(stderr, "millengine: %v (see millengine --help)\n", err)
		return 2
	}
	name, rest := "uci", fs.Args()
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	if name == "help" {
		if len(rest) == 0 {
			usage(fs, stdout)
			return 0
		}
		name, rest = rest[0], []string{"--help"}
	}
	c := findCommand(name)
	if c == nil || c.run == nil {
		names := make([]string, 0, len(commands))
		for _, c := range commands {
			names = append(names, c.name)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "millengine: unknown command %q (want one of %s; see millengine --help)\n", name, strings.Join(names, ", "))
		return 2
	}
	log, closeLog, err := cli.NewLogger(g.logFile, g.level, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "millengine: %v\n", err)
		return 2
	}
	defer closeLog()
	if g.cpuProf != "" {
		stop, err := cli.StartCPUProfile(g.cpuProf)
		if err != nil {
			fmt.Fprintf(stderr, "millengine: --cpuprofile: %v\n", err)
			return 2
		}
		defer stop()
	}
	log.Debug().Str("command", name).Strs("args", rest).Msg("start")
	return c.run(&env{ctx: ctx, g: &g, stdin: stdin, stdout: stdout, stderr: stderr, log: log}, rest)
}

// subcommand is a command of a group of them (egtb, book): its name and
// what runs it.
type subcommand struct {
	name string
	run  func(e *env, args []string) int
}

// runGroup runs the subcommand of group that args name, with the rest of
// args; "help", --help and -h print usage, or with a subcommand's name
// that subcommand's --help. No or an unknown subcommand is a usage error
// that lists cmds.
func (e *env) runGroup(group, usage string, cmds []subcommand, args []string) int {
	find := func(name string) func(e *env, args []string) int {
		for _, c := range cmds {
			if c.name == name {
				return c.run
			}
		}
		return nil
	}
	if len(args) > 0 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		if len(args) > 1 && find(args[1]) != nil {
			return find(args[1])(e, []string{"--help"})
		}
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if len(args) == 0 {
		return e.usageError(group, "want a command: "+want)
	}
	run := find(args[0])
	if run == nil {
		return e.usageError(group, fmt.Sprintf("unknown command %q (want %s)", args[0], want))
	}
	return run(e, args[1:])
}

// subFlags returns the flag set of a command. Its --help prints the usage
// (first line: "Usage: millengine <usage>") and the flags on stdout.
func (e *env) subFlags(name, synopsis, about string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage: millengine %s\n\n%s\n", synopsis, about)
		if fs.HasFlags() {
			fmt.Fprintln(e.stdout, "\nFlags:")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// parse parses a command's flags. It returns the exit code and false when the
// command should not run: 0 after --help, 2 (with the usage hint) on a bad
// flag or, unless positional is true, a stray argument.
func (e *env) parse(fs *pflag.FlagSet, args []string, positional bool) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, false // pflag has printed the usage (fs.Usage)
		}
		return e.usageError(fs.Name(), err.Error()), false
	}
	if !positional && fs.NArg() > 0 {
		return e.usageError(fs.Name(), fmt.Sprintf("unexpected argument %q", fs.Arg(0))), false
	}
	return 0, true
}

// usageError reports a bad command line the same way for every command.
func (e *env) usageError(cmd, msg string) int {
	fmt.Fprintf(e.stderr, "millengine %s: %s (see millengine %s --help)\n", cmd, msg, cmd)
	return 2
}

// fail reports an error that stops a command, "millengine CMD: …", and
// returns the exit code 1.
func (e *env) fail(cmd string, err error) int {
	fmt.Fprintf(e.stderr, "millengine %s: %v\n", cmd, err)
	return 1
}

// reported is the exit status of a command whose report (egtb verify,
// compare) printed what failed: 1 without a word more when the report
// failed (report.ErrFailed), fail's message for any other error, 0 when
// all passed.
func (e *env) reported(cmd string, err error) int {
	switch {
	case errors.Is(err, report.ErrFailed):
		return 1 // the report says what
	case err != nil:
		return e.fail(cmd, err)
	}
	return 0
}

// warn returns a function that reports an error a command goes on after,
// "millengine CMD: …".
func (e *env) warn(cmd string) func(error) {
	return func(err error) { fmt.Fprintf(e.stderr, "millengine %s: %v\n", cmd, err) }
}

// warnAll reports each of the errors errs returns (a damaged file of tables
// or of a database), "millengine CMD: …"; commands defer it.
func (e *env) warnAll(cmd string, errs func() []error) {
	for _, err := range errs() {
		e.warn(cmd)(err)
	}
}

// check validates the global flags.
func (g *globals) check() error {
	if err := checkRange("--hash", g.hashMB, 1, uci.DefaultMaxHashMB); err != nil {
		return err
	}
	if err := search.CheckHash(g.hashMB); err != nil {
		return fmt.Errorf("--hash %d: %w", g.hashMB, err)
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
	g.level, err = cli.ParseLevel(g.logLevel)
	return err
}

// checkRange is cli.CheckRange.
var checkRange = cli.CheckRange

// runUCI runs the protocol loop until quit, end of input or a signal.
func runUCI(e *env, args []string) int {
	fs := e.subFlags("uci", "[global flags] [uci]", "Speaks UCI on stdin/stdout (docs/protocol.md) until quit or the end of input.")
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	g := e.g
	err := uci.Run(e.ctx, e.stdin, e.stdout, uci.Config{
		Version:  buildinfo.Version(version, debug.ReadBuildInfo),
		HashMB:   g.hashMB,
		Threads:  g.threads,
		Variant:  g.variant,
		EGTBPath: g.egtbPath,
		Book:     g.book,
		Log:      e.log,
	})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		e.log.Info().Err(context.Cause(e.ctx)).Msg("interrupted")
		return 130
	}
	e.log.Error().Err(err).Msg("uci")
	fmt.Fprintf(e.stderr, "millengine: %v\n", err)
	return 1
}

// runVersion prints the version.
func runVersion(e *env, args []string) int {
	fs := e.subFlags("version", "version", "Prints the version (set at build time, else the VCS revision, else dev).")
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	fmt.Fprintf(e.stdout, "millengine %s\n", buildinfo.Version(version, debug.ReadBuildInfo))
	return 0
}
