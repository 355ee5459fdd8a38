package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
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
		for _, p := range testkit.RandomGames(&r, rng, 20, 120) {
			q, err := position.ParseFEN(&r, mirrorFEN(p.FEN()))
			if err == nil {
				if a, b := Evaluate(&r, &p), Evaluate(&r, &q); a != b {
					t.Fatalf("%s: %d for %s, %d for the mirror %s", pr.Key, a, p.FEN(), b, q.FEN())
				}
				n++
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
	p := testkit.Position(t, &r, "*@@@*@**/**O*O@*@/OO***OO* w m s 6 0 6 0 0 0 0 0 0 0 0 0 20")
	var f [2]features
	collectBoth(&r, &p, &f)
	t.Logf("white %+v black %+v", f[0], f[1])
	w, b := f[0], f[1]
	if w[Piece] != 6 || b[Piece] != 6 {
		t.Fatalf("pieces %d %d", w[Piece], b[Piece])
	}
	// White's open twos: d7-g7 (a7 empty) and a4-a1 (a7 empty).
	if w[OpenTwo] != 2 {
		t.Errorf("white open twos %d, want 2", w[OpenTwo])
	}
	if terms, total := Trace(&r, &p); len(terms) != 12 || total != Evaluate(&r, &p) {
		t.Errorf("trace has %d terms, total %d vs %d", len(terms), total, Evaluate(&r, &p))
	}
}

// TestBlockadeFeatures pins the blockade counts of a hand-checked position.
// White a7 d7 (a group whose only exit is d6), f2, c5; black g7 (its only
// exit g4), a4, c3, g1. c4 is next to white c5 and black c3, so it is
// private to neither side.
func TestBlockadeFeatures(t *testing.T) {
	r := rules.Default()
	p := testkit.Position(t, &r, "*****@*O/***O****/O@*@**@O w m s 4 0 4 0 0 0 0 0 0 0 0 0 20")
	var f [2]features
	collectBoth(&r, &p, &f)
	type got struct{ blocked, lastExit, private, cramp, mobility int }
	for c, want := range []got{
		{blocked: 1, lastExit: 2, private: 4, cramp: 0, mobility: 5},
		{blocked: 0, lastExit: 1, private: 5, cramp: 0, mobility: 7},
	} {
		g := got{f[c][Blocked], f[c][LastExit], f[c][Private], f[c][Cramped], f[c][Mobility]}
		if g != want {
			t.Errorf("colour %d: %+v, want %+v", c, g, want)
		}
	}
}

// TestCrampScale: the cramp count of a side by its exits plus its pieces in
// hand, and none for a side that flies.
func TestCrampScale(t *testing.T) {
	r := rules.Default()
	for _, tc := range []struct {
		fen        string
		white, blk int
	}{
		// White a7 d7 g7 g4 with black a4 d6 f4 g1 around them: every
		// neighbour of a white piece is taken, so white has no exit; black
		// has many.
		{"********/@*@*****/OOO@**@O w m s 4 0 4 0 0 0 0 0 0 0 0 0 20", 9, 0},
		// The same with one piece in hand each: white's exits plus one.
		{"********/@*@*****/OOO@**@O w p p 4 1 4 1 0 0 0 0 0 0 0 0 20", 4, 0},
		// Three white pieces fly: never cramped.
		{"********/@*@*****/OO*@**@O w m s 3 0 4 0 0 0 0 0 0 0 0 0 20", 0, 0},
	} {
		p, err := position.ParseFEN(&r, tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		var f [2]features
		collectBoth(&r, &p, &f)
		if f[0][Cramped] != tc.white || f[1][Cramped] != tc.blk {
			t.Errorf("%s: cramp %d/%d, want %d/%d", tc.fen, f[0][Cramped], f[1][Cramped], tc.white, tc.blk)
		}
	}
}

// refBlockade recomputes the blockade features square by square, the slow
// way: groups by breadth-first search over the adjacency relation.
func refBlockade(r *rules.Rules, p *position.Position, c position.Color) (lastExit, private, exits int) {
	t := r.Topology()
	color := func(s int) int { // 0 white, 1 black, 2 empty, 3 marked
		switch {
		case p.Pieces(position.White)&(1<<s) != 0:
			return 0
		case p.Pieces(position.Black)&(1<<s) != 0:
			return 1
		case p.Empty()&(1<<s) != 0:
			return 2
		}
		return 3
	}
	adj := func(a, b int) bool { return t.Adjacent[a]&(1<<b) != 0 }
	var seen [24]bool
	for s := 0; s < 24; s++ {
		if t.Adjacent[s] == 0 || color(s) != 2 {
			continue
		}
		mine, theirs := false, false
		for n := 0; n < 24; n++ {
			if adj(s, n) && color(n) == int(c) {
				mine = true
			}
			if adj(s, n) && color(n) == int(c^1) {
				theirs = true
			}
		}
		if mine {
			exits++
			if !theirs {
				private++
			}
		}
	}
	for s := 0; s < 24; s++ {
		if seen[s] || t.Adjacent[s] == 0 || color(s) != int(c) {
			continue
		}
		group := []int{s}
		seen[s] = true
		for i := 0; i < len(group); i++ {
			for n := 0; n < 24; n++ {
				if adj(group[i], n) && color(n) == int(c) && !seen[n] {
					seen[n] = true
					group = append(group, n)
				}
			}
		}
		holes := map[int]bool{}
		for _, g := range group {
			for n := 0; n < 24; n++ {
				if adj(g, n) && color(n) == 2 {
					holes[n] = true
				}
			}
		}
		if len(holes) == 1 {
			lastExit += len(group)
		}
	}
	return
}

// TestBlockadeFeaturesAgainstReference compares the bitboard features with
// the square-by-square reference over random games of every preset.
func TestBlockadeFeaturesAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 0
	for _, pr := range rules.Presets {
		r := pr.Rules
		for _, p := range testkit.RandomGames(&r, rng, 10, 150) {
			var f [2]features
			collectBoth(&r, &p, &f)
			for c := position.Color(0); c < 2; c++ {
				if p.CanFly(&r, c) {
					if f[c][LastExit]|f[c][Private]|f[c][Cramped] != 0 {
						t.Fatalf("%s %s: a flying side has blockade features %+v", pr.Key, p.FEN(), f[c])
					}
					continue
				}
				le, pv, ex := refBlockade(&r, &p, c)
				if f[c][LastExit] != le || f[c][Private] != pv || f[c][Cramped] != cramp(ex+p.InHand(c)) {
					t.Fatalf("%s %s colour %d: last exit %d private %d cramp %d, reference %d %d %d",
						pr.Key, p.FEN(), c, f[c][LastExit], f[c][Private], f[c][Cramped], le, pv, cramp(ex+p.InHand(c)))
				}
				n++
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d sides compared", n)
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

// lineFeaturesRef is lineFeatures line by line, as the evaluation had it.
func lineFeaturesRef(t *bb.Topology, own, reach [2]bb.Bitboard, slides [2]bool, empty bb.Bitboard, f *[2]features) {
	for _, l := range t.Lines {
		w, b := l&own[0], l&own[1]
		var c position.Color
		var o bb.Bitboard
		switch {
		case b == 0 && w != 0:
			c, o = position.White, w
		case w == 0 && b != 0:
			c, o = position.Black, b
		default:
			continue
		}
		fc := &f[c]
		switch o.Count() {
		case 2:
			fc[OpenTwo]++
			hole := (l &^ o).First()
			if reach[c].Has(hole) && (!slides[c] || t.Adjacent[hole]&own[c]&^l != 0) {
				fc[ReachTwo]++
			}
		case 3:
			if slides[c] && runningMill(t, o, own[c], empty) {
				fc[RunningMill]++
			}
		}
	}
}

// TestLineFeatures checks lineFeatures against the line-by-line count on
// random boards of both shapes, with marked points, sliding or not.
func TestLineFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, top := range []*bb.Topology{bb.Plain, bb.Diagonal} {
		for range 20000 {
			var own [2]bb.Bitboard
			var marked bb.Bitboard
			for s := bb.Square(0); s < bb.NumSquares; s++ {
				switch rng.IntN(7) {
				case 0, 1, 2:
					own[0] |= bb.Bit(s)
				case 3, 4, 5:
					own[1] |= bb.Bit(s)
				}
				if rng.IntN(12) == 0 {
					own[0] &^= bb.Bit(s)
					own[1] &^= bb.Bit(s)
					marked |= bb.Bit(s)
				}
			}
			empty := bb.Full &^ own[0] &^ own[1] &^ marked
			slides := [2]bool{rng.IntN(2) == 0, rng.IntN(2) == 0}
			var reach [2]bb.Bitboard
			for c := range 2 {
				reach[c] = empty
				if slides[c] {
					reach[c] = top.Neighbours(own[c]) & empty
				}
			}
			var got, want [2]features
			lineFeatures(top, own, reach, slides, empty, &got)
			lineFeaturesRef(top, own, reach, slides, empty, &want)
			if got != want {
				t.Fatalf("diagonal %v, white %#x black %#x marked %#x slides %v: %v, want %v", top.Diagonal, uint32(own[0]), uint32(own[1]), uint32(marked), slides, got, want)
			}
		}
	}
}
