package uci

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/tt"
)

// fakeEngine is a scripted Engine for testing the loop's control of a search
// independently of the real search.
type fakeEngine struct {
	mu       sync.Mutex
	calls    []string // SetHash, ClearHash, NewGame in order
	opts     search.Options
	lastLim  search.Limits
	searches int

	stop     atomic.Bool
	hit      atomic.Bool
	stopped  atomic.Int32 // Stop calls
	hitCalls atomic.Int32

	// search runs in Search; nil means "report depth 1 and return the first
	// legal move at once".
	search func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result
	// setHash runs in SetHash after it is recorded; nil means "done at once".
	setHash func(mb int) error
}

func (f *fakeEngine) record(c string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, c)
}

func (f *fakeEngine) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeEngine) Options() search.Options {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opts
}

func (f *fakeEngine) Searches() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.searches
}

func (f *fakeEngine) Limits() search.Limits {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastLim
}

func (f *fakeEngine) SetOptions(o search.Options) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opts = o
}
func (f *fakeEngine) SetHash(mb int) error {
	f.record("SetHash")
	if f.setHash != nil {
		return f.setHash(mb)
	}
	return nil
}
func (f *fakeEngine) ClearHash()                { f.record("ClearHash") }
func (f *fakeEngine) SetTables(*egtb.Tables)    {}
func (f *fakeEngine) SetRootSource(egtb.Source) {}
func (f *fakeEngine) NewGame()                  { f.record("NewGame") }
func (f *fakeEngine) Stop()                     { f.stopped.Add(1); f.stop.Store(true) }
func (f *fakeEngine) Prepare(bool)              { f.stop.Store(false); f.hit.Store(false) }
func (f *fakeEngine) PonderHit()                { f.hitCalls.Add(1); f.hit.Store(true) }

func (f *fakeEngine) Search(g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
	f.mu.Lock()
	f.lastLim = lim
	f.searches++
	f.mu.Unlock()
	if f.search != nil {
		return f.search(f, g, lim, report)
	}
	return quickResult(g, report)
}

// firstLegal returns the first legal action of g, in generation order.
func firstLegal(g *position.Game) position.Move {
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	if ml.N == 0 {
		return position.NoMove
	}
	return ml.Moves[0]
}

// quickResult reports one iteration and returns the first legal move.
func quickResult(g *position.Game, report func(search.Info)) search.Result {
	m := firstLegal(g)
	report(search.Info{Depth: 1, SelDepth: 1, MultiPV: 1, Score: 7, Nodes: 10, NPS: 1000,
		Time: time.Millisecond, PV: []position.Move{m}, Bound: tt.BoundExact})
	return search.Result{BestMove: m, Depth: 1, Nodes: 10, PV: []position.Move{m}}
}

// deafSearch reports one iteration, then ignores Stop until release is closed.
func deafSearch(release <-chan struct{}) func(*fakeEngine, *position.Game, search.Limits, func(search.Info)) search.Result {
	return func(f *fakeEngine, g *position.Game, _ search.Limits, report func(search.Info)) search.Result {
		res := quickResult(g, report)
		<-release
		return res
	}
}

// untilStop searches (sleeps) until Stop, like a real infinite search.
func untilStop(f *fakeEngine, g *position.Game, _ search.Limits, report func(search.Info)) search.Result {
	res := quickResult(g, report)
	for !f.stop.Load() {
		time.Sleep(time.Millisecond)
	}
	return res
}
