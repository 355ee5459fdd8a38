package search

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Engine searches positions. Its options are set between searches; Stop and
// PonderHit may be called from any goroutine while Search runs.
type Engine struct {
	mu      sync.Mutex
	opts    Options
	hashMB  int
	stop    atomic.Bool
	ponder  atomic.Bool
	pondHit chan struct{}
}

// New returns an engine with a transposition table of hashMB megabytes.
func New(hashMB int) *Engine {
	return &Engine{opts: DefaultOptions(), hashMB: hashMB}
}

// SetOptions replaces the search options; call it while no search runs.
func (e *Engine) SetOptions(o Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if o.Threads < 1 {
		o.Threads = 1
	}
	if o.MultiPV < 1 {
		o.MultiPV = 1
	}
	e.opts = o
}

// Options returns the current search options.
func (e *Engine) Options() Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts
}

// SetHash resizes the transposition table to mb megabytes (cleared).
func (e *Engine) SetHash(mb int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.hashMB = mb
}

// ClearHash empties the transposition table.
func (e *Engine) ClearHash() {}

// NewGame forgets everything learned from earlier searches.
func (e *Engine) NewGame() { e.ClearHash() }

// HashFull returns the transposition table's fill in permille.
func (e *Engine) HashFull() int { return 0 }

// Stop ends a running search; its Result follows promptly.
func (e *Engine) Stop() { e.stop.Store(true) }

// PonderHit tells a pondering search that the expected move was played: it
// goes on under the normal clock.
func (e *Engine) PonderHit() {
	if e.ponder.CompareAndSwap(true, false) {
		select {
		case e.pondHit <- struct{}{}:
		default:
		}
	}
}

// Search runs a search of the game's current position and returns its best
// move. report, if not nil, is called from the search goroutine after every
// completed iteration.
func (e *Engine) Search(g *position.Game, lim Limits, report func(Info)) Result {
	opts := e.Options()
	e.stop.Store(false)
	e.ponder.Store(lim.Ponder)
	e.pondHit = make(chan struct{}, 1)
	start := time.Now()
	s := &simpleSearch{r: &g.Rules, stop: &e.stop, start: start, lim: lim}
	root := g.Pos
	var ml movegen.MoveList
	movegen.Generate(s.r, &root, &ml)
	res := Result{}
	if ml.N == 0 {
		return res
	}
	res.BestMove = ml.Moves[0]
	maxDepth := MaxPly - 1
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	}
	budget := timeBudget(&lim, root.SideToMove(), opts.MoveOverhead)
	for d := 1; d <= maxDepth; d++ {
		score, best, pv := s.root(&root, d, &ml)
		if s.stopped && d > 1 {
			break
		}
		res.BestMove, res.Score, res.Depth, res.PV = best, score, d, pv
		if report != nil {
			el := time.Since(start)
			report(Info{Depth: d, SelDepth: d, MultiPV: 1, Score: score, Nodes: s.nodes,
				NPS: nps(s.nodes, el), Time: el, PV: pv, Bound: BoundExact})
		}
		if score > ValueMateBand || score < -ValueMateBand {
			if lim.Depth == 0 && !lim.Infinite && !lim.Ponder {
				break
			}
		}
		if !lim.Infinite && !e.ponder.Load() && budget > 0 && time.Since(start) > budget/2 {
			break
		}
		if lim.Nodes > 0 && s.nodes >= lim.Nodes {
			break
		}
	}
	for (lim.Infinite || e.ponder.Load()) && !e.stop.Load() {
		time.Sleep(time.Millisecond)
	}
	res.Nodes = s.nodes
	if len(res.PV) > 1 {
		res.PonderMove = res.PV[1]
	}
	return res
}

func nps(nodes uint64, el time.Duration) uint64 {
	if el <= 0 {
		return 0
	}
	return uint64(float64(nodes) / el.Seconds())
}

// timeBudget returns the time to spend on this move, 0 for no limit.
func timeBudget(l *Limits, side position.Color, overhead time.Duration) time.Duration {
	if l.MoveTime > 0 {
		return l.MoveTime - overhead
	}
	if !l.HasClock() {
		return 0
	}
	left, inc := l.WTime, l.WInc
	if side == position.Black {
		left, inc = l.BTime, l.BInc
	}
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > 40 {
		mtg = 40
	}
	b := left/time.Duration(mtg) + inc*3/4 - overhead
	if max := left/2 - overhead; b > max {
		b = max
	}
	if b < time.Millisecond {
		b = time.Millisecond
	}
	return b
}

// simpleSearch is a plain alpha-beta used until the full searcher lands.
type simpleSearch struct {
	r       *rules.Rules
	stop    *atomic.Bool
	stopped bool
	start   time.Time
	lim     Limits
	nodes   uint64
}

func (s *simpleSearch) root(p *position.Position, depth int, ml *movegen.MoveList) (int, position.Move, []position.Move) {
	best, bestMove := -ValueInfinite, ml.Moves[0]
	var pv []position.Move
	for _, m := range ml.Slice() {
		c := *p
		c.Do(s.r, m)
		var childPV []position.Move
		v := s.ab(c, depth-1, 1, -ValueInfinite, ValueInfinite, &childPV)
		if c.SideToMove() != p.SideToMove() {
			v = -v
		}
		if v > best {
			best, bestMove = v, m
			pv = append([]position.Move{m}, childPV...)
		}
		if s.stopped {
			break
		}
	}
	return best, bestMove, pv
}

func (s *simpleSearch) ab(p position.Position, depth, ply int, alpha, beta int, pv *[]position.Move) int {
	s.nodes++
	if s.nodes&1023 == 0 && s.stop.Load() {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	if p.IsOver() {
		res, _ := p.Result()
		switch res {
		case position.Draw:
			return ValueDraw
		case position.Winner(p.SideToMove()):
			return ValueMate - ply
		}
		return -ValueMate + ply
	}
	if depth <= 0 {
		return eval.Evaluate(s.r, &p)
	}
	var ml movegen.MoveList
	movegen.Generate(s.r, &p, &ml)
	best := -ValueInfinite
	for _, m := range ml.Slice() {
		c := p
		c.Do(s.r, m)
		var childPV []position.Move
		var v int
		if c.SideToMove() == p.SideToMove() {
			v = s.ab(c, depth-1, ply+1, alpha, beta, &childPV)
		} else {
			v = -s.ab(c, depth-1, ply+1, -beta, -alpha, &childPV)
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				*pv = append([]position.Move{m}, childPV...)
			}
		}
		if alpha >= beta {
			break
		}
	}
	return best
}
