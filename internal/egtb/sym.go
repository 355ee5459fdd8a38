package egtb

import (
	"math/bits"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// The 16 symmetries of the board are bitboard.Symmetry: the index reduces a
// position to its least image over all of them, so the tables do not depend
// on how the symmetries are numbered.

// stabiliser returns the mask of the symmetries that map s onto itself.
func stabiliser(s bb.Bitboard) uint16 {
	var m uint16
	for g := bb.Symmetry(0); g < bb.NumSymmetries; g++ {
		if g.Apply(s) == s {
			m |= 1 << g
		}
	}
	return m
}

// stabiliserWithin returns the symmetries of mask that map s onto itself.
func stabiliserWithin(s bb.Bitboard, mask uint16) uint16 {
	out := mask
	for m := mask; m != 0; m &= m - 1 {
		g := bb.Symmetry(bits.TrailingZeros16(m))
		if g.Apply(s) != s {
			out &^= 1 << g
		}
	}
	return out
}
