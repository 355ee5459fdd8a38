// Package eval scores a position from the side to move's view: material on
// board and in hand, pending removals, mobility, open two-in-a-line mills,
// double-mill setups ("running mills"), blocked pieces, with weights per phase
// (placing, moving, flying). 100 is one piece.
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

// Weights are the evaluation weights of one stage.
type Weights struct {
	Piece        int // a piece on the board or in hand
	Pending      int // a removal the side still has to make
	Mobility     int // per legal slide
	OpenTwo      int // a line with two own pieces and the third point empty
	ReachTwo     int // an open two whose empty point an own piece can reach
	RunningMill  int // a mill with a piece that can slide into another mill and back
	Blocked      int // an own piece with no empty neighbour (negative)
	Point        int // per line and neighbour of the points held (placing)
	DoubleThreat int // two or more reachable open twos: hard to stop
}

// Params are the weights of the three stages.
type Params struct {
	W [3]Weights
}

// DefaultParams are the tuned weights.
var DefaultParams = Params{W: [3]Weights{
	StagePlacing: {Piece: 100, Pending: 90, Mobility: 2, OpenTwo: 14, ReachTwo: 6, RunningMill: 20, Blocked: -4, Point: 2, DoubleThreat: 20},
	StageMoving:  {Piece: 100, Pending: 90, Mobility: 5, OpenTwo: 8, ReachTwo: 14, RunningMill: 60, Blocked: -6, Point: 0, DoubleThreat: 30},
	StageFlying:  {Piece: 100, Pending: 90, Mobility: 0, OpenTwo: 10, ReachTwo: 20, RunningMill: 0, Blocked: 0, Point: 0, DoubleThreat: 60},
}}

// Term is one part of the evaluation, from each side's own view.
type Term struct {
	Name  string
	White int
	Black int
}

// features are the raw counts of one side.
type features struct {
	pieces, pending                               int
	mobility, openTwo, reachTwo, running, blocked int
	points                                        int
}

func stageOf(r *rules.Rules, p *position.Position, c position.Color) Stage {
	if p.InHand(c) > 0 {
		return StagePlacing
	}
	if r.MayFly && p.OnBoard(c) <= r.FlyPieceCount {
		return StageFlying
	}
	return StageMoving
}

func collect(r *rules.Rules, p *position.Position, c position.Color) features {
	t := r.Topology()
	own, opp := p.Pieces(c), p.Pieces(c^1)
	empty := p.Empty()
	f := features{pieces: p.OnBoard(c) + p.InHand(c)}
	if pr := p.PendingRemovals(c); pr > 0 {
		f.pending = pr
	}
	placing := p.InHand(c) > 0
	flying := !placing && r.MayFly && own.Count() <= r.FlyPieceCount
	reach := empty
	if !placing && !flying {
		reach = t.Neighbours(own) & empty
	}
	for b := own; b != 0; {
		s := b.PopFirst()
		free := (t.Adjacent[s] & empty).Count()
		f.mobility += free
		if free == 0 {
			f.blocked++
		}
		f.points += int(t.NumLines[s]) + int(t.Degree[s])
	}
	for _, l := range t.Lines {
		if l&opp != 0 {
			continue
		}
		o := l & own
		if o.Count() == 2 {
			f.openTwo++
			hole := (l &^ own).First()
			if reach.Has(hole) {
				// In the moving phase the piece that fills the hole must not
				// itself belong to the line.
				if placing || flying || t.Adjacent[hole]&own&^l != 0 {
					f.reachTwo++
				}
			}
		} else if o.Count() == 3 && !placing && !flying {
			// A running mill: a piece of the mill slides to an empty
			// neighbour and closes another mill there.
			for m := o; m != 0; {
				s := m.PopFirst()
				for n := t.Adjacent[s] & empty; n != 0; {
					if t.MillsAt(n.PopFirst(), own&^bb.Bit(s)) > 0 {
						f.running++
						n = 0
						m = 0
					}
				}
			}
		}
	}
	return f
}

func score(w *Weights, f *features) int {
	v := w.Piece*f.pieces + w.Pending*f.pending + w.Mobility*f.mobility +
		w.OpenTwo*f.openTwo + w.ReachTwo*f.reachTwo + w.RunningMill*f.running +
		w.Blocked*f.blocked + w.Point*f.points
	if f.reachTwo >= 2 {
		v += w.DoubleThreat
	}
	return v
}

// Evaluate returns the static score of p for the side to move (100 = a piece).
func Evaluate(r *rules.Rules, p *position.Position) int {
	return EvaluateWith(&DefaultParams, r, p)
}

// EvaluateWith evaluates with the given weights.
func EvaluateWith(prm *Params, r *rules.Rules, p *position.Position) int {
	fw := collect(r, p, position.White)
	fb := collect(r, p, position.Black)
	v := score(&prm.W[stageOf(r, p, position.White)], &fw) - score(&prm.W[stageOf(r, p, position.Black)], &fb)
	if p.SideToMove() == position.Black {
		v = -v
	}
	return v
}

// Trace returns the terms of the evaluation, each from its own side's view
// with the weights applied, and the total from the side to move's view.
func Trace(r *rules.Rules, p *position.Position) ([]Term, int) {
	prm := &DefaultParams
	f := [2]features{collect(r, p, position.White), collect(r, p, position.Black)}
	w := [2]*Weights{&prm.W[stageOf(r, p, position.White)], &prm.W[stageOf(r, p, position.Black)]}
	term := func(name string, g func(w *Weights, f *features) int) Term {
		return Term{Name: name, White: g(w[0], &f[0]), Black: g(w[1], &f[1])}
	}
	terms := []Term{
		term("material", func(w *Weights, f *features) int { return w.Piece * f.pieces }),
		term("pending removals", func(w *Weights, f *features) int { return w.Pending * f.pending }),
		term("mobility", func(w *Weights, f *features) int { return w.Mobility * f.mobility }),
		term("open twos", func(w *Weights, f *features) int { return w.OpenTwo * f.openTwo }),
		term("reachable twos", func(w *Weights, f *features) int { return w.ReachTwo * f.reachTwo }),
		term("running mills", func(w *Weights, f *features) int { return w.RunningMill * f.running }),
		term("blocked pieces", func(w *Weights, f *features) int { return w.Blocked * f.blocked }),
		term("points", func(w *Weights, f *features) int { return w.Point * f.points }),
		term("double threats", func(w *Weights, f *features) int {
			if f.reachTwo >= 2 {
				return w.DoubleThreat
			}
			return 0
		}),
	}
	return terms, Evaluate(r, p)
}
