package book

import (
	"testing"
	"time"
)

// book prove's progress line gives the rate of this run and the time left.
func TestProveProgress(t *testing.T) {
	for _, tc := range []struct {
		proven, total, now int
		elapsed            time.Duration
		want               string
	}{
		{0, 4980, 0, time.Minute, ""},
		{1212, 4980, 101, 394 * time.Second, "1212/4980 proven, 3.9 s a position this run, about 4h05m left; "},
		{4980, 4980, 3, 3 * time.Second, "4980/4980 proven, 1.0 s a position this run, about 0h00m left; "},
	} {
		if got := proveProgress(tc.proven, tc.total, tc.now, tc.elapsed); got != tc.want {
			t.Errorf("proveProgress(%d, %d, %d, %s) = %q, want %q", tc.proven, tc.total, tc.now, tc.elapsed, got, tc.want)
		}
	}
}
