package search

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/movepick"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/tt"
)

// Engine searches positions. Its options are set between searches; Stop and
// PonderHit may be called from any goroutine while Search runs.
type Engine struct {
	mu      sync.Mutex // guards opts
	run     sync.Mutex // held by a running search; table changes wait for it
	opts    Options
	tt      *tt.Table
	workers []*worker

	stop      atomic.Bool  // ends the running search (user stop or time)
	userStop  atomic.Bool  // Stop was called
	pondering atomic.Bool  // the clock has not started yet
	prepared  atomic.Bool  // Prepare armed the next search
	startNano atomic.Int64 // when the clock started (reset by PonderHit)
	wake      chan struct{}

	// per-search state, touched only by the search goroutine
	lim      Limits
	soft     time.Duration
	hard     time.Duration
	report   func(Info)
	lastInfo time.Time
	depthNow int
	rootSide position.Color
	rng      *rand.Rand
	exact    bool // tests: no reductions, table cutoffs only at equal depth
	tune     tuning
}

// tuning holds search heuristics that are switched or sized by experiments;
// defaultTuning is what the engine plays with.
type tuning struct {
	lmr      bool         // late move reductions
	nullMove bool         // null move pruning while the side to move is placing
	futility bool         // futility pruning of quiet moves near the horizon
	qMills   bool         // quiescence also tries mill-closing actions
	grain    int          // static scores are rounded to multiples of this
	params   *eval.Params // evaluation weights; nil for eval.DefaultParams
}

var defaultTuning = tuning{lmr: true, qMills: true, grain: 1}

// New returns an engine with a transposition table of hashMB megabytes.
func New(hashMB int) *Engine {
	return &Engine{opts: DefaultOptions(), tt: tt.New(hashMB), wake: make(chan struct{}, 1), tune: defaultTuning,
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x6d696c6c))}
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
	if o.SkillLevel < 0 {
		o.SkillLevel = 0
	} else if o.SkillLevel > 30 {
		o.SkillLevel = 30
	}
	if o.MaxQuiescenceDepth < 0 {
		o.MaxQuiescenceDepth = 0
	}
	e.opts = o
}

// Options returns the current search options.
func (e *Engine) Options() Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts
}

// SetHash resizes the transposition table to mb megabytes (cleared); call it
// while no search runs.
func (e *Engine) SetHash(mb int) {
	e.run.Lock()
	defer e.run.Unlock()
	e.tt.Resize(mb)
}

// HashMB returns the size of the transposition table in megabytes.
func (e *Engine) HashMB() int { return e.tt.SizeMB() }

// ClearHash empties the transposition table; call it while no search runs.
func (e *Engine) ClearHash() {
	e.run.Lock()
	defer e.run.Unlock()
	e.tt.Clear()
}

// NewGame forgets everything learned from earlier searches: the table, the
// history and the killers.
func (e *Engine) NewGame() {
	e.run.Lock()
	defer e.run.Unlock()
	e.tt.Clear()
	for _, w := range e.workers {
		w.hist.Clear()
		w.killers = [MaxPly + 2][2]position.Move{}
	}
}

// HashFull returns the transposition table's fill in permille.
func (e *Engine) HashFull() int { return e.tt.HashFull() }

// SetSeed fixes the random source of Shuffling and SkillLevel (for tests).
func (e *Engine) SetSeed(seed uint64) { e.rng = rand.New(rand.NewPCG(seed, 0x6d696c6c)) }

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
	e.pondering.Store(ponder)
	select {
	case <-e.wake:
	default:
	}
}

// Stop ends a running search; its Result follows promptly. Safe from any goroutine.
func (e *Engine) Stop() {
	e.userStop.Store(true)
	e.stop.Store(true)
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// PonderHit tells a pondering search that the expected move was played: it
// goes on under the normal clock, which starts now. Safe from any goroutine.
func (e *Engine) PonderHit() {
	if e.pondering.CompareAndSwap(true, false) {
		e.startNano.Store(time.Now().UnixNano())
		select {
		case e.wake <- struct{}{}:
		default:
		}
	}
}

func (e *Engine) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - e.startNano.Load())
}

// totalNodes sums the nodes of all workers as last published.
func (e *Engine) totalNodes() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.published.Load()
	}
	return n
}

// poll runs on the main worker every 1024 nodes: it enforces the hard time
// limit and sends a progress report at least once a second.
func (e *Engine) poll(w *worker) {
	el := e.elapsed()
	if e.hard > 0 && el >= e.hard && !e.pondering.Load() {
		e.stop.Store(true)
	}
	if e.report != nil && time.Since(e.lastInfo) >= time.Second {
		e.lastInfo = time.Now()
		n := e.totalNodes()
		e.report(Info{Depth: e.depthNow, SelDepth: w.selDepth, Nodes: n, NPS: nps(n, el),
			HashFull: e.tt.HashFull(), Time: el})
	}
}

func nps(nodes uint64, el time.Duration) uint64 {
	if el <= 0 {
		return 0
	}
	return uint64(float64(nodes) / el.Seconds())
}

// Search runs a search of the game's current position and returns its best
// move (NoMove if the game is over or no action is legal). While it runs,
// SetHash, ClearHash and NewGame wait for it; Options, SetOptions, Stop,
// PonderHit and HashFull do not. report, if not nil,
// is called from the search goroutine after every completed iteration and at
// least once a second. In infinite or ponder mode Search does not return
// before Stop (or, when pondering, PonderHit and the end of the search).
func (e *Engine) Search(g *position.Game, lim Limits, report func(Info)) Result {
	e.run.Lock()
	defer e.run.Unlock()
	opts := e.Options()
	e.lim = lim
	e.report = report
	e.depthNow = 0
	if !e.prepared.CompareAndSwap(true, false) {
		e.arm(lim.Ponder)
	}
	e.startNano.Store(time.Now().UnixNano())
	e.lastInfo = time.Now()
	e.tt.NewSearch()

	root := g.Pos
	e.rootSide = root.SideToMove()
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &root, &ml)
	moves := ml.Slice()
	if len(lim.SearchMoves) > 0 {
		var keep []position.Move
		for _, m := range moves {
			for _, s := range lim.SearchMoves {
				if m == s {
					keep = append(keep, m)
				}
			}
		}
		if len(keep) > 0 {
			moves = keep
		}
	}
	if len(moves) == 0 {
		e.holdUntilReleased(lim)
		return Result{}
	}

	e.soft, e.hard = timeBudget(&lim, root.SideToMove(), opts.MoveOverhead)
	maxDepth := MaxPly - 1
	if lim.Depth > 0 && lim.Depth < maxDepth {
		maxDepth = lim.Depth
	}
	// A forced move needs no thought under a clock.
	if len(moves) == 1 && (lim.HasClock() || lim.MoveTime > 0) && !lim.Infinite && !lim.Ponder && lim.Depth == 0 {
		maxDepth = 1
	}
	skill := opts.SkillLevel < 30
	if skill {
		if d := 1 + opts.SkillLevel/2; d < maxDepth {
			maxDepth = d
		}
		if opts.MultiPV < 4 {
			opts.MultiPV = 4
		}
	}
	if opts.MultiPV > len(moves) {
		opts.MultiPV = len(moves)
	}

	// Prepare the workers.
	for len(e.workers) < opts.Threads {
		e.workers = append(e.workers, newWorker(e, len(e.workers)))
	}
	ws := e.workers[:opts.Threads]
	rootKeys := g.RepetitionKeys()
	order := append([]position.Move(nil), moves...)
	if opts.Shuffling {
		e.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	} else {
		var pk movepick.Picker
		pk.InitList(&g.Rules, &root, order, position.NoMove, nil)
		for i := range order {
			order[i], _ = pk.Next()
		}
	}
	for _, w := range ws {
		w.r = &g.Rules
		w.tt = e.tt
		w.opts = opts
		w.exact = e.exact
		w.tune = e.tune
		w.stop = &e.stop
		w.stack[0] = frame{pos: root}
		w.keys = append(w.keys[:0], rootKeys...)
		w.nodes = 0
		w.published.Store(0)
		w.stopped = false
		w.selDepth = 0
		w.bestMove, w.bestScore, w.bestDepth, w.bestPV = position.NoMove, 0, 0, nil
		w.rootMoves = w.rootMoves[:0]
		for _, m := range order {
			w.rootMoves = append(w.rootMoves, rootMove{move: m, score: -ValueInfinite, prevScore: -ValueInfinite})
		}
		w.limitNode = 0
		if lim.Nodes > 0 {
			w.limitNode = lim.Nodes / uint64(len(ws))
			if w.limitNode == 0 {
				w.limitNode = 1
			}
		}
	}

	var wg sync.WaitGroup
	for _, w := range ws[1:] {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			w.iterate(maxDepth)
		}(w)
	}
	main := ws[0]
	main.iterate(maxDepth)
	e.holdUntilReleased(lim)
	e.stop.Store(true)
	wg.Wait()

	res := Result{BestMove: main.bestMove, Score: main.bestScore, Depth: main.bestDepth, PV: main.bestPV}
	if res.BestMove == position.NoMove {
		// Stopped before the first iteration ended: take the best-ordered move.
		res.BestMove = main.rootMoves[0].move
		res.PV = []position.Move{res.BestMove}
	}
	if skill {
		res.BestMove = e.pickWeaker(main, opts.SkillLevel)
		res.PV = []position.Move{res.BestMove}
		for _, rm := range main.rootMoves {
			if rm.move == res.BestMove && len(rm.pv) > 0 {
				res.PV = append([]position.Move(nil), rm.pv...)
			}
		}
	}
	for _, w := range ws {
		w.published.Store(w.nodes)
	}
	res.Nodes = e.totalNodes()
	if len(res.PV) > 1 && res.PV[0] == res.BestMove {
		res.PonderMove = res.PV[1]
	}
	return res
}

// holdUntilReleased waits, in infinite or ponder mode, until Stop (or
// PonderHit for a ponder search that has finished).
func (e *Engine) holdUntilReleased(lim Limits) {
	for !e.userStop.Load() {
		if !lim.Infinite && !e.pondering.Load() {
			return
		}
		<-e.wake
	}
}

// iterate is a worker's iterative deepening loop.
func (w *worker) iterate(maxDepth int) {
	e := w.e
	guess := 0
	if ent, ok := w.tt.Probe(w.stack[0].pos.Key()); ok {
		guess = int(ent.Value)
		if guess > ValueMateBand || guess < -ValueMateBand {
			guess = 0
		}
	}
	multiPV := w.opts.MultiPV
	var scores [MaxPly + 1]int
	for d := 1; d <= maxDepth; d++ {
		if d >= 3 {
			// Start MTD(f) from the score of two iterations back: its
			// horizon has the same side to move, and placing-phase scores
			// swing with the tempo.
			guess = scores[d-2]
		}
		if w.id > 0 && skipDepth(w.id, d) {
			continue
		}
		w.selDepth = 0
		if w.id == 0 {
			e.depthNow = d
		}
		for i := range w.rootMoves {
			w.rootMoves[i].prevScore = w.rootMoves[i].score
		}
		var v int
		for w.pvIdx = 0; w.pvIdx < multiPV; w.pvIdx++ {
			switch {
			case multiPV > 1 || w.opts.Algorithm == AlphaBeta:
				v = w.rootSearch(-ValueInfinite, ValueInfinite, d)
			case w.opts.Algorithm == PVS:
				v = w.aspiration(guess, d)
			default:
				v = w.mtdf(guess, d)
			}
			if w.stopped {
				break
			}
		}
		if w.stopped {
			break
		}
		guess = w.rootMoves[0].score
		scores[d] = guess
		_ = v
		w.bestMove = w.rootMoves[0].move
		w.bestScore = w.rootMoves[0].score
		w.bestDepth = d
		w.bestPV = w.linePV(0, d)
		if w.id != 0 {
			continue
		}
		e.iterationDone(w, d)
		if e.stop.Load() {
			break
		}
		if e.shouldStopAfter(w, d) {
			break
		}
	}
}

// linePV returns the PV of root move i: the search's own if it is complete,
// else one read from the transposition table.
func (w *worker) linePV(i, depth int) []position.Move {
	rm := &w.rootMoves[i]
	if len(rm.pv) >= 2 && rm.pv[0] == rm.move {
		return append([]position.Move(nil), rm.pv...)
	}
	return w.extractPV(rm.move, depth+8)
}

// iterationDone reports the lines of a completed iteration.
func (e *Engine) iterationDone(w *worker, d int) {
	if e.report == nil {
		return
	}
	el := e.elapsed()
	n := e.totalNodes() - w.published.Load() + w.nodes
	hf := e.tt.HashFull()
	for i := 0; i < w.opts.MultiPV && i < len(w.rootMoves); i++ {
		pv := w.bestPV
		if i > 0 {
			pv = w.linePV(i, d)
		}
		sc := w.rootMoves[i].score
		e.report(Info{Depth: d, SelDepth: w.selDepth, MultiPV: i + 1, Score: sc, Nodes: n,
			NPS: nps(n, el), HashFull: hf, Time: el, PV: pv, Bound: tt.BoundExact,
			MateIn: mateIn(w, sc, pv)})
	}
	e.lastInfo = time.Now()
}

// shouldStopAfter decides after a completed iteration whether to go deeper.
func (e *Engine) shouldStopAfter(w *worker, d int) bool {
	lim := &e.lim
	if lim.Infinite || e.pondering.Load() {
		return false
	}
	if lim.Depth > 0 && d >= lim.Depth {
		return true
	}
	// A mate within the searched depth will not change.
	if lim.Depth == 0 && lim.Nodes == 0 {
		s := w.rootMoves[0].score
		if (s > ValueMateBand && ValueMate-s <= d) || (s < -ValueMateBand && ValueMate+s <= d) {
			return true
		}
	}
	if e.soft > 0 && e.elapsed() >= e.soft*6/10 && lim.MoveTime == 0 {
		return true
	}
	return false
}

// mateIn converts a mate score into turns of the side to move (negative when
// it is mated): a turn is an action with the removals that follow it.
func mateIn(w *worker, score int, pv []position.Move) int {
	var plies int
	switch {
	case score > ValueMateBand:
		plies = ValueMate - score
	case score < -ValueMateBand:
		plies = ValueMate + score
	default:
		return 0
	}
	root := w.stack[0].pos
	us := root.SideToMove()
	p := root
	turns := 0
	prev := position.Color(2)
	for i := 0; i < plies && i < len(pv); i++ {
		mover := p.SideToMove()
		if mover == us && mover != prev {
			turns++
		}
		prev = mover
		p.Do(w.r, pv[i])
	}
	if len(pv) < plies {
		// The line is cut short: estimate the rest, a turn every other ply.
		turns += (plies - len(pv) + 1) / 2
	}
	if turns == 0 {
		turns = 1
	}
	if score < 0 {
		return -turns
	}
	return turns
}

// skipDepth spreads the helper threads of lazy SMP over different depths.
func skipDepth(id, depth int) bool {
	sizes := [...]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	phases := [...]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
	i := (id - 1) % len(sizes)
	return ((depth+phases[i])/sizes[i])%2 != 0
}

// timeBudget returns the soft and hard time limits of this move (0: none).
func timeBudget(l *Limits, side position.Color, overhead time.Duration) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		t := l.MoveTime - overhead
		if t < time.Millisecond {
			t = time.Millisecond
		}
		return t, t
	}
	if !l.HasClock() {
		return 0, 0
	}
	left, inc := l.WTime, l.WInc
	if side == position.Black {
		left, inc = l.BTime, l.BInc
	}
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > 30 {
		mtg = 30
	}
	usable := left - overhead
	if usable < time.Millisecond {
		usable = time.Millisecond
	}
	soft = usable/time.Duration(mtg) + inc*3/4
	hard = soft * 4
	if max := usable / 3; hard > max {
		hard = max
	}
	if soft > hard {
		soft = hard
	}
	if hard < time.Millisecond {
		hard = time.Millisecond
	}
	return soft, hard
}
