package egtb

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// decodeTo decodes the first n bytes of src, a segment's code (of seg
// bytes when decoded), into dst[:n], from the segment's start: decodeMore
// with a new cursor.
func (m *ransModel) decodeTo(dst, src []byte, n, seg int) ([]byte, error) {
	var c ransCursor
	return m.decodeMore(&c, dst[:0], src, n, seg)
}

// ransData is a few kinds of segments: constant, two values in runs, a
// skewed alphabet, every byte value.
func ransData() [][]byte {
	rng := rand.New(rand.NewPCG(5, 6))
	var out [][]byte
	out = append(out, bytes.Repeat([]byte{0x55}, 256))
	runs := make([]byte, 256)
	for i := range runs {
		runs[i] = byte(0x11 * (i / 37 % 2))
	}
	out = append(out, runs)
	for range 40 {
		seg := make([]byte, 1+rng.IntN(256))
		for i := range seg {
			if rng.IntN(10) < 8 {
				seg[i] = byte(rng.IntN(3))
			} else {
				seg[i] = byte(rng.IntN(256))
			}
		}
		out = append(out, seg)
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(255 - i)
	}
	return append(out, all)
}

// Every segment decodes to itself, whole and byte by byte, through a model
// stored and read back; every byte value that occurs costs at least one
// slot of its table.
func TestRansRoundTrip(t *testing.T) {
	segs := ransData()
	var c ransCounts
	for _, s := range segs {
		c.add(s)
	}
	for _, tables := range []int{1, 4, rModels} {
		built := newRansModel(&c, ransScale, tables)
		m, err := parseRansModel(built.marshal())
		if err != nil {
			t.Fatal(err)
		}
		if len(m.freq) != min(tables, 256) {
			t.Errorf("%d tables, want %d", len(m.freq), tables)
		}
		for prev := range 256 {
			for b := range 256 {
				if c[prev][b] > 0 && m.freq[m.ctxOf[prev]][b] == 0 {
					t.Fatalf("byte %d after %d: no frequency", b, prev)
				}
			}
		}
		buf := make([]byte, 256)
		for i, s := range segs {
			code := m.encode(nil, s)
			got, err := m.decodeTo(buf, code, len(s), len(s))
			if err != nil || !bytes.Equal(got, s) {
				t.Fatalf("%d tables, segment %d: %v", tables, i, err)
			}
			for n := 1; n < len(s); n += 7 {
				if got, err := m.decodeTo(buf, code, n, len(s)); err != nil || !bytes.Equal(got, s[:n]) {
					t.Fatalf("%d tables, segment %d, its first %d bytes: %x %v", tables, i, n, got, err)
				}
			}
			// Decoded further a few bytes at a time, from where it stopped.
			var cur ransCursor
			part := buf[:0]
			for n := min(3, len(s)); ; n = min(n+1+n%5, len(s)) {
				if part, err = m.decodeMore(&cur, part, code, n, len(s)); err != nil || !bytes.Equal(part, s[:n]) {
					t.Fatalf("%d tables, segment %d, on to %d bytes: %x %v", tables, i, n, part, err)
				}
				if n == len(s) {
					break
				}
			}
		}
	}
	// A constant segment under a model of constants costs its state only.
	var k ransCounts
	k.add(segs[0])
	m := newRansModel(&k, ransScale, rModels)
	if code := m.encode(nil, segs[0]); len(code) != 4 {
		t.Errorf("a constant segment: %d bytes of code, want 4", len(code))
	}
}

// A code cut short, or with a word more, or changed, is refused when
// decoded whole (or decodes to other bytes, which the block's checksum
// catches first in a table).
func TestRansRefusesDamage(t *testing.T) {
	segs := ransData()
	var c ransCounts
	for _, s := range segs {
		c.add(s)
	}
	m := newRansModel(&c, ransScale, rModels)
	s := segs[5]
	code := m.encode(nil, s)
	buf := make([]byte, 256)
	for _, bad := range [][]byte{code[:len(code)-2], append(bytes.Clone(code), 0, 0), code[:3], nil} {
		if _, err := m.decodeTo(buf, bad, len(s), len(s)); err == nil {
			t.Errorf("a code of %d bytes (of %d) decoded", len(bad), len(code))
		}
	}
	if _, err := m.decodeTo(buf, []byte{0, 0, 0, 1}, 1, 1); err == nil {
		t.Error("a state below the bound decoded")
	}
}

// A stored model is checked: scale, number of tables, each byte's table,
// frequencies summing to 1<<scale, nothing left over.
func TestRansModelParse(t *testing.T) {
	var c ransCounts
	for _, s := range ransData() {
		c.add(s)
	}
	good := newRansModel(&c, ransScale, 4).marshal()
	for name, edit := range map[string]func([]byte) []byte{
		"short":     func(b []byte) []byte { return b[:100] },
		"scale":     func(b []byte) []byte { b[0] = 12; return b },
		"tables":    func(b []byte) []byte { b[1] = 0; return b },
		"many":      func(b []byte) []byte { b[1] = rModels + 1; return b },
		"ctx":       func(b []byte) []byte { b[2+7] = 4; return b },
		"sum":       func(b []byte) []byte { b[len(b)-2]++; return b },
		"left over": func(b []byte) []byte { return append(b, 0) },
		"truncated": func(b []byte) []byte { return b[:len(b)-1] },
	} {
		if _, err := parseRansModel(edit(bytes.Clone(good))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := parseRansModel(good); err != nil {
		t.Error(err)
	}
}

// FuzzRansDecode decodes arbitrary codes under a model: the decoder never
// reads past the code nor indexes out of its tables, whatever the bytes.
func FuzzRansDecode(f *testing.F) {
	var c ransCounts
	for _, s := range ransData() {
		c.add(s)
	}
	m := newRansModel(&c, ransScale, rModels)
	f.Add(m.encode(nil, ransData()[3]), uint16(100))
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF}, uint16(255))
	buf := make([]byte, 256)
	f.Fuzz(func(t *testing.T, code []byte, n uint16) {
		n = n%256 + 1
		got, err := m.decodeTo(buf, code, int(n), int(n))
		if err == nil {
			if again := m.encode(nil, got); !bytes.Equal(again, code) {
				t.Fatalf("decoded %x to %x, which encodes to %x", code, got, again)
			}
		}
		m.decodeTo(buf, code, int(n)/2, int(n))
	})
}
