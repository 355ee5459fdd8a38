package memory

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// The memory bounds of the endgame solver's retrograde pass
// (docs/tables.md, "What bounds the solver"): it reads its cells in order,
// a ply at a time, and updates the cells of the positions' predecessors,
// which lie anywhere in the partner sector, with an atomic operation each,
// prefetched 32 updates ahead. BenchmarkRandomUpdate is that access
// pattern with nothing else (no index computed, no move generated): the
// least time an update can take on this machine; BenchmarkScan is the
// in-order read. Both over 4 GB of huge pages (the cells of a 1 G-slot
// pair; the largest pairs hold 4.3 G slots), with 1 and 2 goroutines.
const boundBytes = 4 << 30

func boundCells(b *testing.B) []uint32 {
	b.Helper()
	mem, free, _, err := Huge(boundBytes, true)
	if err != nil {
		b.Skipf("cannot map %d MB: %v", boundBytes>>20, err)
	}
	b.Cleanup(free)
	return unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), len(mem)/4)
}

// BenchmarkRandomUpdate: ns/op is the wall time per update, all goroutines
// together.
func BenchmarkRandomUpdate(b *testing.B) {
	cells := boundCells(b)
	n := uint64(len(cells))
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			var wg sync.WaitGroup
			b.ResetTimer()
			for t := range threads {
				wg.Add(1)
				go func(seed uint64, count int) {
					defer wg.Done()
					const queue = 32 // the solver's updaterQueue
					var idx [queue]uint64
					x := seed
					for i := range count {
						x ^= x << 13
						x ^= x >> 7
						x ^= x << 17
						j := x % n
						Prefetch(uintptr(unsafe.Pointer(&cells[j])))
						if i >= queue {
							atomic.AddUint32(&cells[idx[i%queue]], 1)
						}
						idx[i%queue] = j
					}
					for i := max(count-queue, 0); i < count; i++ {
						atomic.AddUint32(&cells[idx[i%queue]], 1)
					}
				}(uint64(t)*0x9E3779B97F4A7C15+1, b.N/threads)
			}
			wg.Wait()
		})
	}
}

// BenchmarkScan: the in-order read of every cell with the retrograde ply's
// test, as a ply that skips no chunk reads them (MB/s from SetBytes).
func BenchmarkScan(b *testing.B) {
	cells := boundCells(b)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			b.SetBytes(boundBytes)
			var sink atomic.Uint32
			for range b.N {
				var wg sync.WaitGroup
				part := len(cells) / threads
				for t := range threads {
					wg.Add(1)
					go func(c []uint32) {
						defer wg.Done()
						var s uint32
						for i := range c {
							// The retrograde ply's test of a cell: its value is the ply's.
							if atomic.LoadUint32(&c[i])&0xFFFF == 7 {
								s++
							}
						}
						sink.Add(s)
					}(cells[t*part : (t+1)*part])
				}
				wg.Wait()
			}
		})
	}
}

// BenchmarkBucketedUpdate is the alternative to BenchmarkRandomUpdate that
// propagation blocking offers: the updates of a batch (a ply's, up to a
// buffer's size) are first sorted by the region of cells they touch
// (counting sort on the index's top bits, regions of 2^regionBits cells),
// then applied region by region, prefetched as the solver's updater does.
// batch/cells is the density: the updates per cell of the batch.
//
// With op=plain (regions of 2^20 cells only) the updates are plain
// read-modify-writes instead of atomic ones, each goroutine's updates in
// regions of its own (region ≡ goroutine mod goroutines), as they may be
// when every thread applies the regions it owns of all the threads'
// buffers, with no scan running meanwhile: what the atomic operation costs.
func BenchmarkBucketedUpdate(b *testing.B) {
	cells := boundCells(b)
	for _, regionBits := range []int{16, 20, 24} {
		for _, den := range []int{16, 128} {
			for _, threads := range []int{1, 2} {
				for _, plain := range []bool{false, true} {
					if plain && regionBits != 20 {
						continue
					}
					name := fmt.Sprintf("region=%d/density=1:%d/threads=%d", regionBits, den, threads)
					if plain {
						name += "/op=plain"
					}
					c := bucketed{cells: cells, regionBits: regionBits, batch: len(cells) / den, threads: threads, plain: plain}
					b.Run(name, c.run)
				}
			}
		}
	}
}

// bucketed is one case of BenchmarkBucketedUpdate.
type bucketed struct {
	cells      []uint32 // 2^30 cells
	regionBits int
	batch      int // the updates sorted at once, all goroutines together
	threads    int
	plain      bool
}

// run makes b.N updates over the goroutines: ns/op is the wall time per
// update, all goroutines together.
func (c bucketed) run(b *testing.B) {
	var wg sync.WaitGroup
	b.ResetTimer()
	for t := range c.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.worker(t, uint64(t)*0x9E3779B97F4A7C15+1, b.N/c.threads)
		}()
	}
	wg.Wait()
}

// worker is goroutine t's share: count updates at random (xorshift from
// seed), sorted and applied a batch at a time.
func (c bucketed) worker(t int, seed uint64, count int) {
	n := uint64(len(c.cells))
	nb := 1 << (30 - c.regionBits) // n is 2^30 cells: 2^(30-regionBits) regions
	per := c.batch / c.threads
	raw, out := make([]uint32, per), make([]uint32, per)
	cnt := make([]int, nb+1)
	x := seed
	for count > 0 {
		m := min(count, per)
		count -= m
		clear(cnt)
		for i := range raw[:m] {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			j := uint32(x % n)
			if c.plain { // into a region of this goroutine's
				j = j&^(uint32(c.threads-1)<<c.regionBits) | uint32(t)<<c.regionBits
			}
			raw[i] = j
			cnt[j>>c.regionBits+1]++
		}
		for k := 1; k <= nb; k++ {
			cnt[k] += cnt[k-1]
		}
		for _, j := range raw[:m] {
			k := j >> c.regionBits
			out[cnt[k]] = j
			cnt[k]++
		}
		const queue = 32
		for i, j := range out[:m] {
			Prefetch(uintptr(unsafe.Pointer(&c.cells[j])))
			if i >= queue {
				c.add(out[i-queue])
			}
		}
		for i := max(m-queue, 0); i < m; i++ {
			c.add(out[i])
		}
	}
}

// add makes one update, atomic unless the case is plain.
func (c bucketed) add(j uint32) {
	if c.plain {
		c.cells[j]++
	} else {
		atomic.AddUint32(&c.cells[j], 1)
	}
}
