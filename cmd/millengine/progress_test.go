package main

import (
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb"
)

// The estimate counts the pair in flight whole until it has had its time,
// and then never runs below the work of the pairs after it.
func TestBuildETA(t *testing.T) {
	p, err := variantParams("nine-mens-morris")
	if err != nil {
		t.Fatal(err)
	}
	plan := p.Plan(8) // jobs 3v3, 3v4, 3v5, 4v4
	if len(plan) != 4 {
		t.Fatalf("%d jobs", len(plan))
	}
	e := newBuildETA(plan)
	if s := e.String(); s != "" {
		t.Fatalf("before anything was solved: %q", s)
	}
	// The first job took 1 s per 1e6 slot-tables of its work.
	first := plan[0]
	work := float64(first.Slots) * float64(len(first.Metrics))
	for _, m := range first.Metrics {
		for _, s := range first.Sectors {
			e.add(egtb.SectorReport{Spec: s, Metric: m, Partner: first.Sectors[len(first.Sectors)-1], Elapsed: time.Duration(work / 1e6 * float64(time.Second))})
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
