package solve

import (
	"errors"
	"testing"
	"time"
)

// A proof's counters in one line, and the message of an interrupted proof,
// with the file of its table and without.
func TestStatsLineAndStopped(t *testing.T) {
	st := Stats{Nodes: 123456, Leaves: 789, TTFilled: 4567, Elapsed: 62*time.Second + 400*time.Millisecond}
	if got, want := st.Line(), "1m2s, 123456 nodes (2 k/s), 789 table leaves, 4567 entries"; got != want {
		t.Errorf("Line: %q, want %q", got, want)
	}
	err := error(&StoppedError{Stats: st, File: "proof.tt"})
	if got, want := err.Error(), "interrupted after 1m2s, 123456 nodes (2 k/s), 789 table leaves, 4567 entries; the table is in proof.tt: the same command goes on"; got != want || !errors.Is(err, ErrStopped) {
		t.Errorf("%q (is ErrStopped: %t), want %q", got, errors.Is(err, ErrStopped), want)
	}
	if got, want := (&StoppedError{Stats: Stats{}}).Error(), "interrupted after 0s, 0 nodes (0 k/s), 0 table leaves, 0 entries"; got != want {
		t.Errorf("no file: %q, want %q", got, want)
	}
}
