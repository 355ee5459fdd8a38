package bitboard

import (
	"math/rand/v2"
	"testing"
)

// Every symmetry is a permutation of the points that keeps neighbours and
// mill lines, on the plain board and on the diagonal one; the 16 are
// distinct, closed under composition, and each has its inverse.
func TestSymmetriesKeepTheBoard(t *testing.T) {
	seen := map[[NumSquares]Square]Symmetry{}
	for y := Symmetry(0); y < NumSymmetries; y++ {
		var perm [NumSquares]Square
		var image Bitboard
		for s := Square(0); s < NumSquares; s++ {
			perm[s] = y.Square(s)
			image |= Bit(perm[s])
			if got := y.Apply(Bit(s)); got != Bit(perm[s]) {
				t.Fatalf("symmetry %d: Apply(%s) = %x, Square = %s", y, s, got, perm[s])
			}
		}
		if image != Full {
			t.Fatalf("symmetry %d is not a permutation", y)
		}
		if z, dup := seen[perm]; dup {
			t.Fatalf("symmetries %d and %d are the same", z, y)
		}
		seen[perm] = y
		for _, top := range []*Topology{Plain, Diagonal} {
			for s := Square(0); s < NumSquares; s++ {
				if got := y.Apply(top.Adjacent[s]); got != top.Adjacent[y.Square(s)] {
					t.Fatalf("symmetry %d (diagonal %t): neighbours of %s map to %x, want %x", y, top.Diagonal, s, got, top.Adjacent[y.Square(s)])
				}
			}
			lines := map[Bitboard]bool{}
			for _, l := range top.Lines {
				lines[l] = true
			}
			for _, l := range top.Lines {
				if !lines[y.Apply(l)] {
					t.Fatalf("symmetry %d (diagonal %t): line %x maps to %x, not a line", y, top.Diagonal, l, y.Apply(l))
				}
			}
		}
		inv := y.Inverse()
		for s := Square(0); s < NumSquares; s++ {
			if inv.Square(y.Square(s)) != s {
				t.Fatalf("symmetry %d: inverse %d does not undo it at %s", y, inv, s)
			}
		}
	}
	// Closed under composition: the image of every symmetry after another
	// is one of the 16.
	for a := Symmetry(0); a < NumSymmetries; a++ {
		for b := Symmetry(0); b < NumSymmetries; b++ {
			var perm [NumSquares]Square
			for s := Square(0); s < NumSquares; s++ {
				perm[s] = b.Square(a.Square(s))
			}
			if _, ok := seen[perm]; !ok {
				t.Fatalf("symmetry %d after %d is not a symmetry", b, a)
			}
		}
	}
}

// Named images: the quarter turn, the mirror and the ring exchange move the
// points a person would expect.
func TestSymmetryExamples(t *testing.T) {
	sq := func(l string) Square {
		s, err := ParseSquare(l)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		y        Symmetry
		from, to string
	}{
		{1, "d7", "g4"}, // a quarter turn clockwise
		{1, "a7", "g7"},
		{2, "d7", "d1"},
		{4, "a7", "g7"}, // the mirror in the d-file
		{4, "d7", "d7"},
		{4, "b4", "f4"},
		{8, "d7", "d5"}, // the inner and outer rings exchanged
		{8, "a1", "c3"},
		{8, "b6", "b6"},
	} {
		if got := tc.y.Square(sq(tc.from)); got != sq(tc.to) {
			t.Errorf("symmetry %d sends %s to %s, want %s", tc.y, tc.from, got, tc.to)
		}
	}
}

func TestApplyRandomSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		b := Bitboard(rng.Uint32()) & Full
		for y := Symmetry(0); y < NumSymmetries; y++ {
			var want Bitboard
			for c := b; c != 0; {
				want |= Bit(y.Square(c.PopFirst()))
			}
			if got := y.Apply(b); got != want || y.Inverse().Apply(got) != b {
				t.Fatalf("symmetry %d of %x: %x, want %x", y, b, got, want)
			}
		}
	}
}

func BenchmarkApply(b *testing.B) {
	x := Bitboard(0x5a5a5a)
	for i := 0; i < b.N; i++ {
		x = Symmetry(i&15).Apply(x) ^ 1
	}
	_ = x
}

// Every image of a pair has the same canonical image, and it is the least.
func TestCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		a := Bitboard(rng.Uint32()) & Full
		b := Bitboard(rng.Uint32()) & Full &^ a
		y := Canonical(a, b)
		ca, cb := y.Apply(a), y.Apply(b)
		for z := Symmetry(0); z < NumSymmetries; z++ {
			za, zb := z.Apply(a), z.Apply(b)
			if za < ca || (za == ca && zb < cb) {
				t.Fatalf("(%x, %x): canonical (%x, %x) but symmetry %d gives (%x, %x)", a, b, ca, cb, z, za, zb)
			}
			w := Canonical(za, zb)
			if w.Apply(za) != ca || w.Apply(zb) != cb {
				t.Fatalf("image %d of (%x, %x) has another canonical form", z, a, b)
			}
		}
	}
}
