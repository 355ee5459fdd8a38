// Package movepick orders the legal actions of a position for the search:
// the transposition-table move first, then actions ranked by mill knowledge
// (closing our mills, stopping the opponent's, blocking placements, choosing
// removals), then killers, the history heuristic and the value of the points.
package movepick

import (
	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// History scores moves that caused cutoffs, per side and move (12 bits).
type History [2][4096]int32

const historyMax = 1 << 14

// Update adds bonus (negative for a penalty) to the history of m for side c,
// keeping the value within ±historyMax by a decaying update.
func (h *History) Update(c position.Color, m position.Move, bonus int32) {
	if bonus > historyMax {
		bonus = historyMax
	} else if bonus < -historyMax {
		bonus = -historyMax
	}
	e := &h[c][m&4095]
	abs := bonus
	if abs < 0 {
		abs = -abs
	}
	*e += bonus - *e*abs/historyMax
}

// Get returns the history value of m for side c.
func (h *History) Get(c position.Color, m position.Move) int32 { return h[c][m&4095] }

// Clear zeroes the table.
func (h *History) Clear() { *h = History{} }

// Score bands: a higher band always comes first.
const (
	scoreTT      = 1 << 30
	scoreMill    = 1 << 24 // + mills closed
	scoreBlock   = 1 << 22 // + opponent mills stopped
	scoreRemove  = 1 << 20 // removals, refined by their own knowledge
	scoreKiller1 = 1<<19 + 1
	scoreKiller2 = 1 << 19
)

// Picker yields the moves of one node, best first. The table move, if
// legal, comes out before anything else is scored, so a node that is cut by
// it never pays for ordering the rest.
type Picker struct {
	ml      movegen.MoveList
	scores  [movegen.MaxMoves]int32
	i       int
	scored  bool
	ttMove  position.Move
	ttDone  bool
	killers [2]position.Move
	hist    *History
	r       *rules.Rules
	p       *position.Position
	last    int32
}

// Moves returns the generated moves (valid until the next Generate).
func (pk *Picker) Moves() []position.Move { return pk.ml.Slice() }

// Len returns the number of moves.
func (pk *Picker) Len() int { return pk.ml.N }

// Generate fills the picker with the legal moves of p; Prepare must follow.
// Splitting the two lets the search generate while the transposition
// table's bucket is still on its way into cache.
func (pk *Picker) Generate(r *rules.Rules, p *position.Position) {
	movegen.Generate(r, p, &pk.ml)
	pk.r, pk.p = r, p
}

// Prepare sets the table move, killers and history used to order the moves.
func (pk *Picker) Prepare(ttMove position.Move, killers [2]position.Move, hist *History) {
	pk.i, pk.scored, pk.ttDone = 0, false, false
	pk.ttMove, pk.killers, pk.hist = ttMove, killers, hist
	if ttMove != position.NoMove && !pk.ml.Contains(ttMove) {
		pk.ttMove = position.NoMove // a key collision brought a foreign move
	}
}

// InitList orders an explicit list of moves (the root's) as Generate and
// Prepare would.
func (pk *Picker) InitList(r *rules.Rules, p *position.Position, moves []position.Move, ttMove position.Move, hist *History) {
	pk.ml.N = copy(pk.ml.Moves[:], moves)
	pk.r, pk.p = r, p
	pk.Prepare(ttMove, [2]position.Move{}, hist)
}

// LastScore returns the ordering score of the move Next returned last.
func (pk *Picker) LastScore() int32 { return pk.last }

// IsTactical reports whether an ordering score belongs to the table move or a
// move that closes or blocks a mill.
func IsTactical(score int32) bool { return score >= scoreBlock }

// Next returns the best remaining move, or false when none is left.
func (pk *Picker) Next() (position.Move, bool) {
	if !pk.ttDone {
		pk.ttDone = true
		if pk.ttMove != position.NoMove {
			pk.last = scoreTT
			return pk.ttMove, true
		}
	}
	if !pk.scored {
		pk.scored = true
		pk.score()
	}
	n := pk.ml.N
	for pk.i < n {
		best := pk.i
		for k := pk.i + 1; k < n; k++ {
			if pk.scores[k] > pk.scores[best] {
				best = k
			}
		}
		mv := &pk.ml.Moves
		mv[pk.i], mv[best] = mv[best], mv[pk.i]
		pk.scores[pk.i], pk.scores[best] = pk.scores[best], pk.scores[pk.i]
		m := mv[pk.i]
		pk.last = pk.scores[pk.i]
		pk.i++
		if m == pk.ttMove {
			continue
		}
		return m, true
	}
	return position.NoMove, false
}

func (pk *Picker) score() {
	if pk.ml.N == 0 {
		return
	}
	p := pk.p
	var c context
	c.init(pk.r, p)
	side := p.SideToMove()
	for k := 0; k < pk.ml.N; k++ {
		m := pk.ml.Moves[k]
		var s int32
		if m.Kind() == position.KindRemove {
			s = c.removalScore(m.To())
		} else {
			s = c.quietScore(m)
			if s < scoreBlock {
				switch {
				case m == pk.killers[0]:
					s = scoreKiller1
				case m == pk.killers[1]:
					s = scoreKiller2
				case pk.hist != nil:
					s += pk.hist.Get(side, m)
				}
			}
		}
		pk.scores[k] = s
	}
}

// context holds what scoring needs about the position, computed once per node.
type context struct {
	t        *bb.Topology
	us, them bb.Bitboard
	empty    bb.Bitboard
	fly      bool
	placing  bool
	oppReach bb.Bitboard // points an opponent piece can reach in one action
	// per point: mills we close by putting a piece there (own pieces as they
	// are), mills the opponent would close there, and the build value of
	// the lines through it.
	ourClose   [bb.NumSquares]int8
	theirClose [bb.NumSquares]int8
	build      [bb.NumSquares]int16
}

func (c *context) init(r *rules.Rules, p *position.Position) {
	side := p.SideToMove()
	*c = context{
		t:       r.Topology(),
		us:      p.Pieces(side),
		them:    p.Pieces(side ^ 1),
		empty:   p.Empty(),
		placing: p.Phase() == position.Placing,
	}
	if p.PendingRemovals(side) < 0 {
		c.us, c.them = c.them, c.us // removing own pieces: rank them as the victim's
	}
	mover, victim := side, side^1
	if p.PendingRemovals(side) < 0 {
		mover, victim = victim, mover
	}
	c.fly = p.CanFly(r, mover)
	if p.InHand(victim) > 0 || p.CanFly(r, victim) {
		c.oppReach = c.empty
	} else {
		c.oppReach = c.t.Neighbours(c.them) & c.empty
	}
	for _, l := range c.t.Lines {
		holes := l & c.empty
		if holes == 0 {
			continue
		}
		o, x := (l & c.us).Count(), (l & c.them).Count()
		switch {
		case o == 2:
			c.ourClose[holes.First()]++
		case x == 2:
			c.theirClose[holes.First()]++
		}
		if x == 0 {
			for h := holes; h != 0; {
				c.build[h.PopFirst()] += int16(60 * o)
			}
		}
	}
}

// quietScore scores a placement or slide.
func (c *context) quietScore(m position.Move) int32 {
	to := m.To()
	var s int32
	closes := int32(c.ourClose[to])
	build := int32(c.build[to])
	if m.Kind() == position.KindSlide {
		from := m.From()
		if c.t.LinesThrough[to].Has(from) {
			// Sliding along a line: the moving piece is not there to help.
			closes = int32(c.t.MillsAt(to, c.us&^bb.Bit(from)))
			build = 0
		}
	}
	if closes > 0 {
		s = scoreMill + closes<<16
	} else if c.theirClose[to] > 0 && c.oppReach.Has(to) {
		s = scoreBlock + int32(c.theirClose[to])<<16
	}
	s += build + int32(c.t.NumLines[to])*20 + int32(c.t.Degree[to])*15
	if c.placing {
		// Placing next to opponent pieces takes their room.
		s += int32((c.t.Adjacent[to] & c.them).Count()) * 10
	} else if m.Kind() == position.KindSlide && !c.fly && c.t.MillsAt(m.From(), c.them) > 0 {
		// Leaving a point where the opponent closes a mill is bad.
		s -= 400
	}
	return s
}

// removalScore scores removing the piece on sq.
func (c *context) removalScore(sq bb.Square) int32 {
	s := int32(scoreRemove)
	others := c.them &^ bb.Bit(sq)
	for k := uint8(0); k < c.t.NumLines[sq]; k++ {
		part := c.t.Partners[sq][k]
		own := (part & others).Count()
		switch {
		case own == 1 && part&c.empty != 0:
			s += 300 // breaks an opponent's two-in-a-line with an open point
		case own == 2:
			s -= 150 // a mill piece: the point can be refilled to close it again
		}
		if part&c.us != 0 && part&others == 0 {
			s += 80 * int32((part & c.us).Count()) // frees one of our lines
		}
	}
	// The opponent's mobile pieces matter most; pieces next to ours block us.
	s += int32((c.t.Adjacent[sq] & c.empty).Count()) * 40
	s += int32((c.t.Adjacent[sq] & c.us).Count()) * 30
	return s
}
