package egtb

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// find returns the ranked action with token tok.
func find(t *testing.T, acts []RootAction, tok string) RootAction {
	t.Helper()
	for _, a := range acts {
		if a.Move.String() == tok {
			return a
		}
	}
	t.Fatalf("no action %s", tok)
	return RootAction{}
}

// The policy decides with the game's history: the move that repeats a
// position a third time is the draw it is, not the win the tables give the
// position it reaches, and it saves a lost game.
func TestRankRootRepetition(t *testing.T) {
	tb := sharedTables(t)
	g := testkit.Game(t, rules.Default(), "*O**@***/O*@****@/*****O** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1",
		"a1-d5", "d3-e4", "d5-a1", "e4-d3", "a1-d5", "d3-e4", "d5-a1", "e4-d3")
	acts, ok := tb.RankRoot(g)
	if !ok {
		t.Fatal("not ranked")
	}
	if a := find(t, acts, "a1-d5"); a.Class != DrawNow || a.Rule != position.ThreefoldRepetition || !a.Entry.Value.IsDraw() || a.Best {
		t.Errorf("a1-d5: %+v, want the repetition's draw", a)
	}
	if acts[0].Move.String() != "e5-a7" || acts[0].Entry.Value != Win(3) || !acts[1].Best || acts[1].Move.String() != "e5-d7" || acts[2].Best {
		t.Errorf("best %v %v %v", acts[0], acts[1], acts[2])
	}
	// Without the history a1-d5 is the table's win in 2.
	r := rules.Default()
	fresh := position.NewGame(r, g.Pos)
	acts, _ = tb.RankRoot(fresh)
	if acts[0].Move.String() != "a1-d5" || acts[0].Entry.Value != Win(2) || acts[0].Class != WinFits {
		t.Errorf("without history: %v", acts[0])
	}

	g = testkit.Game(t, rules.Default(), "**O@***O/*O******/*@@***** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1",
		"f6-f4", "e3-d5", "f4-f6", "d5-e3", "f6-f4", "e3-d5", "f4-f6", "d5-e3")
	acts, _ = tb.RankRoot(g)
	if acts[0].Move.String() != "f6-f4" || acts[0].Class != DrawNow || !acts[0].Best || acts[1].Best {
		t.Errorf("lost position: %v, %v", acts[0], acts[1])
	}
	if a := find(t, acts, "f6-g1"); a.Entry.Value != Loss(8) || a.Class != LossCertain {
		t.Errorf("f6-g1: %v", a)
	}
}

// A win counts only while its next removal comes before the N-move counter
// runs out: with 96 of 100 plies gone, a win whose removal is 3 turns away
// is kept above the draws but below the wins that remove in 2.
func TestRankRootNMoveRule(t *testing.T) {
	tb := sharedTables(t)
	fen := "*O**@***/O*@****@/*****O** w m s 3 0 3 0 0 0 0 0 0 0 0 96 1"
	g := testkit.Game(t, rules.Default(), fen)
	acts, ok := tb.RankRoot(g)
	if !ok {
		t.Fatal("not ranked")
	}
	budget := 4
	fits, long := 0, 0
	for i, a := range acts {
		z := a.Entry.DTZ.Distance()
		switch {
		case a.Entry.Value.IsWin() && 2*z-1 < budget:
			fits++
			if a.Class != WinFits {
				t.Errorf("%v: a win in %d to a removal fits %d plies", a, z, budget)
			}
		case a.Entry.Value.IsWin():
			long++
			if a.Class != WinTooLong {
				t.Errorf("%v: a win in %d to a removal does not fit %d plies", a, z, budget)
			}
		}
		if i > 0 && acts[i-1].Class > a.Class {
			t.Errorf("%v ranked after %v", a, acts[i-1])
		}
	}
	if fits == 0 || long == 0 {
		t.Fatalf("fitting wins %d, too long %d: the test needs both", fits, long)
	}
	t.Logf("%d wins fit, %d do not", fits, long)
}

// Among drawn actions the one that leaves the opponent the fewest drawing
// replies comes first; the counts are the opponent's actions of each value,
// checked one by one with ActionValue.
func TestRankRootDrawingReplies(t *testing.T) {
	// Without flying, three against three is mostly drawn.
	params := Params{MinPieces: 3}
	tb := sharedTablesFor(t, params)
	r := params.Rules()
	rng := rand.New(rand.NewPCG(21, 22))
	checked := 0
	for tries := 0; tries < 3000 && checked < 30; tries++ {
		m, o := randomPosition(rng, 3, 3)
		p := testkit.Position(t, &r, string(appendFEN(nil, m, o)))
		if p.IsOver() {
			continue
		}
		if v, ok := tb.Probe(&r, &p); !ok || !v.IsDraw() {
			continue
		}
		acts, ok := tb.RankRoot(position.NewGame(r, p))
		if !ok || acts[0].Class != DrawPlays {
			t.Fatalf("%s: %v", p.FEN(), acts)
		}
		checked++
		for i, a := range acts {
			if a.Class != DrawPlays {
				break
			}
			c := p
			c.Do(&r, a.Move)
			if c.SideToMove() == p.SideToMove() {
				continue // a mill: counted after the removal
			}
			draws, losses := 0, 0
			var ml movegen.MoveList
			movegen.Generate(&r, &c, &ml)
			for _, rep := range ml.Slice() {
				v, ok := tb.ActionValue(&r, &c, rep)
				switch {
				case !ok:
					t.Fatalf("%s %s %s: unknown", p.FEN(), a.Move, rep)
				case v.IsDraw():
					draws++
				case v.IsLoss():
					losses++
				}
			}
			if a.Replies != draws || a.Blunders != losses {
				t.Errorf("%s %s: replies %d/%d, counted %d/%d", p.FEN(), a.Move, a.Replies, a.Blunders, draws, losses)
			}
			if i > 0 && (a.Replies < acts[i-1].Replies || a.Replies == acts[i-1].Replies && a.Blunders > acts[i-1].Blunders) {
				t.Errorf("%s: %v ranked after %v", p.FEN(), a, acts[i-1])
			}
		}
	}
	if checked < 30 {
		t.Fatalf("%d drawn positions", checked)
	}
}

// A line ends where stop says: asked before each action, it cuts the line
// at as many actions as it said "go on", and a nil stop plays the whole
// line.
func TestPlayLineUntil(t *testing.T) {
	tb := sharedTables(t)
	g := testkit.Game(t, rules.Default(), "*O**@***/O*@****@/*****O** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1")
	whole := tb.PlayLine(g, 40)
	if len(whole) < 4 || !slices.Equal(PlayLineUntil(tb, g, 40, nil), whole) {
		t.Fatalf("the whole line %v", whole)
	}
	for _, n := range []int{0, 1, 3} {
		asked := 0
		line := PlayLineUntil(tb, g, 40, func() bool { asked++; return asked > n })
		if len(line) != n || asked != n+1 || !slices.Equal(line, whole[:n]) {
			t.Errorf("stop after %d: %v (asked %d times), want %v", n, line, asked, whole[:n])
		}
	}
}
