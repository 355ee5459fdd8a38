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
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/buildinfo"
	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/egtb"
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

// options holds the parsed command line.
type options struct {
	engines, names, args, setopts []string
	games, concurrency, maxPlies  int
	randomOpenings                int
	movetime, margin              int
	tc, openings, variant, sprt   string
	out, pgn, egtbDir             string
	seed, nodes                   uint64
	startup                       time.Duration
	debug, engineStderr, quiet    bool
	resume                        bool
	version                       bool
	movetimeSet                   bool // --movetime was given (0 is then refused, not the default)
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
	o.movetimeSet = fs.Changed("movetime")
	cfg, seed, err := o.config()
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
	cw := zerolog.ConsoleWriter{Out: stderr, TimeFormat: time.TimeOnly, NoColor: !isTerminal(stderr)}
	cfg.Log = zerolog.New(cw).Level(level).With().Timestamp().Logger()
	if o.engineStderr {
		cfg.EngineStderr = stderr
	}
	if !o.quiet {
		cfg.Live = stdout
	}
	closeOutputs, err := o.openOutputs(&cfg)
	if err != nil {
		fmt.Fprintf(stderr, "millmatch: %v\n", err)
		return exitFailure
	}
	defer closeOutputs()
	o.printHeader(stdout, &cfg, seed)

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
	fs.StringArrayVarP(&o.engines, "engine", "e", nil, `engine command line, split on spaces ("./bin/millengine --threads 1"); repeat for each engine`)
	fs.StringArrayVar(&o.names, "name", nil, `engine label: "LABEL" for the engines in order, or "N:LABEL" (default: the executable's name)`)
	fs.StringArrayVar(&o.args, "args", nil, `"N:ARGS": more arguments for engine N, split on spaces`)
	fs.StringArrayVar(&o.setopts, "option", nil, `"[N:]Name=Value" setoption for engine N (all engines without N:); "[N:]Name" for a button; not for rule options (--variant sets the rules)`)
	fs.IntVarP(&o.games, "games", "g", 100, "games per pairing (a match of two engines has one pairing)")
	fs.IntVar(&o.movetime, "movetime", 0, "fixed time per action in ms (go movetime); 100 unless --tc is given")
	fs.StringVar(&o.tc, "tc", "", `clock per side, "base+increment" in seconds, such as 10+0.1 (go wtime btime winc binc)`)
	fs.Uint64Var(&o.nodes, "nodes", 0, "fixed nodes per action (go nodes): the same games however loaded the machine is")
	fs.IntVar(&o.margin, "timemargin", 100, "ms an engine may overrun its move time or clock before it loses (hang / time forfeit)")
	fs.StringVar(&o.openings, "openings", "", `file of openings, one a line: tokens ("d6 d2"), or "fen <FEN> [moves …]"`)
	fs.IntVar(&o.randomOpenings, "random-openings", 0, "seeded random openings of K actions (legal, no mill closed, not decided)")
	fs.Uint64Var(&o.seed, "seed", 0, "seed for --random-openings (default: from the clock, printed)")
	fs.StringVarP(&o.variant, "variant", "v", "nine-mens-morris", "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fs.IntVar(&o.maxPlies, "max-plies", 2000, "adjudicate a draw after this many actions (opening included); 0: never")
	fs.StringVar(&o.egtbDir, "egtb-adjudicate", "", "adjudicate a draw as soon as a game reaches a position the endgame tables in this directory know to be drawn (won ones are played out)")
	fs.IntVarP(&o.concurrency, "concurrency", "c", 1, "games played at once (each with its own engine processes)")
	fs.StringVar(&o.sprt, "sprt", "", `"elo0,elo1[,alpha,beta]": stop when the SPRT decides (logistic Elo, trinomial; alpha=beta=0.05)`)
	fs.StringVarP(&o.out, "out", "o", "", "write every game as a JSON line to this file")
	fs.StringVar(&o.pgn, "pgn", "", "also write every game in Sanmill's PGN dialect to this file (appended with --resume)")
	fs.BoolVar(&o.resume, "resume", false, "go on with the match whose games --out holds (same command line, --seed included): count them and play the rest, appending")
	fs.DurationVar(&o.startup, "startup-timeout", 10*time.Second, "how long an engine may take for uciok and readyok")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no line per finished game, only the final report")
	fs.BoolVar(&o.engineStderr, "engine-stderr", false, "pass the engines' stderr through (default: discarded)")
	fs.BoolVar(&o.debug, "debug", false, "log every protocol line to stderr")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.Usage = func() {}
	return fs
}

// openOutputs opens --out (the games as JSON lines, checked against the
// command line with --resume) and --pgn into cfg; the function it returns
// closes them.
func (o *options) openOutputs(cfg *match.Config) (func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	if o.out != "" {
		f, err := openRecords(o.out, o.resume, cfg, cfg.Log)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		cfg.Records = f
	}
	if o.pgn != "" {
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if o.resume {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(o.pgn, flag, 0o644)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("--pgn: %w", err)
		}
		files = append(files, f)
		cfg.PGN = f
	}
	return closeAll, nil
}

// printHeader says what the match is: rules, time control, engines,
// openings and what a resumed match already holds.
func (o *options) printHeader(stdout io.Writer, cfg *match.Config, seed uint64) {
	fmt.Fprintf(stdout, "millmatch: %s, %s, %d games per pairing, concurrency %d\n", cfg.Variant.Key, cfg.TC, cfg.Games, cfg.Concurrency)
	for i, e := range cfg.Engines {
		fmt.Fprintf(stdout, "  engine %d: %s = %s\n", i+1, e.Name, e)
	}
	switch {
	case o.openings != "":
		fmt.Fprintf(stdout, "  openings: %d from %s\n", len(cfg.Openings), o.openings)
	case o.randomOpenings > 0:
		fmt.Fprintf(stdout, "  openings: %d random of %d actions, seed %d\n", len(cfg.Openings), o.randomOpenings, seed)
	default:
		fmt.Fprintln(stdout, "  openings: the start position")
	}
	if cfg.Tables != nil {
		fmt.Fprintf(stdout, "  adjudication: draws by the endgame tables, %s\n", cfg.Tables.Coverage())
	}
	if o.resume {
		fmt.Fprintf(stdout, "  resumed: %d games already in %s\n", len(cfg.Done), o.out)
	}
}

// printUsage writes the help text.
func printUsage(fs *pflag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usageHead)
	fmt.Fprint(w, fs.FlagUsages())
}

// config turns the flags into a match configuration; it also returns the
// seed used for random openings. Every value is checked here, with a
// message naming the flag, so that Validate has nothing left to refuse.
func (o *options) config() (match.Config, uint64, error) {
	var cfg match.Config
	if o.resume && o.out == "" {
		return cfg, 0, errors.New("--resume needs --out, the file of the games to go on from")
	}
	preset, ok := rules.PresetByName(o.variant)
	if !ok {
		return cfg, 0, fmt.Errorf("unknown --variant %q (want one of %s)", o.variant, strings.Join(rules.PresetKeys(), ", "))
	}
	cfg.Variant = preset
	var err error
	if cfg.Engines, err = o.engineSpecs(); err != nil {
		return cfg, 0, err
	}
	if err := o.limits(&cfg); err != nil {
		return cfg, 0, err
	}
	if cfg.TC, err = o.timeControl(); err != nil {
		return cfg, 0, err
	}
	if o.sprt != "" {
		if len(cfg.Engines) != 2 {
			return cfg, 0, fmt.Errorf("--sprt needs exactly two engines, got %d", len(cfg.Engines))
		}
		sp, err := parseSPRT(o.sprt)
		if err != nil {
			return cfg, 0, err
		}
		cfg.SPRT = &sp
	}
	seed := o.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()) & (1<<53 - 1) // printable, and exact in JSON tools
	}
	if cfg.Openings, err = o.openingList(preset.Rules, seed); err != nil {
		return cfg, 0, err
	}
	if o.egtbDir != "" {
		if cfg.Tables, err = openAdjudicator(o.egtbDir, preset); err != nil {
			return cfg, 0, err
		}
	}
	return cfg, seed, cfg.Validate()
}

// openAdjudicator opens --egtb-adjudicate's tables for the variant: at
// least one sector of its rules must be there, else the flag would
// silently do nothing.
func openAdjudicator(dir string, preset rules.Preset) (*egtb.Tables, error) {
	t, err := egtb.Open(dir, &preset.Rules)
	if err != nil {
		return nil, fmt.Errorf("--egtb-adjudicate: %w", err)
	}
	if !t.Covers(&preset.Rules) || len(t.Sectors()) == 0 {
		t.Close()
		return nil, fmt.Errorf("--egtb-adjudicate %s: no endgame tables for %s there", dir, preset.Key)
	}
	return t, nil
}

// engineSpecs reads --engine, --name, --args and --option: the engines with
// their labels, extra arguments and options (never a rule option: the rules
// are --variant's), each label distinct.
func (o *options) engineSpecs() ([]match.EngineSpec, error) {
	if len(o.engines) < 2 {
		return nil, fmt.Errorf("need at least two --engine flags, got %d", len(o.engines))
	}
	var specs []match.EngineSpec
	for i, e := range o.engines {
		f := strings.Fields(e)
		if len(f) == 0 {
			return nil, fmt.Errorf("--engine %d is empty", i+1)
		}
		specs = append(specs, match.EngineSpec{Path: f[0], Args: f[1:]})
	}
	n := len(specs)
	for i, s := range o.names {
		idx, label, hasIdx, err := indexed(s, n)
		if err != nil {
			return nil, fmt.Errorf("--name %q: %w", s, err)
		}
		if !hasIdx {
			if i >= n {
				return nil, fmt.Errorf("--name %q: more names than engines", s)
			}
			idx = i
		}
		if strings.TrimSpace(label) == "" {
			return nil, fmt.Errorf("--name %q: empty label", s)
		}
		specs[idx].Name = strings.TrimSpace(label)
	}
	for _, s := range o.args {
		idx, rest, hasIdx, err := indexed(s, n)
		if err != nil || !hasIdx {
			return nil, fmt.Errorf("--args %q: want N:ARGS with N from 1 to %d", s, n)
		}
		specs[idx].Args = append(specs[idx].Args, strings.Fields(rest)...)
	}
	for _, s := range o.setopts {
		idx, rest, hasIdx, err := indexed(s, n)
		if err != nil {
			return nil, fmt.Errorf("--option %q: %w", s, err)
		}
		opt, err := match.ParseOption(rest)
		if err != nil {
			return nil, fmt.Errorf("--option: %w", err)
		}
		if match.IsRuleOption(opt.Name) {
			return nil, fmt.Errorf("--option %q: %s is a rule option: the rules of every engine and of the referee are set with --variant", s, opt.Name)
		}
		for i := range specs {
			if !hasIdx || i == idx {
				specs[i].Options = append(specs[i].Options, opt)
			}
		}
	}
	defaultNames(specs)
	seen := map[string]bool{}
	for _, e := range specs {
		if seen[e.Name] {
			return nil, fmt.Errorf("two engines are named %q (label them apart with --name)", e.Name)
		}
		seen[e.Name] = true
	}
	return specs, nil
}

// limits checks and sets the games, the concurrency, the ply cap, the
// start-up timeout and the time margin.
func (o *options) limits(cfg *match.Config) error {
	switch {
	case o.games < 1:
		return fmt.Errorf("--games %d: must be at least 1", o.games)
	case o.concurrency < 1:
		return fmt.Errorf("--concurrency %d: must be at least 1", o.concurrency)
	case o.maxPlies < 0:
		return fmt.Errorf("--max-plies %d: must not be negative (0: no cap)", o.maxPlies)
	case o.startup <= 0:
		return fmt.Errorf("--startup-timeout %v: must be positive", o.startup)
	case o.margin < 0:
		return fmt.Errorf("--timemargin %d: must not be negative", o.margin)
	}
	cfg.Games, cfg.Concurrency, cfg.MaxPlies = o.games, o.concurrency, o.maxPlies
	cfg.StartupTimeout = o.startup
	cfg.Margin = time.Duration(o.margin) * time.Millisecond
	return nil
}

// timeControl reads --tc, --movetime and --nodes (one of them; 100 ms a
// move without any).
func (o *options) timeControl() (match.TimeControl, error) {
	switch {
	case (o.movetimeSet || o.movetime != 0) && o.movetime < 1:
		return match.TimeControl{}, fmt.Errorf("--movetime %d: must be at least 1", o.movetime)
	case o.tc != "" && o.movetime > 0:
		return match.TimeControl{}, errors.New("--tc and --movetime are exclusive")
	case o.nodes > 0 && (o.tc != "" || o.movetime > 0):
		return match.TimeControl{}, errors.New("--nodes excludes --tc and --movetime")
	case o.nodes > 0:
		return match.TimeControl{Nodes: o.nodes}, nil
	case o.tc != "":
		tc, err := match.ParseClock(o.tc)
		if err != nil {
			return match.TimeControl{}, fmt.Errorf("--tc: %w", err)
		}
		return tc, nil
	case o.movetime > 0:
		return match.TimeControl{MoveTime: time.Duration(o.movetime) * time.Millisecond}, nil
	}
	return match.TimeControl{MoveTime: 100 * time.Millisecond}, nil
}

// openingList reads --openings or makes --random-openings from seed (one
// opening per pair of games); none means every game starts from the start.
func (o *options) openingList(r rules.Rules, seed uint64) ([]match.Opening, error) {
	switch {
	case o.openings != "" && o.randomOpenings > 0:
		return nil, errors.New("--openings and --random-openings are exclusive")
	case o.randomOpenings < 0:
		return nil, fmt.Errorf("--random-openings %d: must not be negative", o.randomOpenings)
	case o.openings != "":
		return match.LoadOpenings(o.openings, r)
	case o.randomOpenings > 0:
		return match.RandomOpenings(r, max((o.games+1)/2, 1), o.randomOpenings, seed)
	}
	return nil, nil
}

// indexed splits "N:rest" into the 0-based engine index and rest; without a
// leading number and colon it returns the whole string and hasIdx false.
func indexed(s string, n int) (idx int, rest string, hasIdx bool, err error) {
	head, tail, ok := strings.Cut(s, ":")
	if !ok {
		return 0, s, false, nil
	}
	k, convErr := strconv.Atoi(strings.TrimSpace(head))
	if convErr != nil {
		return 0, s, false, nil // a colon inside a name or value
	}
	if k < 1 || k > n {
		return 0, "", true, fmt.Errorf("engine number %d is out of range 1..%d", k, n)
	}
	return k - 1, tail, true, nil
}

// defaultNames labels unnamed engines after their executable, adding "-2",
// "-3" … when two would share a label.
func defaultNames(specs []match.EngineSpec) {
	used := map[string]bool{}
	for _, s := range specs {
		if s.Name != "" {
			used[s.Name] = true
		}
	}
	for i := range specs {
		if specs[i].Name != "" {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(specs[i].Path), ".exe")
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		specs[i].Name = name
		used[name] = true
	}
}

// parseSPRT reads "elo0,elo1[,alpha,beta]".
func parseSPRT(s string) (match.SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return match.SPRT{}, fmt.Errorf("--sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	vals := []float64{0, 0, 0.05, 0.05}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return match.SPRT{}, fmt.Errorf("--sprt %q: %q is not a number", s, p)
		}
		vals[i] = v
	}
	sp := match.SPRT{Elo0: vals[0], Elo1: vals[1], Alpha: vals[2], Beta: vals[3]}
	if err := sp.Validate(); err != nil {
		return sp, fmt.Errorf("--sprt %q: %w", s, err)
	}
	return sp, nil
}

// openRecords opens the file the games are written to. A new match
// creates it afresh. With resume, the games it holds become cfg.Done and
// new games are appended; a file that does not exist yet starts the match.
// The file is left as it was when its games are not of this match (another
// command line); a last line cut off when the earlier run was killed is
// dropped, with a warning.
func openRecords(path string, resume bool, cfg *match.Config, log zerolog.Logger) (*os.File, error) {
	if !resume {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		return f, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	recs, complete, err := match.ReadRecords(f)
	if err == nil {
		cfg.Done = recs
		err = cfg.Validate()
	}
	var size int64
	if err == nil {
		size, err = f.Seek(0, io.SeekEnd)
	}
	if err == nil && size > complete {
		log.Warn().Int64("bytes", size-complete).Msg("--resume: dropping the unfinished last line of " + path)
		if err = f.Truncate(complete); err == nil {
			_, err = f.Seek(complete, io.SeekStart)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--resume: %s: %w", path, err)
	}
	return f, nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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
	for _, o := range ops {
		if !*fen {
			fmt.Fprintln(stdout, o.String())
			continue
		}
		g, err := o.Game(preset.Rules)
		if err != nil {
			fmt.Fprintf(stderr, "millmatch openings: %s: %v\n", o.Source, err)
			return exitFailure
		}
		fmt.Fprintln(stdout, g.Pos.FEN())
	}
	return exitOK
}
