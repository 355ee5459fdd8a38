// Command milltune tunes and screens millengine's search in-process, at a
// fixed node budget per move (deterministic and independent of machine
// load): "screen" plays two configurations of the engine against each other,
// "spsa" tunes the evaluation weights by self-play with SPSA. Both play game
// pairs (one opening, colours swapped) through one game loop. Their results
// are a first sieve; a change is adopted only after a millmatch match of the
// builds at a fixed time per move.
//
// Progress goes to stderr; the result (the score line, or the tuned weights)
// to stdout. Ctrl-C ends the work early and still prints the result so far.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/buildinfo"
	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/tune"
)

// version is set by the build: go build -ldflags "-X main.version=v1.2.3".
var version string

const usageText = `milltune — in-process screening and SPSA tuning for millengine.

Usage:
  milltune screen [flags]   play configuration A against B (game pairs, colours swapped)
  milltune spsa [flags]     tune the evaluation weights by self-play with SPSA
  milltune openings [flags] write openings that reach the endgame, for millmatch --openings
  milltune version          print the version
  milltune help             print this help

Run "milltune <command> --help" for a command's flags. A configuration is a
comma-separated list of Name=Value: search options (MaxQuiescenceDepth,
Algorithm, Contempt) and evaluation weights as stage.Weight (stages placing, moving,
flying; weights Piece, Pending, Mobility, OpenTwo, ReachTwo, RunningMill,
Blocked, Point, DoubleThreat, Private, LastExit, Cramped), e.g. --a "moving.Mobility=8,MaxQuiescenceDepth=3".
`

func main() {
	os.Exit(run(cli.SignalContext(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return cli.ExitUsage
	}
	switch args[0] {
	case "screen":
		return runScreen(ctx, args[1:], stdout, stderr)
	case "spsa":
		return runSPSA(ctx, args[1:], stdout, stderr)
	case "openings":
		return runOpenings(ctx, args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "milltune %s\n", buildinfo.Version(version, debug.ReadBuildInfo))
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usageText)
		return 0
	}
	fmt.Fprintf(stderr, "milltune: unknown command %q (see milltune help)\n", args[0])
	return cli.ExitUsage
}

// common holds the flags the commands share: how the games are played.
type common struct {
	s       tune.Session
	variant string
}

// flags adds the shared flags to fs.
func (c *common) flags(fs *pflag.FlagSet) {
	fs.Uint64Var(&c.s.Play.Nodes, "nodes", 20000, "nodes per move")
	fs.IntVar(&c.s.Play.Depth, "depth", 0, "depth per move instead of a node budget")
	fs.IntVar(&c.s.Play.OpeningPlies, "opening-plies", 4, "random legal actions before the engines play")
	fs.IntVar(&c.s.Play.MaxPlies, "max-plies", 400, "a game this long is a draw")
	fs.StringVar(&c.variant, "variant", rules.Presets[0].Key, "rule preset")
	fs.Uint64Var(&c.s.Seed, "seed", 1, "first opening seed (pair i uses seed+i)")
	fs.IntVar(&c.s.Workers, "workers", 2, "games played at once")
}

// parseFlags parses a subcommand's flags; it returns the exit code when the
// command should not run.
func parseFlags(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer, usage string) (int, bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, false
		}
		fmt.Fprintf(stderr, "milltune %s: %v (see milltune %s --help)\n", fs.Name(), err, fs.Name())
		return cli.ExitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "milltune %s: unexpected argument %q (see milltune %s --help)\n", fs.Name(), fs.Arg(0), fs.Name())
		return cli.ExitUsage, false
	}
	return cli.ExitOK, true
}

// parse reads a command's flags (parseFlags) and checks the shared ones; it
// returns the exit code when the command must not run (0 for --help, 2 for
// a bad command line).
func (c *common) parse(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer, cmd, usage string) (int, bool) {
	if code, ok := parseFlags(fs, args, stdout, stderr, usage); !ok {
		return code, false
	}
	if err := c.check(); err != nil {
		fmt.Fprintf(stderr, "milltune %s: %v\n", cmd, err)
		return cli.ExitUsage, false
	}
	return cli.ExitOK, true
}

// check validates the shared flags and resolves the variant.
func (c *common) check() error {
	pc, workers := &c.s.Play, c.s.Workers
	p, ok := rules.PresetByName(c.variant)
	if !ok {
		return fmt.Errorf("--variant %q: unknown (want one of %s)", c.variant, strings.Join(rules.PresetKeys(), ", "))
	}
	pc.Rules = p.Rules
	switch {
	case pc.Nodes < 1 && pc.Depth < 1:
		return errors.New("--nodes or --depth must be positive")
	case pc.Depth < 0 || pc.Depth >= search.MaxPly:
		return fmt.Errorf("--depth %d is out of range 1..%d", pc.Depth, search.MaxPly-1)
	case pc.OpeningPlies < 0 || pc.OpeningPlies > 30:
		return fmt.Errorf("--opening-plies %d is out of range 0..30", pc.OpeningPlies)
	case pc.MaxPlies < 1:
		return fmt.Errorf("--max-plies %d must be positive", pc.MaxPlies)
	case workers < 1 || workers > 64:
		return fmt.Errorf("--workers %d is out of range 1..64", workers)
	}
	return nil
}

func runScreen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		c            common
		games        int
		specA, specB string
	)
	fs := pflag.NewFlagSet("screen", pflag.ContinueOnError)
	c.flags(fs)
	fs.IntVar(&games, "games", 200, "games (rounded up to whole pairs)")
	fs.StringVar(&specA, "a", "", "configuration A (empty: the defaults)")
	fs.StringVar(&specB, "b", "", "configuration B (empty: the defaults)")
	if code, ok := c.parse(fs, args, stdout, stderr, "screen", "Usage: milltune screen [--a CONFIG] [--b CONFIG] [--games N] [--nodes N|--depth D] [--variant V] [--seed S]"); !ok {
		return code
	}
	if err := cli.CheckRange("--games", games, 1, 1_000_000); err != nil {
		fmt.Fprintf(stderr, "milltune screen: %v (see milltune screen --help)\n", err)
		return cli.ExitUsage
	}
	cfgA, errA := tune.ParseConfig(specA)
	cfgB, errB := tune.ParseConfig(specB)
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintf(stderr, "milltune screen: %v\n", err)
		return cli.ExitUsage
	}
	t := c.s.Screen(ctx, stderr, cfgA, cfgB, games)
	fmt.Fprintln(stdout, t.String())
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "milltune screen: interrupted; the result covers the games played")
		return cli.StoppedCode(ctx)
	}
	return 0
}

func runSPSA(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		c     common
		iters int
		start string
		rate  float64
		only  []string
	)
	fs := pflag.NewFlagSet("spsa", pflag.ContinueOnError)
	fs.StringSliceVar(&only, "tune", nil, "tune only these weights (patterns such as moving.Cramped or *.LastExit); the others stay fixed")
	c.flags(fs)
	fs.IntVar(&iters, "pairs", 2000, "game pairs (SPSA iterations)")
	fs.StringVar(&start, "start", "", "weights to start from, as a configuration (empty: the engine's)")
	fs.Float64Var(&rate, "rate", 0.03, "step per game pair, as a fraction of a Weight's perturbation")
	if code, ok := c.parse(fs, args, stdout, stderr, "spsa", "Usage: milltune spsa [--pairs N] [--nodes N] [--start CONFIG] [--variant V] [--seed S]"); !ok {
		return code
	}
	if err := cli.CheckRange("--pairs", iters, 1, 10_000_000); err != nil {
		fmt.Fprintf(stderr, "milltune spsa: %v (see milltune spsa --help)\n", err)
		return cli.ExitUsage
	}
	base, err := tune.ParseConfig(start)
	if err != nil {
		fmt.Fprintf(stderr, "milltune spsa: --start: %v\n", err)
		return cli.ExitUsage
	}
	sp, err := tune.NewSPSA(base.Params, rate, only)
	if err != nil {
		fmt.Fprintf(stderr, "milltune spsa: --tune: %v\n", err)
		return cli.ExitUsage
	}
	c.s.Tune(ctx, stderr, sp, iters)
	fmt.Fprintln(stdout, sp.String())
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "milltune spsa: interrupted; resume with --start and the weights above")
		return cli.StoppedCode(ctx)
	}
	return 0
}

// runOpenings implements 'milltune openings': the positions that reach the
// endgame of tune.Session.Openings, as millmatch opening lines "fen <FEN>".
func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		c         common
		count     int
		maxPieces int
		minPieces int
	)
	fs := pflag.NewFlagSet("openings", pflag.ContinueOnError)
	c.flags(fs)
	fs.IntVar(&count, "count", 200, "openings to write")
	fs.IntVar(&maxPieces, "max-pieces", 12, "at most this many pieces on the board (both sides)")
	fs.IntVar(&minPieces, "min-pieces", 8, "at least this many pieces on the board")
	if code, ok := c.parse(fs, args, stdout, stderr, "openings", "Usage: milltune openings [--count N] [--max-pieces N] [--min-pieces N] [--nodes N] [--seed S]"); !ok {
		return code
	}
	if count < 1 || minPieces < 2*c.s.Play.Rules.PiecesAtLeastCount || maxPieces < minPieces {
		fmt.Fprintf(stderr, "milltune openings: want --count >= 1 and %d <= --min-pieces <= --max-pieces\n", 2*c.s.Play.Rules.PiecesAtLeastCount)
		return cli.ExitUsage
	}
	found, games := c.s.Openings(ctx, stderr, count, minPieces, maxPieces)
	for _, fen := range found {
		fmt.Fprintf(stdout, "fen %s\n", fen)
	}
	if len(found) < count {
		fmt.Fprintf(stderr, "milltune openings: only %d openings from %d games\n", len(found), games)
		return 1
	}
	return 0
}
