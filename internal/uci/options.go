package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/engine"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// Option kinds as UCI names them.
const (
	kindSpin   = "spin"
	kindCheck  = "check"
	kindButton = "button"
	kindCombo  = "combo"
	kindString = "string"
)

// Ranges of the engine options.
const (
	maxMultiPV      = movegen.MaxMoves
	maxMoveOverhead = 5000      // ms
	maxMoveTime     = 3600      // s
	maxMoveTimeMs   = 3_600_000 // ms
	// defaultContempt is the Contempt a game starts with: a draw is worth
	// 0.15 piece less than nothing to the engine, so against another engine
	// it keeps a game going it stands no worse in and takes a draw only
	// when it stands worse (analysis, infinite or UCI_AnalyseMode, uses 0).
	defaultContempt = 15
)

// option is one engine option. set parses a value and applies it, or returns
// an error and changes nothing.
type option struct {
	name     string
	kind     string
	min, max int
	vars     []string
	def      string // the start-up value, shown by uci
	set      func(s *session, value string) error
}

// uciString returns the option's line in the answer to uci.
func (o *option) uciString() string {
	switch o.kind {
	case kindSpin:
		return fmt.Sprintf("option name %s type spin default %s min %d max %d", o.name, o.def, o.min, o.max)
	case kindButton:
		return fmt.Sprintf("option name %s type button", o.name)
	case kindCombo:
		return fmt.Sprintf("option name %s type combo default %s var %s", o.name, o.def, strings.Join(o.vars, " var "))
	case kindString:
		def := o.def
		if def == "" {
			def = emptyString
		}
		return fmt.Sprintf("option name %s type string default %s", o.name, def)
	}
	return fmt.Sprintf("option name %s type %s default %s", o.name, o.kind, o.def)
}

// spinValue parses and range-checks the value of a spin option.
func spinValue(name, value string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		return 0, fmt.Errorf("option %s: %q is not an integer", name, value)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("option %s: %d is out of range %d..%d", name, v, lo, hi)
	}
	return v, nil
}

// checkValue parses the value of a check option.
func checkValue(name, value string) (bool, error) {
	b, err := rules.ParseBool(value)
	if err != nil {
		return false, fmt.Errorf("option %s: %w", name, err)
	}
	return b, nil
}

// spin builds a spin option that stores its value with apply.
func spin(name string, def, lo, hi int, apply func(s *session, v int)) *option {
	return &option{name: name, kind: kindSpin, min: lo, max: hi, def: strconv.Itoa(def),
		set: func(s *session, value string) error {
			v, err := spinValue(name, value, lo, hi)
			if err != nil {
				return err
			}
			apply(s, v)
			return nil
		}}
}

// check builds a check option that stores its value with apply.
func check(name string, def bool, apply func(s *session, v bool)) *option {
	return &option{name: name, kind: kindCheck, def: strconv.FormatBool(def),
		set: func(s *session, value string) error {
			v, err := checkValue(name, value)
			if err != nil {
				return err
			}
			apply(s, v)
			return nil
		}}
}

// combo builds a combo option whose value parse reads (spaces trimmed off)
// and apply stores.
func combo[T any](name, def string, vars []string, parse func(string) (T, error), apply func(s *session, v T)) *option {
	return &option{name: name, kind: kindCombo, def: def, vars: vars,
		set: func(s *session, value string) error {
			v, err := parse(strings.TrimSpace(value))
			if err != nil {
				return fmt.Errorf("option %s: %w", name, err)
			}
			apply(s, v)
			return nil
		}}
}

// engineOptions builds the engine options (everything but the rule
// parameters) with the session's start-up values as defaults.
func (s *session) engineOptions() []*option {
	d := s.sopts
	setSearch := func(f func(o *search.Options)) {
		f(&s.sopts)
		s.engine.SetOptions(s.sopts)
	}
	// searchSpin and searchCheck build the options that set one field of
	// the search options, the one field points to.
	searchSpin := func(name string, lo, hi int, field func(o *search.Options) *int) *option {
		return spin(name, *field(&d), lo, hi, func(_ *session, v int) { setSearch(func(o *search.Options) { *field(o) = v }) })
	}
	searchCheck := func(name string, field func(o *search.Options) *bool) *option {
		return check(name, *field(&d), func(_ *session, v bool) { setSearch(func(o *search.Options) { *field(o) = v }) })
	}
	return []*option{
		spin("Hash", s.hashMB, 1, s.cfg.MaxHashMB, func(s *session, v int) { s.startResize(v) }),
		spin("Threads", d.Threads, 1, s.cfg.MaxThreads, func(s *session, v int) {
			setSearch(func(o *search.Options) { o.Threads = v })
			if n := search.UsefulThreads(); v > n {
				s.printf("info string Threads %d is more than the %d CPUs the engine may use; the search runs %d threads", v, n, n)
			}
		}),
		{name: "Clear Hash", kind: kindButton, set: func(s *session, _ string) error {
			s.engine.ClearHash()
			return nil
		}},
		check("Ponder", false, func(s *session, v bool) { s.ponder = v }),
		searchSpin("MultiPV", 1, maxMultiPV, func(o *search.Options) *int { return &o.MultiPV }),
		spin("Move Overhead", int(d.MoveOverhead/time.Millisecond), 0, maxMoveOverhead, func(_ *session, v int) {
			setSearch(func(o *search.Options) { o.MoveOverhead = time.Duration(v) * time.Millisecond })
		}),
		spin("MoveTime", int(s.moveTime/time.Second), 0, maxMoveTime, func(s *session, v int) {
			s.moveTime = time.Duration(v) * time.Second
		}),
		spin("MoveTimeMs", int(s.moveTime/time.Millisecond), 0, maxMoveTimeMs, func(s *session, v int) {
			s.moveTime = time.Duration(v) * time.Millisecond
		}),
		searchSpin("SkillLevel", 0, search.MaxSkillLevel, func(o *search.Options) *int { return &o.SkillLevel }),
		searchCheck("UCI_LimitStrength", func(o *search.Options) *bool { return &o.LimitStrength }),
		searchSpin("UCI_Elo", search.MinElo, search.FullStrengthElo, func(o *search.Options) *int { return &o.Elo }),
		searchCheck("Shuffling", func(o *search.Options) *bool { return &o.Shuffling }),
		combo("Algorithm", d.Algorithm.String(), []string{search.MTDF.String(), search.AlphaBeta.String(), search.PVS.String()},
			func(v string) (search.Algorithm, error) { return search.ParseAlgorithm(strings.ToLower(v)) },
			func(_ *session, a search.Algorithm) { setSearch(func(o *search.Options) { o.Algorithm = a }) }),
		searchSpin("MaxQuiescenceDepth", 0, search.MaxQuiescenceDepth, func(o *search.Options) *int { return &o.MaxQuiescenceDepth }),
		searchSpin("Contempt", -search.MaxContempt, search.MaxContempt, func(o *search.Options) *int { return &o.Contempt }),
		searchSpin("DrawnContempt", 0, search.MaxContempt, func(o *search.Options) *int { return &o.DrawnContempt }),
		searchSpin("DrawnTrades", 0, search.MaxContempt, func(o *search.Options) *int { return &o.DrawnTrades }),
		searchSpin("DrawnFlying", 0, 1000, func(o *search.Options) *int { return &o.DrawnFlying }),
		searchCheck("UCI_AnalyseMode", func(o *search.Options) *bool { return &o.AnalyseMode }),
		check("UCI_ShowWDL", false, func(s *session, v bool) { s.showWDL = v }),
		searchCheck("TableWinningChances", func(o *search.Options) *bool { return &o.TableWinningChances }),
		combo("WinningPolicy", d.Policy.String(), search.PolicyNames(), search.ParsePolicy,
			func(_ *session, p search.Policy) { setSearch(func(o *search.Options) { o.Policy = p }) }),
		searchSpin("ModelDepth", 1, search.MaxModelDepth, func(o *search.Options) *int { return &o.ModelDepth }),
		searchSpin("ModelTemperature", 1, search.MaxModelTemperature, func(o *search.Options) *int { return &o.ModelTemperature }),
		searchSpin("ModelMinChance", 0, 100, func(o *search.Options) *int { return &o.ModelMinChance }),
		searchSpin("PressureShare", 0, 100, func(o *search.Options) *int { return &o.PressureShare }),
		searchSpin("FlyingPressure", 0, 100, func(o *search.Options) *int { return &o.FlyingPressure }),
		searchSpin("PressureDepth", 0, 200, func(o *search.Options) *int { return &o.PressureDepth }),
		{name: "EGTBPath", kind: kindString, def: s.cfg.EGTBPath,
			set: func(s *session, value string) error { return s.setTablesDir(value) }},
		{name: "UsePerfectDatabase", kind: kindCheck, def: "false",
			set: func(s *session, value string) error {
				v, err := checkValue("UsePerfectDatabase", value)
				if err != nil {
					return err
				}
				_, dir := s.engine.PerfectDatabase()
				return s.setPerfect(v, dir)
			}},
		{name: "PerfectDatabasePath", kind: kindString, def: engine.DefaultPerfectPath,
			set: func(s *session, value string) error {
				use, _ := s.engine.PerfectDatabase()
				return s.setPerfect(use, stringValue(value))
			}},
		{name: "Book", kind: kindString, def: s.cfg.Book,
			set: func(s *session, value string) error { return s.engine.SetBook(stringValue(value)) }},
		spin("BookVariety", engine.DefaultBookVariety, 0, engine.MaxBookVariety, func(s *session, v int) { s.engine.SetBookVariety(v) }),
		{name: "Variant", kind: kindCombo, def: s.cfg.Variant, vars: rules.PresetKeys(),
			set: func(s *session, value string) error {
				p, ok := rules.PresetByName(strings.TrimSpace(value))
				if !ok {
					return fmt.Errorf("option Variant: unknown variant %q (want one of %s)",
						value, strings.Join(rules.PresetKeys(), ", "))
				}
				s.setRules(p.Rules)
				return nil
			}},
	}
}

// findOption returns the engine option with the given name (case and spaces
// ignored), or nil.
func (s *session) findOption(name string) *option {
	n := rules.Normalize(name)
	for _, o := range s.options {
		if rules.Normalize(o.name) == n {
			return o
		}
	}
	return nil
}

// setRules replaces the rules and resets the game to their start position.
// The engine forgets what it learned under other rules at the next go (a
// frontend may send every rule option in a row; one clear is enough).
func (s *session) setRules(r rules.Rules) {
	changed := r != s.rules
	s.rules = r
	s.game = position.NewGame(r, position.New(&s.rules))
	s.valid = true
	if changed {
		if err := s.engine.ReopenTables(&s.rules); err != nil {
			s.engine.NoteTablesError(err) // said at the next go
		}
	}
}

// errNoName is returned for a setoption without a name.
var errNoName = errors.New("setoption: want 'setoption name <name> [value <value>]'")

// parseSetOption splits "name <N…> [value <V…>]" (keywords in any case).
func parseSetOption(args []string) (name, value string, hasValue bool, err error) {
	if len(args) == 0 || !strings.EqualFold(args[0], "name") {
		return "", "", false, errNoName
	}
	i := 1
	for i < len(args) && !strings.EqualFold(args[i], "value") {
		i++
	}
	name = strings.Join(args[1:i], " ")
	if name == "" {
		return "", "", false, errNoName
	}
	if i < len(args) {
		return name, strings.Join(args[i+1:], " "), true, nil
	}
	return name, "", false, nil
}

// cmdSetOption applies "setoption name <N> [value <V>]". It is refused while
// a search runs.
func (s *session) cmdSetOption(args []string) error {
	if s.busy() {
		return s.errBusy("setoption")
	}
	name, value, hasValue, err := parseSetOption(args)
	if err != nil {
		return err
	}
	if o := s.findOption(name); o != nil {
		if o.kind != kindButton && o.kind != kindString && (!hasValue || value == "") {
			return fmt.Errorf("option %s: missing value", o.name)
		}
		if err := o.set(s, value); err != nil {
			return err
		}
		s.log.Info().Str("option", o.name).Str("value", clip(value, 100)).Msg("option set")
		return nil
	}
	p, ok := rules.Lookup(name)
	if !ok {
		return fmt.Errorf("setoption: unknown option %s", quote(name))
	}
	if !hasValue || value == "" {
		return fmt.Errorf("option %s: missing value", p.Name)
	}
	r := s.rules
	if err := p.Set(&r, value); err != nil {
		return err
	}
	s.setRules(r)
	s.log.Info().Str("option", p.Name).Str("value", clip(value, 100)).Msg("rule set; position reset")
	return nil
}

// uciLines returns the answer to uci (or ugi): the id lines, the options and
// the closing line, uciok (or ugiok).
func (s *session) uciLines(ok string) []string {
	out := []string{
		"id name millengine " + s.cfg.Version,
		"id author " + Author,
	}
	for _, o := range s.options {
		out = append(out, o.uciString())
	}
	for i := range rules.Params {
		out = append(out, RuleOptionLines(&rules.Params[i], &s.startR)...)
	}
	return append(out, ok)
}
