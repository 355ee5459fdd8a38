package tune

import (
	"bytes"
	"context"
	"testing"

	"github.com/millengine/millengine/internal/rules"
)

// Two identical configurations with colours swapped score even, whatever
// the number of workers, and the progress says each pair's score.
func TestSessionScreen(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s := Session{Play: PlayConfig{Rules: rules.Default(), Nodes: 300, OpeningPlies: 4, MaxPlies: 200}, Seed: 1, Workers: workers}
		var progress bytes.Buffer
		a, _ := ParseConfig("")
		tally := s.Screen(context.Background(), &progress, a, a, 4)
		if tally.W != tally.L || tally.W+tally.D+tally.L != 4 {
			t.Errorf("%d workers: +%d =%d -%d", workers, tally.W, tally.D, tally.L)
		}
		if got := progress.String(); !bytes.HasPrefix(progress.Bytes(), []byte("\rgame 2/4: A vs B +")) || !bytes.HasSuffix(progress.Bytes(), []byte("\n")) || bytes.Count(progress.Bytes(), []byte("\r")) != 2 {
			t.Errorf("%d workers: progress %q", workers, got)
		}
	}
}
