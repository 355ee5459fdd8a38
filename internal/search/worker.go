package search

import (
	"math"
	"runtime"
	"sync/atomic"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/movepick"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/tt"
)

// frame is the state of one ply of the search path.
type frame struct {
	pos   position.Position
	move  position.Move // the move that led here
	since int           // start of the repetition run in worker.keys
	ext   int           // plies of extension on the path to here, this node's included
}

// A side that must slide and has at most crampedSlides legal slides is
// cramped: one more closed exit may leave it without a move, which loses
// under the standard rules. Such nodes are extended (at most
// maxLineExtensions times on one line) and the moves into them are never
// reduced, so that a blockade is seen before it is too late.
const (
	crampedSlides     = 2
	maxLineExtensions = 6
)

// Reverse futility pruning (search, step 4b) applies up to futilityDepth
// plies from the horizon, with futilityMargin (a piece is 100) a ply. Both
// were chosen by games (docs/strength.md, 2026-11-29): depth 3 with 40 a
// ply halved the time to depth in late placing and lost Elo.
const (
	futilityDepth  = 2
	futilityMargin = 60
)

// Enhanced transposition cutoffs (search, step 4d) are tried from etcDepth
// plies from the horizon up: closer to it, looking every child up costs
// more than the nodes it saves (docs/speed.md, 2026-11-29).
const etcDepth = 3

// Internal iterative reduction (search, step 4c) applies from iirDepth plies
// from the horizon up (a node that near the horizon is cheap to search
// whole).
const iirDepth = 4

// mustSlide reports whether the side to move of p has to slide: it is the
// moving phase, no removal is pending and the side does not fly.
func mustSlide(r *rules.Rules, p *position.Position) bool {
	return p.Phase() == position.Moving && p.Action() == position.Select && !p.CanFly(r, p.SideToMove())
}

// rootMove is a legal root action with its last score and PV.
type rootMove struct {
	move      position.Move
	score     int
	prevScore int
	pv        []position.Move
}

// worker is one search thread. It owns its position stack, killers and
// history; it shares the transposition table, the stop flag and the
// searchRun of the current search.
type worker struct {
	id     int
	e      *Engine
	run    *searchRun
	r      *rules.Rules
	tt     *tt.Table
	params *eval.Params
	tables *egtb.Tables // endgame tables covering the rules, or nil
	// placingTables says the tables hold placing sectors: positions with
	// pieces in hand are probed too.
	placingTables bool
	testExact     bool   // no reductions, table cutoffs only at equal depth (tests)
	oneLine       bool   // a search for one line (not tests, levels or the policies' scores of every action): reverse futility pruning, internal iterative reduction and enhanced transposition cutoffs apply
	draw          [2]int // the score of a draw for each colour to move (the run's Contempt)
	trades        trades // the run's DrawnTrades
	stop          *atomic.Bool
	stack         [MaxPly + 2]frame
	keys          []uint32 // keys reached by slides since the last irreversible move, game then path
	killers       [MaxPly + 2][2]position.Move
	hist          movepick.History
	pickers       [MaxPly + 2]movepick.Picker  // each ply's move picker (search)
	qmoves        [MaxPly + 2]movegen.MoveList // each ply's actions (qsearch)
	pv            [MaxPly + 2][MaxPly + 2]position.Move
	pvLen         [MaxPly + 2]int

	nodes       uint64
	published   atomic.Uint64
	tbHits      uint64 // endgame-table probes that gave a value
	publishedTB atomic.Uint64
	horizon     bool   // a line of this iteration ended at the horizon (an evaluation or a table cutoff)
	nodeLimit   uint64 // this thread's share of a node limit, 0 for none
	selDepth    int
	stopped     bool
	rootMoves   []rootMove
	pvIdx       int
	// the result of the last completed iteration
	bestMove  position.Move
	bestScore int
	bestDepth int
	bestPV    []position.Move

	// benchNoPrefetch is a benchmark hook: do not prefetch the child's bucket.
	benchNoPrefetch bool

	evals *eval.Cache // this worker's evaluations of late (cleared by start)

	etcKids [movegen.MaxMoves]etcChild // etc's children (scratch)
}

func newWorker(e *Engine, id int) *worker {
	return &worker{id: id, e: e, keys: make([]uint32, 0, 1024), evals: new(eval.Cache)}
}

// start readies the worker for the search s of g's position, with the root
// moves in the given order. History and killers are kept from earlier
// searches (NewGame clears them).
func (w *worker) start(s *searchRun, g *position.Game, order []position.Move, nodeLimit uint64) {
	e := s.e
	w.run = s
	w.r = &g.Rules
	w.tt = e.tt
	w.params = e.evalParams
	w.evals.Clear()
	w.tables = s.tables
	w.placingTables = s.tables.HasPlacing()
	w.testExact = e.testExact
	w.oneLine = !e.testExact && s.opts.MultiPV == 1
	w.draw = s.draw
	w.trades = s.trades
	w.stop = &e.stop
	w.stack[0] = frame{pos: g.Pos}
	w.keys = append(w.keys[:0], g.RepetitionKeys()...)
	w.nodes = 0
	w.published.Store(0)
	w.tbHits = 0
	w.publishedTB.Store(0)
	w.nodeLimit = nodeLimit
	w.stopped = false
	w.selDepth = 0
	w.bestMove, w.bestScore, w.bestDepth, w.bestPV = position.NoMove, 0, 0, nil
	w.rootMoves = w.rootMoves[:0]
	for _, m := range order {
		w.rootMoves = append(w.rootMoves, rootMove{move: m, score: -ValueInfinite, prevScore: -ValueInfinite})
	}
}

// valueToTT converts a mate or table-win score relative to the root into one
// relative to the node, so a stored entry is valid wherever the node is met
// again.
func valueToTT(v, ply int) int16 {
	switch {
	case v > ValueTBBand:
		v += ply
	case v < -ValueTBBand:
		v -= ply
	}
	return int16(v)
}

func valueFromTT(v int16, ply int) int {
	x := int(v)
	switch {
	case x > ValueTBBand:
		x -= ply
	case x < -ValueTBBand:
		x += ply
	}
	return x
}

// boundOf says how a fail-soft result best of the window (alpha, beta)
// relates to the true score.
func boundOf(best, alpha, beta int) tt.Bound {
	switch {
	case best >= beta:
		return tt.BoundLower
	case best <= alpha:
		return tt.BoundUpper
	}
	return tt.BoundExact
}

// countNode counts a node and applies the node limit (at every node, so that
// go nodes N stops within a few nodes of N); every pollEvery nodes it
// publishes the count and lets the main worker poll the clock.
func (w *worker) countNode() {
	w.nodes++
	if w.nodes&(pollEvery-1) == 0 {
		w.published.Store(w.nodes)
		w.publishedTB.Store(w.tbHits)
		if w.id == 0 {
			w.run.poll(w)
		}
		if w.run.yield {
			runtime.Gosched() // let the protocol loop answer
		}
	}
	if w.nodeLimit != 0 && w.nodes >= w.nodeLimit {
		w.stop.Store(true)
	}
}

// terminal returns the score of a finished game for the side to move; a
// draw scores draw.
func terminal(p *position.Position, ply, draw int) int {
	res, _ := p.Result()
	switch res {
	case position.Draw, position.Ongoing:
		return draw
	case position.Winner(p.SideToMove()):
		return ValueMate - ply
	}
	return -ValueMate + ply
}

// drawnByRule reports whether the position at ply, reached by a slide, is a
// draw by the N-move rules or by a repetition of an earlier position (inside
// the search a single repetition is enough).
func (w *worker) drawnByRule(ply int) bool {
	f := &w.stack[ply]
	p := &f.pos
	if p.NMoveDraw(w.r) != position.NoReason {
		return true
	}
	if !w.r.ThreefoldRepetitionRule {
		return false
	}
	key := p.Key()
	last := len(w.keys) - 1
	for i := f.since; i < last; i++ {
		if w.keys[i] == key {
			return true
		}
	}
	return false
}

// makeMove plays m from ply into ply+1 and maintains the repetition keys.
// It returns the length of keys to restore afterwards.
func (w *worker) makeMove(ply int, m position.Move, childDepth int) int {
	parent := &w.stack[ply]
	child := &w.stack[ply+1]
	child.pos = parent.pos
	child.pos.Do(w.r, m)
	child.move = m
	child.ext = parent.ext
	key := child.pos.Key()
	// Prefetch only for a child that will probe: one searched at depth 0
	// goes straight to quiescence, which does not use the table.
	// One searched at depth 0 or less (quiescence) is evaluated: its
	// evaluation cache slot is prefetched instead.
	if !w.benchNoPrefetch {
		if childDepth > 0 {
			w.tt.Prefetch(key)
		} else {
			w.evals.Prefetch(key)
		}
	}
	n := len(w.keys)
	if m.Kind() == position.KindSlide {
		w.keys = append(w.keys, key)
		child.since = parent.since
	} else {
		child.since = n
	}
	w.countNode()
	return n
}

// sub searches the child at ply+1 and returns its score from the parent's
// view: the sign flips only when the side to move changes.
func (w *worker) sub(ply, alpha, beta, depth int) int {
	if w.stack[ply+1].pos.SideToMove() == w.stack[ply].pos.SideToMove() {
		return w.search(ply+1, alpha, beta, depth)
	}
	return -w.search(ply+1, -beta, -alpha, depth)
}

// probeTables returns the exact score of a position below the root that the
// endgame tables hold: a win or a loss as a mate score by its distance to the
// end (in plies of turns) where the tables keep it, else as a table win by
// its distance to the next removal (a placing position's, whose tables keep
// the result only: its next turn places); a draw as a draw. A win whose next
// removal does not come before the N-move counter runs out is the draw the
// rule makes of it (a hair better), and a loss the rule saves likewise. It
// costs one comparison per node when the position cannot be in the tables
// (pieces in hand and no placing sector loaded). Callers check w.tables
// first.
func (w *worker) probeTables(p *position.Position, ply int) (int, bool) {
	if ply == 0 || (!w.placingTables && (p.InHand(position.White) != 0 || p.InHand(position.Black) != 0)) {
		return 0, false
	}
	e, ok := w.tables.Lookup(w.r, p)
	if !ok {
		return 0, false
	}
	w.tbHits++
	return tableScore(e, ply, w.draw[p.SideToMove()], p.NMoveBudget(w.r)), true // exact: like the end of the game, not a horizon
}

// tableScore is the search score at ply of a table entry whose position has
// budget plies left before the N-move rule: a win or a loss its distance in
// plies away (a mate score where the distance is to the end, a table win
// where it is to the next removal), a draw scores draw (as in terminal).
func tableScore(e egtb.Entry, ply, draw, budget int) int {
	v := e.Value
	switch {
	case v.IsWin() && !e.FitsRule(budget):
		return draw + 1
	case v.IsLoss() && !e.FitsRule(budget):
		return draw - 1
	case v.IsWin() && e.Exact:
		return ValueMate - ply - v.Plies()
	case v.IsLoss() && e.Exact:
		return -ValueMate + ply + v.Plies()
	case v.IsWin():
		return ValueTBWin - ply - v.Plies()
	case v.IsLoss():
		return -ValueTBWin + ply + v.Plies()
	}
	return draw
}

// evaluate returns the static score of p for the side to move, with the
// run's DrawnTrades.
func (w *worker) evaluate(p *position.Position) int {
	w.horizon = true
	v := w.evals.Evaluate(w.params, w.r, p)
	if w.trades.on() {
		v += w.trades.bonus(p)
	}
	return v
}

// settled returns the value of the position at ply when it needs no search,
// for search and qsearch alike: a finished game, a draw by the rules after a
// slide, a position the tables hold.
func (w *worker) settled(ply int) (int, bool) {
	f := &w.stack[ply]
	p := &f.pos
	if p.IsOver() {
		return terminal(p, ply, w.draw[p.SideToMove()]), true
	}
	if ply > 0 && f.move.Kind() == position.KindSlide && w.drawnByRule(ply) {
		return w.draw[p.SideToMove()], true
	}
	if w.tables != nil {
		return w.probeTables(p, ply)
	}
	return 0, false
}

// search is fail-soft negamax alpha-beta with PVS, for the position at ply.
func (w *worker) search(ply, alpha, beta, depth int) int {
	// Step 1. Initialise the node.
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = ply
	w.selDepth = max(w.selDepth, ply)

	// Step 2. An aborted search, a finished game, a draw by the rules, the
	// horizon.
	if w.stop.Load() {
		w.stopped = true
		return 0
	}
	if v, ok := w.settled(ply); ok {
		return v
	}
	if depth <= 0 {
		return w.qsearch(ply, alpha, beta, 0)
	}
	if ply >= MaxPly {
		return w.evaluate(p)
	}
	pvNode := beta-alpha > 1

	// Step 3. Mate distance pruning: no line can do better than mating now.
	if ply > 0 {
		alpha = max(alpha, -ValueMate+ply)
		beta = min(beta, ValueMate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}

	// Step 4. Extend a cramped slider (its slides counted, not listed),
	// then look the position up in the table: its bucket was prefetched
	// when the move leading here was made and arrives meanwhile. A deep
	// enough entry ends a non-PV node before any action is generated.
	cramped := mustSlide(w.r, p) && movegen.Count(w.r, p) <= crampedSlides
	if cramped && f.ext < maxLineExtensions {
		depth++
		f.ext++
	}
	key, sig := p.Key(), p.Signature()
	ttMove := position.NoMove
	if ent, hit := w.tt.Probe(key, sig); hit {
		ttMove = ent.Move
		if !pvNode {
			if v, ok := w.ttCutoff(&ent, ply, depth, alpha, beta); ok {
				w.horizon = true
				return v
			}
		}
	}
	// Step 4b. Reverse futility: a shallow node whose static score beats
	// beta by a margin a ply is taken to keep its score with one of its
	// actions. Not at PV nodes, not with a removal to choose, not for a
	// cramped slider (a blockade is what the static score misses) and not
	// where the window holds a proven result.
	if w.oneLine && !pvNode && depth <= futilityDepth && !cramped && p.Action() != position.Remove &&
		beta < ValueTBBand && beta > -ValueTBBand {
		if ev := w.evaluate(p); ev-futilityMargin*depth >= beta {
			return ev
		}
	}
	// Step 4c. Internal iterative reduction: a node the table has no move
	// for is searched a ply less deep; its moves are ordered blind, and
	// where it matters the next iteration comes back with a move.
	if w.oneLine && !pvNode && ttMove == position.NoMove && depth >= iirDepth {
		depth--
	}
	// The ply's own picker: a local one would be zeroed at every node.
	pk := &w.pickers[ply]
	pk.Generate(w.r, p)
	// Step 4d. Enhanced transposition cutoffs: a child the table knows may
	// end the node before any is searched. Steps 4b to 4d are for a search
	// of one line only, not for the exact searches of tests, levels and the
	// policies.
	if w.oneLine && !pvNode && depth >= etcDepth {
		if v, ok := w.etc(ply, depth, beta, pk.Moves()); ok {
			w.horizon = true // a table cutoff, as in step 4
			return v
		}
	}
	pk.Prepare(ttMove, w.killers[ply], &w.hist)
	if pk.Len() == 0 {
		// Cannot happen in a consistent position that is not over; score it
		// as a loss for the side that cannot act.
		return -ValueMate + ply
	}

	// Step 5. The move loop: the first move with the full window, the others
	// with a zero window (reduced if late and quiet), searched again when
	// they beat alpha.
	origAlpha := alpha
	best := -ValueInfinite
	bestMove := position.NoMove
	bestQuiet := false
	moveCount := 0
	var quiets [movegen.MaxMoves]position.Move
	nq := 0
	for {
		m, ok := pk.Next()
		if !ok {
			break
		}
		tactical := movepick.IsTactical(pk.LastScore()) || m.Kind() == position.KindRemove || m == ttMove
		moveCount++
		newDepth := depth - 1
		saved := w.makeMove(ply, m, newDepth)
		var v int
		if moveCount == 1 {
			v = w.sub(ply, alpha, beta, newDepth)
		} else {
			red := w.reduction(ply, depth, moveCount, m, tactical, pvNode)
			// A cramped side is never searched less deep; its actions are
			// counted only when it has to slide.
			if c := &w.stack[ply+1].pos; red > 0 && mustSlide(w.r, c) && movegen.Count(w.r, c) <= crampedSlides {
				red = 0
			}
			v = w.sub(ply, alpha, alpha+1, newDepth-red)
			if v > alpha && red > 0 {
				v = w.sub(ply, alpha, alpha+1, newDepth)
			}
			if v > alpha && v < beta && pvNode {
				v = w.sub(ply, alpha, beta, newDepth)
			}
		}
		w.keys = w.keys[:saved]
		if w.stopped {
			return 0
		}

		// Step 6. A new best move: the PV and alpha follow it; beta cuts.
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				bestQuiet = !tactical && m.Kind() != position.KindRemove
				alpha = v
				if pvNode {
					w.updatePV(ply, m)
				}
				if alpha >= beta {
					break
				}
			}
		}
		if m.Kind() != position.KindRemove && !tactical && nq < len(quiets) {
			quiets[nq] = m
			nq++
		}
	}

	// Step 7. A quiet move that cut is a killer; history rewards it and
	// punishes the quiet moves tried before it.
	if best >= beta && bestQuiet {
		w.updateQuietStats(ply, depth, p.SideToMove(), bestMove, quiets[:nq])
	}

	// Step 8. Store the result (keeping the table's move if none was best).
	if bestMove == position.NoMove {
		bestMove = ttMove
	}
	w.tt.Store(key, sig, bestMove, valueToTT(best, ply), int8(depth), boundOf(best, origAlpha, beta))
	return best
}

// ttCutoff returns the value of a table entry that is deep enough to end the
// search of the node with the window (alpha, beta). In exact mode (tests)
// only an entry of exactly this depth counts.
func (w *worker) ttCutoff(ent *tt.Entry, ply, depth, alpha, beta int) (int, bool) {
	if int(ent.Depth) != depth && (int(ent.Depth) < depth || w.testExact) {
		return 0, false
	}
	v := valueFromTT(ent.Value, ply)
	switch {
	case ent.Bound == tt.BoundExact,
		ent.Bound == tt.BoundLower && v >= beta,
		ent.Bound == tt.BoundUpper && v <= alpha:
		return v, true
	}
	return 0, false
}

// reduction returns how many plies less the moveCount-th move of a node is
// searched with a zero window: late quiet moves (not killers) are reduced by
// log(depth)·log(moveCount), a little less at PV nodes.
func (w *worker) reduction(ply, depth, moveCount int, m position.Move, tactical, pvNode bool) int {
	if w.testExact || depth < 3 || moveCount <= 3 || tactical || m == w.killers[ply][0] || m == w.killers[ply][1] {
		return 0
	}
	red := int(lmrTable[min(depth, 63)][min(moveCount, 63)])
	if pvNode {
		red--
	}
	return max(min(red, depth-2), 0)
}

// updatePV makes m followed by the child's PV the PV of the node at ply.
func (w *worker) updatePV(ply int, m position.Move) {
	w.pv[ply][ply] = m
	n := w.pvLen[ply+1]
	copy(w.pv[ply][ply+1:n], w.pv[ply+1][ply+1:n])
	w.pvLen[ply] = n
}

// updateQuietStats records a quiet move that caused a beta cutoff: a killer
// of its ply, a history bonus for it and a malus for the quiets tried before.
func (w *worker) updateQuietStats(ply, depth int, us position.Color, best position.Move, quiets []position.Move) {
	if w.killers[ply][0] != best {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = best
	}
	bonus := int32(depth * depth * 4)
	w.hist.Update(us, best, bonus)
	for _, q := range quiets {
		if q != best {
			w.hist.Update(us, q, -bonus)
		}
	}
}

// lmrTable[d][n] is the log-shaped reduction of the n-th move at depth d.
var lmrTable = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for n := 1; n < 64; n++ {
			t[d][n] = int8(0.5 + math.Log(float64(d))*math.Log(float64(n))/2.2)
		}
	}
	return
}()

// qsearch resolves pending removals and, within MaxQuiescenceDepth plies,
// mill-closing and blocking actions beyond the horizon; other positions
// stand pat.
func (w *worker) qsearch(ply, alpha, beta, qd int) int {
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = ply
	w.selDepth = max(w.selDepth, ply)
	if v, ok := w.settled(ply); ok {
		return v
	}
	if ply >= MaxPly || qd >= w.run.opts.MaxQuiescenceDepth {
		return w.evaluate(p)
	}
	ml := &w.qmoves[ply]
	best := -ValueInfinite
	if p.Action() != position.Remove {
		stand := w.evaluate(p)
		if stand >= beta {
			return stand
		}
		best = stand
		alpha = max(alpha, stand)
		qsearchMoves(w.r, p, ml)
	} else {
		movegen.Generate(w.r, p, ml)
	}
	for _, m := range ml.Slice() {
		saved := w.makeMove(ply, m, -1)
		var v int
		if w.stack[ply+1].pos.SideToMove() == p.SideToMove() {
			v = w.qsearch(ply+1, alpha, beta, qd+1)
		} else {
			v = -w.qsearch(ply+1, -beta, -alpha, qd+1)
		}
		w.keys = w.keys[:saved]
		if w.stop.Load() {
			w.stopped = true
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// qsearchMoves fills ml with the legal actions of p that qsearch tries past
// the horizon: those that close a mill, and those that take the last empty
// point next to the opponent's pieces when the opponent will have to slide
// (it has nothing in hand and does not fly): that action blocks it, which
// loses for it under the standard rules.
func qsearchMoves(r *rules.Rules, p *position.Position, ml *movegen.MoveList) {
	movegen.Generate(r, p, ml)
	t := r.Topology()
	us := p.SideToMove()
	own := p.Pieces(us)
	lastExit := bb.NoSquare
	if them := us ^ 1; p.InHand(them) == 0 && !p.CanFly(r, them) {
		if exits := t.Neighbours(p.Pieces(them)) & p.Empty(); exits.Count() == 1 {
			lastExit = exits.First()
		}
	}
	k := 0
	for _, m := range ml.Slice() {
		o := own
		if m.Kind() == position.KindSlide {
			o &^= 1 << m.From()
		}
		if m.To() == lastExit || t.MillsAt(m.To(), o) > 0 {
			ml.Moves[k] = m
			k++
		}
	}
	ml.N = k
}

// etcChild is a child that etc looks up: its key, its signature and whether
// the side to move changes on the way to it.
type etcChild struct {
	key  uint32
	sig  uint64
	flip bool
}

// etc tries enhanced transposition cutoffs: before any child is searched,
// it looks each child reached by a placement or a removal up in the
// transposition table (a slide's child may be a repetition, which the table
// does not know), and returns a score that ends the node when an entry deep
// enough proves one action reaches beta. In the placing phase the same
// pieces come on the board in many orders, so a child is often in the table
// already from a sibling's subtree. The buckets are all prefetched before
// the first is read.
func (w *worker) etc(ply, depth, beta int, moves []position.Move) (int, bool) {
	p := &w.stack[ply].pos
	kids := &w.etcKids
	n := 0
	for _, m := range moves {
		if m.Kind() == position.KindSlide {
			continue
		}
		c := *p
		c.Do(w.r, m)
		k := &kids[n]
		k.key, k.sig, k.flip = c.Key(), c.Signature(), c.SideToMove() != p.SideToMove()
		w.tt.Prefetch(k.key)
		n++
	}
	for i := range n {
		k := &kids[i]
		ent, hit := w.tt.Probe(k.key, k.sig)
		if !hit {
			continue
		}
		// The child's zero window at beta, from its own side; the entry
		// ends the node as it would end the child searched with it.
		sign, lo := 1, beta-1
		if k.flip {
			sign, lo = -1, -beta
		}
		if v, ok := w.ttCutoff(&ent, ply+1, depth-1, lo, lo+1); ok && sign*v >= beta {
			return sign * v, true
		}
	}
	return 0, false
}
