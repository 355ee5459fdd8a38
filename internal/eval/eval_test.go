package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// mirrorFEN swaps the colours of a FEN: O↔@, side, and the per-side fields.
func mirrorFEN(fen string) string {
	f := strings.Fields(fen)
	f[0] = strings.Map(func(r rune) rune {
		switch r {
		case 'O':
			return '@'
		case '@':
			return 'O'
		}
		return r
	}, f[0])
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	f[4], f[6] = f[6], f[4]
	f[5], f[7] = f[7], f[5]
	f[8], f[9] = f[9], f[8]
	return strings.Join(f[:16], " ") + " 1"
}

// TestColourSymmetry: swapping the colours (and the side to move) leaves the
// side-to-move score unchanged, over random positions of every preset.
func TestColourSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for _, pr := range rules.Presets {
		r := pr.Rules
		if r.MillFormationActionInPlacingPhase == rules.MillMarkAndDelay {
			continue // marked points are colourless; the FEN swap still works but skip for clarity
		}
		for g := 0; g < 20; g++ {
			p := position.New(&r)
			for i := 0; i < 120 && !p.IsOver(); i++ {
				q, err := position.ParseFEN(&r, mirrorFEN(p.FEN()))
				if err == nil {
					if a, b := Evaluate(&r, &p), Evaluate(&r, &q); a != b {
						t.Fatalf("%s: %d for %s, %d for the mirror %s", pr.Key, a, p.FEN(), b, q.FEN())
					}
					n++
				}
				var ml movegen.MoveList
				movegen.Generate(&r, &p, &ml)
				p.Do(&r, ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d positions compared", n)
	}
}

// TestFeatures pins the raw counts of a moving-phase position.
func TestFeatures(t *testing.T) {
	r := rules.Default()
	// White: d7 g7 (open two, hole a7), a4 a1 (open two a7), d2, f4; black:
	// e5 e4 e3 (a mill), c3, b2, b6.
	p, err := position.ParseFEN(&r, "*@@@*@**/**O*O@*@/OO***OO* w m s 6 0 6 0 0 0 0 0 0 0 0 0 20")
	if err != nil {
		t.Fatal(err)
	}
	var f [2]features
	collectBoth(&r, &p, &f)
	t.Logf("white %+v black %+v", f[0], f[1])
	w, b := f[0], f[1]
	if w.pieces != 6 || b.pieces != 6 {
		t.Fatalf("pieces %d %d", w.pieces, b.pieces)
	}
	// White's open twos: d7-g7 (a7 empty) and a4-a1 (a7 empty).
	if w.openTwo != 2 {
		t.Errorf("white open twos %d, want 2", w.openTwo)
	}
	if terms, total := Trace(&r, &p); len(terms) != 9 || total != Evaluate(&r, &p) {
		t.Errorf("trace has %d terms, total %d vs %d", len(terms), total, Evaluate(&r, &p))
	}
}

// TestMaterialDominates: a piece up is worth more than any positional term.
func TestMaterialDominates(t *testing.T) {
	r := rules.Default()
	even, _ := position.ParseFEN(&r, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10")
	up, _ := position.ParseFEN(&r, "@*O@@OO*/O@@OO@@O/**O*O@** w m s 9 0 8 0 0 0 0 0 0 0 0 0 10")
	if a, b := Evaluate(&r, &even), Evaluate(&r, &up); b-a < 50 {
		t.Fatalf("a piece up scores %d vs %d", b, a)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	r := rules.Default()
	p, _ := position.ParseFEN(&r, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10")
	b.ReportAllocs()
	s := 0
	for i := 0; i < b.N; i++ {
		s += Evaluate(&r, &p)
	}
	_ = s
}
