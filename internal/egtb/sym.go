package egtb

import (
	"math/bits"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// Sym is one of the 16 symmetries of the board: bit 0 reflects each ring
// (ring index i → (8−i) mod 8, the mirror through the vertical axis), bits 1–2
// then rotate every ring clockwise by that many quarter turns (i → i+2 per
// quarter), and bit 3 then swaps the inner and the outer ring. They keep
// adjacency and mill lines of both boards (plain and diagonal), because every
// ring is treated alike and the spokes and diagonals join points with the same
// ring index. Sym 0 is the identity.
type Sym uint8

// NumSyms is the number of symmetries of the board.
const NumSyms = 16

// reflByte maps a ring's byte to its mirror image: bit i → bit (8−i) mod 8.
var reflByte [256]uint8

func init() {
	for b := 0; b < 256; b++ {
		var r uint8
		for i := 0; i < 8; i++ {
			if b&(1<<i) != 0 {
				r |= 1 << ((8 - i) % 8)
			}
		}
		reflByte[b] = r
	}
}

// Apply returns the image of the point set s under g.
func (g Sym) Apply(s bb.Bitboard) bb.Bitboard {
	b0, b1, b2 := uint8(s), uint8(s>>8), uint8(s>>16)
	if g&1 != 0 {
		b0, b1, b2 = reflByte[b0], reflByte[b1], reflByte[b2]
	}
	if r := int(g>>1&3) * 2; r != 0 {
		b0, b1, b2 = bits.RotateLeft8(b0, r), bits.RotateLeft8(b1, r), bits.RotateLeft8(b2, r)
	}
	if g&8 != 0 {
		b0, b2 = b2, b0
	}
	return bb.Bitboard(b0) | bb.Bitboard(b1)<<8 | bb.Bitboard(b2)<<16
}

// Square returns the image of one point under g.
func (g Sym) Square(s bb.Square) bb.Square { return g.Apply(bb.Bit(s)).First() }

// stabiliser returns the mask of the symmetries that map s onto itself.
func stabiliser(s bb.Bitboard) uint16 {
	var m uint16
	for g := Sym(0); g < NumSyms; g++ {
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
		g := Sym(bits.TrailingZeros16(m))
		if g.Apply(s) != s {
			out &^= 1 << g
		}
	}
	return out
}
