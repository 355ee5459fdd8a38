package record

import (
	"fmt"
	"strings"

	"github.com/millengine/millengine/internal/rules"
)

// sanmillVariants are the values of Sanmill's [Variant] tag, its fixed English
// name and its stable id (RuleVariant._variantNames in
// src/ui/flutter_app/lib/puzzle/models/rule_variant.dart; its importer
// accepts both, in any case), with the engine preset each maps to, "" where
// the engine has none. "Custom" names no rules at all.
//
// Sanmill's rule sets for some names differ from the engine's presets of the
// same name (for example Sanmill's Morabaraba draws on a full board and
// restricts repeated mills instead of removing once per mill); a record
// that depends on such a difference replays only with its rules given to
// Replay explicitly.
var sanmillVariants = [...]struct{ name, id, preset string }{
	{"Nine Men's Morris", "standard_9mm", "nine-mens-morris"},
	{"Twelve Men's Morris", "twelve_mens_morris", "twelve-mens-morris"},
	{"Morabaraba", "morabaraba", "morabaraba"},
	{"Dooz", "dooz", "dooz"},
	{"Lasker Morris", "lasker_morris", "lasker-morris"},
	{"Russian Mill", "russian_mill", "russian-mill"},
	{"Cham Gonu", "cham_gonu", ""},
	{"Zhi Qi", "zhi_qi", "zhi-qi"},
	{"Cheng San Qi", "cheng_san_qi", "cheng-san-qi"},
	{"Da San Qi", "da_san_qi", "da-san-qi"},
	{"Mul-Mulan", "mul_mulan", ""},
	{"Nerenchi", "nerenchi", ""},
	{"El Filja", "el_filja", "el-filja"},
}

// DefaultVariant is the preset of a record without a [Variant] tag (PlayOK's
// records have none and are Nine Men's Morris).
const DefaultVariant = "nine-mens-morris"

// VariantPreset returns the engine preset a [Variant] tag value names:
// Sanmill's name or id (any case), or an engine preset key or name.
// "Custom", the variants the engine does not have and unknown names are
// errors: their rules must be given to Replay.
func VariantPreset(value string) (rules.Preset, error) {
	n := strings.ToLower(strings.TrimSpace(value))
	for _, v := range sanmillVariants {
		if n != strings.ToLower(v.name) && n != v.id {
			continue
		}
		if v.preset == "" {
			return rules.Preset{}, fmt.Errorf("variant %q: the engine has no such rules", value)
		}
		p, ok := rules.PresetByName(v.preset)
		if !ok {
			return rules.Preset{}, fmt.Errorf("variant %q: no engine preset %q", value, v.preset)
		}
		return p, nil
	}
	if n == "custom" {
		return rules.Preset{}, fmt.Errorf("variant %q does not say which rules: give them to Replay", value)
	}
	if p, ok := rules.PresetByName(value); ok {
		return p, nil
	}
	return rules.Preset{}, fmt.Errorf("unknown variant %q", value)
}

// VariantName returns the [Variant] tag value for an engine preset key:
// Sanmill's name where Sanmill has the variant, else the key itself.
func VariantName(key string) string {
	for _, v := range sanmillVariants {
		if v.preset == key {
			return v.name
		}
	}
	return key
}

// Preset returns the engine preset the game's [Variant] tag names, or
// DefaultVariant's without one.
func (g *Game) Preset() (rules.Preset, error) {
	v, ok := g.Tag("Variant")
	if !ok {
		v = DefaultVariant
	}
	return VariantPreset(v)
}
