//go:build unix

package main

import (
	"bufio"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/testkit"
)

// binary returns millmatch built with the version "e2e-test".
func binary(t *testing.T) string {
	t.Helper()
	return testkit.Binary(t, "./cmd/millmatch", "e2e-test")
}

func TestBinaryVersion(t *testing.T) {
	out, err := exec.Command(binary(t), "--version").Output()
	if err != nil || string(out) != "millmatch e2e-test\n" {
		t.Errorf("--version: %q, %v", out, err)
	}
}

// A signal during a match stops it: the games in progress are aborted, the
// summary of the finished ones is printed, and the exit status is the
// shell's for that signal: 143 for SIGTERM, 130 for SIGINT.
func TestSignalStopsTheMatch(t *testing.T) {
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		code int
	}{{"SIGTERM", syscall.SIGTERM, 143}, {"SIGINT", syscall.SIGINT, 130}} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary(t), "--engine", randomEngine+" --delay 5ms", "--engine", randomEngine,
				"--games", "1000", "--movetime", "50", "--timemargin", "2000")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string, 1000)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var out []string
			deadline := time.After(30 * time.Second)
		wait:
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("millmatch ended before the first game:\n%s\n%s", strings.Join(out, "\n"), stderr.String())
					}
					out = append(out, l)
					if strings.HasPrefix(l, "Game 1/1000 ") {
						break wait
					}
				case <-deadline:
					_ = cmd.Process.Kill()
					t.Fatal("no game finished in 30 s")
				}
			}
			sent := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			for l := range lines {
				out = append(out, l)
			}
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("exit: %v, want status %d", err, c.code)
			}
			if d := time.Since(sent); d > 30*time.Second { // a hang guard
				t.Errorf("exited %v after the signal", d)
			}
			text := strings.Join(out, "\n")
			if !strings.Contains(text, "games played") || !strings.Contains(text, "(interrupted)") ||
				!strings.Contains(text, "Score of randomengine vs randomengine-2: ") || !strings.Contains(text, "Endings:") {
				t.Errorf("no partial summary on stdout:\n%s\nstderr:\n%s", text, stderr.String())
			}
		})
	}
}
