package egtb

import (
	"fmt"
	"strings"
	"testing"
)

// The plan of the whole moving phase of Nine Men's Morris: 49 sectors (3 to
// 9 pieces a side) in 28 jobs over 13 levels, every job after the jobs it
// needs, DTM tables up to 10 pieces, and the slots of the index.
func TestPlanWholeMovingPhase(t *testing.T) {
	plan := Standard.Plan(MaxPieces)
	done := map[SectorSpec]int{} // sector → level of its job
	sectors, levels := 0, 0
	var slots uint64
	for _, j := range plan {
		if j.Level != j.Pieces()-6 {
			t.Errorf("%s: level %d", j.Name(), j.Level)
		}
		for _, n := range j.Needs {
			lv, ok := done[n]
			if !ok || lv >= j.Level {
				t.Errorf("%s (level %d) needs %s, built %t at level %d", j.Name(), j.Level, n, ok, lv)
			}
		}
		for _, s := range j.Sectors {
			done[s] = j.Level
			sectors++
		}
		if a := j.Sectors[0]; a.M > a.O || (len(j.Sectors) == 2) != (a.M != a.O) || (len(j.Sectors) == 2 && j.Sectors[1] != SectorSpec{M: a.O, O: a.M}) {
			t.Errorf("%s: sectors %v", j.Name(), j.Sectors)
		}
		if want := fmt.Sprint([]Metric{DTZ}); j.Pieces() <= DTMPieces {
			if fmt.Sprint(j.Metrics) != fmt.Sprint([]Metric{DTM, DTZ}) {
				t.Errorf("%s: metrics %v", j.Name(), j.Metrics)
			}
		} else if fmt.Sprint(j.Metrics) != want {
			t.Errorf("%s: metrics %v", j.Name(), j.Metrics)
		}
		levels = max(levels, j.Level+1)
		slots += j.Slots
	}
	if len(plan) != 28 || sectors != 49 || levels != 13 {
		t.Errorf("%d jobs, %d sectors, %d levels; want 28, 49, 13", len(plan), sectors, levels)
	}
	// 8.9·10⁹ positions after the 16 symmetries, in a few per cent more
	// slots (sets with a symmetry take a slot per image of the other side).
	if slots < 8_900_000_000 || slots > 9_500_000_000 {
		t.Errorf("%d slots", slots)
	}
	j, ok := Standard.JobOf(SectorSpec{M: 9, O: 8}, plan)
	if !ok || j.Name() != "8v9" || fmt.Sprint(j.Needs) != "[8v8 7v9]" {
		t.Errorf("the job of 9v8: %v %+v", ok, j)
	}
	t.Logf("%d slots; the largest job %s, %d slots, about %d MB", slots, j.Name(), j.Slots, j.Memory()>>20)
	// Morabaraba removes two pieces for two mills: its jobs need two
	// smaller sectors each.
	mora := Params{Diagonal: true, Fly: 3, MinPieces: 3, RemoveMultiple: true}
	if j, _ := mora.JobOf(SectorSpec{M: 6, O: 5}, mora.Plan(11)); fmt.Sprint(j.Needs) != "[5v5 4v5 4v6 3v6]" {
		t.Errorf("Morabaraba 5v6: needs %v", j.Needs)
	}
}

func TestParseSectorSpec(t *testing.T) {
	for in, want := range map[string]SectorSpec{"3v3": {M: 3, O: 3}, "9v8": {M: 9, O: 8}, "1v9": {M: 1, O: 9}} {
		if got, err := ParseSectorSpec(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"", "3", "3v", "v3", "10v3", "3v10", "0v3", "3x3", "3v3v3", "-3v3", " 3v3", "3v 3"} {
		if got, err := ParseSectorSpec(in); err == nil || !strings.Contains(err.Error(), "want MvO") {
			t.Errorf("%q: %v %v, want an error", in, got, err)
		}
	}
}

// Distances beyond what a byte holds saturate at win 127 and loss 126, and
// Parent keeps them there, so that a value checked against its successors
// saturates the same way.
func TestSaturate(t *testing.T) {
	for _, c := range []struct {
		v    uint32
		want Value
	}{{0, Draw}, {1, Loss(0)}, {2, Win(1)}, {253, Loss(126)}, {254, Win(127)}, {255, Loss(126)}, {256, Win(127)}, {1001, Loss(126)}, {60000, Win(127)}} {
		if got := saturate(c.v); got != c.want {
			t.Errorf("saturate(%d) = %s, want %s", c.v, got, c.want)
		}
	}
	if Win(127).Parent() != Loss(126) || Loss(126).Parent() != Win(127) || Loss(125).Parent() != Win(126) || Win(126).Parent() != Loss(126) {
		t.Errorf("Parent at the end of the byte: %s %s %s %s", Win(127).Parent(), Loss(126).Parent(), Loss(125).Parent(), Win(126).Parent())
	}
	if !Win(127).Saturated() || !Loss(126).Saturated() || Win(126).Saturated() || Loss(125).Saturated() || Draw.Saturated() {
		t.Error("Saturated")
	}
}
