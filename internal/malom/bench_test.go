package malom

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// randomPositions returns n positions of sector (w, b).
func randomPositions(n, w, b int) [][2]bb.Bitboard {
	rng := rand.New(rand.NewPCG(7, 8))
	ps := make([][2]bb.Bitboard, n)
	for i := range ps {
		var m, o bb.Bitboard
		for m.Count() < w {
			m |= bb.Bit(bb.Square(rng.IntN(24)))
		}
		for o.Count() < b {
			if s := bb.Bit(bb.Square(rng.IntN(24))); s&m == 0 {
				o |= s
			}
		}
		ps[i] = [2]bb.Bitboard{m, o}
	}
	return ps
}

// openSynth writes the synthetic sector id to a file and maps it.
func openSynth(tb testing.TB, id SectorID) *Sector {
	tb.Helper()
	data, _ := synthSector(tb, id)
	path := filepath.Join(tb.TempDir(), Standard.SectorName(id))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	s, err := OpenSector(path, Standard, id, testVals(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestProbeAllocs(t *testing.T) {
	s := openSynth(t, id1287)
	ps := randomPositions(64, 1, 2)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		p := ps[i%len(ps)]
		i++
		if _, err := s.Probe(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Probe allocates %.1f times", allocs)
	}
}

// BenchmarkProbe probes random positions of a mapped 3v3 sector with
// Malom's layout (a quarter of the slots redirect).
func BenchmarkProbe(b *testing.B) {
	s := openSynth(b, SectorID{3, 3, 0, 0})
	ps := randomPositions(1<<12, 3, 3)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		p := ps[i&(len(ps)-1)]
		i++
		if _, err := s.Probe(p[0], p[1]); err != nil {
			b.Fatal(err)
		}
	}
}
