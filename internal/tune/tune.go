// Package tune plays engines against each other in-process and tunes the
// evaluation: game pairs from seeded random openings with colours swapped at
// a fixed node budget (deterministic, unaffected by the machine's load), a
// pool of goroutines that plays them, the tally of a screen, configurations
// of search options and weights, and SPSA. milltune is its command line.
package tune

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/engine"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// PlayConfig is what every game of a run shares: the rules, the opening
// length and the limit of each move.
type PlayConfig struct {
	Rules        rules.Rules
	OpeningPlies int // random legal actions before the engines play
	Nodes        uint64
	Depth        int // overrides Nodes when positive
	MaxPlies     int // a game this long is a draw
}

// PairResult is a game pair from a's view: its score (0–2) and how each
// game ended: outcome +1 a won, 0 a draw, -1 a lost, and the reason.
type PairResult struct {
	Score   float64
	W, D, L int
	Outcome [2]int
	Reasons [2]position.Reason
}

// PlayPair plays the opening of seed twice, a as white then as black, and
// returns a's results. It is the one game loop of the screen and the tuner;
// each move is chosen by engine.Engine.Play, the UCI engine's go, with no
// book and no tables.
func PlayPair(sa, sb *search.Engine, pc *PlayConfig, seed uint64) PairResult {
	a, b := engine.New(sa, 0, zerolog.Nop()), engine.New(sb, 0, zerolog.Nop())
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	open := position.NewGame(pc.Rules, position.New(&pc.Rules))
	match.PlayRandom(open, pc.OpeningPlies, rng, nil)
	lim := search.Limits{Nodes: pc.Nodes}
	if pc.Depth > 0 {
		lim = search.Limits{Depth: pc.Depth}
	}
	var res PairResult
	for swap := 0; swap < 2; swap++ {
		g := open.Clone()
		a.NewGame()
		b.NewGame()
		aColor := position.Color(swap)
		for ply := 0; ply < pc.MaxPlies && !g.Pos.IsOver(); ply++ {
			e := b
			if g.Pos.SideToMove() == aColor {
				e = a
			}
			g.Play(e.Play(g, lim, 1, nil).Move)
		}
		outcome, why := g.Pos.Result()
		res.Reasons[swap] = why
		switch {
		case !g.Pos.IsOver() || outcome == position.Draw:
			res.Score += 0.5
			res.D++
		case outcome == position.Winner(aColor):
			res.Score++
			res.W++
			res.Outcome[swap] = 1
		default:
			res.L++
			res.Outcome[swap] = -1
		}
	}
	return res
}

// Config is one side of a screen: search options and evaluation weights.
type Config struct {
	Opts   search.Options
	Params eval.Params
}

// NewEngine returns an engine set up as c, with a small table.
func (c *Config) NewEngine() *search.Engine {
	e := search.New(8)
	e.SetOptions(c.Opts)
	p := c.Params
	e.SetEvalParams(&p)
	return e
}

// Weight is a tunable evaluation weight: its name and where it lives.
type Weight struct {
	Name string
	Get  func(*eval.Params) *int
	C    float64 // SPSA perturbation
}

var stageNames = [...]string{"placing", "moving", "flying"}

// Weights lists every evaluation weight of every stage, from eval's table of
// features.
func Weights() []Weight {
	var ws []Weight
	for s := range stageNames {
		for f, info := range eval.Features {
			ws = append(ws, Weight{Name: stageNames[s] + "." + info.Name, C: info.SPSA,
				Get: func(p *eval.Params) *int { return &p.W[s][f] }})
		}
	}
	return ws
}

// ParseConfig reads "Name=Value,…" into a configuration that starts from the
// engine's defaults.
func ParseConfig(spec string) (Config, error) {
	c := Config{Opts: search.DefaultOptions(), Params: eval.DefaultParams}
	ws := Weights()
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, val, ok := strings.Cut(item, "=")
		if !ok {
			return c, fmt.Errorf("%q: want Name=Value", item)
		}
		if d, ok := engineOption(name); ok {
			if err := setOption(&c.Opts, d, val); err != nil {
				return c, err
			}
			continue
		}
		i := slices.IndexFunc(ws, func(w Weight) bool { return strings.EqualFold(w.Name, name) })
		if i < 0 {
			return c, fmt.Errorf("%q: unknown option or weight (weights are stage.Name, e.g. moving.Mobility)", name)
		}
		v, err := strconv.Atoi(val)
		if err != nil {
			return c, fmt.Errorf("%s=%s: not an integer", name, val)
		}
		*ws[i].Get(&c.Params) = v
	}
	return c, nil
}

// tunedOptions are the engine options a configuration may set: the search
// options a tuning run compares. Their names, kinds and ranges are the UCI
// engine's own declarations (uci.Declarations), so milltune accepts what
// setoption accepts.
var tunedOptions = []string{"MaxQuiescenceDepth", "Contempt", "Algorithm"}

// engineOption returns the declaration of the tuned option name (any case).
func engineOption(name string) (uci.Decl, bool) {
	if !slices.ContainsFunc(tunedOptions, func(o string) bool { return strings.EqualFold(o, name) }) {
		return uci.Decl{}, false
	}
	for _, d := range uci.Declarations() {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return uci.Decl{}, false
}

// setOption sets the tuned option d to val in o, within d's declaration.
func setOption(o *search.Options, d uci.Decl, val string) error {
	switch d.Name {
	case "Algorithm":
		a, err := search.ParseAlgorithm(strings.ToLower(val)) // as setoption parses it
		if err != nil {
			return err
		}
		o.Algorithm = a
		return nil
	}
	v, err := intIn(d.Name, val, d.Min, d.Max)
	if err != nil {
		return err
	}
	switch d.Name {
	case "MaxQuiescenceDepth":
		o.MaxQuiescenceDepth = v
	case "Contempt":
		o.Contempt = v
	}
	return nil
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

// Tally sums game pairs from A's view, with the endings of the games each
// side lost and of the draws: losses are what a change against blockades
// or blunders must lower, in a game that is a draw with perfect play.
type Tally struct {
	W, D, L int               // A's wins, draws and losses
	reasons [3]map[string]int // by outcome+1: A lost, draws, B lost
}

func NewTally() *Tally {
	return &Tally{reasons: [3]map[string]int{{}, {}, {}}}
}

func (t *Tally) Add(r PairResult) {
	t.W += r.W
	t.D += r.D
	t.L += r.L
	for i, why := range r.Reasons {
		t.reasons[r.Outcome[i]+1][why.String()]++
	}
}

// String is the screen's result line: W-D-L from A's view, score and Elo.
func (t *Tally) String() string {
	n := float64(t.W + t.D + t.L)
	if n == 0 {
		return "no games"
	}
	s := (float64(t.W) + float64(t.D)/2) / n
	elo := math.Inf(1)
	if s < 1 {
		elo = -400 * math.Log10(1/s-1)
	}
	return fmt.Sprintf("A vs B: +%d =%d -%d, score %.3f, Elo %+.1f (%d games)\n"+
		"  A lost: %s\n  B lost: %s\n  drawn: %s",
		t.W, t.D, t.L, s, elo, t.W+t.D+t.L, match.CountList(t.reasons[0]), match.CountList(t.reasons[2]), match.CountList(t.reasons[1]))
}

// Pairs runs fn(worker, pair) for pairs 0..n-1 on the given number of
// goroutines, until they are done or ctx ends. newWorker builds each
// goroutine's private state (its engines).
func Pairs[W any](ctx context.Context, n, workers int, newWorker func() W, fn func(W, int)) {
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

// SPSA is the tuner's state: the current weights (as reals) and their
// perturbations, shared by the goroutines that play the pairs.
type SPSA struct {
	mu    sync.Mutex
	ws    []Weight
	base  eval.Params
	theta []float64
	rate  float64
	done  int
}

// NewSPSA starts the tuner at start; only, if not empty, restricts it to the
// weights whose names match one of its patterns (path.Match, case-insensitive).
func NewSPSA(start eval.Params, rate float64, only []string) (*SPSA, error) {
	sp := &SPSA{base: start, rate: rate}
	matched := make([]bool, len(only))
	for _, w := range Weights() {
		if w.C == 0 {
			continue
		}
		keep := len(only) == 0
		for i, pat := range only {
			ok, err := path.Match(strings.ToLower(pat), strings.ToLower(w.Name))
			if err != nil {
				return nil, fmt.Errorf("%q: %v", pat, err)
			}
			if ok {
				keep, matched[i] = true, true
			}
		}
		if keep {
			sp.ws = append(sp.ws, w)
			sp.theta = append(sp.theta, float64(*w.Get(&start)))
		}
	}
	for i, ok := range matched {
		if !ok {
			return nil, fmt.Errorf("%q matches no tunable weight", only[i])
		}
	}
	return sp, nil
}

// Perturb returns the two weight sets of one iteration, θ+cΔ and θ−cΔ, with
// the random signs Δ drawn from seed.
func (sp *SPSA) Perturb(seed uint64) (a, b eval.Params, delta []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x73707361))
	sp.mu.Lock()
	defer sp.mu.Unlock()
	a, b = sp.base, sp.base
	delta = make([]float64, len(sp.ws))
	for i, w := range sp.ws {
		delta[i] = float64(rng.IntN(2)*2 - 1)
		*w.Get(&a) = int(math.Round(sp.theta[i] + w.C*delta[i]))
		*w.Get(&b) = int(math.Round(sp.theta[i] - w.C*delta[i]))
	}
	return a, b, delta
}

// Step moves θ by the result (−1..+1 from θ+cΔ's view) of one pair and
// returns the number of pairs done.
func (sp *SPSA) Step(delta []float64, result float64) int {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i, w := range sp.ws {
		sp.theta[i] += sp.rate * w.C * result * delta[i]
	}
	sp.done++
	return sp.done
}

// String lists the weights as a configuration that --start (and screen's
// --a/--b) accept.
func (sp *SPSA) String() string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	parts := make([]string, len(sp.ws))
	for i, w := range sp.ws {
		parts[i] = fmt.Sprintf("%s=%d", w.Name, int(math.Round(sp.theta[i])))
	}
	return strings.Join(parts, ",")
}
