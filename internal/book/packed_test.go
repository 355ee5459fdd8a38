package book

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// builtinText is the shipped book's text, the source of the binary form
// (the tests run in the package's directory).
func builtinText(tb testing.TB) string {
	tb.Helper()
	data, err := os.ReadFile(BuiltinFile)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

var (
	textBookOnce sync.Once
	textBook     *Book
	textBookErr  error
)

// builtinFromText is the shipped book read from its text by the text
// parser, once for the package's tests (half a second).
func builtinFromText(tb testing.TB) *Book {
	tb.Helper()
	textBookOnce.Do(func() { textBook, textBookErr = Read(strings.NewReader(builtinText(tb)), false) })
	if textBookErr != nil {
		tb.Fatal(textBookErr)
	}
	return textBook
}

// The committed binary form is the one the text gives: a book changed by
// book build or book prove and not packed again fails here.
func TestBuiltinBinaryIsCurrent(t *testing.T) {
	testkit.NotUnderRace(t, "reads all 89,814 positions of the shipped book")
	data, err := builtinFromText(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, []byte(builtinBinary)) {
		t.Fatalf("%s (%d bytes) is not the binary form of %s (%d bytes): run make book-pack", BuiltinBinaryFile, len(builtinBinary), BuiltinFile, len(data))
	}
}

// sameEntry reports whether two entries are equal: depth, actions and
// scores in order, proven value and kept actions in order.
func sameEntry(a, b Entry) bool {
	if a.Depth != b.Depth || !slices.Equal(a.Actions, b.Actions) || (a.Proof == nil) != (b.Proof == nil) {
		return false
	}
	return a.Proof == nil || (a.Proof.Value == b.Proof.Value && slices.Equal(a.Proof.Keep, b.Proof.Keep))
}

// The shipped book read in place from the binary form answers exactly as
// the text parser's book, for all 89,814 positions: every key once (a key
// is the position's exact identity, not a hash: no two positions share
// one), the same canonical FENs, plies and entries in the same order (so
// the binary form writes back the text byte for byte), and the same probe
// — actions, scores, depth, proven value and kept actions — at every
// position and at a symmetric image of every eighth.
func TestBuiltinBinaryAnswersAsTheText(t *testing.T) {
	testkit.NotUnderRace(t, "reads all 89,814 positions of the shipped book")
	text := builtinFromText(t)
	bin := shippedBook(t)
	r := rules.Default()
	if !bin.Binary() || text.Binary() || bin.Len() != 89814 || text.Len() != 89814 || bin.Preset != text.Preset || bin.Rules != text.Rules {
		t.Fatalf("binary form: %d positions (%s), text: %d (%s)", bin.Len(), bin.Preset, text.Len(), text.Preset)
	}
	for i := 1; i < bin.packed.n; i++ {
		if bin.packed.key(i-1) >= bin.packed.key(i) {
			t.Fatalf("keys %d and %d are not increasing", i-1, i)
		}
	}
	type line struct {
		fen string
		ply int
		e   Entry
	}
	var want []line
	text.Each(func(fen string, ply int, e Entry) { want = append(want, line{fen, ply, e}) })
	i := 0
	bin.Each(func(fen string, ply int, e Entry) {
		if i >= len(want) || fen != want[i].fen || ply != want[i].ply || !sameEntry(e, want[i].e) {
			t.Fatalf("line %d: %q ply %d %+v, the text has %+v", i, fen, ply, e, want[min(i, len(want)-1)])
		}
		i++
	})
	if i != len(want) {
		t.Fatalf("%d lines, the text has %d", i, len(want))
	}
	var out bytes.Buffer
	if _, err := bin.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if out.String() != builtinText(t) {
		t.Fatal("the binary form does not write back the text")
	}
	probes := 0
	for j, l := range want {
		p, err := position.ParseFEN(&r, l.fen)
		if err != nil {
			t.Fatal(err)
		}
		qs := []position.Position{p}
		if j%8 == 0 { // and an image of every eighth, by each symmetry in turn
			qs = append(qs, p.Transform(bb.Symmetry(1+j/8%(bb.NumSymmetries-1))))
		}
		for _, q := range qs {
			we, wok := text.Probe(&r, &q)
			ge, gok := bin.Probe(&r, &q)
			if !wok || !gok || !sameEntry(we, ge) || !bin.Has(&q) {
				t.Fatalf("%s: probe %+v %t, the text's %+v %t", q.FEN(), ge, gok, we, wok)
			}
			probes++
		}
	}
	if probes != 89814+(89814+7)/8 {
		t.Fatalf("%d probes", probes)
	}
}

// A probe of the binary form allocates what it returns only: the actions,
// and the proof with its kept actions; a miss allocates nothing.
func TestProbeBinaryAllocations(t *testing.T) {
	b := shippedBook(t)
	r := rules.Default()
	p := position.New(&r)
	q := p
	q.Do(&r, position.MakePlace(0))
	q.Do(&r, position.MakePlace(1))
	q.Do(&r, position.MakePlace(2)) // white's a mill at once: not a book line
	if _, ok := b.Probe(&r, &q); ok {
		t.Fatalf("%s is in the book", q.FEN())
	}
	if n := testing.AllocsPerRun(100, func() { b.Probe(&r, &p) }); n != 3 {
		t.Fatalf("a hit allocates %v times, want 3", n)
	}
	if n := testing.AllocsPerRun(100, func() { b.Probe(&r, &q) }); n != 0 {
		t.Fatalf("a miss allocates %v times, want 0", n)
	}
}

// smallText is a book of other rules than the default (MayFly off) with a
// proven position, a removal pending and a line whose move counters are not
// the ones its ply gives (stored in the binary form).
const smallText = "# millengine opening book\n# rules: custom\n# diff: MayFly=false\n" +
	"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\tdepth 14\td6 46 e5 11\tproven draw keep d6 f4\n" +
	"********/*O******/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 7\tdepth 3\td2 -9 d6 -14\n" +
	"O******@/O*******/O@****** w p r 3 6 2 7 1 0 0 0 0 0 0 0 3\tdepth 12\txc5 108\tproven win keep xc5 xg7\n"

func smallBinary(t testing.TB) (*Book, []byte) {
	t.Helper()
	b, err := Read(strings.NewReader(smallText), false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b, data
}

// The binary form of a book reads back (checked whole) to the same book:
// the same rules, lines and text, and it is written again byte for byte;
// Open takes either form; a book read in place turns into maps at its
// first change.
func TestBinaryRoundTrip(t *testing.T) {
	b, data := smallBinary(t)
	if !IsBinary(data) || IsBinary([]byte(smallText)) {
		t.Fatal("IsBinary")
	}
	c, err := ReadBinary(data)
	if err != nil {
		t.Fatal(err)
	}
	var bt, ct bytes.Buffer
	b.WriteTo(&bt)
	c.WriteTo(&ct)
	if !c.Binary() || c.Rules != b.Rules || c.Preset != "custom" || c.Len() != 3 || ct.String() != smallText || bt.String() != smallText {
		t.Fatalf("read back: %s %d positions\n%s", c.Preset, c.Len(), ct.String())
	}
	again, err := c.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("written again: %v, same bytes %t", err, bytes.Equal(again, data))
	}
	// The second line's counters (fullmove 7, not 1) are stored: one record
	// of 6 more bytes than the ply's counters take.
	if got := len(data); got != 48+3*8+4*4+(4+6+8)+(4+8+4)+(4+4+4) {
		t.Fatalf("%d bytes", got)
	}
	path := filepath.Join(t.TempDir(), "small.book.bin")
	if err := c.SaveBinary(path); err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err != nil || !d.Binary() || d.Len() != 3 {
		t.Fatalf("Open: %v", err)
	}
	r := b.Rules
	p, _ := position.ParseFEN(&r, "O******@/O*******/O@****** w p r 3 6 2 7 1 0 0 0 0 0 0 0 3")
	if e, ok := d.Probe(&r, &p); !ok || e.Proof == nil || position.JoinMoves(e.Proof.Keep) != "xc5 xg7" {
		t.Fatalf("probe: %+v %t", e, ok)
	}
	def := rules.Default()
	if _, ok := d.Probe(&def, &p); ok {
		t.Fatal("a book of other rules answered")
	}
	start := position.New(&r)
	if err := d.Put(&start, Entry{Depth: 5, Actions: []Action{{Move: position.MakePlace(0), Score: 1}}}); err != nil {
		t.Fatal(err)
	}
	var dt bytes.Buffer
	d.WriteTo(&dt)
	if d.Binary() || d.Len() != 3 || !strings.Contains(dt.String(), "\tdepth 5\td5 1\n") || !strings.HasSuffix(dt.String(), smallText[strings.Index(smallText, "********/*O"):]) {
		t.Fatalf("after Put:\n%s", dt.String())
	}
}

// MarshalBinary refuses what the binary form cannot hold (nor a book file):
// an entry without actions, a depth or score out of range, a proof kept by
// no action.
func TestMarshalBinaryRefuses(t *testing.T) {
	r := rules.Default()
	p := position.New(&r)
	d6 := position.MakePlace(bb.Square(9))
	start := "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Depth: 3}, "book: " + start + ": 0 actions at depth 3: the binary form cannot hold it"},
		{Entry{Depth: 256, Actions: []Action{{d6, 1}}}, "book: " + start + ": 1 actions at depth 256: the binary form cannot hold it"},
		{Entry{Depth: 3, Actions: []Action{{d6, 32001}}}, "book: " + start + ": score 32001 of " + d6.String() + ": the binary form cannot hold it"},
		{Entry{Depth: 3, Actions: []Action{{d6, 1}}, Proof: &Proof{}}, "book: " + start + ": proven draw, kept by 0 actions: the binary form cannot hold it"},
	} {
		b := New(r, "nine-mens-morris")
		if err := b.Put(&p, tc.e); err != nil {
			t.Fatal(err)
		}
		if _, err := b.MarshalBinary(); err == nil || err.Error() != tc.want {
			t.Errorf("%+v:\n got %v\nwant %s", tc.e, err, tc.want)
		}
	}
}

// A damaged binary form is refused whole, with the part at fault.
func TestReadBinaryErrors(t *testing.T) {
	_, data := smallBinary(t)
	// The layout of smallBinary: a header of 48 bytes (24 + "custom" +
	// "MayFly=false", padded), 3 keys, 4 offsets, then the records: the
	// position after a7 (its counters stored), the start, the removal.
	const head, n = 48, 3
	recs := head + 8*n + 4*(n+1)
	k0, k1 := binary.LittleEndian.Uint64(data[head:]), binary.LittleEndian.Uint64(data[head+8:])
	r1 := recs + 18 // the start position's record
	startFEN := "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
	if keyFEN(k1, 0, 1) != startFEN || len(data) != recs+18+16+12 {
		t.Fatalf("the layout of smallBinary changed: %s, %d bytes", keyFEN(k1, 0, 1), len(data))
	}
	patch := func(at int, b ...byte) []byte {
		d := bytes.Clone(data)
		copy(d[at:], b)
		return d
	}
	u16 := func(v int) []byte { return binary.LittleEndian.AppendUint16(nil, uint16(v)) }
	slide := position.MakeSlide(0, 1)
	at1 := func(format string, args ...any) string {
		return fmt.Sprintf("book: binary form: position 1 (%#x): %s: ", k1, startFEN) + fmt.Sprintf(format, args...)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, `book: binary form: no "millbook" header`},
		{"text", []byte(smallText), `book: binary form: no "millbook" header`},
		{"header", data[:23], "book: binary form: 23 bytes, cut within the header (24 bytes)"},
		{"version", patch(8, 2), "book: binary form: version 2, want 1"},
		{"cut", data[:len(data)-1], fmt.Sprintf("book: binary form: %d bytes, want %d for 3 positions and 46 record bytes", len(data)-1, len(data))},
		{"longer", append(bytes.Clone(data), 0), fmt.Sprintf("book: binary form: %d bytes, want %d for 3 positions and 46 record bytes", len(data)+1, len(data))},
		{"padding", patch(head-1, 1), "book: binary form: the header's padding is not zeros"},
		{"diff", patch(30, 'X'), `book: binary form: diff "XayFly=false": want Name=value with a rule parameter name`},
		{"keys", patch(head+8, data[head:head+8]...), "book: binary form: position 1: keys not increasing"},
		{"offsets", patch(head+8*n, 1), "book: binary form: the offsets do not span the records"},
		{"depth", patch(r1, 0), fmt.Sprintf("book: binary form: position 1 (%#x): depth 0, 2 actions: want 1..255 of each", k1)},
		{"flags", patch(r1+2, 8|2), fmt.Sprintf("book: binary form: position 1 (%#x): unknown flags 0xa", k1)},
		{"proof", patch(r1+2, 0), fmt.Sprintf("book: binary form: position 1 (%#x): 2 kept actions for proof code 0", k1)},
		{"size", patch(r1+1, 3), fmt.Sprintf("book: binary form: position 1 (%#x): a record of 16 bytes, want 20", k1)},
		{"counters size", patch(r1+2, 2|4), fmt.Sprintf("book: binary form: position 1 (%#x): a record of 16 bytes, want 22", k1)},
		{"counters", patch(recs+6, 1), fmt.Sprintf("book: binary form: position 0 (%#x): move counters stored that the ply gives", k0)},
		{"illegal", patch(r1+4, u16(int(slide))...), at1("action %#x is not legal", uint16(slide))},
		{"score", patch(r1+6, u16(32001)...), at1("score 32001 of d6: want -32000..32000")},
		{"order", patch(r1+10, u16(47)...), at1("e5 47: actions must be listed once each, best first")},
		{"twice", patch(r1+8, data[r1+4:r1+6]...), at1("d6 11: actions must be listed once each, best first")},
		{"kept twice", patch(r1+14, data[r1+12:r1+14]...), at1("kept action %#x is illegal or kept twice", binary.LittleEndian.Uint16(data[r1+12:]))},
		{"not canonical", patch(head+1, 1<<3), fmt.Sprintf("book: binary form: position 0 (%#x): %s is not a position the book can hold in its canonical image", k0^(1<<9|1<<11), keyFEN(k0^(1<<9|1<<11), 0, 7))},
		{"not a key", patch(head+7, 0x80|byte(k0>>56)), fmt.Sprintf("book: binary form: position 0 (%#x): not a position's key", k0|1<<63)},
	} {
		_, err := ReadBinary(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// FuzzReadBinary: any input gives a book or an error, never a panic; a book
// it accepts is the binary form of itself (written again byte for byte),
// answers a probe at each of its positions, and writes a text that reads
// back to the same binary form.
func FuzzReadBinary(f *testing.F) {
	_, data := smallBinary(f)
	f.Add(data)
	b, err := Read(strings.NewReader(builtinText(f)[:4096]), true)
	if err != nil {
		f.Fatal(err)
	}
	seed, err := b.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, in []byte) {
		b, err := ReadBinary(in)
		if err != nil {
			return
		}
		again, err := b.MarshalBinary()
		if err != nil || !bytes.Equal(again, in) {
			t.Fatalf("written again: %v, same bytes %t", err, bytes.Equal(again, in))
		}
		r := b.Rules
		var text bytes.Buffer
		if _, err := b.WriteTo(&text); err != nil {
			t.Fatal(err)
		}
		b.Each(func(fen string, _ int, e Entry) {
			p, err := position.ParseFEN(&r, fen)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := b.Probe(&r, &p); !ok || !sameEntry(got, e) {
				t.Fatalf("%s: probe %+v %t, want %+v", fen, got, ok, e)
			}
		})
		c, err := Read(&text, false)
		if err != nil {
			t.Fatalf("its text does not read: %v\n%s", err, text.String())
		}
		if data, err := c.MarshalBinary(); err != nil || !bytes.Equal(data, in) {
			t.Fatalf("its text packs to other bytes (%v)", err)
		}
	})
}

// BenchmarkOpenBuiltin is what the shipped book costs a process at start:
// its header read in place.
func BenchmarkOpenBuiltin(b *testing.B) {
	for b.Loop() {
		if _, err := openPacked(builtinBinary); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbeBuiltin is a probe of the shipped book at the start
// position (a proven entry with 24 kept actions) and its image.
func BenchmarkProbeBuiltin(b *testing.B) {
	bk := shippedBook(b)
	r := rules.Default()
	p := position.New(&r)
	p.Do(&r, position.MakePlace(bb.Square(9)))
	for b.Loop() {
		if _, ok := bk.Probe(&r, &p); !ok {
			b.Fatal("not in the book")
		}
	}
}
