package malom

import (
	"fmt"
	"math/bits"
	"sync"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// binom[n][k] is C(n, k) for n, k ≤ 24.
var binom [25][25]int

func init() {
	for n := range 25 {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
}

// colexRank returns the position of the set x among the sets of its size in
// increasing numeric order: the sum of C(p, j) over its points p, the j-th
// lowest counting from 1.
func colexRank(x uint32) int {
	r, j := 0, 0
	for ; x != 0; x &= x - 1 {
		j++
		r += binom[bits.TrailingZeros32(x)][j]
	}
	return r
}

// colexUnrank returns the set of k points below n with colex rank r.
func colexUnrank(r, k, n int) uint32 {
	var x uint32
	p := n - 1
	for j := k; j >= 1; j-- {
		for binom[p][j] > r {
			p--
		}
		x |= 1 << p
		r -= binom[p][j]
		p--
	}
	return x
}

// squeezedRank is the colex rank of black after removing the points of
// white from the board (each black point moves down by the white points
// below it): black's rank among the sets of its size on the empty points.
func squeezedRank(white, black uint32) int {
	r, j := 0, 0
	for ; black != 0; black &= black - 1 {
		p := bits.TrailingZeros32(black)
		j++
		r += binom[p-bits.OnesCount32(white&(1<<p-1))][j]
	}
	return r
}

// unsqueeze spreads the squeezed set s over the points not in white: its
// i-th point goes to the i-th empty point.
func unsqueeze(white, s uint32) uint32 {
	var black uint32
	i := 0
	for p := range 24 {
		if white&(1<<p) != 0 {
			continue
		}
		if s&(1<<i) != 0 {
			black |= 1 << p
		}
		i++
	}
	return black
}

// whiteTable groups the white sets of one size into orbits under the
// symmetries, as Malom does.
type whiteTable struct {
	orbit []int32  // by colex rank of the set: its orbit's number
	op    []uint8  // by colex rank: the symmetry Malom applies to reach the seed
	seeds []uint32 // by orbit: its smallest set (Malom numbering)
}

var (
	whiteOnce   [25]sync.Once
	whiteTables [25]*whiteTable
)

// whitesOf returns the table of the white sets with w points, built once.
func whitesOf(w int) *whiteTable {
	whiteOnce[w].Do(func() { whiteTables[w] = buildWhites(w) })
	return whiteTables[w]
}

// buildWhites numbers the orbits of the w-point sets in the order of their
// smallest member. For every member it records the symmetry Malom applies:
// Malom walks the 16 symmetries i of the seed in order, writing the inverse
// of i at the image, so the last i that reaches a set wins (the identity, 15,
// for the seed itself).
func buildWhites(w int) *whiteTable {
	n := binom[24][w]
	t := &whiteTable{orbit: make([]int32, n), op: make([]uint8, n)}
	for i := range t.orbit {
		t.orbit[i] = -1
	}
	x := uint32(1)<<w - 1
	for i := range n {
		if t.orbit[colexRank(x)] < 0 {
			c := int32(len(t.seeds))
			t.seeds = append(t.seeds, x)
			for op := range NumSymmetries {
				r := colexRank(Transform(op, x))
				t.orbit[r] = c
				t.op[r] = inverseOp[op]
			}
		}
		if i+1 < n {
			x = nextSet(x)
		}
	}
	return t
}

// nextSet returns the next larger number with as many bits as x (x ≠ 0).
func nextSet(x uint32) uint32 {
	low := x & -x
	ripple := x + low
	return ripple | ((x^ripple)>>2)/low
}

// Index is Malom's numbering of the positions of the sectors with W white
// (side to move) and B black pieces on the board: the slots of a sector file.
// It depends neither on the variant nor on the pieces in hand. An Index is
// immutable and safe for concurrent use; the tables of the white sets are
// built once per W and shared.
type Index struct {
	w, b   int
	blacks int // C(24−W, B): slots per white orbit
	whites *whiteTable
}

// NewIndex returns the index of the sectors with w and b pieces on the board.
func NewIndex(w, b int) (*Index, error) {
	if w < 0 || b < 0 || w+b > 24 {
		return nil, fmt.Errorf("no index for %d and %d pieces on the board", w, b)
	}
	return &Index{w: w, b: b, blacks: binom[24-w][b], whites: whitesOf(w)}, nil
}

// Len returns the number of slots.
func (x *Index) Len() int { return len(x.whites.seeds) * x.blacks }

// Orbits returns the number of orbits of the white sets.
func (x *Index) Orbits() int { return len(x.whites.seeds) }

// Pieces returns W and B.
func (x *Index) Pieces() (w, b int) { return x.w, x.b }

// locate returns the slot Malom reads first for the Malom-numbered sets
// white and black (of the right sizes, disjoint), and the position in that
// slot (white is then the orbit's seed).
func (x *Index) locate(white, black uint32) (slot int, seed, turned uint32) {
	r := colexRank(white)
	orbit := int(x.whites.orbit[r])
	seed = x.whites.seeds[orbit]
	turned = Transform(int(x.whites.op[r]), black)
	return orbit*x.blacks + squeezedRank(seed, turned), seed, turned
}

// Locate returns the slot Malom reads first for the position in which the
// side to move holds mover and the other side other; ok is false when the
// counts are not W and B or the sets overlap or leave the board. The slot
// may hold a redirect (see Sector.Probe, which follows it).
func (x *Index) Locate(mover, other bb.Bitboard) (slot int, ok bool) {
	if mover.Count() != x.w || other.Count() != x.b || mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return 0, false
	}
	slot, _, _ = x.locate(ToMalom(mover), ToMalom(other))
	return slot, true
}

// slotOf returns the slot of the position whose white set is the seed of its
// orbit (the position stored there, no symmetry applied).
func (x *Index) slotOf(orbit int, seed, black uint32) int {
	return orbit*x.blacks + squeezedRank(seed, black)
}

// board returns the Malom-numbered position stored in slot.
func (x *Index) board(slot int) (white, black uint32) {
	orbit, g := slot/x.blacks, slot%x.blacks
	white = x.whites.seeds[orbit]
	return white, unsqueeze(white, colexUnrank(g, x.b, 24-x.w))
}

// Position returns the position stored in slot (0 ≤ slot < Len): the side
// to move's pieces and the other side's. Locate(Position(slot)) is slot.
func (x *Index) Position(slot int) (mover, other bb.Bitboard) {
	w, b := x.board(slot)
	return FromMalom(w), FromMalom(b)
}
