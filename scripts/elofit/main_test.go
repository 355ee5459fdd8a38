package main

import (
	"math"
	"testing"
)

// Two engines that score 75 % against each other are 190.8 Elo apart
// (400·log10(3)); the anchor keeps its rating, and more games narrow the
// interval by the square root.
func TestFit(t *testing.T) {
	r, se := fit(2, []pair{{a: 0, b: 1, points: 75, games: 100}}, 1, 1000)
	if math.Abs(r[1]-1000) > 1e-9 || math.Abs(r[0]-1000-400*math.Log10(3)) > 1e-6 {
		t.Errorf("ratings %v", r)
	}
	_, se4 := fit(2, []pair{{a: 0, b: 1, points: 300, games: 400}}, 1, 1000)
	if se[1] != 0 || math.Abs(se[0]/se4[0]-2) > 1e-6 {
		t.Errorf("errors %v, with 4× the games %v", se, se4)
	}
	// A chain: A 75 % against B, B 75 % against C.
	r, _ = fit(3, []pair{{a: 0, b: 1, points: 75, games: 100}, {a: 1, b: 2, points: 75, games: 100}}, 2, 0)
	if d := 400 * math.Log10(3); math.Abs(r[1]-d) > 1e-6 || math.Abs(r[0]-2*d) > 1e-6 {
		t.Errorf("chain %v", r)
	}
}
