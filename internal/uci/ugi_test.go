package uci

import (
	"slices"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// A whole game the way cutegames drives a UGI engine: ugi, isready,
// uginewgame, then before every go the position and the queries gameover and
// p1turn; the clocks as p1time/p2time. Our own referee checks every answer,
// and at the end query result must agree with it.
func TestUGIGameLikeCutegames(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("ugi")
	lines := h.until("ugiok")
	if lines[0] != "id name millengine test" || !slices.Contains(lines, "option name Hash type spin default 1 min 1 max 65536") {
		t.Fatalf("ugi answer %q", lines)
	}
	h.send("isready")
	expectLines(t, h, "readyok")
	h.send("uginewgame")
	r := rules.Default()
	g := position.NewGame(r, position.New(&r))
	var moves []string
	for ply := 0; ply < 400; ply++ {
		h.send("position startpos moves " + strings.Join(moves, " "))
		h.send("query gameover")
		over := g.Pos.IsOver()
		expectLines(t, h, "response "+boolWord(over))
		if over {
			break
		}
		h.send("query p1turn")
		expectLines(t, h, "response "+boolWord(g.Pos.SideToMove() == position.White))
		h.send("go p1time 60000 p2time 60000 p1inc 100 p2inc 100 depth 2")
		ls := h.until("bestmove")
		best := bestMoveOf(t, ls[len(ls)-1])
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, best)
		if err != nil {
			t.Fatalf("ply %d: bestmove %s: %v", ply, best, err)
		}
		g.Play(m)
		moves = append(moves, best)
	}
	if !g.Pos.IsOver() {
		t.Fatalf("no end after %d plies", len(moves))
	}
	want := "draw"
	switch res, _ := g.Pos.Result(); res {
	case position.WhiteWins:
		want = "p1win"
	case position.BlackWins:
		want = "p2win"
	}
	h.send("query result")
	expectLines(t, h, "response "+want)
	h.send("position startpos", "query result", "query gameover", "query nonsense")
	expectLines(t, h, "response none", "response false",
		"info string error: query: unknown query 'nonsense' (want gameover, p1turn or result)")
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
