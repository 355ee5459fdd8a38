package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Two identical configurations with colours swapped score exactly even: each
// game is deterministic at a fixed node budget, so the second game of a pair
// is the first with the roles swapped.
func TestScreenIdenticalConfigsAreEven(t *testing.T) {
	code, out, _ := runArgs(t, "screen", "--games", "4", "--nodes", "800", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := regexp.MustCompile(`^A vs B: \+(\d+) =(\d+) -(\d+), score 0\.500, Elo [+-]0\.0 \(4 games\)\n` +
		`  A lost: (.+)\n  B lost: (.+)\n  drawn: (.+)\n$`).FindStringSubmatch(out)
	if m == nil || m[1] != m[3] || m[4] != m[5] {
		t.Fatalf("result %q: want W = L, the same endings for both losers and score 0.500 over 4 games", out)
	}
}

// The same seed gives the same games, whatever the number of workers.
func TestScreenDeterministic(t *testing.T) {
	_, a, _ := runArgs(t, "screen", "--games", "4", "--nodes", "600", "--a", "MaxQuiescenceDepth=0", "--workers", "1")
	_, b, _ := runArgs(t, "screen", "--games", "4", "--nodes", "600", "--a", "MaxQuiescenceDepth=0", "--workers", "2")
	if a != b || a == "" {
		t.Fatalf("one worker: %q, two workers: %q", a, b)
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"help"}, 0, "milltune — in-process screening", ""},
		{[]string{"screen", "--help"}, 0, "Usage: milltune screen", ""},
		{[]string{"screen", "--bogus"}, 2, "", "milltune screen: unknown flag: --bogus (see milltune screen --help)"},
		{[]string{"screen", "--variant", "chess"}, 2, "", `milltune screen: --variant "chess": unknown`},
		{[]string{"spsa", "--nodes", "0"}, 2, "", "milltune spsa: --nodes or --depth must be positive"},
		{[]string{"spsa", "extra"}, 2, "", `milltune spsa: unexpected argument "extra"`},
		{[]string{"screen", "--games", "-2"}, 2, "", "milltune screen: --games -2 is out of range 1..1000000"},
		{[]string{"spsa", "--pairs", "0"}, 2, "", "milltune spsa: --pairs 0 is out of range 1..10000000"},
		{[]string{"tune"}, 2, "", `milltune: unknown command "tune" (see milltune help)`},
		{[]string{"version"}, 0, "milltune ", ""},
	} {
		code, out, errOut := runArgs(t, tc.args...)
		if code != tc.code || !strings.HasPrefix(out, tc.out) || !strings.HasPrefix(errOut, tc.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}

// openings writes distinct positions of the asked range, as millmatch reads
// them, the same for the same seed.
func TestOpenings(t *testing.T) {
	code, out, _ := runArgs(t, "openings", "--count", "4", "--max-pieces", "11", "--min-pieces", "8", "--nodes", "800", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%q", out)
	}
	r := rules.Default()
	seen := map[string]bool{}
	for _, l := range lines {
		fen, ok := strings.CutPrefix(l, "fen ")
		if !ok || seen[fen] {
			t.Fatalf("line %q", l)
		}
		seen[fen] = true
		p := testkit.Position(t, &r, fen)
		n := p.OnBoard(position.White) + p.OnBoard(position.Black)
		if p.InHand(position.White)+p.InHand(position.Black) != 0 || n < 8 || n > 11 || p.IsOver() || p.Action() == position.Remove {
			t.Fatalf("%s: not an opening of the range", fen)
		}
	}
	if _, again, _ := runArgs(t, "openings", "--count", "4", "--max-pieces", "11", "--min-pieces", "8", "--nodes", "800", "--seed", "3", "--workers", "1"); again != out {
		t.Fatalf("not deterministic:\n%s\n%s", out, again)
	}
}
