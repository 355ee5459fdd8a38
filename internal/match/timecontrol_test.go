package match

import (
	"testing"
	"time"
)

func TestParseClock(t *testing.T) {
	good := map[string]TimeControl{
		"10+0.1":    {Base: 10 * time.Second, Increment: 100 * time.Millisecond},
		"60":        {Base: time.Minute},
		" 0.5+0.05": {Base: 500 * time.Millisecond, Increment: 50 * time.Millisecond},
	}
	for in, want := range good {
		got, err := ParseClock(in)
		if err != nil || got != want {
			t.Errorf("ParseClock(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("Validate(%q): %v", in, err)
		}
	}
	for _, in := range []string{"", "abc", "0", "-5+1", "10+x", "10+-1", "NaN", "Inf+1"} {
		if tc, err := ParseClock(in); err == nil {
			t.Errorf("ParseClock(%q) = %+v, want an error", in, tc)
		}
	}
	if s := (TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}).String(); s != "10+0.1" {
		t.Errorf("String = %q, want 10+0.1", s)
	}
	if err := (TimeControl{MoveTime: time.Second, Base: time.Second}).Validate(); err == nil {
		t.Error("movetime and clock together validated")
	}
	if err := (TimeControl{}).Validate(); err == nil {
		t.Error("an empty time control validated")
	}
}

func TestClock(t *testing.T) {
	c := NewClock(TimeControl{Base: time.Second, Increment: 100 * time.Millisecond}, 50*time.Millisecond)
	if got, want := c.GoCommand(), "go wtime 1000 btime 1000 winc 100 binc 100"; got != want {
		t.Errorf("GoCommand = %q, want %q", got, want)
	}
	if d := c.Deadline(0); d != 1050*time.Millisecond {
		t.Errorf("Deadline = %v, want 1.05s", d)
	}
	// White thinks 300 ms: 1000 − 300 + 100 = 800.
	if !c.Spend(0, 300*time.Millisecond) || c.Remaining(0) != 800*time.Millisecond {
		t.Errorf("after 300ms white has %v, want 800ms", c.Remaining(0))
	}
	// Black overruns by 30 ms, inside the margin: clock 0 + increment.
	if !c.Spend(1, 1030*time.Millisecond) || c.Remaining(1) != 100*time.Millisecond {
		t.Errorf("inside the margin black has %v, want 100ms", c.Remaining(1))
	}
	if got, want := c.GoCommand(), "go wtime 800 btime 100 winc 100 binc 100"; got != want {
		t.Errorf("GoCommand = %q, want %q", got, want)
	}
	// Black overruns by more than the margin: lost on time.
	if c.Spend(1, 200*time.Millisecond) {
		t.Error("an overrun past the margin was accepted")
	}

	m := NewClock(TimeControl{MoveTime: 100 * time.Millisecond}, 20*time.Millisecond)
	if got := m.GoCommand(); got != "go movetime 100" {
		t.Errorf("GoCommand = %q", got)
	}
	if d := m.Deadline(1); d != 120*time.Millisecond {
		t.Errorf("Deadline = %v, want 120ms", d)
	}
	if !m.Spend(0, 115*time.Millisecond) || m.Spend(0, 121*time.Millisecond) {
		t.Error("move time margin not applied")
	}
}

// A node budget sends go nodes, is exclusive with the other limits, and
// waits for the answer as long as a slow engine needs for the budget.
func TestNodeBudget(t *testing.T) {
	tc := TimeControl{Nodes: 20000}
	if err := tc.Validate(); err != nil {
		t.Fatal(err)
	}
	if s := tc.String(); s != "nodes 20000" {
		t.Errorf("String = %q, want nodes 20000", s)
	}
	for _, bad := range []TimeControl{{Nodes: 5, MoveTime: time.Second}, {Nodes: 5, Base: time.Second}, {Nodes: 5, Increment: time.Second}} {
		if err := bad.Validate(); err == nil || err.Error() != "time control: a node budget (5) excludes a move time and a clock" {
			t.Errorf("%+v: error %v", bad, err)
		}
	}
	c := NewClock(tc, 100*time.Millisecond)
	if got, want := c.GoCommand(), "go nodes 20000"; got != want {
		t.Errorf("GoCommand = %q, want %q", got, want)
	}
	if d := c.Deadline(1); d != 10*time.Second+400*time.Millisecond+100*time.Millisecond {
		t.Errorf("Deadline = %v, want 10.5s", d)
	}
	if !c.Spend(0, 9*time.Second) || c.Spend(0, 11*time.Second) {
		t.Error("Spend: want 9 s within the budget's deadline and 11 s beyond it")
	}
	if got, want := c.GoCommand(), "go nodes 20000"; got != want {
		t.Errorf("after Spend GoCommand = %q, want %q", got, want)
	}
}
