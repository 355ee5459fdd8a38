package malom

import (
	"os"
	"path/filepath"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
)

// The tests below read Malom's files from MALOM_DIR (e.g. /work/malom-data)
// and our endgame tables from EGTB_DIR; they are skipped without them.

func envDir(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv(name)
	if dir == "" {
		t.Skipf("%s not set", name)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("%s=%s is not a directory", name, dir)
	}
	return dir
}

// openData opens a variant's database in MALOM_DIR, skipping the test when
// its .secval file is absent.
func openData(t *testing.T, v Variant) *DB {
	t.Helper()
	dir := envDir(t, "MALOM_DIR")
	if _, err := os.Stat(filepath.Join(dir, v.SecvalName())); err != nil {
		t.Skipf("no %s in %s", v.SecvalName(), dir)
	}
	db, err := Open(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestDataSecval(t *testing.T) {
	for _, c := range []struct {
		v      Variant
		n      int
		win    int16
		values map[SectorID]int16
	}{
		{Standard, 498, 299, map[SectorID]int16{{0, 0, 9, 9}: 21, {0, 1, 9, 8}: -18, {3, 3, 0, 0}: 0, {3, 4, 0, 0}: 40, {4, 3, 0, 0}: -40}},
		{Morabaraba, 1216, 704, map[SectorID]int16{{0, 0, 12, 12}: 686, {0, 1, 12, 11}: -101}},
		{Lasker, 3070, 1715, map[SectorID]int16{{0, 0, 10, 10}: 47, {1, 2, 9, 8}: -386}},
	} {
		t.Run(c.v.Prefix, func(t *testing.T) {
			vals := openData(t, c.v).SecVals()
			if vals.Len() != c.n || vals.VirtWin != c.win || vals.VirtLoss != -c.win {
				t.Errorf("%d sectors, virtual values %d/%d", vals.Len(), vals.VirtLoss, vals.VirtWin)
			}
			for id, want := range c.values {
				if got, ok := vals.Value(id); !ok || got != want {
					t.Errorf("Value(%v) = %d, %t; want %d", id, got, ok, want)
				}
			}
		})
	}
}

// maxDataSlots bounds the sectors TestDataSectors reads unless MALOM_ALL is
// set: a full database holds sectors of hundreds of millions of slots.
const maxDataSlots = 1 << 22

// TestDataSectors opens every sector file in MALOM_DIR, reads every entry
// (of the sectors up to maxDataSlots), and checks that the values sit where
// this package's redirect rule says (the smallest slot among a position's
// images) and every other slot redirects there.
func TestDataSectors(t *testing.T) {
	dir := envDir(t, "MALOM_DIR")
	files, err := filepath.Glob(filepath.Join(dir, "*.sec2"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no sector files in %s", dir)
	}
	dbs := map[string]*DB{}
	want := map[string]Stats{
		"std_0_0_9_9.sec2":    {Entries: 1, Values: 1, Draws: 1},
		"std_3_3_0_0.sec2":    {Entries: 210140, Values: 169357, Counts: 269, Redirects: 40514, Wins: 174485, Draws: 352, Losses: 35303, MaxKey2: 26},
		"std_3_4_0_0.sec2":    {Entries: 945630, Values: 102281, Counts: 658117, Redirects: 185232, Wins: 126377, Draws: 819253, MaxKey2: 33},
		"std_4_3_0_0.sec2":    {Entries: 862980, Values: 78492, Counts: 681906, Redirects: 102582, Wins: 84303, Draws: 775017, Losses: 3660, MaxKey2: 32},
		"mora_2_2_10_10.sec2": {Entries: 6930, Values: 4200, Redirects: 2730, Wins: 5707, Draws: 839, Losses: 384, MaxKey2: 89},
		"lask_1_1_9_9.sec2":   {Entries: 92, Values: 39, Counts: 7, Redirects: 46, Wins: 43, Draws: 49, MaxKey2: 107},
	}
	for _, f := range files {
		name := filepath.Base(f)
		v, id, err := ParseSectorName(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		db := dbs[v.Prefix]
		if db == nil {
			db = openData(t, v)
			dbs[v.Prefix] = db
		}
		s, err := db.Sector(id)
		if err != nil {
			t.Error(err)
			continue
		}
		if s.Len() > maxDataSlots && os.Getenv("MALOM_ALL") == "" {
			t.Logf("%s: %d slots, skipped (set MALOM_ALL=1 to read it)", name, s.Len())
			continue
		}
		st, err := s.Check()
		if err != nil {
			t.Error(err)
			continue
		}
		t.Logf("%s: value %d, %d escapes, %+v", name, s.Value(), s.Escapes(), st)
		if w, ok := want[name]; ok && st != w {
			t.Errorf("%s: %+v, want %+v", name, st, w)
		}
		x := s.Index()
		for slot := range s.Len() {
			r, _ := s.Raw(slot)
			target, _ := canonical(x, slot)
			if (r.Kind() == KindRedirect) != (target != slot) {
				t.Fatalf("%s: slot %d holds a %v; the smallest slot of its images is %d", name, slot, r.Kind(), target)
			}
			if e, _ := s.Eval(slot); e.Slot != target {
				t.Fatalf("%s: slot %d redirects to %d, not to %d", name, slot, e.Slot, target)
			}
		}
	}
	// Nine Men's Morris is a draw: the empty board's entry.
	e, err := dbs["std"].Probe(0, 0, 9, 9)
	if want := (Eval{Raw: Raw{-21, 2}, Abs: 0, WDL: Draw}); err != nil || e != want {
		t.Errorf("empty board: %+v, %v; want %+v", e, err, want)
	}
}

// TestDataAgainstTables compares Malom's moving-phase sectors 3v3, 3v4 and
// 4v3 with our endgame tables: every entry (CompareSector), the plies of
// every win and loss, and Probe on every placement of the pieces (all 16
// presentations of each position).
func TestDataAgainstTables(t *testing.T) {
	db := openData(t, Standard)
	tabs, err := egtb.OpenParams(envDir(t, "EGTB_DIR"), egtb.Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer tabs.Close()
	ours := func(mover, other bb.Bitboard, mh, oh int) (int8, bool) {
		if mh != 0 || oh != 0 {
			return 0, false
		}
		v, ok := tabs.ProbeSets(mover, other)
		return int8(v.WDL()), ok
	}
	for _, id := range []SectorID{{3, 3, 0, 0}, {3, 4, 0, 0}, {4, 3, 0, 0}} {
		if !tabs.Has(egtb.SectorSpec{M: id.W, O: id.B}) {
			t.Logf("no table %dv%d in EGTB_DIR", id.W, id.B)
			continue
		}
		s, err := db.Sector(id)
		if err != nil {
			t.Fatal(err)
		}
		r := CompareSector(s, ours)
		t.Log(r)
		if r.Compared != s.Len() || r.Different != 0 || r.Skipped != 0 || r.Broken != 0 {
			for _, d := range r.First {
				t.Log(d)
			}
			t.Errorf("sector %v: %v", id, r)
		}
		// key2 of a win or a loss is our distance in plies.
		plies := 0
		for slot := range s.Len() {
			e, _ := s.Eval(slot)
			if e.WDL == Draw {
				continue
			}
			v, _ := tabs.ProbeSets(s.Position(slot))
			if e.Plies() != v.Plies() {
				t.Fatalf("sector %v slot %d: Malom %v, ours %v (%d plies)", id, slot, e, v, v.Plies())
			}
			plies++
		}
		// Every placement, through Probe.
		probes := 0
		for w := uint32(1)<<id.W - 1; w < 1<<24; w = nextSet(w) {
			for bs := uint32(1)<<id.B - 1; bs < 1<<(24-id.W); bs = nextSet(bs) {
				mover, other := bb.Bitboard(w), bb.Bitboard(unsqueeze(w, bs))
				e, err := s.Probe(mover, other)
				if err != nil {
					t.Fatal(err)
				}
				v, _ := tabs.ProbeSets(mover, other)
				if e.WDL != v.WDL() || e.Plies() != v.Plies() {
					t.Fatalf("sector %v: Probe(%v, %v) = %v, ours %v", id, mover, other, e, v)
				}
				probes++
			}
		}
		t.Logf("sector %v: plies equal on all %d wins and losses; %d placements probed, all equal", id, plies, probes)
	}
}
