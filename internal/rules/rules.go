// Package rules holds the rule parameters of a mill variant (rules.md §4), their
// ranges and UCI option names, and the eleven named presets.
package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/millengine/millengine/internal/bitboard"
)

// Values of MillFormationActionInPlacingPhase.
const (
	MillRemoveFromBoard         = 0 // remove an opponent piece from the board
	MillRemoveFromHandThenThem  = 1 // remove from the opponent's hand, then the opponent moves
	MillRemoveFromHandThenUs    = 2 // remove from the opponent's hand, then move again
	MillOpponentRemovesOwn      = 3 // the opponent removes one of his own (played like 0)
	MillMarkAndDelay            = 4 // mark the piece, remove marked pieces when placing ends
	MillRemovalByMillCountsLate = 5 // no removals while placing; by mill counts afterwards
)

// Values of BoardFullAction.
const (
	BoardFullFirstLoses        = 0
	BoardFullFirstThenSecond   = 1
	BoardFullSecondThenFirst   = 2
	BoardFullSideToMoveRemoves = 3
	BoardFullDraw              = 4
)

// Values of StalemateAction.
const (
	StalemateLose          = 0
	StalematePass          = 1
	StalemateRemoveAndMove = 2
	StalemateRemoveAndPass = 3
	StalemateDraw          = 4
	StalemateBothRemove    = 5
)

// Rules is one complete set of rule parameters. The zero value is not valid;
// start from Default() or a preset.
type Rules struct {
	PiecesCount                       int  // pieces per side, 9–12
	FlyPieceCount                     int  // at most this many on board and none in hand may fly, 3–4
	PiecesAtLeastCount                int  // fewer pieces (board + hand) loses, 3–5
	MayFly                            bool // flying allowed at all
	HasDiagonalLines                  bool // corner diagonals are lines and mills
	MillFormationActionInPlacingPhase int  // see the Mill* constants, 0–5
	MayMoveInPlacingPhase             bool // Lasker: slide instead of placing
	IsDefenderMoveFirst               bool // the second player moves first after placing
	MayRemoveMultiple                 bool // n mills at once give n removals
	MayRemoveFromMillsAlways          bool // pieces in mills may always be removed
	RestrictRepeatedMillsFormation    bool // no swinging a piece straight back into a mill
	OneTimeUseMill                    bool // each line forms a mill once per player
	BoardFullAction                   int  // see the BoardFull* constants, 0–4
	StopPlacingWhenTwoEmptySquares    bool // placing ends with two empty points (12 pieces)
	StalemateAction                   int  // see the Stalemate* constants, 0–5
	NMoveRule                         int  // draw after N plies without removal, 10–200
	EndgameNMoveRule                  int  // used instead when smaller and a side has 3 pieces, 5–200
	ThreefoldRepetitionRule           bool // threefold repetition is a draw
}

// Default returns the rules of Nine Men's Morris.
func Default() Rules {
	return Rules{
		PiecesCount:             9,
		FlyPieceCount:           3,
		PiecesAtLeastCount:      3,
		MayFly:                  true,
		NMoveRule:               100,
		EndgameNMoveRule:        100,
		ThreefoldRepetitionRule: true,
	}
}

// Topology returns the board geometry these rules are played on.
func (r *Rules) Topology() *bitboard.Topology { return bitboard.For(r.HasDiagonalLines) }

// Param describes one rule parameter as a UCI option.
type Param struct {
	Name    string   // UCI option name, as Sanmill spells it
	Aliases []string // other names Sanmill's engines list for it
	Bool    bool     // a check option; otherwise a spin
	Min     int      // spin range
	Max     int
	Comment string
	get     func(*Rules) int
	set     func(*Rules, int)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func intParam(name string, min, max int, comment string, f func(*Rules) *int) Param {
	return Param{Name: name, Min: min, Max: max, Comment: comment,
		get: func(r *Rules) int { return *f(r) },
		set: func(r *Rules, v int) { *f(r) = v }}
}

func boolParam(name, comment string, f func(*Rules) *bool) Param {
	return Param{Name: name, Bool: true, Min: 0, Max: 1, Comment: comment,
		get: func(r *Rules) int { return b2i(*f(r)) },
		set: func(r *Rules, v int) { *f(r) = v != 0 }}
}

// Params lists every rule parameter in the order of rules.md §4.
var Params = []Param{
	intParam("PiecesCount", 9, 12, "pieces per side", func(r *Rules) *int { return &r.PiecesCount }),
	intParam("flyPieceCount", 3, 4, "a side with at most this many pieces may fly", func(r *Rules) *int { return &r.FlyPieceCount }),
	intParam("PiecesAtLeastCount", 3, 5, "a side with fewer pieces loses", func(r *Rules) *int { return &r.PiecesAtLeastCount }),
	boolParam("MayFly", "flying allowed", func(r *Rules) *bool { return &r.MayFly }),
	boolParam("HasDiagonalLines", "diagonal lines and mills", func(r *Rules) *bool { return &r.HasDiagonalLines }),
	intParam("MillFormationActionInPlacingPhase", 0, 5, "what a mill does while placing", func(r *Rules) *int { return &r.MillFormationActionInPlacingPhase }),
	boolParam("MayMoveInPlacingPhase", "slide instead of placing (Lasker)", func(r *Rules) *bool { return &r.MayMoveInPlacingPhase }),
	boolParam("IsDefenderMoveFirst", "second player moves first after placing", func(r *Rules) *bool { return &r.IsDefenderMoveFirst }),
	boolParam("MayRemoveMultiple", "n mills give n removals", func(r *Rules) *bool { return &r.MayRemoveMultiple }),
	boolParam("MayRemoveFromMillsAlways", "pieces in mills may always be removed", func(r *Rules) *bool { return &r.MayRemoveFromMillsAlways }),
	boolParam("RestrictRepeatedMillsFormation", "no moving straight back into a mill", func(r *Rules) *bool { return &r.RestrictRepeatedMillsFormation }),
	boolParam("OneTimeUseMill", "each line forms a mill once per player", func(r *Rules) *bool { return &r.OneTimeUseMill }),
	intParam("BoardFullAction", 0, 4, "what a full board does after placing", func(r *Rules) *int { return &r.BoardFullAction }),
	boolParam("StopPlacingWhenTwoEmptySquares", "placing ends with two empty points", func(r *Rules) *bool { return &r.StopPlacingWhenTwoEmptySquares }),
	intParam("StalemateAction", 0, 5, "what a side with no legal move does", func(r *Rules) *int { return &r.StalemateAction }),
	intParam("NMoveRule", 10, 200, "draw after N plies without removal", func(r *Rules) *int { return &r.NMoveRule }),
	intParam("EndgameNMoveRule", 5, 200, "N-move rule with three pieces", func(r *Rules) *int { return &r.EndgameNMoveRule }),
	boolParam("ThreefoldRepetitionRule", "threefold repetition draws", func(r *Rules) *bool { return &r.ThreefoldRepetitionRule }),
}

func init() {
	// The names Sanmill's newer engine lists beside the classic ones.
	for _, a := range []struct{ name, alias string }{
		{"PiecesCount", "PieceCount"},
		{"flyPieceCount", "FlyPieceCount"},
	} {
		for i := range Params {
			if Params[i].Name == a.name {
				Params[i].Aliases = append(Params[i].Aliases, a.alias)
			}
		}
	}
}

// Normalize folds an option name for matching: lower case, no spaces.
func Normalize(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), ""))
}

// Lookup finds the parameter with the given option name (case-insensitive,
// spaces ignored, Sanmill aliases accepted).
func Lookup(name string) (*Param, bool) {
	n := Normalize(name)
	for i := range Params {
		if Normalize(Params[i].Name) == n {
			return &Params[i], true
		}
		for _, a := range Params[i].Aliases {
			if Normalize(a) == n {
				return &Params[i], true
			}
		}
	}
	return nil, false
}

// Get returns the parameter's value in r (booleans as 0/1).
func (p *Param) Get(r *Rules) int { return p.get(r) }

// ParseBool reads true/false, 1/0, yes/no, on/off in any case.
func ParseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (true/false, 1/0, yes/no, on/off)", v)
}

// Set parses value and stores it in r after checking its range; r is left as
// it was on error.
func (p *Param) Set(r *Rules, value string) error {
	if p.Bool {
		b, err := ParseBool(value)
		if err != nil {
			return fmt.Errorf("option %s: %w", p.Name, err)
		}
		p.set(r, b2i(b))
		return nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		return fmt.Errorf("option %s: %q is not an integer", p.Name, value)
	}
	if v < p.Min || v > p.Max {
		return fmt.Errorf("option %s: %d is out of range %d..%d", p.Name, v, p.Min, p.Max)
	}
	p.set(r, v)
	return nil
}

// Validate checks every parameter against its range.
func (r *Rules) Validate() error {
	for i := range Params {
		p := &Params[i]
		v := p.get(r)
		if v < p.Min || v > p.Max {
			return fmt.Errorf("rule %s: %d is out of range %d..%d", p.Name, v, p.Min, p.Max)
		}
	}
	return nil
}

// Preset is a named variant.
type Preset struct {
	Key   string // the Variant option value, such as "nine-mens-morris"
	Name  string // the human name, such as "Nine Men's Morris"
	Rules Rules
}

func preset(key, name string, f func(*Rules)) Preset {
	r := Default()
	f(&r)
	return Preset{Key: key, Name: name, Rules: r}
}

// Presets are the eleven variants of rules.md §4, in its order.
var Presets = []Preset{
	preset("nine-mens-morris", "Nine Men's Morris", func(r *Rules) {}),
	preset("twelve-mens-morris", "Twelve Men's Morris", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines = 12, true
	}),
	preset("dooz", "Dooz", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines = 12, true
		r.MillFormationActionInPlacingPhase = MillRemoveFromHandThenThem
	}),
	preset("morabaraba", "Morabaraba", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines, r.MayRemoveMultiple = 12, true, true
	}),
	preset("russian-mill", "Russian Mill", func(r *Rules) { r.OneTimeUseMill = true }),
	preset("lasker-morris", "Lasker Morris", func(r *Rules) {
		r.PiecesCount, r.MayMoveInPlacingPhase = 10, true
	}),
	preset("cheng-san-qi", "Cheng San Qi", func(r *Rules) { r.MayFly = false }),
	preset("da-san-qi", "Da San Qi", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines = 12, true
		r.MillFormationActionInPlacingPhase = MillMarkAndDelay
		r.IsDefenderMoveFirst, r.MayRemoveFromMillsAlways, r.MayFly = true, true, false
	}),
	preset("zhi-qi", "Zhi Qi", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines = 12, true
		r.BoardFullAction, r.StalemateAction = BoardFullFirstThenSecond, StalemateRemoveAndMove
	}),
	preset("el-filja", "El Filja", func(r *Rules) {
		r.PiecesCount = 12
		r.MillFormationActionInPlacingPhase = MillRemovalByMillCountsLate
		r.MayRemoveFromMillsAlways, r.BoardFullAction, r.MayFly = true, BoardFullFirstThenSecond, false
	}),
	preset("experimental", "Experimental", func(r *Rules) {
		r.PiecesCount, r.HasDiagonalLines, r.IsDefenderMoveFirst = 12, true, true
		r.MayRemoveFromMillsAlways, r.BoardFullAction, r.MayFly = true, BoardFullSecondThenFirst, false
	}),
}

// PresetByName finds a preset by key or human name (case-insensitive, spaces,
// apostrophes, hyphens and underscores ignored).
func PresetByName(name string) (Preset, bool) {
	fold := func(s string) string {
		var b strings.Builder
		for _, c := range strings.ToLower(s) {
			if c == ' ' || c == '-' || c == '_' || c == '\'' {
				continue
			}
			b.WriteRune(c)
		}
		return b.String()
	}
	n := fold(name)
	for _, p := range Presets {
		if fold(p.Key) == n || fold(p.Name) == n {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetKeys returns the preset keys in rules.md order.
func PresetKeys() []string {
	keys := make([]string, len(Presets))
	for i, p := range Presets {
		keys[i] = p.Key
	}
	return keys
}

// Diff lists "Name=value" for every parameter where r differs from base, sorted.
func (r *Rules) Diff(base *Rules) []string {
	var out []string
	for i := range Params {
		p := &Params[i]
		if p.get(r) != p.get(base) {
			if p.Bool {
				out = append(out, fmt.Sprintf("%s=%t", p.Name, p.get(r) != 0))
			} else {
				out = append(out, fmt.Sprintf("%s=%d", p.Name, p.get(r)))
			}
		}
	}
	sort.Strings(out)
	return out
}
