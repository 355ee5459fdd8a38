package record_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
)

// pgnDir holds the sample records (testdata/pgn at the module root).
var pgnDir = filepath.Join("..", "..", "testdata", "pgn")

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pgnDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// square returns the square of a label; the labels in the tests are valid.
func square(l string) bb.Square {
	s, err := bb.ParseSquare(l)
	if err != nil {
		panic(err)
	}
	return s
}

func squares(ls []string) []bb.Square {
	var out []bb.Square
	for _, l := range ls {
		out = append(out, square(l))
	}
	return out
}

// pl is a placement turn with removals.
func pl(to string, rm ...string) record.Turn {
	return record.Turn{Move: position.MakePlace(square(to)), Removals: squares(rm)}
}

// sl is a slide (or fly) turn with removals.
func sl(from, to string, rm ...string) record.Turn {
	return record.Turn{Move: position.MakeSlide(square(from), square(to)), Removals: squares(rm)}
}

// rmv is a removal-only turn.
func rmv(rm ...string) record.Turn { return record.Turn{Removals: squares(rm)} }

// pass is the pass turn.
func pass() record.Turn { return record.Turn{Pass: true} }

// with returns t with annotations.
func with(t record.Turn, nags []int, comments []string, vars ...record.Line) record.Turn {
	t.NAGs, t.Comments, t.Variations = nags, comments, vars
	return t
}

// line is a Line of turns.
func line(ts ...record.Turn) record.Line { return record.Line{Moves: ts} }

// tokens lists the move tokens of a line.
func tokens(l *record.Line) string {
	var s []string
	for i := range l.Moves {
		s = append(s, l.Moves[i].String())
	}
	return strings.Join(s, " ")
}

// mustParse reads src or fails the test.
func mustParse(t testing.TB, src string) []record.Game {
	t.Helper()
	gs, err := record.Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return gs
}

// roundTrip checks that the games write and read back Equal, and that
// writing again gives the same text; it returns the text.
func roundTrip(t testing.TB, games []record.Game) string {
	t.Helper()
	out, err := record.Marshal(games...)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := record.Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal): %v\n%s", err, out)
	}
	if len(back) != len(games) {
		t.Fatalf("read back %d games, wrote %d\n%s", len(back), len(games), out)
	}
	for i := range games {
		if !games[i].Equal(&back[i]) {
			t.Fatalf("game %d differs after a round trip:\nwrote %+v\nread  %+v\n%s", i+1, games[i], back[i], out)
		}
	}
	again, err := record.Marshal(back...)
	if err != nil || string(again) != string(out) {
		t.Fatalf("second write differs (%v):\n%s\n---\n%s", err, out, again)
	}
	return string(out)
}
