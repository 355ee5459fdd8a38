package report

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// A build's line of a sector: the counts of the DTM table, the distances to
// a removal of a DTZ table beside it, the whole counts of a DTZ table alone
// and of a placing sector's WDL table; then the time, the partner, the
// peak memory and the checkpoints, or "already built".
func TestSectorLine(t *testing.T) {
	s3v4, s4v3 := egtb.SectorSpec{M: 3, O: 4}, egtb.SectorSpec{M: 4, O: 3}
	s9v9 := egtb.SectorSpec{M: 9, O: 9}
	st := egtb.SolveStats{Positions: 100, Wins: 60, Draws: 30, Losses: 10, LongestWin: 17, LongestLoss: 5}
	for _, c := range []struct {
		r    egtb.SectorReport
		want string
	}{
		{egtb.SectorReport{Spec: s3v4, Partner: s4v3, Metric: egtb.DTM, Stats: st, Elapsed: 1500 * time.Millisecond, PeakRSS: 19 << 20},
			"3v4: positions 100, wins 60, draws 30, losses 10, longest win 17, 1.5 s (solved with 4v3), peak 19 MB"},
		{egtb.SectorReport{Spec: s3v4, Partner: s4v3, Metric: egtb.DTM, Stats: st, Elapsed: 1500 * time.Millisecond,
			Work: egtb.SolveWork{Init: 400 * time.Millisecond, Retro: time.Second, Plies: 27, Scanned: 51_200_000, Resolved: 2_000_000, Updates: 11_250_000}},
			"3v4: positions 100, wins 60, draws 30, losses 10, longest win 17, 1.5 s (solved with 4v3); init 0.4 s, 27 plies 1.0 s: 51.2 M cells scanned, 2.0 M resolved, 11.2 M updates"},
		{egtb.SectorReport{Spec: s3v4, Partner: s4v3, Metric: egtb.DTZ, Stats: st, Existing: true},
			"3v4 dtz: longest win 17, longest loss 5 turns to a removal, already built"},
		{egtb.SectorReport{Spec: s9v9, Partner: s9v9, Metric: egtb.DTZ, Stats: st, Elapsed: time.Minute, Checkpoints: 2},
			"9v9 dtz: positions 100, wins 60, draws 30, losses 10, longest win 17, longest loss 5 turns to a removal, 60.0 s, 2 checkpoints"},
		{egtb.SectorReport{Spec: egtb.SectorSpec{M: 0, O: 0, MF: 9, OF: 9}, Metric: egtb.WDL, Stats: st, Elapsed: time.Second, Partner: egtb.SectorSpec{M: 0, O: 0, MF: 9, OF: 9}},
			"0_0_9_9: positions 100, wins 60, draws 30, losses 10, 1.0 s"},
	} {
		if got := sectorLine(c.r); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// The plan's table: the totals, a row per job with its state in the
// directory, and the count of the jobs built.
func TestWritePlan(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	preset, _ := rules.PresetByName("nine-mens-morris")
	p, err := egtb.ParamsOf(&preset.Rules)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WritePlan(&out, Plan(p, 0, 8), PlanOptions{Params: p, MaxPieces: 8, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	want := []string{
		"plain-fly3-min3 up to 8 pieces: 4 jobs, 6 sectors, 3 levels, ",
		"level  job  sectors  tables   slots ",
		"0      3v3  3v3      dtm,dtz  210140 ",
		"1      3v4  3v4,4v3  dtm,dtz  1808610 ",
		"2      3v5  3v5,5v3  dtm,dtz  ",
		"2      4v4  4v4      dtm,dtz  ",
		"2 of 4 jobs built in " + dir,
		"",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d %q, want it to start %q", i+1, lines[i], w)
		}
	}
	for i, state := range []string{"built", "built", "missing", "missing"} {
		if !strings.HasSuffix(lines[2+i], " "+state) {
			t.Errorf("line %d %q: not %s", 3+i, lines[2+i], state)
		}
	}
}

// A verify of some tables: a line per table checked, OK; of a directory
// without tables: an error; WriteStats likewise.
func TestVerify(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	sets, err := egtb.ParamSets(dir)
	if err != nil || len(sets) != 1 {
		t.Fatalf("%d parameter sets, %v", len(sets), err)
	}
	var out, progress bytes.Buffer
	o := VerifyOptions{Dir: dir, Sets: sets, Only: []egtb.SectorSpec{{M: 3, O: 3}}, Step: 97}
	if err := Verify(context.Background(), &out, &progress, o); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^plain-fly3-min3 3v3: OK, 2167 entries, \d+\.\d s\nplain-fly3-min3 3v3 dtz: OK, 2167 entries, \d+\.\d s\n$`).MatchString(out.String()) {
		t.Errorf("verify:\n%s", out.String())
	}
	empty := t.TempDir()
	o = VerifyOptions{Dir: empty, Sets: sets}
	if err := Verify(context.Background(), &out, &progress, o); err == nil || err.Error() != "no tables in "+empty || errors.Is(err, ErrFailed) {
		t.Errorf("verify of no tables: %v", err)
	}
	if err := WriteStats(&out, empty); err == nil || err.Error() != "no tables in "+empty {
		t.Errorf("stats of no tables: %v", err)
	}
}

// A probe of a position with a pending removal: the value and its one
// action, by the distance to the end or to the next removal.
func TestProbe(t *testing.T) {
	tb := egtbtest.Open(t, 7)
	r := rules.Default()
	p, err := position.ParseFEN(&r, "***@@@**/*****@**/OO*****O w m r 3 0 4 0 1 0 0 0 0 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for dtz, want := range map[bool]string{false: "value: loss 2\nxb2: loss 2\n", true: "value: loss 1 (dtz)\nxb2: loss 1 (dtz)\n"} {
		var out bytes.Buffer
		if err := Probe(&out, position.NewGame(r, p), tb, nil, dtz); err != nil || out.String() != want {
			t.Errorf("dtz %t: %q, %v; want %q", dtz, out.String(), err, want)
		}
	}
}
