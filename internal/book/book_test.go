package book

import (
	"bytes"
	"context"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
	"github.com/millengine/millengine/internal/testkit"
)

// smallConfig is a book build that takes a fraction of a second.
func smallConfig(out string) BuildConfig {
	return BuildConfig{Rules: rules.Default(), Preset: "nine-mens-morris", Plies: 4, Depth: 3,
		Actions: 3, Variety: 10, Workers: 2, HashMB: 1, Out: out}
}

func build(t *testing.T, cfg BuildConfig) (Stats, []byte) {
	t.Helper()
	st, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	return st, data
}

// A build writes a sorted book that reads back to the same bytes, counts
// the positions it searched by ply, and a second run over the same file
// resumes everything and searches nothing.
func TestBuildReadWriteResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "small.book")
	st, data := build(t, smallConfig(out))
	// The engine's turns of the first four actions: one start position per
	// colour, white's four first placements up to symmetry, and so on.
	if st.Positions != st.Searched || st.Positions < 20 || st.PerPly[0] != 1 || st.PerPly[1] != 4 || st.MinDepth != 3 {
		t.Fatalf("stats %+v", st)
	}
	if n := strings.Count(string(data), "\n") - 3; n != st.Positions {
		t.Fatalf("%d position lines for %d positions", n, st.Positions)
	}
	b, err := Read(bytes.NewReader(data), false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("the book does not write back byte for byte:\n%s\nvs\n%s", buf.Bytes(), data)
	}
	st2, data2 := build(t, smallConfig(out))
	if st2.Searched != 0 || st2.Resumed != st.Positions || st2.Positions != st.Positions || !bytes.Equal(data, data2) {
		t.Fatalf("resume searched %d (want 0), %d positions, same file %t", st2.Searched, st2.Positions, bytes.Equal(data, data2))
	}
}

// An interrupted build keeps what it finished and, run again, ends with the
// same book as an uninterrupted one (each position is searched from a clean
// table at a fixed depth, so the order does not matter).
func TestBuildInterruptedThenResumed(t *testing.T) {
	dir := t.TempDir()
	_, whole := build(t, smallConfig(filepath.Join(dir, "whole.book")))

	cfg := smallConfig(filepath.Join(dir, "cut.book"))
	cut := cfg
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int32
	cfg.Progress = func(string, uint64, uint64) {
		if done.Add(1) == 5 {
			cancel()
		}
	}
	_, err := Build(ctx, cfg)
	if err == nil || !strings.Contains(err.Error(), "interrupted after") || !strings.Contains(err.Error(), "run the same command to resume") {
		t.Fatalf("interrupted build: %v", err)
	}
	partial, err := os.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(partial), "\n") - 3; n < 5 || n >= strings.Count(string(whole), "\n")-3 {
		t.Fatalf("the interrupted file has %d positions", n)
	}
	st, resumed := build(t, cut)
	if !bytes.Equal(resumed, whole) || st.Searched == 0 {
		t.Fatalf("resumed book differs from the whole one (searched %d)", st.Searched)
	}
}

// Coverage: for each colour, every position where the engine is to move
// within the first Plies actions, reached by its book actions (within the
// variety) and any reply, is in the book.
func TestBookCoversTheTree(t *testing.T) {
	cfg := smallConfig(filepath.Join(t.TempDir(), "cover.book"))
	build(t, cfg)
	b, err := Open(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Rules
	checked := 0
	var walk func(p position.Position, engine position.Color, ply int)
	walk = func(p position.Position, engine position.Color, ply int) {
		if ply >= cfg.Plies || p.IsOver() {
			return
		}
		var moves []position.Move
		if p.SideToMove() == engine {
			e, ok := b.Probe(&r, &p)
			if !ok {
				t.Fatalf("engine %v: %s (ply %d) is not in the book", engine, p.FEN(), ply)
			}
			checked++
			for _, a := range e.Actions {
				if !movegen.IsLegal(&r, &p, a.Move) {
					t.Fatalf("%s: book action %s is illegal", p.FEN(), a.Move)
				}
				if a.Score >= e.Actions[0].Score-cfg.Variety {
					moves = append(moves, a.Move)
				}
			}
		} else {
			var ml movegen.MoveList
			movegen.Generate(&r, &p, &ml)
			moves = ml.Slice()
		}
		for _, m := range slices.Clone(moves) {
			q := p
			q.Do(&r, m)
			walk(q, engine, ply+1)
		}
	}
	walk(position.New(&r), position.White, 0)
	walk(position.New(&r), position.Black, 0)
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// A position and its 16 images probe to the same entry, with the actions
// moved by the symmetry. (The position has no symmetry of its own; one that
// has gets its actions in one of the equivalent orientations.)
func TestProbeUnderSymmetry(t *testing.T) {
	r := rules.Default()
	b := New(r, "nine-mens-morris")
	p := position.New(&r)
	for _, tok := range []string{"d6", "f4", "b2", "a7"} {
		m, err := movegen.ParseLegal(&r, &p, tok)
		if err != nil {
			t.Fatal(err)
		}
		p.Do(&r, m)
	}
	d2, _ := movegen.ParseLegal(&r, &p, "d2")
	a1, _ := movegen.ParseLegal(&r, &p, "a1")
	g7, _ := movegen.ParseLegal(&r, &p, "g7")
	if err := b.Put(&p, Entry{Depth: 9, Actions: []Action{{d2, 31}, {a1, 12}}, Proof: &Proof{Value: solve.Win, Keep: []position.Move{a1, g7}}}); err != nil {
		t.Fatal(err)
	}
	for y := bb.Symmetry(0); y < bb.NumSymmetries; y++ {
		img := p.Transform(y)
		e, ok := b.Probe(&r, &img)
		want := []Action{{d2.Transform(y), 31}, {a1.Transform(y), 12}}
		if !ok || e.Depth != 9 || !slices.Equal(e.Actions, want) || e.Proof == nil || e.Proof.Value != solve.Win ||
			!slices.Equal(e.Proof.Keep, []position.Move{a1.Transform(y), g7.Transform(y)}) {
			t.Fatalf("symmetry %d: %+v %t, want %+v and a win kept by a1 g7 transformed", y, e, ok, want)
		}
	}
	// Written and read back, the proof is the same.
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := Read(&buf, false)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := c.Probe(&r, &p); !ok || e.Proof == nil || !slices.Equal(e.Proof.Keep, []position.Move{a1, g7}) {
		t.Fatalf("read back: %+v %t", e, ok)
	}
	other := rules.Default()
	other.MayFly = false
	if _, ok := b.Probe(&other, &p); ok {
		t.Fatal("a book of other rules answered")
	}
	q := p
	q.Do(&r, d2)
	if _, ok := b.Probe(&r, &q); ok {
		t.Fatal("a position not in the book answered")
	}
}

// Pick: variety 0 plays the best; a margin plays every action within it,
// and only those; allowed (searchmoves) filters first.
func TestPick(t *testing.T) {
	mk := func(s string) position.Move {
		sq, _ := bb.ParseSquare(s)
		return position.MakePlace(sq)
	}
	e := Entry{Depth: 5, Actions: []Action{{mk("d6"), 40}, {mk("f4"), 35}, {mk("b2"), 20}}}
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[string]int{}
	for i := 0; i < 300; i++ {
		a, ok := Pick(e, 0, nil, rng)
		if !ok || a.Move != mk("d6") {
			t.Fatalf("variety 0 picked %v", a)
		}
		a, _ = Pick(e, 10, nil, rng)
		count[a.Move.String()]++
	}
	if count["d6"] < 100 || count["f4"] < 100 || count["b2"] != 0 {
		t.Fatalf("variety 10 picked %v", count)
	}
	if a, ok := Pick(e, 0, []position.Move{mk("b2")}, rng); !ok || a.Move != mk("b2") {
		t.Fatalf("allowed b2 picked %v %t", a, ok)
	}
	if _, ok := Pick(e, 50, []position.Move{mk("a1")}, rng); ok {
		t.Fatal("picked an action outside the allowed ones")
	}
}

// A damaged book is refused with the line and the reason.
func TestReadErrors(t *testing.T) {
	const head = "# millengine opening book\n# rules: nine-mens-morris\n# diff: (none)\n"
	const start = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
	for _, tc := range []struct{ in, want string }{
		{"", "book: no rules header (# rules: …, # diff: …)"},
		{"hello\n", `book: line 1: "hello" is not a millengine opening book header`},
		{"# millengine opening book\n" + start + "\tdepth 3\td6 10\n", "book: line 2: a position before the rules and diff header lines"},
		{"# millengine opening book\n# rules: x\n# diff: Nothing=3\n", `book: line 3: diff "Nothing=3": want Name=value with a rule parameter name`},
		{head + start + "\tdepth 3\n", "book: line 4: want FEN, depth, actions and an optional proof separated by tabs, got 2 fields"},
		{head + start + "\tdepth 3\td6 10\tproven draw keep d6\tx\n", "book: line 4: want FEN, depth, actions and an optional proof separated by tabs, got 5 fields"},
		{head + start + "\tdepth 3\td6 10\tproven draw d6\n", `book: line 4: "proven draw d6": want "proven <win|draw|loss> keep <action> …"`},
		{head + start + "\tdepth 3\td6 10\tproven draw keep\n", `book: line 4: "proven draw keep": want "proven <win|draw|loss> keep <action> …"`},
		{head + start + "\tdepth 3\td6 10\tproven drawn keep d6\n", `book: line 4: proven "drawn": want win, draw or loss`},
		{head + start + "\tdepth 3\td6 10\tproven draw keep d6 f4 d6\n", "book: line 4: proven: d6 is kept twice"},
		{head + start + "\tdepth 0\td6 10\n", `book: line 4: "depth 0": want depth 1..255`},
		{head + start + "\tdepth 3\td6\n", `book: line 4: "d6": want one or more pairs of action and score`},
		{head + start + "\tdepth 3\td6 x\n", `book: line 4: score "x" of d6: want an integer -32000..32000`},
		{head + start + "\tdepth 3\td6 10 f4 20\n", "book: line 4: f4 20: actions must be sorted best first"},
		{head + start + "\tdepth 3\td6 10 d6 5\n", "book: line 4: d6 is listed twice"},
		{head + start + "\tdepth 3\td6 10\n" + start + "\tdepth 4\tf4 1\n", "book: line 5: " + start + ": the position (or a symmetric image) is listed twice"},
		{head + start + "\tdepth 3\td6 10", "book: line 4: incomplete (no newline at the end of the file)"},
	} {
		_, err := Read(strings.NewReader(tc.in), false)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
	// An illegal action and a bad FEN name themselves (the messages come
	// from the move and FEN parsers).
	for _, in := range []string{head + start + "\tdepth 3\td6-d5 10\n", head + "xyz\tdepth 3\td6 10\n", head + start + "\tdepth 3\td6 10\tproven win keep xd6\n"} {
		if _, err := Read(strings.NewReader(in), false); err == nil || !strings.HasPrefix(err.Error(), "book: line 4: ") {
			t.Errorf("%q: %v", in, err)
		}
	}
	// Lenient reading (resuming a build) drops a cut last line.
	b, err := Read(strings.NewReader(head+start+"\tdepth 3\td6 10\n"+start+"\tdep"), true)
	if err != nil || b.Len() != 1 {
		t.Fatalf("lenient: %v, %d positions", err, b.Len())
	}
}

// FuzzRead: any input gives a book or an error, never a panic, and a book
// that reads writes back to a file that reads to the same book.
func FuzzRead(f *testing.F) {
	f.Add("# millengine opening book\n# rules: nine-mens-morris\n# diff: (none)\n********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\tdepth 3\td6 10 f4 5\n")
	f.Add("# millengine opening book\n# rules: x\n# diff: MayFly=false\n")
	f.Add("# millengine opening book\n# rules: nine-mens-morris\n# diff: (none)\n********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\tdepth 3\td6 10 f4 5\tproven draw keep d6 a7\n")
	f.Fuzz(func(t *testing.T, in string) {
		b, err := Read(strings.NewReader(in), false)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if _, err := b.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		c, err := Read(bytes.NewReader(buf.Bytes()), false)
		if err != nil || c.Len() != b.Len() {
			t.Fatalf("written book does not read back: %v\n%s", err, buf.Bytes())
		}
	})
}

// Distinct keeps one action per class of symmetric actions: 4 of the 24
// placements of the start position (a middle-ring midpoint, a middle-ring
// corner, an inner/outer midpoint, an inner/outer corner), all 23 of a
// position without symmetry, listed as nil.
func TestDistinct(t *testing.T) {
	r := rules.Default()
	p := position.New(&r)
	var toks []string
	for _, m := range Distinct(&r, &p) {
		toks = append(toks, m.String())
	}
	if got := strings.Join(toks, " "); got != "d5 e5 d6 f6" {
		t.Fatalf("start position: %q, want d5 e5 d6 f6", got)
	}
	m, _ := movegen.ParseLegal(&r, &p, "d6")
	p.Do(&r, m)
	// d6 is fixed by the mirror in the d-file and by the ring exchange: 23
	// empty points in 4 + 4 + 3 + 2 + … classes; check against brute force.
	classes := map[position.Position]bool{}
	var ml movegen.MoveList
	movegen.Generate(&r, &p, &ml)
	for _, m := range ml.Slice() {
		q := p
		q.Do(&r, m)
		_, c := Canonical(&q)
		classes[c] = true
	}
	if got := len(Distinct(&r, &p)); got != len(classes) {
		t.Fatalf("after d6: %d distinct actions, %d classes of children", got, len(classes))
	}
	q := p
	for _, tok := range []string{"f4", "b2", "a7"} {
		m, _ := movegen.ParseLegal(&r, &q, tok)
		q.Do(&r, m)
	}
	if d := Distinct(&r, &q); d != nil {
		t.Fatalf("a position without symmetry: %v, want nil", d)
	}
}

// shippedBook returns the shipped book (Default); an error fails the test.
func shippedBook(tb testing.TB) *Book {
	tb.Helper()
	b, err := Default()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestBuiltinBook: the shipped book is Nine Men's Morris's, holds every
// position of the book tree of its first eight plies (a build over it with
// eight plies has nothing left to search) at the depths make book gives
// them, and its start entry is exact.
func TestBuiltinBook(t *testing.T) {
	testkit.NotUnderRace(t, "reads all 89,814 positions of the shipped book")
	b := shippedBook(t)
	r := rules.Default()
	if !b.Matches(&r) || b.Len() != 89814 {
		t.Fatalf("builtin book: %d positions, matches the standard rules %v", b.Len(), b.Matches(&r))
	}
	start := position.New(&r)
	e, ok := b.Probe(&r, &start)
	if !ok || e.Depth != 14 || len(e.Actions) != 4 || e.Actions[0].Move.String() != "d6" || e.Actions[0].Score != 46 {
		t.Fatalf("start entry %+v (found %v)", e, ok)
	}
	out := filepath.Join(t.TempDir(), "builtin.book")
	if err := os.WriteFile(out, []byte(builtinText(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := BuildConfig{Rules: r, Preset: "nine-mens-morris", Plies: 8, Depth: 1, Actions: DefaultActions,
		Variety: DefaultVariety, Workers: 1, HashMB: 1, Out: out}
	st, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Searched != 0 || !slices.Equal(st.PerPly, []int{1, 4, 9, 148, 226, 4592, 5713, 79121}) {
		t.Fatalf("an eight-ply build over the shipped book searched %d positions; tree by ply %v", st.Searched, st.PerPly)
	}
	depths := map[int]int{}
	b.Each(func(_ string, _ int, e Entry) { depths[e.Depth]++ })
	if depths[14] != 162 || depths[12] != 4818 || depths[10] != 84834 || len(depths) != 3 {
		t.Fatalf("depths %v", depths)
	}
	// The proven first plies (book prove --plies 4 with the whole moving
	// phase): at plies 0-2 every position a draw and every book action among
	// those keeping it, with the counts of keeping actions as proven; at ply
	// 3 (the engine as Black after White's second placement) the wins White
	// gave away, and the positions where the book's best action gives the
	// value up (and so on for the later plies proven).
	keeps := map[int][]int{}
	type later struct{ wins, draws, losses, bestGivesUp, noneKeeps int }
	deeper := map[int]later{}
	b.Each(func(fen string, ply int, e Entry) {
		if e.Proof == nil {
			return
		}
		if len(e.Proof.Keep) == 0 {
			t.Errorf("%s: proven %s, kept by no action", fen, e.Proof.Value)
		}
		if ply >= 3 {
			c := deeper[ply]
			switch e.Proof.Value {
			case solve.Win:
				c.wins++
			case solve.Draw:
				c.draws++
			default:
				c.losses++
			}
			if !e.Proof.Keeps(e.Actions[0].Move) {
				c.bestGivesUp++
			}
			if !slices.ContainsFunc(e.Actions, func(a Action) bool { return e.Proof.Keeps(a.Move) }) {
				c.noneKeeps++
			}
			deeper[ply] = c
			return
		}
		if e.Proof.Value != solve.Draw {
			t.Errorf("%s: proven %s", fen, e.Proof.Value)
		}
		for _, a := range e.Actions {
			if !e.Proof.Keeps(a.Move) {
				t.Errorf("%s: the book's %s gives up the draw", fen, a.Move)
			}
		}
		keeps[ply] = append(keeps[ply], len(e.Proof.Keep))
	})
	want := map[int][]int{0: {24}, 1: {23, 23, 23, 23}, 2: {20, 22, 20, 22, 22, 22, 22, 22, 21}}
	if !maps.EqualFunc(keeps, want, slices.Equal) {
		t.Fatalf("keeping actions by ply %v, want %v", keeps, want)
	}
	if wantDeeper := map[int]later{3: {wins: 20, draws: 128, bestGivesUp: 5, noneKeeps: 1}, 4: {wins: 77, draws: 149, bestGivesUp: 14, noneKeeps: 4},
		5: {wins: 2132, draws: 2457, losses: 3, bestGivesUp: 325, noneKeeps: 82}, 6: {wins: 3540, draws: 2173, bestGivesUp: 579, noneKeeps: 181},
		7: {wins: 53099, draws: 25978, losses: 44, bestGivesUp: 7188, noneKeeps: 1409}}; !maps.Equal(deeper, wantDeeper) {
		t.Fatalf("plies 3 and later: %+v, want %+v", deeper, wantDeeper)
	}
}

// BenchmarkReadBuiltin is the cost of loading the shipped book, paid once
// by a session that uses it.
func BenchmarkReadBuiltin(b *testing.B) {
	text := builtinText(b)
	for b.Loop() {
		if _, err := Read(strings.NewReader(text), false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteBuiltin is the cost of writing the shipped book's 85,000
// positions, which book prove pays whenever it saves its progress.
func BenchmarkWriteBuiltin(b *testing.B) {
	bk, err := Read(strings.NewReader(builtinText(b)), false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := bk.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
