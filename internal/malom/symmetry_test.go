package malom

import (
	"math/bits"
	"slices"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// malomLines are the mill lines in Malom's numbering, written out from the
// description of its board: on each ring the sides 1-2-3, 3-4-5, 5-6-7,
// 7-0-1 (odd points are corners), the spokes through the even points, and on
// the diagonal board the corner diagonals.
func malomLines(diagonal bool) []uint32 {
	var ls []uint32
	for r := range 3 {
		for c := 1; c < 8; c += 2 {
			ls = append(ls, 1<<(8*r+c)|1<<(8*r+(c+1)%8)|1<<(8*r+(c+2)%8))
		}
	}
	for q := 0; q < 8; q += 2 {
		ls = append(ls, 1<<q|1<<(8+q)|1<<(16+q))
	}
	if diagonal {
		for q := 1; q < 8; q += 2 {
			ls = append(ls, 1<<q|1<<(8+q)|1<<(16+q))
		}
	}
	slices.Sort(ls)
	return ls
}

func TestMalomNumbering(t *testing.T) {
	// Malom's first points, as Sanmill's adapter maps them.
	for m, label := range map[int]string{0: "a4", 1: "a7", 2: "d7", 7: "a1", 8: "b4", 10: "d6", 16: "c4", 18: "d5", 23: "c3"} {
		s, err := bb.ParseSquare(label)
		if err != nil {
			t.Fatal(err)
		}
		if got := MalomPoint(s); got != m {
			t.Errorf("MalomPoint(%s) = %d, want %d", label, got, m)
		}
	}
	for s := bb.Square(0); s < bb.NumSquares; s++ {
		if got := ToMalom(bb.Bit(s)); got != 1<<MalomPoint(s) {
			t.Errorf("ToMalom(%v) = %#x, want bit %d", s, got, MalomPoint(s))
		}
	}
	for _, x := range []uint32{0, 1, 0xFFFFFF, 0x123456, 0xA5A5A5, 0x800001} {
		if got := ToMalom(FromMalom(x)); got != x {
			t.Errorf("ToMalom(FromMalom(%#x)) = %#x", x, got)
		}
	}
	// The conversion maps our lines onto Malom's: the boards agree.
	for _, diag := range []bool{false, true} {
		var got []uint32
		for _, l := range bb.For(diag).Lines {
			got = append(got, ToMalom(l))
		}
		slices.Sort(got)
		if !slices.Equal(got, malomLines(diag)) {
			t.Errorf("diagonal=%t: our lines in Malom's numbering %x, want %x", diag, got, malomLines(diag))
		}
	}
}

func TestSymmetries(t *testing.T) {
	// A few images, point by point.
	cases := []struct{ op, from, to int }{
		{0, 0, 2}, {0, 22, 16}, {1, 3, 7}, {2, 9, 15}, {3, 0, 4}, {4, 0, 0}, {4, 1, 7},
		{5, 0, 2}, {6, 0, 6}, {7, 0, 16}, {7, 12, 12}, {8, 0, 18}, {14, 0, 22}, {15, 13, 13},
	}
	for _, c := range cases {
		if got := Transform(c.op, 1<<c.from); got != 1<<c.to {
			t.Errorf("Transform(%d, point %d) = %#x, want point %d", c.op, c.from, got, c.to)
		}
	}
	wantInverse := []int{2, 1, 0, 3, 4, 5, 6, 7, 10, 9, 8, 11, 12, 13, 14, 15}
	for op := range NumSymmetries {
		if got := InverseSymmetry(op); got != wantInverse[op] {
			t.Errorf("InverseSymmetry(%d) = %d, want %d", op, got, wantInverse[op])
		}
	}
	// Every symmetry is a distinct permutation that keeps the lines of both
	// boards.
	seen := map[[24]int]int{}
	for op := range NumSymmetries {
		var perm [24]int
		for p := range 24 {
			img := Transform(op, 1<<p)
			if bits.OnesCount32(img) != 1 {
				t.Fatalf("op %d: point %d goes to %#x", op, p, img)
			}
			perm[p] = bits.TrailingZeros32(img)
		}
		if o, dup := seen[perm]; dup {
			t.Errorf("ops %d and %d are the same permutation", o, op)
		}
		seen[perm] = op
		for _, diag := range []bool{false, true} {
			lines := malomLines(diag)
			for _, l := range lines {
				if _, ok := slices.BinarySearch(lines, Transform(op, l)); !ok {
					t.Errorf("op %d: line %#x goes to %#x, not a line", op, l, Transform(op, l))
				}
			}
		}
	}
}
