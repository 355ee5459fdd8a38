package tt

// prefetch asks the CPU to bring the cache line at addr into cache without
// waiting for it (PREFETCHT0).
//
//go:noescape
func prefetch(addr uintptr)
