package search

import (
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/testkit"
)

func TestLevelScale(t *testing.T) {
	for _, tc := range []struct{ elo, level int }{
		{0, 0}, {430, 0}, {470, 0}, {471, 1}, {990, 3}, {1000, 4}, {1390, 6}, {1619, 6}, {1620, -1}, {3000, -1},
	} {
		if got := LevelOf(tc.elo); got != tc.level {
			t.Errorf("LevelOf(%d) = %d, want %d", tc.elo, got, tc.level)
		}
	}
	if SkillElo(0) != MinElo || SkillElo(MaxSkillLevel) != FullStrengthElo || SkillElo(15) != 1025 {
		t.Errorf("SkillElo: 0 → %d, 15 → %d, 30 → %d", SkillElo(0), SkillElo(15), SkillElo(MaxSkillLevel))
	}
	for i := 1; i < len(Levels); i++ {
		if Levels[i].Elo <= Levels[i-1].Elo || Levels[i].Depth < Levels[i-1].Depth || Levels[i].Margin > Levels[i-1].Margin {
			t.Errorf("level %s is not stronger than %s", Levels[i].Name, Levels[i-1].Name)
		}
	}
	if i, ok := LevelByName("Club"); !ok || Levels[i].Name != "club" {
		t.Errorf("LevelByName(Club) = %d, %t", i, ok)
	}
	if i, ok := LevelByName("full"); !ok || i != -1 {
		t.Errorf("LevelByName(full) = %d, %t", i, ok)
	}
	o := DefaultOptions()
	if o.Limited() {
		t.Error("the default options are limited")
	}
	o.SkillLevel = 0
	if l := o.level(); l == nil || l.Name != "beginner" {
		t.Errorf("SkillLevel 0: level %v", l)
	}
	o.SkillLevel, o.LimitStrength, o.Elo = MaxSkillLevel, true, 1200
	if l := o.level(); l == nil || l.Name != "expert" {
		t.Errorf("UCI_Elo 1200: level %v", l)
	}
}

// A level plays only actions within its margin of the best it sees, more
// than one of them over many games, the best more often than the weakest
// does; and a win it sees it takes.
func TestLevelPlaysPlausibleMoves(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "", "d6", "d2", "f4")
	counts := func(level int) (map[position.Move]int, map[position.Move]int) {
		e := New(8)
		e.SetSeed(uint64(level))
		o := e.Options()
		o.LimitStrength, o.Elo = true, Levels[level].Elo
		e.SetOptions(o)
		scores := map[position.Move]int{}
		top := -ValueInfinite
		for _, rm := range e.replyScores(g, Levels[level].Depth, nil) {
			scores[rm.move] = rm.score
			top = max(top, rm.score)
		}
		played := map[position.Move]int{}
		for range 60 {
			var note string
			res := e.Search(g, Limits{}, func(in Info) { note = in.Note })
			played[res.BestMove]++
			if !strings.HasPrefix(note, "level "+Levels[level].Name+" (Elo ") {
				t.Fatalf("note %q", note)
			}
			if s, ok := scores[res.BestMove]; !ok || top-s > Levels[level].Margin {
				t.Fatalf("level %s played %s, scored %d, %d below the best", Levels[level].Name, res.BestMove, s, top-s)
			}
		}
		best := map[position.Move]int{}
		for m, s := range scores {
			if s == top {
				best[m] = played[m]
			}
		}
		return played, best
	}
	weak, weakBest := counts(0)
	_, strongBest := counts(len(Levels) - 1)
	sum := func(m map[position.Move]int) (n int) {
		for _, c := range m {
			n += c
		}
		return n
	}
	if len(weak) < 3 || sum(strongBest) <= sum(weakBest) {
		t.Errorf("beginner played %d actions, the best %d times; master the best %d times of 60", len(weak), sum(weakBest), sum(strongBest))
	}
	win := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30")
	for i := range Levels {
		e := New(2)
		o := e.Options()
		o.LimitStrength, o.Elo = true, Levels[i].Elo
		e.SetOptions(o)
		if res := e.Search(win, Limits{}, nil); res.BestMove.String() != "g4-g7" {
			t.Errorf("level %s missed the win: %s", Levels[i].Name, res.BestMove)
		}
	}
}
