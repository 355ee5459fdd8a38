package egtb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

func mustSquare(l string) bb.Square {
	s, err := bb.ParseSquare(l)
	if err != nil {
		panic(err)
	}
	return s
}

func TestColexAndCompress(t *testing.T) {
	for k := 1; k <= 7; k++ {
		s := uint32(1)<<k - 1
		for r := uint32(0); r < binom[21][k]; r++ {
			if got := colex(bb.Bitboard(s)); got != r {
				t.Fatalf("colex(%b) = %d, want %d", s, got, r)
			}
			if got := unrankColex(r, k, 21); got != s {
				t.Fatalf("unrankColex(%d, %d) = %b, want %b", r, k, got, s)
			}
			c := s & -s
			x := s + c
			s = ((x^s)>>2)/c | x
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		used, s := randomPosition(rng, rng.IntN(12), rng.IntN(11))
		c := compress(s, used)
		if bits.OnesCount32(c) != s.Count() || c >= 1<<(24-used.Count()) {
			t.Fatalf("compress(%06x, %06x) = %b", s, used, c)
		}
		if back := deposit(c, used); back != s {
			t.Fatalf("deposit(compress(%06x), %06x) = %06x", s, used, back)
		}
		if rankFree(s, used) != colex(bb.Bitboard(c)) {
			t.Fatalf("rankFree(%06x, %06x) = %d, want %d", s, used, rankFree(s, used), colex(bb.Bitboard(c)))
		}
	}
}

// The set tables: every set maps to its canonical set by the symmetries its
// mask names, the canonical set is the least image, and Burnside's count of
// the orbits agrees with the number of canonical sets.
// canonicalSets, which sizes a sector without its set table, counts the
// canonical sets of each size exactly.
func TestCanonicalSetCounts(t *testing.T) {
	for n := 0; n <= maxSetSize; n++ {
		if got := uint32(len(setsOf(n).sets)); got != canonicalSets[n] {
			t.Errorf("%d points: %d canonical sets, canonicalSets says %d", n, got, canonicalSets[n])
		}
	}
}

func TestSetTables(t *testing.T) {
	for n := 1; n <= 5; n++ {
		st := setsOf(n)
		s := uint32(1)<<n - 1
		fixed := 0
		for r := uint32(0); r < binom[24][n]; r++ {
			e := st.info[r]
			canon := st.sets[e>>16]
			for g := bb.Symmetry(0); g < bb.NumSymmetries; g++ {
				img := g.Apply(bb.Bitboard(s))
				if img < canon {
					t.Fatalf("%06x: image %06x under %d is less than the canonical %06x", s, img, g, canon)
				}
				if (img == canon) != (e&(1<<g) != 0) {
					t.Fatalf("%06x: mask %04x wrong for sym %d", s, uint16(e), g)
				}
				if img == bb.Bitboard(s) {
					fixed++
				}
			}
			c := s & -s
			x := s + c
			s = ((x^s)>>2)/c | x
		}
		if fixed != bb.NumSymmetries*len(st.sets) {
			t.Fatalf("%d points: Burnside gives %d/16 orbits, the table has %d", n, fixed, len(st.sets))
		}
	}
}

// index → position → index for every slot of small sectors; an unused slot's
// position maps to another slot (the one of its canonical form). The used
// slots weighted by orbit size count every placement exactly once.
func TestIndexRoundTrip(t *testing.T) {
	for _, sp := range []SectorSpec{{M: 3, O: 3}, {M: 4, O: 3}, {M: 3, O: 4}} {
		sec := newSector(sp.M, sp.O)
		var raw, used uint64
		for i := uint32(0); i < sec.size; i++ {
			m, o := sec.decode(i)
			if m.Count() != sp.M || o.Count() != sp.O || m&o != 0 {
				t.Fatalf("%s slot %d decodes to %06x/%06x", sp, i, m, o)
			}
			j := sec.index(m, o)
			if sec.used(m, o) != (j == i) {
				t.Fatalf("%s slot %d: used %t, but index(decode) = %d", sp, i, sec.used(m, o), j)
			}
			if j == i {
				used++
				raw += uint64(sec.orbit(m, o))
			}
		}
		if want := uint64(binom[24][sp.M]) * uint64(binom[24-sp.M][sp.O]); raw != want {
			t.Fatalf("%s: used slots weighted by orbit count %d positions, want %d", sp, raw, want)
		}
		t.Logf("%s: %d of %d slots used (%.3f)", sp, used, sec.size, float64(used)/float64(sec.size))
	}
}

// The slot of a position is the same for all its 16 images, in every sector.
func TestCanonicalFormInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sp := range Standard.Sectors(MaxPieces) {
		sec := newSector(sp.M, sp.O)
		for n := 0; n < 300; n++ {
			m, o := randomPosition(rng, sp.M, sp.O)
			want := sec.index(m, o)
			if want >= sec.size {
				t.Fatalf("%s: slot %d out of range %d", sp, want, sec.size)
			}
			for g := bb.Symmetry(0); g < bb.NumSymmetries; g++ {
				if got := sec.index(g.Apply(m), g.Apply(o)); got != want {
					t.Fatalf("%s: %06x/%06x under sym %d has slot %d, want %d", sp, m, o, g, got, want)
				}
			}
			cm, co := sec.decode(want)
			if !sec.used(cm, co) {
				t.Fatalf("%s: slot %d of a position is not used", sp, want)
			}
			found := false
			for g := bb.Symmetry(0); g < bb.NumSymmetries; g++ {
				found = found || (g.Apply(m) == cm && g.Apply(o) == co)
			}
			if !found {
				t.Fatalf("%s: slot %d decodes to %06x/%06x, not an image of %06x/%06x", sp, want, cm, co, m, o)
			}
		}
	}
}

// randomPosition returns m and o random distinct points.
func randomPosition(rng *rand.Rand, m, o int) (mover, other bb.Bitboard) {
	perm := rng.Perm(bb.NumSquares)
	for _, s := range perm[:m] {
		mover |= bb.Bit(bb.Square(s))
	}
	for _, s := range perm[m : m+o] {
		other |= bb.Bit(bb.Square(s))
	}
	return mover, other
}

// slotWalk goes over the slots as decode and used read them, from any slot.
func TestSlotWalk(t *testing.T) {
	for _, mo := range [][2]int{{0, 3}, {2, 0}, {3, 3}, {2, 5}, {4, 2}} {
		s := newSector(mo[0], mo[1])
		for _, from := range []uint32{0, s.others - 1, s.size / 3} {
			if from >= s.size {
				continue
			}
			var w slotWalk
			w.start(s, from)
			for i := from; i < s.size; i++ {
				mover, other, used := w.slot()
				wm, wo := s.decode(i)
				if mover != wm || other != wo || used != s.used(wm, wo) {
					t.Fatalf("%s slot %d from %d: walk %v %v %t, decode %v %v %t", s.name(), i, from, mover, other, used, wm, wo, s.used(wm, wo))
				}
				w.next()
			}
		}
	}
}
