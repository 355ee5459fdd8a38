package position_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// expectResult checks the result of p and that a finished game has no actions.
func expectResult(t *testing.T, r *rules.Rules, p *position.Position, res position.Result, why position.Reason) {
	t.Helper()
	gotRes, gotWhy := p.Result()
	if gotRes != res || gotWhy != why {
		t.Fatalf("result %s (%s), want %s (%s); fen %s", gotRes, gotWhy, res, why, p.FEN())
	}
	if over := res != position.Ongoing; p.IsOver() != over || (p.Phase() == position.GameOver) != over {
		t.Fatalf("IsOver() = %t, phase %s for result %s", p.IsOver(), p.Phase(), res)
	}
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	if n := movegen.Count(r, p); n != ml.N {
		t.Fatalf("Count %d, Generate %d", n, ml.N)
	}
	if res != position.Ongoing && ml.N != 0 {
		t.Fatalf("a finished game has %d actions: %v", ml.N, ml.Slice())
	}
	if res == position.Ongoing && ml.N == 0 {
		t.Fatalf("an ongoing game has no action; fen %s", p.FEN())
	}
}

func TestFewerPieces(t *testing.T) {
	at4 := rules.Default()
	at4.PiecesAtLeastCount = 4
	tests := []struct {
		name   string
		r      rules.Rules
		white  string
		black  string
		fields string
		remove string
		res    position.Result
	}{
		// Black closed d5-e5-c5 and removes one of White's three pieces.
		{"three to two", rules.Default(), "a7 g1 b4", "d5 e5 c5 d3", " b m r 3 0 4 0 0 1 0 0 0 0 0 0 30", "xa7", position.BlackWins},
		// White removes one of Black's three pieces.
		{"white wins", rules.Default(), "a7 d7 g7 b4", "d5 g1 f2", " w m r 4 0 3 0 1 0 0 0 0 0 0 0 30", "xd5", position.WhiteWins},
		// PiecesAtLeastCount 4: three pieces already lose.
		{"at least four", at4, "a7 g1 b4 f2", "d5 e5 c5 d3", " b m r 4 0 4 0 0 1 0 0 0 0 0 0 30", "xa7", position.BlackWins},
		// Pieces in hand count: 2 on board and 1 in hand is still three.
		{"hand counts", rules.Default(), "a7 g1 b4", "d5 e5 c5 d3 f2 d1 a1 d2", " b p r 3 1 8 1 0 1 0 0 0 0 0 0 16", "xa7", position.Ongoing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			p := mustParse(t, &r, boardString(t, tc.white, tc.black)+tc.fields)
			expectResult(t, &r, &p, position.Ongoing, position.NoReason)
			play(t, &r, &p, tc.remove)
			why := position.FewerPieces
			if tc.res == position.Ongoing {
				why = position.NoReason
			}
			expectResult(t, &r, &p, tc.res, why)
		})
	}
}

// blockFEN returns a position with Black to move in which d2-d1 shuts in
// White's pieces on the outer corners (some of a7 g7 g1 a1).
func blockFEN(t *testing.T, white string, rule50 int) string {
	t.Helper()
	return fmt.Sprintf("%s b m s %d 0 4 0 0 0 0 0 0 0 0 %d 30",
		boardString(t, white, "d7 a4 g4 d2"), len(strings.Fields(white)), rule50)
}

func TestNoLegalMove(t *testing.T) {
	def := rules.Default()
	cheng := presetRules(t, "cheng-san-qi")
	draw := rules.Default()
	draw.StalemateAction = rules.StalemateDraw

	// Four pieces cannot fly: White is blocked and loses.
	p := mustParse(t, &def, blockFEN(t, "a7 g7 g1 a1", 0))
	play(t, &def, &p, "d2-d1")
	expectResult(t, &def, &p, position.BlackWins, position.NoLegalMove)
	if p.SideToMove() != position.White {
		t.Errorf("the blocked side is not the side to move")
	}

	// With StalemateAction 4 the same is a draw.
	p = mustParse(t, &draw, blockFEN(t, "a7 g7 g1 a1", 0))
	play(t, &draw, &p, "d2-d1")
	expectResult(t, &draw, &p, position.Draw, position.StalemateDraw)

	// Three pieces fly where flying is allowed …
	p = mustParse(t, &def, blockFEN(t, "a7 g7 g1", 0))
	play(t, &def, &p, "d2-d1")
	expectResult(t, &def, &p, position.Ongoing, position.NoReason)
	if n := movegen.Count(&def, &p); n != 3*(24-7) {
		t.Errorf("three flying pieces have %d moves, want %d", n, 3*17)
	}
	// … and are blocked where it is not (Cheng San Qi).
	p = mustParse(t, &cheng, blockFEN(t, "a7 g7 g1", 0))
	play(t, &cheng, &p, "d2-d1")
	expectResult(t, &cheng, &p, position.BlackWins, position.NoLegalMove)
}

// TestStalemateRemoveAndMove checks StalemateAction 2: the blocked side
// removes an enemy piece next to one of its own, mills not protecting it,
// and then moves.
func TestStalemateRemoveAndMove(t *testing.T) {
	r := rules.Default()
	r.StalemateAction = rules.StalemateRemoveAndMove
	// Every Black piece next to a White one may go, d7 too although it stands
	// in the mill d7-d6-d5; b6, d6 and d5, away from White, may not.
	p := mustParse(t, &r, boardString(t, "a7 g7 g1 a1", "d7 a4 g4 d2 b6 d6 d5")+" b m s 4 0 7 0 0 0 0 0 0 0 0 0 30")
	play(t, &r, &p, "d2-d1")
	expectResult(t, &r, &p, position.Ongoing, position.NoReason)
	if p.SideToMove() != position.White || p.Action() != position.Remove || !p.StalemateRemoving() {
		t.Fatalf("side %s action %s stalemate-removing %t", p.SideToMove(), p.Action(), p.StalemateRemoving())
	}
	if got, want := p.FEN(), "@*******/@******@/@O@O@O@O w m r 4 0 7 0 1 0 0 0 0 0 0 1 31 stalemate-removing"; got != want {
		t.Errorf("FEN\n got %q\nwant %q", got, want)
	}
	if got, want := moveTokens(&r, &p), "xd7 xg4 xd1 xa4"; got != want {
		t.Errorf("stalemate removals %q, want %q", got, want)
	}
	play(t, &r, &p, "xd7")
	if p.SideToMove() != position.White || p.Action() != position.Select || p.StalemateRemoving() {
		t.Fatalf("after the removal: side %s action %s", p.SideToMove(), p.Action())
	}
	play(t, &r, &p, "a7-d7")
	if p.SideToMove() != position.Black {
		t.Errorf("White's move did not pass the turn")
	}
}

// boardFullTokens places the no-mill colouring OO@@OOO@/@@@OO@@O/O@OO@@@O of
// the diagonal board alternately, White first.
func boardFullTokens() []string {
	white := strings.Fields("d5 e5 d3 c3 c4 f2 d2 b6 d7 g4 g1 a7")
	black := strings.Fields("e4 e3 c5 d6 f6 f4 b2 b4 g7 d1 a1 a4")
	var out []string
	for i := range white {
		out = append(out, white[i], black[i])
	}
	return out
}

func TestBoardFull(t *testing.T) {
	tokens := boardFullTokens()
	const full = "OO@@OOO@/@@@OO@@O/O@OO@@@O b o p 12 0 12 0 0 0 0 0 0 0 0 0 12"
	for _, tc := range []struct {
		action int
		res    position.Result
	}{
		{rules.BoardFullFirstLoses, position.BlackWins},
		{rules.BoardFullDraw, position.Draw},
	} {
		r := presetRules(t, "twelve-mens-morris")
		r.BoardFullAction = tc.action
		p := position.New(&r)
		play(t, &r, &p, strings.Join(tokens[:23], " "))
		expectResult(t, &r, &p, position.Ongoing, position.NoReason)
		if p.Action() != position.Place || p.SideToMove() != position.Black {
			t.Fatalf("before the last placement: %s", p.FEN())
		}
		play(t, &r, &p, tokens[23])
		expectResult(t, &r, &p, tc.res, position.BoardFull)
		if got := p.FEN(); got != full {
			t.Errorf("BoardFullAction %d: FEN\n got %q\nwant %q", tc.action, got, full)
		}
		q := mustParse(t, &r, full)
		if q.Key() != p.Key() {
			t.Errorf("parsed key %08x, played %08x", q.Key(), p.Key())
		}
		expectResult(t, &r, &q, tc.res, position.BoardFull)
	}

	// Zhi Qi (BoardFullAction 1): White removes, then Black, then White slides.
	r := presetRules(t, "zhi-qi")
	p := position.New(&r)
	play(t, &r, &p, strings.Join(tokens, " "))
	// Both hands are empty, so White's phase is already "moving".
	if got, want := p.FEN(), "OO@@OOO@/@@@OO@@O/O@OO@@@O w m r 12 0 12 0 1 1 0 0 0 0 0 0 13"; got != want {
		t.Errorf("zhi-qi after placing:\n got %q\nwant %q", got, want)
	}
	// A full board leaves White without a slide, and with StalemateAction 2
	// that makes the removal a stalemate removal: a Black piece next to a
	// White one, which excludes only a1 (d1, a4 and b2 are all Black).
	if got, want := moveTokens(&r, &p), "xe4 xe3 xc5 xd6 xf6 xf4 xb2 xb4 xg7 xd1 xa4"; got != want {
		t.Errorf("White's removals %q, want %q", got, want)
	}
	play(t, &r, &p, "xg7")
	if got, want := p.FEN(), "OO@@OOO@/@@@OO@@O/O*OO@@@O b m r 12 0 11 0 0 1 0 0 0 0 0 0 13"; got != want {
		t.Errorf("zhi-qi after White's removal:\n got %q\nwant %q", got, want)
	}
	play(t, &r, &p, "xd7")
	if got, want := p.FEN(), "OO@@OOO@/@@@OO@@O/**OO@@@O w m s 11 0 11 0 0 0 0 0 0 0 0 0 14"; got != want {
		t.Errorf("zhi-qi after both removals:\n got %q\nwant %q", got, want)
	}
	play(t, &r, &p, "g4-g7")
	expectResult(t, &r, &p, position.Ongoing, position.NoReason)
}

// TestThreefoldRepetition plays back and forth right after placing: the
// position after the last placement does not count, so the draw comes with
// the 9th slide (rules.md §3), not the 8th.
func TestThreefoldRepetition(t *testing.T) {
	const cycle = "g4-g7 d5-e5 g7-g4 e5-d5 "
	r := rules.Default()
	g := position.NewGame(r, position.New(&r))
	playGame(t, g, placingToDone)
	if len(g.RepetitionKeys()) != 0 {
		t.Fatalf("%d repetition keys after placing", len(g.RepetitionKeys()))
	}
	playGame(t, g, cycle+cycle)
	expectResult(t, &g.Rules, &g.Pos, position.Ongoing, position.NoReason)
	if len(g.RepetitionKeys()) != 8 {
		t.Errorf("%d repetition keys after 8 slides", len(g.RepetitionKeys()))
	}
	playGame(t, g, "g4-g7")
	expectResult(t, &g.Rules, &g.Pos, position.Draw, position.ThreefoldRepetition)
	if len(g.Moves) != 18+9 {
		t.Errorf("%d moves recorded", len(g.Moves))
	}
	if g.Pos.NMoveCounter() != 9 {
		t.Errorf("rule50 %d after 9 slides", g.Pos.NMoveCounter())
	}

	// Without the rule the game goes on.
	r.ThreefoldRepetitionRule = false
	g = position.NewGame(r, position.New(&r))
	playGame(t, g, placingToDone+" "+cycle+cycle+cycle+cycle)
	expectResult(t, &g.Rules, &g.Pos, position.Ongoing, position.NoReason)
}

// TestRepetitionResetByRemoval: positions before a removal do not count.
func TestRepetitionResetByRemoval(t *testing.T) {
	r := rules.Default()
	// g1-g4 and back, c3-c4 and back, until g4-g7 closes a7-d7-g7.
	start := mustParse(t, &r, boardString(t, "a7 d7 b4 g1", "d5 c3 f2 d1")+" w m s 4 0 4 0 0 0 0 0 0 0 0 0 20")
	g := position.NewGame(r, start)
	playGame(t, g, "g1-g4 c3-c4 g4-g1 c4-c3 g1-g4 c3-c4 g4-g7")
	if g.Pos.Action() != position.Remove || len(g.RepetitionKeys()) != 7 {
		t.Fatalf("after the mill: %s, %d keys", g.Pos.FEN(), len(g.RepetitionKeys()))
	}
	playGame(t, g, "xd5")
	if n := len(g.RepetitionKeys()); n != 0 || g.Pos.NMoveCounter() != 0 {
		t.Fatalf("after the removal %d keys, rule50 %d", n, g.Pos.NMoveCounter())
	}
	// After the removal a new back and forth needs nine slides to draw.
	const cycle = "f2-f4 b4-b6 f4-f2 b6-b4 "
	playGame(t, g, cycle+cycle)
	expectResult(t, &r, &g.Pos, position.Ongoing, position.NoReason)
	playGame(t, g, "f2-f4")
	expectResult(t, &r, &g.Pos, position.Draw, position.ThreefoldRepetition)
}

func TestNMoveRule(t *testing.T) {
	r := rules.Default()
	// 98 plies without removal: the 99th slide is fine, the 100th draws.
	g := position.NewGame(r, mustParse(t, &r, strings.Replace(fenPlacedDone, " 0 0 10", " 0 98 10", 1)))
	playGame(t, g, "g4-g7")
	expectResult(t, &r, &g.Pos, position.Ongoing, position.NoReason)
	playGame(t, g, "d5-e5")
	expectResult(t, &r, &g.Pos, position.Draw, position.NMoveRule)
	if g.Pos.NMoveCounter() != 100 {
		t.Errorf("rule50 %d", g.Pos.NMoveCounter())
	}

	// The 100th slide draws even if it closes a mill.
	millFEN := boardString(t, "a7 d7 g4 b4", "d5 e5 f2 b2") + " w m s 4 0 4 0 0 0 0 0 0 0 0 99 60"
	g = position.NewGame(r, mustParse(t, &r, millFEN))
	playGame(t, g, "g4-g7")
	if res, why := g.Pos.Result(); res != position.Draw || why != position.NMoveRule {
		t.Errorf("mill on the 100th slide: %s (%s)", res, why)
	}
	if g.Pos.PendingRemovals(position.White) != 1 {
		t.Errorf("the mill was not counted: %s", g.Pos.FEN())
	}

	// A block on the 100th slide wins for the blocker.
	g = position.NewGame(r, mustParse(t, &r, blockFEN(t, "a7 g7 g1 a1", 99)))
	playGame(t, g, "d2-d1")
	expectResult(t, &r, &g.Pos, position.BlackWins, position.NoLegalMove)

	// A smaller N.
	r.NMoveRule = 10
	g = position.NewGame(r, mustParse(t, &r, fenPlacedDone))
	playGame(t, g, "g4-g7 d5-e5 d6-d5 f6-d6 g7-d7 f4-g4 f2-f4 g4-g7 d1-g1")
	expectResult(t, &r, &g.Pos, position.Ongoing, position.NoReason)
	playGame(t, g, "a1-d1")
	expectResult(t, &r, &g.Pos, position.Draw, position.NMoveRule)
}

func TestEndgameNMoveRule(t *testing.T) {
	r := rules.Default()
	r.EndgameNMoveRule = 10
	three := boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + " w m s 3 0 4 0 0 0 0 0 0 0 0 8 40"
	four := boardString(t, "a7 d7 b4 b2", "d5 e5 f2 d1") + " w m s 4 0 4 0 0 0 0 0 0 0 0 8 40"

	g := position.NewGame(r, mustParse(t, &r, three))
	playGame(t, g, "b4-g4")
	expectResult(t, &r, &g.Pos, position.Ongoing, position.NoReason)
	playGame(t, g, "f2-f4")
	expectResult(t, &r, &g.Pos, position.Draw, position.EndgameNMoveRule)

	// Neither side has three pieces: the endgame rule does not apply.
	g = position.NewGame(r, mustParse(t, &r, four))
	playGame(t, g, "b4-c4 f2-f4")
	expectResult(t, &r, &g.Pos, position.Ongoing, position.NoReason)

	// The endgame rule is used only when it is smaller than NMoveRule.
	r.EndgameNMoveRule, r.NMoveRule = 10, 10
	g = position.NewGame(r, mustParse(t, &r, three))
	playGame(t, g, "b4-g4 f2-f4")
	expectResult(t, &r, &g.Pos, position.Draw, position.NMoveRule)
}

func TestDrawByRule(t *testing.T) {
	r := rules.Default()
	p := mustParse(t, &r, fenPlacedDone)
	k := p.Key()
	tests := []struct {
		keys  []uint32
		rule  bool
		res   position.Result
		why   position.Reason
		descr string
	}{
		{nil, true, position.Ongoing, position.NoReason, "no keys"},
		{[]uint32{k, 1, k}, true, position.Ongoing, position.NoReason, "twice"},
		{[]uint32{k, 1, k, 2, k}, true, position.Draw, position.ThreefoldRepetition, "three times"},
		{[]uint32{k, k, 1}, true, position.Ongoing, position.NoReason, "the current key is the last"},
		{[]uint32{k, 1, k, 2, k}, false, position.Ongoing, position.NoReason, "rule off"},
	}
	for _, tc := range tests {
		rr := r
		rr.ThreefoldRepetitionRule = tc.rule
		res, why := position.DrawByRule(&rr, &p, tc.keys)
		if res != tc.res || why != tc.why {
			t.Errorf("%s: %s (%s)", tc.descr, res, why)
		}
	}
}

func TestGameClone(t *testing.T) {
	r := rules.Default()
	g := position.NewGame(r, position.New(&r))
	playGame(t, g, placingToDone+" g4-g7")
	c := g.Clone()
	playGame(t, c, "d5-e5 g7-g4")
	if len(g.Moves) != 19 || len(g.RepetitionKeys()) != 1 || g.Pos.FEN() == c.Pos.FEN() {
		t.Errorf("the clone shares state: %d moves, %d keys", len(g.Moves), len(g.RepetitionKeys()))
	}
	if len(c.Moves) != 21 || len(c.RepetitionKeys()) != 3 {
		t.Errorf("clone: %d moves, %d keys", len(c.Moves), len(c.RepetitionKeys()))
	}
	if g.Start != position.New(&r) {
		t.Error("Start changed")
	}
}

// moveTokens lists the legal actions of p in generation order.
func moveTokens(r *rules.Rules, p *position.Position) string {
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	toks := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		toks = append(toks, m.String())
	}
	return strings.Join(toks, " ")
}

// TestBlockedAfterLateMillPlacement is the regression test for a position
// found by TestRandomPlayRandomRules: with MillFormationActionInPlacingPhase 5
// and MayMoveInPlacingPhase, White's placement e3 closes a mill (no removal
// while placing) and hands the turn to Black, who has placed all its pieces
// and is shut in. The stalemate rule must apply at once; it used to be
// skipped, leaving Black to move with no action at all.
func TestBlockedAfterLateMillPlacement(t *testing.T) {
	const moves = "d6 b2 a1 b6 d1 f2 d3 g7 e4 f2-e3 g4 c4 d3-d2 c3 f4 d7 d6-d5 f2 e5 b4 d5-c5 e3-d3 a7 d6 a4 f6 d1-g1 d5 e3"
	for _, tc := range []struct {
		stalemate int
		fen       string
		res       position.Result
		why       position.Reason
	}{
		{rules.StalemateRemoveAndPass, "@OOO@@@O/@@O@O@@@/@@OO*OOO b m r 11 1 12 0 0 1 0 0 0 0 16430272733748855040 0 15", position.Ongoing, position.NoReason},
		{rules.StalemateLose, "@OOO@@@O/@@O@O@@@/@@OO*OOO b o s 11 1 12 0 0 0 0 0 0 0 16430272733748855040 0 15", position.WhiteWins, position.NoLegalMove},
	} {
		r := rules.Default()
		for _, o := range []string{"BoardFullAction=3", "EndgameNMoveRule=36", "HasDiagonalLines=true",
			"IsDefenderMoveFirst=true", "MayFly=false", "MayMoveInPlacingPhase=true",
			"MillFormationActionInPlacingPhase=5", "NMoveRule=116", "OneTimeUseMill=true", "PiecesAtLeastCount=4",
			"PiecesCount=12", "StopPlacingWhenTwoEmptySquares=true", "ThreefoldRepetitionRule=false"} {
			name, value, _ := strings.Cut(o, "=")
			p, ok := rules.Lookup(name)
			if !ok || p.Set(&r, value) != nil {
				t.Fatalf("option %s", o)
			}
		}
		r.StalemateAction = tc.stalemate
		p := position.New(&r)
		play(t, &r, &p, moves)
		if got := p.FEN(); got != tc.fen {
			t.Errorf("StalemateAction %d:\n got %q\nwant %q", tc.stalemate, got, tc.fen)
		}
		expectResult(t, &r, &p, tc.res, tc.why)
	}
}

// TestFewerPiecesFromHand: a side can fall below PiecesAtLeastCount without a
// removal from the board, when its hand shrinks. Found by
// TestRandomPlayRandomRules (StopPlacingWhenTwoEmptySquares took Black from
// 5 to 3 pieces and the game went on); the check used to be made only in
// removals from the board.
func TestFewerPiecesFromHand(t *testing.T) {
	set := func(t *testing.T, r *rules.Rules, opts ...string) {
		t.Helper()
		for _, o := range opts {
			name, value, _ := strings.Cut(o, "=")
			p, ok := rules.Lookup(name)
			if !ok || p.Set(r, value) != nil {
				t.Fatalf("option %s", o)
			}
		}
	}

	// MillFormationActionInPlacingPhase 1: White's mill takes one of Black's
	// five pieces from the hand; four is fewer than five.
	r := rules.Default()
	set(t, &r, "MillFormationActionInPlacingPhase=1", "PiecesAtLeastCount=5")
	p := mustParse(t, &r, boardString(t, "d7 g7", "b4 f4")+" w p p 2 5 2 3 0 0 0 0 0 0 0 0 8")
	play(t, &r, &p, "a7")
	expectResult(t, &r, &p, position.WhiteWins, position.FewerPieces)
	if p.InHand(position.Black) != 2 {
		t.Errorf("Black has %d in hand", p.InHand(position.Black))
	}

	// StopPlacingWhenTwoEmptySquares empties Black's hand (marked points are
	// not empty), leaving Black with 3 pieces where 5 are needed.
	r = rules.Default()
	set(t, &r, "BoardFullAction=1", "EndgameNMoveRule=123", "HasDiagonalLines=true", "MayMoveInPlacingPhase=true",
		"MillFormationActionInPlacingPhase=4", "NMoveRule=128", "PiecesAtLeastCount=5", "PiecesCount=12",
		"RestrictRepeatedMillsFormation=true", "StalemateAction=2", "StopPlacingWhenTwoEmptySquares=true")
	p = position.New(&r)
	play(t, &r, &p, "c4 e5 d5 f4 c5 e5-e4 d6 e3 c3 xe3 g1 f6 b2 d7 xe4 d3 d7-a7 f4-f2 d5-e5 b2-a1 d2 g1-g4 "+
		"f6-g7 a1-d1 d6-d7 xf2 b6 c3-b2 b6-b4 a7-b6 d6 d7-a7 xd6 a4 c3 xd1 a4-a1 d5 xb4 a1-a4 f6 xg4 a4-a1 f6-f4 f6")
	expectResult(t, &r, &p, position.Ongoing, position.NoReason)
	play(t, &r, &p, "g1")
	expectResult(t, &r, &p, position.WhiteWins, position.FewerPieces)
	if p.OnBoard(position.Black) != 3 || p.InHand(position.Black) != 0 {
		t.Errorf("Black has %d on board and %d in hand", p.OnBoard(position.Black), p.InHand(position.Black))
	}
}

// TestCanFly pins the one home of the flying rule: no pieces in hand, at most
// FlyPieceCount on the board, and MayFly.
func TestCanFly(t *testing.T) {
	r := rules.Default()
	tests := []struct {
		fen        string
		mayFly     bool
		flyCount   int
		white, blk bool
	}{
		{boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + " w m s 3 0 4 0 0 0 0 0 0 0 0 0 40", true, 3, true, false},
		{boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + " w m s 3 0 4 0 0 0 0 0 0 0 0 0 40", false, 3, false, false},
		{boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + " w m s 3 0 4 0 0 0 0 0 0 0 0 0 40", true, 4, true, true},
		// Three on the board but one still in hand: placing, not flying.
		{boardString(t, "a7 d7 b4", "d5 e5 f2") + " w p p 3 1 3 1 0 0 0 0 0 0 0 0 8", true, 3, false, false},
	}
	for _, tc := range tests {
		rr := r
		rr.MayFly, rr.FlyPieceCount = tc.mayFly, tc.flyCount
		p := mustParse(t, &rr, tc.fen)
		if got := p.CanFly(&rr, position.White); got != tc.white {
			t.Errorf("%s MayFly %t fly %d: white CanFly %t", tc.fen, tc.mayFly, tc.flyCount, got)
		}
		if got := p.CanFly(&rr, position.Black); got != tc.blk {
			t.Errorf("%s MayFly %t fly %d: black CanFly %t", tc.fen, tc.mayFly, tc.flyCount, got)
		}
	}
}

// TestNMoveDraw pins the N-move rules of a single position.
func TestNMoveDraw(t *testing.T) {
	three := func(n int) string {
		return boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + fmt.Sprintf(" w m s 3 0 4 0 0 0 0 0 0 0 0 %d 40", n)
	}
	four := boardString(t, "a7 d7 b4 b2", "d5 e5 f2 d1") + " w m s 4 0 4 0 0 0 0 0 0 0 0 30 40"
	tests := []struct {
		fen      string
		n, endgN int
		want     position.Reason
	}{
		{three(29), 100, 30, position.NoReason},
		{three(30), 100, 30, position.EndgameNMoveRule},
		{four, 100, 30, position.NoReason},
		{three(30), 30, 30, position.NMoveRule},
		{three(99), 100, 100, position.NoReason},
		{three(100), 100, 100, position.NMoveRule},
	}
	for _, tc := range tests {
		r := rules.Default()
		r.NMoveRule, r.EndgameNMoveRule = tc.n, tc.endgN
		p := mustParse(t, &r, tc.fen)
		if got := p.NMoveDraw(&r); got != tc.want {
			t.Errorf("%s N %d endgame %d: %s, want %s", tc.fen, tc.n, tc.endgN, got, tc.want)
		}
	}
}
