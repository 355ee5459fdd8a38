// Package eval scores a position from the side to move's view: material on
// board and in hand, pending removals, mobility, open two-in-a-line mills,
// double-mill setups ("running mills"), blocked pieces and the blockade
// features (private exits, groups down to their last exit, a cramped side),
// with weights per phase (placing, moving, flying). 100 is one piece.
package eval

import (
	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Stage selects a weight set.
type Stage int

// Stages of the game for one side.
const (
	StagePlacing Stage = iota // the side still has pieces in hand
	StageMoving               // the side slides
	StageFlying               // the side flies
)

// Feature is one term of the evaluation: a count of each side, weighted per
// stage. Features is the one table of them that the evaluation (score), its
// trace (the eval command) and the tuner (milltune) all read.
type Feature int

// The features.
const (
	Piece        Feature = iota // a piece on the board or in hand
	Pending                     // a removal the side still has to make
	Mobility                    // per legal slide
	OpenTwo                     // a line with two own pieces and the third point empty
	ReachTwo                    // an open two whose empty point an own piece can reach
	RunningMill                 // a mill with a piece that can slide into another mill and back
	Blocked                     // an own piece with no empty neighbour (negative)
	Point                       // per line and neighbour of the points held (placing)
	DoubleThreat                // two or more reachable open twos: hard to stop (1 or 0)
	// The blockade features: a side that cannot slide when it has to loses
	// (under the standard rules), and in the placing phase the opponent's
	// remaining pieces can close the exits one by one.
	Private  // an empty point only this side's pieces are next to: an exit the opponent cannot slide into
	LastExit // a piece whose group (own pieces linked by adjacency) has a single empty neighbour left (negative)
	Cramped  // per step of the cramp scale: crampScale[exits] for a side with few empty points to slide to (negative)
	NumFeatures
)

// FeatureInfo describes a feature: the name of its weight (milltune's
// stage.Name), the term's name in the eval command's trace, and the step by
// which SPSA perturbs its weight (0: never tuned).
type FeatureInfo struct {
	Name  string
	Trace string
	SPSA  float64
}

// Features is the table of the features, in the order of Feature.
var Features = [NumFeatures]FeatureInfo{
	Piece:        {"Piece", "material", 0}, // the unit: never tuned
	Pending:      {"Pending", "pending removals", 10},
	Mobility:     {"Mobility", "mobility", 1.5},
	OpenTwo:      {"OpenTwo", "open twos", 4},
	ReachTwo:     {"ReachTwo", "reachable twos", 4},
	RunningMill:  {"RunningMill", "running mills", 8},
	Blocked:      {"Blocked", "blocked pieces", 2},
	Point:        {"Point", "points", 1},
	DoubleThreat: {"DoubleThreat", "double threats", 8},
	Private:      {"Private", "private exits", 2},
	LastExit:     {"LastExit", "last exits", 3},
	Cramped:      {"Cramped", "cramped", 5},
}

// Weights are the evaluation weights of one stage, by feature.
type Weights [NumFeatures]int

// crampScale grows as the number of distinct empty points a side's pieces
// are next to (its exits) falls: a side with three or more is not cramped,
// one with none is blocked wherever it stands.
var crampScale = [...]int{9, 4, 1}

// cramp returns the cramp scale of a side with n exits.
func cramp(n int) int {
	if n < len(crampScale) {
		return crampScale[n]
	}
	return 0
}

// Params are the weights of the three stages.
type Params struct {
	W [3]Weights
}

// DefaultParams are the tuned weights.
var DefaultParams = Params{W: [3]Weights{
	StagePlacing: {Piece: 100, Pending: 117, Mobility: 17, OpenTwo: -5, ReachTwo: -6, RunningMill: 20, Blocked: -11, Point: -3, DoubleThreat: 20,
		Private: 6, LastExit: -6, Cramped: -15},
	StageMoving: {Piece: 100, Pending: 76, Mobility: 6, OpenTwo: 12, ReachTwo: 28, RunningMill: 29, Blocked: -12, Point: -2, DoubleThreat: 21,
		Private: 2, LastExit: -10, Cramped: -19},
	StageFlying: {Piece: 100, Pending: 74, Mobility: 2, OpenTwo: 4, ReachTwo: 25, RunningMill: 0, Blocked: 0, Point: -2, DoubleThreat: 48},
}}

// Term is one part of the evaluation, from each side's own view.
type Term struct {
	Name  string
	White int
	Black int
}

// features are the raw counts of one side, by feature.
type features [NumFeatures]int

// collectBoth gathers the features of both sides in one pass over the pieces
// and one over the lines, and returns each side's stage (its weight set).
func collectBoth(r *rules.Rules, p *position.Position, f *[2]features) (stages [2]Stage) {
	t := r.Topology()
	empty := p.Empty()
	var own [2]bb.Bitboard
	var reach [2]bb.Bitboard
	var nbs [2]bb.Bitboard                       // the points next to each side's pieces
	var slides [2]bool                           // the side moves by sliding (not placing, not flying)
	nearEmpty, nearTwo, _ := t.NearCounts(empty) // the points with one, two empty neighbours
	for c := position.Color(0); c < 2; c++ {
		o := p.Pieces(c)
		own[c] = o
		fc := &f[c]
		hand := p.InHand(c)
		fc[Piece] = p.OnBoard(c) + hand
		if pr := p.PendingRemovals(c); pr > 0 {
			fc[Pending] = pr
		}
		switch {
		case hand > 0:
			stages[c] = StagePlacing
		case p.CanFly(r, c):
			stages[c] = StageFlying
		default:
			stages[c] = StageMoving
			slides[c] = true
		}
		// Per piece: its empty neighbours, whether it has none, its lines
		// and neighbours; summed over the set at once.
		fc[Mobility] = t.Links(o, empty)
		fc[Blocked] = (o &^ nearEmpty).Count()
		fc[Point] = t.PointSum(o)
		nb := t.Neighbours(o)
		nbs[c] = nb
		if slides[c] {
			reach[c] = nb & empty
		} else {
			reach[c] = empty
		}
	}
	for c := position.Color(0); c < 2; c++ {
		if stages[c] == StageFlying {
			continue // a flying side cannot be blockaded
		}
		fc := &f[c]
		exits := nbs[c] & empty
		fc[Private] = (exits &^ nbs[c^1]).Count()
		// While placing, each piece in hand can still open exits.
		fc[Cramped] = cramp(exits.Count() + p.InHand(c))
		fc[LastExit] = lastExitPieces(t, own[c], empty, nearEmpty, nearTwo)
	}
	lineFeatures(t, own, reach, slides, empty, f)
	if f[0][ReachTwo] >= 2 {
		f[0][DoubleThreat] = 1
	}
	if f[1][ReachTwo] >= 2 {
		f[1][DoubleThreat] = 1
	}
	return stages
}

// lineFeatures adds up the features of the lines that hold pieces of one
// side only: OpenTwo for two of its pieces, ReachTwo when its pieces can
// reach the third point (a sliding side with a piece next to it from
// outside the line), RunningMill for a mill of a sliding side that one of
// its pieces can open and close again. The lines are taken all at once by
// their middle points (bb.RingMiddles, Topology.CrossMiddles), each part
// of a line a shift of the set: the holes of the open twos come out as
// sets, and a piece next to a hole from outside the line is one more
// neighbour than the line's own (NearCounts).
func lineFeatures(t *bb.Topology, own, reach [2]bb.Bitboard, slides [2]bool, empty bb.Bitboard, f *[2]features) {
	crossMid := t.CrossMiddles()
	for c := range 2 {
		o, x := own[c], own[c^1]
		// Ring sides by their middles m: m, m-1 and m+1 held.
		at, prev, next := o, bb.RingNext(o), bb.RingPrev(o)
		free := bb.RingMiddles &^ (x | bb.RingNext(x) | bb.RingPrev(x))
		rMid := free &^ at & prev & next  // the hole is m
		rPrev := free & at &^ prev & next // m-1
		rNext := free & at & prev &^ next // m+1
		rFull := free & at & prev & next
		// Lines across by their middles q: q, q-8 and q+8 held.
		below, above := o<<8, o>>8
		cfree := crossMid &^ (x | x<<8 | x>>8)
		cMid := cfree &^ at & below & above
		cBelow := cfree & at &^ below & above
		cAbove := cfree & at & below &^ above
		cFull := cfree & at & below & above
		fc := &f[c]
		twos := (rMid | rPrev | rNext).Count() + (cMid | cBelow | cAbove).Count()
		fc[OpenTwo] += twos
		// The holes: a middle has two of the line's pieces next to it,
		// an end one.
		endPrev, endNext, endBelow, endAbove := bb.RingPrev(rPrev), bb.RingNext(rNext), cBelow>>8, cAbove<<8
		r := reach[c]
		if slides[c] {
			_, two, three := t.NearCounts(o)
			r3, r2 := r&three, r&two
			fc[ReachTwo] += (rMid & r3).Count() + (cMid & r3).Count() +
				(endPrev & r2).Count() + (endNext & r2).Count() + (endBelow & r2).Count() + (endAbove & r2).Count()
			for m := rFull; m != 0; {
				b := bb.Bit(m.PopFirst())
				if runningMill(t, b|bb.RingNext(b)|bb.RingPrev(b), o, empty) {
					fc[RunningMill]++
				}
			}
			for q := cFull; q != 0; {
				b := bb.Bit(q.PopFirst())
				if runningMill(t, b|b<<8|b>>8, o, empty) {
					fc[RunningMill]++
				}
			}
		} else if holes := rMid | cMid | endPrev | endNext | endBelow | endAbove; holes&^r == 0 {
			// Every hole is reachable (none is a marked point): one a line.
			fc[ReachTwo] += twos
		} else {
			fc[ReachTwo] += (rMid & r).Count() + (cMid & r).Count() +
				(endPrev & r).Count() + (endNext & r).Count() + (endBelow & r).Count() + (endAbove & r).Count()
		}
	}
}

// lastExitPieces counts the pieces of own whose group (own pieces linked
// by adjacency) has exactly one empty neighbour: one opposing piece there
// blocks the whole group. Such a group holds only pieces with at most one
// empty neighbour (not in nearTwo, the points with two or more), so the
// groups are grown among those candidates alone: a group that reaches a
// piece with more exits is dropped whole first, a candidate standing alone
// counts when it has its one exit (in near, the points next to an empty
// one), and only what is left is grown group by group. It is the costliest
// part of the evaluation on a crowded board.
func lastExitPieces(t *bb.Topology, own, empty, near, nearTwo bb.Bitboard) int {
	cand := own &^ nearTwo
	if cand == 0 {
		return 0
	}
	drop := cand & t.Neighbours(own&^cand)
	for grow := drop; grow != 0; {
		grow = t.Neighbours(grow) & cand &^ drop
		drop |= grow
	}
	cand &^= drop
	alone := cand &^ t.Neighbours(cand)
	n := (alone & near).Count()
	cand &^= alone
	for cand != 0 {
		group := bb.Bit(cand.First())
		for grow := group; grow != 0; {
			grow = t.Neighbours(grow) & cand &^ group
			group |= grow
		}
		cand &^= group
		if (t.Neighbours(group) & empty).Count() == 1 {
			n += group.Count()
		}
	}
	return n
}

// runningMill reports whether a piece of the complete mill m can slide to an
// empty neighbour and close another mill there.
func runningMill(t *bb.Topology, m, own, empty bb.Bitboard) bool {
	for b := m; b != 0; {
		s := b.PopFirst()
		rest := own &^ bb.Bit(s)
		for n := t.Adjacent[s] & empty; n != 0; {
			if t.MillsAt(n.PopFirst(), rest) > 0 {
				return true
			}
		}
	}
	return false
}

// score is the weighted sum of a side's features: a dot product, written
// out (a loop cost 2 % of the engine's instructions; the order of the terms
// is that of the table Features).
func score(w *Weights, f *features) int {
	return w[0]*f[0] + w[1]*f[1] + w[2]*f[2] + w[3]*f[3] + w[4]*f[4] + w[5]*f[5] +
		w[6]*f[6] + w[7]*f[7] + w[8]*f[8] + w[9]*f[9] + w[10]*f[10] + w[11]*f[11]
}

// The dot product above has a term per feature.
var _ [NumFeatures - 12]struct{}
var _ [12 - NumFeatures]struct{}

// Evaluate returns the static score of p for the side to move (100 = a piece).
func Evaluate(r *rules.Rules, p *position.Position) int {
	return EvaluateWith(&DefaultParams, r, p)
}

// EvaluateWith evaluates with the given weights.
func EvaluateWith(prm *Params, r *rules.Rules, p *position.Position) int {
	var f [2]features
	st := collectBoth(r, p, &f)
	v := score(&prm.W[st[0]], &f[0]) - score(&prm.W[st[1]], &f[1])
	if p.SideToMove() == position.Black {
		v = -v
	}
	return v
}

// Trace returns the terms of the evaluation, each from its own side's view
// with the weights applied (one per feature of the table Features), and the
// total from the side to move's view.
func Trace(r *rules.Rules, p *position.Position) ([]Term, int) {
	prm := &DefaultParams
	var f [2]features
	st := collectBoth(r, p, &f)
	w := [2]*Weights{&prm.W[st[0]], &prm.W[st[1]]}
	terms := make([]Term, NumFeatures)
	for i := range terms {
		terms[i] = Term{Name: Features[i].Trace, White: w[0][i] * f[0][i], Black: w[1][i] * f[1][i]}
	}
	return terms, Evaluate(r, p)
}
