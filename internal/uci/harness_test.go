package uci

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/testkit"
)

// harness drives Run in-process through pipes.
type harness struct {
	*testkit.Lines
	t      testing.TB
	in     *io.PipeWriter
	done   chan error
	cancel context.CancelFunc
}

// testConfig is the configuration of in-process tests: a fixed version, one
// thread, a small table (clearing a big one is slow under the race
// detector), no log.
func testConfig() Config {
	return Config{Version: "test", Threads: 1, HashMB: 1}
}

// startHarness runs a session with cfg; it is closed at the end of the test.
func startHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{Lines: testkit.NewLines(t, outR), t: t, in: inW, done: make(chan error, 1), cancel: cancel}
	go func() {
		err := Run(ctx, inR, outW, cfg)
		outW.Close()
		h.done <- err
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
	})
	return h
}

// send writes input lines.
func (h *harness) send(lines ...string) {
	h.t.Helper()
	testkit.Send(h.t, h.in, lines...)
}

// next returns the next output line; ok is false at the end of the output.
func (h *harness) next() (string, bool) {
	h.t.Helper()
	return h.Next()
}

// until reads lines until one starts with prefix and returns them all.
func (h *harness) until(prefix string) []string {
	h.t.Helper()
	return h.Until(prefix)
}

// finish closes the input and returns any remaining output and Run's error.
func (h *harness) finish() ([]string, error) {
	h.t.Helper()
	h.in.Close()
	rest := h.Rest()
	select {
	case err := <-h.done:
		return rest, err
	case <-time.After(testkit.LineTimeout):
		h.t.Fatal("Run did not return after the end of input")
		return rest, nil
	}
}

// bestMoveOf returns the token of a bestmove line.
func bestMoveOf(t testing.TB, line string) string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("not a bestmove line: %q", line)
	}
	return f[1]
}
