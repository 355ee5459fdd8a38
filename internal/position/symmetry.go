package position

import bb "github.com/millengine/millengine/internal/bitboard"

// Transform returns the image of p under the board symmetry y: every point
// of its state (pieces, marked points, used mills, last-mill squares) is
// moved by y and the key is recomputed. Lines map to lines and neighbours
// to neighbours, so the image has the same legal actions (moved by y) and
// the same value; the opening book stores one image for all of them.
func (p *Position) Transform(y bb.Symmetry) Position {
	q := *p
	for c := 0; c < 2; c++ {
		q.pieces[c] = y.Apply(p.pieces[c])
		q.formed[c] = y.Apply(p.formed[c])
		if p.millFrom[c] != bb.NoSquare {
			q.millFrom[c] = y.Square(p.millFrom[c])
		}
		if p.millTo[c] != bb.NoSquare {
			q.millTo[c] = y.Square(p.millTo[c])
		}
	}
	q.marked = y.Apply(p.marked)
	q.key = q.baseKey()
	return q
}

// Transform returns the image of m under the board symmetry y: the action
// on p.Transform(y) that corresponds to m on p.
func (m Move) Transform(y bb.Symmetry) Move {
	switch m.Kind() {
	case KindPlace:
		return MakePlace(y.Square(m.To()))
	case KindSlide:
		return MakeSlide(y.Square(m.From()), y.Square(m.To()))
	case KindRemove:
		return MakeRemove(y.Square(m.To()))
	}
	return m
}
