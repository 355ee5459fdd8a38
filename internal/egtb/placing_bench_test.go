package egtb

import (
	"context"
	"hash/crc32"
	"os"
	"strconv"
	"testing"
)

// BenchmarkSolvePlacing solves one placing sector in memory, nothing
// written, with the tables of its children read from EGTB_DIR (the sector is
// EGTB_PLACING, 5_5_1_0 unless said: it needs the moving phase's 5v6 and
// 4v6; a damaged child is removed, as a build removes it). One thread unless
// EGTB_THREADS says more, so that paired runs compare builds of the solver,
// and runs with 1 and 2 threads say how the pass scales; the counts and the
// data's CRC-32C it logs say whether they solve alike.
func BenchmarkSolvePlacing(b *testing.B) {
	dir := os.Getenv("EGTB_DIR")
	if dir == "" {
		b.Skip("set EGTB_DIR to a directory holding the sector's children")
	}
	name := os.Getenv("EGTB_PLACING")
	if name == "" {
		name = "5_5_1_0"
	}
	s, err := ParseSectorSpec(name)
	if err != nil || !s.Placing() {
		b.Fatalf("EGTB_PLACING %q: not a placing sector (%v)", name, err)
	}
	t, err := OpenParams(dir, Standard)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { t.Close() })
	threads := 1
	if v := os.Getenv("EGTB_THREADS"); v != "" {
		if threads, err = strconv.Atoi(v); err != nil || threads < 1 {
			b.Fatalf("EGTB_THREADS %q: not a count of threads", v)
		}
	}
	views, err := t.childViews(Standard.placingNeeds(s), threads)
	if err != nil {
		b.Fatal(err)
	}
	job := placingJob{p: Standard, s: s, threads: threads, look: func(n SectorSpec) *wdlView { return views[n] }}
	var st SolveStats
	var data []byte
	for b.Loop() {
		if data, st, err = solvePlacing(context.Background(), job); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(st.Stored), "ns/position")
	b.Logf("%s: %d positions met, %d wins, %d draws, %d losses, data CRC-32C %08x", s, st.Stored, st.Wins, st.Draws, st.Losses,
		crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli)))
}
