package book

import (
	"context"
	"fmt"

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
	var todo []string
	b.Each(func(fen string, ply int, e Entry) {
		if ply >= plies {
			return
		}
		st.Total++
		if e.Proof != nil {
			st.Before++
			return
		}
		todo = append(todo, fen)
	})
	for _, fen := range todo {
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
