package position_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// The four example position strings of rules.md §5.
const (
	fenStart      = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
	fenAfterA7G7  = "********/**@***@*/OO*****O w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"
	fenPlacedDone = "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"
	fenBlackRm    = "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11"
)

// placingToDone places the pieces of fenPlacedDone alternately, White first;
// the final board has no mill, so none is formed on the way.
const placingToDone = "e4 d5 c3 e3 c4 d3 d6 f6 f2 f4 d2 b2 b6 b4 g4 a1 d1 a4"

func TestSpecFENsRoundTrip(t *testing.T) {
	r := rules.Default()
	for _, fen := range []string{fenStart, fenAfterA7G7, fenPlacedDone, fenBlackRm} {
		p := mustParse(t, &r, fen)
		if got := p.FEN(); got != fen {
			t.Errorf("ParseFEN(%q).FEN() = %q", fen, got)
		}
		if p.Key() != p.ComputeKey() {
			t.Errorf("%s: key %08x, from scratch %08x", fen, p.Key(), p.ComputeKey())
		}
		if p.IsOver() {
			t.Errorf("%s: parsed as game over", fen)
		}
	}
}

func TestSpecFENsFields(t *testing.T) {
	r := rules.Default()
	tests := []struct {
		fen            string
		side           position.Color
		phase          position.Phase
		action         position.Action
		on, hand, pend [2]int
		nMoves, ply    int
	}{
		{fenStart, position.White, position.Placing, position.Place, [2]int{0, 0}, [2]int{9, 9}, [2]int{0, 0}, 0, 0},
		{fenAfterA7G7, position.White, position.Placing, position.Remove, [2]int{3, 2}, [2]int{6, 7}, [2]int{1, 0}, 0, 4},
		{fenPlacedDone, position.White, position.Moving, position.Select, [2]int{9, 9}, [2]int{0, 0}, [2]int{0, 0}, 0, 18},
		{fenBlackRm, position.Black, position.Moving, position.Remove, [2]int{9, 9}, [2]int{0, 0}, [2]int{0, 1}, 4, 21},
	}
	for _, tc := range tests {
		p := mustParse(t, &r, tc.fen)
		if p.SideToMove() != tc.side || p.Phase() != tc.phase || p.Action() != tc.action {
			t.Errorf("%s: side %s phase %s action %s", tc.fen, p.SideToMove(), p.Phase(), p.Action())
		}
		for c := position.White; c <= position.Black; c++ {
			if p.OnBoard(c) != tc.on[c] || p.InHand(c) != tc.hand[c] || p.PendingRemovals(c) != tc.pend[c] {
				t.Errorf("%s: %s on %d hand %d pending %d", tc.fen, c, p.OnBoard(c), p.InHand(c), p.PendingRemovals(c))
			}
		}
		// Ply counts every action; a parsed position derives it from the
		// fullmove number and the side to move.
		if p.NMoveCounter() != tc.nMoves || p.Ply() != tc.ply {
			t.Errorf("%s: N-move counter %d ply %d, want %d %d", tc.fen, p.NMoveCounter(), p.Ply(), tc.nMoves, tc.ply)
		}
	}
}

func TestFENsProducedByPlay(t *testing.T) {
	r := rules.Default()
	p := position.New(&r)
	if got := p.FEN(); got != fenStart || position.StartFEN != fenStart {
		t.Errorf("start FEN %q", got)
	}
	start := mustParse(t, &r, fenStart)
	if start != p {
		t.Errorf("ParseFEN(start) differs from New: %+v vs %+v", start, p)
	}

	play(t, &r, &p, "a7 b4 d7 f4 g7")
	if got := p.FEN(); got != fenAfterA7G7 {
		t.Errorf("after a7 b4 d7 f4 g7:\n got %q\nwant %q", got, fenAfterA7G7)
	}
	// The fullmove number does not say whether 4 or 5 actions were played, so
	// the parsed position differs from the played one in Ply only.
	q := mustParse(t, &r, fenAfterA7G7)
	if p.Ply() != 5 || q.Ply() != 4 || q.Key() != p.Key() || q.FEN() != p.FEN() || q.Action() != p.Action() {
		t.Errorf("parsed %+v\n played %+v", q, p)
	}

	p = position.New(&r)
	play(t, &r, &p, placingToDone)
	if got := p.FEN(); got != fenPlacedDone {
		t.Errorf("after placing:\n got %q\nwant %q", got, fenPlacedDone)
	}
	if q := mustParse(t, &r, fenPlacedDone); q != p {
		t.Errorf("parsed %+v\n played %+v", q, p)
	}

	// A removal resets the N-move counter and counts as a ply; White's mill is followed by
	// White's removal, then Black places.
	p = position.New(&r)
	play(t, &r, &p, "a7 b4 d7 f4 g7 xb4")
	if got, want := p.FEN(), "********/**@*****/OO*****O b p p 3 6 1 7 0 0 0 0 0 0 0 0 3"; got != want {
		t.Errorf("after xb4:\n got %q\nwant %q", got, want)
	}
}

// TestIDsDialect checks that the ids:nodes dialect (squares 0–23, -1 for none)
// reads to the same position as Sanmill's numbering, and that FEN() writes
// Sanmill's numbering.
func TestIDsDialect(t *testing.T) {
	def := rules.Default()
	restrict := rules.Default()
	restrict.RestrictRepeatedMillsFormation = true
	russian := presetRules(t, "russian-mill")
	tests := []struct {
		r        *rules.Rules
		sanmill  string
		ids      string
		check    func(*testing.T, position.Position)
		describe string
	}{
		{&def, fenStart, "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes", nil, "start"},
		{&def, fenAfterA7G7, "********/**@***@*/OO*****O w p r 3 6 2 7 1 0 -1 -1 -1 -1 0 0 3 ids:nodes", nil, "after a7 g7"},
		{&def, fenPlacedDone, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 -1 -1 -1 -1 0 0 10 ids:nodes", nil, "placed"},
		{&def, fenBlackRm, "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 -1 -1 -1 -1 0 4 11 ids:nodes", nil, "black removes"},
		{
			&restrict,
			"@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 18 26 8 15 0 3 12",
			"@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 10 18 0 7 0 3 12 ids:nodes",
			func(t *testing.T, p position.Position) {
				if f, to := p.LastMill(position.White); f.String() != "f4" || to.String() != "g4" {
					t.Errorf("white last mill %s-%s, want f4-g4", f, to)
				}
				if f, to := p.LastMill(position.Black); f.String() != "d5" || to.String() != "c5" {
					t.Errorf("black last mill %s-%s, want d5-c5", f, to)
				}
			},
			"last mill squares",
		},
		{
			&russian,
			"@@*****@/O*******/OO*****O w m s 4 0 3 0 0 0 0 0 0 0 9439544818968593152 5 30",
			"@@*****@/O*******/OO*****O w m s 4 0 3 0 0 0 -1 -1 -1 -1 36873221949096067 5 30 ids:nodes",
			func(t *testing.T, p position.Position) {
				w := bb.Bit(23) | bb.Bit(16) | bb.Bit(17) // a7 d7 g7
				b := bb.Bit(7) | bb.Bit(0) | bb.Bit(1)    // c5 d5 e5
				if p.FormedMills(position.White) != w || p.FormedMills(position.Black) != b {
					t.Errorf("formed mills %#x %#x", p.FormedMills(position.White), p.FormedMills(position.Black))
				}
			},
			"used mills",
		},
	}
	for _, tc := range tests {
		a := mustParse(t, tc.r, tc.sanmill)
		b := mustParse(t, tc.r, tc.ids)
		if a != b {
			t.Errorf("%s: the dialects differ:\n%+v\n%+v", tc.describe, a, b)
		}
		if got := b.FEN(); got != tc.sanmill {
			t.Errorf("%s: FEN() of the ids dialect = %q, want %q", tc.describe, got, tc.sanmill)
		}
		if a.Key() != b.Key() || a.Key() != a.ComputeKey() {
			t.Errorf("%s: keys %08x %08x", tc.describe, a.Key(), b.Key())
		}
		if tc.check != nil {
			tc.check(t, a)
			tc.check(t, b)
		}
	}
}

// TestValidFENsRoundTrip covers the rarer fields: marked points, negative
// removals, the stalemate extension, the ready phase letter, game over.
func TestValidFENsRoundTrip(t *testing.T) {
	tests := []struct {
		variant, in, out string
	}{
		// The ready phase reads as placing.
		{"nine-mens-morris", "********/********/******** w r p 0 9 0 9 0 0 0 0 0 0 0 0 1", fenStart},
		// Extra white space is fine.
		{"nine-mens-morris", "  ********/********/********   w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\n", fenStart},
		{"da-san-qi", "X*******/O*O*****/@@****** b p p 2 10 2 9 0 0 0 0 0 0 0 0 3", ""},
		{"el-filja", "OO@@OO@@/OO@@OO@@/OO@@OO@@ w p r 12 0 12 0 -1 -1 0 0 0 0 0 0 13", ""},
		{"zhi-qi", "OOO@@@O@/@@O@OO@O/@@@O@OOO w m r 12 0 12 0 1 0 0 0 0 0 0 0 21 stalemate-removing", ""},
		// A game that is over keeps its fields.
		{"nine-mens-morris", "O*O*****/@@@*****/O******* w o r 3 0 3 0 1 0 0 0 0 0 0 100 40", ""},
	}
	for _, tc := range tests {
		r := presetRules(t, tc.variant)
		p := mustParse(t, &r, tc.in)
		want := tc.out
		if want == "" {
			want = tc.in
		}
		if got := p.FEN(); got != want {
			t.Errorf("%s %q:\n got %q\nwant %q", tc.variant, tc.in, got, want)
		}
		if p.Key() != p.ComputeKey() {
			t.Errorf("%s %q: key mismatch", tc.variant, tc.in)
		}
	}
}

func TestParsedGameOverResult(t *testing.T) {
	tests := []struct {
		variant, fen string
		res          position.Result
		why          position.Reason
	}{
		// White has 2 pieces: Black has won.
		{"nine-mens-morris", "O*O*****/@@@*****/@******* w m s 2 0 4 0 0 0 0 0 0 0 0 0 40", position.BlackWins, position.FewerPieces},
		{"nine-mens-morris", "O*O*****/@@@*****/@******* w o s 2 0 4 0 0 0 0 0 0 0 0 0 40", position.BlackWins, position.FewerPieces},
		// White to move, blocked on a7 g7 g1 a1 by d7 a4 g4 d1.
		{"nine-mens-morris", boardString(t, "a7 g7 g1 a1", "d7 a4 g4 d1") + " w m s 4 0 4 0 0 0 0 0 0 0 0 1 30", position.BlackWins, position.NoLegalMove},
		{"nine-mens-morris", boardString(t, "a7 g7 g1 a1", "d7 a4 g4 d1") + " w o s 4 0 4 0 0 0 0 0 0 0 0 1 30", position.BlackWins, position.NoLegalMove},
		// The same with StalemateAction 4.
		{"draw-on-stalemate", boardString(t, "a7 g7 g1 a1", "d7 a4 g4 d1") + " w m s 4 0 4 0 0 0 0 0 0 0 0 1 30", position.Draw, position.StalemateDraw},
		{"nine-mens-morris", boardString(t, "a7 d7 b6 d6", "g1 d1 f2 d2") + " w o s 4 0 4 0 0 0 0 0 0 0 0 100 70", position.Draw, position.NMoveRule},
		{"twelve-mens-morris", "OO@@OOO@/@@@OO@@O/O@OO@@@O b o p 12 0 12 0 0 0 0 0 0 0 0 0 12", position.BlackWins, position.BoardFull},
		{"board-full-draw", "OO@@OOO@/@@@OO@@O/O@OO@@@O b o p 12 0 12 0 0 0 0 0 0 0 0 0 12", position.Draw, position.BoardFull},
	}
	for _, tc := range tests {
		var r rules.Rules
		switch tc.variant {
		case "draw-on-stalemate":
			r = rules.Default()
			r.StalemateAction = rules.StalemateDraw
		case "board-full-draw":
			r = presetRules(t, "twelve-mens-morris")
			r.BoardFullAction = rules.BoardFullDraw
		default:
			r = presetRules(t, tc.variant)
		}
		p, err := position.ParseFEN(&r, tc.fen)
		if err != nil {
			t.Errorf("%s %q: %v", tc.variant, tc.fen, err)
			continue
		}
		if !p.IsOver() || p.Phase() != position.GameOver {
			t.Errorf("%s %q: not over", tc.variant, tc.fen)
			continue
		}
		if res, why := p.Result(); res != tc.res || why != tc.why {
			t.Errorf("%s %q: %s (%s), want %s (%s)", tc.variant, tc.fen, res, why, tc.res, tc.why)
		}
	}
}

// TestInconsistentFENs checks that each broken string is rejected with an
// error that names the field at fault.
func TestInconsistentFENs(t *testing.T) {
	def := rules.Default()
	restrict := rules.Default()
	restrict.RestrictRepeatedMillsFormation = true
	russian := presetRules(t, "russian-mill")
	twelve := presetRules(t, "twelve-mens-morris")
	zhi := presetRules(t, "zhi-qi")
	// field replaces field n (1-based) of a valid FEN.
	field := func(fen string, n int, v string) string {
		f := strings.Fields(fen)
		f[n-1] = v
		return strings.Join(f, " ")
	}
	tenWhite := boardString(t, "d5 e5 e4 e3 d3 d6 f6 f4 f2 d2", "a7") + " b m s 10 0 1 0 0 0 0 0 0 0 0 0 20"
	morabaraba := presetRules(t, "morabaraba")
	endgame30 := rules.Default()
	endgame30.EndgameNMoveRule = 30
	threeWhite := func(n int) string {
		return boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + fmt.Sprintf(" w m s 3 0 4 0 0 0 0 0 0 0 0 %d 40", n)
	}
	tests := []struct {
		r      *rules.Rules
		fen    string
		prefix string // the error starts with this
		detail string // and contains this
	}{
		{&def, "", "fen: empty position string", ""},
		{&def, " \t ", "fen: empty position string", ""},
		{&def, "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0", "fen field 17 (fullmove) is missing", "got 16"},
		{&def, "********/********/********", "fen field 2 (side to move) is missing", "got 1"},
		{&def, "********/********/******** w p", "fen field 4 (action) is missing", "got 3"},
		{&def, fenStart + " extra", "fen: unknown extension token \"extra\"", ""},
		{&def, fenStart + " ids:nodes extra", "fen: unknown extension token \"extra\"", ""},
		// 1. board
		{&def, field(fenStart, 1, "********/********"), "fen field 1 (board)", "got 2"},
		{&def, field(fenStart, 1, "********/********/********/********"), "fen field 1 (board)", "got 4"},
		{&def, field(fenStart, 1, "********/*******/********"), "fen field 1 (board)", "ring 2 has 7 points"},
		{&def, field(fenStart, 1, "*********/********/********"), "fen field 1 (board)", "ring 1 has 9 points"},
		{&def, field(fenPlacedDone, 1, "@*o@@OO*/O@@OO@@O/**O*O@@*"), "fen field 1 (board)", "unknown character 'o' at e4"},
		{&def, field(fenStart, 1, "********/********/*******."), "fen field 1 (board)", "unknown character '.' at a7"},
		{&def, field(fenStart, 1, "X*******/********/********"), "fen field 1 (board)", "MillFormationActionInPlacingPhase 4"},
		// 2–4. letters
		{&def, field(fenStart, 2, "x"), "fen field 2 (side to move) \"x\"", "want w or b"},
		{&def, field(fenStart, 2, "W"), "fen field 2 (side to move) \"W\"", "want w or b"},
		{&def, field(fenStart, 3, "q"), "fen field 3 (phase) \"q\"", "want r, p, m or o"},
		{&def, field(fenStart, 3, "P"), "fen field 3 (phase) \"P\"", "want r, p, m or o"},
		{&def, field(fenStart, 4, "m"), "fen field 4 (action) \"m\"", "want p, s or r"},
		{&def, field(fenStart, 4, "place"), "fen field 4 (action) \"place\"", "want p, s or r"},
		// 5–8. counts that do not match the board, or more than PiecesCount pieces
		{&def, field(fenPlacedDone, 5, "8"), "fen field 5 (white on board) \"8\"", "the board has 9 white pieces"},
		{&def, field(fenPlacedDone, 7, "10"), "fen field 7 (black on board) \"10\"", "the board has 9 black pieces"},
		{&def, field(fenStart, 5, "zero"), "fen field 5 (white on board) \"zero\"", "not an integer"},
		{&def, field(fenStart, 6, "x"), "fen field 6 (white in hand) \"x\"", "not an integer"},
		{&def, field(fenStart, 6, "-1"), "fen field 6 (white in hand) \"-1\"", "out of range 0..9"},
		{&def, field(fenStart, 6, "10"), "fen field 6 (white in hand) \"10\"", "out of range 0..9"},
		{&def, field(fenStart, 8, "10"), "fen field 8 (black in hand) \"10\"", "out of range 0..9"},
		{&twelve, field(fenStart, 8, "13"), "fen field 8 (black in hand) \"13\"", "out of range 0..12"},
		{&def, field(fenAfterA7G7, 6, "7"), "fen field 6 (white in hand) \"7\"", "3 on board and 7 in hand exceed PiecesCount 9"},
		{&def, field(fenAfterA7G7, 8, "8"), "fen field 8 (black in hand) \"8\"", "2 on board and 8 in hand exceed PiecesCount 9"},
		{&def, tenWhite, "fen field 6 (white in hand) \"0\"", "10 on board and 0 in hand exceed PiecesCount 9"},
		// 9–10. removals
		{&def, field(fenStart, 9, "one"), "fen field 9 (white removals) \"one\"", "not an integer"},
		{&def, field(fenAfterA7G7, 9, "10"), "fen field 9 (white removals) \"10\"", "out of range -9..9"},
		{&def, field(fenAfterA7G7, 9, "-1"), "fen field 9 (white removals) \"-1\"", "negative removals exist only with MillFormationActionInPlacingPhase 5"},
		{&def, field(fenPlacedDone, 10, "1"), "fen field 10 (black removals) \"1\"", "a removal is pending for the side not to move"},
		{&def, field(fenBlackRm, 9, "1"), "fen field 9 (white removals) \"1\"", "a removal is pending for the side not to move"},
		// More removals than the rules can give at once, or with nothing to remove.
		{&def, field(fenAfterA7G7, 9, "3"), "fen field 9 (white removals) \"3\"", "3 removals pending; the rules allow at most 1"},
		{&def, field(fenAfterA7G7, 9, "5"), "fen field 9 (white removals) \"5\"", "5 removals pending; the rules allow at most 1"},
		{&morabaraba, field(fenAfterA7G7, 9, "5"), "fen field 9 (white removals) \"5\"", "5 removals pending; the rules allow at most 3"},
		{&def, "********/********/******** w p r 0 9 0 9 1 0 0 0 0 0 0 0 1", "fen field 9 (white removals) \"1\"", "a removal is pending but black has no piece on the board"},
		// Action and phase against the counts.
		{&def, field(fenPlacedDone, 4, "r"), "fen field 4 (action) \"r\"", "the side to move has no removal pending"},
		{&def, field(fenAfterA7G7, 4, "p"), "fen field 4 (action) \"p\"", "a removal is pending, the action must be r"},
		{&def, field(fenBlackRm, 4, "s"), "fen field 4 (action) \"s\"", "a removal is pending, the action must be r"},
		{&def, field(field(fenStart, 3, "m"), 4, "p"), "fen field 4 (action) \"p\"", "placing needs phase p and pieces in hand"},
		{&def, field(fenPlacedDone, 4, "p"), "fen field 4 (action) \"p\"", "placing needs phase p and pieces in hand"},
		{&def, field(fenPlacedDone, 3, "p"), "fen field 4 (action) \"s\"", "action s needs phase m"},
		{&def, field(fenAfterA7G7, 3, "m"), "fen field 3 (phase) \"m\"", "the side to move has pieces in hand, the phase is p"},
		// 11–14. last mill squares
		{&def, field(fenStart, 11, "a7"), "fen field 11 (white mill from) \"a7\"", "not an integer"},
		{&restrict, field(field(fenStart, 11, "5"), 12, "8"), "fen field 11 (white mill from) \"5\"", "want 0 (none) or a square number 8..31"},
		{&restrict, field(field(fenStart, 13, "8"), 14, "32"), "fen field 14 (black mill to) \"32\"", "want 0 (none) or a square number 8..31"},
		{&restrict, field(fenStart, 12, "8"), "fen field 12 (white mill to) \"8\"", "both an origin and a destination, or neither"},
		{&restrict, field(fenStart, 13, "8"), "fen field 14 (black mill to) \"0\"", "both an origin and a destination, or neither"},
		{&def, field(field(fenStart, 11, "16"), 12, "8"), "fen field 11 (white mill from) \"16\"", "only with RestrictRepeatedMillsFormation"},
		{&def, field(field(fenStart, 13, "16"), 14, "8"), "fen field 13 (black mill from) \"16\"", "only with RestrictRepeatedMillsFormation"},
		{&restrict, field(field(fenStart, 11, "24"), 12, "0") + " ids:nodes", "fen field 11 (white mill from) \"24\"", "want -1 (none) or a square number 0..23"},
		// In the ids dialect 0 is d5, not "none".
		{&def, fenStart + " ids:nodes", "fen field 11 (white mill from) \"0\"", "only with RestrictRepeatedMillsFormation"},
		// 15. used mills
		{&russian, field(fenStart, 15, "x"), "fen field 15 (used mills) \"x\"", "not an unsigned integer"},
		{&russian, field(fenStart, 15, "-1"), "fen field 15 (used mills) \"-1\"", "not an unsigned integer"},
		{&russian, field(fenStart, 15, "1"), "fen field 15 (used mills) \"1\"", "black bits outside the board's squares"},
		{&russian, field(fenStart, 15, "4294967296"), "fen field 15 (used mills) \"4294967296\"", "white bits outside the board's squares"},
		{&russian, "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 16777216 0 1 ids:nodes", "fen field 15 (used mills) \"16777216\"", "black bits outside the board's squares"},
		{&def, field(fenStart, 15, "256"), "fen field 15 (used mills) \"256\"", "used mills are kept only with OneTimeUseMill"},
		// 16–17. counters
		{&def, field(fenStart, 16, "-1"), "fen field 16 (rule50) \"-1\"", "want an integer 0..65535"},
		{&def, field(fenStart, 16, "65536"), "fen field 16 (rule50) \"65536\"", "want an integer 0..65535"},
		{&def, field(fenStart, 16, "x"), "fen field 16 (rule50) \"x\"", "want an integer 0..65535"},
		{&def, field(fenStart, 17, "-1"), "fen field 17 (fullmove) \"-1\"", "want an integer 1..16777216"},
		{&def, field(fenStart, 17, "0"), "fen field 17 (fullmove) \"0\"", "want an integer 1..16777216"},
		{&def, field(fenPlacedDone, 16, "101"), "fen field 16 (rule50) \"101\"", "101 plies without a placement or removal: past the N-move rule (100)"},
		{&endgame30, threeWhite(31), "fen field 16 (rule50) \"31\"", "31 plies without a placement or removal: past the endgame N-move rule (30)"},
		// A finished game needs a rule that ends it.
		{&def, field(fenPlacedDone, 3, "o"), "fen field 3 (phase) \"o\"", "the game is not over by any rule the position shows"},
		{&def, boardString(t, "a7 g7 g1", "d7 a4 g4") + " w o s 3 0 3 0 0 0 0 0 0 0 0 3 30", "fen field 3 (phase) \"o\"", "a draw by repetition needs the moves"},
		{&def, field(fenStart, 17, "16777217"), "fen field 17 (fullmove) \"16777217\"", "want an integer 1..16777216"},
		{&def, field(fenStart, 17, "1.5"), "fen field 17 (fullmove) \"1.5\"", "want an integer 1..16777216"},
		// Extensions that do not fit the rules or the position.
		{&def, fenBlackRm + " stalemate-removing", "fen: stalemate-removing needs StalemateAction 2 and a pending removal", ""},
		{&def, fenBlackRm + " both-stalemate-removing", "fen: both-stalemate-removing needs StalemateAction 5 and a pending removal", ""},
		// Found by FuzzParseFEN: after a stalemate removal the remover moves
		// again, so a removal pending for the other side would be stranded.
		{&zhi, "OOO@@@O@/@@O@OO@O/@@@O@OOO w m r 12 0 12 0 1 1 0 0 0 0 0 0 21 stalemate-removing",
			"fen field 10 (black removals) \"1\"", "no removal can be pending for the side not to move during a stalemate-removing"},
		// Found by FuzzParseFEN: a stalemate removal in the placing phase kept
		// its flag after placing ended.
		{&zhi, "********/*******@/@O@O@O@O w r r 4 0 5 0 1 0 0 0 0 0 0 0 1 stalemate-removing",
			"fen field 3 (phase) \"r\"", "a stalemate-removing happens only in the moving phase"},
	}
	for _, tc := range tests {
		p, err := position.ParseFEN(tc.r, tc.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q) accepted: %s", tc.fen, p.FEN())
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, tc.prefix) || !strings.Contains(msg, tc.detail) {
			t.Errorf("ParseFEN(%q):\n got %q\nwant %q … %q", tc.fen, msg, tc.prefix, tc.detail)
		}
	}
}

// TestFENFieldNamesMatchNumbers checks that every "fen field N (name)" error
// pairs the number with the right name, for a missing field of each number.
func TestFENFieldNamesMatchNumbers(t *testing.T) {
	names := []string{"board", "side to move", "phase", "action",
		"white on board", "white in hand", "black on board", "black in hand",
		"white removals", "black removals",
		"white mill from", "white mill to", "black mill from", "black mill to",
		"used mills", "rule50", "fullmove"}
	r := rules.Default()
	f := strings.Fields(fenStart)
	for n := 2; n <= 17; n++ {
		_, err := position.ParseFEN(&r, strings.Join(f[:n-1], " "))
		want := fmt.Sprintf("fen field %d (%s) is missing", n, names[n-1])
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%d fields: %v, want %q", n-1, err, want)
		}
	}
}

// A position string whose N-move counter has reached the rule is a draw at
// once, unless the last slide left the side to move blocked (it loses).
func TestFENAtTheNMoveRule(t *testing.T) {
	def := rules.Default()
	p := mustParse(t, &def, strings.Replace(fenPlacedDone, " 0 0 10", " 0 100 10", 1))
	if res, why := p.Result(); res != position.Draw || why != position.NMoveRule {
		t.Fatalf("counter 100: %s (%s)", res, why)
	}
	endgame := rules.Default()
	endgame.EndgameNMoveRule = 30
	three := boardString(t, "a7 d7 b4", "d5 e5 f2 d1") + " w m s 3 0 4 0 0 0 0 0 0 0 0 30 40"
	p = mustParse(t, &endgame, three)
	if res, why := p.Result(); res != position.Draw || why != position.EndgameNMoveRule {
		t.Fatalf("endgame counter 30: %s (%s)", res, why)
	}
	p = mustParse(t, &def, boardString(t, "a7 g7 g1 a1", "d7 a4 g4 d1")+" w m s 4 0 4 0 0 0 0 0 0 0 0 100 30")
	if res, why := p.Result(); res == position.Draw {
		t.Fatalf("a blocked side at the N-move rule: %s (%s), want its loss", res, why)
	}
}

// NewMoving builds the position ParseFEN reads from the same board with zero
// counters, for every preset, both sides to move, the ends of the game
// included (too few pieces, a blocked side to move).
func TestNewMovingMatchesParseFEN(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	ends := 0
	for _, pr := range rules.Presets {
		r := pr.Rules
		for n := 0; n < 2000; n++ {
			perm := rng.Perm(bb.NumSquares)
			nw, nb := 2+rng.IntN(r.PiecesCount-1), 2+rng.IntN(r.PiecesCount-1)
			if n%4 == 0 {
				nw, nb = 3+rng.IntN(3), r.PiecesCount-rng.IntN(2) // crowded: blocked sides
			}
			var w, b bb.Bitboard
			for _, s := range perm[:nw] {
				w |= bb.Bit(bb.Square(s))
			}
			for _, s := range perm[nw : nw+nb] {
				b |= bb.Bit(bb.Square(s))
			}
			side := position.Color(n & 1)
			fen := string(position.AppendBoard(nil, w, b, 0)) + fmt.Sprintf(" %c m s %d 0 %d 0 0 0 0 0 0 0 0 0 1", "wb"[side], nw, nb)
			want, err := position.ParseFEN(&r, fen)
			if err != nil {
				t.Fatalf("%s: %s: %v", pr.Key, fen, err)
			}
			if got := position.NewMoving(&r, w, b, side); got != want {
				t.Fatalf("%s: %s: NewMoving gives %+v, ParseFEN %+v", pr.Key, fen, got, want)
			}
			if want.IsOver() {
				ends++
			}
		}
	}
	if ends == 0 {
		t.Fatal("no game over among the positions")
	}
}

// Signature is the whole position where the rules keep nothing else: two
// positions of a random game have the same signature only when they are the
// same position (the same FEN but for the counters), and a change of any
// part (a piece, a hand, the side, a pending removal) changes it.
func TestSignatureIsThePosition(t *testing.T) {
	r := rules.Default()
	rng := rand.New(rand.NewPCG(31, 32))
	seen := map[uint64]string{}
	strip := func(fen string) string { f := strings.Fields(fen); return strings.Join(f[:14], " ") }
	for game := 0; game < 200; game++ {
		p := position.New(&r)
		for ply := 0; ply < 120 && !p.IsOver(); ply++ {
			s, fen := p.Signature(), strip(p.FEN())
			if old, ok := seen[s]; ok && old != fen {
				t.Fatalf("signature %x for %s and %s", s, old, fen)
			}
			seen[s] = fen
			var ml movegen.MoveList
			movegen.Generate(&r, &p, &ml)
			if ml.N == 0 {
				break
			}
			p.Do(&r, ml.Moves[rng.IntN(ml.N)])
		}
	}
	if len(seen) < 5000 {
		t.Fatalf("only %d positions", len(seen))
	}
}

// NewPlacing builds the same position as ParseFEN reads from its FEN, for
// boards and hands of Nine Men's Morris's placing phase where neither side
// has lost, either side to move; the FEN written back is the one read.
func TestNewPlacingMatchesParseFEN(t *testing.T) {
	r := rules.Default()
	rng := rand.New(rand.NewPCG(13, 14))
	for n := 0; n < 2000; n++ {
		perm := rng.Perm(bb.NumSquares)
		side := position.Color(n & 1)
		hw := 1 + rng.IntN(r.PiecesCount)
		hb := hw // White to move: as many in hand; Black to move: one more
		if side == position.Black {
			hw = max(hw-1, 0)
		}
		// Enough pieces on the board and in hand for neither side to have lost.
		lw, lb := max(3-hw, 0), max(3-hb, 0)
		nw, nb := lw+rng.IntN(r.PiecesCount-hw-lw+1), lb+rng.IntN(r.PiecesCount-hb-lb+1)
		var w, b bb.Bitboard
		for _, s := range perm[:nw] {
			w |= bb.Bit(bb.Square(s))
		}
		for _, s := range perm[nw : nw+nb] {
			b |= bb.Bit(bb.Square(s))
		}
		fen := string(position.AppendBoard(nil, w, b, 0)) + fmt.Sprintf(" %c p p %d %d %d %d 0 0 0 0 0 0 0 0 1", "wb"[side], nw, hw, nb, hb)
		want, err := position.ParseFEN(&r, fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		got := position.NewPlacing(w, b, hw, hb, side)
		if got != want || got.FEN() != fen {
			t.Fatalf("%s: NewPlacing gives %+v (%s), ParseFEN %+v", fen, got, got.FEN(), want)
		}
	}
}
