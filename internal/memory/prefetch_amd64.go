package memory

// Prefetch asks the CPU to bring the cache line at addr into cache without
// waiting for it (PREFETCHT0): a random access issued early overlaps with
// the work before its use.
//
//go:noescape
func Prefetch(addr uintptr)
