package egtb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// Every symmetry is a permutation of the points that keeps adjacency and the
// mill lines of both boards, and the 16 are distinct and closed under
// composition (a group).
func TestSymmetriesKeepTheBoard(t *testing.T) {
	seen := map[[bb.NumSquares]bb.Square]Sym{}
	for g := Sym(0); g < NumSyms; g++ {
		var perm [bb.NumSquares]bb.Square
		var img bb.Bitboard
		for s := bb.Square(0); s < bb.NumSquares; s++ {
			perm[s] = g.Square(s)
			if g.Apply(bb.Bit(s)).Count() != 1 {
				t.Fatalf("sym %d maps %s to %d points", g, s, g.Apply(bb.Bit(s)).Count())
			}
			img |= bb.Bit(perm[s])
		}
		if img != bb.Full {
			t.Fatalf("sym %d is not a permutation", g)
		}
		if h, dup := seen[perm]; dup {
			t.Fatalf("sym %d equals sym %d", g, h)
		}
		seen[perm] = g
		for _, topo := range []*bb.Topology{bb.Plain, bb.Diagonal} {
			for s := bb.Square(0); s < bb.NumSquares; s++ {
				if got, want := g.Apply(topo.Adjacent[s]), topo.Adjacent[perm[s]]; got != want {
					t.Fatalf("sym %d, diagonal %t: neighbours of %s map to %v, want those of %s %v", g, topo.Diagonal, s, got, perm[s], want)
				}
			}
			lines := map[bb.Bitboard]bool{}
			for _, l := range topo.Lines {
				lines[l] = true
			}
			for _, l := range topo.Lines {
				if !lines[g.Apply(l)] {
					t.Fatalf("sym %d, diagonal %t: line %v maps to %v, not a line", g, topo.Diagonal, l, g.Apply(l))
				}
			}
		}
		// Apply on a set is the union of the images of its points.
		for i := 0; i < 100; i++ {
			s := bb.Bitboard(rand.Uint32()) & bb.Full
			var want bb.Bitboard
			for b := s; b != 0; {
				want |= bb.Bit(perm[b.PopFirst()])
			}
			if g.Apply(s) != want {
				t.Fatalf("sym %d on %06x: %06x, want %06x", g, s, g.Apply(s), want)
			}
		}
	}
	// Closed under composition.
	for g := Sym(0); g < NumSyms; g++ {
		for h := Sym(0); h < NumSyms; h++ {
			var perm [bb.NumSquares]bb.Square
			for s := bb.Square(0); s < bb.NumSquares; s++ {
				perm[s] = h.Square(g.Square(s))
			}
			if _, ok := seen[perm]; !ok {
				t.Fatalf("sym %d then sym %d is not a symmetry", g, h)
			}
		}
	}
	// The reflection mirrors the board left to right: d7 stays, a7 ↔ g7, a4 ↔ g4.
	for _, pair := range [][2]string{{"d7", "d7"}, {"a7", "g7"}, {"a4", "g4"}, {"c3", "e3"}, {"d1", "d1"}} {
		a, _ := bb.ParseSquare(pair[0])
		b, _ := bb.ParseSquare(pair[1])
		if Sym(1).Square(a) != b {
			t.Errorf("reflection maps %s to %s, want %s", a, Sym(1).Square(a), b)
		}
	}
	// A quarter turn takes d7 to g4 (clockwise); the ring swap takes d7 to d5.
	if d7, g4 := mustSquare("d7"), mustSquare("g4"); Sym(2).Square(d7) != g4 {
		t.Errorf("rotation maps d7 to %s, want g4", Sym(2).Square(d7))
	}
	if Sym(8).Square(mustSquare("d7")) != mustSquare("d5") {
		t.Errorf("ring swap maps d7 to %s, want d5", Sym(8).Square(mustSquare("d7")))
	}
}

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
func TestSetTables(t *testing.T) {
	for n := 1; n <= 5; n++ {
		st := setsOf(n)
		s := uint32(1)<<n - 1
		fixed := 0
		for r := uint32(0); r < binom[24][n]; r++ {
			e := st.info[r]
			canon := st.sets[e>>16]
			for g := Sym(0); g < NumSyms; g++ {
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
		if fixed != NumSyms*len(st.sets) {
			t.Fatalf("%d points: Burnside gives %d/16 orbits, the table has %d", n, fixed, len(st.sets))
		}
	}
}

// index → position → index for every slot of small sectors; an unused slot's
// position maps to another slot (the one of its canonical form). The used
// slots weighted by orbit size count every placement exactly once.
func TestIndexRoundTrip(t *testing.T) {
	for _, sp := range []SectorSpec{{3, 3}, {4, 3}, {3, 4}} {
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
			for g := Sym(0); g < NumSyms; g++ {
				if got := sec.index(g.Apply(m), g.Apply(o)); got != want {
					t.Fatalf("%s: %06x/%06x under sym %d has slot %d, want %d", sp, m, o, g, got, want)
				}
			}
			cm, co := sec.decode(want)
			if !sec.used(cm, co) {
				t.Fatalf("%s: slot %d of a position is not used", sp, want)
			}
			found := false
			for g := Sym(0); g < NumSyms; g++ {
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
