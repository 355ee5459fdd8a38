package book

import (
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
)

// Check compares a book's proofs with the tables of the game: a proof the
// tables agree with counts equal, one with an action too many in its keep
// set differs, a position the tables lack is unknown, and an unproven one is
// not counted.
func TestCheckAgainstTables(t *testing.T) {
	r := rules.Default()
	tb, err := egtb.Open(egtbtest.Game(t, 7), &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	b := New(r, "nine-mens-morris")
	put := func(fen string, pr *Proof) {
		t.Helper()
		p, err := position.ParseFEN(&r, fen)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Put(&p, Entry{Depth: 1, Actions: []Action{{Move: pr.Keep[0], Score: 0}}, Proof: pr}); err != nil {
			t.Fatal(err)
		}
	}
	// 2_3_1_1, White to move, a draw some placements lose: the tables'
	// value and keep set.
	fen := "*@*****@/****O**@/*O****** w p p 2 1 3 1 0 0 0 0 0 0 0 0 1"
	p, _ := position.ParseFEN(&r, fen)
	acts, ok := tb.RankRoot(position.NewGame(r, p))
	if !ok {
		t.Fatal("the tables do not hold the position")
	}
	right := &Proof{Value: acts[0].Entry.Value.WDL()}
	var lost position.Move
	for _, a := range acts {
		if a.Entry.Value.WDL() == right.Value {
			right.Keep = append(right.Keep, a.Move)
		} else {
			lost = a.Move
		}
	}
	if right.Value != solve.Draw || lost == position.NoMove {
		t.Fatalf("value %s, an action that loses %s: want a draw some action loses", right.Value, lost)
	}
	put(fen, right)
	// Another position of the sector, given the first one's proof with a
	// losing action more: its keep set differs.
	wrong := &Proof{Value: right.Value, Keep: append(append([]position.Move(nil), right.Keep...), lost)}
	other := "O***O***/@*******/@@****** w p p 2 1 3 1 0 0 0 0 0 0 0 0 1"
	put(other, wrong)
	// 9 a side at the start: not in the tables.
	put("********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", &Proof{Value: solve.Draw, Keep: []position.Move{position.MakePlace(0)}})
	rep := Check(b, tb, nil)
	if rep.Proven != 3 || rep.Compared != 2 || rep.Equal != 1 || rep.Unknown != 1 || len(rep.First) != 1 ||
		!strings.Contains(rep.First[0], " w p p 2 1 3 1 0 0 0 0 0 0 0 0 1: book proven draw keep ") || !strings.Contains(rep.First[0], ", tables proven draw keep ") {
		t.Fatalf("Check: %+v", rep)
	}
}
