package egtb

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
)

// The index of a sector (m pieces for the side to move, o for the other side).
//
// A position is the pair (mover's set, other's set). It is first brought to
// canonical form: of its 16 images under the board's symmetries, those whose
// mover's set is the least (as a 24-bit number) are kept, and of these the one
// whose other's set is the least. The canonical mover's sets of m pieces are
// numbered in increasing order in a small table; the other's set is ranked
// combinatorially (colexicographic rank) among the 24−m points the mover does
// not hold. So
//
//	slot = canonicalMoverIndex · C(24−m, o) + rank(other's set among the free points)
//
// Every position has exactly one slot. A slot whose mover's set has a
// non-trivial stabiliser and whose other's set is not the least of its images
// under that stabiliser is never used (it is a symmetric duplicate of another
// slot); such slots hold Unused in the files.

// maxSetSize is the largest set size the set tables are built for: the most
// pieces a side has in a sector (nine, Nine Men's Morris' pieces).
const maxSetSize = 9

// binom[n][k] = C(n, k) for n ≤ 24, k ≤ 12.
var binom [25][13]uint32

func init() {
	for n := 0; n <= 24; n++ {
		binom[n][0] = 1
		for k := 1; k <= 12 && k <= n; k++ {
			binom[n][k] = binom[n-1][k-1]
			if k <= n-1 {
				binom[n][k] += binom[n-1][k]
			}
		}
	}
}

// The index functions below run for every predecessor the solver updates
// and every probe, so each works a byte of the board at a time through small
// tables (about 170 KB in all) instead of a point at a time.

// colexByte[j][b][t] is the part of a colex rank that the points of byte b,
// placed at byte j of the board, contribute when t points lie below that
// byte: the sum of C(8j+q, t+r+1) over its points q, the r-th one from
// below counted from 0.
var colexByte [3][256][13]uint32 // sets of up to 12 points (binom's range)

// squeeze[u][b] is the bits of b that are not in u, squeezed together
// (bit i of the result is the i-th point of the byte not in u); spread[u][c]
// is its inverse, the bits of c spread over the points of the byte not in u.
var squeeze, spread [256][256]uint8

func init() {
	for j := 0; j < 3; j++ {
		for b := 0; b < 256; b++ {
			for t := 0; t <= 12; t++ {
				var r uint32
				i := t
				for q := 0; q < 8; q++ {
					if b&(1<<q) != 0 {
						i++
						if i <= 12 {
							r += binom[8*j+q][i]
						}
					}
				}
				colexByte[j][b][t] = r
			}
		}
	}
	for u := 0; u < 256; u++ {
		for b := 0; b < 256; b++ {
			var sq uint8
			n := 0
			for q := 0; q < 8; q++ {
				if u&(1<<q) != 0 {
					continue
				}
				if b&(1<<q) != 0 {
					sq |= 1 << n
				}
				n++
			}
			squeeze[u][b] = sq
			if b&u == 0 {
				spread[u][sq] = uint8(b)
			}
		}
	}
}

// colex returns the colexicographic rank of s among the sets of its size
// (at most 12 points): the sum of C(p_i, i+1) over its points
// p_0 < p_1 < …. Sets of one size ordered by rank are ordered as numbers.
func colex(s bb.Bitboard) uint32 {
	b0, b1, b2 := uint8(s), uint8(s>>8), uint8(s>>16)
	t1 := bits.OnesCount8(b0)
	t2 := t1 + bits.OnesCount8(b1)
	return colexByte[0][b0][0] + colexByte[1][b1][t1] + colexByte[2][b2][t2]
}

// unrankColex returns the k-set of points below n whose colex rank is j.
func unrankColex(j uint32, k, n int) uint32 {
	var c uint32
	p := n - 1
	for ; k > 0; k-- {
		for binom[p][k] > j {
			p--
		}
		c |= 1 << p
		j -= binom[p][k]
		p--
	}
	return c
}

// compress returns s with the points of used squeezed out: bit i of the result
// is the i-th point not in used. s and used must be disjoint.
func compress(s, used bb.Bitboard) uint32 {
	u0, u1, u2 := uint8(used), uint8(used>>8), uint8(used>>16)
	f0 := 8 - bits.OnesCount8(u0)
	f1 := f0 + 8 - bits.OnesCount8(u1)
	return uint32(squeeze[u0][uint8(s)]) | uint32(squeeze[u1][uint8(s>>8)])<<f0 | uint32(squeeze[u2][uint8(s>>16)])<<f1
}

// deposit is compress's inverse: it spreads the bits of c over the points
// not in used, in order.
func deposit(c uint32, used bb.Bitboard) bb.Bitboard {
	u0, u1, u2 := uint8(used), uint8(used>>8), uint8(used>>16)
	f0 := 8 - bits.OnesCount8(u0)
	f1 := 8 - bits.OnesCount8(u1)
	return bb.Bitboard(spread[u0][uint8(c)&(1<<f0-1)]) |
		bb.Bitboard(spread[u1][uint8(c>>f0)&(1<<f1-1)])<<8 |
		bb.Bitboard(spread[u2][uint8(c>>(f0+f1))])<<16
}

// rankFree returns the colex rank of other among the points not in mover.
func rankFree(other, mover bb.Bitboard) uint32 { return colex(bb.Bitboard(compress(other, mover))) }

// setTable numbers the canonical sets of n points.
type setTable struct {
	n    int
	sets []bb.Bitboard // the canonical sets (least of their images), increasing
	// info[colex(s)] = canonical index of s << 16 | mask of the symmetries
	// that map s onto its canonical set. Nine-point sets have more than 2^16
	// canonical sets, so the index takes the bits above the mask's 16.
	info []uint64
}

// class returns what info holds of the set whose colex rank is rank: the
// number ci of its canonical set cm, and the mask of the symmetries that
// map it onto cm.
func (t *setTable) class(rank uint32) (ci uint32, mask uint16, cm bb.Bitboard) {
	e := t.info[rank]
	ci = uint32(e >> 16)
	return ci, uint16(e), t.sets[ci]
}

// prefetchClass starts loading the info entry of the set of colex rank
// rank, for a class look-up a little later (the solver's, which look up
// many at random).
func (t *setTable) prefetchClass(rank uint32) {
	memory.Prefetch(uintptr(unsafe.Pointer(&t.info[rank])))
}

var (
	setTables    [maxSetSize + 1]atomic.Pointer[setTable]
	setTableOnce [maxSetSize + 1]sync.Once
)

// canonicalSets[n] is the number of canonical sets of n points (the length
// of setsOf(n).sets, checked by a test), so that a sector knows its size
// without building its set table: opening the tables of the whole game
// then reads their headers only, and the set tables (0.35 s of CPU for
// 3..9 points) are built at their first use or by warmSetTables.
var canonicalSets = [maxSetSize + 1]uint32{1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880}

// setsOf returns the table of canonical sets of n points (built once). The
// table of 0 points holds the empty set, which every symmetry fixes: the
// side without a piece on the board in a placing sector.
func setsOf(n int) *setTable {
	if n < 0 || n > maxSetSize {
		panic(fmt.Sprintf("egtb: no set table for %d points (0..%d)", n, maxSetSize))
	}
	setTableOnce[n].Do(func() { setTables[n].Store(buildSetTable(n)) })
	return setTables[n].Load()
}

// warmSetTables builds the set tables of the sectors in secs that are not
// built yet, for Open to run on its own goroutine: the first probe of a
// game then finds them ready instead of building them under the clock.
func warmSetTables(secs []SectorSpec) {
	for _, s := range secs {
		setsOf(s.M)
	}
}

func buildSetTable(n int) *setTable {
	t := &setTable{n: n, info: make([]uint64, binom[24][n])}
	if n == 0 {
		t.sets, t.info[0] = []bb.Bitboard{0}, 1<<bb.NumSymmetries-1
		return t
	}
	// Gosper's hack visits the n-sets in increasing order, which is colex order.
	s := uint32(1)<<n - 1
	for r := uint32(0); r < binom[24][n]; r++ {
		least := bb.Bitboard(s)
		var imgs [bb.NumSymmetries]bb.Bitboard
		for g := bb.Symmetry(0); g < bb.NumSymmetries; g++ {
			imgs[g] = g.Apply(bb.Bitboard(s))
			if imgs[g] < least {
				least = imgs[g]
			}
		}
		var mask uint64
		for g := range imgs {
			if imgs[g] == least {
				mask |= 1 << g
			}
		}
		var idx uint64
		if least == bb.Bitboard(s) {
			idx = uint64(len(t.sets))
			t.sets = append(t.sets, least)
		} else {
			idx = t.info[colex(least)] >> 16 // least < s: numbered already
		}
		t.info[r] = idx<<16 | mask
		c := s & -s
		x := s + c
		s = ((x^s)>>2)/c | x
	}
	return t
}

// sector is the index of the positions with m pieces for the side to move and
// o for the other side (either may be 0 in the placing phase).
type sector struct {
	m, o   int
	others uint32 // C(24−m, o): slots per canonical mover's set
	size   uint32 // slots in all
}

// movers is the table of the mover's canonical sets, built at its first use.
func (s *sector) movers() *setTable {
	if t := setTables[s.m].Load(); t != nil {
		return t
	}
	return setsOf(s.m)
}

func newSector(m, o int) *sector {
	if m < 0 || o < 0 || m > maxSetSize || m+o > bb.NumSquares {
		panic(fmt.Sprintf("egtb: no sector %dv%d", m, o))
	}
	others := binom[24-m][o]
	total := uint64(canonicalSets[m]) * uint64(others)
	if total >= 1<<32 {
		panic(fmt.Sprintf("egtb: sector %dv%d has too many slots", m, o))
	}
	return &sector{m: m, o: o, others: others, size: uint32(total)}
}

// index returns the slot of the position (mover, other): mover has m points,
// other o points, and they are disjoint.
func (s *sector) index(mover, other bb.Bitboard) uint32 {
	ci, mask, cm := s.moverClass(mover)
	return s.indexIn(ci, mask, cm, other)
}

// moverClass returns what index needs of the side to move's set: the number
// ci of its canonical set cm and the mask of the symmetries that map mover
// onto cm. A caller that looks up many positions with one mover's set (egtb
// verify) computes it once.
func (s *sector) moverClass(mover bb.Bitboard) (ci uint32, mask uint16, cm bb.Bitboard) {
	return s.movers().class(colex(mover))
}

// indexIn is index for a mover of class (ci, mask, cm): the least image of
// other under the symmetries of mask, ranked among the points cm leaves free.
func (s *sector) indexIn(ci uint32, mask uint16, cm, other bb.Bitboard) uint32 {
	co := bb.Symmetry(bits.TrailingZeros16(mask)).Apply(other)
	for mask &= mask - 1; mask != 0; mask &= mask - 1 {
		if c := bb.Symmetry(bits.TrailingZeros16(mask)).Apply(other); c < co {
			co = c
		}
	}
	return ci*s.others + rankFree(co, cm)
}

// decode returns the position of slot i (canonical when the slot is used).
func (s *sector) decode(i uint32) (mover, other bb.Bitboard) {
	mover = s.movers().sets[i/s.others]
	return mover, deposit(unrankColex(i%s.others, s.o, 24-s.m), mover)
}

// used reports whether the canonical mover's set mover and other form a
// canonical position, that is whether their slot is used.
func (s *sector) used(mover, other bb.Bitboard) bool {
	mask := uint16(s.movers().info[colex(mover)]) &^ 1 // the stabiliser of mover, identity excluded
	for ; mask != 0; mask &= mask - 1 {
		if bb.Symmetry(bits.TrailingZeros16(mask)).Apply(other) < other {
			return false
		}
	}
	return true
}

// slotWalk goes over a sector's slots in order, as decode reads them: slot
// i is the (i/others)-th canonical set of the mover and the (i%others)-th
// set (colex) of the other side's pieces on the points it leaves free. A
// step costs a next combination and a deposit where decode unranks both
// sets; the mover's stabiliser is looked up once a set.
type slotWalk struct {
	s     *sector
	sets  *setTable
	mi, j uint32
	cm    uint32      // the other side's set, as ranks of the free points
	mover bb.Bitboard // the mover's set
	mask  uint16      // the symmetries that fix it, identity excluded
}

// start places the walk at slot i.
func (w *slotWalk) start(s *sector, i uint32) {
	w.s, w.sets = s, s.movers()
	w.mi, w.j = i/s.others, i%s.others
	w.setMover()
	w.cm = unrankColex(w.j, s.o, 24-s.m)
}

func (w *slotWalk) setMover() {
	if int(w.mi) < len(w.sets.sets) {
		w.mover = w.sets.sets[w.mi]
		w.mask = uint16(w.sets.info[colex(w.mover)]) &^ 1
	}
}

// next moves the walk to the next slot.
func (w *slotWalk) next() {
	if w.j++; w.j == w.s.others {
		w.j = 0
		w.mi++
		w.setMover()
		w.cm = 1<<w.s.o - 1
		return
	}
	x := w.cm & -w.cm
	y := w.cm + x
	w.cm = ((y^w.cm)>>2)/x | y
}

// slot returns the slot's mover and other sets, and whether it is used
// (as sector.used says).
func (w *slotWalk) slot() (mover, other bb.Bitboard, used bool) {
	other = deposit(w.cm, w.mover)
	for mask := w.mask; mask != 0; mask &= mask - 1 {
		if bb.Symmetry(bits.TrailingZeros16(mask)).Apply(other) < other {
			return w.mover, other, false
		}
	}
	return w.mover, other, true
}

// orbit returns the number of distinct positions symmetric to the canonical
// position (mover, other), itself included: 16 / |stabiliser|.
func (s *sector) orbit(mover, other bb.Bitboard) int {
	mask := uint16(s.movers().info[colex(mover)])
	if mask == 1 {
		return bb.NumSymmetries
	}
	return bb.NumSymmetries / bits.OnesCount16(stabiliserWithin(other, mask))
}

// name returns "MvO".
func (s *sector) name() string { return fmt.Sprintf("%dv%d", s.m, s.o) }
