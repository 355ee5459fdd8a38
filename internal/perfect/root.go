package perfect

import (
	"fmt"
	"slices"
	"sync"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Root is the source of the engine's root values when Malom's database is
// in use: the engine's own tables and Malom's database together, an
// egtb.Source. Where both know a position they must agree on win, draw or
// loss; a disagreement is kept (Disagreements) and the value below is used.
// In the moving phase the tables' entry is used, for its distance to the
// next removal, which the N-move rule counts (and Malom's distance to the
// end where the tables keep only that distance to a removal); in the
// placing phase Malom's, for its distance to the end (the tables keep the
// result alone there). Where one source knows a position, its value is
// used. Root is safe for concurrent use.
type Root struct {
	tables *egtb.Tables
	db     *DB

	mu       sync.Mutex
	disagree []Disagreement
	seen     map[string]bool
}

// maxDisagreements bounds the disagreements a Root keeps.
const maxDisagreements = 10

// NewRoot joins the tables t (nil: none) and the database db.
func NewRoot(t *egtb.Tables, db *DB) *Root {
	return &Root{tables: t, db: db, seen: map[string]bool{}}
}

// DB returns Malom's database.
func (s *Root) DB() *DB { return s.db }

// Tables returns the engine's tables, or nil.
func (s *Root) Tables() *egtb.Tables { return s.tables }

// Disagreement is a position on which Malom's database and the engine's
// tables disagree: a bug in one of them, or rules that are not what they
// were solved for.
type Disagreement struct {
	FEN           string
	Tables, Malom egtb.Entry
	Used          string // "the tables'" or "Malom's": whose value the root used
}

// String is "Malom and the tables disagree at FEN: Malom win 3, the tables
// draw; the tables' value is used".
func (d Disagreement) String() string {
	return fmt.Sprintf("Malom and the tables disagree at %s: Malom %s, the tables %s; %s value is used", d.FEN, d.Malom, d.Tables, d.Used)
}

// Disagreements returns the disagreements found so far (at most
// maxDisagreements, in the order found).
func (s *Root) Disagreements() []Disagreement {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.disagree)
}

// Lookup returns the value of p for its side to move under r from the
// tables and Malom's database, as the type says, and whether either knows
// it. It allocates only when it opens a sector or finds a disagreement.
func (s *Root) Lookup(r *rules.Rules, p *position.Position) (egtb.Entry, bool) {
	te, tok := s.tables.Lookup(r, p)
	me, _, mok := s.db.lookup(r, p)
	switch {
	case tok && mok:
		moving := p.InHand(position.White) == 0 && p.InHand(position.Black) == 0
		if resultOf(te.Value) != resultOf(me.Value) {
			used := "Malom's"
			if moving {
				used = "the tables'"
			}
			s.note(p, te, me, used)
		} else if moving && !te.Exact && !te.ResultOnly {
			// The tables keep the distance to the next removal only
			// (sectors beyond 10 pieces): Malom's to the end with it.
			te.Value, te.Exact, te.Perfect = me.Value, true, true
		}
		if moving {
			return te, true
		}
		return me, true
	case tok:
		return te, true
	case mok:
		return me, true
	}
	return egtb.Entry{}, false
}

// note keeps a disagreement at p, once.
func (s *Root) note(p *position.Position, te, me egtb.Entry, used string) {
	fen := p.FEN()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[fen] || len(s.disagree) >= maxDisagreements {
		return
	}
	s.seen[fen] = true
	s.disagree = append(s.disagree, Disagreement{FEN: fen, Tables: te, Malom: me, Used: used})
}

// resultOf is 1, 0 or −1 for a win, a draw or a loss.
func resultOf(v egtb.Value) int {
	switch {
	case v.IsWin():
		return 1
	case v.IsLoss():
		return -1
	}
	return 0
}

// Action is a root action ranked by the policy, with Malom's keys of the
// position it leads to, for the policies that read them.
type Action struct {
	egtb.RootAction
	// Keys are Malom's keys of the position the action leads to (after its
	// best removal when it closes a mill); HasKeys says whether Malom's
	// database holds it (not when the action ends the game).
	Keys    Keys
	HasKeys bool
}

// RankRoot ranks g's root by the engine's policy (egtb.RankRootWith) with
// the values of s, and gives each action Malom's keys. It reports false
// when the root or one of its actions is unknown.
func (s *Root) RankRoot(g *position.Game) ([]Action, bool) {
	return rankWithKeys(s, s.db, g)
}

// RankRoot ranks g's root by the engine's policy with Malom's values alone,
// each action with its keys.
func (d *DB) RankRoot(g *position.Game) ([]Action, bool) { return rankWithKeys(d, d, g) }

func rankWithKeys(src egtb.Source, d *DB, g *position.Game) ([]Action, bool) {
	acts, ok := egtb.RankRootWith(src, g)
	if !ok {
		return nil, false
	}
	out := make([]Action, len(acts))
	for i, a := range acts {
		out[i].RootAction = a
		c := g.Pos
		c.Do(&g.Rules, a.Move)
		out[i].Keys, out[i].HasKeys = d.Keys(&g.Rules, &c)
	}
	return out, true
}
