package search

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/solve"
)

// Proofs at the root. Late in the placing phase the rest of the game's tree
// down to the endgame tables is small enough to prove: before it searches,
// the engine proves the root's value and every action's (internal/solve),
// within part of its time, and then searches only the actions that keep the
// value; its score is the proven value (a draw scores 0). A proof that does
// not finish in time changes nothing.

// ProofPlacements is the most placements left (both hands) at which the
// engine always tries to prove a placing root (with 6 left, 32–167 ms on one
// thread with a fresh table at eight game positions). Up to
// MaxProofPlacements it tries when its budget covers the cost in proofCosts
// (a proof that does not finish wastes its budget), so that the horizon
// grows with the time a move has.
const (
	ProofPlacements    = 6
	MaxProofPlacements = 10
)

// proofCosts is what a proof with 7, 8, 9 and 10 placements left takes on
// one thread, about the third quartile of twelve game positions each (the
// matches against Sanmill; `solve --moves … --tt-mb 64`, a fresh table:
// medians 217, 319, 548 and 1,619 ms, longest 337, 578, 844 and 3,046 ms;
// on two threads medians 83, 152, 348 and 788 ms). In a game the prover's
// table keeps the earlier moves' subtrees, so later proofs take less.
var proofCosts = [MaxProofPlacements - ProofPlacements]time.Duration{
	250 * time.Millisecond, 400 * time.Millisecond, 700 * time.Millisecond, 2 * time.Second,
}

// proofHorizon is the most placements left at which the engine tries to
// prove a root within budget on threads threads (two threads take about
// half the time of one).
func proofHorizon(budget time.Duration, threads int) int {
	h := ProofPlacements
	for h < MaxProofPlacements && budget*time.Duration(max(threads, 1)) >= proofCosts[h-ProofPlacements] {
		h++
	}
	return h
}

// proofTableMB is the size of the prover's own transposition table, kept
// from one move to the next (the proofs of a game's moves share subtrees).
const proofTableMB = 64

// proofResult is a root's proven value and the actions that keep it, which
// the search chooses among: what a finished proof of the root decided, or
// the tables at a drawn root (source FromTables).
type proofResult struct {
	value   solve.Value
	kept    []position.Move // the actions that keep the value (among the searchable ones)
	note    string          // for an info string, said once the search is planned; empty: none
	outcome Outcome
	source  Source
}

// proveRoot proves the root when it is a placing position close enough to
// the tables, within a share of the search's time; it returns nil when it
// does not try or does not finish. Fixed-depth and fixed-node searches
// (bench, tools) do not prove, so that they stay reproducible.
func (e *Engine) proveRoot(g *position.Game, lim Limits, moves []position.Move) *proofResult {
	p := &g.Pos
	left := p.InHand(position.White) + p.InHand(position.Black)
	if left == 0 || left > MaxProofPlacements || lim.Depth > 0 || lim.Nodes > 0 || lim.Mate > 0 {
		return nil
	}
	if solve.Supported(&g.Rules) != nil {
		return nil
	}
	budget := proofBudget(&lim, p.SideToMove(), e.Options().MoveOverhead)
	threads := min(e.Options().Threads, UsefulThreads()) // the proof's actions are shared out like the search's
	if budget <= 0 || left > proofHorizon(budget, threads) {
		return nil
	}
	if e.prover == nil || *e.prover.Rules() != g.Rules || e.prover.Threads() != threads {
		pr, err := solve.New(g.Rules, e.tables, solve.Options{TableMB: proofTableMB, Threads: threads, Stop: &e.stop})
		if err != nil {
			return nil
		}
		e.prover = pr
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	v, acts, err := e.prover.Actions(ctx, p)
	if err != nil {
		return nil
	}
	var kept []position.Move
	for _, a := range acts {
		if a.Value == v && slices.Contains(moves, a.Move) {
			kept = append(kept, a.Move)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	st := e.prover.Stats()
	out := &proofResult{value: v, kept: kept, source: FromProof, outcome: outcomes[v]}
	out.note = fmt.Sprintf("proof %s in %d placements (%d nodes, %d ms): keep it %s", v, left, st.Nodes,
		time.Since(start).Milliseconds(), position.JoinMoves(kept))
	return out
}

// proofBudget is the time a proof may take: a third of the move's time, or
// of the clock's share for the move; 2 s in infinite analysis.
func proofBudget(l *Limits, side position.Color, overhead time.Duration) time.Duration {
	if l.Infinite || l.Ponder {
		return 2 * time.Second
	}
	soft, _ := timeBudget(l, side, overhead)
	return soft / 3
}

// ProvenScore is the score reported for a root of proven value v (a proof,
// or the book's proven value) whose search or book scored it score: 0 for a
// draw, score itself when it already says the proven result, else a table
// win or loss (the proof knows the result, not its distance).
func ProvenScore(v solve.Value, score int) int {
	switch v {
	case solve.Draw:
		return ValueDraw
	case solve.Win:
		if score > ValueTBBand {
			return score
		}
		return ValueTBWin - 1
	}
	if score < -ValueTBBand {
		return score
	}
	return -ValueTBWin + 1
}
