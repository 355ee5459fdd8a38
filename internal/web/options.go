package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// What a tab may set. The page is anyone's who can reach the server, and
// the engine runs with the server's rights: a string option names a file or
// a directory on the server (Book, EGTBPath), which the engine opens and
// whose contents it may quote back in an error, and Hash is memory. So the
// bridge passes a setoption only for an option the server's engine declares
// (uci.Declarations) or the running engine listed in its answer to uci, and
// never for a string option or a Hash above Limits.MaxHashMB. The same
// declarations tell the page, through /options.json, which options are rules
// (a new game) and which are the engine's (the game goes on), and which rule
// an alias names.

// declTable is the server's engine's option declarations by normalized name
// (rules.Normalize, as the engine matches names), aliases included.
type declTable struct {
	list   []uci.Decl
	byName map[string]*uci.Decl
}

func newDeclTable() declTable {
	t := declTable{list: uci.Declarations(), byName: map[string]*uci.Decl{}}
	for i := range t.list {
		// An alias that folds to its rule's own name (FlyPieceCount) does
		// not replace the rule.
		if n := rules.Normalize(t.list[i].Name); t.byName[n] == nil {
			t.byName[n] = &t.list[i]
		}
	}
	return t
}

// listedOptions are the options the running engine listed ("option name N
// type T …"), by normalized name: what the bridge knows of another engine's
// options. The engine writes them; the page cannot add to them.
type listedOptions struct {
	mu    sync.Mutex
	types map[string]string
}

// maxListedOptions bounds what an engine's option lines can make the bridge
// keep.
const maxListedOptions = 1000

// learn records the option an engine line declares, if it is one.
func (l *listedOptions) learn(line string) {
	rest, ok := strings.CutPrefix(line, "option name ")
	if !ok {
		return
	}
	name, after, ok := strings.Cut(rest, " type ")
	if !ok {
		return
	}
	typ, _, _ := strings.Cut(strings.TrimSpace(after), " ")
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.types == nil {
		l.types = map[string]string{}
	}
	if len(l.types) < maxListedOptions {
		l.types[rules.Normalize(name)] = strings.ToLower(typ)
	}
}

func (l *listedOptions) typeOf(norm string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.types[norm]
	return t, ok
}

// checkSetOption checks the arguments of a setoption line from the page
// ("name <N…> [value <V…>]", keywords in any case, as the engine reads
// them) and returns why it is refused, or nil.
func checkSetOption(args []string, lim Limits, decls declTable, listed *listedOptions) error {
	if len(args) == 0 || !strings.EqualFold(args[0], "name") {
		return fmt.Errorf("refused setoption: want 'setoption name <name> [value <value>]'")
	}
	i := 1
	for i < len(args) && !strings.EqualFold(args[i], "value") {
		i++
	}
	name := strings.Join(args[1:i], " ")
	value := ""
	if i < len(args) {
		value = strings.Join(args[i+1:], " ")
	}
	norm := rules.Normalize(name)
	if norm == "" {
		return fmt.Errorf("refused setoption: want 'setoption name <name> [value <value>]'")
	}
	quoted := strconv.Quote(clip(name, 40))
	d, declared := decls.byName[norm]
	lt, isListed := listed.typeOf(norm)
	switch {
	case !declared && !isListed:
		return fmt.Errorf("refused setoption %s: not an option of this engine (the page may set only the options the engine lists in its answer to uci)", quoted)
	case declared && d.Type == "string" || isListed && lt == "string":
		return fmt.Errorf("refused setoption %s: a string option (a file or directory on the server) cannot be set from the page", quoted)
	case norm == "hash":
		mb, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || mb < 1 {
			return fmt.Errorf("refused setoption Hash %s: want a whole number of MB from 1 to %d", strconv.Quote(clip(value, 20)), lim.MaxHashMB)
		}
		if mb > lim.MaxHashMB {
			return fmt.Errorf("refused setoption Hash %d: this server allows a tab at most %d MB", mb, lim.MaxHashMB)
		}
	}
	return nil
}

// optionTable is /options.json: the options of the server's engine as the
// page may use them, the Hash cap, and the engine's levels for people.
type optionTable struct {
	MaxHashMB int          `json:"maxHashMB"`
	Options   []optionJSON `json:"options"`
	Levels    []levelJSON  `json:"levels,omitempty"`
}

// levelJSON is one level the page offers by name: the engine's levels
// (search.Levels) from the weakest, then full strength, always last. The
// page sets a level with UCI_LimitStrength and UCI_Elo, as a Stockfish
// client does: full strength turns the limit off, another level turns it
// on at its Elo (the engine plays the level nearest that Elo).
type levelJSON struct {
	Name string `json:"name"`
	Elo  int    `json:"elo"`
}

// fullStrength is the name of the last level, the engine unlimited.
const fullStrength = "full strength"

// levels returns the levels of /options.json, or nil when the server's
// engine does not declare both options that set them (UCI_LimitStrength,
// a check, and UCI_Elo, a spin).
func (t declTable) levels() []levelJSON {
	ls, elo := t.byName[rules.Normalize("UCI_LimitStrength")], t.byName[rules.Normalize("UCI_Elo")]
	if ls == nil || ls.Type != "check" || elo == nil || elo.Type != "spin" {
		return nil
	}
	var out []levelJSON
	for _, l := range search.Levels {
		out = append(out, levelJSON{Name: l.Name, Elo: l.Elo})
	}
	return append(out, levelJSON{Name: fullStrength, Elo: search.FullStrengthElo})
}

// optionJSON is one option. Kind is "rule" for a rule parameter (changing
// it starts a new game) and "engine" for the others (the game goes on);
// AliasOf names the parameter an alias stands for; Settable is false for
// what the bridge refuses (string options).
type optionJSON struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Kind     string   `json:"kind"`
	AliasOf  string   `json:"aliasOf,omitempty"`
	Default  string   `json:"default"`
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	Vars     []string `json:"vars,omitempty"`
	Settable bool     `json:"settable"`
	Comment  string   `json:"comment,omitempty"`
}

// options returns the table /options.json serves.
func (s *Server) options() optionTable {
	t := optionTable{MaxHashMB: s.cfg.Limits.MaxHashMB, Levels: s.decls.levels()}
	for _, d := range s.decls.list {
		o := optionJSON{Name: d.Name, Type: d.Type, Kind: "engine", AliasOf: d.AliasOf, Default: d.Default,
			Min: d.Min, Max: d.Max, Vars: d.Vars, Settable: d.Type != "string"}
		if d.Rule {
			o.Kind = "rule"
			if p, ok := rules.Lookup(d.Name); ok {
				o.Comment = p.Comment
			}
		}
		if rules.Normalize(d.Name) == "hash" {
			o.Max = min(o.Max, s.cfg.Limits.MaxHashMB)
		}
		t.Options = append(t.Options, o)
	}
	return t
}

func (s *Server) serveOptions(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_ = json.NewEncoder(w).Encode(s.options())
}
