package search

import (
	"math"
	"sort"
	"sync/atomic"

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
}

// rootMove is a legal root action with its last score and PV.
type rootMove struct {
	move      position.Move
	score     int
	prevScore int
	pv        []position.Move
}

// worker is one search thread. It owns its position stack, killers and
// history; it shares the transposition table and the stop flag.
type worker struct {
	id         int
	e          *Engine
	r          *rules.Rules
	tt         *tt.Table
	opts       Options
	exact      bool // no reductions, table cutoffs only at equal depth (tests)
	noPrefetch bool // benchmarks: do not prefetch the child's bucket
	tune       tuning
	stop       *atomic.Bool
	stack      [MaxPly + 2]frame
	keys       []uint32 // keys reached by slides since the last irreversible move, game then path
	killers    [MaxPly + 2][2]position.Move
	hist       movepick.History
	pv         [MaxPly + 2][MaxPly + 2]position.Move
	pvLen      [MaxPly + 2]int

	nodes     uint64
	published atomic.Uint64
	selDepth  int
	stopped   bool
	rootMoves []rootMove
	pvIdx     int
	// completed iteration results
	bestMove  position.Move
	bestScore int
	bestDepth int
	bestPV    []position.Move
	limitNode uint64 // per-thread node limit, 0 for none
}

func newWorker(e *Engine, id int) *worker {
	return &worker{id: id, e: e, keys: make([]uint32, 0, 1024)}
}

// valueToTT converts a mate score relative to the root into one relative to
// the node, so a stored entry is valid wherever the node is met again.
func valueToTT(v, ply int) int16 {
	switch {
	case v > ValueMateBand:
		v += ply
	case v < -ValueMateBand:
		v -= ply
	}
	return int16(v)
}

func valueFromTT(v int16, ply int) int {
	x := int(v)
	switch {
	case x > ValueMateBand:
		x -= ply
	case x < -ValueMateBand:
		x += ply
	}
	return x
}

func (w *worker) countNode() {
	w.nodes++
	if w.nodes&1023 == 0 {
		w.published.Store(w.nodes)
		if w.id == 0 {
			w.e.poll(w)
		}
		if w.limitNode > 0 && w.nodes >= w.limitNode {
			w.stop.Store(true)
		}
	}
}

// terminal returns the score of a finished game for the side to move.
func terminal(p *position.Position, ply int) int {
	res, _ := p.Result()
	switch res {
	case position.Draw, position.Ongoing:
		return ValueDraw
	case position.Winner(p.SideToMove()):
		return ValueMate - ply
	}
	return -ValueMate + ply
}

// drawnByRule reports whether the position at ply, reached by a slide, is a
// draw by the N-move rules or by a repetition of an earlier position.
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
	key := child.pos.Key()
	// Prefetch only for a child that will probe: one searched at depth 0
	// goes straight to quiescence, which does not use the table.
	if !w.noPrefetch && childDepth > 0 {
		w.tt.Prefetch(key)
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

// evaluate returns the static score rounded to the grain: a coarser grain
// lets MTD(f) converge in fewer zero-window passes.
func (w *worker) evaluate(p *position.Position) int {
	var v int
	if w.tune.params != nil {
		v = eval.EvaluateWith(w.tune.params, w.r, p)
	} else {
		v = eval.Evaluate(w.r, p)
	}
	if g := w.tune.grain; g > 1 {
		if v >= 0 {
			v = (v + g/2) / g * g
		} else {
			v = -((-v + g/2) / g * g)
		}
	}
	return v
}

// search is fail-soft negamax alpha-beta with PVS, for the position at ply.
func (w *worker) search(ply, alpha, beta, depth int) int {
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = ply
	if ply > w.selDepth {
		w.selDepth = ply
	}
	if w.stop.Load() {
		w.stopped = true
		return 0
	}
	if p.IsOver() {
		return terminal(p, ply)
	}
	if ply > 0 && f.move.Kind() == position.KindSlide && w.drawnByRule(ply) {
		return ValueDraw
	}
	if depth <= 0 {
		return w.qsearch(ply, alpha, beta, 0)
	}
	if ply >= MaxPly {
		return w.evaluate(p)
	}
	pvNode := beta-alpha > 1

	// Mate distance pruning: no line can do better than mating now.
	if ply > 0 {
		if a := -ValueMate + ply; a > alpha {
			alpha = a
		}
		if b := ValueMate - ply - 1; b < beta {
			beta = b
		}
		if alpha >= beta {
			return alpha
		}
	}

	// Generate first: the table's bucket was prefetched when the move leading
	// here was made and arrives meanwhile.
	var pk movepick.Picker
	pk.Generate(w.r, p)
	key := p.Key()
	ttMove := position.NoMove
	ent, hit := w.tt.Probe(key)
	if hit {
		ttMove = ent.Move
		if !pvNode && (int(ent.Depth) >= depth && !w.exact || int(ent.Depth) == depth) {
			v := valueFromTT(ent.Value, ply)
			if (ent.Bound == tt.BoundExact) ||
				(ent.Bound == tt.BoundLower && v >= beta) ||
				(ent.Bound == tt.BoundUpper && v <= alpha) {
				return v
			}
		}
	}

	us := p.SideToMove()
	staticEval := ValueNone
	if !pvNode && (w.tune.nullMove || w.tune.futility) && !w.exact {
		if hit && ent.Eval != 0 {
			staticEval = int(ent.Eval)
		} else {
			staticEval = w.evaluate(p)
		}
	}

	// Null move: while both sides are still placing there is no zugzwang, so
	// a position that stays good after passing is good enough to cut.
	if w.tune.nullMove && !pvNode && !w.exact && depth >= 3 && ply > 0 && f.move != position.NoMove &&
		p.Action() == position.Place && p.InHand(us) > 0 && p.InHand(us^1) > 0 &&
		staticEval >= beta && beta > -ValueMateBand && beta < ValueMateBand {
		red := 2 + depth/4
		child := &w.stack[ply+1]
		child.pos = *p
		child.pos.DoNull()
		child.move = position.NoMove
		child.since = len(w.keys)
		w.countNode()
		v := -w.search(ply+1, -beta, -beta+1, depth-1-red)
		if w.stopped {
			return 0
		}
		if v >= beta {
			if v > ValueMateBand {
				v = beta
			}
			return v
		}
	}

	pk.Prepare(ttMove, w.killers[ply], &w.hist)
	if pk.Len() == 0 {
		// Cannot happen in a consistent position that is not over; score it
		// as a loss for the side that cannot act.
		return -ValueMate + ply
	}

	origAlpha := alpha
	best := -ValueInfinite
	bestMove := position.NoMove
	bestQuiet := false
	moveCount := 0
	var quiets [movegen.MaxMoves]position.Move
	nq := 0
	futile := w.tune.futility && !pvNode && !w.exact && depth <= 2 && staticEval != ValueNone &&
		staticEval+futilityMargin[depth] <= alpha
	for {
		m, ok := pk.Next()
		if !ok {
			break
		}
		sc := pk.LastScore()
		tactical := movepick.IsTactical(sc) || m.Kind() == position.KindRemove || m == ttMove
		if futile && moveCount > 0 && !tactical {
			// A quiet move cannot lift a position this far below alpha.
			if v := staticEval + futilityMargin[depth]; v > best {
				best = v
			}
			continue
		}
		moveCount++
		newDepth := depth - 1
		saved := w.makeMove(ply, m, newDepth)
		var v int
		if moveCount == 1 {
			v = w.sub(ply, alpha, beta, newDepth)
		} else {
			// Late move reductions for quiet moves.
			red := 0
			if w.tune.lmr && depth >= 3 && moveCount > 3 && !tactical && !w.exact && m != w.killers[ply][0] && m != w.killers[ply][1] {
				red = int(lmrTable[min(depth, 63)][min(moveCount, 63)])
				if pvNode {
					red--
				}
				if red > newDepth-1 {
					red = newDepth - 1
				}
				if red < 0 {
					red = 0
				}
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
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				bestQuiet = !tactical && m.Kind() != position.KindRemove
				alpha = v
				if pvNode {
					w.pv[ply][ply] = m
					n := w.pvLen[ply+1]
					copy(w.pv[ply][ply+1:n], w.pv[ply+1][ply+1:n])
					w.pvLen[ply] = n
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

	if best >= beta && bestQuiet {
		if w.killers[ply][0] != bestMove {
			w.killers[ply][1] = w.killers[ply][0]
			w.killers[ply][0] = bestMove
		}
		bonus := int32(depth * depth * 4)
		w.hist.Update(us, bestMove, bonus)
		for i := 0; i < nq; i++ {
			if quiets[i] != bestMove {
				w.hist.Update(us, quiets[i], -bonus)
			}
		}
	}

	bound := tt.BoundExact
	switch {
	case best >= beta:
		bound = tt.BoundLower
	case best <= origAlpha:
		bound = tt.BoundUpper
	}
	storeMove := bestMove
	if storeMove == position.NoMove {
		storeMove = ttMove
	}
	w.tt.Store(key, storeMove, valueToTT(best, ply), 0, int8(depth), bound)
	return best
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

// futilityMargin[d] bounds what a quiet move gains with d plies left.
var futilityMargin = [3]int{0, 110, 220}

// qsearch resolves pending removals (and, within MaxQuiescenceDepth plies,
// mill-closing actions) beyond the horizon.
func (w *worker) qsearch(ply, alpha, beta, qd int) int {
	f := &w.stack[ply]
	p := &f.pos
	w.pvLen[ply] = ply
	if ply > w.selDepth {
		w.selDepth = ply
	}
	if p.IsOver() {
		return terminal(p, ply)
	}
	if ply > 0 && f.move.Kind() == position.KindSlide && w.drawnByRule(ply) {
		return ValueDraw
	}
	if ply >= MaxPly || qd >= w.opts.MaxQuiescenceDepth {
		return w.evaluate(p)
	}
	var ml movegen.MoveList
	best := -ValueInfinite
	if p.Action() != position.Remove && !w.tune.qMills {
		return w.evaluate(p)
	}
	if p.Action() != position.Remove {
		stand := w.evaluate(p)
		if stand >= beta {
			return stand
		}
		best = stand
		if stand > alpha {
			alpha = stand
		}
		// Only actions that close a mill are searched.
		movegen.Generate(w.r, p, &ml)
		t := w.r.Topology()
		own := p.Pieces(p.SideToMove())
		k := 0
		for _, m := range ml.Slice() {
			o := own
			if m.Kind() == position.KindSlide {
				o &^= 1 << m.From()
			}
			if t.MillsAt(m.To(), o) > 0 {
				ml.Moves[k] = m
				k++
			}
		}
		ml.N = k
	} else {
		movegen.Generate(w.r, p, &ml)
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

// rootSearch searches the root moves from w.pvIdx on with the window
// (alpha, beta) and sorts them by score. It returns the best score.
func (w *worker) rootSearch(alpha, beta, depth int) int {
	p := &w.stack[0].pos
	w.pvLen[0] = 0
	best := -ValueInfinite
	origAlpha := alpha
	moves := w.rootMoves[w.pvIdx:]
	for i := range moves {
		moves[i].score = -ValueInfinite
	}
	for i := range moves {
		rm := &moves[i]
		saved := w.makeMove(0, rm.move, depth-1)
		var v int
		if i == 0 {
			v = w.sub(0, alpha, beta, depth-1)
		} else {
			v = w.sub(0, alpha, alpha+1, depth-1)
			if v > alpha && v < beta {
				v = w.sub(0, alpha, beta, depth-1)
			}
		}
		w.keys = w.keys[:saved]
		if w.stopped {
			break
		}
		rm.score = v
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				rm.pv = append(rm.pv[:0], rm.move)
				rm.pv = append(rm.pv, w.pv[1][1:w.pvLen[1]]...)
				w.pv[0][0] = rm.move
			}
			if alpha >= beta {
				break
			}
		}
	}
	if w.stopped {
		return best
	}
	// Stable sort keeps the previous order among equal scores.
	sort.SliceStable(moves, func(a, b int) bool { return moves[a].score > moves[b].score })
	bound := tt.BoundExact
	switch {
	case best >= beta:
		bound = tt.BoundLower
	case best <= origAlpha:
		bound = tt.BoundUpper
	}
	if w.pvIdx == 0 {
		w.tt.Store(p.Key(), moves[0].move, valueToTT(best, 0), 0, int8(depth), bound)
	}
	return best
}

// mtdf converges on the minimax value with zero-window root searches,
// starting from the guess (the previous iteration's score).
func (w *worker) mtdf(guess, depth int) int {
	g := guess
	lower, upper := -ValueInfinite, ValueInfinite
	for lower < upper {
		beta := g
		if g == lower {
			beta = g + 1
		}
		g = w.rootSearch(beta-1, beta, depth)
		if w.stopped {
			break
		}
		if g < beta {
			upper = g
		} else {
			lower = g
		}
	}
	return g
}

// aspiration runs PVS at the root with a window around the guess, widening
// it on failure.
func (w *worker) aspiration(guess, depth int) int {
	if depth < 4 || guess > ValueMateBand || guess < -ValueMateBand {
		return w.rootSearch(-ValueInfinite, ValueInfinite, depth)
	}
	delta := 25
	alpha, beta := guess-delta, guess+delta
	for {
		v := w.rootSearch(alpha, beta, depth)
		if w.stopped {
			return v
		}
		switch {
		case v <= alpha:
			alpha = v - delta
		case v >= beta:
			beta = v + delta
		default:
			return v
		}
		delta *= 2
		if delta > 400 {
			alpha, beta = -ValueInfinite, ValueInfinite
		}
	}
}

// extractPV follows the transposition table from the root after the given
// first move, keeping only legal moves and stopping at a repetition.
func (w *worker) extractPV(first position.Move, maxLen int) []position.Move {
	pv := []position.Move{first}
	p := w.stack[0].pos
	p.Do(w.r, first)
	seen := map[uint32]bool{p.Key(): true}
	for len(pv) < maxLen && !p.IsOver() {
		ent, ok := w.tt.Probe(p.Key())
		if !ok || ent.Move == position.NoMove || !movegen.IsLegal(w.r, &p, ent.Move) {
			break
		}
		p.Do(w.r, ent.Move)
		if seen[p.Key()] {
			break
		}
		seen[p.Key()] = true
		pv = append(pv, ent.Move)
	}
	return pv
}
