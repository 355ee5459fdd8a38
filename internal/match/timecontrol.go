package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is how long an engine may think. Exactly one of MoveTime,
// Base and Nodes is set: a fixed time per action (`go movetime`), a clock
// with a base time and an increment (`go wtime btime winc binc`), or a fixed
// node budget per action (`go nodes`), which plays the same games however
// loaded the machine is.
type TimeControl struct {
	MoveTime  time.Duration // fixed time per action
	Base      time.Duration // clock: time per side for the game
	Increment time.Duration // clock: added after each action
	Nodes     uint64        // fixed nodes per action
}

// nodesDeadline is how long an engine may take for a node budget before it
// counts as hung: generous (a slow engine at 50,000 nodes per second plus
// ten seconds), since the budget, not the clock, limits the search.
func nodesDeadline(nodes uint64) time.Duration {
	return 10*time.Second + time.Duration(nodes)*20*time.Microsecond
}

// IsClock reports whether the time control is a clock.
func (tc TimeControl) IsClock() bool { return tc.Base > 0 }

// Validate checks that exactly one kind of limit is set.
func (tc TimeControl) Validate() error {
	switch {
	case tc.MoveTime < 0 || tc.Base < 0 || tc.Increment < 0:
		return fmt.Errorf("time control %s: negative time", tc)
	case tc.MoveTime > 0 && (tc.Base > 0 || tc.Increment > 0):
		return fmt.Errorf("time control: a move time (%v) and a clock are exclusive", tc.MoveTime)
	case tc.Nodes > 0 && (tc.MoveTime > 0 || tc.Base > 0 || tc.Increment > 0):
		return fmt.Errorf("time control: a node budget (%d) excludes a move time and a clock", tc.Nodes)
	case tc.MoveTime == 0 && tc.Base == 0 && tc.Nodes == 0:
		return fmt.Errorf("time control: no move time, no clock and no node budget")
	}
	return nil
}

// String returns "movetime 100ms", "nodes 20000" or the clock as "10+0.1"
// (seconds).
func (tc TimeControl) String() string {
	if tc.Nodes > 0 {
		return fmt.Sprintf("nodes %d", tc.Nodes)
	}
	if tc.MoveTime > 0 || tc.Base == 0 {
		return "movetime " + tc.MoveTime.String()
	}
	s := strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64)
	if tc.Increment > 0 {
		s += "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
	}
	return s
}

// ParseClock reads a clock "base[+increment]" in seconds, such as "10+0.1",
// "60" or "0.5+0.05".
func ParseClock(s string) (TimeControl, error) {
	base, inc, hasInc := strings.Cut(strings.TrimSpace(s), "+")
	b, err := parseSeconds(base)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: base: %w", s, err)
	}
	if b <= 0 {
		return TimeControl{}, fmt.Errorf("time control %q: the base time must be positive", s)
	}
	tc := TimeControl{Base: b}
	if hasInc {
		if tc.Increment, err = parseSeconds(inc); err != nil {
			return TimeControl{}, fmt.Errorf("time control %q: increment: %w", s, err)
		}
	}
	return tc, nil
}

func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	if f < 0 || f > 1e6 {
		return 0, fmt.Errorf("%q is out of range 0..1000000 seconds", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// Clock keeps both sides' remaining time under a TimeControl.
type Clock struct {
	tc        TimeControl
	margin    time.Duration
	remaining [2]time.Duration
}

// NewClock starts a clock for a game; margin is how far past its time an
// engine may answer before it loses (it absorbs pipe and scheduling delays).
func NewClock(tc TimeControl, margin time.Duration) *Clock {
	return &Clock{tc: tc, margin: margin, remaining: [2]time.Duration{tc.Base, tc.Base}}
}

// Remaining returns the time left to side (0 white, 1 black).
func (c *Clock) Remaining(side int) time.Duration { return c.remaining[side] }

// GoCommand returns the `go` line for the side to move.
func (c *Clock) GoCommand() string {
	if c.tc.Nodes > 0 {
		return fmt.Sprintf("go nodes %d", c.tc.Nodes)
	}
	if !c.tc.IsClock() {
		return fmt.Sprintf("go movetime %d", c.tc.MoveTime.Milliseconds())
	}
	inc := c.tc.Increment.Milliseconds()
	return fmt.Sprintf("go wtime %d btime %d winc %d binc %d",
		c.remaining[0].Milliseconds(), c.remaining[1].Milliseconds(), inc, inc)
}

// Deadline returns how long the referee waits for side's answer before it
// declares a hang (move time) or a loss on time (clock): the allowed time plus
// the margin. A node budget gets nodesDeadline.
func (c *Clock) Deadline(side int) time.Duration {
	if c.tc.Nodes > 0 {
		return nodesDeadline(c.tc.Nodes) + c.margin
	}
	if !c.tc.IsClock() {
		return c.tc.MoveTime + c.margin
	}
	return c.remaining[side] + c.margin
}

// Spend charges elapsed to side and reports whether the side is still within
// its time (its allowance plus the margin). Under a clock the increment is
// added after every action, removals included, and time spent inside the
// margin leaves the clock at zero before the increment.
func (c *Clock) Spend(side int, elapsed time.Duration) bool {
	if c.tc.Nodes > 0 {
		return elapsed <= c.Deadline(side)
	}
	if !c.tc.IsClock() {
		return elapsed <= c.tc.MoveTime+c.margin
	}
	left := c.remaining[side] - elapsed
	if left < -c.margin {
		c.remaining[side] = 0
		return false
	}
	if left < 0 {
		left = 0
	}
	c.remaining[side] = left + c.tc.Increment
	return true
}
