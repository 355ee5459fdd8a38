package search

import (
	"fmt"
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
	"github.com/millengine/millengine/internal/solve"
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
	evalParams *eval.Params  // the evaluation weights; tools may set others
	tables     *egtb.Tables  // endgame tables, read-only and shared by the workers; nil for none
	root       egtb.Source   // values the root in place of the tables (SetRootSource); nil: the tables
	prover     *solve.Solver // proves late placing roots (proof.go); made when first needed

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
	soft, hard time.Duration
	report     func(Info)
	workers    []*worker    // the workers of this search, the main one first
	yield      bool         // the workers take every CPU: they yield at every poll
	tables     *egtb.Tables // the engine's tables if they cover the rules, else nil
	proof      *proofResult // the root's proven value, when a proof decided the moves
	depth      int          // the main worker's current iteration
	lastReport time.Time    // when the last progress report was sent
	draw       [2]int       // the score of a draw for each colour to move (Contempt)
	trades     trades       // DrawnTrades at a drawn root
}

// trades is what a search at a drawn root adds to its evaluation for each
// piece removed below the root (Options.DrawnTrades): per, for side, counted
// from material, the pieces on the board and in hand at the root; and what
// it takes away where side's opponent flies and side does not
// (Options.DrawnFlying): fly, where the opponent has nothing in hand and at
// most flyAt pieces and side has more or some in hand. per and fly 0 are
// off. The table keeps its scores from one search to the next, as
// with Contempt: after a removal between two searches a stored score counts
// the trades from the earlier root, off by per for each piece removed
// since; each search overwrites what it visits.
type trades struct {
	per      int
	fly      int
	flyAt    int
	side     position.Color
	material int
}

// flyingBudget is the N-move rule's count, in plies left at a drawn root,
// below which DrawnFlying is off (see flyingCost).
const flyingBudget = 30

// flyingCost is DrawnFlying's cost at the drawn root g and the pieces at
// which a side flies; 0 where it is off: under rules without flying, and
// within flyingBudget plies of the N-move rule's end, where a removal that
// lets the opponent fly gives the game another count of the rule and
// keeping it on the ground would only draw it.
func flyingCost(o *Options, g *position.Game) (fly, flyAt int) {
	if o.DrawnFlying <= 0 || !g.Rules.MayFly || g.Pos.NMoveBudget(&g.Rules) < flyingBudget {
		return 0, 0
	}
	return o.DrawnFlying, g.Rules.FlyPieceCount
}

// flies says whether c flies in p as the trades count it: nothing in hand
// and at most flyAt pieces.
func (t *trades) flies(p *position.Position, c position.Color) bool {
	return p.InHand(c) == 0 && p.OnBoard(c) <= t.flyAt
}

// on says whether the trades change the evaluation.
func (t *trades) on() bool { return t.per|t.fly != 0 }

// material is the pieces of both sides on the board and in hand: what
// removals lower and nothing else does.
func material(p *position.Position) int {
	return p.OnBoard(position.White) + p.OnBoard(position.Black) + p.InHand(position.White) + p.InHand(position.Black)
}

// bonus is what the trades below the root add to the evaluation of p for
// its side to move.
func (t *trades) bonus(p *position.Position) int {
	b := t.per * (t.material - material(p))
	if t.fly != 0 && t.flies(p, t.side^1) && !t.flies(p, t.side) {
		b -= t.fly
	}
	if p.SideToMove() != t.side {
		return -b
	}
	return b
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
	e.prover = nil
}

// SetRootSource gives the engine the source that values the root in place
// of the tables, nil for the tables themselves; call it while no search
// runs. The engine's façade sets Malom's databases joined with the tables
// (perfect.Root) when UsePerfectDatabase is on: the root is then ranked by
// the same policy (egtb.RankRootWith) from their values, and below the root
// the search reads the tables alone.
func (e *Engine) SetRootSource(s egtb.Source) {
	e.running.Lock()
	defer e.running.Unlock()
	e.root = s
}

// rootSource is what values the root under the rules r: the source set by
// SetRootSource, else the tables when they cover r (tables), else nothing.
func (e *Engine) rootSource(tables *egtb.Tables) egtb.Source {
	switch {
	case e.root != nil:
		return e.root
	case tables != nil:
		return tables
	}
	return nil
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
	e.clock.startFrom(lim.Start)
	e.tt.NewSearch()

	moves := rootMoves(g, lim.SearchMoves)
	if len(moves) == 0 {
		e.holdUntilReleased(&lim)
		return Result{}
	}
	if o := e.Options(); o.level() != nil {
		l := o.level()
		// A level plays as a person of its strength: no tables, no proof.
		m, score, pv := e.levelMove(g, moves, l)
		if report != nil {
			report(Info{Note: fmt.Sprintf("level %s (Elo %d): %s", l.Name, l.Elo, m)})
		}
		e.holdUntilReleased(&lim)
		return Result{BestMove: m, Score: score, Depth: l.Depth, PV: append([]position.Move{}, pv...)}
	}
	var tables *egtb.Tables
	var proof *proofResult
	if e.tables.Covers(&g.Rules) {
		tables = e.tables
	}
	if src := e.rootSource(tables); src != nil {
		if acts := tableRoot(src, g, moves); len(acts) > 0 {
			from := sourceOf(acts)
			opts := e.Options()
			pol := opts.drawPolicy().at(g.Pos.Phase())

			if acts[0].Class == egtb.DrawPlays {
				if share, prefix, ok := opts.pressureAt(pol, g); ok {
					var note string
					acts, note = pressureFilter(src, g, acts, share, opts.PressureDepth)
					if report != nil && note != "" {
						report(Info{Note: prefix + note})
					}
					pol = PolicySearch
				}
				switch pol {
				case PolicySectors:
					if tables != nil {
						acts = sectorOrder(tables, g, acts)
					}
				case PolicyModel:
					if order, note, ok := e.modelOrder(g, lim, src, acts); ok {
						if report != nil {
							report(Info{Note: note})
						}
						return e.tableAnswer(g, lim, report, src, order, from)
					} else if report != nil && note != "" {
						report(Info{Note: note})
					}
				}
			}
			// A lost root whose actions the tables cannot order (a placing
			// position's entries hold the result only, no distance): the
			// search chooses, as at a drawn root, the loss that asks the
			// opponent the hardest questions.
			lostBlind := acts[0].Class == egtb.LossCertain && acts[0].Entry.ResultOnly
			if pol == PolicyReplies || pol == PolicySectors || (acts[0].Class != egtb.DrawPlays && !lostBlind) {
				return e.tableAnswer(g, lim, report, src, acts, from)
			}
			// A drawn root (or a blind loss): the search chooses among the
			// actions of the root's value, without the tables below (to
			// them every one is the same), and reports the value they prove.
			moves = moves[:0:0]
			for _, a := range acts {
				if a.Class == acts[0].Class {
					moves = append(moves, a.Move)
				}
			}
			tables = nil
			value, kind := solve.Draw, "drawing"
			if lostBlind {
				value, kind = solve.Loss, "losing"
			}
			proof = &proofResult{value: value, kept: moves, outcome: outcomes[value], source: from}
			if len(moves) > 1 && (pol == PolicySearch || lostBlind) {
				proof.note = fmt.Sprintf("policy search: the search chooses among the %d %s actions", len(moves), kind)
			}
		}
	}
	if tables != nil {
		if pr := e.proveRoot(g, lim, moves); pr != nil {
			proof, moves = pr, pr.kept
		}
	}
	s := e.newRun(g, lim, report, len(moves), proof)
	s.tables = tables
	if report != nil && proof != nil && proof.note != "" {
		note := proof.note
		if proof.value == solve.Draw && s.opts.DrawnContempt > 0 {
			note += fmt.Sprintf(", a draw scored %d", s.draw[g.Pos.SideToMove()])
		}
		if s.trades.per > 0 {
			note += fmt.Sprintf(", a removal worth %d", s.trades.per)
		}
		if s.trades.fly > 0 {
			note += fmt.Sprintf(", the opponent flying %d", -s.trades.fly)
		}
		report(Info{Note: note})
	}
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

// tableRoot returns the root's actions ranked by the tables' policy with the
// values of t (egtb.RankRootWith: the game's history, the N-move rule, the
// opponent's chances to go wrong), restricted to moves (the searchmoves), or
// nil when t does not know the root.
func tableRoot(t egtb.Source, g *position.Game, moves []position.Move) []egtb.RootAction {
	acts, ok := egtb.RankRootWith(t, g)
	if !ok {
		return nil
	}
	keep := acts[:0]
	for _, a := range acts {
		if slices.Contains(moves, a.Move) {
			keep = append(keep, a)
		}
	}
	if len(keep) > 0 && !keep[0].Best {
		// The searchmoves left out the best: the best of those left.
		for i := range keep {
			keep[i].Best = keep[i].Class == keep[0].Class && keep[i].Entry == keep[0].Entry
		}
	}
	return keep
}

// sourceOf says what decided a ranked root: Malom's databases when one of
// its actions was valued by them, else the tables.
func sourceOf(acts []egtb.RootAction) Source {
	for _, a := range acts {
		if a.Entry.Perfect {
			return FromPerfect
		}
	}
	return FromTables
}

// tableAnswer answers a root the tables (or src, their source at the root)
// know, at once: the policy's first action, its value as the score (a mate,
// a table win or a draw) and the policy's line as the PV, one line per
// MultiPV in the policy's order. In infinite and ponder mode the answer
// waits for stop (or ponderhit) as a search would.
func (e *Engine) tableAnswer(g *position.Game, lim Limits, report func(Info), src egtb.Source, acts []egtb.RootAction, from Source) Result {
	s := e.newRun(g, lim, report, len(acts), nil)
	var res Result
	for i := 0; i < max(s.opts.MultiPV, 1) && i < len(acts); i++ {
		a := acts[i]
		pv := s.tableLine(src, a.Move)
		score, mate := tableRootScore(a)
		if i == 0 {
			res = Result{BestMove: a.Move, Score: score, MateIn: mate, Depth: 1, TBHits: uint64(len(acts)), PV: pv,
				Outcome: TableOutcome(a.Entry.Value), Source: from}
		}
		if report != nil {
			report(Info{Depth: 1, SelDepth: len(pv), MultiPV: i + 1, Score: score, TBHits: uint64(len(acts)),
				Time: e.clock.elapsed(), PV: pv, Bound: tt.BoundExact, MateIn: mate, HashFull: e.tt.HashFull(),
				Outcome: TableOutcome(a.Entry.Value)})
		}
	}
	if len(res.PV) > 1 {
		res.PonderMove = res.PV[1]
	}
	e.holdUntilReleased(&s.lim)
	return res
}

// outcomes are the outcomes of proven values.
var outcomes = map[solve.Value]Outcome{solve.Win: OutcomeWin, solve.Draw: OutcomeDraw, solve.Loss: OutcomeLoss}

// TableOutcome is the outcome of an endgame table's value.
func TableOutcome(v egtb.Value) Outcome { return outcomes[v.WDL()] }

// newRun plans one search: its options, depth limit and time budget, and
// the score of a draw, by DrawnContempt when proof (nil: none) proves the
// root a draw.
func (e *Engine) newRun(g *position.Game, lim Limits, report func(Info), nMoves int, proof *proofResult) *searchRun {
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
	s.opts.MultiPV = min(s.opts.MultiPV, nMoves)
	s.proof = proof
	drawnRoot := proof != nil && proof.value == solve.Draw
	s.draw = drawScores(&s.opts, &s.lim, g.Pos.SideToMove(), drawnRoot)
	if drawnRoot && !s.opts.AnalyseMode && !lim.Infinite {
		us := g.Pos.SideToMove()
		t := trades{per: s.opts.DrawnTrades, side: us, material: material(&g.Pos)}
		t.fly, t.flyAt = flyingCost(&s.opts, g)
		if t.on() {
			s.trades = t
		}
	}
	return s
}

// drawScores returns the score of a draw for each colour to move: −Contempt
// for the side to move at the root, +Contempt for its opponent, 0 for both
// in analysis (AnalyseMode or an infinite search). At a drawnRoot, one the
// tables or a proof call a draw and whose searched actions all keep it,
// DrawnContempt replaces Contempt when set: avoiding a draw there cannot
// give the value away. The table keeps scores from one search to the next;
// in a game the engine moves for one side, so the draws it stored were
// scored for the same root side.
func drawScores(o *Options, lim *Limits, root position.Color, drawnRoot bool) [2]int {
	var d [2]int
	if o.AnalyseMode || lim.Infinite {
		return d
	}
	c := o.Contempt
	if drawnRoot && o.DrawnContempt > 0 {
		c = o.DrawnContempt
	}
	d[root] = ValueDraw - c
	d[root.Opponent()] = ValueDraw + c
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
// score, PV and the nodes of all workers.
func (e *Engine) result(s *searchRun, main *worker) Result {
	res := Result{BestMove: main.bestMove, Score: main.bestScore, Depth: main.bestDepth, PV: main.bestPV}
	if res.BestMove == position.NoMove {
		// Stopped before the first iteration ended: take the best-ordered move.
		res.BestMove = main.rootMoves[0].move
		res.PV = []position.Move{res.BestMove}
	}
	for _, w := range s.workers {
		w.published.Store(w.nodes)
		w.publishedTB.Store(w.tbHits)
	}
	res.Nodes = s.nodes()
	res.TBHits = s.tbHits()
	res.MateIn = mateIn(main, res.Score, res.PV)
	if s.proof != nil {
		res.Score = ProvenScore(s.proof.value, res.Score)
		res.MateIn = mateIn(main, res.Score, res.PV)
		res.Outcome, res.Source = s.proof.outcome, s.proof.source
	}
	if len(res.PV) > 1 && res.PV[0] == res.BestMove {
		res.PonderMove = res.PV[1]
	}
	if main.bestMove == position.NoMove && s.proof != nil && s.report != nil {
		// Stopped before the first iteration, with the root proven: the
		// proof's value is still the answer's score, and a GUI shows it
		// only from an info line (without one it shows none for the move).
		el := s.e.clock.elapsed()
		s.report(Info{Depth: 1, SelDepth: 1, Score: res.Score, Nodes: res.Nodes, NPS: nps(res.Nodes, el),
			HashFull: s.e.tt.HashFull(), TBHits: res.TBHits, Time: el, PV: res.PV, Bound: tt.BoundExact,
			MateIn: res.MateIn, Outcome: res.Outcome})
	}
	return res
}
