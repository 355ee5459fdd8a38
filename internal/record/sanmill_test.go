package record_test

import (
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
)

// finalFEN is the position at the end of the sample game: White's last
// turn b6-d6xa7 leaves Black two pieces.
const finalFEN = "O@****O@/OO*O****/OO*O*O** w o r 9 0 2 0 1 0 0 0 0 0 0 0 43"

// sampleTokens are the 77 turns of testdata/pgn/sanmill-export.pgn.
const sampleTokens = "g4 d1 c4 b4 f6 b6 g1 d6 e4 a7 c5 d3 b2 e5 f4xd1 c3 d2 d5 d2-f2xd6 d3-e3 " +
	"f2-d2 e3-d3 d2-f2xa7 b4-a4 f2-d2 d5-d6 d2-d1 d6-d7 f4-f2 d3-e3 d1-a1 d7-d6 b2-b4 e5-d5 " +
	"e4-f4xd5 a4-a7 c5-d5 c3-d3 b4-b2 d3-c3 c4-c5 e3-e4 f2-d2 c3-d3 g1-d1 d6-d7 d1-g1 b6-d6 " +
	"g4-g7 d3-e3 g7-g4 a7-a4 d2-d1xa4 e4-e5 b2-d2 e5-e4 c5-c4 d7-a7 a1-a4 a7-d7 a4-b4 e4-e5 " +
	"d2-f2xd7 e5-b2 d1-a1 d6-c5 b4-b6 c5-e5 f6-d6 e5-c5 d6-d7 c5-a7 g4-g7 b2-e5 f4-f6 e3-c5 b6-d6xa7"

// TestSanmillExport reads a game as Sanmill's app saves it to a file
// (ImportService.addTagPairs before GameRecorder.moveHistoryText: CRLF after
// the tags, LF between move pairs, no final line end) and replays it.
func TestSanmillExport(t *testing.T) {
	gs := mustParse(t, string(readSample(t, "sanmill-export.pgn")))
	if len(gs) != 1 {
		t.Fatalf("%d games", len(gs))
	}
	g := &gs[0]
	wantTags := []record.Tag{{"Event", "Sanmill-Game"}, {"Site", "Sanmill"}, {"Date", "2026.3.9"},
		{"Round", "3"}, {"White", "Human"}, {"Black", "AI"}, {"Result", "1-0"},
		{"Variant", "Nine Men's Morris"}, {"PlyCount", "84"}}
	if len(g.Tags) != len(wantTags) {
		t.Fatalf("tags %v", g.Tags)
	}
	for i := range wantTags {
		if g.Tags[i] != wantTags[i] {
			t.Errorf("tag %d = %v, want %v", i+1, g.Tags[i], wantTags[i])
		}
	}
	if got := tokens(&g.Line); got != sampleTokens {
		t.Errorf("turns:\n%s\nwant\n%s", got, sampleTokens)
	}
	if g.Result != "1-0" {
		t.Errorf("Result %q", g.Result)
	}
	if p := g.Moves[14].Pos; p != (record.Pos{18, 4}) { // 8. f4xd1
		t.Errorf("f4xd1 at %+v", p)
	}
	if p := g.Moves[76].Pos; p != (record.Pos{49, 5}) { // 39. b6-d6xa7
		t.Errorf("b6-d6xa7 at %+v", p)
	}

	rp, err := record.Replay(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Variant != "nine-mens-morris" {
		t.Errorf("Variant %q", rp.Variant)
	}
	if n := len(rp.Game.Moves); n != 84 || len(rp.Positions) != 84 || len(rp.TurnEnd) != 77 {
		t.Errorf("%d moves, %d positions, %d turn ends; want 84 (the PlyCount), 84, 77", n, len(rp.Positions), len(rp.TurnEnd))
	}
	// After 8. f4xd1 (turn 15): 15 turns and one removal.
	if rp.TurnEnd[14] != 16 {
		t.Errorf("TurnEnd[14] = %d, want 16", rp.TurnEnd[14])
	}
	if got, want := rp.Positions[15].FEN(), "*@O*@*OO/@OO**O@@/**OO***@ b p p 8 1 6 2 0 0 0 0 0 0 0 0 8"; got != want {
		t.Errorf("after f4xd1: %s, want %s", got, want)
	}
	// 32... e5-b2 is a fly: Black has three pieces.
	fly := g.Moves[63].Move
	before := rp.Positions[rp.TurnEnd[62]-1]
	if rp.Rules.Topology().Adjacent[fly.From()].Has(fly.To()) || !before.CanFly(&rp.Rules, position.Black) {
		t.Errorf("%s is not a fly", fly)
	}
	if got := rp.Game.Pos.FEN(); got != finalFEN {
		t.Errorf("final %s, want %s", got, finalFEN)
	}
	if res, why := rp.Game.Pos.Result(); res != position.WhiteWins || why != position.FewerPieces {
		t.Errorf("result %v (%v), want white wins (fewer pieces)", res, why)
	}

	out := roundTrip(t, gs)
	want := strings.Join([]string{
		`[Event "Sanmill-Game"]`,
		`[Site "Sanmill"]`,
		`[Date "2026.3.9"]`,
		`[Round "3"]`,
		`[White "Human"]`,
		`[Black "AI"]`,
		`[Result "1-0"]`,
		`[Variant "Nine Men's Morris"]`,
		`[PlyCount "84"]`,
		``,
		`1. g4 d1 2. c4 b4 3. f6 b6 4. g1 d6 5. e4 a7 6. c5 d3 7. b2 e5 8. f4xd1 c3 9. d2`,
		`d5 10. d2-f2xd6 d3-e3 11. f2-d2 e3-d3 12. d2-f2xa7 b4-a4 13. f2-d2 d5-d6`,
		`14. d2-d1 d6-d7 15. f4-f2 d3-e3 16. d1-a1 d7-d6 17. b2-b4 e5-d5 18. e4-f4xd5`,
		`a4-a7 19. c5-d5 c3-d3 20. b4-b2 d3-c3 21. c4-c5 e3-e4 22. f2-d2 c3-d3 23. g1-d1`,
		`d6-d7 24. d1-g1 b6-d6 25. g4-g7 d3-e3 26. g7-g4 a7-a4 27. d2-d1xa4 e4-e5`,
		`28. b2-d2 e5-e4 29. c5-c4 d7-a7 30. a1-a4 a7-d7 31. a4-b4 e4-e5 32. d2-f2xd7`,
		`e5-b2 33. d1-a1 d6-c5 34. b4-b6 c5-e5 35. f6-d6 e5-c5 36. d6-d7 c5-a7 37. g4-g7`,
		`b2-e5 38. f4-f6 e3-c5 39. b6-d6xa7 1-0`,
		``}, "\n")
	if out != want {
		t.Errorf("written:\n%s\nwant:\n%s", out, want)
	}
	for _, ln := range strings.Split(out, "\n") {
		if len(ln) > 80 {
			t.Errorf("line longer than 80: %q", ln)
		}
	}
}

// TestSanmillSetup reads a game as Sanmill's app copies it to the clipboard
// (GameRecorder.moveHistoryText alone) from a set-up position: FEN and SetUp
// tags in Sanmill's node-id dialect, a root comment, Black moving first
// ("1..."), NAG suffixes, a comment and a variation with the number restated
// after it.
func TestSanmillSetup(t *testing.T) {
	gs := mustParse(t, string(readSample(t, "sanmill-setup.pgn")))
	if len(gs) != 1 {
		t.Fatalf("%d games", len(gs))
	}
	const fen = "O@*@**O*/@OOO**O*/**OOO*** b m s 9 0 3 0 0 0 -1 -1 -1 -1 0 0 35 ids:nodes"
	want := record.Game{
		Tags: []record.Tag{{"FEN", fen}, {"SetUp", "1"}},
		Line: record.Line{
			Comments: []string{"Black has three pieces and flies"},
			Moves: []record.Turn{
				sl("e5", "b2"),
				with(sl("d1", "a1"), []int{1}, []string{"closes the door on a1"}, line(sl("b4", "b6"), sl("b2", "b4"))),
				sl("d6", "c5"),
				sl("b4", "b6"), with(sl("c5", "e5"), []int{14}, nil),
				sl("f6", "d6"), sl("e5", "c5"),
				sl("d6", "d7"), with(sl("c5", "a7"), []int{2}, nil),
				sl("g4", "g7"), sl("b2", "e5"),
				sl("f4", "f6"), with(sl("e3", "c5"), []int{4}, nil),
				sl("b6", "d6", "a7"),
			},
		},
		Result: "1-0",
	}
	g := &gs[0]
	if !g.Equal(&want) {
		t.Fatalf("got  %+v\nwant %+v", *g, want)
	}

	rp, err := record.Replay(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.Game.Start.FEN(); got != "O@*@**O*/@OOO**O*/**OOO*** b m s 9 0 3 0 0 0 0 0 0 0 0 0 35" {
		t.Errorf("start %s", got)
	}
	if len(rp.Game.Moves) != 15 {
		t.Errorf("%d moves, want 15", len(rp.Game.Moves))
	}
	if got := rp.Game.Pos.FEN(); got != finalFEN {
		t.Errorf("final %s, want %s (the end of the exported game)", got, finalFEN)
	}
	// The variation replaces White's second turn.
	alt := *g
	alt.Line = record.Line{Moves: append([]record.Turn{g.Moves[0]}, g.Moves[1].Variations[0].Moves...)}
	if _, err := record.Replay(&alt, nil); err != nil {
		t.Errorf("variation: %v", err)
	}

	out := roundTrip(t, gs)
	wantOut := `[FEN "` + fen + `"]
[SetUp "1"]

{Black has three pieces and flies} 1... e5-b2 2. d1-a1! {closes the door on a1}
(2. b4-b6 b2-b4) 2... d6-c5 3. b4-b6 c5-e5 $14 4. f6-d6 e5-c5 5. d6-d7 c5-a7?
6. g4-g7 b2-e5 7. f4-f6 e3-c5?? 8. b6-d6xa7 1-0
`
	if out != wantOut {
		t.Errorf("written:\n%s\nwant:\n%s", out, wantOut)
	}
}

// TestSanmillClipboard reads the move list Sanmill copies for a game from
// the start position: no tags at all.
func TestSanmillClipboard(t *testing.T) {
	gs := mustParse(t, "1. d2 f4\n2. f2 d6 *")
	if len(gs) != 1 || len(gs[0].Tags) != 0 || tokens(&gs[0].Line) != "d2 f4 f2 d6" || gs[0].Result != "*" {
		t.Fatalf("read %+v", gs)
	}
	rp, err := record.Replay(&gs[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.Game.Pos.FEN(); got != "********/@*@OO***/******** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3" {
		t.Errorf("final %s", got)
	}
}
