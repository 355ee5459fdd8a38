package malom

import "testing"

// testVals are the sector values of the synthetic sectors of the tests.
func testVals(t testing.TB) *SecVals {
	t.Helper()
	s, err := NewSecVals(-299,
		[]SectorID{{1, 2, 8, 7}, {3, 3, 0, 0}, {3, 4, 0, 0}, {2, 2, 7, 7}, {0, 0, 9, 9}},
		[]int16{51, 0, 40, 63, 21})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// canonical returns, for the slot of x, the smallest slot holding an image of
// its position and the symmetry that maps the position there (fixing the
// white pieces): the layout of Malom's files, which keep each value at the
// smallest such slot and redirect the others.
func canonical(x *Index, slot int) (target, op int) {
	w, b := x.board(slot)
	target, op = slot, IdentitySymmetry
	for o := range NumSymmetries {
		if Transform(o, w) != w {
			continue
		}
		if s := x.slotOf(slot/x.blacks, w, Transform(o, b)); s < target {
			target, op = s, o
		}
	}
	return target, op
}

// synthValue is the entry the tests store at a canonical slot of a sector
// with value secVal: every kind of value, key2s that need the escape table
// (above 2047, or at or below −2048, the std field's mark) and some that do
// not. secVal must not be 21, the value of the draws' sector.
func synthValue(slot, secVal int) Raw {
	switch slot % 6 {
	case 0:
		return Raw{Key1: 0, Key2: int32(slot % 7)} // a count
	case 1:
		return Raw{Key1: int16(299 - secVal), Key2: int32(slot%200*2 + 1)} // win
	case 2:
		return Raw{Key1: int16(-299 - secVal), Key2: int32(slot % 300 * 2)} // loss
	case 3:
		return Raw{Key1: int16(21 - secVal), Key2: int32(-(slot % 40))} // draw drifting to 0_0_9_9
	case 4:
		return Raw{Key1: int16(299 - secVal), Key2: int32(2000 + slot)} // win, escaped when > 2047
	}
	return Raw{Key1: int16(21 - secVal), Key2: int32(-2048 - slot%3)} // draw, key2 at or below the escape mark
}

// synthEntries returns the entries of a synthetic sector: redirects where
// Malom puts them, synthValue elsewhere.
func synthEntries(x *Index, secVal int) []Raw {
	es := make([]Raw, x.Len())
	for slot := range es {
		if target, op := canonical(x, slot); target != slot {
			es[slot] = Redirect(op)
		} else {
			es[slot] = synthValue(slot, secVal)
		}
	}
	return es
}

// synthSector encodes the synthetic sector id of testVals with the std
// header.
func synthSector(t testing.TB, id SectorID) ([]byte, []Raw) {
	t.Helper()
	x, err := NewIndex(id.W, id.B)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := testVals(t).Value(id)
	es := synthEntries(x, int(v))
	data, err := EncodeSector(StandardHeader, es)
	if err != nil {
		t.Fatal(err)
	}
	return data, es
}
