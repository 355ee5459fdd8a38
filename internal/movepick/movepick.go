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
	scoreKiller1 = 1<<21 + 1
	scoreKiller2 = 1 << 21
)

// Picker yields the moves of one node, best first.
type Picker struct {
	moves  [movegen.MaxMoves]position.Move
	scores [movegen.MaxMoves]int32
	n, i   int
}

// Len returns the number of moves.
func (pk *Picker) Len() int { return pk.n }

// Init generates and scores the legal moves of p.
func (pk *Picker) Init(r *rules.Rules, p *position.Position, ttMove position.Move, killers [2]position.Move, hist *History) {
	pk.Generate(r, p)
	pk.Score(r, p, ttMove, killers, hist)
}

// Generate fills the picker with the legal moves of p, unscored; Score must
// follow before Next. Splitting the two lets the search generate while the
// transposition table's bucket is still on its way into cache.
func (pk *Picker) Generate(r *rules.Rules, p *position.Position) {
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	pk.n, pk.i = ml.N, 0
	copy(pk.moves[:ml.N], ml.Moves[:ml.N])
}

// Score ranks the generated moves.
func (pk *Picker) Score(r *rules.Rules, p *position.Position, ttMove position.Move, killers [2]position.Move, hist *History) {
	if pk.n <= 1 {
		return
	}
	c := newContext(r, p)
	for k := 0; k < pk.n; k++ {
		m := pk.moves[k]
		var s int32
		switch {
		case m == ttMove:
			s = scoreTT
		case m.Kind() == position.KindRemove:
			s = c.removalScore(m.To())
		default:
			s = c.quietScore(m)
			if s < scoreBlock {
				if m == killers[0] {
					s = scoreKiller1
				} else if m == killers[1] {
					s = scoreKiller2
				} else if hist != nil {
					s += hist.Get(p.SideToMove(), m)
				}
			}
		}
		pk.scores[k] = s
	}
}

// InitList scores an explicit list of moves (the root's), as Init would.
func (pk *Picker) InitList(r *rules.Rules, p *position.Position, moves []position.Move, ttMove position.Move, hist *History) {
	pk.n, pk.i = len(moves), 0
	copy(pk.moves[:], moves)
	c := newContext(r, p)
	for k := 0; k < pk.n; k++ {
		m := pk.moves[k]
		switch {
		case m == ttMove:
			pk.scores[k] = scoreTT
		case m.Kind() == position.KindRemove:
			pk.scores[k] = c.removalScore(m.To())
		default:
			pk.scores[k] = c.quietScore(m)
			if hist != nil && pk.scores[k] < scoreBlock {
				pk.scores[k] += hist.Get(p.SideToMove(), m)
			}
		}
	}
}

// Next returns the best remaining move, or false when none is left.
func (pk *Picker) Next() (position.Move, bool) {
	if pk.i >= pk.n {
		return position.NoMove, false
	}
	best := pk.i
	for k := pk.i + 1; k < pk.n; k++ {
		if pk.scores[k] > pk.scores[best] {
			best = k
		}
	}
	pk.moves[pk.i], pk.moves[best] = pk.moves[best], pk.moves[pk.i]
	pk.scores[pk.i], pk.scores[best] = pk.scores[best], pk.scores[pk.i]
	m := pk.moves[pk.i]
	pk.i++
	return m, true
}

// IsMillMove reports whether the picker scored the last returned move as
// closing a mill (used by the search to avoid reducing it).
func (pk *Picker) LastScore() int32 {
	if pk.i == 0 {
		return 0
	}
	return pk.scores[pk.i-1]
}

// IsTactical reports whether a score from LastScore belongs to a move that
// closes or blocks a mill.
func IsTactical(score int32) bool { return score >= scoreBlock && score < scoreTT }

// context holds what scoring needs about the position.
type context struct {
	t        *bb.Topology
	us, them bb.Bitboard
	empty    bb.Bitboard
	fly      bool // the side to move flies
	oppFly   bool // the opponent flies
	placing  bool
	oppReach bb.Bitboard // points an opponent piece can reach in one action
}

func newContext(r *rules.Rules, p *position.Position) context {
	side := p.SideToMove()
	c := context{
		t:       r.Topology(),
		us:      p.Pieces(side),
		them:    p.Pieces(side ^ 1),
		empty:   p.Empty(),
		placing: p.Phase() == position.Placing,
	}
	c.fly = r.MayFly && p.InHand(side) == 0 && c.us.Count() <= r.FlyPieceCount
	c.oppFly = r.MayFly && p.InHand(side^1) == 0 && c.them.Count() <= r.FlyPieceCount
	if p.InHand(side^1) > 0 || c.oppFly {
		c.oppReach = c.empty
	} else {
		c.oppReach = c.t.Neighbours(c.them) & c.empty
	}
	return c
}

// quietScore scores a placement or slide.
func (c *context) quietScore(m position.Move) int32 {
	to := m.To()
	own := c.us
	if m.Kind() == position.KindSlide {
		own &^= bb.Bit(m.From())
	}
	var s int32
	if n := c.t.MillsAt(to, own); n > 0 {
		s = scoreMill + int32(n)<<16
	}
	// Stopping the opponent: lines through 'to' where the opponent has the
	// other two points and can reach 'to'.
	if c.oppReach.Has(to) {
		if n := c.t.MillsAt(to, c.them); n > 0 && s == 0 {
			s = scoreBlock + int32(n)<<16
		}
	}
	// Lines we build: two of ours with the third empty after the move.
	own |= bb.Bit(to)
	for k := uint8(0); k < c.t.NumLines[to]; k++ {
		part := c.t.Partners[to][k]
		if part&c.them == 0 {
			s += int32((part & own).Count()) * 60
		}
	}
	// Value of the point: lines and neighbours.
	s += int32(c.t.NumLines[to])*20 + int32(c.t.Degree[to])*15
	if c.placing {
		// Placing next to opponent pieces takes their room.
		s += int32((c.t.Adjacent[to] & c.them).Count()) * 10
	}
	if m.Kind() == position.KindSlide && !c.fly {
		// Leaving a point the opponent can take to close a mill is bad.
		from := m.From()
		if c.oppReach.Has(from) || c.t.Adjacent[from]&c.them != 0 {
			if c.t.MillsAt(from, c.them) > 0 {
				s -= 400
			}
		}
	}
	return s
}

// removalScore scores removing the opponent piece on sq.
func (c *context) removalScore(sq bb.Square) int32 {
	var s int32 = 1 << 20
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
	// The opponent's mobile pieces matter most.
	s += int32((c.t.Adjacent[sq] & c.empty).Count()) * 40
	// Pieces next to ours block us.
	s += int32((c.t.Adjacent[sq] & c.us).Count()) * 30
	return s
}
