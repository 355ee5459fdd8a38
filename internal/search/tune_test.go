package search

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// spsaParam is one tunable weight: a pointer into eval.Params and its step.
type spsaParam struct {
	name string
	get  func(*eval.Params) *int
	c    float64 // perturbation
}

func spsaParams() []spsaParam {
	stages := []string{"placing", "moving", "flying"}
	var ps []spsaParam
	for s := 0; s < 3; s++ {
		s := s
		add := func(name string, c float64, f func(w *eval.Weights) *int) {
			ps = append(ps, spsaParam{name: stages[s] + "." + name, c: c,
				get: func(p *eval.Params) *int { return f(&p.W[s]) }})
		}
		add("Pending", 10, func(w *eval.Weights) *int { return &w.Pending })
		add("Mobility", 1.5, func(w *eval.Weights) *int { return &w.Mobility })
		add("OpenTwo", 4, func(w *eval.Weights) *int { return &w.OpenTwo })
		add("ReachTwo", 4, func(w *eval.Weights) *int { return &w.ReachTwo })
		add("RunningMill", 8, func(w *eval.Weights) *int { return &w.RunningMill })
		add("Blocked", 2, func(w *eval.Weights) *int { return &w.Blocked })
		add("Point", 1, func(w *eval.Weights) *int { return &w.Point })
		add("DoubleThreat", 8, func(w *eval.Weights) *int { return &w.DoubleThreat })
	}
	return ps
}

// playPair plays one opening twice, a as white then as black, at a fixed
// node budget, and returns a's score (0, 0.5, 1, …, 2).
func playPair(a, b *Engine, r rules.Rules, seed uint64, nodes uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 77))
	open := position.NewGame(r, position.New(&r))
	for i := 0; i < 4; i++ {
		var ml movegen.MoveList
		movegen.Generate(&open.Rules, &open.Pos, &ml)
		open.Play(ml.Moves[rng.IntN(ml.N)])
	}
	score := 0.0
	for swap := 0; swap < 2; swap++ {
		g := open.Clone()
		a.NewGame()
		b.NewGame()
		aColor := position.Color(swap)
		for ply := 0; ply < 400 && !g.Pos.IsOver(); ply++ {
			e := b
			if g.Pos.SideToMove() == aColor {
				e = a
			}
			g.Play(e.Search(g, Limits{Nodes: nodes}, nil).BestMove)
		}
		res, _ := g.Pos.Result()
		switch {
		case !g.Pos.IsOver() || res == position.Draw:
			score += 0.5
		case res == position.Winner(aColor):
			score++
		}
	}
	return score
}

// TestTuneSPSA tunes the evaluation weights by self-play with SPSA:
//
//	TUNE=2000 SP_NODES=5000 go test ./internal/search -run TestTuneSPSA -v -timeout 0
//
// TUNE is the number of game pairs. It prints the tuned weights, which are
// then confirmed against the old ones by a millmatch match.
func TestTuneSPSA(t *testing.T) {
	iters := envInt("TUNE", 0)
	if iters == 0 {
		t.Skip("set TUNE=<game pairs> to run")
	}
	nodes := uint64(envInt("SP_NODES", 5000))
	r := rules.Default()
	ps := spsaParams()
	theta := make([]float64, len(ps))
	base := eval.DefaultParams
	for i, p := range ps {
		theta[i] = float64(*p.get(&base))
	}
	const A = 0.0 // no stability constant: a constant learning rate
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for k := 0; k < 2; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ea, eb := New(4), New(4)
			for it := range jobs {
				rng := rand.New(rand.NewPCG(uint64(it), 1234))
				delta := make([]float64, len(ps))
				pa, pb := eval.DefaultParams, eval.DefaultParams
				mu.Lock()
				for i, p := range ps {
					delta[i] = float64(rng.IntN(2)*2 - 1)
					*p.get(&pa) = int(theta[i] + p.c*delta[i] + 0.5)
					*p.get(&pb) = int(theta[i] - p.c*delta[i] + 0.5)
				}
				mu.Unlock()
				ea.tune, eb.tune = defaultTuning, defaultTuning
				ea.tune.params, eb.tune.params = &pa, &pb
				res := playPair(ea, eb, r, uint64(it), nodes) - 1 // -1..+1
				mu.Lock()
				for i, p := range ps {
					// Step so that a full-point result moves a weight by
					// about a thirtieth of its perturbation.
					theta[i] += 0.03 * p.c * res * delta[i]
				}
				mu.Unlock()
			}
		}()
	}
	for it := 0; it < iters; it++ {
		jobs <- it
		if it%1000 == 999 {
			mu.Lock()
			t.Logf("after %d pairs: %s", it+1, fmtTheta(ps, theta))
			mu.Unlock()
		}
	}
	close(jobs)
	wg.Wait()
	_ = A
	t.Logf("final: %s", fmtTheta(ps, theta))
	fmt.Fprintln(os.Stderr, "tuned:", fmtTheta(ps, theta))
}

func fmtTheta(ps []spsaParam, theta []float64) string {
	var b strings.Builder
	for i, p := range ps {
		fmt.Fprintf(&b, "%s=%.1f ", p.name, theta[i])
	}
	return b.String()
}
