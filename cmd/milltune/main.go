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
	"math"
	"math/rand/v2"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/buildinfo"
	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
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

// playConfig is what every game of a run shares: the rules, the opening
// length and the limit of each move.
type playConfig struct {
	rules        rules.Rules
	openingPlies int // random legal actions before the engines play
	nodes        uint64
	depth        int // overrides nodes when positive
	maxPlies     int // a game this long is a draw
}

// pairResult is a game pair from a's view: its score (0–2) and how each
// game ended: outcome +1 a won, 0 a draw, -1 a lost, and the reason.
type pairResult struct {
	score   float64
	w, d, l int
	outcome [2]int
	reasons [2]position.Reason
}

// playPair plays the opening of seed twice, a as white then as black, and
// returns a's results. It is the one game loop of the screen and the tuner.
func playPair(a, b *search.Engine, pc *playConfig, seed uint64) pairResult {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	open := position.NewGame(pc.rules, position.New(&pc.rules))
	match.PlayRandom(open, pc.openingPlies, rng, nil)
	lim := search.Limits{Nodes: pc.nodes}
	if pc.depth > 0 {
		lim = search.Limits{Depth: pc.depth}
	}
	var res pairResult
	for swap := 0; swap < 2; swap++ {
		g := open.Clone()
		a.NewGame()
		b.NewGame()
		aColor := position.Color(swap)
		for ply := 0; ply < pc.maxPlies && !g.Pos.IsOver(); ply++ {
			e := b
			if g.Pos.SideToMove() == aColor {
				e = a
			}
			g.Play(e.Search(g, lim, nil).BestMove)
		}
		outcome, why := g.Pos.Result()
		res.reasons[swap] = why
		switch {
		case !g.Pos.IsOver() || outcome == position.Draw:
			res.score += 0.5
			res.d++
		case outcome == position.Winner(aColor):
			res.score++
			res.w++
			res.outcome[swap] = 1
		default:
			res.l++
			res.outcome[swap] = -1
		}
	}
	return res
}

// engineConfig is one side of a screen: search options and evaluation weights.
type engineConfig struct {
	opts   search.Options
	params eval.Params
}

// newEngine returns an engine set up as c, with a small table.
func (c *engineConfig) newEngine() *search.Engine {
	e := search.New(8)
	e.SetOptions(c.opts)
	p := c.params
	e.SetEvalParams(&p)
	return e
}

// weight is a tunable evaluation weight: its name and where it lives.
type weight struct {
	name string
	get  func(*eval.Params) *int
	c    float64 // SPSA perturbation
}

var stageNames = [...]string{"placing", "moving", "flying"}

// weights lists every evaluation weight of every stage, from eval's table of
// features.
func weights() []weight {
	var ws []weight
	for s := range stageNames {
		for f, info := range eval.Features {
			ws = append(ws, weight{name: stageNames[s] + "." + info.Name, c: info.SPSA,
				get: func(p *eval.Params) *int { return &p.W[s][f] }})
		}
	}
	return ws
}

// parseConfig reads "Name=Value,…" into a configuration that starts from the
// engine's defaults.
func parseConfig(spec string) (engineConfig, error) {
	c := engineConfig{opts: search.DefaultOptions(), params: eval.DefaultParams}
	ws := weights()
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return c, fmt.Errorf("%q: want Name=Value", item)
		}
		switch strings.ToLower(name) {
		case "maxquiescencedepth":
			v, err := intIn(name, val, 0, search.MaxQuiescenceDepth)
			if err != nil {
				return c, err
			}
			c.opts.MaxQuiescenceDepth = v
			continue
		case "contempt":
			v, err := intIn(name, val, -search.MaxContempt, search.MaxContempt)
			if err != nil {
				return c, err
			}
			c.opts.Contempt = v
			continue
		case "algorithm":
			a, err := search.ParseAlgorithm(val)
			if err != nil {
				return c, err
			}
			c.opts.Algorithm = a
			continue
		}
		i := slices.IndexFunc(ws, func(w weight) bool { return strings.EqualFold(w.name, name) })
		if i < 0 {
			return c, fmt.Errorf("%q: unknown option or weight (weights are stage.Name, e.g. moving.Mobility)", name)
		}
		v, err := strconv.Atoi(val)
		if err != nil {
			return c, fmt.Errorf("%s=%s: not an integer", name, val)
		}
		*ws[i].get(&c.params) = v
	}
	return c, nil
}

// intIn parses the value of the configuration option name, an integer in
// lo..hi.
func intIn(name, val string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(val)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s=%s: want an integer %d..%d", name, val, lo, hi)
	}
	return v, nil
}

// tally sums game pairs from A's view, with the endings of the games each
// side lost and of the draws: losses are what a change against blockades
// or blunders must lower, in a game that is a draw with perfect play.
type tally struct {
	w, d, l int
	reasons [3]map[string]int // by outcome+1: A lost, draws, B lost
}

func newTally() *tally {
	return &tally{reasons: [3]map[string]int{{}, {}, {}}}
}

func (t *tally) add(r pairResult) {
	t.w += r.w
	t.d += r.d
	t.l += r.l
	for i, why := range r.reasons {
		t.reasons[r.outcome[i]+1][why.String()]++
	}
}

// endings lists the reasons of one outcome, most frequent first.
func endings(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var ends []string
	for _, k := range keys {
		ends = append(ends, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(ends) == 0 {
		return "none"
	}
	return strings.Join(ends, ", ")
}

// String is the screen's result line: W-D-L from A's view, score and Elo.
func (t *tally) String() string {
	n := float64(t.w + t.d + t.l)
	if n == 0 {
		return "no games"
	}
	s := (float64(t.w) + float64(t.d)/2) / n
	elo := math.Inf(1)
	if s < 1 {
		elo = -400 * math.Log10(1/s-1)
	}
	return fmt.Sprintf("A vs B: +%d =%d -%d, score %.3f, Elo %+.1f (%d games)\n"+
		"  A lost: %s\n  B lost: %s\n  drawn: %s",
		t.w, t.d, t.l, s, elo, t.w+t.d+t.l, endings(t.reasons[0]), endings(t.reasons[2]), endings(t.reasons[1]))
}

// common holds the flags both commands share: how the games are played.
type common struct {
	pc      playConfig
	variant string
	seed    uint64
	workers int
}

// flags adds the shared flags to fs.
func (c *common) flags(fs *pflag.FlagSet) {
	fs.Uint64Var(&c.pc.nodes, "nodes", 20000, "nodes per move")
	fs.IntVar(&c.pc.depth, "depth", 0, "depth per move instead of a node budget")
	fs.IntVar(&c.pc.openingPlies, "opening-plies", 4, "random legal actions before the engines play")
	fs.IntVar(&c.pc.maxPlies, "max-plies", 400, "a game this long is a draw")
	fs.StringVar(&c.variant, "variant", rules.Presets[0].Key, "rule preset")
	fs.Uint64Var(&c.seed, "seed", 1, "first opening seed (pair i uses seed+i)")
	fs.IntVar(&c.workers, "workers", 2, "games played at once")
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
	pc, workers := &c.pc, c.workers
	p, ok := rules.PresetByName(c.variant)
	if !ok {
		return fmt.Errorf("--variant %q: unknown (want one of %s)", c.variant, strings.Join(rules.PresetKeys(), ", "))
	}
	pc.rules = p.Rules
	switch {
	case pc.nodes < 1 && pc.depth < 1:
		return errors.New("--nodes or --depth must be positive")
	case pc.depth < 0 || pc.depth >= search.MaxPly:
		return fmt.Errorf("--depth %d is out of range 1..%d", pc.depth, search.MaxPly-1)
	case pc.openingPlies < 0 || pc.openingPlies > 30:
		return fmt.Errorf("--opening-plies %d is out of range 0..30", pc.openingPlies)
	case pc.maxPlies < 1:
		return fmt.Errorf("--max-plies %d must be positive", pc.maxPlies)
	case workers < 1 || workers > 64:
		return fmt.Errorf("--workers %d is out of range 1..64", workers)
	}
	return nil
}

// pairs runs fn(worker, pair) for pairs 0..n-1 on the given number of
// goroutines, until they are done or ctx ends. newWorker builds each
// goroutine's private state (its engines).
func pairs[W any](ctx context.Context, n, workers int, newWorker func() W, fn func(W, int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		st := newWorker()
		wg.Go(func() {
			for i := range jobs {
				fn(st, i)
			}
		})
	}
	for i := 0; i < n; i++ {
		select {
		case jobs <- i:
			continue
		case <-ctx.Done():
		}
		break
	}
	close(jobs)
	wg.Wait()
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
	cfgA, errA := parseConfig(specA)
	cfgB, errB := parseConfig(specB)
	if err := errors.Join(errA, errB); err != nil {
		fmt.Fprintf(stderr, "milltune screen: %v\n", err)
		return cli.ExitUsage
	}
	var mu sync.Mutex
	t := newTally()
	n := (games + 1) / 2
	type engines struct{ a, b *search.Engine }
	pairs(ctx, n, c.workers, func() engines { return engines{cfgA.newEngine(), cfgB.newEngine()} },
		func(es engines, i int) {
			r := playPair(es.a, es.b, &c.pc, c.seed+uint64(i))
			mu.Lock()
			defer mu.Unlock()
			t.add(r)
			fmt.Fprintf(stderr, "\rgame %d/%d: A vs B +%d =%d -%d", t.w+t.d+t.l, 2*n, t.w, t.d, t.l)
		})
	fmt.Fprintln(stderr)
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
	fs.Float64Var(&rate, "rate", 0.03, "step per game pair, as a fraction of a weight's perturbation")
	if code, ok := c.parse(fs, args, stdout, stderr, "spsa", "Usage: milltune spsa [--pairs N] [--nodes N] [--start CONFIG] [--variant V] [--seed S]"); !ok {
		return code
	}
	if err := cli.CheckRange("--pairs", iters, 1, 10_000_000); err != nil {
		fmt.Fprintf(stderr, "milltune spsa: %v (see milltune spsa --help)\n", err)
		return cli.ExitUsage
	}
	base, err := parseConfig(start)
	if err != nil {
		fmt.Fprintf(stderr, "milltune spsa: --start: %v\n", err)
		return cli.ExitUsage
	}
	sp, err := newSPSA(base.params, rate, only)
	if err != nil {
		fmt.Fprintf(stderr, "milltune spsa: --tune: %v\n", err)
		return cli.ExitUsage
	}
	type engines struct{ a, b *search.Engine }
	pairs(ctx, iters, c.workers, func() engines { return engines{search.New(4), search.New(4)} },
		func(es engines, it int) {
			pa, pb, delta := sp.perturb(c.seed + uint64(it))
			es.a.SetEvalParams(&pa)
			es.b.SetEvalParams(&pb)
			r := playPair(es.a, es.b, &c.pc, c.seed+uint64(it))
			if done := sp.step(delta, r.score-1); done%100 == 0 {
				fmt.Fprintf(stderr, "after %d pairs: %s\n", done, sp.String())
			}
		})
	fmt.Fprintln(stdout, sp.String())
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "milltune spsa: interrupted; resume with --start and the weights above")
		return cli.StoppedCode(ctx)
	}
	return 0
}

// spsa is the tuner's state: the current weights (as reals) and their
// perturbations, shared by the goroutines that play the pairs.
type spsa struct {
	mu    sync.Mutex
	ws    []weight
	base  eval.Params
	theta []float64
	rate  float64
	done  int
}

// newSPSA starts the tuner at start; only, if not empty, restricts it to the
// weights whose names match one of its patterns (path.Match, case-insensitive).
func newSPSA(start eval.Params, rate float64, only []string) (*spsa, error) {
	sp := &spsa{base: start, rate: rate}
	matched := make([]bool, len(only))
	for _, w := range weights() {
		if w.c == 0 {
			continue
		}
		keep := len(only) == 0
		for i, pat := range only {
			ok, err := path.Match(strings.ToLower(pat), strings.ToLower(w.name))
			if err != nil {
				return nil, fmt.Errorf("%q: %v", pat, err)
			}
			if ok {
				keep, matched[i] = true, true
			}
		}
		if keep {
			sp.ws = append(sp.ws, w)
			sp.theta = append(sp.theta, float64(*w.get(&start)))
		}
	}
	for i, ok := range matched {
		if !ok {
			return nil, fmt.Errorf("%q matches no tunable weight", only[i])
		}
	}
	return sp, nil
}

// perturb returns the two weight sets of one iteration, θ+cΔ and θ−cΔ, with
// the random signs Δ drawn from seed.
func (sp *spsa) perturb(seed uint64) (a, b eval.Params, delta []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x73707361))
	sp.mu.Lock()
	defer sp.mu.Unlock()
	a, b = sp.base, sp.base
	delta = make([]float64, len(sp.ws))
	for i, w := range sp.ws {
		delta[i] = float64(rng.IntN(2)*2 - 1)
		*w.get(&a) = int(math.Round(sp.theta[i] + w.c*delta[i]))
		*w.get(&b) = int(math.Round(sp.theta[i] - w.c*delta[i]))
	}
	return a, b, delta
}

// step moves θ by the result (−1..+1 from θ+cΔ's view) of one pair and
// returns the number of pairs done.
func (sp *spsa) step(delta []float64, result float64) int {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i, w := range sp.ws {
		sp.theta[i] += sp.rate * w.c * result * delta[i]
	}
	sp.done++
	return sp.done
}

// String lists the weights as a configuration that --start (and screen's
// --a/--b) accept.
func (sp *spsa) String() string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	parts := make([]string, len(sp.ws))
	for i, w := range sp.ws {
		parts[i] = fmt.Sprintf("%s=%d", w.name, int(math.Round(sp.theta[i])))
	}
	return strings.Join(parts, ",")
}

// runOpenings writes openings that reach the endgame: each is the first
// position of a self-play game (from a seeded random opening, the engine at
// a fixed node budget on both sides) with both hands empty, no removal
// pending and at most --max-pieces pieces on the board, as a millmatch
// opening line "fen <FEN>". Games that never get there give none; equal
// positions are written once.
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
	if count < 1 || minPieces < 2*c.pc.rules.PiecesAtLeastCount || maxPieces < minPieces {
		fmt.Fprintf(stderr, "milltune openings: want --count >= 1 and %d <= --min-pieces <= --max-pieces\n", 2*c.pc.rules.PiecesAtLeastCount)
		return cli.ExitUsage
	}
	// Games are played in batches and taken in the order of their seeds, so
	// the file is the same whatever the number of workers.
	seen := map[string]bool{}
	var found []string
	games := 0
	for batch := 0; len(found) < count && batch < 50 && ctx.Err() == nil; batch++ {
		n := 2 * count
		fens := make([]string, n)
		pairs(ctx, n, c.workers, func() *search.Engine { return search.New(8) }, func(e *search.Engine, i int) {
			if fen, ok := endgameOf(e, &c.pc, c.seed+uint64(batch*n+i), minPieces, maxPieces); ok {
				fens[i] = fen
			}
		})
		for _, fen := range fens {
			games++
			if fen != "" && !seen[fen] && len(found) < count {
				seen[fen] = true
				found = append(found, fen)
			}
		}
		fmt.Fprintf(stderr, "\ropenings %d/%d from %d games", len(found), count, games)
	}
	fmt.Fprintln(stderr)
	for _, fen := range found {
		fmt.Fprintf(stdout, "fen %s\n", fen)
	}
	if len(found) < count {
		fmt.Fprintf(stderr, "milltune openings: only %d openings from %d games\n", len(found), games)
		return 1
	}
	return 0
}

// endgameOf plays one self-play game from the random opening of seed and
// returns the FEN of its first position in the wanted range.
func endgameOf(e *search.Engine, pc *playConfig, seed uint64, minPieces, maxPieces int) (string, bool) {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	g := position.NewGame(pc.rules, position.New(&pc.rules))
	match.PlayRandom(g, pc.openingPlies, rng, nil)
	e.NewGame()
	for ply := 0; ply < pc.maxPlies && !g.Pos.IsOver(); ply++ {
		p := &g.Pos
		n := p.OnBoard(position.White) + p.OnBoard(position.Black)
		if p.InHand(position.White) == 0 && p.InHand(position.Black) == 0 && p.Action() != position.Remove &&
			n >= minPieces && n <= maxPieces {
			return p.FEN(), true
		}
		g.Play(e.Search(g, search.Limits{Nodes: pc.nodes}, nil).BestMove)
	}
	return "", false
}
