//go:build !linux

package memory

// Available knows nothing about the memory outside Linux.
func Available() (uint64, bool) { return 0, false }

// Status knows nothing about the process outside Linux.
func Status(field string) (uint64, bool) { return 0, false }

// Peak knows nothing about the process outside Linux.
func Peak() (uint64, bool) { return 0, false }

// ResetPeak does nothing outside Linux.
func ResetPeak() bool { return false }
