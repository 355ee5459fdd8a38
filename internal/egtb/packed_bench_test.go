package egtb

import (
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// BenchmarkProbeForms looks up random moving-phase positions (DTM and DTZ
// where a sector has both, no pending removal) in the plain and the packed
// form of the same tables: EGTB_DIR and EGTB_PACKED_DIR (egtb pack's output
// of it), or else the shared 3v3 table and its packed form. Each form is
// timed three ways:
//
//   - warm: 1024 positions probed over and over, their pages in memory and,
//     packed, their blocks in the block cache;
//   - miss: 65536 positions with a block cache of 16 blocks, so that nearly
//     every packed probe decodes its block, the files in the page cache
//     (a plain probe then pays its cache and TLB misses);
//   - cold: batches of 64 positions, before each the files' pages dropped
//     (madvise and posix_fadvise DONTNEED, Linux only; the share of pages
//     still resident is reported) and the block cache emptied, outside the
//     timer: each probe reads the disk.
func BenchmarkProbeForms(b *testing.B) {
	plainDir, packedDir := os.Getenv("EGTB_DIR"), os.Getenv("EGTB_PACKED_DIR")
	if plainDir == "" || packedDir == "" {
		plainDir = sharedDir(b)
		packedDir = b.TempDir()
		if err := PackDir(b.Context(), plainDir, packedDir, PackOptions{}, func(PackReport) {}); err != nil {
			b.Fatal(err)
		}
	}
	r := rules.Default()
	var ps []position.Position
	for _, form := range []struct{ name, dir string }{{"plain", plainDir}, {"packed", packedDir}} {
		open := func(cacheBytes int) *Tables {
			old := PackedCacheBytes
			PackedCacheBytes = cacheBytes
			defer func() { PackedCacheBytes = old }()
			tb, err := OpenParams(form.dir, Standard)
			if err != nil {
				b.Fatal(err)
			}
			return tb
		}
		tb := open(PackedCacheBytes)
		if ps == nil {
			ps = benchPositions(b, tb, &r, 1<<16)
		}
		run := func(name string, tb *Tables, n int, prepare func()) {
			b.Run(form.name+"/"+name, func(b *testing.B) {
				for i := range min(n, len(ps)) {
					tb.Lookup(&r, &ps[i]) // first uses (index checks) outside the timer
				}
				b.ReportAllocs()
				if prepare == nil {
					defer cpuPerOp(b)()
				} else {
					b.ResetTimer()
				}
				var sink Value
				for i := 0; i < b.N; i++ {
					if prepare != nil && i%64 == 0 {
						b.StopTimer()
						prepare()
						b.StartTimer()
					}
					e, _ := tb.Lookup(&r, &ps[i%n])
					sink += e.Value
				}
				_ = sink
			})
		}
		run("warm", tb, 1024, nil)
		small := open(16 * PackBlockSize)
		run("miss", small, len(ps), nil)
		small.Close()
		var resident float64
		k := 0
		run("cold", tb, len(ps), func() {
			resident = dropPages(b, tb)
			for _, c := range tb.caches {
				c.clear()
			}
			k++
		})
		if k > 0 {
			b.Logf("%s cold: %.2f%% of the files' pages resident after a drop", form.name, 100*resident)
		}
		tb.Close()
	}
}

// benchPositions returns n random positions of the tables' moving sectors
// (a sector at random, then a placement), each one the tables know.
func benchPositions(b *testing.B, tb *Tables, r *rules.Rules, n int) []position.Position {
	rng := rand.New(rand.NewPCG(13, 14))
	var secs []SectorSpec
	for _, s := range tb.Sectors() {
		if !s.Placing() {
			secs = append(secs, s)
		}
	}
	if len(secs) == 0 {
		b.Fatal("no moving sectors")
	}
	out := make([]position.Position, 0, n)
	for len(out) < n {
		s := secs[rng.IntN(len(secs))]
		m, o := randomPosition(rng, s.M, s.O)
		p := position.NewMoving(r, m, o, position.White)
		if _, ok := tb.Lookup(r, &p); ok && !p.IsOver() {
			out = append(out, p)
		}
	}
	return out
}

// cpuPerOp resets the benchmark's timer and returns the function that
// reports, beside ns/op, the CPU time the benchmark's thread took an
// operation (threadCPU): on a loaded machine the wall clock counts the
// waits for a core too, the CPU time does not. Call the function when the
// loop ends (defer cpuPerOp(b)()).
func cpuPerOp(b *testing.B) func() {
	runtime.LockOSThread()
	b.ResetTimer()
	start := threadCPU()
	return func() {
		used := threadCPU() - start
		runtime.UnlockOSThread()
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// clear empties the block cache.
func (c *blockCache) clear() {
	for i := range c.sets {
		s := &c.sets[i]
		s.mu.Lock()
		for w := range s.ways {
			s.ways[w].key, s.ways[w].last = 0, 0
		}
		s.mu.Unlock()
	}
}
