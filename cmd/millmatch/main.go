// Command millmatch plays matches and round-robins between mill UCI engines
// (millengine, Sanmill-style engines, any engine that speaks the dialect of
// protocol.md), refereed by the project's own rules code, and reports the
// score, the Elo difference with its 95 % interval, the likelihood of
// superiority and, on request, an SPRT that stops the match once it decides.
//
// Run the new build against the previous one:
//
//	millmatch --engine bin/millengine --engine bin/millengine-prev \
//	    --games 200 --movetime 100 --random-openings 4 --concurrency 2
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/buildinfo"
	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/rules"
)

// version is set by the build: go build -ldflags "-X main.version=v1.2.3".
var version string

// Exit codes (internal/cli): a match stopped by a signal exits with 128 +
// the signal's number, as a shell reports a process killed by it: 130 for
// SIGINT, 143 for SIGTERM (the partial report is printed first).
const (
	exitOK      = cli.ExitOK
	exitFailure = cli.ExitFailure // the match could not run
	exitUsage   = cli.ExitUsage   // bad command line
)

func main() {
	ctx := cli.SignalContext()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// stoppedCode returns the exit status of a run whose context ended.
func stoppedCode(ctx context.Context) int { return cli.StoppedCode(ctx) }

const usageHead = `Usage: millmatch --engine CMD --engine CMD [more engines] [flags]

Plays games between mill UCI engines and reports W/L/D, the Elo difference
with its 95 % interval, the likelihood of superiority (LOS) and, with --sprt,
a sequential test that stops as soon as it decides. Two engines play a match;
more play a round-robin (--games per pairing). Each opening is played twice
with colours swapped. An engine that crashes (also before a game starts),
hangs or sends an illegal token loses that game, is restarted, and the match
goes on. Option values are checked against what each engine declares.

Engines are numbered from 1 in the order of --engine; per-engine flags take
"N:" in front (--option 2:Hash=64); --option without "N:" goes to all engines.

SIGINT (Ctrl-C) or SIGTERM stops the match: games in progress are dropped,
the summary of the finished ones is printed, and the exit status is 130 or
143; a second signal ends millmatch at once. The same command line with
--resume goes on with the match whose games --out holds. Exit status 1: the match could
not run (an engine does not start, cannot play the variant or refuses an
option); 2: a bad command line.

Example, the new build against the previous one:
  millmatch --engine bin/millengine --engine bin/millengine-prev \
      --games 200 --movetime 100 --random-openings 4 --concurrency 2

Flags:
`

// options holds the parsed command line: the match's setup and how
// millmatch reports it.
type options struct {
	match.Setup
	debug, engineStderr, quiet bool
	version                    bool
}

func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	if len(argv) > 0 && argv[0] == "openings" {
		return runOpenings(argv[1:], stdout, stderr)
	}
	var o options
	fs := o.flags(stderr)
	// usageError reports a bad command line: one line with the hint, exit 2.
	usageError := func(err error) int {
		fmt.Fprintf(stderr, "millmatch: %v (see millmatch --help)\n", err)
		return exitUsage
	}
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			printUsage(fs, stdout)
			return exitOK
		}
		return usageError(err)
	}
	if o.version {
		fmt.Fprintf(stdout, "millmatch %s\n", buildinfo.Version(version, debug.ReadBuildInfo))
		return exitOK
	}
	if fs.NArg() == 1 && fs.Arg(0) == "help" {
		printUsage(fs, stdout)
		return exitOK
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Errorf("unexpected argument %q (engine commands go in --engine)", fs.Arg(0)))
	}
	o.MoveTimeSet = fs.Changed("movetime")
	cfg, seed, err := o.Config()
	if err != nil {
		return usageError(err)
	}
	if cfg.Tables != nil {
		defer cfg.Tables.Close()
	}
	level := zerolog.InfoLevel
	if o.debug {
		level = zerolog.DebugLevel
	}
	cw := zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.TimeOnly, NoColor: !cli.IsTerminal(stderr)}
	cfg.Log = zerolog.New(cw).Level(level).With().Timestamp().Logger()
	if o.engineStderr {
		cfg.EngineStderr = stderr
	}
	if !o.quiet {
		cfg.Live = stdout
	}
	closeOutputs, err := o.OpenOutputs(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "millmatch: %v\n", err)
		return exitFailure
	}
	defer closeOutputs()
	o.WriteHeader(stdout, &cfg, seed)

	sum, err := match.Run(ctx, cfg)
	if sum != nil {
		sum.Write(stdout)
	}
	if ctx.Err() != nil {
		switch {
		case sum == nil:
			fmt.Fprintf(stderr, "millmatch: %v before the first game\n", context.Cause(ctx))
		case err != nil:
			fmt.Fprintf(stderr, "millmatch: %v\n", err)
		}
		return stoppedCode(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, "millmatch: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// flags declares millmatch's command line into o; --help is answered by
// run, on stdout.
func (o *options) flags(stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("millmatch", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.StringArrayVarP(&o.Engines, "engine", "e", nil, `engine command line, split on spaces ("./bin/millengine --threads 1"); repeat for each engine`)
	fs.StringArrayVar(&o.Names, "name", nil, `engine label: "LABEL" for the engines in order, or "N:LABEL" (default: the executable's name)`)
	fs.StringArrayVar(&o.Args, "args", nil, `"N:ARGS": more arguments for engine N, split on spaces`)
	fs.StringArrayVar(&o.Options, "option", nil, `"[N:]Name=Value" setoption for engine N (all engines without N:); "[N:]Name" for a button; not for rule options (--variant sets the rules)`)
	fs.IntVarP(&o.Games, "games", "g", 100, "games per pairing (a match of two engines has one pairing)")
	fs.IntVar(&o.MoveTime, "movetime", 0, "fixed time per action in ms (go movetime); 100 unless --tc is given")
	fs.StringVar(&o.TC, "tc", "", `clock per side, "base+increment" in seconds, such as 10+0.1 (go wtime btime winc binc)`)
	fs.Uint64Var(&o.Nodes, "nodes", 0, "fixed nodes per action (go nodes): the same games however loaded the machine is")
	fs.IntVar(&o.Margin, "timemargin", 100, "ms an engine may overrun its move time or clock before it loses (hang / time forfeit)")
	fs.StringVar(&o.OpeningsFile, "openings", "", `file of openings, one a line: tokens ("d6 d2"), or "fen <FEN> [moves …]"`)
	fs.IntVar(&o.RandomOpenings, "random-openings", 0, "seeded random openings of K actions (legal, no mill closed, not decided)")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed for --random-openings (default: from the clock, printed)")
	fs.StringVarP(&o.Variant, "variant", "v", "nine-mens-morris", "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fs.IntVar(&o.MaxPlies, "max-plies", 2000, "adjudicate a draw after this many actions (opening included); 0: never")
	fs.StringVar(&o.EGTBDir, "egtb-adjudicate", "", "adjudicate a draw as soon as a game reaches a position the endgame tables in this directory know to be drawn (won ones are played out)")
	fs.IntVarP(&o.Concurrency, "concurrency", "c", 1, "games played at once (each with its own engine processes)")
	fs.StringVar(&o.SPRT, "sprt", "", `"elo0,elo1[,alpha,beta]": stop when the SPRT decides (logistic Elo, trinomial; alpha=beta=0.05)`)
	fs.StringVarP(&o.Out, "out", "o", "", "write every game as a JSON line to this file")
	fs.StringVar(&o.PGN, "pgn", "", "also write every game in Sanmill's PGN dialect to this file (appended with --resume)")
	fs.BoolVar(&o.Resume, "resume", false, "go on with the match whose games --out holds (same command line, --seed included): count them and play the rest, appending")
	fs.DurationVar(&o.Startup, "startup-timeout", 10*time.Second, "how long an engine may take for uciok and readyok")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no line per finished game, only the final report")
	fs.BoolVar(&o.engineStderr, "engine-stderr", false, "pass the engines' stderr through (default: discarded)")
	fs.BoolVar(&o.debug, "debug", false, "log every protocol line to stderr")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.Usage = func() {}
	return fs
}

// printUsage writes the help text.
func printUsage(fs *pflag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usageHead)
	fmt.Fprint(w, fs.FlagUsages())
}

const openingsUsage = `Usage: millmatch openings [--openings FILE | --random-openings K --count N --seed S] [--fen] [--variant V]

Prints openings one a line, as millmatch plays them: the lines of FILE, or N
seeded random openings of K actions (the same as a match with that seed
plays), as tokens ("d6 d2 f4"), or with --fen as the bare position string
each leads to — what tournament managers that read FENs only (cutegames)
take as openings.

Flags:
`

// runOpenings implements 'millmatch openings'.
func runOpenings(argv []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("millmatch openings", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	file := fs.String("openings", "", "file of openings, one a line (as millmatch --openings)")
	k := fs.Int("random-openings", 0, "random openings of K actions")
	n := fs.Int("count", 100, "how many random openings")
	seed := fs.Uint64("seed", 1, "seed of the random openings")
	fen := fs.Bool("fen", false, "print the position each opening leads to, as a bare FEN")
	variant := fs.StringP("variant", "v", "nine-mens-morris", "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	usageError := func(msg string) int {
		fmt.Fprintf(stderr, "millmatch openings: %s (see millmatch openings --help)\n", msg)
		return exitUsage
	}
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, openingsUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return exitOK
		}
		return usageError(err.Error())
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	preset, ok := rules.PresetByName(*variant)
	if !ok {
		return usageError(fmt.Sprintf("unknown variant %q", *variant))
	}
	var ops []match.Opening
	var err error
	switch {
	case (*file == "") == (*k <= 0):
		return usageError("give --openings FILE or --random-openings K")
	case *file != "":
		ops, err = match.LoadOpenings(*file, preset.Rules)
	case *n <= 0:
		return usageError(fmt.Sprintf("--count %d: must be positive", *n))
	default:
		ops, err = match.RandomOpenings(preset.Rules, *n, *k, *seed)
	}
	if err != nil {
		fmt.Fprintf(stderr, "millmatch openings: %v\n", err)
		return exitFailure
	}
	if err := match.WriteOpenings(stdout, ops, preset.Rules, *fen); err != nil {
		fmt.Fprintf(stderr, "millmatch openings: %v\n", err)
		return exitFailure
	}
	return exitOK
}
