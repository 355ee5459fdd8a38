//go:build linux && !race

package tt

import (
	"unsafe"

	"github.com/millengine/millengine/internal/memory"
)

// allocBuckets maps n buckets of anonymous memory with transparent huge
// pages (memory.Huge): a large table then costs one TLB entry per 2 MB
// instead of one per 4 KB, which halves the probe latency of big tables. The
// memory holds no Go pointers, so the GC need not see it. The pages are
// populated at once so that no search takes their faults; populated reports
// whether that worked. A mapping or population the kernel refuses is an
// error, never a fatal one.
func allocBuckets(n int) (b []bucket, free func(), populated bool, err error) {
	mem, free, populated, err := memory.Huge(n*bucketBytes, true)
	if err != nil {
		return nil, nil, false, err
	}
	b = unsafe.Slice((*bucket)(unsafe.Pointer(&mem[0])), n)
	return b, free, populated, nil
}
