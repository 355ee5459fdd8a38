package egtb

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/testkit"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// The reference counts of Nine Men's Morris (side to move first, every
// placement, no pending removal, no symmetry reduction).
var wantCounts = map[SectorSpec]struct {
	positions, wins, draws, losses uint64
	longestWin                     int
}{
	{M: 3, O: 3}: {2691920, 2232160, 4112, 455648, 13},
	{M: 3, O: 4}: {12113640, 1629336, 10484304, 0, 17},
	{M: 4, O: 3}: {12113640, 1201560, 10863360, 48720, 1},
	{M: 4, O: 4}: {51482970, 2456, 51480175, 339, 5},
	{M: 5, O: 3}: {41186376, 9271288, 31915088, 0, 2},
	{M: 3, O: 5}: {41186376, 100512, 40933248, 152616, 16},
}

var (
	sharedMu   sync.Mutex
	sharedDirs = map[Params]string{} // directories with tables up to 6 pieces (3v3), this run's
)

// sharedDir returns a directory holding the standard 3v3 table (sharedDirFor).
func sharedDir(t testing.TB) string { return sharedDirFor(t, Standard) }

// sharedDirFor returns a directory holding the tables of p up to 6 pieces
// (3v3), kept under the system's temporary directory between runs, as
// egtbtest keeps the other packages' tables: make test's first pass,
// without the race detector, builds them in about a second, and the race
// pass finds them there instead of solving them 40–100 times slower. The
// build skips the files that are there and sound, and writes each file
// atomically, so runs at once are safe.
func sharedDirFor(t testing.TB, p Params) string {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if d, ok := sharedDirs[p]; ok {
		return d
	}
	d := filepath.Join(os.TempDir(), "millengine-egtb-shared-"+p.Name()+"-"+strconv.Itoa(os.Getuid()))
	tb, err := Build(context.Background(), BuildOptions{Dir: d, Params: p, MaxPieces: 6, Threads: 2}, func(SectorReport) {})
	if err != nil {
		t.Fatal(err)
	}
	tb.Close()
	sharedDirs[p] = d
	return d
}

// sharedTables opens the shared standard directory.
func sharedTables(t testing.TB) *Tables { return sharedTablesFor(t, Standard) }

// sharedTablesFor opens the shared directory of p.
func sharedTablesFor(t testing.TB, p Params) *Tables {
	tb, err := OpenParams(sharedDirFor(t, p), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// raceTests are the tests of this package that run under the race
// detector: those where its concurrency lives — the solver's threads
// (moving and placing sectors, an interrupted build), probes at once of
// plain and packed tables (the packing with two threads included), the lazy
// checks and set tables of Open. The others solve and verify tables, which the race detector slows
// 40 to 100 times; make test runs the whole package without it first.
// A -run given on the command line wins.
const raceTests = "^(TestSolveStandardCounts|TestPlacingVerify|TestBuildInterruptAndResume|" +
	"TestPackedProbeAllocsAndConcurrency|TestProbeAllocsAndConcurrency|TestOpenChecksDataAtFirstUse|TestSetTables|TestUpdateBufferFills)$"

func TestMain(m *testing.M) {
	flag.Parse()
	if run := flag.Lookup("test.run"); testkit.Race && run.Value.String() == "" {
		if err := run.Value.Set(raceTests); err != nil {
			panic(err)
		}
		fmt.Fprintln(os.Stderr, "egtb: under the race detector only the concurrency tests run (raceTests); make test runs all of them without it")
	}
	code := m.Run()
	if packDir != "" {
		os.RemoveAll(packDir)
	}
	os.Exit(code)
}

// copyShared copies the shared 3v3 file into dir.
func copyShared(t testing.TB, dir string) {
	name := FileName(Standard, SectorSpec{M: 3, O: 3})
	b, err := os.ReadFile(filepath.Join(sharedDir(t), name))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// buildTest builds the standard tables up to maxPieces in a temporary
// directory (once per directory) and opens them.
func buildTest(t testing.TB, dir string, p Params, maxPieces int) (*Tables, []SectorReport) {
	t.Helper()
	var reps []SectorReport
	tb, err := Build(context.Background(), BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces, Threads: 2},
		func(r SectorReport) { reps = append(reps, r) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb, reps
}

// The solver's counts of 3v3 (and, without the race detector, of 3v4 and
// 4v3) are the reference counts, whether taken from the build's report, from
// the stored slots weighted by orbit size, or from probing every raw
// placement.
func TestSolveStandardCounts(t *testing.T) {
	maxPieces := 7
	if testkit.Race || testing.Short() {
		maxPieces = 6
	}
	dir := t.TempDir()
	copyShared(t, dir)
	tb, all := buildTest(t, dir, Standard, maxPieces)
	if len(all) != 2*len(Standard.Sectors(maxPieces)) {
		t.Fatalf("%d reports, want %d (DTM and DTZ)", len(all), 2*len(Standard.Sectors(maxPieces)))
	}
	var reps []SectorReport
	dtz := map[SectorSpec]SolveStats{}
	for _, r := range all {
		if r.Metric == DTZ {
			dtz[r.Spec] = r.Stats
		} else {
			reps = append(reps, r)
		}
	}
	for _, r := range reps {
		// The DTZ table has the same wins, draws and losses; its distances
		// (to the next removal) are no longer than to the end.
		if z := dtz[r.Spec]; z.Wins != r.Stats.Wins || z.Draws != r.Stats.Draws || z.Losses != r.Stats.Losses || z.LongestWin > r.Stats.LongestWin {
			t.Errorf("%s: DTZ %+v against DTM %+v", r.Spec, z, r.Stats)
		}
		w := wantCounts[r.Spec]
		st := r.Stats
		if st.Positions != w.positions || st.Wins != w.wins || st.Draws != w.draws || st.Losses != w.losses || st.LongestWin != w.longestWin {
			t.Errorf("%s: %d positions, %d wins, %d draws, %d losses, longest win %d; want %d, %d, %d, %d, %d",
				r.Spec, st.Positions, st.Wins, st.Draws, st.Losses, st.LongestWin, w.positions, w.wins, w.draws, w.losses, w.longestWin)
		}
		if again := tb.SectorStats(r.Spec); again != st {
			t.Errorf("%s: counted from the data %+v, the header says %+v", r.Spec, again, st)
		}
		if r.Existing != (r.Spec == SectorSpec{M: 3, O: 3}) {
			t.Errorf("%s: reported existing %t", r.Spec, r.Existing)
		}
	}
	// Every raw placement of 3v3 through ProbeSets.
	var wins, draws, losses uint64
	longest := 0
	step := 1
	if testkit.Race {
		step = 7 // a sample: the counts are then not compared
	}
	forEachPlacement(3, 3, step, func(m, o bb.Bitboard) {
		v, ok := tb.ProbeSets(m, o)
		switch {
		case !ok:
			t.Fatalf("%06x/%06x: unknown", m, o)
		case v.IsWin():
			wins++
			longest = max(longest, v.Distance())
		case v.IsLoss():
			losses++
		default:
			draws++
		}
	})
	if w := wantCounts[SectorSpec{M: 3, O: 3}]; step == 1 && (wins != w.wins || draws != w.draws || losses != w.losses || longest != w.longestWin) {
		t.Errorf("3v3 by probing every placement: %d wins, %d draws, %d losses, longest %d", wins, draws, losses, longest)
	}
	// A second build finds everything and solves nothing.
	_, again := buildTest(t, dir, Standard, maxPieces)
	for _, r := range again {
		if !r.Existing || r.Stats != reps[0].Stats && r.Spec == reps[0].Spec {
			t.Errorf("%s: rebuilt (existing %t)", r.Spec, r.Existing)
		}
	}
}

// forEachPlacement calls f for every step-th placement of m pieces for the
// side to move and o for the other.
func forEachPlacement(m, o, step int, f func(mover, other bb.Bitboard)) {
	i := 0
	ms := uint32(1)<<m - 1
	for range binom[24][m] {
		os := uint32(1)<<o - 1
		for range binom[24-m][o] {
			if i%step == 0 {
				mover := bb.Bitboard(ms)
				f(mover, deposit(os, mover))
			}
			i++
			c := os & -os
			x := os + c
			os = ((x^os)>>2)/c | x
		}
		c := ms & -ms
		x := ms + c
		ms = ((x^ms)>>2)/c | x
	}
}

// Every slot of 3v3 checks out against movegen and Position.Do, for the
// standard rules and for other parameter sets (a sample under the race
// detector).
func TestSolveAndVerifySmallSectors(t *testing.T) {
	sets := []Params{Standard, {MinPieces: 3}, {Diagonal: true, MinPieces: 3, RemoveFromMills: true}, {Diagonal: true, Fly: 3, MinPieces: 3}}
	step := uint32(1)
	if testkit.Race || testing.Short() {
		step = 97
		sets = sets[:3]
	}
	for _, p := range sets {
		t.Run(p.Name(), func(t *testing.T) {
			tb := sharedTablesFor(t, p)
			res, err := tb.Verify(context.Background(), SectorSpec{M: 3, O: 3}, VerifyOptions{Threads: 2, Limit: 5, Step: step})
			if err != nil {
				t.Fatal(err)
			}
			if res.Bad != 0 || res.Checked == 0 {
				t.Fatalf("%d of %d slots wrong: %v", res.Bad, res.Checked, res.First)
			}
			st := tb.SectorStats(SectorSpec{M: 3, O: 3})
			t.Logf("3v3: %d wins, %d draws, %d losses, longest win %d", st.Wins, st.Draws, st.Losses, st.LongestWin)
		})
	}
}

// Verify finds a wrong value.
func TestVerifyFindsCorruption(t *testing.T) {
	tb := sharedTables(t)
	step := uint32(1)
	if testkit.Race {
		step = 31
	}
	// Change one used slot in a private copy of the data.
	tab := tb.lookup(3, 3)
	data := append([]byte(nil), tab.data...)
	var slot uint32
	for i := 0; i < len(data); i += int(step) {
		if data[i] == byte(Win(2)) {
			slot = uint32(i)
			data[i] = byte(Win(3))
			break
		}
	}
	tab.data = data
	res, err := tb.Verify(context.Background(), SectorSpec{M: 3, O: 3}, VerifyOptions{Threads: 2, Limit: 100, Step: step})
	if err != nil {
		t.Fatal(err)
	}
	// The slot itself is wrong (its predecessors may be too).
	found := false
	for _, m := range res.First {
		found = found || m.Slot == slot
	}
	if !found {
		t.Fatalf("changing slot %d: mismatches %v", slot, res.First)
	}
	t.Logf("%d mismatch(es), first %v", res.Bad, res.First[0])
}

// An interrupted build keeps what it finished, drops the sectors in progress
// without leaving a file behind, and the next build completes the set.
func TestBuildInterruptAndResume(t *testing.T) {
	// Under the race detector the pair 3v4/4v3 takes long: drop 3v3 of the
	// cheaper rules without flying instead.
	p, maxPieces, phase, kept, dropped := Standard, 7, "3v4+4v3 init, 3v4", []SectorSpec{{M: 3, O: 3}}, []SectorSpec{{M: 3, O: 4}, {M: 4, O: 3}}
	if testkit.Race || testing.Short() {
		p, maxPieces, phase, kept, dropped = Params{MinPieces: 3}, 6, "3v3 init", nil, []SectorSpec{{M: 3, O: 3}}
	}
	dir := t.TempDir()
	if kept != nil {
		copyShared(t, dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var reps []SectorReport
	_, err := Build(ctx, BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces, Threads: 2,
		Progress: func(ph string, done, total uint64) {
			if ph == phase {
				cancel()
			}
		}}, func(r SectorReport) { reps = append(reps, r) })
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want an InterruptedError", err)
	}
	if fmt.Sprint(ie.Kept) != fmt.Sprint(kept) || fmt.Sprint(ie.Dropped) != fmt.Sprint(dropped) || len(reps) != 2*len(kept) {
		t.Fatalf("kept %v, dropped %v, reports %d", ie.Kept, ie.Dropped, len(reps))
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 2*len(kept) {
		t.Fatalf("files after the interrupt: %v", names)
	}
	// A stale temporary file from a killed run is removed.
	stale := filepath.Join(dir, FileName(p, dropped[0])+".tmp")
	if err := os.WriteFile(stale, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	reps = nil
	tb, err := Build(context.Background(), BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces, Threads: 2,
		Warn: func(s string) { notes = append(notes, s) }}, func(r SectorReport) { reps = append(reps, r) })
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if len(reps) != 2*(len(kept)+len(dropped)) {
		t.Fatalf("resumed build reports %+v", reps)
	}
	for i, r := range reps {
		if r.Existing != (i < 2*len(kept)) {
			t.Fatalf("resumed build: %s %s existing %t", r.Spec, r.Metric, r.Existing)
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) || len(notes) != 1 {
		t.Fatalf("stale file: %v; notes %q", err, notes)
	}
}

// The DTZ tables pass the same check as the DTM tables, with the engine's
// rules code: a removing turn counts 1, any other the DTZ value after it.
// ProbeDTZ agrees with the best ActionDTZ of every action.
func TestVerifyDTZ(t *testing.T) {
	maxPieces, step := 7, uint32(7)
	if testkit.Race || testing.Short() {
		maxPieces, step = 6, 97
	}
	dir := t.TempDir()
	copyShared(t, dir)
	tb, _ := buildTest(t, dir, Standard, maxPieces)
	for _, s := range tb.Sectors() {
		for _, m := range []Metric{DTM, DTZ} {
			res, err := tb.Verify(context.Background(), s, VerifyOptions{Metric: m, Step: step, Limit: 3})
			if err != nil || res.Bad != 0 || res.Checked == 0 {
				t.Fatalf("%s %s: checked %d, %d wrong: %v %v", s, m, res.Checked, res.Bad, res.First, err)
			}
		}
	}
	r := Standard.Rules()
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 300; {
		s := tb.Sectors()[rng.IntN(len(tb.Sectors()))]
		mover, other := randomPosition(rng, s.M, s.O)
		p, err := position.ParseFEN(&r, string(appendFEN(nil, mover, other)))
		if err != nil || p.IsOver() {
			continue
		}
		n++
		z, ok := tb.ProbeDTZ(&r, &p)
		v, _ := tb.Probe(&r, &p)
		if !ok || z.IsWin() != v.IsWin() || z.IsLoss() != v.IsLoss() || z.Distance() > v.Distance() {
			t.Fatalf("%s: DTZ %s (%t), DTM %s", p.FEN(), z, ok, v)
		}
		var best Value
		for i, a := range tb.Actions(&r, &p) {
			az, ok := tb.ActionDTZ(&r, &p, a.Move)
			if !ok {
				t.Fatalf("%s: no DTZ for %s", p.FEN(), a.Move)
			}
			if i == 0 || az.Better(best) {
				best = az
			}
		}
		if best != z {
			t.Fatalf("%s: ProbeDTZ %s, the best action's %s", p.FEN(), z, best)
		}
	}
}
