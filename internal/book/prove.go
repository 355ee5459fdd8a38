package book

import (
	"context"
	"fmt"
	"slices"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/solve"
)

// ProveStats describe a run of Prove.
type ProveStats struct {
	Proven int // positions proven by this run
	Before int // positions below the ply limit that were proven already
	Total  int // positions below the ply limit
}

// Prove gives the book's positions after fewer than plies actions their
// proven value and value-keeping actions (solve.Solver.Keeping), the first
// plies first, skipping those that have a proof. After each position it
// calls save (when not nil), so that an interrupted run keeps what it
// proved and the next goes on from there. done (may be nil) is told of each
// position proven: how many of the total have a proof now, its canonical
// FEN and its proof.
func Prove(ctx context.Context, b *Book, s *solve.Solver, plies int, save func() error, done func(n, total int, fen string, pr Proof)) (ProveStats, error) {
	var st ProveStats
	if !b.Matches(s.Rules()) {
		return st, fmt.Errorf("book prove: the book's rules (%s) are not the solver's", b.Preset)
	}
	b.thaw() // the proofs are written into the maps
	type job struct {
		fen       string
		ply, rank int
	}
	var todo []job
	order := b.treeOrder(plies)
	b.Each(func(fen string, ply int, e Entry) {
		if ply >= plies {
			return
		}
		st.Total++
		if e.Proof != nil {
			st.Before++
			return
		}
		todo = append(todo, job{fen, ply, order[fen]})
	})
	// Each gives the positions by ply, then by FEN; within a ply, siblings
	// go together, so that each proof finds its siblings' in the table.
	slices.SortStableFunc(todo, func(x, y job) int {
		if x.ply != y.ply {
			return x.ply - y.ply
		}
		return x.rank - y.rank
	})
	for _, j := range todo {
		fen := j.fen
		p, err := position.ParseFEN(&b.Rules, fen)
		if err != nil {
			return st, fmt.Errorf("book prove: %s: %w", fen, err)
		}
		v, keep, err := s.Keeping(ctx, &p)
		if err != nil {
			return st, fmt.Errorf("book prove: %s: %w", fen, err)
		}
		k, _ := key(&p) // the FEN is the canonical image: the keys and actions agree
		e := b.entries[k]
		e.Proof = &Proof{Value: v, Keep: keep}
		b.entries[k] = e
		st.Proven++
		if save != nil {
			if err := save(); err != nil {
				return st, fmt.Errorf("book prove: %w", err)
			}
		}
		if done != nil {
			done(st.Before+st.Proven, st.Total, fen, *e.Proof)
		}
	}
	return st, nil
}

// treeOrder ranks the book's positions after fewer than plies actions in
// the order of its tree, breadth first from the start for each colour the
// engine plays, as Build grew it: the book's actions where the engine is to
// move, every action where its opponent is. Positions with a parent in
// common (siblings) get neighbouring ranks, their parents' ranks order the
// families, and so on up; the file's order (by FEN) scatters them. Proofs
// taken in this order find much of each position's tree in the table from
// its siblings'. The ranks are keyed by canonical FEN; a position the walk
// does not reach has none (rank 0: first in its ply, in file order).
func (b *Book) treeOrder(plies int) map[string]int {
	r := &b.Rules
	rank := map[string]int{}
	front := treeRoots(r)
	for ply := 0; ply < plies && len(front) > 0; ply++ {
		for _, n := range front {
			if n.pos.SideToMove() != n.engine {
				continue
			}
			_, c := Canonical(&n.pos)
			k, ok := key(&c)
			if fen, in := b.fenOf(k); ok && in {
				if _, ranked := rank[fen]; !ranked {
					rank[fen] = len(rank) + 1
				}
			}
		}
		front = grow(r, front, func(n treeNode) []position.Move {
			if n.pos.SideToMove() != n.engine {
				var ml movegen.MoveList
				movegen.Generate(r, &n.pos, &ml)
				return ml.Slice()
			}
			e, ok := b.Probe(r, &n.pos)
			if !ok {
				return nil
			}
			moves := make([]position.Move, len(e.Actions))
			for i, a := range e.Actions {
				moves[i] = a.Move
			}
			return moves
		})
	}
	return rank
}
