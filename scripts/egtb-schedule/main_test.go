package main

import (
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
)

// A diamond a → b, c → d with a long c: the path is a, c, d; one machine
// runs all one after another, two reach the path, and the list schedule
// takes jobs in plan order (with three machines b and c start together).
func TestScheduleDiamond(t *testing.T) {
	ts := []task{{name: "a", secs: 1}, {name: "b", secs: 2, after: []int{0}}, {name: "c", secs: 3, after: []int{0}}, {name: "d", secs: 1, after: []int{1, 2}}}
	crit, path := longestPath(ts)
	if crit != 5 || len(path) != 3 || path[0] != 0 || path[1] != 2 || path[2] != 3 {
		t.Errorf("longest path %g %v, want 5 [0 2 3]", crit, path)
	}
	for m, want := range map[int]float64{1: 7, 2: 5, 3: 5} {
		if got := schedule(ts, m); got != want {
			t.Errorf("%d machines: %g, want %g", m, got, want)
		}
	}
	// A job e (4 s, no needs) after d in the plan: at 0 the second machine
	// takes it, the first ready job, so c runs after b on the first machine
	// (greedy, not optimal: 7 s, where 6 would do); a third machine takes b
	// at 1, once a is done.
	ts = append(ts, task{name: "e", secs: 4})
	for m, want := range map[int]float64{1: 11, 2: 7, 3: 5} {
		if got := schedule(ts, m); got != want {
			t.Errorf("with e, %d machines: %g, want %g", m, got, want)
		}
	}
}

// The plan's jobs get their dependencies from the needs (4v5 waits for 3v5
// and 4v4), the times given, and the others estimated from their slots.
func TestTasks(t *testing.T) {
	plan := egtb.Standard.Plan(9)
	ts, err := tasks(egtb.Standard, plan, map[string]float64{"3v3": 1, "4v5": 8}, 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 6 || ts[5].name != "4v5" || ts[5].secs != 8 || ts[5].estimate || len(ts[5].after) != 2 ||
		ts[ts[5].after[0]].name != "4v4" || ts[ts[5].after[1]].name != "3v5" {
		t.Errorf("4v5: %+v", ts[5])
	}
	if ts[1].name != "3v4" || !ts[1].estimate || ts[1].secs != 2*1808610/1e6 {
		t.Errorf("3v4: %+v", ts[1])
	}
	if _, err := tasks(egtb.Standard, plan, map[string]float64{"4v3": 1}, 1e6); err == nil || !strings.Contains(err.Error(), "a time for 4v3, which is no job of the plan") {
		t.Errorf("a time for 4v3: %v", err)
	}
}

func TestReadTimes(t *testing.T) {
	got, err := readTimes(strings.NewReader(defaultTimes))
	if err != nil || len(got) != 28 || got["3v3"] != 0.7 || got["5v8"] != 207.2 || got["8v8"] != 329.3 {
		t.Errorf("times.tsv: %d times, %v", len(got), err)
	}
	if _, err := tasks(egtb.Standard, egtb.Standard.Plan(egtb.MaxPieces), got, 1e6); err != nil {
		t.Errorf("times.tsv: %v", err)
	}
	for in, want := range map[string]string{
		"3v3 1\n":          "line 1: \"3v3 1\": want job<TAB>seconds",
		"3x3\t1\n":         "line 1: sector \"3x3\": want MvO",
		"3v3\t-1\n":        "line 1: seconds \"-1\": want a number ≥ 0",
		"3v3\t1\n3v3\t2\n": "line 2: job 3v3 given twice",
	} {
		if _, err := readTimes(strings.NewReader(in)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}
