//go:build !linux

package tt

// availableBytes knows nothing about the memory outside Linux.
func availableBytes() (uint64, bool) { return 0, false }
