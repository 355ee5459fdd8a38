package egtb

import (
	bb "github.com/millengine/millengine/internal/bitboard"
)

// The solver's own move generation on (mover, other) bitboards: the moving
// phase only, no pieces in hand, StalemateAction 0. TestGeneratorMatchesMovegen
// checks it against movegen.Generate and Position.Do, and the verify pass
// checks every stored value with the engine's own code.

// game is the move generation of one parameter set.
type game struct {
	p Params
	t *bb.Topology
}

func newGame(p Params) *game { return &game{p: p, t: p.topology()} }

// removable returns the pieces of other that the side that closed a mill may
// remove: pieces in a mill are protected unless every piece is in one (or
// MayRemoveFromMillsAlways).
func (g *game) removable(other bb.Bitboard) bb.Bitboard {
	if g.p.RemoveFromMills {
		return other
	}
	in := g.t.InMills(other)
	if in == other {
		return other
	}
	return other &^ in
}

// destinations returns where the piece on from may go: any empty point when
// the side flies, else the empty neighbours.
func (g *game) destinations(from bb.Square, empty bb.Bitboard, fly bool) bb.Bitboard {
	if fly {
		return empty
	}
	return g.t.Adjacent[from] & empty
}

// removals returns the removal count a slide to 'to' earns, mover being the
// mover's pieces after the slide: 0 for no mill, 1, or with
// MayRemoveMultiple the number of mills closed.
func (g *game) removals(to bb.Square, mover bb.Bitboard) int {
	n := g.t.MillsAt(to, mover)
	if n > 1 && !g.p.RemoveMultiple {
		n = 1
	}
	return n
}

// forEachAction calls quiet with the mover's new set for every slide or fly
// of the side to move that closes no mill, and mill with the new set and the
// number of removals due for every one that does.
func (g *game) forEachAction(mover, other bb.Bitboard, quiet func(m2 bb.Bitboard), mill func(m2 bb.Bitboard, n int)) {
	empty := bb.Full &^ (mover | other)
	fly := g.p.flies(mover.Count())
	for b := mover; b != 0; {
		from := b.PopFirst()
		for d := g.destinations(from, empty, fly); d != 0; {
			to := d.PopFirst()
			m2 := mover ^ bb.Bit(from) ^ bb.Bit(to)
			if n := g.removals(to, m2); n > 0 {
				mill(m2, n)
			} else {
				quiet(m2)
			}
		}
	}
}

// forEachUnmove calls f with the other side's former set for every slide or
// fly by which the other side, to move before, reached the position (mover to
// move now) without closing a mill: a piece that stands in a mill now did not
// arrive by such a turn.
func (g *game) forEachUnmove(mover, other bb.Bitboard, f func(prev bb.Bitboard)) {
	empty := bb.Full &^ (mover | other)
	fly := g.p.flies(other.Count())
	for b := other &^ g.t.InMills(other); b != 0; {
		to := b.PopFirst()
		for s := g.destinations(to, empty, fly); s != 0; {
			from := s.PopFirst()
			f(other ^ bb.Bit(to) ^ bb.Bit(from))
		}
	}
}

// lookupFunc returns the value of a position in the moving phase with the
// side to move holding mover and the other side other, and whether it is
// known.
type lookupFunc func(mover, other bb.Bitboard) (Value, bool)

// afterMill returns the value, for the side that has just closed a mill, of
// its best removals: mover holds its pieces (after the action), other the
// opponent's, n removals are due. The removals complete the turn, so the value
// is that of the action that closed the mill. A removal that leaves the
// opponent with fewer than MinPieces pieces wins at once (win 1).
func (g *game) afterMill(mover, other bb.Bitboard, n int, look lookupFunc) (Value, bool) {
	best, known := Value(0), false
	for t := g.removable(other); t != 0; {
		o2 := other &^ bb.Bit(t.PopFirst())
		var v Value
		switch {
		case o2.Count() < g.p.MinPieces:
			return Win(1), true
		case n > 1:
			var ok bool
			if v, ok = g.afterMill(mover, o2, n-1, look); !ok {
				return 0, false
			}
		default:
			c, ok := look(o2, mover)
			if !ok {
				return 0, false
			}
			v = c.Parent()
		}
		if !known || v.Better(best) {
			best, known = v, true
		}
	}
	return best, known
}
