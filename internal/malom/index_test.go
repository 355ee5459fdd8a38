package malom

import (
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// burnside counts the orbits of the k-point sets under the 16 symmetries
// from the cycles of each symmetry: a fixed set is a union of whole cycles.
func burnside(k int) int {
	total := 0
	for op := range NumSymmetries {
		// cycle lengths of op
		var lens []int
		done := uint32(0)
		for p := range 24 {
			if done&(1<<p) != 0 {
				continue
			}
			n, q := 0, uint32(1)<<p
			for done&q == 0 {
				done |= q
				n++
				q = Transform(op, q)
			}
			lens = append(lens, n)
		}
		// ways to pick cycles whose lengths sum to k
		ways := make([]int, k+1)
		ways[0] = 1
		for _, l := range lens {
			for s := k; s >= l; s-- {
				ways[s] += ways[s-l]
			}
		}
		total += ways[k]
	}
	return total / NumSymmetries
}

func TestOrbitCounts(t *testing.T) {
	for w := 0; w <= MaxPieces; w++ {
		x, err := NewIndex(w, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := x.Orbits(), burnside(w); got != want {
			t.Errorf("W=%d: %d orbits, want %d", w, got, want)
		}
	}
}

func TestIndexLen(t *testing.T) {
	// Slot counts of sectors, as the sizes of Malom's files show them.
	for _, c := range []struct{ w, b, n int }{
		{0, 0, 1}, {0, 1, 24}, {1, 1, 92}, {1, 2, 1012}, {1, 3, 7084}, {2, 2, 6930},
		{2, 3, 46200}, {2, 4, 219450}, {3, 3, 210140}, {3, 4, 945630}, {4, 3, 862980},
	} {
		x, err := NewIndex(c.w, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if x.Len() != c.n {
			t.Errorf("Index(%d, %d).Len() = %d, want %d", c.w, c.b, x.Len(), c.n)
		}
	}
	if _, err := NewIndex(13, 12); err == nil || err.Error() != "no index for 13 and 12 pieces on the board" {
		t.Errorf("NewIndex(13, 12) error %v", err)
	}
}

func TestColexRank(t *testing.T) {
	// Sets in increasing numeric order have consecutive ranks.
	for _, c := range []struct{ k, n int }{{0, 24}, {1, 24}, {3, 10}, {4, 21}} {
		x := uint32(1)<<c.k - 1
		for r := range binom[c.n][c.k] {
			if got := colexRank(x); got != r {
				t.Fatalf("colexRank(%#x) = %d, want %d", x, got, r)
			}
			if got := colexUnrank(r, c.k, c.n); got != x {
				t.Fatalf("colexUnrank(%d, %d, %d) = %#x, want %#x", r, c.k, c.n, got, x)
			}
			if r+1 < binom[c.n][c.k] {
				x = nextSet(x)
			}
		}
		if x>>c.n != 0 {
			t.Fatalf("k=%d n=%d: last set %#x leaves the universe", c.k, c.n, x)
		}
	}
}

func TestLocateSmallSectors(t *testing.T) {
	// One black piece and no white: the slot is Malom's point number.
	x, _ := NewIndex(0, 1)
	for s := bb.Square(0); s < bb.NumSquares; s++ {
		if slot, ok := x.Locate(0, bb.Bit(s)); !ok || slot != MalomPoint(s) {
			t.Errorf("Locate(-, %v) = %d, %t; want %d", s, slot, ok, MalomPoint(s))
		}
	}
	if m, o := x.Position(0); m != 0 || o != bb.Bit(mustSquare(t, "a4")) {
		t.Errorf("Position(0) = %v, %v; want -, a4", m, o)
	}
	if _, ok := x.Locate(bb.Bit(0), bb.Bit(1)); ok {
		t.Error("Locate accepted a white piece in sector 0v1")
	}
	y, _ := NewIndex(1, 1)
	if _, ok := y.Locate(bb.Bit(3), bb.Bit(3)); ok {
		t.Error("Locate accepted overlapping sets")
	}
	if _, ok := y.Locate(bb.Bit(3), 1<<24); ok {
		t.Error("Locate accepted a point off the board")
	}
}

// TestLocateAllPositions enumerates every position of small sectors: each
// maps to a slot holding a symmetric image of it, Position and Locate are
// inverse on slots, and the 16 images of a position reach the same orbit.
func TestLocateAllPositions(t *testing.T) {
	for _, c := range [][2]int{{0, 2}, {1, 1}, {2, 1}, {2, 2}, {3, 2}, {4, 1}} {
		x, _ := NewIndex(c[0], c[1])
		for slot := range x.Len() {
			m, o := x.Position(slot)
			if m.Count() != c[0] || o.Count() != c[1] || m&o != 0 {
				t.Fatalf("%v: Position(%d) = %v, %v", c, slot, m, o)
			}
			if got, ok := x.Locate(m, o); !ok || got != slot {
				t.Fatalf("%v: Locate(Position(%d)) = %d, %t", c, slot, got, ok)
			}
		}
		hit := make([]bool, x.Len())
		for w := uint32(1)<<c[0] - 1; w < 1<<24; {
			for bs := uint32(1)<<c[1] - 1; bs < 1<<(24-c[0]); {
				b := unsqueeze(w, bs)
				slot, ok := x.Locate(FromMalom(w), FromMalom(b))
				if !ok {
					t.Fatalf("%v: Locate refused %#x, %#x", c, w, b)
				}
				hit[slot] = true
				sw, sb := x.board(slot)
				found := false
				for op := range NumSymmetries {
					if Transform(op, w) == sw && Transform(op, b) == sb {
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("%v: slot %d of (%#x, %#x) holds (%#x, %#x), no image", c, slot, w, b, sw, sb)
				}
				if bs == 0 {
					break
				}
				bs = nextSet(bs)
			}
			if w == 0 {
				break
			}
			w = nextSet(w)
		}
		for slot, h := range hit {
			if !h {
				t.Fatalf("%v: no position locates slot %d", c, slot)
			}
		}
	}
}

func mustSquare(t *testing.T, label string) bb.Square {
	t.Helper()
	s, err := bb.ParseSquare(label)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
