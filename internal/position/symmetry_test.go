package position_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// A symmetry commutes with the rules: the image of a position has the
// images of its legal actions as its legal actions, and playing an action
// then transforming gives the same position (key included) as transforming
// then playing the action's image. Over random games of every preset and
// all 16 symmetries.
func TestTransformCommutesWithDo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for _, pr := range rules.Presets {
		r := pr.Rules
		for g := 0; g < 6; g++ {
			p := position.New(&r)
			for i := 0; i < 120 && !p.IsOver(); i++ {
				var ml movegen.MoveList
				movegen.Generate(&r, &p, &ml)
				m := ml.Moves[rng.IntN(ml.N)]
				for y := bb.Symmetry(0); y < bb.NumSymmetries; y++ {
					img := p.Transform(y)
					if img.Key() != img.ComputeKey() {
						t.Fatalf("%s: key of the image is stale", pr.Key)
					}
					var iml movegen.MoveList
					movegen.Generate(&r, &img, &iml)
					want := make([]position.Move, 0, ml.N)
					for _, x := range ml.Slice() {
						want = append(want, x.Transform(y))
					}
					got := append([]position.Move(nil), iml.Slice()...)
					slices.Sort(want)
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s %s under %d: actions %v, want %v", pr.Key, p.FEN(), y, got, want)
					}
					a := p
					a.Do(&r, m)
					a = a.Transform(y)
					b := img
					b.Do(&r, m.Transform(y))
					if a != b {
						t.Fatalf("%s %s under %d then %s: %s vs %s", pr.Key, p.FEN(), y, m, a.FEN(), b.FEN())
					}
					if back := img.Transform(y.Inverse()); back != p {
						t.Fatalf("%s %s: the inverse of %d does not give the position back", pr.Key, p.FEN(), y)
					}
					n++
				}
				p.Do(&r, m)
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d checks", n)
	}
}
