package movegen_test

import (
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// benchCase is one position of the benchmark mix with its rules.
type benchCase struct {
	r rules.Rules
	p position.Position
}

// benchMix returns placing, removal, moving, flying, Lasker and restricted
// positions, so that every branch of Generate and Count is timed.
func benchMix(b *testing.B) []benchCase {
	b.Helper()
	restrict := rules.Default()
	restrict.RestrictRepeatedMillsFormation = true
	lasker, _ := rules.PresetByName("lasker-morris")
	twelve, _ := rules.PresetByName("twelve-mens-morris")
	def := rules.Default()
	fens := []struct {
		r   rules.Rules
		fen string
	}{
		{def, "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"},            // placing
		{def, "********/**@***@*/OO*****O w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"},            // removal
		{def, "@@*****@/O*******/OO**@**O w m r 4 0 4 0 1 0 0 0 0 0 0 0 30"},           // removal, mills protected
		{def, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"},           // moving
		{def, "********/**@*@*@*/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 9 60"},           // flying
		{lasker.Rules, "********/**@***@*/OO*****O b p p 3 7 2 8 0 0 0 0 0 0 0 0 3"},   // Lasker
		{restrict, "@*O****@/**O**@**/OO**@**O w m s 5 0 4 0 0 0 26 25 0 0 0 2 30"},    // restricted
		{twelve.Rules, "O*@@O*O@/@@*OO@**/O@O**@@O w m s 8 0 9 0 0 0 0 0 0 0 0 4 30"},  // diagonal board
		{def, "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11"},           // removal, moving
		{def, "**@**O**/O*@**O*@/****O@*O w m s 5 0 4 0 0 0 0 0 0 0 0 0 20"},           // moving, open
		{twelve.Rules, "********/********/@******O b p p 1 11 1 11 0 0 0 0 0 0 0 0 2"}, // 12-piece placing
		{def, "*O*@****/********/******** b m s 1 0 1 0 0 0 0 0 0 0 0 0 20"},           // game over
		{def, "O*O*O*O*/@*@*@*@*/******** w m s 4 0 4 0 0 0 0 0 0 0 0 0 20"},           // moving, sparse
		{def, "@@@*****/OOO*****/******** w m s 3 0 3 0 0 0 0 0 0 0 0 0 20"},           // both fly
		{def, "********/********/@@@O**OO b p r 3 6 3 6 0 1 0 0 0 0 0 0 6"},            // black removes
		{def, "********/********/***O**** w p p 1 8 0 8 0 0 0 0 0 0 0 0 2"},            // early placing
	}
	out := make([]benchCase, 0, len(fens))
	for _, f := range fens {
		r := f.r
		p, err := position.ParseFEN(&r, f.fen)
		if err != nil {
			b.Fatalf("%s: %v", f.fen, err)
		}
		out = append(out, benchCase{r, p})
	}
	return out
}

func BenchmarkGenerate(b *testing.B) {
	mix := benchMix(b)
	var ml movegen.MoveList
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := &mix[i%len(mix)]
		movegen.Generate(&c.r, &c.p, &ml)
		n += ml.N
	}
	b.ReportMetric(float64(n)/float64(b.N), "moves/op")
}

func BenchmarkCount(b *testing.B) {
	mix := benchMix(b)
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := &mix[i%len(mix)]
		n += movegen.Count(&c.r, &c.p)
	}
	b.ReportMetric(float64(n)/float64(b.N), "moves/op")
}

func BenchmarkPerft5(b *testing.B) {
	r := rules.Default()
	p := position.New(&r)
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		nodes = movegen.Perft(&r, &p, 5)
	}
	if nodes != 5100480 {
		b.Fatalf("perft(5) = %d", nodes)
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
