//go:build !amd64

package memory

// Prefetch is a no-op where no prefetch instruction is wired up.
func Prefetch(addr uintptr) {}
