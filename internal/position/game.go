package position

import "github.com/millengine/millengine/internal/rules"

// Game is a position with the history the draw rules need: the moves played
// from a start position and the keys of the positions reached by slides since
// the last placement or removal (rules.md §3).
type Game struct {
	Rules rules.Rules // the rules the game is played under
	Start Position    // the position the moves start from
	Pos   Position    // the current position
	Moves []Move      // the moves played from Start
	keys  []uint32    // keys after each slide since the last placement or removal
}

// NewGame starts a game from the given position.
func NewGame(r rules.Rules, start Position) *Game {
	return &Game{Rules: r, Start: start, Pos: start}
}

// Clone returns an independent copy of g.
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = append([]Move(nil), g.Moves...)
	c.keys = append([]uint32(nil), g.keys...)
	return &c
}

// RepetitionKeys returns the keys of the positions reached by slides since the
// last placement or removal, the current one last (a view, not a copy). Only
// these positions count for repetition.
func (g *Game) RepetitionKeys() []uint32 { return g.keys }

// Play applies a legal move and then the draw rules that need history:
// threefold repetition and the N-move rules.
func (g *Game) Play(m Move) {
	r := &g.Rules
	g.Pos.Do(r, m)
	g.Moves = append(g.Moves, m)
	if m.Kind() != KindSlide {
		g.keys = g.keys[:0]
		return
	}
	key := g.Pos.Key()
	g.keys = append(g.keys, key)
	if g.Pos.IsOver() {
		return
	}
	if res, why := DrawByRule(r, &g.Pos, g.keys); res == Draw {
		g.Pos.SetGameOver(Draw, why)
	}
}

// DrawByRule applies the N-move rules and threefold repetition to a position
// just reached by a slide, given the keys of the positions reached by slides
// since the last placement or removal (the current one included, last).
func DrawByRule(r *rules.Rules, p *Position, keys []uint32) (Result, Reason) {
	if why := p.NMoveDraw(r); why != NoReason {
		return Draw, why
	}
	if r.ThreefoldRepetitionRule && len(keys) > 0 {
		key := keys[len(keys)-1]
		seen := 0
		for _, k := range keys {
			if k == key {
				seen++
			}
		}
		if seen >= 3 {
			return Draw, ThreefoldRepetition
		}
	}
	return Ongoing, NoReason
}
