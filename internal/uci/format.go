package uci

import (
	"fmt"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/tt"
)

// The protocol's words for the engine's values live here, not in the
// packages that compute them.

// ScoreString renders an info line's score as UCI does: "cp 35", "mate 3" or
// "mate -2", with "lowerbound" or "upperbound" after a fail-high or fail-low
// report.
func ScoreString(in *search.Info) string {
	s := fmt.Sprintf("cp %d", in.Score)
	if in.MateIn != 0 {
		s = fmt.Sprintf("mate %d", in.MateIn)
	}
	switch in.Bound {
	case tt.BoundLower:
		s += " lowerbound"
	case tt.BoundUpper:
		s += " upperbound"
	}
	return s
}

// RuleOptionLines returns the "option name … type … default …" lines of a
// rule parameter, under its name and then each alias, with its default taken
// from def.
func RuleOptionLines(p *rules.Param, def *rules.Rules) []string {
	var out []string
	for _, name := range append([]string{p.Name}, p.Aliases...) {
		if p.Bool {
			out = append(out, fmt.Sprintf("option name %s type check default %t", name, p.Get(def) != 0))
		} else {
			out = append(out, fmt.Sprintf("option name %s type spin default %d min %d max %d", name, p.Get(def), p.Min, p.Max))
		}
	}
	return out
}
