package tune

import (
	"math"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/search"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("moving.Mobility=9, MaxQuiescenceDepth=3,algorithm=pvs,FLYING.doublethreat=-4,Contempt=-20")
	if err != nil {
		t.Fatal(err)
	}
	want := eval.DefaultParams
	want.W[eval.StageMoving][eval.Mobility] = 9
	want.W[eval.StageFlying][eval.DoubleThreat] = -4
	if c.Params != want {
		t.Errorf("params %+v", c.Params)
	}
	if c.Opts.MaxQuiescenceDepth != 3 || c.Opts.Algorithm != search.PVS || c.Opts.Contempt != -20 {
		t.Errorf("options %+v", c.Opts)
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
		if _, err := ParseConfig(spec); err == nil || err.Error() != msg {
			t.Errorf("%q: error %v, want %q", spec, err, msg)
		}
	}
}

// SPSA moves every tuned weight by rate·c·result·Δ, and prints weights that
// ParseConfig reads back.
func TestSPSAStep(t *testing.T) {
	sp, err := NewSPSA(eval.DefaultParams, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, delta := sp.Perturb(7)
	for i, w := range sp.ws {
		base := *w.Get(&sp.base)
		if got, want := *w.Get(&a)-*w.Get(&b), int(2*w.C*delta[i]); got < want-1 || got > want+1 {
			t.Fatalf("%s: θ+cΔ − θ−cΔ = %d, want about %d (base %d)", w.Name, got, want, base)
		}
	}
	sp.Step(delta, 1) // θ+cΔ won the pair
	for i, w := range sp.ws {
		want := float64(*w.Get(&sp.base)) + 0.5*w.C*delta[i]
		if sp.theta[i] != want {
			t.Fatalf("%s: θ %v, want %v", w.Name, sp.theta[i], want)
		}
	}
	c, err := ParseConfig(sp.String())
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range sp.ws {
		if got := *w.Get(&c.Params); got != int(math.Round(sp.theta[i])) {
			t.Fatalf("%s: read back %d from θ %v", w.Name, got, sp.theta[i])
		}
	}
}

// --tune restricts SPSA to the weights its patterns match; a pattern that
// matches nothing is an error.
func TestSPSATuneOnly(t *testing.T) {
	sp, err := NewSPSA(eval.DefaultParams, 0.5, []string{"moving.cramped", "*.LastExit"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range sp.ws {
		names = append(names, w.Name)
	}
	if got, want := strings.Join(names, " "), "placing.LastExit moving.LastExit moving.Cramped flying.LastExit"; got != want {
		t.Fatalf("tuned %q, want %q", got, want)
	}
	if _, err := NewSPSA(eval.DefaultParams, 0.5, []string{"moving.Nothing"}); err == nil || err.Error() != `"moving.Nothing" matches no tunable weight` {
		t.Fatalf("error %v", err)
	}
}
