package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/rules"
)

// The estimate counts the pair in flight whole until it has had its time,
// and then never runs below the work of the pairs after it.
func TestBuildETA(t *testing.T) {
	preset, _ := rules.PresetByName("nine-mens-morris")
	p, err := egtb.ParamsOf(&preset.Rules)
	if err != nil {
		t.Fatal(err)
	}
	plan := p.Plan(8) // jobs 3v3, 3v4, 3v5, 4v4
	if len(plan) != 4 {
		t.Fatalf("%d jobs", len(plan))
	}
	e := NewBuildETA(plan)
	if s := e.String(); s != "" {
		t.Fatalf("before anything was solved: %q", s)
	}
	// The first job took 1 s per 1e6 slot-tables of its work.
	first := plan[0]
	work := float64(first.Slots) * float64(len(first.Metrics))
	for _, m := range first.Metrics {
		for _, s := range first.Sectors {
			e.Add(egtb.SectorReport{Spec: s, Metric: m, Partner: first.Sectors[len(first.Sectors)-1], Elapsed: time.Duration(work / 1e6 * float64(time.Second))})
		}
	}
	rate := e.done / e.solving.Seconds()
	var rest float64
	for _, j := range plan[1:] {
		rest += float64(j.Slots) * float64(len(j.Metrics))
	}
	want := time.Duration(rest / rate * float64(time.Second)).Round(time.Second)
	if s := e.String(); !strings.HasSuffix(s, "~"+want.String()+" left") {
		t.Fatalf("fresh: %q, want ~%v left", s, want)
	}
	// Long after the last report the job in flight counts for nothing more,
	// but the jobs after it still do.
	e.last = time.Now().Add(-time.Hour)
	cur := float64(plan[1].Slots) * float64(len(plan[1].Metrics))
	want = time.Duration((rest - cur) / rate * float64(time.Second)).Round(time.Second)
	if s := e.String(); !strings.HasSuffix(s, "~"+want.String()+" left") {
		t.Fatalf("an hour on: %q, want ~%v left", s, want)
	}
}

// A verify's whole-run estimate: the share of the slot-tables checked (the
// table in flight included) and the rest at this run's rate; tables skipped
// by the journal leave the total.
func TestVerifyETA(t *testing.T) {
	if got := etaLine(9_193_626_407, 0, time.Hour); got != "" {
		t.Errorf("nothing done: %q", got)
	}
	if got, want := etaLine(9_000_000_000, 3_000_000_000, 2*time.Hour), "   all 33.3 % (3.00 of 9.00 G slot-tables), ~4h0m0s left"; got != want {
		t.Errorf("a third in 2 h: %q, want %q", got, want)
	}
	if got, want := etaLine(1000, 900, 90*time.Second), "   all 90.0 % (0.00 of 0.00 G slot-tables), ~10s left"; got != want {
		t.Errorf("nine tenths in 90 s: %q, want %q", got, want)
	}
	e := &VerifyETA{}
	e.Planned(4000)
	e.Finished(1000, true) // in the journal
	e.Progress("verify 3v4", 600, 1000)
	if e.total != 3000 || e.done+e.cur != 600 {
		t.Errorf("total %d, checked %d", e.total, e.done+e.cur)
	}
	e.Finished(1000, false)
	if e.total != 3000 || e.done != 1000 || e.cur != 0 {
		t.Errorf("after a table: total %d, done %d, in flight %d", e.total, e.done, e.cur)
	}

	// The time left is at the rate of the last ten minutes: a run that
	// checked 1 G in its first hour (starved) and 1 G in the ten minutes
	// since has 7 G left in 70 minutes, not in 3.9 hours.
	e = &VerifyETA{}
	e.Planned(9_000_000_000)
	t0 := e.start
	line := func(at time.Duration, done uint64) string {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.cur = done
		return e.lineAt(t0.Add(at))
	}
	if got, want := line(10*time.Second, 1_000_000), "   all 0.0 % (0.00 of 9.00 G slot-tables), ~25h0m0s left"; got != want {
		t.Errorf("at 10 s: %q, want %q (the whole run's rate)", got, want)
	}
	for h := time.Duration(0); h <= 120; h++ { // a look every 30 s: the first hour at 1 G an hour
		line(h*30*time.Second+10*time.Second, uint64(h)*1_000_000_000/120)
	}
	for h := time.Duration(1); h <= 20; h++ { // then 1 G in ten minutes
		line((120+h)*30*time.Second+10*time.Second, 1_000_000_000+uint64(h)*50_000_000)
	}
	if got, want := line(70*time.Minute+10*time.Second, 2_000_000_000), "   all 22.2 % (2.00 of 9.00 G slot-tables), ~1h10m0s left"; got != want {
		t.Errorf("after a fast ten minutes: %q, want %q", got, want)
	}
}
