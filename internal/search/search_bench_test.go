package search

import (
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// benchWorker prepares a worker on the game's position as Search would.
func benchWorker(b *testing.B, g *position.Game, hashMB int) *worker {
	b.Helper()
	e := New(hashMB)
	w := newWorker(e, 0)
	e.workers = []*worker{w}
	e.hard = 0
	w.r = &g.Rules
	w.tt = e.tt
	w.opts = DefaultOptions()
	w.stop = &e.stop
	w.stack[0] = frame{pos: g.Pos}
	return w
}

func benchSearch(b *testing.B, g *position.Game, depth int, noPrefetch bool) {
	w := benchWorker(b, g, 16)
	w.noPrefetch = noPrefetch
	var nodes uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.tt.Clear()
		w.hist.Clear()
		w.killers = [MaxPly + 2][2]position.Move{}
		w.nodes = 0
		b.StartTimer()
		for d := 1; d <= depth; d++ {
			w.search(0, -ValueInfinite, ValueInfinite, d)
		}
		nodes += w.nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
}

func startGame() *position.Game {
	r := rules.Default()
	return position.NewGame(r, position.New(&r))
}

func movingGame(b *testing.B) *position.Game {
	r := rules.Default()
	p, err := position.ParseFEN(&r, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10")
	if err != nil {
		b.Fatal(err)
	}
	return position.NewGame(r, p)
}

// BenchmarkSearchStart: iterative PVS to depth 9 from the start. The search
// itself allocates nothing, so allocs/op is 0 whatever the node count.
func BenchmarkSearchStart(b *testing.B) { benchSearch(b, startGame(), 9, false) }

// BenchmarkSearchStartNoPrefetch is the same without prefetching the child's
// table bucket, to measure what the prefetch buys.
func BenchmarkSearchStartNoPrefetch(b *testing.B) { benchSearch(b, startGame(), 9, true) }

// BenchmarkSearchMoving: depth 13 in a moving-phase position.
func BenchmarkSearchMoving(b *testing.B) { benchSearch(b, movingGame(b), 13, false) }

// BenchmarkSearchMovingNoPrefetch: the same without prefetch.
func BenchmarkSearchMovingNoPrefetch(b *testing.B) { benchSearch(b, movingGame(b), 13, true) }
