//go:build linux && !race

package memory

import (
	"syscall"
	"unsafe"
)

// HugePage is the size of a transparent huge page on amd64 and arm64.
const HugePage = 2 << 20

// Huge maps size bytes of zeroed anonymous memory aligned to HugePage and
// asks the kernel for transparent huge pages. With populate, the pages are
// faulted in at once (MADV_POPULATE_WRITE, Linux 5.14+), so that no later
// access takes their faults; populated reports whether that worked. The
// memory is outside the Go heap: it must hold no Go pointers, and free must
// be called once it is no longer used. A mapping or population the kernel
// refuses is an error.
//
// Under the race detector (and off Linux) the memory comes from the Go heap
// instead: the detector checks only heap memory.
func Huge(size int, populate bool) (mem []byte, free func(), populated bool, err error) {
	if size <= 0 {
		return nil, func() {}, true, nil
	}
	m, err := syscall.Mmap(-1, 0, size+HugePage, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false, err
	}
	off := 0
	if r := uintptr(unsafe.Pointer(&m[0])) % HugePage; r != 0 {
		off = int(HugePage - r)
	}
	aligned := m[off : off+size : off+size]
	_ = syscall.Madvise(aligned, 14) // MADV_HUGEPAGE; ignored where unsupported
	if populate {
		switch err := populateAll(aligned); err {
		case nil:
			populated = true
		case syscall.ENOMEM, syscall.EFAULT:
			_ = syscall.Munmap(m)
			return nil, nil, false, err
		}
	}
	return aligned, func() { _ = syscall.Munmap(m) }, populated, nil
}

// populateChunk is how much memory one MADV_POPULATE_WRITE call faults in.
// The kernel holds the process's memory-map lock for the whole call; any
// thread that maps memory meanwhile (the Go runtime growing its heap or a
// stack) waits for it, and every later page fault waits behind that thread.
// One call over a whole 1 GB table froze the process, protocol loop
// included, for as long as the population took (up to 2 s when the kernel
// had to find the huge pages); a call per 8 MB lets them through between
// calls (tt's BenchmarkResizeStall: worst gap 2076 ms before, 83 ms after).
const populateChunk = 4 * HugePage

// populateAll faults in every page of mem, chunk by chunk (MADV_POPULATE_WRITE,
// Linux 5.14+); it returns the first error.
func populateAll(mem []byte) error {
	for lo := 0; lo < len(mem); lo += populateChunk {
		if err := syscall.Madvise(mem[lo:min(lo+populateChunk, len(mem))], 23); err != nil {
			return err
		}
	}
	return nil
}
