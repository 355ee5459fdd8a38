package malom

import (
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

func TestCompareSector(t *testing.T) {
	data, es := synthSector(t, id1287)
	s, err := ParseSector(data, "t.sec2", Standard, id1287, testVals(t))
	if err != nil {
		t.Fatal(err)
	}
	x := s.Index()
	truth := map[[2]bb.Bitboard]WDL{}
	for slot := range x.Len() {
		m, o := x.Position(slot)
		truth[[2]bb.Bitboard{m, o}] = wantEval(x, es, slot, 51).WDL
	}
	// Ours agrees except on slots 1, 2 and every 100th from 500 on, and
	// does not know the slots 300–309.
	flip := map[int]bool{1: true, 2: true}
	for slot := 500; slot < 1012; slot += 100 {
		flip[slot] = true
	}
	calls := 0
	ours := func(mover, other bb.Bitboard, mh, oh int) (int8, bool) {
		calls++
		if mh != 8 || oh != 7 {
			t.Fatalf("ours called with hands %d, %d", mh, oh)
		}
		slot, _ := x.Locate(mover, other)
		if slot >= 300 && slot < 310 {
			return 0, false
		}
		w := truth[[2]bb.Bitboard{mover, other}]
		if flip[slot] {
			w = -w
			if w == Draw {
				w = Win
			}
		}
		return int8(w), true
	}
	r := CompareSector(s, ours)
	if calls != 1012 {
		t.Errorf("ours called %d times, want 1012", calls)
	}
	if r.Sector != id1287 || r.Entries != 1012 || r.Redirects != 584 || r.Compared != 1002 || r.Equal != 994 ||
		r.Different != 8 || r.Skipped != 10 || r.Broken != 0 || r.Err != nil || len(r.First) != 8 {
		t.Fatalf("report %+v", r)
	}
	const summary = "sector 1_2_8_7: 1012 entries (584 redirects): 1002 compared, 994 equal, 8 different, 10 skipped"
	if r.String() != summary {
		t.Errorf("String() = %q, want %q", r.String(), summary)
	}
	wantSlots := []int{1, 2, 500, 600, 700, 800, 900, 1000}
	for i, d := range r.First {
		if d.Slot != wantSlots[i] || d.MoverHand != 8 || d.OtherHand != 7 {
			t.Errorf("difference %d: %+v", i, d)
		}
		if m, o := x.Position(d.Slot); m != d.Mover || o != d.Other {
			t.Errorf("difference %d: position %v, %v; slot holds %v, %v", i, d.Mover, d.Other, m, o)
		}
		if d.Malom.WDL != truth[[2]bb.Bitboard{d.Mover, d.Other}] || d.Ours == d.Malom.WDL {
			t.Errorf("difference %d: Malom %v, ours %v", i, d.Malom.WDL, d.Ours)
		}
	}
	// Slot 1: white on Malom's point 0 (a4); black on the 2-set of colex
	// rank 1 of the free points 1–23, {first, third}: Malom 1 and 3, a7
	// and g7.
	d := r.First[0]
	const fen = "********/********/*@****O@ w p p 1 8 2 7 0 0 0 0 0 0 0 0 1"
	if d.FEN() != fen {
		t.Errorf("FEN() = %q, want %q", d.FEN(), fen)
	}
	const text = "slot 1 " + fen + ": Malom win in 3 plies (key1 248, key2 3), ours loss"
	if d.String() != text {
		t.Errorf("String() = %q, want %q", d.String(), text)
	}
	r0 := rules.Default()
	if _, err := position.ParseFEN(&r0, fen); err != nil {
		t.Errorf("the FEN does not parse: %v", err)
	}
}

func TestCompareSectorBroken(t *testing.T) {
	x, _ := NewIndex(1, 2)
	es := synthEntries(x, 51)
	es[0] = Raw{Key2: -20}
	data, _ := EncodeSector(StandardHeader, es)
	s, err := ParseSector(data, "t.sec2", Standard, id1287, testVals(t))
	if err != nil {
		t.Fatal(err)
	}
	// Slot 0 is bad, and so are the slots redirected to it.
	r := CompareSector(s, func(bb.Bitboard, bb.Bitboard, int, int) (int8, bool) { return 0, false })
	if r.Broken == 0 || r.Err == nil || r.Err.Error() != "t.sec2: slot 0: key2 -20 is neither a count nor a redirect" ||
		r.Skipped+r.Broken != 1012 || r.Compared != 0 {
		t.Errorf("report %+v", r)
	}
	if !strings.HasSuffix(r.String(), "broken (first: t.sec2: slot 0: key2 -20 is neither a count nor a redirect)") {
		t.Errorf("String() = %q", r.String())
	}
}
