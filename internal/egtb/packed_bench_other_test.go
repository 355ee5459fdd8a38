//go:build !linux

package egtb

import (
	"testing"
	"time"
)

// dropPages is Linux's only (madvise, posix_fadvise): here the cold
// benchmark runs with the pages in memory and says so.
func dropPages(b *testing.B, tb *Tables) float64 { return 1 }

// threadCPU falls back to the wall clock here.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
