//go:build linux

package egtb

import (
	"os"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dropPages drops the pages of every table file of tb from the process's
// mappings (madvise DONTNEED) and from the page cache (posix_fadvise
// DONTNEED), so that the next probes read the disk, and returns the share
// of the mapped pages still resident (mincore) — the kernel keeps those
// another process maps or that it does not let go.
func dropPages(b *testing.B, tb *Tables) float64 {
	var resident, total int
	each(tb, func(t *table) {
		for _, r := range mappedRanges(t) {
			if err := unix.Madvise(r, unix.MADV_DONTNEED); err != nil {
				b.Fatal(err)
			}
		}
		f, err := os.Open(t.path)
		if err != nil {
			b.Fatal(err)
		}
		if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
			b.Fatal(err)
		}
		f.Close()
		for _, r := range mappedRanges(t) {
			vec := make([]byte, (len(r)+os.Getpagesize()-1)/os.Getpagesize())
			if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(r))), uintptr(len(r)),
				uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); e != 0 {
				b.Fatal(e)
			}
			for _, v := range vec {
				resident += int(v & 1)
			}
			total += len(vec)
		}
	})
	return float64(resident) / float64(max(total, 1))
}

// mappedRanges are the whole pages of a table's mapping that probes read:
// a plain table's data, a packed table's index and compressed data.
func mappedRanges(t *table) [][]byte {
	parts := [][]byte{t.data}
	if t.pk != nil {
		parts = [][]byte{t.pk.idx.offsets, t.pk.idx.crcs, t.pk.idx.data}
	}
	page := os.Getpagesize()
	var out [][]byte
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		k := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(p))))%page) % page
		if n := (len(p) - k) &^ (page - 1); k < len(p) && n > 0 {
			out = append(out, p[k:k+n])
		}
	}
	return out
}

// each calls f with every loaded table of tb.
func each(tb *Tables, f func(*table)) {
	for _, s := range tb.Sectors() {
		for _, m := range []Metric{DTM, DTZ, WDL} {
			if (m == WDL) == s.Placing() {
				if t := *tb.slotOf(s, m); t != nil {
					f(t)
				}
			}
		}
	}
}

// threadCPU is the CPU time the calling thread has used (RUSAGE_THREAD): a
// measure of work that a loaded machine's waits for a core do not inflate.
// The caller locks its goroutine to its thread.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
