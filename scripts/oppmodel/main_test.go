package main

import (
	"math"
	"slices"
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

// The moving phase's losing actions are counted by their distance, in bins
// of 4 plies with the last from 40; placing decisions are left out.
func TestDistanceBins(t *testing.T) {
	a, b, c := position.MakeSlide(0, 1), position.MakeSlide(0, 7), position.MakeSlide(2, 3)
	ds := []decision{
		{losing: map[position.Move]bool{a: true, b: true}, plies: map[position.Move]int{a: 3, b: 17}, played: b},
		{losing: map[position.Move]bool{a: true, c: true}, plies: map[position.Move]int{a: 4, c: 55}, played: c},
		{losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 17}, played: a},
		{losing: map[position.Move]bool{a: true}, placing: true, played: a},
	}
	got := distanceBins(ds, 0)
	want := map[int]distBin{0: {1, 0}, 1: {1, 0}, 4: {2, 2}, 10: {1, 1}}
	if len(got) != 11 {
		t.Fatalf("%d bins, want 11", len(got))
	}
	for k, bn := range got {
		if bn != want[k] {
			t.Errorf("bin %d: %+v, want %+v", k, bn, want[k])
		}
	}
}

// Decisions are counted by phase and by whether at least the share of
// their actions lost: 3 of 5 reaches 60 %, 2 of 5 does not.
func TestShareBins(t *testing.T) {
	a, b, c := position.MakeSlide(0, 1), position.MakeSlide(0, 7), position.MakeSlide(2, 3)
	three := map[position.Move]bool{a: true, b: true, c: true}
	two := map[position.Move]bool{a: true, b: true}
	ds := []decision{
		{losing: three, actions: 5, played: a},
		{losing: two, actions: 5, played: a},
		{losing: two, actions: 5, played: c},
		{losing: three, actions: 5, played: c, placing: true},
		{losing: two, actions: 5, played: c, placing: true},
	}
	got := shareBins(ds, 60)
	want := [2]shareCount{{turns: [2]int{1, 1}, lost: [2]int{0, 1}}, {turns: [2]int{2, 1}, lost: [2]int{1, 1}}}
	if got != want {
		t.Errorf("shareBins: %+v, want %+v", got, want)
	}
}

// Calibration bins a phase's decisions by the model's chance of a losing
// action, in fifths, and counts the losses; the other phase is left out.
func TestCalibrate(t *testing.T) {
	a, b := position.MakePlace(0), position.MakePlace(1)
	lose := map[position.Move]bool{b: true}
	ds := []decision{
		// chance e⁰/(e⁰+e⁻¹) of b ≈ 0.731: bin 3, lost
		{placing: true, scores: map[int]map[position.Move]int{2: {a: 40, b: 100}}, losing: lose, played: b},
		// chance ≈ 0.269: bin 1, kept
		{placing: true, scores: map[int]map[position.Move]int{2: {a: 100, b: 40}}, losing: lose, played: a},
		// the moving phase: not counted
		{placing: false, scores: map[int]map[position.Move]int{2: {a: 40, b: 100}}, losing: lose, played: b},
	}
	bins := calibrate(ds, 2, 60, true)
	hi := 1 / (1 + math.Exp(-1))
	if bins[3].n != 1 || bins[3].lost != 1 || math.Abs(bins[3].pred-hi) > 1e-12 ||
		bins[1].n != 1 || bins[1].lost != 0 || math.Abs(bins[1].pred-(1-hi)) > 1e-12 ||
		bins[0].n+bins[2].n+bins[4].n != 0 {
		t.Errorf("bins %+v", bins)
	}
	if m := calibrate(ds, 2, 60, false); m[3].n != 1 || m[3].lost != 1 {
		t.Errorf("moving bins %+v", m)
	}
}

// Flying turns are counted by their losing actions at least the given
// plies from the end, in the bins 0, 1, 2, 3, 4-7 and 8+; a turn lost by a
// shallow action counts as lost but not lost deep; turns where nobody flies,
// or another number of sides, and placing turns are left out. distanceBins
// keeps the turns with that many flyers when asked.
func TestFlyingBins(t *testing.T) {
	a, b, c := position.MakeSlide(0, 1), position.MakeSlide(0, 7), position.MakeSlide(2, 3)
	ds := []decision{
		{fly: flyKey{who: 1}, losing: map[position.Move]bool{a: true, b: true}, plies: map[position.Move]int{a: 3, b: 9}, played: a},
		{fly: flyKey{who: 1}, losing: map[position.Move]bool{a: true, b: true}, plies: map[position.Move]int{a: 8, b: 9}, played: b},
		{fly: flyKey{who: 1}, losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 2}, played: c},
		{losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 20}, played: a},
		{fly: flyKey{who: 1}, placing: true, losing: map[position.Move]bool{a: true}, played: a},
	}
	turns, lost, deep := flyingBins(ds, 1, 8)
	if want := []int{1, 1, 1, 0, 0, 0}; !slices.Equal(turns, want) {
		t.Errorf("turns %v, want %v", turns, want)
	}
	if want := []int{0, 1, 1, 0, 0, 0}; !slices.Equal(lost, want) {
		t.Errorf("lost %v, want %v", lost, want)
	}
	if want := []int{0, 0, 1, 0, 0, 0}; !slices.Equal(deep, want) {
		t.Errorf("lost deep %v, want %v", deep, want)
	}
	if got := distanceBins(ds, 1); got[0] != (distBin{2, 1}) || got[2] != (distBin{3, 1}) || got[5] != (distBin{}) {
		t.Errorf("flying distance bins %+v", got)
	}
	if turns, _, _ := flyingBins(ds, 2, 8); !slices.Equal(turns, make([]int, len(deepBins))) {
		t.Errorf("both flying: turns %v, want none", turns)
	}
}

// The flying turns by material: every drawn turn is counted, the decisions
// (turns with a losing action) add their losing, deep and lost counts to
// their row; placing decisions and turns where no side flies are left out.
func TestMaterialRows(t *testing.T) {
	a, b := position.MakeSlide(0, 1), position.MakeSlide(2, 3)
	ground := flyKey{who: 2, opp: 4, other: 3}
	both := flyKey{who: 3, opp: 3, other: 3}
	drawn := map[flyKey]int{both: 5, ground: 7}
	ds := []decision{
		{fly: ground, losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 25}, played: a},
		{fly: ground, losing: map[position.Move]bool{a: true, b: true}, plies: map[position.Move]int{a: 3, b: 21}, played: a},
		{fly: ground, losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 3}, played: b},
		{fly: both, losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 9}, played: b},
		{fly: both, losing: map[position.Move]bool{a: true}, placing: true, played: a},
		{losing: map[position.Move]bool{a: true}, plies: map[position.Move]int{a: 30}, played: a},
	}
	got := materialRows(ds, drawn, 20)
	want := []materialRow{{key: ground, turns: 7, losing: 3, deep: 2, lost: 2}, {key: both, turns: 5, losing: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("rows %+v, want %+v", got, want)
	}
}
