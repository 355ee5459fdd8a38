//go:build !linux

package egtb

import "testing"

// dropPages is Linux's only (madvise, posix_fadvise): here the cold
// benchmark runs with the pages in memory and says so.
func dropPages(b *testing.B, tb *Tables) float64 { return 1 }
