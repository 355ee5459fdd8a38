package record_test

import (
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/record"
)

// TestPlayOKNumbering checks the table's shape: a one-to-one map of 1–24
// onto the points, numbered left to right within a row and rows from the
// top (rank 7) down, with the entries Sanmill's import tests name.
func TestPlayOKNumbering(t *testing.T) {
	seen := map[bb.Square]int{}
	prev := ""
	for n := 1; n <= 24; n++ {
		s, ok := record.PlayOKPoint(n)
		if !ok || s >= bb.NumSquares {
			t.Fatalf("PlayOKPoint(%d) = %v, %t", n, s, ok)
		}
		if m, dup := seen[s]; dup {
			t.Errorf("points %d and %d are both %s", m, n, s)
		}
		seen[s] = n
		l := s.String()
		if prev != "" && !(l[1] < prev[1] || l[1] == prev[1] && l[0] > prev[0]) {
			t.Errorf("point %d (%s) does not follow %s left to right, top to bottom", n, l, prev)
		}
		prev = l
	}
	for n, l := range map[int]string{1: "a7", 5: "d6", 12: "c4", 13: "e4", 22: "a1", 24: "g1"} {
		if s, _ := record.PlayOKPoint(n); s.String() != l {
			t.Errorf("point %d is %s, want %s", n, s, l)
		}
	}
	for _, n := range []int{0, 25, -1} {
		if _, ok := record.PlayOKPoint(n); ok {
			t.Errorf("PlayOKPoint(%d) accepted", n)
		}
	}
}

// TestPlayOKGame reads the sample game in PlayOK's notation and finds the
// same turns as in its Sanmill form.
func TestPlayOKGame(t *testing.T) {
	src := readSample(t, "playok-game.txt")
	gs, err := record.ParsePlayOK(src)
	if err != nil {
		t.Fatal(err)
	}
	sanmill := mustParse(t, string(readSample(t, "sanmill-export.pgn")))
	if len(gs) != 1 {
		t.Fatalf("%d games", len(gs))
	}
	g := &gs[0]
	if tokens(&g.Line) != sampleTokens {
		t.Errorf("turns:\n%s\nwant\n%s", tokens(&g.Line), sampleTokens)
	}
	for i := range g.Moves {
		a, b := g.Moves[i], sanmill[0].Moves[i]
		a.Pos, b.Pos = record.Pos{}, record.Pos{}
		if !(&record.Game{Line: line(a)}).Equal(&record.Game{Line: line(b)}) {
			t.Errorf("turn %d: %s, Sanmill %s", i+1, a.String(), b.String())
		}
	}
	if site, _ := g.Tag("Site"); site != "PlayOK" || len(g.Tags) != 12 || g.Result != "1-0" {
		t.Errorf("tags %v, result %q", g.Tags, g.Result)
	}
	// Line 16 is "20 8 10. 20-21x5 17-18 11. 21-20": 20-21x5 is at column 10.
	if p := g.Moves[18].Pos; p != (record.Pos{16, 10}) {
		t.Errorf("20-21x5 at %+v", p)
	}
	rp, err := record.Replay(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Variant != record.DefaultVariant || rp.Game.Pos.FEN() != finalFEN {
		t.Errorf("variant %q, final %s", rp.Variant, rp.Game.Pos.FEN())
	}
	imp, err := record.Import(src)
	if err != nil || len(imp) != 1 || !imp[0].Equal(g) {
		t.Errorf("Import: %v", err)
	}
	// Written out, it is Sanmill PGN.
	roundTrip(t, gs)
}

func TestPlayOKTokens(t *testing.T) {
	gs, err := record.ParsePlayOK([]byte("1. 12 13 2. x12 10-1x23 3. 5x6x7 P"))
	if err == nil {
		t.Fatalf("a pass is not PlayOK notation: %+v", gs)
	}
	gs, err = record.ParsePlayOK([]byte("1. 12 13 2. x12 10-1x23 3. 5x6x7 X8 *"))
	if err != nil {
		t.Fatal(err)
	}
	want := record.Game{Line: line(pl("c4"), pl("e4"), rmv("c4"), sl("a4", "a7", "d1"), pl("d6", "f6", "c5"), rmv("d5")), Result: "*"}
	if !gs[0].Equal(&want) {
		t.Errorf("got %s, want %s", tokens(&gs[0].Line), tokens(&want.Line))
	}
	for in, msg := range map[string]string{
		"1. 25":    `game 1, ply 1 (line 1, column 4): bad move token "25": 25 is not a PlayOK point (1-24)`,
		"1. 0":     `game 1, ply 1 (line 1, column 4): bad move token "0": 0 is not a PlayOK point (1-24)`,
		"1. 05":    `game 1, ply 1 (line 1, column 4): bad move token "05": 05 is not a PlayOK point (1-24)`,
		"1. 5 999": `game 1, ply 2 (line 1, column 6): bad move token "999": 999 is not a PlayOK point (1-24)`,
		"1. 12-":   `game 1, ply 1 (line 1, column 4): bad move token "12-"`,
		"1. 12-12": `game 1, ply 1 (line 1, column 4): bad move token "12-12": origin and destination are the same point`,
		"1. d6":    `game 1, ply 1 (line 1, column 4): bad move token "d6"`,
		"1. 5x":    `game 1, ply 1 (line 1, column 4): bad move token "5x"`,
	} {
		if _, err := record.ParsePlayOK([]byte(in)); err == nil || err.Error() != msg {
			t.Errorf("ParsePlayOK(%q) = %v, want %s", in, err, msg)
		}
	}
}

// TestImport checks that Import tells the forms apart.
func TestImport(t *testing.T) {
	const fen = "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11"
	gs, err := record.Import([]byte("  " + fen + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := record.Game{Tags: []record.Tag{{"FEN", fen}, {"SetUp", "1"}}, Result: "*"}
	if len(gs) != 1 || !gs[0].Equal(&want) || gs[0].Number != 1 {
		t.Fatalf("Import(FEN) = %+v", gs)
	}
	rp, err := record.Replay(&gs[0], nil)
	if err != nil || len(rp.Game.Moves) != 0 || rp.Game.Pos.FEN() != fen {
		t.Errorf("Replay(FEN): %v", err)
	}
	if out := roundTrip(t, gs); out != "[FEN \""+fen+"\"]\n[SetUp \"1\"]\n\n*\n" {
		t.Errorf("written %q", out)
	}
	if _, err := record.Import([]byte(fen[:30])); err == nil || err.Error() != `bad FEN "@*O@@OO*/O@@OO@*O/O***O@@@ b m": a position string has 17 fields, got 3` {
		t.Errorf("Import(short FEN) = %v", err)
	}
	if _, err := record.FromFEN("x"); err == nil {
		t.Error("FromFEN(x) accepted")
	}

	gs, err = record.Import([]byte("1. 5 13 {a note} 2. 20 19 *"))
	if err != nil || tokens(&gs[0].Line) != "d6 e4 d2 b2" {
		t.Errorf("Import(PlayOK without tags) = %v, %v", gs, err)
	}
	gs, err = record.Import([]byte("1. d2 f4 2. f2 d6 *"))
	if err != nil || tokens(&gs[0].Line) != "d2 f4 f2 d6" {
		t.Errorf("Import(Sanmill) = %v, %v", gs, err)
	}
	gs, err = record.Import([]byte("[Event \"e\"]\n\n*"))
	if err != nil || len(gs) != 1 || len(gs[0].Moves) != 0 {
		t.Errorf("Import(no moves) = %v, %v", gs, err)
	}
}
