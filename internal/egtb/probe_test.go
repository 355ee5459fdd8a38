package egtb

import (
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		v        Value
		s        string
		win, los bool
		d, plies int
	}{
		{Draw, "draw", false, false, 0, 0},
		{Loss(0), "loss 0", false, true, 0, 0},
		{Win(1), "win 1", true, false, 1, 1},
		{Loss(1), "loss 1", false, true, 1, 2},
		{Win(13), "win 13", true, false, 13, 25},
		{Loss(12), "loss 12", false, true, 12, 24},
	} {
		if tc.v.String() != tc.s || tc.v.IsWin() != tc.win || tc.v.IsLoss() != tc.los || tc.v.IsDraw() != (tc.s == "draw") ||
			tc.v.Distance() != tc.d || tc.v.Plies() != tc.plies {
			t.Errorf("%d: %s win %t loss %t distance %d plies %d", tc.v, tc.v, tc.v.IsWin(), tc.v.IsLoss(), tc.v.Distance(), tc.v.Plies())
		}
	}
	// The opponent's loss d is our win d+1, its win d our loss d.
	for d := 0; d < 50; d++ {
		if Loss(d).Parent() != Win(d+1) || (d > 0 && Win(d).Parent() != Loss(d)) {
			t.Fatalf("Parent at %d: %s, %s", d, Loss(d).Parent(), Win(d).Parent())
		}
	}
	if Draw.Parent() != Draw {
		t.Fatal("Parent of a draw")
	}
	order := []Value{Win(1), Win(2), Win(30), Draw, Loss(40), Loss(3), Loss(0)}
	for i := 1; i < len(order); i++ {
		if !order[i-1].Better(order[i]) || order[i].Better(order[i-1]) {
			t.Errorf("%s should be better than %s", order[i-1], order[i])
		}
	}
}

// fenOf builds a moving-phase FEN from point labels.
func fenOf(white, black []string, side string, whiteRemoves int) string {
	var w, b bb.Bitboard
	for _, l := range white {
		w |= bb.Bit(mustSquare(l))
	}
	for _, l := range black {
		b |= bb.Bit(mustSquare(l))
	}
	f := string(appendFEN(nil, w, b))
	f = strings.Replace(f, " w m s ", " "+side+" m s ", 1)
	if whiteRemoves > 0 {
		f = strings.Replace(f, " w m s ", " w m r ", 1)
		f = strings.Replace(f, " 0 0 0 0 0 0 0 0 0 1", " 0 1 0 0 0 0 0 0 0 1", 1) // black hand 0, white removes 1
	}
	return f
}

// Positions checked by hand.
func TestProbeHandChecked(t *testing.T) {
	tb := sharedTables(t)
	r := rules.Default()
	// White threatens a7-d7-g7 (a1 flies to g7) and a7-a4-a1 (d7 flies to
	// a4); Black cannot close a mill in one and blocks only one point.
	threat := func(side string) position.Position {
		return testkit.Position(t, &r, fenOf([]string{"a7", "d7", "a1"}, []string{"c5", "e3", "f2"}, side, 0))
	}
	p := threat("b")
	if v, ok := tb.Probe(&r, &p); !ok || v != Loss(1) {
		t.Errorf("double threat, Black to move: %s %t, want loss 1", v, ok)
	}
	for _, a := range tb.Actions(&r, &p) {
		if !a.Known || a.Value != Loss(1) {
			t.Errorf("double threat, Black's %s: %s, want loss 1", a.Move, a.Value)
		}
	}
	p = threat("w")
	if v, ok := tb.Probe(&r, &p); !ok || v != Win(1) {
		t.Errorf("mill in one: %s %t, want win 1", v, ok)
	}
	acts := tb.Actions(&r, &p)
	if len(acts) != 3*18 || acts[0].Move.String() != "a1-g7" || acts[1].Move.String() != "d7-a4" ||
		acts[0].Value != Win(1) || acts[1].Value != Win(1) || acts[2].Value == Win(1) {
		t.Errorf("mill in one: actions %v", acts[:3])
	}
	for i := 1; i < len(acts); i++ {
		if acts[i].Value.Better(acts[i-1].Value) {
			t.Errorf("actions not ordered: %s %s before %s %s", acts[i-1].Move, acts[i-1].Value, acts[i].Move, acts[i].Value)
		}
	}
	// A pending removal: Black's c3-d3-e3 is a mill, so only b2 may go; the
	// value is that of Black to move afterwards, turned, which is White's
	// value of the action that closed the mill.
	p = testkit.Position(t, &r, fenOf([]string{"a7", "d7", "g7"}, []string{"c3", "d3", "e3", "b2"}, "w", 1))
	after := testkit.Position(t, &r, fenOf([]string{"a7", "d7", "g7"}, []string{"c3", "d3", "e3"}, "b", 0))
	va, ok1 := tb.Probe(&r, &after)
	v, ok2 := tb.Probe(&r, &p)
	if !ok1 || !ok2 || v != va.Parent() || va != Win(2) {
		t.Errorf("pending removal: %s (%t), after xb2 %s (%t); want loss 2 and win 2", v, ok2, va, ok1)
	}
	if acts := tb.Actions(&r, &p); len(acts) != 1 || acts[0].Move.String() != "xb2" || acts[0].Value != v {
		t.Errorf("pending removal: actions %v", acts)
	}
	// The slide that closed the mill has the same value.
	before := testkit.Position(t, &r, fenOf([]string{"a7", "d7", "g4"}, []string{"c3", "d3", "e3", "b2"}, "w", 0))
	if av, ok := tb.ActionValue(&r, &before, position.MakeSlide(mustSquare("g4"), mustSquare("g7"))); !ok || av != v {
		t.Errorf("g4-g7 closing the mill: %s %t, want %s", av, ok, v)
	}
	// Removing a piece from a side with three wins at once.
	p = testkit.Position(t, &r, fenOf([]string{"a7", "d7", "g7"}, []string{"c3", "d3", "b2"}, "w", 1))
	if v, ok := tb.Probe(&r, &p); !ok || v != Win(1) {
		t.Errorf("winning removal: %s %t", v, ok)
	}
	// Not in the tables: pieces in hand, too many pieces, game over.
	for _, fen := range []string{
		position.StartFEN,
		fenOf([]string{"a7", "d7", "g7", "a1"}, []string{"c3", "d3", "e3"}, "w", 0), // 4v3 is not in the shared directory
		fenOf([]string{"a7", "d7", "g7", "a1", "d1", "g1"}, []string{"c3", "d3", "e3", "c5", "e5"}, "w", 0),
	} {
		p := testkit.Position(t, &r, fen)
		if v, ok := tb.Probe(&r, &p); ok || tb.Why(&r, &p) == "" {
			t.Errorf("%s: %s %t, why %q", fen, v, ok, tb.Why(&r, &p))
		} else {
			t.Logf("%s: %s", fen, tb.Why(&r, &p))
		}
	}
}

// A blocked side to move has lost (loss 0): checked without flying, where
// three pieces slide. The engine ends such a game at once, so Probe does not
// answer for it, but ProbeSets does, and the action that blocks is win 1.
func TestProbeBlocked(t *testing.T) {
	p := Params{MinPieces: 3}
	tb := sharedTablesFor(t, p)
	r := p.Rules()
	white := []string{"a7", "d7", "g7"}
	pos := testkit.Position(t, &r, fenOf(white, []string{"a4", "d6", "g4"}, "w", 0))
	if !pos.IsOver() {
		t.Fatal("the position is not over")
	}
	var w, b bb.Bitboard
	for _, l := range white {
		w |= bb.Bit(mustSquare(l))
	}
	b = bb.Bit(mustSquare("a4")) | bb.Bit(mustSquare("d6")) | bb.Bit(mustSquare("g4"))
	if v, ok := tb.ProbeSets(w, b); !ok || v != Loss(0) {
		t.Errorf("blocked: %s %t, want loss 0", v, ok)
	}
	if _, ok := tb.Probe(&r, &pos); ok || !strings.Contains(tb.Why(&r, &pos), "no legal move") {
		t.Errorf("Probe of a finished game: %q", tb.Why(&r, &pos))
	}
	// Black to move from d5 to d6 blocks White.
	before := testkit.Position(t, &r, fenOf(white, []string{"a4", "d5", "g4"}, "b", 0))
	if v, ok := tb.ActionValue(&r, &before, position.MakeSlide(mustSquare("d5"), mustSquare("d6"))); !ok || v != Win(1) {
		t.Errorf("the blocking slide: %s %t, want win 1", v, ok)
	}
	if v, ok := tb.Probe(&r, &before); !ok || v != Win(1) {
		t.Errorf("before the block: %s %t, want win 1", v, ok)
	}
}

// randomPositions returns n random 3v3 positions of the standard rules, every
// third with a removal pending.
func randomPositions(t testing.TB, n int) []position.Position {
	r := rules.Default()
	rng := rand.New(rand.NewPCG(7, 8))
	var out []position.Position
	for len(out) < n {
		m, o := randomPosition(rng, 3, 3)
		p := testkit.Position(t, &r, string(appendFEN(nil, m, o)))
		if len(out)%3 == 2 {
			// Play a mill-closing action if there is one.
			var ml movegen.MoveList
			movegen.Generate(&r, &p, &ml)
			for _, mv := range ml.Slice() {
				c := p
				c.Do(&r, mv)
				if c.Action() == position.Remove && !c.IsOver() {
					p = c
					break
				}
			}
			if p.Action() != position.Remove {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// Probe allocates nothing, also for a pending removal, and is safe for
// concurrent use.
func TestProbeAllocsAndConcurrency(t *testing.T) {
	tb := sharedTables(t)
	r := rules.Default()
	ps := randomPositions(t, 30)
	var want []Value
	for i := range ps {
		v, ok := tb.Probe(&r, &ps[i])
		if !ok {
			t.Fatalf("%s: unknown: %s", ps[i].FEN(), tb.Why(&r, &ps[i]))
		}
		want = append(want, v)
	}
	for i := range ps {
		if a := testing.AllocsPerRun(50, func() { tb.Probe(&r, &ps[i]) }); a != 0 {
			t.Errorf("%s: %.1f allocations per probe", ps[i].FEN(), a)
		}
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				i := (k * 7) % len(ps)
				if v, _ := tb.Probe(&r, &ps[i]); v != want[i] {
					t.Errorf("concurrent probe of %s: %s, want %s", ps[i].FEN(), v, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkProbe probes random 3v3 positions (every third with a removal
// pending) in the shared standard tables, or, with EGTB_DIR set, random
// positions of every sector built there.
func BenchmarkProbe(b *testing.B) {
	tb := sharedTables(b)
	r := rules.Default()
	var ps []position.Position
	if dir := os.Getenv("EGTB_DIR"); dir != "" {
		full, err := OpenParams(dir, Standard)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { full.Close() })
		tb = full
		rng := rand.New(rand.NewPCG(9, 10))
		secs := full.Sectors()
		for len(ps) < 4096 && len(secs) > 0 {
			s := secs[rng.IntN(len(secs))]
			m, o := randomPosition(rng, s.M, s.O)
			if p := testkit.Position(b, &r, string(appendFEN(nil, m, o))); !p.IsOver() {
				ps = append(ps, p)
			}
		}
	} else {
		ps = randomPositions(b, 4096)
	}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	var sink Value
	for i := 0; i < b.N; i++ {
		v, _ := tb.Probe(&r, &ps[i&4095])
		sink += v
	}
	_ = sink
}

// BenchmarkProbeSets probes random raw 3v3 placements, no pending removal.
func BenchmarkProbeSets(b *testing.B) {
	tb := sharedTables(b)
	rng := rand.New(rand.NewPCG(11, 12))
	var ms, os [4096]bb.Bitboard
	for i := range ms {
		ms[i], os[i] = randomPosition(rng, 3, 3)
	}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	var sink Value
	for i := 0; i < b.N; i++ {
		v, _ := tb.ProbeSets(ms[i&4095], os[i&4095])
		sink += v
	}
	_ = sink
}

// BenchmarkOpen opens (maps and checks: header, size, CRC-32C of the data,
// used slots) every standard sector in EGTB_DIR.
func BenchmarkOpen(b *testing.B) {
	dir := os.Getenv("EGTB_DIR")
	if dir == "" {
		b.Skip("set EGTB_DIR to a directory of built tables")
	}
	var bytes int64
	for i := 0; i < b.N; i++ {
		tb, err := OpenParams(dir, Standard)
		if err != nil {
			b.Fatal(err)
		}
		bytes = 0
		for _, s := range tb.Sectors() {
			info, _ := tb.Info(s)
			bytes += info.Size
		}
		tb.Close()
	}
	b.SetBytes(bytes)
}
