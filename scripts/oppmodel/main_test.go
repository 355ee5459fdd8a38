package main

import (
	"math"
	"testing"

	"github.com/millengine/millengine/internal/position"
)

// The model's chances: two actions scored alike share the weight, one a
// temperature lower gets e⁻¹ of it.
func TestSoftmax(t *testing.T) {
	a, b, c := position.MakePlace(0), position.MakePlace(1), position.MakePlace(2)
	scores := map[position.Move]int{a: 100, b: 100, c: 40}
	p, lose := softmax(scores, 60, c, map[position.Move]bool{c: true, b: true})
	want := math.Exp(-1) / (2 + math.Exp(-1))
	if math.Abs(p-want) > 1e-12 || math.Abs(lose-(1+math.Exp(-1))/(2+math.Exp(-1))) > 1e-12 {
		t.Errorf("softmax: played %.6f (want %.6f), losing %.6f", p, want, lose)
	}
	if p, lose := softmax(nil, 60, a, nil); p != 0 || lose != 0 {
		t.Errorf("no actions: %v %v", p, lose)
	}
}
