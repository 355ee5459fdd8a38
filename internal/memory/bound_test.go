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
