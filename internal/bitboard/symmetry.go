package bitboard

// The mill board has 16 symmetries: the 8 of the square (rotations by 90°
// and reflections) times the exchange of the inner and outer rings. Each maps
// lines to lines and neighbours to neighbours on the plain board and on the
// board with diagonals, so a position and its images have the same value.
// In the ring-order numbering the 8 symmetries of the square act on every
// ring alike (a rotation by 90° moves point i of a ring to i+2, the mirror
// in the d-file moves i to 8−i), and the ring exchange swaps the inner and
// the outer ring's bytes; that makes an image of a whole set three table
// look-ups.

// Symmetry is one of the NumSymmetries symmetries of the board: bits 0–1
// rotate by 90° that many times, bit 2 mirrors (after rotating), bit 3
// exchanges the inner and outer rings. Identity is 0.
type Symmetry uint8

// NumSymmetries is the number of symmetries of the board.
const NumSymmetries = 16

// Identity leaves every point where it is.
const Identity Symmetry = 0

// ringImage[d][i] is where the dihedral element d (bits 0–2 of a Symmetry)
// sends point i of a ring (0–7).
var ringImage [8][8]uint8

// byteImage[d][b] is the image of the 8-point ring set b under the dihedral
// element d.
var byteImage [8][256]uint8

func init() {
	for d := 0; d < 8; d++ {
		rot, mirror := d&3, d&4 != 0
		for i := 0; i < 8; i++ {
			j := (i + 2*rot) & 7
			if mirror {
				j = (8 - j) & 7
			}
			ringImage[d][i] = uint8(j)
		}
		for b := 0; b < 256; b++ {
			var img uint8
			for i := 0; i < 8; i++ {
				if b&(1<<i) != 0 {
					img |= 1 << ringImage[d][i]
				}
			}
			byteImage[d][b] = img
		}
	}
	for y := Symmetry(0); y < NumSymmetries; y++ {
		for z := Symmetry(0); z < NumSymmetries; z++ {
			if undoes(z, y) {
				inverse[y] = z
			}
		}
	}
}

// Square returns the image of s under the symmetry.
func (y Symmetry) Square(s Square) Square {
	ring, i := int(s)/8, int(s)%8
	if y&8 != 0 {
		ring = 2 - ring
	}
	return Square(ring*8 + int(ringImage[y&7][i]))
}

// Apply returns the image of the set b under the symmetry.
func (y Symmetry) Apply(b Bitboard) Bitboard {
	d := y & 7
	inner := Bitboard(byteImage[d][b&0xff])
	middle := Bitboard(byteImage[d][b>>8&0xff])
	outer := Bitboard(byteImage[d][b>>16&0xff])
	if y&8 != 0 {
		inner, outer = outer, inner
	}
	return inner | middle<<8 | outer<<16
}

// Inverse returns the symmetry that undoes y.
func (y Symmetry) Inverse() Symmetry { return inverse[y] }

// inverse[y] is the symmetry that undoes y (filled by init, after the
// tables it is computed from).
var inverse [NumSymmetries]Symmetry

// undoes reports whether z sends every point back where y took it from.
func undoes(z, y Symmetry) bool {
	for s := Square(0); s < NumSquares; s++ {
		if z.Square(y.Square(s)) != s {
			return false
		}
	}
	return true
}

// Canonical returns the symmetry that gives the pair of sets (a, b) its least
// image, ordered by a's image first, then b's: all the images of a pair have
// the same canonical image, so it can stand for all of them (in an opening
// book or an endgame table). When several symmetries give the least image,
// the lowest is returned.
func Canonical(a, b Bitboard) Symmetry {
	best, ba, bb := Identity, a, b
	for y := Symmetry(1); y < NumSymmetries; y++ {
		ia := y.Apply(a)
		if ia > ba {
			continue
		}
		ib := y.Apply(b)
		if ia < ba || ib < bb {
			best, ba, bb = y, ia, ib
		}
	}
	return best
}
