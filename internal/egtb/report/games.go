package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/wdl"
)

// GamesOptions say which games Games replays with which tables.
type GamesOptions struct {
	Dir     string   // the table directory
	Files   []string // millmatch's JSON-lines files
	Summary bool     // the summary per engine only, no line per game
}

// Games writes what the tables in o.Dir say of the games of millmatch's
// files: per game the value for White, under the N-move rule (a win beyond
// it is a draw: egtb.Entry.UnderRule), at the first position the tables
// know once the game's opening is played (a match's opening actions are
// neither engine's) and each action that changed it (gameAnalysis.line),
// then per engine its games by that first value, those it lost from a draw
// or a win, won from a draw, the wins it gave away, and how many of its
// actions changed the value. A file or game that cannot be
// read or replayed stops it with an error naming it.
func Games(w io.Writer, o GamesOptions) error {
	tables := newTableCache(o.Dir)
	defer tables.close()
	sum := map[string]*gamesTally{}
	drawnEnds := map[string]map[string]int{} // per engine, its drawn games not won by their ending
	tally := func(name string) *gamesTally {
		if sum[name] == nil {
			sum[name] = &gamesTally{}
		}
		return sum[name]
	}
	for _, path := range o.Files {
		recs, err := match.ReadRecordFile(path)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			a, err := analyseGame(tables, rec)
			if err != nil {
				return fmt.Errorf("%s game %d: %w", path, rec.Game, err)
			}
			if !o.Summary {
				fmt.Fprintln(w, a.line(rec))
			}
			a.count(rec, tally)
			for _, n := range a.drawnNotWon(rec) {
				if drawnEnds[n] == nil {
					drawnEnds[n] = map[string]int{}
				}
				drawnEnds[n][rec.Reason]++
			}
		}
	}
	names := make([]string, 0, len(sum))
	for n := range sum {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := sum[n]
		if _, err := fmt.Fprintf(w, "%s: %d games; when first in the tables: %d won, %d drawn, %d lost, %d not in the tables; "+
			"lost from a draw or a win: %d; won from a draw: %d; gave away a win: %d; actions that changed the value: %d\n",
			n, t.games, t.startWin, t.startDraw, t.startLoss, t.unknown, t.lostFromDrawOrWin, t.wonFromDraw, t.winsGivenAway, t.changes); err != nil {
			return err
		}
		if t.keptOpen+t.keptBlocked > 0 {
			if _, err := fmt.Fprintf(w, "%s: drawn games whose placing kept the draw: with a removal while placing %d, won %d; with none %d, won %d\n",
				n, t.keptOpen, t.keptOpenWon, t.keptBlocked, t.keptBlockedWon); err != nil {
				return err
			}
		}
		if len(drawnEnds[n]) > 0 {
			if _, err := fmt.Fprintf(w, "%s: drawn games not won, by ending: %s\n", n, match.CountList(drawnEnds[n])); err != nil {
				return err
			}
		}
	}
	return nil
}

// gamesTally counts one engine's games.
type gamesTally struct {
	games, startWin, startDraw, startLoss, unknown int
	lostFromDrawOrWin, wonFromDraw, winsGivenAway  int
	changes                                        int // its actions that changed the value
	// The games drawn when the tables first knew them, during placing,
	// whose placing kept the draw (no action changed the value until the
	// first slide), by whether a piece was removed while placing, and how
	// many of each it won: the blocked kind are the hard ones to win.
	keptOpen, keptOpenWon, keptBlocked, keptBlockedWon int
}

// gameAnalysis is what the tables say of one game.
type gameAnalysis struct {
	known   bool      // the game reached a table position after its opening
	ply     int       // of the first table position after the opening (plies from the start of the record)
	placing int       // plies when placing ended (-1: it did not)
	first   wdl.Value // its value for White there
	start   wdl.Value // the value for White the tallies count from: first, or the N-move rule's reading of it (see change)
	changes []string  // the actions that changed the value, "ply 37 black d6-d5: draw → loss"
	changed [2]int    // how many of them each colour played
	// firstChange is the ply of the first action that changed the value
	// (as in changes: the plies played after it), -1 for none;
	// placingRemovals the removals before the first slide.
	firstChange, placingRemovals int
	engines                      [2]string // white, black
}

// analyseGame replays rec with the tables of its rules.
func analyseGame(tables *tableCache, rec match.GameRecord) (*gameAnalysis, error) {
	preset, ok := rules.PresetByName(rec.Variant)
	if !ok {
		return nil, fmt.Errorf("unknown variant %q", rec.Variant)
	}
	a := &gameAnalysis{engines: [2]string{rec.White, rec.Black}, placing: -1, firstChange: -1}
	slid := false
	r := &preset.Rules
	start := position.New(r)
	if rec.OpeningFEN != "" {
		var err error
		if start, err = position.ParseFEN(r, rec.OpeningFEN); err != nil {
			return nil, err
		}
	}
	tb, err := tables.open(r)
	if err != nil {
		return nil, err
	}
	g := position.NewGame(*r, start)
	tokens := append(append([]string(nil), rec.Opening...), rec.Moves...)
	movers := make([]position.Color, len(tokens))
	prev, prevKnown := wdl.Draw, false
	for i := 0; ; i++ {
		// i plies played: g.Pos is the position before tokens[i].
		if a.placing < 0 && g.Pos.InHand(position.White) == 0 && g.Pos.InHand(position.Black) == 0 {
			a.placing = i
		}
		if e, ok := tb.Lookup(r, &g.Pos); ok {
			// The value the game holds, the N-move rule's say included: a
			// win whose next removal the rule's count cannot reach is a draw.
			v := forWhite(g.Pos.SideToMove()) * e.UnderRule(g.Pos.NMoveBudget(r))
			switch {
			case i < len(rec.Opening):
				// The opening's actions (a match's random or book
				// opening) are neither engine's.
			case !a.known:
				a.known, a.ply, a.first, a.start = true, i, v, v
			case prevKnown && v != prev:
				a.change(i, movers[i-1], tokens[i-1], prev, v)
			}
			prev, prevKnown = v, true
		} else {
			prevKnown = false
		}
		if i == len(tokens) || g.Pos.IsOver() {
			break
		}
		m, err := movegen.ParseLegal(r, &g.Pos, tokens[i])
		if err != nil {
			return nil, fmt.Errorf("ply %d %q: %v", i+1, tokens[i], err)
		}
		movers[i] = g.Pos.SideToMove()
		switch m.Kind() {
		case position.KindSlide:
			slid = true
		case position.KindRemove:
			if !slid {
				a.placingRemovals++
			}
		}
		g.Play(m)
	}
	return a, nil
}

// change records that the value the game holds (White's) went from prev to
// v across mover's action token, the game's ply i. An action can only keep
// or worsen its mover's value; one that seems to better it does not: the
// tables read the N-move rule only where they hold a distance, from the
// moving phase on (a placing position's win is one without the rule), so
// the game held v already where the rule first had its say (a win beyond
// the N-move rule when placing ended). That is said in the game's line but
// counted as no action's change, and the start value, if no action changed
// it before, is v: no engine gave away a win the rule never let it have.
func (a *gameAnalysis) change(i int, mover position.Color, token string, prev, v wdl.Value) {
	sign := forWhite(mover)
	if sign*v > sign*prev {
		a.changes = append(a.changes, fmt.Sprintf("ply %d: White %s → %s by the N-move rule, read from here on", i, prev, v))
		if a.firstChange < 0 {
			a.start = v
		}
		return
	}
	a.changes = append(a.changes, fmt.Sprintf("ply %d %s %s: %s → %s", i, colourName(mover), token, sign*prev, sign*v))
	a.changed[mover]++
	if a.firstChange < 0 {
		a.firstChange = i
	}
}

// forWhite is the factor that turns a value for c into one for White, and
// back: Win (1) for White, Loss (-1) for Black.
func forWhite(c position.Color) wdl.Value {
	if c == position.Black {
		return wdl.Loss
	}
	return wdl.Win
}

func colourName(c position.Color) string {
	if c == position.Black {
		return "black"
	}
	return "white"
}

// line is the game's line of the report: its engines and result, where it
// was first in the tables and White's value there, and the actions that
// changed the value.
func (a *gameAnalysis) line(rec match.GameRecord) string {
	s := fmt.Sprintf("game %d %s vs %s %s (%s):", rec.Game, rec.White, rec.Black, rec.Result, rec.Reason)
	if !a.known {
		return s + " never in the tables"
	}
	if a.ply == a.placing {
		s += fmt.Sprintf(" placing ended at ply %d, White %s", a.ply, a.first)
	} else {
		s += fmt.Sprintf(" first in the tables at ply %d (placing ended at ply %d), White %s", a.ply, a.placing, a.first)
	}
	if len(a.changes) > 0 {
		s += "; " + strings.Join(a.changes, "; ")
	}
	return s
}

// drawnNotWon returns the engines for which the game was drawn when the
// tables first knew it and which did not win it: the draws an engine did
// not turn into wins, whose endings (repetition, the N-move rule, a loss
// the opening already held) say what to try next to win more of them.
func (a *gameAnalysis) drawnNotWon(rec match.GameRecord) []string {
	if !a.known || a.start != wdl.Draw {
		return nil
	}
	var out []string
	for _, name := range a.engines {
		if rec.Winner != name {
			out = append(out, name)
		}
	}
	return out
}

// count adds the game to the tallies of its two engines.
func (a *gameAnalysis) count(rec match.GameRecord, tally func(string) *gamesTally) {
	for c, name := range a.engines {
		t := tally(name)
		t.games++
		t.changes += a.changed[c]
		sign := forWhite(position.Color(c))
		if !a.known {
			t.unknown++
			continue
		}
		switch sign * a.start {
		case wdl.Win:
			t.startWin++
		case wdl.Draw:
			t.startDraw++
		default:
			t.startLoss++
		}
		lost := rec.Winner != "" && rec.Winner != name
		won := rec.Winner == name
		if lost && sign*a.start >= 0 {
			t.lostFromDrawOrWin++
		}
		if won && sign*a.start == wdl.Draw {
			t.wonFromDraw++
		}
		if a.start == wdl.Draw && a.placing >= 0 && a.ply <= a.placing && (a.firstChange < 0 || a.firstChange > a.placing) {
			if a.placingRemovals > 0 {
				t.keptOpen++
				if won {
					t.keptOpenWon++
				}
			} else {
				t.keptBlocked++
				if won {
					t.keptBlockedWon++
				}
			}
		}
		if sign*a.start == wdl.Win && !won {
			t.winsGivenAway++
		}
	}
}

// tableCache keeps the tables of a directory open across the games of the
// files, one set per parameter set of the games' rules.
type tableCache struct {
	dir    string
	tables map[string]*egtb.Tables // by the parameter set's name
}

func newTableCache(dir string) *tableCache {
	return &tableCache{dir: dir, tables: map[string]*egtb.Tables{}}
}

// open returns the tables for r, opened on first use.
func (c *tableCache) open(r *rules.Rules) (*egtb.Tables, error) {
	p, err := egtb.ParamsOf(r)
	if err != nil {
		return nil, err
	}
	if t := c.tables[p.Name()]; t != nil {
		return t, nil
	}
	t, err := egtb.OpenParams(c.dir, p)
	if err != nil {
		return nil, err
	}
	c.tables[p.Name()] = t
	return t, nil
}

// close closes the tables opened.
func (c *tableCache) close() {
	for _, t := range c.tables {
		t.Close()
	}
}
