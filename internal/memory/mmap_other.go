//go:build !linux

package memory

import "os"

// MapFile reads a whole file (no memory mapping on this system). It returns
// the bytes and a function that releases them.
func MapFile(path string) ([]byte, func() error, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
