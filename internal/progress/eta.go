package progress

import (
	"fmt"
	"sync"
	"time"

	"github.com/millengine/millengine/internal/egtb"
)

// BuildETA estimates the time an endgame table build has left from the
// slots still to solve and the rate of the pairs solved so far in this run
// (the pairs differ in cost per slot, so it is an estimate, steadier as the
// build goes on). The pair in flight counts whole until it has taken its
// estimated time, so a long pair does not run the estimate down to nothing
// before it ends. Its String is a Bar's Suffix.
type BuildETA struct {
	mu      sync.Mutex
	total   float64       // slot-tables of the plan not found built
	done    float64       // slot-tables solved in this run
	solving time.Duration // the time those took
	last    time.Time     // the last report
	// jobs holds, for each of the plan's jobs in the order the build runs
	// them, the work not yet reported: per sector, its slots times the
	// tables still to come.
	jobs []map[egtb.SectorSpec]float64
}

// NewBuildETA counts the work of a plan: each sector's slots once per table.
func NewBuildETA(plan []egtb.Job) *BuildETA {
	e := &BuildETA{last: time.Now()}
	for _, j := range plan {
		e.total += float64(j.Slots) * float64(len(j.Metrics))
		left := map[egtb.SectorSpec]float64{}
		for _, s := range j.Sectors {
			left[s] += float64(s.Slots()) * float64(len(j.Metrics))
		}
		e.jobs = append(e.jobs, left)
	}
	return e
}

// Add takes a sector's report (egtb.Build's) into the estimate.
func (e *BuildETA) Add(r egtb.SectorReport) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := float64(r.Spec.Slots())
	for _, left := range e.jobs {
		if _, ok := left[r.Spec]; ok {
			left[r.Spec] -= n
			break
		}
	}
	if r.Existing {
		e.total -= n
		return
	}
	e.done += n
	if r.Partner == r.Spec || r.Partner.M > r.Spec.M {
		e.solving += r.Elapsed // once per pair: both sectors report the pair's time
	}
	e.last = time.Now()
}

// inFlight is the work of the first job with tables still to come.
func (e *BuildETA) inFlight() float64 {
	for _, left := range e.jobs {
		var w float64
		for _, v := range left {
			w += max(v, 0)
		}
		if w > 0 {
			return w
		}
	}
	return 0
}

// String is "   all 12.3 % (1.10 of 8.90 G slot-tables), ~1h23m left", or
// "" before anything was solved.
func (e *BuildETA) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.total <= 0 || e.done <= 0 || e.solving <= 0 {
		return ""
	}
	rate := e.done / e.solving.Seconds() // slot-tables a second
	cur := e.inFlight()
	rest := max(e.total-e.done-cur, 0) / rate
	curLeft := max(cur/rate-time.Since(e.last).Seconds(), 0)
	return allLine(e.done, e.total, time.Duration((rest+curLeft)*float64(time.Second)))
}

// allLine is the whole-run part of a long job's progress line, "   all 12.3
// % (1.10 of 8.90 G slot-tables), ~1h23m left": the time left rounded to the
// second, or to the minute beyond ten minutes.
func allLine(done, total float64, left time.Duration) string {
	left = left.Round(time.Second)
	if left > 10*time.Minute {
		left = left.Round(time.Minute)
	}
	return fmt.Sprintf("   all %.1f %% (%.2f of %.2f G slot-tables), ~%s left", 100*done/total, done/1e9, total/1e9, left)
}

// VerifyETA estimates the time a verify of many tables has left from the
// slots still to check and the rate of this run so far (tables skipped by a
// journal count for neither). Its String is a Bar's Suffix; the zero value
// is ready for use.
type VerifyETA struct {
	mu          sync.Mutex
	total, done uint64 // slot-tables to check in all, and in the tables finished
	cur         uint64 // slots checked of the table in flight
	before      uint64 // slots of the table in flight checked by an earlier run
	start       time.Time
	// marks are the slot-tables checked by this run, taken at most every
	// etaStep, the last etaMarks of them: the time left is at the rate of
	// their span (the last ten minutes), so that a verify slowed down a
	// while ago (other work on the machine, a SIGSTOP) is not estimated at
	// its average since it started (30 h for 4.5, 2026-11-28).
	marks []etaMark
}

// etaMark is how many slot-tables a run had checked at a time.
type etaMark struct {
	at   time.Time
	done uint64
}

const (
	etaStep  = 30 * time.Second
	etaMarks = 21
)

// Resumed takes the slots of the next table an earlier run checked: they
// count neither as work left nor as this run's.
func (e *VerifyETA) Resumed(slots uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.before = slots
	e.total -= min(slots, e.total)
}

// Planned takes the slots of a table to check (egtb.VerifyOptions.Planned).
func (e *VerifyETA) Planned(slots uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.total += slots
	if e.start.IsZero() {
		e.start = time.Now()
	}
}

// Progress takes the table in flight's count (an egtb.Progress).
func (e *VerifyETA) Progress(_ string, done, _ uint64) {
	e.mu.Lock()
	e.cur = done - min(e.before, done)
	e.mu.Unlock()
}

// Finished takes a table's report: its slots were checked, or skipped.
func (e *VerifyETA) Finished(slots uint64, skipped bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cur = 0
	if skipped { // a skipped table is never resumed (Skip is asked first)
		e.total -= min(slots, e.total)
		return
	}
	e.done += slots - min(e.before, slots)
	e.before = 0
}

// String is "   all 61.2 % (5.63 of 9.19 G slot-tables), ~3h10m left", or ""
// before anything was checked.
func (e *VerifyETA) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lineAt(time.Now())
}

// lineAt is String at the time now: the rate of the last marks' span once
// it is etaStep long, else of the whole run.
func (e *VerifyETA) lineAt(now time.Time) string {
	done := e.done + e.cur
	if n := len(e.marks); n == 0 || now.Sub(e.marks[n-1].at) >= etaStep {
		if n == etaMarks {
			copy(e.marks, e.marks[1:])
			e.marks = e.marks[:n-1]
		}
		e.marks = append(e.marks, etaMark{now, done})
	}
	if first := e.marks[0]; e.total > 0 && now.Sub(first.at) >= etaStep && done > first.done {
		return leftLine(e.total, done, float64(done-first.done)/now.Sub(first.at).Seconds())
	}
	return etaLine(e.total, done, now.Sub(e.start))
}

// etaLine is the whole-run part of a long check's progress line: the share
// of the slot-tables done and the time the rest takes at the rate so far.
func etaLine(total, done uint64, elapsed time.Duration) string {
	if total == 0 || done == 0 || elapsed <= 0 {
		return ""
	}
	return leftLine(total, done, float64(done)/elapsed.Seconds())
}

// leftLine is etaLine with the rest at rate slot-tables a second.
func leftLine(total, done uint64, rate float64) string {
	left := time.Duration(float64(total-min(done, total)) / rate * float64(time.Second))
	return allLine(float64(done), float64(total), left)
}
