package search

import (
	"math"
	"slices"
	"strings"

	"github.com/millengine/millengine/internal/position"
)

// Levels: the engine's strength for people.
//
// A person at a given strength does not play random moves: they play moves
// that look good to them, and the weaker they are the less deep they look
// and the more often a move that looks almost as good as the best gets
// played. A level is that model turned around: the engine scores every root
// action by a search of Depth plies (no endgame tables, no book, no proof:
// a person has none), keeps the actions within Margin centipawns of the best
// (a move that looks plainly bad is never played: no blunder out of
// nowhere), and picks among them at random with a chance that falls with
// the score (a softmax of temperature Temperature centipawns). So a level
// loses games the way people do, by plausible moves whose refutation lies
// beyond its horizon, more often the weaker it is; a win it sees within its
// depth it takes.
//
// UCI_LimitStrength with UCI_Elo picks the level whose Elo is nearest, as
// in Stockfish; SkillLevel (0–30, Sanmill's option) is mapped onto the same
// scale, 30 being full strength. The Elo of each level is measured by games
// against fixed references (docs/strength.md).

// Level is one strength for people.
type Level struct {
	Name        string
	Elo         int // measured against the references (docs/strength.md)
	Depth       int // plies the level looks ahead
	Temperature int // centipawns: how widely its choice spreads
	Margin      int // centipawns: actions scored further below the best are never played
}

// Levels are the levels from the weakest; full strength is above them all.
var Levels = []Level{
	{Name: "beginner", Elo: 430, Depth: 1, Temperature: 200, Margin: 300},
	{Name: "novice", Elo: 510, Depth: 1, Temperature: 100, Margin: 200},
	{Name: "casual", Elo: 760, Depth: 2, Temperature: 80, Margin: 150},
	{Name: "club", Elo: 910, Depth: 2, Temperature: 40, Margin: 100},
	{Name: "strong club", Elo: 1080, Depth: 3, Temperature: 30, Margin: 80},
	{Name: "expert", Elo: 1200, Depth: 4, Temperature: 20, Margin: 60},
	{Name: "master", Elo: 1390, Depth: 6, Temperature: 10, Margin: 40},
}

// The bounds of UCI_Elo: from the weakest level's Elo to full strength's;
// and its default (used once UCI_LimitStrength is set). The Elo figures are
// those measured on 2026-11-28 (docs/strength.md, "Levels"): 40 games of
// each level against Sanmill C++ at depths 1–4, at 20,000 nodes a move,
// fitted with Sanmill at depth 1 anchored at 600. Full strength was
// measured there under the same limits (no tables, no book, 20,000 nodes):
// at a real time control with its tables it is far stronger.
const (
	MinElo          = 430
	FullStrengthElo = 1620
	DefaultElo      = 1080
)

// LevelOf returns the index in Levels of the level whose Elo is nearest elo,
// or −1 when elo is at or above full strength's.
func LevelOf(elo int) int {
	if elo >= FullStrengthElo {
		return -1
	}
	best := 0
	for i, l := range Levels {
		if abs(l.Elo-elo) < abs(Levels[best].Elo-elo) {
			best = i
		}
	}
	return best
}

// SkillElo maps SkillLevel (0..MaxSkillLevel) onto the Elo scale: 0 the
// weakest level, MaxSkillLevel full strength, linear between.
func SkillElo(skill int) int {
	return MinElo + (FullStrengthElo-MinElo)*skill/MaxSkillLevel
}

// LevelByName returns the index in Levels of the level named name (any
// case), or −1 for "full" (full strength), and whether the name is known.
func LevelByName(name string) (int, bool) {
	if strings.EqualFold(name, "full") {
		return -1, true
	}
	for i, l := range Levels {
		if strings.EqualFold(l.Name, name) {
			return i, true
		}
	}
	return 0, false
}

// level returns the level a search plays at, or nil for full strength:
// UCI_LimitStrength's Elo, else SkillLevel's.
func (o *Options) level() *Level {
	elo := FullStrengthElo
	switch {
	case o.LimitStrength:
		elo = o.Elo
	case o.SkillLevel < MaxSkillLevel:
		elo = SkillElo(o.SkillLevel)
	}
	if i := LevelOf(elo); i >= 0 {
		return &Levels[i]
	}
	return nil
}

// levelMove plays g's position at the level: every root action scored by a
// search of the level's depth, the one played drawn at random among those
// within the level's margin of the best, by a softmax of its temperature.
// It returns the action and its score.
func (e *Engine) levelMove(g *position.Game, moves []position.Move, l *Level) (position.Move, int, []position.Move) {
	scores := e.replyScores(g, l.Depth, moves)
	if len(scores) == 0 {
		return moves[0], 0, nil
	}
	slices.SortStableFunc(scores, func(a, b rootMove) int { return b.score - a.score })
	top := scores[0].score
	if top > ValueMateBand {
		return scores[0].move, top, scores[0].pv // a win it sees it takes
	}
	var w []float64
	sum := 0.0
	for _, rm := range scores {
		if top-rm.score > l.Margin {
			break
		}
		x := math.Exp(float64(rm.score-top) / float64(max(l.Temperature, 1)))
		w = append(w, x)
		sum += x
	}
	r := e.rng.Float64() * sum
	for i, x := range w {
		if r < x || i == len(w)-1 {
			return scores[i].move, scores[i].score, scores[i].pv
		}
		r -= x
	}
	return scores[0].move, top, scores[0].pv
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Limited reports whether the options play at a level below full strength
// (UCI_LimitStrength, or SkillLevel below its maximum).
func (o Options) Limited() bool { return o.level() != nil }
