package malom

import (
	"math/bits"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// Malom's point numbering and its 16 symmetries.
//
// Malom keeps a set of points as 24 bits like we do, ring by ring, but its
// rings run from the outer one in, and each ring starts at the midpoint of
// its left side where ours starts at the midpoint of its top side (both go
// clockwise). So our ring k is Malom's ring 2−k, and within a ring Malom's
// point q is our point q−2 (mod 8): converting a ring's byte is a rotation by
// two bits. (The conversion is itself a symmetry of the board, a quarter
// turn combined with the ring exchange, so values never depend on it; slot
// numbers do.)
//
// A symmetry acts on every ring alike, optionally exchanging the outer and
// the inner ring. Malom's numbers, with q a point within its ring:
//
//	0–2   rotation by 90°, 180°, 270°: q → q+2, q+4, q+6
//	3     mirror: q → 4−q
//	4     mirror: q → −q
//	5     mirror: q → 2−q
//	6     mirror: q → 6−q
//	7     ring exchange only
//	8–14  0–6, then the ring exchange
//	15    identity
//
// The numbers matter: a redirect entry stores one.

// NumSymmetries is the number of symmetries of the board.
const NumSymmetries = 16

// IdentitySymmetry is Malom's number of the identity.
const IdentitySymmetry = 15

const exchangeRings = 7

var (
	// ringMap[op][b] is the image of the ring byte b under the ring part of
	// op.
	ringMap [NumSymmetries][256]uint8
	// inverseOp[op] is the symmetry that undoes op.
	inverseOp [NumSymmetries]uint8
)

// ringPoint returns where the ring part of op sends point q (0–7).
func ringPoint(op, q int) int {
	base := op
	if op >= 8 && op < 15 {
		base = op - 8
	}
	switch base {
	case 0, 1, 2:
		q += 2 * (base + 1)
	case 3:
		q = 4 - q
	case 4:
		q = -q
	case 5:
		q = 2 - q
	case 6:
		q = 6 - q
	}
	return q & 7
}

// exchanges reports whether op exchanges the outer and the inner ring.
func exchanges(op int) bool { return op >= exchangeRings && op < IdentitySymmetry }

func init() {
	for op := range NumSymmetries {
		for b := range 256 {
			var img int
			for q := range 8 {
				if b&(1<<q) != 0 {
					img |= 1 << ringPoint(op, q)
				}
			}
			ringMap[op][b] = uint8(img)
		}
	}
	for op := range NumSymmetries {
		for inv := range NumSymmetries {
			ok := true
			for p := range 24 {
				if Transform(inv, Transform(op, 1<<p)) != 1<<p {
					ok = false
					break
				}
			}
			if ok {
				inverseOp[op] = uint8(inv)
				break
			}
		}
	}
}

// Transform returns the image of the Malom-numbered set m under Malom's
// symmetry op (0–15).
func Transform(op int, m uint32) uint32 {
	t := &ringMap[op]
	r0, r1, r2 := uint32(t[m&0xFF]), uint32(t[m>>8&0xFF]), uint32(t[m>>16&0xFF])
	if exchanges(op) {
		r0, r2 = r2, r0
	}
	return r0 | r1<<8 | r2<<16
}

// InverseSymmetry returns the symmetry that undoes op.
func InverseSymmetry(op int) int { return int(inverseOp[op]) }

// ToMalom converts a set of our points to Malom's numbering.
func ToMalom(b bb.Bitboard) uint32 {
	x := uint32(b)
	var m uint32
	for k := range 3 {
		m |= uint32(bits.RotateLeft8(uint8(x>>(8*k)), 2)) << (8 * (2 - k))
	}
	return m
}

// FromMalom converts a Malom-numbered set to our points.
func FromMalom(m uint32) bb.Bitboard {
	var x uint32
	for r := range 3 {
		x |= uint32(bits.RotateLeft8(uint8(m>>(8*r)), -2)) << (8 * (2 - r))
	}
	return bb.Bitboard(x)
}

// MalomPoint returns Malom's number of our point s.
func MalomPoint(s bb.Square) int {
	return 8*(2-int(s)/8) + (int(s)%8+2)%8
}
