package search

import (
	"fmt"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// benchWorker prepares a worker on the game's position as Search would.
func benchWorker(b *testing.B, g *position.Game, hashMB int) *worker {
	b.Helper()
	e := New(hashMB)
	s := &searchRun{e: e, opts: e.Options(), maxDepth: MaxPly - 1}
	w := newWorker(e, 0)
	e.workers = []*worker{w}
	s.workers = e.workers
	w.start(s, g, nil, 0)
	return w
}

func benchSearch(b *testing.B, g *position.Game, depth, hashMB int, noPrefetch, noEvalCache bool) {
	w := benchWorker(b, g, hashMB)
	w.benchNoPrefetch = noPrefetch
	if noEvalCache {
		w.evals = nil
	}
	var nodes uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.tt.Clear()
		w.hist.Clear()
		w.killers = [MaxPly + 2][2]position.Move{}
		w.nodes = 0
		w.evals.Clear()
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
	p := testkit.Position(b, &r, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10")
	return position.NewGame(r, p)
}

// searchBenchPositions are the searches of BenchmarkSearch and
// BenchmarkEvalCache: the start to depth 9, a moving-phase position to 13.
var searchBenchPositions = []struct {
	name  string
	game  func(*testing.B) *position.Game
	depth int
}{
	{"start", func(*testing.B) *position.Game { return startGame() }, 9},
	{"moving", movingGame, 13},
}

// BenchmarkSearch runs iterative PVS to a fixed depth from the start (depth 9)
// and in a moving-phase position (depth 13), with a small table that mostly
// fits in the last-level cache and a large one that does not, each with and
// without prefetching the child's bucket. Compare the prefetch with
// `benchstat -col /prefetch`. The search allocates nothing, so allocs/op is 0
// whatever the node count.
func BenchmarkSearch(b *testing.B) {
	for _, c := range searchBenchPositions {
		for _, mb := range []int{16, 256} {
			for _, pf := range []string{"on", "off"} {
				b.Run(fmt.Sprintf("pos=%s/hash=%dMB/prefetch=%s", c.name, mb, pf), func(b *testing.B) {
					benchSearch(b, c.game(b), c.depth, mb, pf == "off", false)
				})
			}
		}
	}
}

// BenchmarkEvalCache runs BenchmarkSearch's searches (16 MB table, prefetch
// on) with and without the workers' evaluation cache; the node counts are
// equal, so `benchstat -col /evalcache` gives the time the cache saves.
func BenchmarkEvalCache(b *testing.B) {
	for _, c := range searchBenchPositions {
		for _, ec := range []string{"on", "off"} {
			b.Run(fmt.Sprintf("pos=%s/evalcache=%s", c.name, ec), func(b *testing.B) {
				benchSearch(b, c.game(b), c.depth, 16, false, ec == "off")
			})
		}
	}
}

// BenchmarkTimeToDepth measures the engine as a user runs it (Search with a
// depth limit, a 64 MB table cleared before each search, history and killers
// reset) to depth 11 and 12 from the start and to depth 16 in two
// moving-phase positions, with one and two threads. sec/op is the time to
// depth; `benchstat -col /threads` gives the lazy-SMP time-to-depth ratio.
func BenchmarkTimeToDepth(b *testing.B) {
	r := rules.Default()
	for _, c := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"start", position.StartFEN, 11},
		{"start", position.StartFEN, 12},
		{"moving1", "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10", 16},
		{"moving2", "O*@*O**@/@*@O@O@O/*O**@OO@ w m s 8 0 8 0 0 0 0 0 0 0 0 10 17", 16},
	} {
		p := testkit.Position(b, &r, c.fen)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("pos=%s/depth=%d/threads=%d", c.name, c.depth, threads), func(b *testing.B) {
				e := New(64)
				o := e.Options()
				o.Threads = threads
				e.SetOptions(o)
				var nodes uint64
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					e.NewGame()
					g := position.NewGame(r, p)
					b.StartTimer()
					res := e.Search(g, Limits{Depth: c.depth}, nil)
					nodes += res.Nodes
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}
