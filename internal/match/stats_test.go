package match

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// Worked by hand for W=60 L=40 D=100 (N=200):
//
//	s   = (60 + 100/2) / 200 = 0.55
//	Elo = −400·log10(1/0.55 − 1) = −400·log10(0.818182) = −400·(−0.087150) = 34.86
//	var = w + d/4 − s² = 0.30 + 0.125 − 0.3025 = 0.1225   (per game; sd 0.35)
//	se  = 0.35/√200 = 0.024749;  1.959964·se = 0.048507
//	s ± = 0.501493 … 0.598507  →  Elo 1.04 … 69.36;  margin (69.36 − 1.04)/2 = 34.16
//	LOS = ½(1 + erf((60 − 40)/√(2·100))) = ½(1 + erf(√2)) = ½(1 + 0.954500) = 0.97725
//
// and for W=30 L=50 D=20 (N=100):
//
//	s = 0.40, Elo = −400·log10(1.5) = −70.44, var = 0.30 + 0.05 − 0.16 = 0.19,
//	1.959964·√(0.19/100) = 0.085433 → Elo(0.485433) − Elo(0.314567) = −10.13 − (−135.30) = 125.18,
//	margin 62.59; LOS = ½(1 + erf(−20/√160)) = ½(1 − 0.974653) = 0.012674.
func TestEloHandWorked(t *testing.T) {
	r := WDL{W: 60, D: 100, L: 40}
	near(t, "score", r.Score(), 0.55, 1e-12)
	near(t, "elo", r.Elo(), 34.86, 0.005)
	near(t, "variance", r.Variance(), 0.1225, 1e-12)
	lo, hi := r.EloInterval()
	near(t, "interval low", lo, 1.04, 0.005)
	near(t, "interval high", hi, 69.36, 0.005)
	near(t, "margin", r.EloMargin(), 34.16, 0.005)
	near(t, "LOS", r.LOS(), 0.97725, 0.00001)
	near(t, "draw ratio", r.DrawRatio(), 0.5, 1e-12)

	r = WDL{W: 30, D: 20, L: 50}
	near(t, "score", r.Score(), 0.40, 1e-12)
	near(t, "elo", r.Elo(), -70.44, 0.005)
	near(t, "variance", r.Variance(), 0.19, 1e-12)
	near(t, "margin", r.EloMargin(), 62.59, 0.005)
	near(t, "LOS", r.LOS(), 0.012674, 0.000001)

	// The flipped view mirrors the Elo and complements the LOS.
	f := r.Flip()
	near(t, "flipped elo", f.Elo(), 70.44, 0.005)
	near(t, "flipped LOS", f.LOS(), 1-0.012674, 0.000001)
}

func TestEloEdges(t *testing.T) {
	if e := (WDL{}).Elo(); !math.IsNaN(e) {
		t.Errorf("no games: Elo %v, want NaN", e)
	}
	if e := (WDL{W: 3}).Elo(); !math.IsInf(e, 1) {
		t.Errorf("all wins: Elo %v, want +Inf", e)
	}
	if e := (WDL{L: 3}).Elo(); !math.IsInf(e, -1) {
		t.Errorf("all losses: Elo %v, want -Inf", e)
	}
	if m := (WDL{D: 10}).EloMargin(); m != 0 {
		t.Errorf("all draws: margin %v, want 0", m)
	}
	if m := (WDL{W: 1, D: 1}).EloMargin(); !math.IsInf(m, 1) {
		t.Errorf("interval past 1: margin %v, want +Inf", m)
	}
	if l := LOS(0, 0); l != 0.5 {
		t.Errorf("LOS(0,0) = %v, want 0.5", l)
	}
	near(t, "ScoreFromElo(EloFromScore(0.3))", ScoreFromElo(EloFromScore(0.3)), 0.3, 1e-12)
	near(t, "Elo of 0.5", EloFromScore(0.5), 0, 1e-12)
	if e := EloFromScore(1.5); !math.IsNaN(e) {
		t.Errorf("EloFromScore(1.5) = %v, want NaN", e)
	}
}

// Worked by hand with elo0 = 0, elo1 = 5, α = β = 0.05:
//
//	bounds: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439
//	s0 = 0.5, s1 = 1/(1 + 10^(−5/400)) = 0.507195
//	W=60 L=40 D=100: LLR = 200·(0.007195)·(1.1 − 1.007195)/(2·0.1225) = 0.5451  → continue
//	W=600 L=400 D=1000: ten times the games, the same frequencies: LLR = 5.451 → H1
//	W=400 L=600 D=1000: s = 0.45, var 0.1225: 2000·0.007195·(0.9 − 1.007195)/0.245 = −6.296 → H0
func TestSPRTHandWorked(t *testing.T) {
	sp := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	if err := sp.Validate(); err != nil {
		t.Fatal(err)
	}
	lo, hi := sp.Bounds()
	near(t, "lower bound", lo, -2.944439, 1e-6)
	near(t, "upper bound", hi, 2.944439, 1e-6)
	cases := []struct {
		r    WDL
		llr  float64
		want Decision
	}{
		{WDL{W: 60, D: 100, L: 40}, 0.5451, Continue},
		{WDL{W: 600, D: 1000, L: 400}, 5.451, AcceptH1},
		{WDL{W: 400, D: 1000, L: 600}, -6.296, AcceptH0},
		{WDL{}, 0, Continue},
		{WDL{D: 50}, 0, Continue}, // no spread: the approximation says nothing
	}
	for _, c := range cases {
		near(t, "LLR", sp.LLR(c.r), c.llr, 0.0005)
		if d := sp.Decide(c.r); d != c.want {
			t.Errorf("Decide(%+v) = %v, want %v", c.r, d, c.want)
		}
	}
}

func TestSPRTValidate(t *testing.T) {
	bad := []SPRT{
		{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 1},
		{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5},
		{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05},
	}
	for _, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", s)
		}
	}
}
