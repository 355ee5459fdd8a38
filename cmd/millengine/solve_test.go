package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
)

// solve proves a late placing position whose placing ends in 4v3: every one
// of its 21 actions draws; bad input is a usage error.
func TestSolveCommand(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	fen := "*O*****@/********/***O**** w p p 2 2 1 2 0 0 0 0 0 0 0 0 9"
	code, stdout, stderr := runCmd(t, "", "solve", "--dir", dir, "--tt-mb", "4", "--fen", fen)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `^value: draw\n(\w\d: draw\n){21}Time: \d+ ms\nNodes: \d+\nTable leaves: \d+\n$`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("stdout\n%s\ndoes not match %q", stdout, want)
	}
	if !strings.Contains(stderr, "solve: action 21/21 ") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"solve", "--dir", dir, "--fen", "x"}, "millengine solve: fen field 2"},
		{[]string{"solve", "--dir", dir, "--moves", "a7 a7"}, "millengine solve: --moves: "},
		{[]string{"solve", "--dir", dir, "--tt-mb", "0"}, "millengine solve: --tt-mb 0 is out of range"},
		{[]string{"solve", "--dir", dir, "--variant", "russian-mill"}, "millengine solve: --variant russian-mill: rules not covered"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.err) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.err)
		}
	}
}
