// Package movegen generates the legal actions of a position for every rule
// variant (placing, sliding, flying, removals with mill protection, the
// placing-phase mill actions, Lasker slides while placing, stalemate removals)
// into a fixed-size list, and counts perft.
package movegen

import (
	"fmt"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// MaxMoves bounds the number of legal actions of any position: 24 placements
// plus slides, or 4 flying pieces to 20 points, stay far below it.
const MaxMoves = 128

// MoveList is a fixed-size list of moves; it lives on the stack.
type MoveList struct {
	Moves [MaxMoves]position.Move
	N     int
}

// Slice returns the moves in the list (a view, not a copy).
func (ml *MoveList) Slice() []position.Move { return ml.Moves[:ml.N] }

// Contains reports whether m is in the list.
func (ml *MoveList) Contains(m position.Move) bool {
	for _, x := range ml.Moves[:ml.N] {
		if x == m {
			return true
		}
	}
	return false
}

// RemovalTargets returns the points the side to move may remove a piece from
// when its action is Remove.
func RemovalTargets(r *rules.Rules, p *position.Position) bb.Bitboard {
	us := p.SideToMove()
	victim := us ^ 1
	own := p.PendingRemovals(us) < 0
	if own {
		victim = us
	}
	targets := p.Pieces(victim)
	t := r.Topology()
	if p.IsStalemateRemoval(r) {
		if near := targets & t.Neighbours(p.Pieces(us)); !own && near != 0 {
			// Next to the remover's own pieces when there is such a piece;
			// there may be none (marked points in between, or with
			// StalemateAction 5 the side that was not blocked).
			return near
		}
		return targets
	}
	if r.MayRemoveFromMillsAlways {
		return targets
	}
	inMill := t.InMills(targets)
	if inMill == targets {
		return targets // every piece stands in a mill: any may go
	}
	return targets &^ inMill
}

// Generate fills ml with every legal action of p.
func Generate(r *rules.Rules, p *position.Position, ml *MoveList) {
	ml.N = 0
	if p.IsOver() {
		return
	}
	if p.Action() == position.Remove {
		for b := RemovalTargets(r, p); b != 0; {
			ml.Moves[ml.N] = position.MakeRemove(b.PopFirst())
			ml.N++
		}
		return
	}
	if p.Phase() == position.Placing {
		if p.InHand(p.SideToMove()) > 0 {
			for b := p.Empty(); b != 0; {
				ml.Moves[ml.N] = position.MakePlace(b.PopFirst())
				ml.N++
			}
		}
		if !r.MayMoveInPlacingPhase {
			return
		}
	}
	generateSlides(r, p, ml)
}

func generateSlides(r *rules.Rules, p *position.Position, ml *MoveList) {
	t := r.Topology()
	empty := p.Empty()
	fly := p.CanFly(r, p.SideToMove())
	restrict := r.RestrictRepeatedMillsFormation
	for b := p.Pieces(p.SideToMove()); b != 0; {
		from := b.PopFirst()
		dst := empty
		if !fly {
			dst &= t.Adjacent[from]
		}
		for dst != 0 {
			to := dst.PopFirst()
			if restrict && p.IsRepeatedMill(r, from, to) {
				continue
			}
			ml.Moves[ml.N] = position.MakeSlide(from, to)
			ml.N++
		}
	}
}

// Count returns the number of legal actions of p without listing them.
func Count(r *rules.Rules, p *position.Position) int {
	if p.IsOver() {
		return 0
	}
	if p.Action() == position.Remove {
		return RemovalTargets(r, p).Count()
	}
	n := 0
	if p.Phase() == position.Placing {
		if p.InHand(p.SideToMove()) > 0 {
			n = p.Empty().Count()
		}
		if !r.MayMoveInPlacingPhase {
			return n
		}
	}
	if r.RestrictRepeatedMillsFormation {
		var ml MoveList
		generateSlides(r, p, &ml)
		return n + ml.N
	}
	t := r.Topology()
	empty := p.Empty()
	own := p.Pieces(p.SideToMove())
	if p.CanFly(r, p.SideToMove()) {
		return n + own.Count()*empty.Count()
	}
	for b := own; b != 0; {
		n += (t.Adjacent[b.PopFirst()] & empty).Count()
	}
	return n
}

// IsLegal reports whether m is a legal action in p.
func IsLegal(r *rules.Rules, p *position.Position, m position.Move) bool {
	var ml MoveList
	Generate(r, p, &ml)
	return ml.Contains(m)
}

// ParseLegal reads a move token and checks that it is legal in p; the error
// says what is wrong with it.
func ParseLegal(r *rules.Rules, p *position.Position, tok string) (position.Move, error) {
	m, err := position.ParseMove(tok)
	if err != nil {
		return position.NoMove, err
	}
	if IsLegal(r, p, m) {
		return m, nil
	}
	return position.NoMove, fmt.Errorf("illegal move %s: %s", m, whyIllegal(r, p, m))
}

func whyIllegal(r *rules.Rules, p *position.Position, m position.Move) string {
	if p.IsOver() {
		return "the game is over"
	}
	us := p.SideToMove()
	switch {
	case p.Action() == position.Remove && m.Kind() != position.KindRemove:
		return fmt.Sprintf("%s must remove a piece first", us)
	case p.Action() != position.Remove && m.Kind() == position.KindRemove:
		return "no removal is pending"
	case m.Kind() == position.KindRemove:
		return fmt.Sprintf("%s may not be removed", m.To())
	case m.Kind() == position.KindPlace && p.Phase() != position.Placing:
		return fmt.Sprintf("%s has no pieces in hand, it must slide", us)
	case m.Kind() == position.KindPlace && p.InHand(us) == 0:
		return fmt.Sprintf("%s has no pieces in hand", us)
	case !p.Empty().Has(m.To()):
		return fmt.Sprintf("%s is not empty", m.To())
	case m.Kind() == position.KindSlide && p.Phase() == position.Placing && !r.MayMoveInPlacingPhase:
		return fmt.Sprintf("%s is placing, it may not slide", us)
	case m.Kind() == position.KindSlide && !p.Pieces(us).Has(m.From()):
		return fmt.Sprintf("%s has no piece on %s", us, m.From())
	case m.Kind() == position.KindSlide && !r.Topology().Adjacent[m.From()].Has(m.To()) && !p.CanFly(r, p.SideToMove()):
		return fmt.Sprintf("%s is not next to %s and %s may not fly", m.To(), m.From(), us)
	case m.Kind() == position.KindSlide && p.IsRepeatedMill(r, m.From(), m.To()):
		return "it re-forms the last mill by moving straight back"
	}
	return "not a legal action here"
}
