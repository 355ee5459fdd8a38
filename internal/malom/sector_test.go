package malom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

var id1287 = SectorID{1, 2, 8, 7}

// wantEval is the Eval the synthetic sector of value secVal must give for
// slot, worked out from the entries.
func wantEval(x *Index, es []Raw, slot, secVal int) Eval {
	target, _ := canonical(x, slot)
	r := es[target]
	e := Eval{Raw: r, Abs: int(r.Key1) + secVal, Slot: target}
	switch {
	case r.Key1 != 0 && e.Abs == 299:
		e.WDL = Win
	case r.Key1 != 0 && e.Abs == -299:
		e.WDL = Loss
	}
	return e
}

func TestSectorRoundTrip(t *testing.T) {
	data, es := synthSector(t, id1287)
	path := filepath.Join(t.TempDir(), Standard.SectorName(id1287))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	vals := testVals(t)
	s, err := OpenSector(path, Standard, id1287, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Header() != StandardHeader || s.Len() != 1012 || s.Value() != 51 || s.ID() != id1287 || s.Variant() != Standard || s.Name() != path {
		t.Fatalf("header %+v, %d entries, value %d, id %v, variant %v, name %s", s.Header(), s.Len(), s.Value(), s.ID(), s.Variant(), s.Name())
	}
	// Escaped: the wins with key2 2000+slot > 2047 and the draws at or
	// below −2048, at canonical slots.
	if s.Escapes() != 137 {
		t.Errorf("%d escapes, want 137", s.Escapes())
	}
	if len(data) != 64+3*1012+4+8*137 {
		t.Errorf("file of %d bytes", len(data))
	}
	x := s.Index()
	for slot := range s.Len() {
		r, err := s.Raw(slot)
		if err != nil || r != es[slot] {
			t.Fatalf("Raw(%d) = %+v, %v; want %+v", slot, r, err, es[slot])
		}
		e, err := s.Eval(slot)
		if want := wantEval(x, es, slot, 51); err != nil || e != want {
			t.Fatalf("Eval(%d) = %+v, %v; want %+v", slot, e, err, want)
		}
	}
	// Every position of the sector, each of the 6072 placements.
	n := 0
	for w := bb.Bitboard(1); w < 1<<24; w <<= 1 {
		for b := bb.Bitboard(3); b < 1<<24; b = bb.Bitboard(nextSet(uint32(b))) {
			if w&b != 0 {
				continue
			}
			n++
			e, err := s.Probe(w, b)
			if err != nil {
				t.Fatal(err)
			}
			slot, _ := x.Locate(w, b)
			if want := wantEval(x, es, slot, 51); e != want {
				t.Fatalf("Probe(%v, %v) = %+v, want %+v", w, b, e, want)
			}
			// the canonical slot's position is an image of this one
			if e2, _ := s.Eval(e.Slot); e2 != e {
				t.Fatalf("Probe(%v, %v) = %+v, but the slot it read evaluates to %+v", w, b, e, e2)
			}
		}
	}
	if n != 6072 {
		t.Errorf("probed %d positions, want 6072", n)
	}
	// The counts, worked out from the entries, and as numbers.
	want := Stats{Entries: 1012}
	for slot, r := range es {
		switch r.Kind() {
		case KindValue:
			want.Values++
		case KindCount:
			want.Counts++
		case KindRedirect:
			want.Redirects++
		}
		switch e := wantEval(x, es, slot, 51); e.WDL {
		case Win:
			want.Wins++
			want.MaxKey2 = max(want.MaxKey2, e.Raw.Key2)
		case Loss:
			want.Losses++
			want.MaxKey2 = max(want.MaxKey2, e.Raw.Key2)
		default:
			want.Draws++
		}
	}
	st, err := s.Check()
	if err != nil || st != want {
		t.Errorf("Check() = %+v, %v; want %+v", st, err, want)
	}
	if lit := (Stats{Entries: 1012, Values: 355, Counts: 73, Redirects: 584, Wins: 343, Draws: 511, Losses: 158, MaxKey2: 2934}); want != lit {
		t.Errorf("worked-out counts %+v, want %+v", want, lit)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSectorEvalValues(t *testing.T) {
	data, _ := synthSector(t, id1287)
	s, err := ParseSector(data, "t.sec2", Standard, id1287, testVals(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		slot int
		want Eval
		text string
	}{
		{0, Eval{Raw: Raw{0, 0}, Abs: 51, WDL: Draw, Slot: 0}, "draw (abs 51, key1 0, key2 0)"},
		{1, Eval{Raw: Raw{248, 3}, Abs: 299, WDL: Win, Slot: 1}, "win in 3 plies (key1 248, key2 3)"},
		{2, Eval{Raw: Raw{-350, 4}, Abs: -299, WDL: Loss, Slot: 2}, "loss in 4 plies (key1 -350, key2 4)"},
		{3, Eval{Raw: Raw{-30, -3}, Abs: 21, WDL: Draw, Slot: 3}, "draw (abs 21, key1 -30, key2 -3)"},
		{35, Eval{Raw: Raw{-30, -2050}, Abs: 21, WDL: Draw, Slot: 35}, "draw (abs 21, key1 -30, key2 -2050)"},
	} {
		e, err := s.Eval(c.slot)
		if err != nil || e != c.want || e.String() != c.text {
			t.Errorf("Eval(%d) = %+v %q, %v; want %+v %q", c.slot, e, e, err, c.want, c.text)
		}
	}
	if e, _ := s.Eval(1); e.Plies() != 3 {
		t.Errorf("Plies of a win in 3: %d", e.Plies())
	}
	if e, _ := s.Eval(3); e.Plies() != 0 {
		t.Errorf("Plies of a draw: %d", e.Plies())
	}
}

// TestEncodeRoundTrip writes arbitrary keys with several field layouts and
// reads them back exactly.
func TestEncodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// virtual values small enough for the narrowest key1 (4 bits)
	vals, err := NewSecVals(-1, []SectorID{id1287}, []int16{0})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []Header{StandardHeader, WideHeader, {FormatVersion, 4, 16, false}, {FormatVersion, 2, 11, false}, {FormatVersion, 2, 8, false}, {FormatVersion, 1, 4, false}} {
		es := make([]Raw, 1012)
		b1 := h.key1Bits()
		for i := range es {
			es[i] = Raw{Key1: int16(rng.IntN(1<<b1) - 1<<(b1-1)), Key2: rng.Int32() - 1<<30}
			if i%3 == 0 {
				es[i].Key2 = int32(rng.IntN(64)) - 32
			}
		}
		data, err := EncodeSector(h, es)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSector(data, "t.sec2", Standard, id1287, vals)
		if err != nil {
			t.Fatalf("%+v: %v", h, err)
		}
		if s.Header() != h {
			t.Errorf("header %+v, want %+v", s.Header(), h)
		}
		for i, want := range es {
			if r, err := s.Raw(i); err != nil || r != want {
				t.Fatalf("%+v: Raw(%d) = %+v, %v; want %+v", h, i, r, err, want)
			}
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	for _, c := range []struct {
		h   Header
		es  []Raw
		err string
	}{
		{StandardHeader, []Raw{{Key1: 1}, {Key1: 2048}}, "slot 1: key1 2048 does not fit 12 bits"},
		{StandardHeader, []Raw{{Key1: -2049}}, "slot 0: key1 -2049 does not fit 12 bits"},
		{Header{FormatVersion, 3, 20, false}, nil, "key2 offset 20 in a 3-byte entry (want both keys 1–16 bits wide)"},
		{Header{1, 3, 12, false}, nil, "format version 1 (want 2)"},
	} {
		if _, err := EncodeSector(c.h, c.es); err == nil || err.Error() != c.err {
			t.Errorf("EncodeSector(%+v) error %v, want %q", c.h, err, c.err)
		}
	}
}

// putU32 returns a copy of data with the 32-bit word at off set to v.
func putU32(data []byte, off int, v int32) []byte {
	d := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(d[off:], uint32(v))
	return d
}

func TestSectorDamaged(t *testing.T) {
	data, _ := synthSector(t, id1287)
	vals := testVals(t)
	body := 64 + 3*1012
	escAt := func(i int) int { return body + 4 + 8*i }
	firstEsc := int32(binary.LittleEndian.Uint32(data[escAt(0):]))
	set := func(off int, b byte) []byte {
		d := append([]byte(nil), data...)
		d[off] = b
		return d
	}
	for _, c := range []struct {
		name string
		data []byte
		id   SectorID
		err  string
	}{
		{"short", data[:10], id1287, "t.sec2: truncated: 10 bytes, shorter than the 64-byte header"},
		{"version", putU32(data, 0, 3), id1287, "t.sec2: format version 3 (want 2)"},
		{"entry size", putU32(data, 4, 5), id1287, "t.sec2: entry size 5 bytes (want 1–4)"},
		{"offset", putU32(data, 8, 24), id1287, "t.sec2: key2 offset 24 in a 3-byte entry (want both keys 1–16 bits wide)"},
		{"flag", set(12, 2), id1287, "t.sec2: stone-difference flag 2 (want 0 or 1)"},
		{"stone diff", set(12, 1), id1287, "t.sec2: stone-difference sector values are not supported"},
		{"reserved", set(40, 7), id1287, "t.sec2: reserved header byte 40 is 7 (want 0)"},
		{"body", data[:1000], id1287, "t.sec2: truncated: 1000 bytes, want at least 3104 for 1012 entries of 3 bytes and the escape count"},
		{"long", append(append([]byte(nil), data...), 0), id1287, "t.sec2: size 4201 bytes, want 4200 for 1012 entries of 3 bytes and 137 escapes"},
		{"cut", data[:len(data)-1], id1287, "t.sec2: size 4199 bytes, want 4200 for 1012 entries of 3 bytes and 137 escapes"},
		{"escape count", putU32(data, body, -1), id1287, "t.sec2: escape count -1 (want 0–1012)"},
		{"escape slot", putU32(data, escAt(0), 5000), id1287, "t.sec2: escape 0 is for slot 5000, outside the 1012 entries"},
		{"duplicate", putU32(data, escAt(1), firstEsc), id1287, fmt.Sprintf("t.sec2: two escapes for slot %d", firstEsc)},
		{"not escaped", putU32(data, escAt(0), 0), id1287, "t.sec2: escape for slot 0, whose entry holds key2 0 itself"},
		{"unlisted", data, SectorID{2, 1, 7, 8}, "t.sec2: sector 2_1_7_8 is not listed in the sector values"},
		{"variant", data, SectorID{1, 2, 9, 7}, "t.sec2: sector 1_2_9_7 is not a sector of std (9 pieces a side)"},
		{"other sector", data, SectorID{3, 3, 0, 0}, "t.sec2: truncated: 4200 bytes, want at least 630488 for 210140 entries of 3 bytes and the escape count"},
	} {
		_, err := ParseSector(c.data, "t.sec2", Standard, c.id, vals)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	big, err := NewSecVals(-1100, []SectorID{id1287}, []int16{0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseSector(data, "t.sec2", Standard, id1287, big); err == nil || err.Error() != "t.sec2: the virtual values ±1100 do not fit the 12-bit key1" {
		t.Errorf("virtual values too wide: error %v", err)
	}
	// Unsorted escapes are accepted.
	d := append([]byte(nil), data...)
	copy(d[escAt(0):escAt(1)], data[escAt(1):escAt(2)])
	copy(d[escAt(1):escAt(2)], data[escAt(0):escAt(1)])
	s, err := ParseSector(d, "t.sec2", Standard, id1287, vals)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(); err != nil {
		t.Errorf("swapped escapes: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close of a parsed sector: %v", err)
	}
}

func TestSectorBadEntries(t *testing.T) {
	vals := testVals(t)
	x, _ := NewIndex(1, 2)
	base := synthEntries(x, 51)
	// A redirect slot and its target.
	red := -1
	for slot, r := range base {
		if r.Kind() == KindRedirect {
			red = slot
			break
		}
	}
	target, _ := canonical(x, red)
	self := fmt.Sprintf("t.sec2: slot %d redirects to slot %d, which holds a redirect", target, target)
	cases := []struct {
		name  string
		slot  int
		entry Raw
		probe int
		err   string
		check string // Check's error, when it finds another slot first
	}{
		{"bad kind", 0, Raw{Key2: -17}, 0, "t.sec2: slot 0: key2 -17 is neither a count nor a redirect", ""},
		{"moves white", 0, Redirect(0), 0, "t.sec2: slot 0: redirect by symmetry 0 moves the white pieces", ""},
		{"self redirect", 0, Redirect(IdentitySymmetry), 0, "t.sec2: slot 0 redirects to slot 0, which holds a redirect", ""},
		{"chain", target, Redirect(IdentitySymmetry), red, fmt.Sprintf("t.sec2: slot %d redirects to slot %d, which holds a redirect", red, target), self},
	}
	for _, c := range cases {
		es := append([]Raw(nil), base...)
		es[c.slot] = c.entry
		data, err := EncodeSector(StandardHeader, es)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSector(data, "t.sec2", Standard, id1287, vals)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Eval(c.probe); err == nil || err.Error() != c.err {
			t.Errorf("%s: Eval(%d) error %v, want %q", c.name, c.probe, err, c.err)
		}
		want := c.err
		if c.check != "" {
			want = c.check
		}
		if _, err := s.Check(); err == nil || err.Error() != want {
			t.Errorf("%s: Check error %v, want %q", c.name, err, want)
		}
	}
	// An escaped key2 whose escape is gone: drop the table, keep the size.
	data, _ := EncodeSector(StandardHeader, base)
	body := 64 + 3*1012
	data = putU32(data[:body+4], body, 0)
	s, err := ParseSector(data, "t.sec2", Standard, id1287, vals)
	if err != nil {
		t.Fatal(err)
	}
	// Slot 5 is the first escaped one (a draw at key2 −2050).
	const missing = "t.sec2: slot 5: key2 is escaped but the escape table has no entry for it"
	if _, err := s.Raw(5); err == nil || err.Error() != missing {
		t.Errorf("Raw(5) error %v, want %q", err, missing)
	}
	if _, err := s.Check(); err == nil || err.Error() != missing {
		t.Errorf("Check error %v, want %q", err, missing)
	}
	for _, slot := range []int{-1, 1012} {
		want := fmt.Sprintf("t.sec2: slot %d outside the 1012 entries", slot)
		if _, err := s.Raw(slot); err == nil || err.Error() != want {
			t.Errorf("Raw(%d) error %v", slot, err)
		}
		if _, err := s.Eval(slot); err == nil || err.Error() != want {
			t.Errorf("Eval(%d) error %v", slot, err)
		}
	}
	if _, err := s.Probe(3, 3); err == nil || err.Error() != "t.sec2: the position (2 and 2 pieces) is not in sector 1_2_8_7" {
		t.Errorf("Probe of a 2v2 position: %v", err)
	}
	if _, err := s.Probe(1, 1); err == nil || err.Error() != "t.sec2: the position (1 and 1 pieces) is not in sector 1_2_8_7" {
		t.Errorf("Probe of a 1v1 position: %v", err)
	}
	if _, err := s.Probe(1, 3); err == nil || err.Error() != "t.sec2: the position (1 and 2 pieces) is not in sector 1_2_8_7" {
		t.Errorf("Probe of overlapping sets: %v", err)
	}
}

func TestDB(t *testing.T) {
	dir := t.TempDir()
	vals := testVals(t)
	f, err := os.Create(filepath.Join(dir, "std.secval"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vals.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, es := synthSector(t, id1287)
	if err := os.WriteFile(filepath.Join(dir, "std_1_2_8_7.sec2"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	if db.Variant() != Standard || db.Dir() != dir || db.SecVals().Len() != 5 {
		t.Errorf("variant %v, dir %s, %d sectors", db.Variant(), db.Dir(), db.SecVals().Len())
	}
	if !db.Has(id1287) || db.Has(SectorID{3, 3, 0, 0}) {
		t.Error("Has is wrong")
	}
	x, _ := NewIndex(1, 2)
	mover, other := x.Position(10)
	e, err := db.Probe(mover, other, 8, 7)
	if want := wantEval(x, es, 10, 51); err != nil || e != want {
		t.Errorf("Probe = %+v, %v; want %+v", e, err, want)
	}
	s1, _ := db.Sector(id1287)
	s2, _ := db.Sector(id1287)
	if s1 != s2 {
		t.Error("the sector was opened twice")
	}
	if _, err := db.Probe(mover, other, 9, 7); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Probe in a missing sector: %v", err)
	}
	if _, err := db.Probe(mover, other, 13, 7); err == nil || err.Error() != "malom: no sector 1_2_13_7" {
		t.Errorf("Probe with 13 in hand: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Sector(id1287); err == nil || err.Error() != "malom: database is closed" {
		t.Errorf("Sector after Close: %v", err)
	}
	if _, err := Open(t.TempDir(), Standard); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of an empty directory: %v", err)
	}
}
