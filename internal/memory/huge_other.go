//go:build !linux || race

package memory

// HugePage is the size of a transparent huge page on amd64 and arm64.
const HugePage = 2 << 20

// Huge allocates size zeroed bytes on the Go heap (no huge pages here, or
// under the race detector, which checks only heap memory); free does nothing.
func Huge(size int, populate bool) (mem []byte, free func(), populated bool, err error) {
	if size <= 0 {
		return nil, func() {}, true, nil
	}
	return make([]byte, size), func() {}, false, nil
}
