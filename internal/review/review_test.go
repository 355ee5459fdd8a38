package review

import (
	"context"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/testkit"
)

// A move from a won table position to a lost one is a blunder whatever the
// scores, and the first change of the value; the engine's own choice is
// best; the summary counts them.
func TestAnalyseExactValues(t *testing.T) {
	r := rules.Default()
	tb := egtbtest.Open(t, 7)
	start := testkit.Position(t, &r, "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1")
	g := position.NewGame(r, start)
	m, err := movegen.ParseLegal(&g.Rules, &g.Pos, "a7-b2") // White throws away a win in one
	if err != nil {
		t.Fatal(err)
	}
	g.Play(m)
	acts, ok := tb.RankRoot(g) // Black keeps the win the tables give it
	if !ok {
		t.Fatal("not in the tables")
	}
	g.Play(acts[0].Move)
	e := search.New(16)
	e.SetTables(tb)
	moves, sums, err := Analyse(context.Background(), e, g, Options{Limits: search.Limits{Depth: 2}, Tables: tb})
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 {
		t.Fatalf("%d moves", len(moves))
	}
	w := moves[0]
	if w.Was != Won || w.Is != Lost || w.Grade != Blunder || w.Played.String() != "a7-b2" || w.Best.String() != "a1-g7" {
		t.Errorf("a7-b2: %+v", w)
	}
	if sums[0].Blunders != 1 || sums[0].FirstChange == nil || sums[0].FirstChange.Ply != 0 || sums[0].Moves != 1 {
		t.Errorf("White: %+v", sums[0])
	}
	b := moves[1]
	if b.Mover != position.Black || b.Was != Won {
		t.Errorf("Black's reply: %+v", b)
	}
	if b.Is != Won || b.Grade > Good || b.Loss != 0 {
		t.Errorf("Black's reply kept the win but is %+v", b)
	}
	if want := "accuracy"; len(sums[0].String()) < len(want) {
		t.Errorf("summary %q", sums[0])
	}
}

// The grades by expected-score loss, and the accuracy's ends.
func TestGradesAndAccuracy(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want Grade
	}{{0, Good}, {0.099, Good}, {0.1, Inaccuracy}, {0.2, Mistake}, {0.3, Blunder}, {0.9, Blunder}} {
		if got := gradeOf(c.loss); got != c.want {
			t.Errorf("loss %.3f: %s, want %s", c.loss, got, c.want)
		}
	}
	if a := accuracy(0); a < 99.99 || a > 100 {
		t.Errorf("accuracy of no loss %.2f", a)
	}
	if a := accuracy(1); a != 0 {
		t.Errorf("accuracy of a lost game %.2f", a)
	}
	if e := expected(0); e != 0.5 {
		t.Errorf("expected(0) = %v", e)
	}
	if expected(search.ValueMate-3) != 1 || expected(-search.ValueMate+3) != 0 {
		t.Error("expected of mates")
	}
}
