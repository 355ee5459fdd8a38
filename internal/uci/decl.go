package uci

import (
	"strconv"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// Decl declares one option that the engine lists in its answer to uci. A
// frontend that relays setoption for someone else (the browser board's
// server) reads the declarations to know what an option is before it shows
// it or passes it on: an engine option or a rule parameter, which values it
// takes, and which rule an alias names. Declarations derives them from the
// engine's own option table and rules.Params, so they cannot drift from
// what uci lists.
type Decl struct {
	Name    string   // as uci lists it
	Type    string   // spin, check, button, combo or string
	Default string   // the start-up value of a default configuration
	Min     int      // spin range
	Max     int      // spin range
	Vars    []string // combo values
	// Rule marks a rule parameter (rules.Params): setting it gives the
	// engine new rules and resets its game.
	Rule bool
	// AliasOf is, for another name of a rule parameter (PieceCount), the
	// parameter's own name (PiecesCount); "" otherwise.
	AliasOf string
}

// Declarations returns every option of a session with the default
// configuration (no tables, no book, Hash 16, Threads 1, Nine Men's
// Morris), in the order uci lists them: the engine options, then each rule
// parameter under its name and its aliases.
func Declarations() []Decl {
	cfg, err := Config{Engine: declEngine{}}.withDefaults()
	if err != nil {
		panic("uci: the default configuration is invalid: " + err.Error())
	}
	s := newSession(cfg, nil)
	var out []Decl
	for _, o := range s.options {
		out = append(out, Decl{Name: o.name, Type: o.kind, Default: o.def, Min: o.min, Max: o.max, Vars: o.vars})
	}
	for i := range rules.Params {
		p := &rules.Params[i]
		d := Decl{Name: p.Name, Type: kindSpin, Min: p.Min, Max: p.Max, Rule: true}
		if p.Bool {
			d.Type, d.Min, d.Max = kindCheck, 0, 0
			d.Default = "false"
			if p.Get(&s.startR) != 0 {
				d.Default = "true"
			}
		} else {
			d.Default = strconv.Itoa(p.Get(&s.startR))
		}
		out = append(out, d)
		for _, a := range p.Aliases {
			alias := d
			alias.Name, alias.AliasOf = a, p.Name
			out = append(out, alias)
		}
	}
	return out
}

// declEngine is the engine of the session Declarations builds: it never
// searches, and it allocates no hash table.
type declEngine struct{}

func (declEngine) SetOptions(search.Options) {}
func (declEngine) SetHash(int) error         { return nil }
func (declEngine) SetTables(*egtb.Tables)    {}
func (declEngine) SetRootSource(egtb.Source) {}
func (declEngine) ClearHash()                {}
func (declEngine) NewGame()                  {}
func (declEngine) Prepare(bool)              {}
func (declEngine) Search(*position.Game, search.Limits, func(search.Info)) search.Result {
	return search.Result{}
}
func (declEngine) Stop()      {}
func (declEngine) PonderHit() {}
