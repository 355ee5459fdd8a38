package report

import (
	"slices"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/wdl"
)

// egtb games: a game that starts in the tables with White winning in one,
// where White gives the win away at once (a7-b2 is loss 2) and loses; the
// line names the action and the tallies count a win given away, a game lost
// from a won position, and one won from a lost one.
func TestEGTBGamesAnalysis(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	rec := match.GameRecord{Game: 3, White: "A", Black: "B", Variant: "nine-mens-morris", Result: "0-1", Winner: "B", Reason: "fewer than the minimum pieces",
		OpeningFEN: "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1",
		Moves:      []string{"a7-b2"}}
	tables := newTableCache(dir)
	defer tables.close()
	a, err := analyseGame(tables, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.line(rec), "game 3 A vs B 0-1 (fewer than the minimum pieces): placing ended at ply 0, White win; ply 1 white a7-b2: win → loss"; got != want {
		t.Fatalf("line %q\nwant %q", got, want)
	}
	sum := tallies(a, rec)
	if got := *sum["A"]; got != (gamesTally{games: 1, startWin: 1, lostFromDrawOrWin: 1, winsGivenAway: 1, changes: 1}) {
		t.Errorf("A: %+v", got)
	}
	if got := *sum["B"]; got != (gamesTally{games: 1, startLoss: 1}) {
		t.Errorf("B: %+v", got)
	}
	rec.Moves = []string{"a7-b2", "x"}
	if _, err := analyseGame(tables, rec); err == nil {
		t.Error("an illegal token was replayed")
	}

	// The same action as the match's opening is neither engine's: the game
	// starts for them after it, White lost, and nothing is counted.
	rec.Opening, rec.Moves = []string{"a7-b2"}, nil
	a, err = analyseGame(tables, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.line(rec), "game 3 A vs B 0-1 (fewer than the minimum pieces): first in the tables at ply 1 (placing ended at ply 0), White loss"; got != want || a.changed != [2]int{} {
		t.Fatalf("line %q, changes by colour %v\nwant %q and none", got, a.changed, want)
	}
}

// A game whose placing ends in a sector the tables lack is first known
// later: the line says both plies, not "placing ended" at the later one.
func TestEGTBGamesLineFirstKnownLater(t *testing.T) {
	rec := match.GameRecord{Game: 10, White: "A", Black: "B", Result: "1-0", Reason: "no legal move"}
	a := &gameAnalysis{known: true, ply: 36, placing: 19, first: 1, start: 1}
	if got, want := a.line(rec), "game 10 A vs B 1-0 (no legal move): first in the tables at ply 36 (placing ended at ply 19), White win"; got != want {
		t.Fatalf("line %q\nwant %q", got, want)
	}
}

// The draws an engine did not win are listed by their ending: both engines
// of a drawn game, the loser of a drawn position only; a game decided when
// the tables first knew it is no draw for either.
func TestEGTBGamesDrawnNotWon(t *testing.T) {
	drawn := &gameAnalysis{known: true, start: wdl.Draw, engines: [2]string{"A", "B"}}
	for _, c := range []struct {
		a      *gameAnalysis
		winner string
		want   []string
	}{
		{drawn, "", []string{"A", "B"}},
		{drawn, "A", []string{"B"}},
		{drawn, "B", []string{"A"}},
		{&gameAnalysis{known: true, start: wdl.Win, engines: [2]string{"A", "B"}}, "", nil},
		{&gameAnalysis{engines: [2]string{"A", "B"}}, "", nil},
	} {
		if got := c.a.drawnNotWon(match.GameRecord{Winner: c.winner}); !slices.Equal(got, c.want) {
			t.Errorf("start %v known %v, winner %q: %q, want %q", c.a.start, c.a.known, c.winner, got, c.want)
		}
	}
	if got, want := match.CountList(map[string]int{"threefold repetition": 3, "N-move rule": 5, "no legal move": 3}),
		"N-move rule 5, no legal move 3, threefold repetition 3"; got != want {
		t.Errorf("CountList %q, want %q", got, want)
	}
}

// The removals while placing are counted up to the first slide, and a game
// drawn when first known whose placing kept the draw is tallied by them:
// with a removal or none, and won or not by each engine; a game whose
// value changed while placing, or that was first known after it, is not.
func TestEGTBGamesPlacingKeptTheDraw(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	tables := newTableCache(dir)
	defer tables.close()
	rec := match.GameRecord{Game: 1, White: "A", Black: "B", Variant: "nine-mens-morris", Moves: []string{"a1", "b2", "a4", "b4", "a7", "xb2"}}
	a, err := analyseGame(tables, rec)
	if err != nil {
		t.Fatal(err)
	}
	if a.placingRemovals != 1 || a.firstChange != -1 || a.known {
		t.Errorf("a1 a4 a7 xb2: %d removals while placing, first change %d, known %v; want 1, -1, false", a.placingRemovals, a.firstChange, a.known)
	}
	sum := map[string]*gamesTally{}
	tally := func(n string) *gamesTally {
		if sum[n] == nil {
			sum[n] = &gamesTally{}
		}
		return sum[n]
	}
	kept := func(removals, firstChange, ply int) *gameAnalysis {
		return &gameAnalysis{known: true, ply: ply, placing: 18, start: wdl.Draw, engines: [2]string{"A", "B"}, firstChange: firstChange, placingRemovals: removals}
	}
	kept(2, -1, 4).count(match.GameRecord{Winner: "A"}, tally)  // open, A won
	kept(1, 40, 4).count(match.GameRecord{}, tally)             // open, an error once moving: still kept while placing
	kept(0, -1, 4).count(match.GameRecord{Winner: "B"}, tally)  // blocked, B won
	kept(0, 18, 4).count(match.GameRecord{Winner: "A"}, tally)  // the last placement changed the value: not kept
	kept(0, -1, 20).count(match.GameRecord{Winner: "A"}, tally) // first known after placing: not counted
	for n, want := range map[string][4]int{"A": {2, 1, 1, 0}, "B": {2, 0, 1, 1}} {
		s := sum[n]
		if got := [4]int{s.keptOpen, s.keptOpenWon, s.keptBlocked, s.keptBlockedWon}; got != want {
			t.Errorf("%s: open, won, blocked, won %v; want %v", n, got, want)
		}
	}
}

// A win the N-move rule's count cannot reach is a draw: the position of
// TestEGTBGamesAnalysis, White winning in one, with 99 plies already
// played without a removal is a draw for the report, so the game drawn by
// the rule gives no win away; with 98 the win stands.
func TestEGTBGamesWinBeyondTheRule(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	tables := newTableCache(dir)
	defer tables.close()
	rec := match.GameRecord{Game: 4, White: "A", Black: "B", Variant: "nine-mens-morris", Result: "1/2-1/2", Reason: "N-move rule",
		OpeningFEN: "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 99 1",
		Moves:      []string{"a7-b2"}}
	a, err := analyseGame(tables, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.line(rec), "game 4 A vs B 1/2-1/2 (N-move rule): placing ended at ply 0, White draw"; got != want {
		t.Fatalf("line %q\nwant %q", got, want)
	}
	sum := tallies(a, rec)
	if got := *sum["A"]; got != (gamesTally{games: 1, startDraw: 1, keptBlocked: 1}) { // drawn from its placing's end, no removal
		t.Errorf("A: %+v", got)
	}
	rec.OpeningFEN = "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 98 1"
	if a, err = analyseGame(tables, rec); err != nil {
		t.Fatal(err)
	}
	if a.start != wdl.Win {
		t.Errorf("98 plies without a removal: White %v, want win", a.start)
	}
}

// The placing tables hold no distance, so the N-move rule is read from the
// moving phase on: a placing win that is beyond the rule when placing ends
// (games 203–204 of the 400-game matches, "win 51 (dtz)") turns into a draw
// across the last placement, which seems to better its mover's value. That
// is said but charged to no action, and the game counts as drawn: the side
// that drew it gave no win away. An action that worsens its mover's value
// is charged to it. (No removal while placing here: a blocked draw kept.)
func TestEGTBGamesRuleReadAtPlacingsEnd(t *testing.T) {
	rec := match.GameRecord{Game: 204, White: "A", Black: "B", Variant: "nine-mens-morris", Result: "1/2-1/2", Reason: "N-move rule"}
	a := &gameAnalysis{engines: [2]string{"A", "B"}, known: true, ply: 4, placing: 19, first: wdl.Win, start: wdl.Win, firstChange: -1}
	a.change(19, position.Black, "e4", wdl.Win, wdl.Draw)
	if got, want := a.line(rec), "game 204 A vs B 1/2-1/2 (N-move rule): first in the tables at ply 4 (placing ended at ply 19), White win; ply 19: White win → draw by the N-move rule, read from here on"; got != want {
		t.Errorf("line %q\nwant %q", got, want)
	}
	sum := tallies(a, rec)
	if got := *sum["A"]; got != (gamesTally{games: 1, startDraw: 1, keptBlocked: 1}) {
		t.Errorf("A: %+v, want a drawn game and no win given away", got)
	}
	if got := *sum["B"]; got != (gamesTally{games: 1, startDraw: 1, keptBlocked: 1}) {
		t.Errorf("B: %+v, want a drawn game and no change", got)
	}
	// Black's next action loses the draw: its change.
	a.change(31, position.Black, "d6-d5", wdl.Draw, wdl.Win)
	if a.changed != [2]int{0, 1} || a.firstChange != 31 || a.start != wdl.Draw || a.changes[1] != "ply 31 black d6-d5: draw → loss" {
		t.Errorf("changed %v, first change %d, start %v, changes %q", a.changed, a.firstChange, a.start, a.changes)
	}
}

// tallies counts one game for its two engines.
func tallies(a *gameAnalysis, rec match.GameRecord) map[string]*gamesTally {
	sum := map[string]*gamesTally{}
	a.count(rec, func(n string) *gamesTally {
		if sum[n] == nil {
			sum[n] = &gamesTally{}
		}
		return sum[n]
	})
	return sum
}
