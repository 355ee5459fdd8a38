package egtb

import (
	"fmt"
	"strconv"
	"strings"
)

// Job is one unit of a build: a pair of sectors solved together (MvO with
// OvM, or MvM alone), with files in (the smaller sectors its captures lead
// to) and files out (its tables), or a placing sector alone (its files in
// are the sectors its placements lead to). Jobs of one level need only jobs
// of lower levels, so a level's jobs can run at once on different machines.
type Job struct {
	Sectors []SectorSpec // the pair, its first sector with M ≤ O; or the placing sector
	Metrics []Metric     // the tables solved: DTM (up to DTMPieces) then DTZ, or DTZ; WDL for a placing sector
	Needs   []SectorSpec // the sectors whose tables it reads
	Level   int          // 0 for the smallest pair; else one more than its needs'
	Slots   uint64       // slots of the pair's sectors
}

// Name is the job's name: its first sector, "3v4".
func (j Job) Name() string { return j.Sectors[0].String() }

// Pieces is the number of pieces on the board in the job's sectors.
func (j Job) Pieces() int { return j.Sectors[0].M + j.Sectors[0].O }

// Memory is about the most memory the job's solve takes, in bytes: four
// bytes a slot for the pair's cells, a byte a slot for the tables it writes,
// and the tables of its needs (copied into memory for the solve). A placing
// sector takes a quarter of a byte a slot for its codes and their copy, and
// its needs' tables (a moving one converted to codes beside its own bytes).
func (j Job) Memory() uint64 {
	need := uint64(0)
	for _, s := range j.Needs {
		switch {
		case j.Metrics[0] != WDL:
			need += s.Slots()
		case s.Placing():
			need += s.Slots() / 4
		default:
			need += s.Slots() + s.Slots()/4
		}
	}
	if j.Metrics[0] == WDL {
		return j.Slots/2 + need
	}
	return 5*j.Slots + need
}

// Plan lists the jobs that build every sector of p with at most maxPieces
// pieces on the board, in an order in which each comes after its needs
// (level by level, the smaller pairs first).
func (p Params) Plan(maxPieces int) []Job {
	specs := p.Sectors(maxPieces)
	var out []Job
	for i := 0; i < len(specs); i++ {
		a := specs[i]
		j := Job{Sectors: []SectorSpec{a}, Metrics: []Metric{DTZ}, Level: a.M + a.O - 2*p.MinPieces}
		if a.M != a.O {
			j.Sectors = append(j.Sectors, specs[i+1])
			i++
		}
		if a.M+a.O <= DTMPieces {
			j.Metrics = []Metric{DTM, DTZ}
		}
		for _, s := range j.Sectors {
			j.Slots += s.Slots()
			j.Needs = append(j.Needs, p.needs(s)...)
		}
		out = append(out, j)
	}
	return out
}

// GamePlan is Plan for the whole game of `pieces` pieces a side: the jobs of
// the moving phase's sectors up to maxPieces on the board, then one job for
// each placing sector with at most maxPieces pieces on the board and in hand
// (PlacingSectors), each a level above the highest of its needs.
func (p Params) GamePlan(pieces, maxPieces int) []Job {
	out := p.Plan(min(maxPieces, MaxPieces))
	level := map[SectorSpec]int{}
	for _, j := range out {
		for _, s := range j.Sectors {
			level[s] = j.Level
		}
	}
	for _, s := range p.PlacingSectors(pieces, maxPieces) {
		j := Job{Sectors: []SectorSpec{s}, Metrics: []Metric{WDL}, Needs: p.placingNeeds(s), Slots: s.Slots()}
		for _, n := range j.Needs {
			j.Level = max(j.Level, level[n]+1)
		}
		level[s] = j.Level
		out = append(out, j)
	}
	return out
}

// needs lists the sectors the captures of sector s lead to: the opponent,
// to move, has one piece fewer (two with MayRemoveMultiple).
func (p Params) needs(s SectorSpec) []SectorSpec {
	var out []SectorSpec
	for n := 1; n <= 2; n++ {
		if n == 2 && !p.RemoveMultiple {
			break
		}
		if s.O-n >= p.MinPieces {
			out = append(out, SectorSpec{M: s.O - n, O: s.M})
		}
	}
	return out
}

// JobOf returns the job of the plan that solves sector s.
func (p Params) JobOf(s SectorSpec, plan []Job) (Job, bool) {
	for _, j := range plan {
		for _, t := range j.Sectors {
			if t == s {
				return j, true
			}
		}
	}
	return Job{}, false
}

// ParseSectorSpec reads "MvO" (each side 1–9 pieces on the board, nothing
// in hand) or Malom's "W_B_WF_BF" (pieces on the board of the side to move
// and of the other side, then in hand; 0–9 each): "8v7", "8_7_0_0",
// "8_8_1_1".
func ParseSectorSpec(s string) (SectorSpec, error) {
	if f := strings.Split(s, "_"); len(f) == 4 {
		var n [4]int
		for i, x := range f {
			v, err := strconv.Atoi(x)
			if err != nil || v < 0 || v > maxSetSize {
				return SectorSpec{}, fmt.Errorf("sector %q: want W_B_WF_BF, the pieces on the board of the side to move and of the other side, then in hand (0..%d each), like 8_8_1_1", s, maxSetSize)
			}
			n[i] = v
		}
		sp := SectorSpec{M: n[0], O: n[1], MF: n[2], OF: n[3]}
		if !sp.Placing() && (sp.M < 1 || sp.O < 1) {
			return SectorSpec{}, fmt.Errorf("sector %q: a sector with nothing in hand has at least a piece of each side on the board", s)
		}
		return sp, nil
	}
	a, b, ok := strings.Cut(s, "v")
	m, err1 := strconv.Atoi(a)
	o, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || m < 1 || o < 1 || m > maxSetSize || o > maxSetSize {
		return SectorSpec{}, fmt.Errorf("sector %q: want MvO, the pieces of the side to move and of the other side (1..%d each), like 8v7, or W_B_WF_BF with the pieces in hand, like 8_8_1_1", s, maxSetSize)
	}
	return SectorSpec{M: m, O: o}, nil
}

// Slots returns the number of slots of the sector: its board's index (the
// pieces in hand do not change it).
func (s SectorSpec) Slots() uint64 { return uint64(newSector(s.M, s.O).size) }

// TableSpec names one table file: a sector and a metric.
type TableSpec struct {
	Sector SectorSpec
	Metric Metric
}

// Built lists the tables of p whose files are in dir, by name (they are not
// checked: Open and Build check them).
func Built(dir string, p Params) map[TableSpec]bool {
	out := map[TableSpec]bool{}
	files, _ := sectorFiles(dir)
	for _, f := range files {
		if f.params == p {
			out[TableSpec{f.spec, f.metric}] = true
		}
	}
	return out
}
