package rules

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nine is the default column of the rules.md §4 parameter table, written out.
var nine = Rules{
	PiecesCount:                       9,
	FlyPieceCount:                     3,
	PiecesAtLeastCount:                3,
	MayFly:                            true,
	HasDiagonalLines:                  false,
	MillFormationActionInPlacingPhase: 0,
	MayMoveInPlacingPhase:             false,
	IsDefenderMoveFirst:               false,
	MayRemoveMultiple:                 false,
	MayRemoveFromMillsAlways:          false,
	RestrictRepeatedMillsFormation:    false,
	OneTimeUseMill:                    false,
	BoardFullAction:                   0,
	StopPlacingWhenTwoEmptySquares:    false,
	StalemateAction:                   0,
	NMoveRule:                         100,
	EndgameNMoveRule:                  100,
	ThreefoldRepetitionRule:           true,
}

// presetTable is the preset table of rules.md §4 with every parameter written
// out (the differences from the default are on the lines after the name).
var presetTable = []struct {
	key, name string
	rules     Rules
}{
	{"nine-mens-morris", "Nine Men's Morris", nine},
	{"twelve-mens-morris", "Twelve Men's Morris", Rules{
		PiecesCount: 12, HasDiagonalLines: true,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"dooz", "Dooz", Rules{
		PiecesCount: 12, HasDiagonalLines: true, MillFormationActionInPlacingPhase: 1,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"morabaraba", "Morabaraba", Rules{
		PiecesCount: 12, HasDiagonalLines: true, MayRemoveMultiple: true,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"russian-mill", "Russian Mill", Rules{
		OneTimeUseMill: true,
		PiecesCount:    9, FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"lasker-morris", "Lasker Morris", Rules{
		PiecesCount: 10, MayMoveInPlacingPhase: true,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"cheng-san-qi", "Cheng San Qi", Rules{
		MayFly:      false,
		PiecesCount: 9, FlyPieceCount: 3, PiecesAtLeastCount: 3, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"da-san-qi", "Da San Qi", Rules{
		PiecesCount: 12, HasDiagonalLines: true, MillFormationActionInPlacingPhase: 4, IsDefenderMoveFirst: true, MayRemoveFromMillsAlways: true, MayFly: false,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"zhi-qi", "Zhi Qi", Rules{
		PiecesCount: 12, HasDiagonalLines: true, BoardFullAction: 1, StalemateAction: 2,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, MayFly: true, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"el-filja", "El Filja", Rules{
		PiecesCount: 12, MillFormationActionInPlacingPhase: 5, MayRemoveFromMillsAlways: true, BoardFullAction: 1, MayFly: false,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
	{"experimental", "Experimental", Rules{
		PiecesCount: 12, HasDiagonalLines: true, IsDefenderMoveFirst: true, MayRemoveFromMillsAlways: true, BoardFullAction: 2, MayFly: false,
		FlyPieceCount: 3, PiecesAtLeastCount: 3, NMoveRule: 100, EndgameNMoveRule: 100, ThreefoldRepetitionRule: true,
	}},
}

// Matching returns the key of the preset equal to r, or "" if none is.
func (r *Rules) Matching() string {
	for _, p := range Presets {
		if p.Rules == *r {
			return p.Key
		}
	}
	return ""
}

func TestDefault(t *testing.T) {
	if got := Default(); got != nine {
		t.Errorf("Default() = %+v, want %+v", got, nine)
	}
	d := Default()
	if err := d.Validate(); err != nil {
		t.Errorf("Default() is invalid: %v", err)
	}
	if d.Topology().Diagonal {
		t.Error("the default board has diagonals")
	}
}

func TestPresetsMatchTable(t *testing.T) {
	if len(Presets) != len(presetTable) {
		t.Fatalf("%d presets, want %d", len(Presets), len(presetTable))
	}
	for i, want := range presetTable {
		got := Presets[i]
		if got.Key != want.key || got.Name != want.name {
			t.Errorf("preset %d is %q %q, want %q %q", i, got.Key, got.Name, want.key, want.name)
		}
		if got.Rules != want.rules {
			t.Errorf("%s: rules %+v, want %+v (differences %v)", want.key, got.Rules, want.rules, got.Rules.Diff(&want.rules))
		}
		if err := got.Rules.Validate(); err != nil {
			t.Errorf("%s: %v", want.key, err)
		}
		if m := got.Rules.Matching(); m != want.key {
			t.Errorf("%s: Matching() = %q", want.key, m)
		}
		if got.Rules.Topology().Diagonal != want.rules.HasDiagonalLines {
			t.Errorf("%s: wrong topology", want.key)
		}
	}
	keys := PresetKeys()
	want := []string{"nine-mens-morris", "twelve-mens-morris", "dooz", "morabaraba", "russian-mill",
		"lasker-morris", "cheng-san-qi", "da-san-qi", "zhi-qi", "el-filja", "experimental"}
	if !slices.Equal(keys, want) {
		t.Errorf("PresetKeys() = %v", keys)
	}
}

// TestPresetDiffs pins what each preset changes relative to the default, as
// the right-hand column of the rules.md §4 preset table says.
func TestPresetDiffs(t *testing.T) {
	want := map[string][]string{
		"nine-mens-morris":   nil,
		"twelve-mens-morris": {"HasDiagonalLines=true", "PiecesCount=12"},
		"dooz":               {"HasDiagonalLines=true", "MillFormationActionInPlacingPhase=1", "PiecesCount=12"},
		"morabaraba":         {"HasDiagonalLines=true", "MayRemoveMultiple=true", "PiecesCount=12"},
		"russian-mill":       {"OneTimeUseMill=true"},
		"lasker-morris":      {"MayMoveInPlacingPhase=true", "PiecesCount=10"},
		"cheng-san-qi":       {"MayFly=false"},
		"da-san-qi": {"HasDiagonalLines=true", "IsDefenderMoveFirst=true", "MayFly=false",
			"MayRemoveFromMillsAlways=true", "MillFormationActionInPlacingPhase=4", "PiecesCount=12"},
		"zhi-qi":   {"BoardFullAction=1", "HasDiagonalLines=true", "PiecesCount=12", "StalemateAction=2"},
		"el-filja": {"BoardFullAction=1", "MayFly=false", "MayRemoveFromMillsAlways=true", "MillFormationActionInPlacingPhase=5", "PiecesCount=12"},
		"experimental": {"BoardFullAction=2", "HasDiagonalLines=true", "IsDefenderMoveFirst=true", "MayFly=false",
			"MayRemoveFromMillsAlways=true", "PiecesCount=12"},
	}
	def := Default()
	for _, p := range Presets {
		w, ok := want[p.Key]
		if !ok {
			t.Errorf("unexpected preset %s", p.Key)
			continue
		}
		if got := p.Rules.Diff(&def); !slices.Equal(got, w) {
			t.Errorf("%s differs in %v, want %v", p.Key, got, w)
		}
	}
}

func TestPresetByName(t *testing.T) {
	tests := []struct{ in, key string }{
		{"nine-mens-morris", "nine-mens-morris"},
		{"Nine Men's Morris", "nine-mens-morris"},
		{"NINE_MENS_MORRIS", "nine-mens-morris"},
		{"ninemensmorris", "nine-mens-morris"},
		{"Twelve Men's Morris", "twelve-mens-morris"},
		{"DOOZ", "dooz"},
		{"Russian Mill", "russian-mill"},
		{"lasker morris", "lasker-morris"},
		{"Cheng San Qi", "cheng-san-qi"},
		{"da_san_qi", "da-san-qi"},
		{"ZhiQi", "zhi-qi"},
		{"El Filja", "el-filja"},
		{"experimental", "experimental"},
		{"morabaraba", "morabaraba"},
	}
	for _, tc := range tests {
		p, ok := PresetByName(tc.in)
		if !ok || p.Key != tc.key {
			t.Errorf("PresetByName(%q) = %q, %t, want %q", tc.in, p.Key, ok, tc.key)
		}
	}
	for _, in := range []string{"", "nine", "ten-mens-morris", "chess", "dooz2"} {
		if p, ok := PresetByName(in); ok {
			t.Errorf("PresetByName(%q) = %q, want no match", in, p.Key)
		}
	}
}

func TestMatchingAndDiff(t *testing.T) {
	r := Default()
	r.NMoveRule = 50
	if m := r.Matching(); m != "" {
		t.Errorf("Matching() = %q for modified rules", m)
	}
	def := Default()
	if got, want := r.Diff(&def), []string{"NMoveRule=50"}; !slices.Equal(got, want) {
		t.Errorf("Diff = %v, want %v", got, want)
	}
	r.MayFly = false
	r.HasDiagonalLines = true
	if got, want := r.Diff(&def), []string{"HasDiagonalLines=true", "MayFly=false", "NMoveRule=50"}; !slices.Equal(got, want) {
		t.Errorf("Diff = %v, want %v", got, want)
	}
}

// TestParamsOrderAndRanges pins every parameter's name, kind and range as in
// rules.md §4, in the table's order.
func TestParamsOrderAndRanges(t *testing.T) {
	want := []struct {
		name     string
		boolean  bool
		min, max int
	}{
		{"PiecesCount", false, 9, 12},
		{"flyPieceCount", false, 3, 4},
		{"PiecesAtLeastCount", false, 3, 5},
		{"MayFly", true, 0, 1},
		{"HasDiagonalLines", true, 0, 1},
		{"MillFormationActionInPlacingPhase", false, 0, 5},
		{"MayMoveInPlacingPhase", true, 0, 1},
		{"IsDefenderMoveFirst", true, 0, 1},
		{"MayRemoveMultiple", true, 0, 1},
		{"MayRemoveFromMillsAlways", true, 0, 1},
		{"RestrictRepeatedMillsFormation", true, 0, 1},
		{"OneTimeUseMill", true, 0, 1},
		{"BoardFullAction", false, 0, 4},
		{"StopPlacingWhenTwoEmptySquares", true, 0, 1},
		{"StalemateAction", false, 0, 5},
		{"NMoveRule", false, 10, 200},
		{"EndgameNMoveRule", false, 5, 200},
		{"ThreefoldRepetitionRule", true, 0, 1},
	}
	if len(Params) != len(want) {
		t.Fatalf("%d params, want %d", len(Params), len(want))
	}
	for i, w := range want {
		p := Params[i]
		if p.Name != w.name || p.Bool != w.boolean || p.Min != w.min || p.Max != w.max {
			t.Errorf("Params[%d] = %s bool=%t %d..%d, want %s bool=%t %d..%d",
				i, p.Name, p.Bool, p.Min, p.Max, w.name, w.boolean, w.min, w.max)
		}
		if p.Comment == "" {
			t.Errorf("%s has no comment", p.Name)
		}
	}
}

// TestSetEachParam checks that every parameter writes its own field and no
// other: setting a value different from the default changes exactly one entry
// of Diff.
func TestSetEachParam(t *testing.T) {
	def := Default()
	for i := range Params {
		p := &Params[i]
		r := Default()
		v := p.Min
		if p.Get(&def) == v {
			v = p.Max
		}
		if err := p.Set(&r, strconv.Itoa(v)); err != nil {
			t.Errorf("%s: Set(%d): %v", p.Name, v, err)
			continue
		}
		if p.Get(&r) != v {
			t.Errorf("%s: Get = %d after Set(%d)", p.Name, p.Get(&r), v)
		}
		if d := r.Diff(&def); len(d) != 1 || !strings.HasPrefix(d[0], p.Name+"=") {
			t.Errorf("%s: Set changed %v", p.Name, d)
		}
	}
}

func TestSetRejectsAndLeavesRulesUnchanged(t *testing.T) {
	type bad struct {
		value, err string
	}
	tests := []struct {
		name string
		bad  []bad
	}{
		{"PiecesCount", []bad{
			{"8", "option PiecesCount: 8 is out of range 9..12"},
			{"13", "option PiecesCount: 13 is out of range 9..12"},
			{"-9", "option PiecesCount: -9 is out of range 9..12"},
			{"", `option PiecesCount: "" is not an integer`},
			{"nine", `option PiecesCount: "nine" is not an integer`},
			{"9.5", `option PiecesCount: "9.5" is not an integer`},
			{"0x9", `option PiecesCount: "0x9" is not an integer`},
			{"99999999999999999999", `option PiecesCount: "99999999999999999999" is not an integer`},
		}},
		{"flyPieceCount", []bad{
			{"2", "option flyPieceCount: 2 is out of range 3..4"},
			{"5", "option flyPieceCount: 5 is out of range 3..4"},
		}},
		{"PiecesAtLeastCount", []bad{
			{"2", "option PiecesAtLeastCount: 2 is out of range 3..5"},
			{"6", "option PiecesAtLeastCount: 6 is out of range 3..5"},
		}},
		{"MillFormationActionInPlacingPhase", []bad{
			{"-1", "option MillFormationActionInPlacingPhase: -1 is out of range 0..5"},
			{"6", "option MillFormationActionInPlacingPhase: 6 is out of range 0..5"},
		}},
		{"BoardFullAction", []bad{
			{"5", "option BoardFullAction: 5 is out of range 0..4"},
		}},
		{"StalemateAction", []bad{
			{"6", "option StalemateAction: 6 is out of range 0..5"},
		}},
		{"NMoveRule", []bad{
			{"9", "option NMoveRule: 9 is out of range 10..200"},
			{"201", "option NMoveRule: 201 is out of range 10..200"},
			{"0", "option NMoveRule: 0 is out of range 10..200"},
		}},
		{"EndgameNMoveRule", []bad{
			{"4", "option EndgameNMoveRule: 4 is out of range 5..200"},
			{"201", "option EndgameNMoveRule: 201 is out of range 5..200"},
		}},
		{"MayFly", []bad{
			{"maybe", `option MayFly: "maybe" is not a boolean (true/false, 1/0, yes/no, on/off)`},
			{"2", `option MayFly: "2" is not a boolean (true/false, 1/0, yes/no, on/off)`},
			{"", `option MayFly: "" is not a boolean (true/false, 1/0, yes/no, on/off)`},
			{"truee", `option MayFly: "truee" is not a boolean (true/false, 1/0, yes/no, on/off)`},
		}},
		{"ThreefoldRepetitionRule", []bad{
			{"-1", `option ThreefoldRepetitionRule: "-1" is not a boolean (true/false, 1/0, yes/no, on/off)`},
		}},
	}
	for _, tc := range tests {
		p, ok := Lookup(tc.name)
		if !ok {
			t.Fatalf("Lookup(%q) failed", tc.name)
		}
		for _, presetRules := range []Rules{Default(), Presets[7].Rules} {
			for _, b := range tc.bad {
				r := presetRules
				err := p.Set(&r, b.value)
				if err == nil || err.Error() != b.err {
					t.Errorf("%s.Set(%q) = %v, want %q", tc.name, b.value, err, b.err)
				}
				if r != presetRules {
					t.Errorf("%s.Set(%q) changed the rules: %v", tc.name, b.value, r.Diff(&presetRules))
				}
			}
		}
	}
}

func TestSetAcceptsBoundsAndSpellings(t *testing.T) {
	tests := []struct {
		name, value string
		want        int
	}{
		{"PiecesCount", "9", 9},
		{"PiecesCount", "12", 12},
		{"PiecesCount", " 10 ", 10},
		{"PiecesCount", "+11", 11},
		{"flyPieceCount", "4", 4},
		{"PiecesAtLeastCount", "5", 5},
		{"NMoveRule", "10", 10},
		{"NMoveRule", "200", 200},
		{"EndgameNMoveRule", "5", 5},
		{"StalemateAction", "0", 0},
		{"StalemateAction", "5", 5},
		{"MayFly", "false", 0},
		{"MayFly", "FALSE", 0},
		{"MayFly", "0", 0},
		{"MayFly", "no", 0},
		{"MayFly", "Off", 0},
		{"HasDiagonalLines", "true", 1},
		{"HasDiagonalLines", "True", 1},
		{"HasDiagonalLines", "1", 1},
		{"HasDiagonalLines", "YES", 1},
		{"HasDiagonalLines", " on ", 1},
	}
	for _, tc := range tests {
		p, ok := Lookup(tc.name)
		if !ok {
			t.Fatalf("Lookup(%q) failed", tc.name)
		}
		r := Default()
		if err := p.Set(&r, tc.value); err != nil {
			t.Errorf("%s.Set(%q): %v", tc.name, tc.value, err)
			continue
		}
		if got := p.Get(&r); got != tc.want {
			t.Errorf("%s.Set(%q) stored %d, want %d", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct{ in, want string }{
		{"PiecesCount", "PiecesCount"},
		{"piecescount", "PiecesCount"},
		{"PIECESCOUNT", "PiecesCount"},
		{"Pieces Count", "PiecesCount"},
		{"  pieces   count ", "PiecesCount"},
		{"PieceCount", "PiecesCount"},
		{"piece count", "PiecesCount"},
		{"flyPieceCount", "flyPieceCount"},
		{"FlyPieceCount", "flyPieceCount"},
		{"Fly Piece Count", "flyPieceCount"},
		{"mayfly", "MayFly"},
		{"Has Diagonal Lines", "HasDiagonalLines"},
		{"millformationactioninplacingphase", "MillFormationActionInPlacingPhase"},
		{"N Move Rule", "NMoveRule"},
		{"endgamenmoverule", "EndgameNMoveRule"},
		{"THREEFOLDREPETITIONRULE", "ThreefoldRepetitionRule"},
	}
	for _, tc := range tests {
		p, ok := Lookup(tc.in)
		if !ok || p.Name != tc.want {
			name := ""
			if p != nil {
				name = p.Name
			}
			t.Errorf("Lookup(%q) = %q, %t, want %q", tc.in, name, ok, tc.want)
		}
	}
	for _, in := range []string{"", "Pieces", "PiecesCounts", "Variant", "Hash", "Pieces_Count", "fly"} {
		if p, ok := Lookup(in); ok || p != nil {
			t.Errorf("Lookup(%q) found %v", in, p)
		}
	}
	// Lookup returns the entry of Params itself, so Set through it is seen by all.
	p, _ := Lookup("nmoverule")
	if p != &Params[15] {
		t.Error("Lookup does not return a pointer into Params")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		mutate func(*Rules)
		err    string
	}{
		{func(r *Rules) { r.PiecesCount = 8 }, "rule PiecesCount: 8 is out of range 9..12"},
		{func(r *Rules) { r.PiecesCount = 13 }, "rule PiecesCount: 13 is out of range 9..12"},
		{func(r *Rules) { r.FlyPieceCount = 5 }, "rule flyPieceCount: 5 is out of range 3..4"},
		{func(r *Rules) { r.PiecesAtLeastCount = 2 }, "rule PiecesAtLeastCount: 2 is out of range 3..5"},
		{func(r *Rules) { r.MillFormationActionInPlacingPhase = 6 }, "rule MillFormationActionInPlacingPhase: 6 is out of range 0..5"},
		{func(r *Rules) { r.BoardFullAction = -1 }, "rule BoardFullAction: -1 is out of range 0..4"},
		{func(r *Rules) { r.StalemateAction = 6 }, "rule StalemateAction: 6 is out of range 0..5"},
		{func(r *Rules) { r.NMoveRule = 0 }, "rule NMoveRule: 0 is out of range 10..200"},
		{func(r *Rules) { r.EndgameNMoveRule = 201 }, "rule EndgameNMoveRule: 201 is out of range 5..200"},
		{func(r *Rules) {}, ""},
		{func(r *Rules) { r.NMoveRule, r.EndgameNMoveRule = 10, 5 }, ""},
	}
	for _, tc := range tests {
		r := Default()
		tc.mutate(&r)
		err := r.Validate()
		if (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("Validate() = %v, want %q", err, tc.err)
		}
	}
	// The zero value is not valid (the doc comment says so).
	var zero Rules
	if err := zero.Validate(); err == nil {
		t.Error("the zero Rules validate")
	}
}

func TestParseBool(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
		ok   bool
	}{
		{"true", true, true}, {"TRUE", true, true}, {"1", true, true}, {"yes", true, true}, {"On", true, true},
		{"false", false, true}, {"False", false, true}, {"0", false, true}, {"NO", false, true}, {"off", false, true},
		{" true\t", true, true},
		{"", false, false}, {"t", false, false}, {"y", false, false}, {"2", false, false}, {"enabled", false, false},
	} {
		got, err := ParseBool(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBool(%q) = %t, %v", tc.in, got, err)
		}
	}
}
