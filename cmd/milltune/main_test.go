package main

import (
	"bytes"
	"context"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
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

func TestParseConfig(t *testing.T) {
	c, err := parseConfig("moving.Mobility=9, MaxQuiescenceDepth=3,algorithm=pvs,FLYING.doublethreat=-4,Contempt=-20")
	if err != nil {
		t.Fatal(err)
	}
	want := eval.DefaultParams
	want.W[eval.StageMoving][eval.Mobility] = 9
	want.W[eval.StageFlying][eval.DoubleThreat] = -4
	if c.params != want {
		t.Errorf("params %+v", c.params)
	}
	if c.opts.MaxQuiescenceDepth != 3 || c.opts.Algorithm != search.PVS || c.opts.Contempt != -20 {
		t.Errorf("options %+v", c.opts)
	}
	for spec, msg := range map[string]string{
		"moving.Mobility":        `"moving.Mobility": want Name=Value`,
		"moving.Speed=3":         `"moving.Speed": unknown option or weight (weights are stage.Name, e.g. moving.Mobility)`,
		"moving.Mobility=x":      `moving.Mobility=x: not an integer`,
		"MaxQuiescenceDepth=9":   `MaxQuiescenceDepth=9: want an integer 0..4`,
		"Algorithm=minimax":      `algorithm "minimax": want mtdf, alphabeta or pvs (or 0, 1, 2)`,
		"Contempt=101":           `Contempt=101: want an integer -100..100`,
		"placing.Pending=1,bad=": `"bad": unknown option or weight (weights are stage.Name, e.g. moving.Mobility)`,
	} {
		if _, err := parseConfig(spec); err == nil || err.Error() != msg {
			t.Errorf("%q: error %v, want %q", spec, err, msg)
		}
	}
}

// SPSA moves every tuned weight by rate·c·result·Δ, and prints weights that
// parseConfig reads back.
func TestSPSAStep(t *testing.T) {
	sp, err := newSPSA(eval.DefaultParams, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, delta := sp.perturb(7)
	for i, w := range sp.ws {
		base := *w.get(&sp.base)
		if got, want := *w.get(&a)-*w.get(&b), int(2*w.c*delta[i]); got < want-1 || got > want+1 {
			t.Fatalf("%s: θ+cΔ − θ−cΔ = %d, want about %d (base %d)", w.name, got, want, base)
		}
	}
	sp.step(delta, 1) // θ+cΔ won the pair
	for i, w := range sp.ws {
		want := float64(*w.get(&sp.base)) + 0.5*w.c*delta[i]
		if sp.theta[i] != want {
			t.Fatalf("%s: θ %v, want %v", w.name, sp.theta[i], want)
		}
	}
	c, err := parseConfig(sp.String())
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range sp.ws {
		if got := *w.get(&c.params); got != int(math.Round(sp.theta[i])) {
			t.Fatalf("%s: read back %d from θ %v", w.name, got, sp.theta[i])
		}
	}
}

// --tune restricts SPSA to the weights its patterns match; a pattern that
// matches nothing is an error.
func TestSPSATuneOnly(t *testing.T) {
	sp, err := newSPSA(eval.DefaultParams, 0.5, []string{"moving.cramped", "*.LastExit"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range sp.ws {
		names = append(names, w.name)
	}
	if got, want := strings.Join(names, " "), "placing.LastExit moving.LastExit moving.Cramped flying.LastExit"; got != want {
		t.Fatalf("tuned %q, want %q", got, want)
	}
	if _, err := newSPSA(eval.DefaultParams, 0.5, []string{"moving.Nothing"}); err == nil || err.Error() != `"moving.Nothing" matches no tunable weight` {
		t.Fatalf("error %v", err)
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
		p, err := position.ParseFEN(&r, fen)
		if err != nil {
			t.Fatal(err)
		}
		n := p.OnBoard(position.White) + p.OnBoard(position.Black)
		if p.InHand(position.White)+p.InHand(position.Black) != 0 || n < 8 || n > 11 || p.IsOver() || p.Action() == position.Remove {
			t.Fatalf("%s: not an opening of the range", fen)
		}
	}
	if _, again, _ := runArgs(t, "openings", "--count", "4", "--max-pieces", "11", "--min-pieces", "8", "--nodes", "800", "--seed", "3", "--workers", "1"); again != out {
		t.Fatalf("not deterministic:\n%s\n%s", out, again)
	}
}
