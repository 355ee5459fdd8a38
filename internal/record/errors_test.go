package record_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/record"
)

// badInputs are malformed records and the error each must give.
var badInputs = []struct {
	name, in, want string
}{
	{"bad square in game 2",
		"[Event \"one\"]\n\n1. d6 f4 *\n\n[Event \"two\"]\n\n1. d6 f4 2. d5 b4 3. d7xb4 g7 4. f6 b6 5. f2 d2 6. a1 a4\n7. d6-d9 *",
		`game 2, ply 13 (line 8, column 4): bad move token "d6-d9": d9 is not a point of the board`},
	{"file off the board", "1. h1", `game 1, ply 1 (line 1, column 4): bad move token "h1": h1 is not a point of the board`},
	{"the centre", "1. d6 d4", `game 1, ply 2 (line 1, column 7): bad move token "d4": d4 is not a point of the board`},
	{"slide to itself", "1. d6-d6", `game 1, ply 1 (line 1, column 4): bad move token "d6-d6": origin and destination are the same point`},
	{"number without a period", "1. 12", `game 1, ply 1 (line 1, column 4): bad move token "12"`},
	{"move with a period", "1. d6. f4", `game 1, ply 1 (line 1, column 4): bad move token "d6."`},
	{"two periods", "1.. d6", `game 1 (line 1, column 1): bad move number "1..": want 12. or 12...`},
	{"dangling x", "1. d6 xx", `game 1, ply 2 (line 1, column 7): bad move token "xx"`},
	{"dangling dash", "1. d6-", `game 1, ply 1 (line 1, column 4): bad move token "d6-"`},
	{"removal glued to a slide wrongly", "1. d6-d5d7", `game 1, ply 1 (line 1, column 4): bad move token "d6-d5d7"`},
	{"NAG out of range", "1. d6 $256", `game 1, ply 1 (line 1, column 7): bad NAG "$256": want $0 to $255`},
	{"bare dollar", "1. d6 $ f4", `game 1, ply 1 (line 1, column 7): bad NAG "$": want $0 to $255`},
	{"three marks", "1. d6!!! f4", `game 1, ply 1 (line 1, column 6): bad NAG "!!!": want !, ?, !!, ??, !? or ?!`},
	{"NAG first", "$1 1. d6", `game 1 (line 1, column 1): NAG before any move`},
	{"variation first", "(1. d6) 1. f4", `game 1 (line 1, column 1): variation before any move`},
	{"empty variation", "1. d6 () f4", `game 1, ply 1 (line 1, column 7): empty variation`},
	{"comment-only variation", "1. d6 ({x}) f4", `game 1, ply 1 (line 1, column 7): empty variation`},
	{"unmatched close", "1. d6 ) f4", `game 1, ply 1 (line 1, column 7): unmatched )`},
	{"variation not closed", "1. d6 f4 (1... d5", `game 1, ply 2 (line 1, column 10): variation not closed: ( without )`},
	{"marker in a variation", "1. d6 (1. f4 1-0)", `game 1, ply 1 (line 1, column 14): termination marker 1-0 inside a variation`},
	{"bad token in a variation", "1. d6 f4 2. d5 (2. d9)", `game 1, ply 3 (line 1, column 20): bad move token "d9": d9 is not a point of the board`},
	{"comment not closed", "1. d6 {abc\n\nf4", `game 1, ply 1 (line 1, column 7): comment not closed: { without }`},
	{"stray character", "1. d6 & f4", `game 1, ply 1 (line 1, column 7): unexpected character '&'`},
	{"stray non-ASCII", "1. d6\n  é", `game 1, ply 1 (line 2, column 3): unexpected character 'é'`},
	{"deep variations", "1. d6 " + strings.Repeat("(1. f4 ", 65),
		`game 1, ply 1 (line 1, column 455): variations nested deeper than 64 levels`},
	{"bad tag name", `[Ev@nt "x"]`, `game 1 (line 1, column 2): bad tag name "Ev@nt"`},
	{"tag without a name", `[ "x"]`, `game 1 (line 1, column 3): tag without a name`},
	{"tag without a value", `[Event x]`, `game 1 (line 1, column 8): tag Event: want a quoted value`},
	{"bad escape", `[Event "a\b"]`, `game 1 (line 1, column 10): tag Event: bad escape in the value (only \" and \\)`},
	{"value not closed", "[Event \"abc]\n1. d6", `game 1 (line 1, column 1): tag Event: value not closed on its line`},
	{"tag not closed", `[Event "abc" x`, `game 1 (line 1, column 14): tag Event: want ] after the value`},
	{"duplicate tag", "[Event \"a\"]\n[Event \"b\"]", `game 1 (line 2, column 1): duplicate tag Event`},
	{"bad Result tag", `[Result "2-0"]`, `game 1 (line 1, column 1): bad Result tag "2-0": want 1-0, 0-1, 1/2-1/2 or *`},
	{"bad SetUp tag", "[Event \"e\"] [SetUp \"2\"]", `game 1 (line 1, column 13): bad SetUp tag "2": want 0 or 1`},
	{"SetUp without FEN", "[Event \"e\"]\n[SetUp \"1\"]", `game 1 (line 2, column 1): SetUp "1" without a FEN tag`},
	{"FEN with SetUp 0", "[SetUp \"0\"]\n[FEN \"" + fenBlock + "\"]", `game 1 (line 2, column 1): FEN tag with SetUp "0"`},
	{"short FEN", `[FEN "abc w"]`, `game 1 (line 1, column 1): bad FEN tag "abc w": a position string has 17 fields, got 2`},
	{"bad FEN board", `[FEN "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"]`,
		`game 1 (line 1, column 1): bad FEN tag "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1": the board is three rings of 8 points (O, @, X or *) separated by /`},
	{"bad FEN side", `[FEN "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1"]`,
		`game 1 (line 1, column 1): bad FEN tag "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1": the side to move is w or b`},
	{"marker disagrees with the tag", "[Result \"1-0\"]\n\n1. d6 0-1", `game 1 (line 3, column 7): termination marker 0-1 disagrees with the Result tag "1-0"`},
	{"tags after movetext", "1. d6\n[Event \"b\"]", `game 1, ply 1 (line 2, column 1): tag after the movetext: a game ends with 1-0, 0-1, 1/2-1/2 or * before the next game's tags`},
	{"error in the third game", "* *\n1. d6 f4 2. d5 b4 3. d7xb4 g7 4. f6 b6 5. f2 d2 6. a1 a4 7. d6-d9",
		`game 3, ply 13 (line 2, column 61): bad move token "d6-d9": d9 is not a point of the board`},
}

func TestReadErrors(t *testing.T) {
	for _, tc := range badInputs {
		games, err := record.Parse([]byte(tc.in))
		if err == nil {
			t.Errorf("%s: no error, read %+v", tc.name, games)
			continue
		}
		if games != nil {
			t.Errorf("%s: %d games returned with the error", tc.name, len(games))
		}
		var e *record.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %T is not an *Error", tc.name, err)
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, tc.want)
		}
	}
}

// TestReadAccepts lists records that look odd but are valid.
func TestReadAccepts(t *testing.T) {
	for _, in := range []string{
		"",
		"% only an escape line\n",
		"1.d6 1...f4 2.d5",               // numbers glued to moves
		"1. d6 2. f4",                    // numbers are not checked
		"[Event\t\"tab\"]",               // a tab between name and value
		"[ Event \"spaced\" ]",           // blanks inside the brackets
		"1. d6 {a}{b} ;c\n$1 $2 !? f4 *", // comments and NAGs in a row
		"1. P",                           // a pass in upper case
	} {
		if _, err := record.Parse([]byte(in)); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}
