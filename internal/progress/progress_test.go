package progress

import (
	"bytes"
	"testing"
	"time"
)

// Off a terminal the bar writes a line per update, at most every interval,
// with the share done and the suffix; Draw writes its line at once and
// Clear writes nothing.
func TestBarOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	b := NewBar(&buf, "egtb ", "M/s", 1e6)
	b.Suffix = func() string { return "   all" }
	b.Update("3v3", 0, 4)
	b.Update("3v3", 1, 4) // within the interval: not drawn
	b.Draw("solve 1s")
	b.Clear()
	if got, want := buf.String(), "egtb 3v3   0.0%   all\nsolve 1s\n"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
	if got, want := Seconds(1234*time.Millisecond), "1.2 s"; got != want {
		t.Errorf("Seconds: %q, want %q", got, want)
	}
}
