//go:build linux && !race

package tt

import (
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// allocBuckets maps n buckets of anonymous memory aligned to 2 MB and asks
// the kernel for transparent huge pages: a large table then costs one TLB
// entry per 2 MB instead of one per 4 KB, which halves the probe latency of
// big tables. The memory holds no Go pointers, so the GC need not see it.
// The pages are populated at once (MADV_POPULATE_WRITE, Linux 5.14+) so that
// no search takes their faults; populated reports whether that worked. A
// mapping or population the kernel refuses is an error, never a fatal one.
func allocBuckets(n int) (b []bucket, free func(), populated bool, err error) {
	size := n * bucketBytes
	mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false, err
	}
	off := 0
	if r := uintptr(unsafe.Pointer(&mem[0])) % hugePage; r != 0 {
		off = int(hugePage - r)
	}
	aligned := mem[off : off+size]
	_ = syscall.Madvise(aligned, 14) // MADV_HUGEPAGE; ignored where unsupported
	switch err := populate(aligned); err {
	case nil:
		populated = true
	case syscall.ENOMEM, syscall.EFAULT:
		_ = syscall.Munmap(mem)
		return nil, nil, false, err
	}
	b = unsafe.Slice((*bucket)(unsafe.Pointer(&aligned[0])), n)
	return b, func() { _ = syscall.Munmap(mem) }, populated, nil
}

// populateChunk is how much memory one MADV_POPULATE_WRITE call faults in.
// The kernel holds the process's memory-map lock for the whole call; any
// thread that maps memory meanwhile (the Go runtime growing its heap or a
// stack) waits for it, and every later page fault waits behind that thread.
// One call over a whole 1 GB table froze the process, protocol loop
// included, for as long as the population took (up to 2 s when the kernel
// had to find the huge pages); a call per 8 MB lets them through between
// calls (BenchmarkResizeStall: worst gap 2076 ms before, 83 ms after).
const populateChunk = 4 * hugePage

// populate faults in every page of mem, chunk by chunk (MADV_POPULATE_WRITE,
// Linux 5.14+); it returns the first error.
func populate(mem []byte) error {
	for lo := 0; lo < len(mem); lo += populateChunk {
		if err := syscall.Madvise(mem[lo:min(lo+populateChunk, len(mem))], 23); err != nil {
			return err
		}
	}
	return nil
}
