//go:build !linux || race

package tt

// allocBuckets allocates n buckets on the Go heap.
func allocBuckets(n int) ([]bucket, func(), bool) { return make([]bucket, n), func() {}, false }
