package search

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/movepick"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/tt"
)

// Engine searches positions. It keeps what lasts from one search to the
// next: the options, the transposition table, the workers (with their
// history and killers) and the signals that other goroutines send a running
// search (Stop, PonderHit). What belongs to one search lives in a searchRun.
// Options are set between searches; Stop and PonderHit may be called from any
// goroutine while Search runs.
type Engine struct {
	mu         sync.Mutex // guards opts
	running    sync.Mutex // held by a running search; table changes wait for it
	opts       Options
	tt         *tt.Table
	workers    []*worker
	rng        *rand.Rand
	evalParams *eval.Params // the evaluation weights; tools may set others
	tables     *egtb.Tables // endgame tables, read-only and shared by the workers; nil for none

	stop     atomic.Bool // ends the running search (user stop, time or nodes)
	userStop atomic.Bool // Stop was called
	prepared atomic.Bool // Prepare armed the next search
	clock    clock       // pondering and the clock's start (clock.go)
	wake     chan struct{}

	// testExact makes the search exact for tests: no reductions, table
	// cutoffs only at equal depth, so that the drivers can be compared
	// with plain minimax.
	testExact bool
}

// searchRun is the state of one search, created by Search and handed to its
// workers: the limits, the time budget, the report callback, and what the
// progress reports need. The main worker alone writes depth and lastReport.
type searchRun struct {
	e          *Engine
	root       *position.Game // the game searched, with its history (for the PVs)
	lim        Limits
	opts       Options // the engine's options, adjusted for this search (skill, MultiPV)
	maxDepth   int
	skill      bool // SkillLevel below the maximum: a weaker move is chosen at the end
	soft, hard time.Duration
	report     func(Info)
	workers    []*worker    // the workers of this search, the main one first
	yield      bool         // the workers take every CPU: they yield at every poll
	tables     *egtb.Tables // the engine's tables if they cover the rules, else nil
	tableRoot  bool         // the root is a table position: its moves were ranked by the tables
	rootValue  egtb.Value   // the root's table value (when tableRoot)
	depth      int          // the main worker's current iteration
	lastReport time.Time    // when the last progress report was sent
	draw       [2]int       // the score of a draw for each colour to move (Contempt)
}

// nodes sums the nodes of this search's workers as last published.
func (s *searchRun) nodes() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.published.Load()
	}
	return n
}

// tbHits sums the table probes of this search's workers as last published.
func (s *searchRun) tbHits() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.publishedTB.Load()
	}
	return n
}

// New returns an engine with a transposition table of hashMB megabytes (the
// smallest table if the machine cannot supply that much: callers that take
// the size from a user check it with CheckHash first).
func New(hashMB int) *Engine {
	table, _ := tt.New(hashMB)
	return &Engine{opts: DefaultOptions(), tt: table, wake: make(chan struct{}, 1),
		evalParams: &eval.DefaultParams,
		rng:        rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x6d696c6c))}
}

// SetOptions replaces the search options; call it while no search runs.
// Values outside their ranges are clamped.
func (e *Engine) SetOptions(o Options) {
	e.mu.Lock()
	defer e.mu.Unlock()
	o.Threads = max(o.Threads, 1)
	o.MultiPV = max(o.MultiPV, 1)
	o.SkillLevel = min(max(o.SkillLevel, 0), MaxSkillLevel)
	o.MaxQuiescenceDepth = min(max(o.MaxQuiescenceDepth, 0), MaxQuiescenceDepth)
	e.opts = o
}

// Options returns the current search options.
func (e *Engine) Options() Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts
}

// SetEvalParams replaces the evaluation weights (nil: the tuned defaults);
// call it while no search runs. Tuning tools use it to play weight sets
// against each other.
func (e *Engine) SetEvalParams(p *eval.Params) {
	e.running.Lock()
	defer e.running.Unlock()
	if p == nil {
		p = &eval.DefaultParams
	}
	e.evalParams = p
}

// SetTables gives the engine endgame tables (nil: none); call it while no
// search runs. The search uses them only under rules they cover.
func (e *Engine) SetTables(t *egtb.Tables) {
	e.running.Lock()
	defer e.running.Unlock()
	e.tables = t
}

// SetHash resizes the transposition table to mb megabytes (cleared); call it
// while no search runs. If the machine cannot supply the memory the table
// keeps its size and SetHash says why.
func (e *Engine) SetHash(mb int) error {
	e.running.Lock()
	defer e.running.Unlock()
	return e.tt.Resize(mb)
}

// CheckHash reports an error if a table of mb megabytes is more than the
// memory the process can get (the size a start-up flag asks for).
func CheckHash(mb int) error { return tt.CheckSize(mb, 0) }

// HashMB returns the size of the transposition table in megabytes.
func (e *Engine) HashMB() int { return e.tt.SizeMB() }

// ClearHash empties the transposition table; call it while no search runs.
func (e *Engine) ClearHash() {
	e.running.Lock()
	defer e.running.Unlock()
	e.tt.Clear()
}

// NewGame forgets everything learned from earlier searches: the table, the
// history and the killers.
func (e *Engine) NewGame() {
	e.running.Lock()
	defer e.running.Unlock()
	e.tt.Clear()
	for _, w := range e.workers {
		w.hist.Clear()
		w.killers = [MaxPly + 2][2]position.Move{}
	}
}

// HashFull returns the transposition table's fill in permille.
func (e *Engine) HashFull() int { return e.tt.HashFull() }

// Prepare arms the engine for the next Search: it clears the stop request
// and records whether that search ponders. A caller that runs Search on
// another goroutine calls Prepare first, on its own goroutine, so that a Stop
// or PonderHit it sends right after starting the search cannot be lost;
// Search arms itself when the caller did not.
func (e *Engine) Prepare(ponder bool) {
	e.arm(ponder)
	e.prepared.Store(true)
}

// arm clears the stop request and a stale wake-up and records whether the
// next search ponders.
func (e *Engine) arm(ponder bool) {
	e.userStop.Store(false)
	e.stop.Store(false)
	e.clock.pondering.Store(ponder)
	select {
	case <-e.wake:
	default:
	}
}

// Stop ends a running search; its Result follows promptly. Safe from any goroutine.
func (e *Engine) Stop() {
	e.userStop.Store(true)
	e.stop.Store(true)
	e.wakeUp()
}

// wakeUp releases a search that holds its result (holdUntilReleased).
func (e *Engine) wakeUp() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Search runs a search of the game's current position and returns its best
// move (NoMove if the game is over or no action is legal). While it runs,
// SetHash, ClearHash, NewGame and SetEvalParams wait for it; Options,
// SetOptions, Stop, PonderHit and HashFull do not. report, if not nil, is
// called from the search goroutine after every completed iteration and at
// least once a second. In infinite or ponder mode Search does not return
// before Stop (or, when pondering, PonderHit and the end of the search).
func (e *Engine) Search(g *position.Game, lim Limits, report func(Info)) Result {
	e.running.Lock()
	defer e.running.Unlock()
	if !e.prepared.CompareAndSwap(true, false) {
		e.arm(lim.Ponder)
	}
	e.clock.start()
	e.tt.NewSearch()

	moves := rootMoves(g, lim.SearchMoves)
	if len(moves) == 0 {
		e.holdUntilReleased(&lim)
		return Result{}
	}
	var tables *egtb.Tables
	if e.tables.Covers(&g.Rules) {
		tables = e.tables
	}
	rootValue, moves, tableRoot := tableRootMoves(tables, g, moves)
	s := e.newRun(g, lim, report, len(moves))
	s.tables, s.tableRoot, s.rootValue = tables, tableRoot, rootValue
	e.startWorkers(s, g, e.orderRootMoves(s, g, moves))

	var wg sync.WaitGroup
	for _, w := range s.workers[1:] {
		wg.Go(func() { w.iterate() })
	}
	main := s.workers[0]
	main.iterate()
	e.holdUntilReleased(&s.lim)
	e.stop.Store(true)
	wg.Wait()
	return e.result(s, main)
}

// rootMoves returns the legal actions of the root, restricted to the
// searchmoves when some of them are legal.
func rootMoves(g *position.Game, searchMoves []position.Move) []position.Move {
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	moves := ml.Slice()
	if len(searchMoves) > 0 {
		var keep []position.Move
		for _, m := range moves {
			if slices.Contains(searchMoves, m) {
				keep = append(keep, m)
			}
		}
		if len(keep) > 0 {
			return keep
		}
	}
	return append([]position.Move(nil), moves...)
}

// tableRootMoves ranks the root moves by the tables when the root is a table
// position and every move's value is known, and keeps the best: the search
// then only breaks ties among them. It returns the root's table value.
//
// A win is kept only where it can be converted under the N-move rule: the
// next removal (DTZ) must come before the counter reaches the rule, so the
// winning moves whose distance to a removal fits what the counter leaves are
// kept, the fastest wins (DTM) among them; if none fits, those that remove
// soonest. A loss keeps the moves that put the winner's next removal
// furthest away (the rule may save the game), the longest losses among
// them. A draw keeps every drawing move.
func tableRootMoves(t *egtb.Tables, g *position.Game, moves []position.Move) (egtb.Value, []position.Move, bool) {
	root := g.Pos
	r := &g.Rules
	if t == nil {
		return 0, moves, false
	}
	if _, ok := t.Probe(r, &root); !ok {
		return 0, moves, false
	}
	type ranked struct {
		m        position.Move
		dtm, dtz egtb.Value
	}
	all := make([]ranked, 0, len(moves))
	var best egtb.Value
	for i, m := range moves {
		dtm, ok := t.ActionValue(r, &root, m)
		if !ok {
			return 0, moves, false
		}
		dtz, ok := t.ActionDTZ(r, &root, m)
		if !ok {
			dtz = dtm // no DTZ table: the distance to the end bounds the one to a removal
		}
		all = append(all, ranked{m, dtm, dtz})
		if i == 0 || dtm.Better(best) {
			best = dtm
		}
	}
	// Keep the moves of best's result; then narrow by the metric.
	keep := all[:0:0]
	for _, x := range all {
		if x.dtm.IsWin() == best.IsWin() && x.dtm.IsLoss() == best.IsLoss() {
			keep = append(keep, x)
		}
	}
	narrow := func(better func(a, b ranked) bool) {
		top := keep[0]
		for _, x := range keep[1:] {
			if better(x, top) {
				top = x
			}
		}
		out := keep[:0]
		for _, x := range keep {
			if !better(top, x) {
				out = append(out, x)
			}
		}
		keep = out
	}
	switch {
	case best.IsWin():
		limit, _ := root.NMoveLimit(r)
		budget := limit - root.Rule50()
		// Our z-th turn removes after 2z-1 slides of both sides; the counter
		// must stay below the rule through that slide.
		fits := keep[:0:0]
		for _, x := range keep {
			if 2*x.dtz.Distance()-1 < budget {
				fits = append(fits, x)
			}
		}
		if len(fits) > 0 {
			keep = fits
			narrow(func(a, b ranked) bool { return a.dtm.Better(b.dtm) })
		} else {
			narrow(func(a, b ranked) bool { return a.dtz.Better(b.dtz) })
		}
	case best.IsLoss():
		narrow(func(a, b ranked) bool { return a.dtz.Better(b.dtz) })
		narrow(func(a, b ranked) bool { return a.dtm.Better(b.dtm) })
	}
	out := make([]position.Move, len(keep))
	for i, x := range keep {
		out[i] = x.m
	}
	return keep[0].dtm, out, true
}

// newRun plans one search: its options, depth limit and time budget.
func (e *Engine) newRun(g *position.Game, lim Limits, report func(Info), nMoves int) *searchRun {
	s := &searchRun{e: e, root: g.Clone(), lim: lim, opts: e.Options(), report: report, lastReport: time.Now()}
	s.soft, s.hard = timeBudget(&s.lim, g.Pos.SideToMove(), s.opts.MoveOverhead)
	s.maxDepth = MaxPly - 1
	if lim.Depth > 0 && lim.Depth < s.maxDepth {
		s.maxDepth = lim.Depth
	}
	if lim.Mate > 0 && lim.Depth == 0 {
		// A win in n turns takes at most n turns of the winner and n-1 of
		// the loser, each an action and a removal.
		s.maxDepth = min(s.maxDepth, 4*lim.Mate)
	}
	// A forced move needs no thought under a clock.
	if nMoves == 1 && (lim.HasClock() || lim.MoveTime > 0) && !lim.Infinite && !lim.Ponder && lim.Depth == 0 {
		s.maxDepth = 1
	}
	s.skill = s.opts.SkillLevel < MaxSkillLevel
	if s.skill {
		s.maxDepth = min(s.maxDepth, 1+s.opts.SkillLevel/2)
		s.opts.MultiPV = max(s.opts.MultiPV, 4)
	}
	s.opts.MultiPV = min(s.opts.MultiPV, nMoves)
	s.draw = drawScores(&s.opts, &s.lim, g.Pos.SideToMove())
	return s
}

// drawScores returns the score of a draw for each colour to move: −Contempt
// for the side to move at the root, +Contempt for its opponent, 0 for both
// in analysis (AnalyseMode or an infinite search). The table keeps scores
// from one search to the next; in a game the engine moves for one side, so
// the draws it stored were scored for the same root side.
func drawScores(o *Options, lim *Limits, root position.Color) [2]int {
	var d [2]int
	if o.AnalyseMode || lim.Infinite {
		return d
	}
	d[root] = ValueDraw - o.Contempt
	d[root.Opponent()] = ValueDraw + o.Contempt
	return d
}

// orderRootMoves returns the root moves in the order the first iteration
// tries them: at random with Shuffling, else as the move picker orders them.
func (e *Engine) orderRootMoves(s *searchRun, g *position.Game, moves []position.Move) []position.Move {
	order := append([]position.Move(nil), moves...)
	if s.opts.Shuffling {
		e.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		return order
	}
	var pk movepick.Picker
	root := g.Pos
	pk.InitList(&g.Rules, &root, order, position.NoMove, nil)
	for i := range order {
		order[i], _ = pk.Next()
	}
	return order
}

// UsefulThreads is the most search threads that run at once: one per CPU the
// process may use (GOMAXPROCS). More would only take turns with each other
// and with the protocol loop, whose answers they would delay by seconds.
func UsefulThreads() int { return runtime.GOMAXPROCS(0) }

// startWorkers gives each of the search's threads the root and its moves.
// Threads beyond UsefulThreads are not started; when the threads take every
// CPU they yield at every poll, so that the protocol loop is never starved.
func (e *Engine) startWorkers(s *searchRun, g *position.Game, order []position.Move) {
	n := min(s.opts.Threads, UsefulThreads())
	s.yield = n >= UsefulThreads()
	for len(e.workers) < n {
		e.workers = append(e.workers, newWorker(e, len(e.workers)))
	}
	s.workers = e.workers[:n]
	var nodeLimit uint64
	if s.lim.Nodes > 0 {
		nodeLimit = max(s.lim.Nodes/uint64(len(s.workers)), 1)
	}
	for _, w := range s.workers {
		w.start(s, g, order, nodeLimit)
	}
}

// result collects the search's answer from the main worker: its best move
// (or, with SkillLevel, a weaker one), score, PV and the nodes of all workers.
func (e *Engine) result(s *searchRun, main *worker) Result {
	res := Result{BestMove: main.bestMove, Score: main.bestScore, Depth: main.bestDepth, PV: main.bestPV}
	if res.BestMove == position.NoMove {
		// Stopped before the first iteration ended: take the best-ordered move.
		res.BestMove = main.rootMoves[0].move
		res.PV = []position.Move{res.BestMove}
	}
	if s.skill {
		res.BestMove = e.pickWeaker(main, s.opts.SkillLevel)
		res.PV = []position.Move{res.BestMove}
		for _, rm := range main.rootMoves {
			if rm.move == res.BestMove && len(rm.pv) > 0 {
				res.PV = append([]position.Move(nil), rm.pv...)
			}
		}
	}
	for _, w := range s.workers {
		w.published.Store(w.nodes)
		w.publishedTB.Store(w.tbHits)
	}
	res.Nodes = s.nodes()
	res.TBHits = s.tbHits()
	res.MateIn = mateIn(main, res.Score, res.PV)
	if s.tableRoot {
		res.Score, res.MateIn = tableRootScore(s.rootValue)
		res.PV = s.tableLine(res.BestMove)
	}
	if len(res.PV) > 1 && res.PV[0] == res.BestMove {
		res.PonderMove = res.PV[1]
	}
	return res
}
