package malom

import (
	"fmt"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
)

// MaxDifferences is how many differences a CompareReport keeps.
const MaxDifferences = 10

// Difference is a position on which Malom and our tables disagree.
type Difference struct {
	Slot                 int
	Mover, Other         bb.Bitboard // the side to move's pieces and the other side's
	MoverHand, OtherHand int
	Malom                Eval
	Ours                 WDL
}

// FEN returns the position as a FEN (rules.md §5) with the side to move as
// white, no removal pending and zero counters.
func (d Difference) FEN() string {
	b := position.AppendBoard(make([]byte, 0, 96), d.Mover, d.Other, 0)
	phase, action := 'm', 's'
	if d.MoverHand > 0 || d.OtherHand > 0 {
		phase = 'p'
	}
	if d.MoverHand > 0 {
		action = 'p'
	}
	return fmt.Sprintf("%s w %c %c %d %d %d %d 0 0 0 0 0 0 0 0 1", b, phase, action,
		d.Mover.Count(), d.MoverHand, d.Other.Count(), d.OtherHand)
}

func (d Difference) String() string {
	return fmt.Sprintf("slot %d %s: Malom %v, ours %v", d.Slot, d.FEN(), d.Malom, d.Ours)
}

// CompareReport is the outcome of CompareSector.
type CompareReport struct {
	Sector SectorID
	// Entries is the number of slots; Redirects of them hold a redirect
	// (their positions are compared with the value the redirect leads to).
	Entries, Redirects int
	// Compared = Equal + Different: the slots whose position both sides
	// know. Skipped: ours did not know the position. Broken: Malom's entry
	// could not be read (Err is the first such error).
	Compared, Equal, Different, Skipped, Broken int
	Err                                         error
	// First holds the first MaxDifferences differences in slot order.
	First []Difference
}

func (r CompareReport) String() string {
	s := fmt.Sprintf("sector %v: %d entries (%d redirects): %d compared, %d equal, %d different, %d skipped",
		r.Sector, r.Entries, r.Redirects, r.Compared, r.Equal, r.Different, r.Skipped)
	if r.Broken > 0 {
		s += fmt.Sprintf(", %d broken (first: %v)", r.Broken, r.Err)
	}
	return s
}

// CompareSector compares every entry of s with ours, which returns the
// win/draw/loss (1, 0, −1) of a position for its side to move and whether it
// knows it. Every slot is a position of the sector and is compared, redirect
// slots through the value they lead to. Any sector works, placing sectors
// included: ours gets the pieces in hand from the sector id.
func CompareSector(s *Sector, ours func(mover, other bb.Bitboard, moverHand, otherHand int) (wdl int8, ok bool)) CompareReport {
	id := s.ID()
	r := CompareReport{Sector: id, Entries: s.Len()}
	for slot := range s.Len() {
		raw, err := s.Raw(slot)
		if err == nil && raw.Kind() == KindRedirect {
			r.Redirects++
		}
		var e Eval
		if err == nil {
			e, err = s.Eval(slot)
		}
		if err != nil {
			if r.Broken == 0 {
				r.Err = err
			}
			r.Broken++
			continue
		}
		mover, other := s.Position(slot)
		w, ok := ours(mover, other, id.WF, id.BF)
		if !ok {
			r.Skipped++
			continue
		}
		r.Compared++
		if WDL(w) == e.WDL {
			r.Equal++
			continue
		}
		r.Different++
		if len(r.First) < MaxDifferences {
			r.First = append(r.First, Difference{Slot: slot, Mover: mover, Other: other,
				MoverHand: id.WF, OtherHand: id.BF, Malom: e, Ours: WDL(w)})
		}
	}
	return r
}
