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
	_ = syscall.Madvise(aligned, 14)                  // MADV_HUGEPAGE; ignored where unsupported
	switch err := syscall.Madvise(aligned, 23); err { // MADV_POPULATE_WRITE
	case nil:
		populated = true
	case syscall.ENOMEM, syscall.EFAULT:
		_ = syscall.Munmap(mem)
		return nil, nil, false, err
	}
	b = unsafe.Slice((*bucket)(unsafe.Pointer(&aligned[0])), n)
	return b, func() { _ = syscall.Munmap(mem) }, populated, nil
}
