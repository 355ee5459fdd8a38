// Package review grades the moves of a game the way people ask engine
// authors to: which move was the mistake, what was best, was it still a
// draw. Every position of the game is searched once by the engine; a move is
// graded by how much it lost — exactly, where the endgame tables or a proof
// know the value before and after it (a move from a draw to a loss is a
// blunder whatever the scores say), else by the drop of the engine's
// expected score — and each side gets an accuracy, its counts of
// inaccuracies, mistakes and blunders, and the first move that changed the
// game's exact value.
package review

import (
	"context"
	"fmt"
	"math"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// Grade says how good a move was.
type Grade int8

// Grades, best first.
const (
	Best       Grade = iota // the engine's choice, or a move that keeps the exact value and loses nothing
	Good                    // loses less than an inaccuracy
	Inaccuracy              // loses 10 % of the expected score or more
	Mistake                 // 20 % or more
	Blunder                 // 30 % or more, or changes the exact value for the worse
)

var gradeNames = [...]string{"best", "good", "inaccuracy", "mistake", "blunder"}

// String names the grade.
func (g Grade) String() string { return gradeNames[g] }

// NAG is the grade's PGN annotation glyph: 0 (none) for best and good, 6 (?!)
// for an inaccuracy, 2 (?) for a mistake, 4 (??) for a blunder.
func (g Grade) NAG() int {
	switch g {
	case Inaccuracy:
		return 6
	case Mistake:
		return 2
	case Blunder:
		return 4
	}
	return 0
}

// Value is a position's exact value for a side, where it is known.
type Value int8

// Values.
const (
	Unknown Value = iota
	Won
	Drawn
	Lost
)

var valueNames = [...]string{"unknown", "win", "draw", "loss"}

// String names the value.
func (v Value) String() string { return valueNames[v] }

// worse reports whether v is worse than w for the same side (both known).
func (v Value) worse(w Value) bool { return v != Unknown && w != Unknown && v > w }

// Move is one graded action of a game.
type Move struct {
	Ply    int            // index of the action among the game's engine moves
	Mover  position.Color // who played it
	Played position.Move
	Best   position.Move // the engine's choice in the position before it
	// Before and After are the engine's scores (centipawns, mate and table
	// scores as the search gives them) of the position before the move and
	// after it, both from the mover's view.
	Before, After int
	// Was and Is are the exact values for the mover before and after the
	// move, where the tables or a proof know them.
	Was, Is Value
	Grade   Grade
	Loss    float64 // expected score lost, 0–1 (0 for a move that keeps an exact value)
}

// Summary is one side's account of a game.
type Summary struct {
	Moves                            int
	Accuracy                         float64 // 0–100, the mean of the moves' accuracies
	Inaccuracies, Mistakes, Blunders int
	FirstChange                      *Move // the first of its moves that changed the exact value, nil if none
}

// Options say how to search each position.
type Options struct {
	Limits   search.Limits // per position: a move time or a depth
	Tables   *egtb.Tables  // for the exact values; nil: scores only
	Progress func(done, total int)
}

// Analyse grades every action of the game g (its start position and moves)
// with the engine e. It returns the graded moves and each side's summary
// (White first). It stops between searches when ctx ends.
func Analyse(ctx context.Context, e *search.Engine, g *position.Game, o Options) ([]Move, [2]Summary, error) {
	n := len(g.Moves)
	// The position before each move and after the last, with the game's
	// history: scores and exact values, each from its side to move's view.
	type eval struct {
		best  position.Move
		score int
		exact Value
		side  position.Color
		over  bool
	}
	evals := make([]eval, n+1)
	h := position.NewGame(g.Rules, g.Start)
	e.NewGame()
	for i := 0; i <= n; i++ {
		if ctx.Err() != nil {
			return nil, [2]Summary{}, ctx.Err()
		}
		ev := eval{side: h.Pos.SideToMove(), over: h.Pos.IsOver()}
		if ev.over {
			switch res, _ := h.Pos.Result(); res {
			case position.Draw:
				ev.exact, ev.score = Drawn, search.ValueDraw
			case position.Winner(ev.side):
				ev.exact, ev.score = Won, search.ValueMate
			default:
				ev.exact, ev.score = Lost, -search.ValueMate
			}
		} else {
			res := e.Search(h, o.Limits, nil)
			ev.best, ev.score = res.BestMove, res.Score
			ev.exact = fromOutcome(res.Outcome)
			if ev.exact == Unknown && o.Tables != nil {
				if en, ok := o.Tables.Lookup(&h.Rules, &h.Pos); ok {
					ev.exact = fromOutcome(search.TableOutcome(en.Value))
				}
			}
		}
		evals[i] = ev
		if o.Progress != nil {
			o.Progress(i+1, n+1)
		}
		if i < n {
			h.Play(g.Moves[i])
		}
	}
	out := make([]Move, n)
	var sums [2]Summary
	var acc [2]float64
	for i := 0; i < n; i++ {
		b, a := evals[i], evals[i+1]
		m := Move{Ply: i, Mover: b.side, Played: g.Moves[i], Best: b.best, Before: b.score, Was: b.exact}
		m.After, m.Is = a.score, a.exact
		if a.side != b.side {
			m.After, m.Is = -a.score, flip(a.exact)
		}
		m.Loss = math.Max(0, expected(m.Before)-expected(m.After))
		switch {
		case m.Is.worse(m.Was):
			m.Grade = Blunder
		case m.Was != Unknown && m.Is == m.Was:
			m.Loss = 0
			m.Grade = Good
			if m.Played == m.Best {
				m.Grade = Best
			}
		case m.Played == m.Best:
			m.Grade, m.Loss = Best, 0
		default:
			m.Grade = gradeOf(m.Loss)
		}
		out[i] = m
		s := &sums[m.Mover]
		s.Moves++
		acc[m.Mover] += accuracy(m.Loss)
		switch m.Grade {
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
		if s.FirstChange == nil && m.Is.worse(m.Was) {
			s.FirstChange = &out[i]
		}
	}
	for c := range sums {
		if sums[c].Moves > 0 {
			sums[c].Accuracy = acc[c] / float64(sums[c].Moves)
		}
	}
	return out, sums, nil
}

func fromOutcome(o search.Outcome) Value {
	switch o {
	case search.OutcomeWin:
		return Won
	case search.OutcomeDraw:
		return Drawn
	case search.OutcomeLoss:
		return Lost
	}
	return Unknown
}

// flip turns a value to the other side's view.
func flip(v Value) Value {
	switch v {
	case Won:
		return Lost
	case Lost:
		return Won
	}
	return v
}

// expected is the expected score (0–1) of a search score for its side:
// win + draw/2 by search.WDL.
func expected(score int) float64 {
	w, d, _ := search.WDL(score)
	return (float64(w) + float64(d)/2) / 1000
}

// gradeOf grades an expected-score loss.
func gradeOf(loss float64) Grade {
	switch {
	case loss >= 0.3:
		return Blunder
	case loss >= 0.2:
		return Mistake
	case loss >= 0.1:
		return Inaccuracy
	}
	return Good
}

// accuracy is a move's accuracy in per cent from the expected score it
// lost, in the shape lichess uses (100 for no loss, falling off
// exponentially with the loss in per cent).
func accuracy(loss float64) float64 {
	a := 103.1668*math.Exp(-0.04354*loss*100) - 3.1669
	return math.Min(100, math.Max(0, a))
}

// String is the summary in one line: "accuracy 87.5 %, inaccuracies 2,
// mistakes 1, blunders 0; the value changed at ply 37, d6-d5 (draw → loss)".
func (s Summary) String() string {
	line := fmt.Sprintf("accuracy %.1f %%, inaccuracies %d, mistakes %d, blunders %d", s.Accuracy, s.Inaccuracies, s.Mistakes, s.Blunders)
	if s.FirstChange != nil {
		m := s.FirstChange
		line += fmt.Sprintf("; the value changed at ply %d, %s (%s → %s)", m.Ply+1, m.Played, m.Was, m.Is)
	}
	return line
}
