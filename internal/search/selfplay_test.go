package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// experiments name tuning changes that TestSelfPlay can pit against the
// default; the strength of each is decided by games (see README, "Strength").
var experiments = map[string]func(*tuning, *Options){
	"none":     func(t *tuning, o *Options) {},
	"nolmr":    func(t *tuning, o *Options) { t.lmr = false },
	"nullmove": func(t *tuning, o *Options) { t.nullMove = true },
	"futility": func(t *tuning, o *Options) { t.futility = true },
	"noqmills": func(t *tuning, o *Options) { t.qMills = false },
	"grain4":   func(t *tuning, o *Options) { t.grain = 4 },
	"grain8":   func(t *tuning, o *Options) { t.grain = 8 },
	"grain16":  func(t *tuning, o *Options) { t.grain = 16 },
	"maxq0":    func(t *tuning, o *Options) { o.MaxQuiescenceDepth = 0 },
	"maxq3":    func(t *tuning, o *Options) { o.MaxQuiescenceDepth = 3 },
	"maxq4":    func(t *tuning, o *Options) { o.MaxQuiescenceDepth = 4 },
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestSelfPlay plays the default tuning against an experiment in-process at a
// fixed node budget (deterministic, independent of machine load):
//
//	SELFPLAY=futility SP_GAMES=200 SP_NODES=20000 go test ./internal/search -run TestSelfPlay -v
//
// It is a quick screening tool; changes are confirmed with millmatch.
func TestSelfPlay(t *testing.T) {
	exp := os.Getenv("SELFPLAY")
	if exp == "" {
		t.Skip("set SELFPLAY=<experiment> to run")
	}
	mod, ok := experiments[exp]
	if !ok {
		t.Fatalf("unknown experiment %q", exp)
	}
	games := envInt("SP_GAMES", 100)
	nodes := uint64(envInt("SP_NODES", 20000))
	depth := envInt("SP_DEPTH", 0)
	variant := os.Getenv("SP_VARIANT")
	if variant == "" {
		variant = "nine-mens-morris"
	}
	preset, _ := rules.PresetByName(variant)
	r := preset.Rules
	type result struct{ w, d, l int }
	var mu sync.Mutex
	var tot result
	reasons := map[string]int{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for k := 0; k < 2; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base, expe := New(8), New(8)
			expe.tune = defaultTuning
			o := expe.Options()
			mod(&expe.tune, &o)
			expe.SetOptions(o)
			for pair := range jobs {
				rng := rand.New(rand.NewPCG(uint64(pair), 99))
				open := position.NewGame(r, position.New(&r))
				for i := 0; i < 4; i++ {
					var ml movegen.MoveList
					movegen.Generate(&open.Rules, &open.Pos, &ml)
					open.Play(ml.Moves[rng.IntN(ml.N)])
				}
				for swap := 0; swap < 2; swap++ {
					g := open.Clone()
					base.NewGame()
					expe.NewGame()
					for ply := 0; ply < 400 && !g.Pos.IsOver(); ply++ {
						e := base
						if (g.Pos.SideToMove() == position.White) == (swap == 0) {
							e = expe
						}
						lim := Limits{Nodes: nodes}
						if depth > 0 {
							lim = Limits{Depth: depth}
						}
						res := e.Search(g, lim, nil)
						g.Play(res.BestMove)
					}
					res, why := g.Pos.Result()
					expColor := position.White
					if swap == 1 {
						expColor = position.Black
					}
					mu.Lock()
					switch {
					case !g.Pos.IsOver() || res == position.Draw:
						tot.d++
					case res == position.Winner(expColor):
						tot.w++
					default:
						tot.l++
					}
					reasons[why.String()]++
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < games/2; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	n := float64(tot.w + tot.d + tot.l)
	s := (float64(tot.w) + float64(tot.d)/2) / n
	elo := -400 * math.Log10(1/s-1)
	t.Logf("%s vs default, %s, %d nodes/move: +%d =%d -%d  score %.3f  Elo %+.1f  reasons %v",
		exp, variant, nodes, tot.w, tot.d, tot.l, s, elo, fmt.Sprint(reasons))
}
