package position_test

import (
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// doCase is one copy-make: a position, its rules and one legal action.
type doCase struct {
	r rules.Rules
	p position.Position
	m position.Move
}

// doMix returns every legal action of a few positions: placements with and
// without a mill, slides, flies and removals, in 9- and 12-piece variants.
func doMix(b *testing.B) []doCase {
	b.Helper()
	fens := []struct{ variant, fen string }{
		{"nine-mens-morris", fenStart},
		{"nine-mens-morris", "********/**@***@*/OO*****O b p p 3 6 2 7 0 0 0 0 0 0 0 0 3"},
		{"nine-mens-morris", fenAfterA7G7},
		{"nine-mens-morris", fenPlacedDone},
		{"nine-mens-morris", fenBlackRm},
		{"nine-mens-morris", "********/**@*@*@*/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 9 60"},
		{"russian-mill", "@@*****@/O*******/O*****OO w m s 4 0 3 0 0 0 0 0 0 0 0 5 30"},
		{"da-san-qi", "********/**@***@*/OO*****O w p r 3 9 2 10 1 0 0 0 0 0 0 0 3"},
		{"zhi-qi", "OO@@OOO@/@@@OO@@O/O@OO@@*O b p p 12 0 11 1 0 0 0 0 0 0 0 0 12"},
	}
	var out []doCase
	for _, f := range fens {
		r := presetRules(b, f.variant)
		p := mustParse(b, &r, f.fen)
		var ml movegen.MoveList
		movegen.Generate(&r, &p, &ml)
		for _, m := range ml.Slice() {
			out = append(out, doCase{r, p, m})
		}
	}
	return out
}

// BenchmarkDo times one copy-make: copy the position, play one action.
func BenchmarkDo(b *testing.B) {
	mix := doMix(b)
	var sink uint32
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := &mix[i%len(mix)]
		child := c.p
		child.Do(&c.r, c.m)
		sink ^= child.Key()
	}
	if sink == 0x12345678 {
		b.Log(sink)
	}
}

// BenchmarkParseFEN may allocate: it is not on the hot path.
func BenchmarkParseFEN(b *testing.B) {
	r := rules.Default()
	fens := []string{fenStart, fenAfterA7G7, fenPlacedDone, fenBlackRm}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := position.ParseFEN(&r, fens[i%len(fens)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFEN(b *testing.B) {
	r := rules.Default()
	p := mustParse(b, &r, fenBlackRm)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n += len(p.FEN())
	}
	if n == 0 {
		b.Fatal("empty FEN")
	}
}

func BenchmarkComputeKey(b *testing.B) {
	r := rules.Default()
	p := mustParse(b, &r, fenPlacedDone)
	var sink uint32
	b.ReportAllocs()
	for b.Loop() {
		sink ^= p.ComputeKey()
	}
	if sink == 0x12345678 {
		b.Log(sink)
	}
}
