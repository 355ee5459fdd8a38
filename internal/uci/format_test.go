package uci

import (
	"slices"
	"testing"

	"github.com/millengine/millengine/internal/rules"
)

func TestRuleOptionLines(t *testing.T) {
	want := []string{
		"option name PiecesCount type spin default 9 min 9 max 12",
		"option name flyPieceCount type spin default 3 min 3 max 4",
		"option name PiecesAtLeastCount type spin default 3 min 3 max 5",
		"option name MayFly type check default true",
		"option name HasDiagonalLines type check default false",
		"option name MillFormationActionInPlacingPhase type spin default 0 min 0 max 5",
		"option name MayMoveInPlacingPhase type check default false",
		"option name IsDefenderMoveFirst type check default false",
		"option name MayRemoveMultiple type check default false",
		"option name MayRemoveFromMillsAlways type check default false",
		"option name RestrictRepeatedMillsFormation type check default false",
		"option name OneTimeUseMill type check default false",
		"option name BoardFullAction type spin default 0 min 0 max 4",
		"option name StopPlacingWhenTwoEmptySquares type check default false",
		"option name StalemateAction type spin default 0 min 0 max 5",
		"option name NMoveRule type spin default 100 min 10 max 200",
		"option name EndgameNMoveRule type spin default 100 min 5 max 200",
		"option name ThreefoldRepetitionRule type check default true",
	}
	def := rules.Default()
	if len(rules.Params) != len(want) {
		t.Fatalf("%d params", len(rules.Params))
	}
	for i := range rules.Params {
		if got := RuleOptionLines(&rules.Params[i], &def)[0]; got != want[i] {
			t.Errorf("RuleOptionLines:\n got %q\nwant %q", got, want[i])
		}
	}
	// Aliases follow their parameter with the same type, default and range.
	p, _ := rules.Lookup("piece count")
	if got, w := RuleOptionLines(p, &def), []string{"option name PiecesCount type spin default 9 min 9 max 12",
		"option name PieceCount type spin default 9 min 9 max 12"}; !slices.Equal(got, w) {
		t.Errorf("got %q, want %q", got, w)
	}
	// The default is taken from the rules passed in.
	zhi := rules.Presets[8].Rules
	p, _ = rules.Lookup("StalemateAction")
	if got, w := RuleOptionLines(p, &zhi)[0], "option name StalemateAction type spin default 2 min 0 max 5"; got != w {
		t.Errorf("got %q, want %q", got, w)
	}
	p, _ = rules.Lookup("MayFly")
	ds := rules.Presets[7].Rules
	if got, w := RuleOptionLines(p, &ds)[0], "option name MayFly type check default false"; got != w {
		t.Errorf("got %q, want %q", got, w)
	}
}
