package search

import (
	"math"
	"sort"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/tt"
)

// iterate is a worker's iterative deepening loop, up to the search's depth
// limit or until it is stopped. The main worker reports every completed
// iteration and decides whether to go deeper; helpers skip depths so that
// the threads spread over the tree (lazy SMP).
func (w *worker) iterate() {
	s := w.run
	guess := 0
	if ent, ok := w.tt.Probe(w.stack[0].pos.Key(), w.stack[0].pos.Signature()); ok {
		guess = int(ent.Value)
		if guess > ValueMateBand || guess < -ValueMateBand {
			guess = 0
		}
	}
	multiPV := s.opts.MultiPV
	var scores [MaxPly + 1]int
	for d := 1; d <= s.maxDepth; d++ {
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
		w.horizon = false
		if w.id == 0 {
			s.depth = d
		}
		for i := range w.rootMoves {
			w.rootMoves[i].prevScore = w.rootMoves[i].score
		}
		for w.pvIdx = 0; w.pvIdx < multiPV && !w.stopped; w.pvIdx++ {
			switch {
			case multiPV > 1 || s.opts.Algorithm == AlphaBeta:
				w.rootSearch(-ValueInfinite, ValueInfinite, d)
			case s.opts.Algorithm == PVS:
				w.aspiration(guess, d)
			default:
				w.mtdf(guess, d)
			}
		}
		if w.stopped {
			break
		}
		guess = w.rootMoves[0].score
		scores[d] = guess
		w.bestMove = w.rootMoves[0].move
		w.bestScore = w.rootMoves[0].score
		w.bestDepth = d
		w.bestPV = w.linePV(0, d)
		if w.id != 0 {
			if !w.horizon {
				break
			}
			continue
		}
		s.iterationDone(w, d)
		// No line reached the horizon: every one ended with the game (a
		// win, a loss or a draw by the rules), so deeper iterations would
		// find the same.
		if w.stop.Load() || !w.horizon || s.stopAfterIteration(w, d) {
			break
		}
	}
}

// iterationDone reports the lines of a completed iteration of the main worker.
func (s *searchRun) iterationDone(w *worker, d int) {
	if s.report == nil {
		return
	}
	el := s.e.clock.elapsed()
	n := s.nodes() - w.published.Load() + w.nodes
	tb := s.tbHits() - w.publishedTB.Load() + w.tbHits
	hf := s.e.tt.HashFull()
	for i := 0; i < s.opts.MultiPV && i < len(w.rootMoves); i++ {
		pv := w.bestPV
		if i > 0 {
			pv = w.linePV(i, d)
		}
		sc := w.rootMoves[i].score
		outcome := OutcomeUnknown
		if s.proof != nil && i == 0 {
			sc, outcome = ProvenScore(s.proof.value, sc), s.proof.outcome
		}
		mate := mateIn(w, sc, pv)
		s.report(Info{Depth: d, SelDepth: max(w.selDepth, d), MultiPV: i + 1, Score: sc, Nodes: n,
			NPS: nps(n, el), HashFull: hf, TBHits: tb, Time: el, PV: pv, Bound: tt.BoundExact,
			MateIn: mate, Outcome: outcome})
	}
	s.lastReport = time.Now()
}

// tableRootScore is the score and the mate count (turns, negative when lost)
// of a root whose value the tables know: a mate where the tables keep the
// distance to the end, a table win (no mate count) where they keep the
// distance to the next removal, the draw of a draw.
func tableRootScore(a egtb.RootAction) (score, mate int) {
	v := a.Entry.Value
	score = tableScore(a.Entry, 0, ValueDraw, math.MaxInt32)
	switch {
	case !a.Entry.Exact || v.IsDraw():
		return score, 0
	case v.IsWin():
		return score, v.Distance()
	}
	return score, -max(v.Distance(), 1)
}

// tableLine is the principal variation of a table root that starts with
// move: the move, then the policy with the values of src
// (egtb.PlayLineUntil) to the end of the game, tableLinePlies, where src
// knows no more, or, under a clock, once a quarter of the move's time has
// gone (from tables read from the disk a line costs seconds, and it is only
// shown; a match lost on time at 200 ms a move, 2026-11-28, with the
// tables' pages pushed out of memory).
func (s *searchRun) tableLine(src egtb.Source, move position.Move) []position.Move {
	g := s.root.Clone()
	g.Play(move)
	var stop func() bool
	if s.soft > 0 {
		budget := s.soft / 4
		stop = func() bool { return s.e.clock.elapsed() >= budget }
	}
	return append([]position.Move{move}, egtb.PlayLineUntil(src, g, tableLinePlies, stop)...)
}

// tableLinePlies bounds the line of a table root: a drawn line goes on until
// a repetition ends it, and a win's line to its end is more than a GUI shows.
const tableLinePlies = 40

// skipDepth spreads the helper threads of lazy SMP over different depths.
func skipDepth(id, depth int) bool {
	sizes := [...]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	phases := [...]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
	i := (id - 1) % len(sizes)
	return ((depth+phases[i])/sizes[i])%2 != 0
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
	if w.pvIdx == 0 {
		w.tt.Store(p.Key(), p.Signature(), moves[0].move, valueToTT(best, 0), int8(depth), boundOf(best, origAlpha, beta))
	}
	return best
}

// mtdf converges on the minimax value with zero-window root searches,
// starting from the guess.
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

// linePV returns the PV of root move i after a completed iteration of the
// given depth: the search's own when it has one (PVS and alpha-beta collect
// it at PV nodes), else the line the transposition table holds (MTD(f)'s
// zero-window searches collect none). Either way it is the line of the
// reported score: played through the game's draw rules and cut where the
// game ends.
func (w *worker) linePV(i, depth int) []position.Move {
	rm := &w.rootMoves[i]
	var pv []position.Move
	if len(rm.pv) >= 2 && rm.pv[0] == rm.move {
		pv = append(pv, rm.pv...)
	} else {
		pv = w.extractPV(rm.move, rm.score, depth)
	}
	return w.run.untilGameEnd(pv)
}

// extractPV follows the transposition table from the root after the given
// first move. A line of a mate score follows only entries with that mate's
// value at their distance, so it ends in the mate it claims (or earlier, cut
// short); any other line stops at the searched depth (in plies, as the
// search counts them), with the removal that completes a turn at the
// horizon (quiescence resolves it): the table may hold deeper lines of
// earlier searches that the reported score did not see.
func (w *worker) extractPV(first position.Move, score, depth int) []position.Move {
	pv := []position.Move{first}
	p := w.stack[0].pos
	us := p.SideToMove()
	p.Do(w.r, first)
	mate := score > ValueMateBand || score < -ValueMateBand
	for !p.IsOver() {
		if !mate && len(pv) >= depth && (len(pv) > depth || p.Action() != position.Remove) {
			break
		}
		ent, ok := w.tt.Probe(p.Key(), p.Signature())
		if !ok || ent.Move == position.NoMove || !movegen.IsLegal(w.r, &p, ent.Move) {
			break
		}
		if mate {
			v := score
			if p.SideToMove() != us {
				v = -v
			}
			if ent.Value != valueToTT(v, len(pv)) {
				break
			}
		}
		p.Do(w.r, ent.Move)
		pv = append(pv, ent.Move)
		if len(pv) >= MaxPly {
			break
		}
	}
	return pv
}

// untilGameEnd returns the longest prefix of pv that the game's rules allow:
// it is played from the root with the game's history, and cut after the
// action that ends the game (a win, or a draw by repetition or the N-move
// rules).
func (s *searchRun) untilGameEnd(pv []position.Move) []position.Move {
	g := s.root.Clone()
	for i, m := range pv {
		if g.Pos.IsOver() || !movegen.IsLegal(&g.Rules, &g.Pos, m) {
			return pv[:i]
		}
		g.Play(m)
	}
	return pv
}

// mateIn converts a mate score into the turns the winner takes to end the
// game (negative when the side to move is the loser), as UCI's "mate -N"
// means mated in the opponent's N moves: a turn is an action with the
// removals that follow it. The two counts differ when the loser's own action
// ends the game (a placement that fills the board under a BoardFullAction
// that makes the first player lose): the loser then takes one turn more than
// the winner, and it is the winner's that are reported. A loss on the side to
// move's first action is reported as mate -1, since UCI has no "mate -0".
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
	winner := root.SideToMove()
	if score < 0 {
		winner ^= 1
	}
	p := root
	turns := 0
	prev := position.Color(2)
	for i := 0; i < plies && i < len(pv); i++ {
		mover := p.SideToMove()
		if mover == winner && mover != prev {
			turns++
		}
		prev = mover
		p.Do(w.r, pv[i])
	}
	if rest := plies - len(pv); rest > 0 {
		// The line is cut short: estimate the rest, a turn every other ply.
		if p.SideToMove() == winner && prev != winner {
			rest++
		}
		turns += rest / 2
	}
	if turns == 0 {
		turns = 1
	}
	if score < 0 {
		return -turns
	}
	return turns
}
