package uci

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// pvCheck follows the info lines of a search of g: every pv is legal, stops
// where the game ends (repetition and N-move rules applied with g's
// history), is no longer than its depth plus the removals its last actions
// earn, and a "score mate N" pv that ends the game ends it on the winner's
// N-th turn.
func pvCheck(t *testing.T, g *position.Game, lines []string) {
	t.Helper()
	for _, l := range lines {
		i := strings.Index(l, " pv ")
		if !strings.HasPrefix(l, "info depth ") || i < 0 {
			continue
		}
		f := strings.Fields(l)
		depth, _ := strconv.Atoi(f[2])
		mate := 0
		for k := 0; k+2 < len(f); k++ {
			if f[k] == "score" && f[k+1] == "mate" {
				mate, _ = strconv.Atoi(f[k+2])
			}
		}
		gc := g.Clone()
		us := gc.Pos.SideToMove()
		turns, plies, removalsAfter := 0, 0, 0
		prev := position.Color(2)
		toks := strings.Fields(l[i+4:])
		for n, tok := range toks {
			if gc.Pos.IsOver() {
				t.Fatalf("pv runs past the end of the game (%s) at %s: %q", gc.Pos.FEN(), tok, l)
			}
			m, err := movegen.ParseLegal(&gc.Rules, &gc.Pos, tok)
			if err != nil {
				t.Fatalf("pv not legal at %s: %v: %q", tok, err, l)
			}
			if mover := gc.Pos.SideToMove(); mover == us && mover != prev {
				turns++
			} else {
				_ = n
			}
			prev = gc.Pos.SideToMove()
			if m.Kind() == position.KindRemove {
				removalsAfter++
			} else {
				plies++
			}
			gc.Play(m)
		}
		// The search counts removals as plies; the removal that completes
		// the turn at its horizon may follow.
		if n := len(toks); mate == 0 && n > depth && !(n == depth+1 && toks[n-1][0] == 'x') {
			t.Fatalf("a pv of %d plies (%d actions, %d removals) under depth %d: %q", n, plies, removalsAfter, depth, l)
		}
		if res, _ := gc.Pos.Result(); mate != 0 && gc.Pos.IsOver() && res != position.Draw {
			want := mate
			if want < 0 {
				want = -want
			}
			winnerTurns := turns
			if mate < 0 {
				// the opponent wins: count its turns
				winnerTurns = countTurns(g, toks, us^1)
			}
			if winnerTurns == 0 {
				// The side to move lost by its first action: reported as mate -1.
				winnerTurns = 1
			}
			if winnerTurns != want {
				t.Fatalf("score mate %d, but the pv ends the game on turn %d: %q", mate, winnerTurns, l)
			}
		}
	}
}

// countTurns counts the turns of c along the tokens from g's position.
func countTurns(g *position.Game, toks []string, c position.Color) int {
	gc := g.Clone()
	turns := 0
	prev := position.Color(2)
	for _, tok := range toks {
		m, err := movegen.ParseLegal(&gc.Rules, &gc.Pos, tok)
		if err != nil {
			return -1
		}
		if mover := gc.Pos.SideToMove(); mover == c && mover != prev {
			turns++
		}
		prev = gc.Pos.SideToMove()
		gc.Play(m)
	}
	return turns
}

// go depth 1 after go depth 8 gives a one-action pv, not the table's 8.
func TestPVNoLongerThanDepth(t *testing.T) {
	h := startHarness(t, testConfig())
	g := testkit.Game(t, rules.Default(), "", "d6", "f4", "b6", "d2")
	h.send("position startpos moves d6 f4 b6 d2", "go depth 8")
	pvCheck(t, g, h.until("bestmove"))
	for _, d := range []string{"1", "2", "3"} {
		h.send("go depth " + d)
		pvCheck(t, g, h.until("bestmove"))
	}
}

// Three slides before the N-move rule every line ends at the third slide.
// The table keeps long lines of the same board from a search without the
// counter (keys do not hold it): no pv may follow them past the rule.
func TestPVStopsAtTheNMoveRule(t *testing.T) {
	board := "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 %d 10"
	h := startHarness(t, testConfig())
	h.send("position fen "+fmt.Sprintf(board, 0), "go depth 12")
	h.until("bestmove")
	for _, d := range []string{"3", "9"} {
		fen := fmt.Sprintf(board, 97)
		h.send("position fen "+fen, "go depth "+d)
		pvCheck(t, testkit.Game(t, rules.Default(), fen), h.until("bestmove"))
	}
}

// Back-and-forth slides after placing draw by threefold repetition on the
// 9th slide. Searched first without that history, the board leaves lines in
// the table that repeat it; from the middle of the dance no pv may follow
// them past the third occurrence.
func TestPVStopsAtRepetition(t *testing.T) {
	fen := "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"
	moves := []string{"c4-c5", "d5-e5", "c5-c4", "e5-d5", "c4-c5", "d5-e5", "c5-c4", "e5-d5"}
	h := startHarness(t, testConfig())
	h.send("position fen "+fen+" moves "+strings.Join(moves[:4], " "), "go depth 12")
	h.until("bestmove")
	for _, d := range []string{"2", "10"} {
		h.send("position fen "+fen+" moves "+strings.Join(moves, " "), "go depth "+d)
		pvCheck(t, testkit.Game(t, rules.Default(), fen, moves...), h.until("bestmove"))
	}
}

// A loss by the loser's own action: White's last placement fills the board,
// and a full board loses for the first player (BoardFullAction 0). White
// takes two turns, Black one; mate -1 counts the winner's, as mate -N means
// mated in the opponent's N moves (it once said mate -2, counting White's).
func TestMateCountsWinnersTurns(t *testing.T) {
	r := rules.Default()
	r.PiecesCount, r.BoardFullAction = 12, rules.BoardFullFirstLoses
	fen := "O@O*O@O@/@O@O@*@O/O@O@O@@* w p p 10 2 11 1 0 0 0 0 0 0 0 0 11"
	h := startHarness(t, testConfig())
	h.send("setoption name PiecesCount value 12", "setoption name BoardFullAction value 0",
		"position fen "+fen, "go depth 5")
	lines := h.until("bestmove")
	pvCheck(t, testkit.Game(t, r, fen), lines)
	last := lines[len(lines)-2]
	if !strings.HasPrefix(last, "info depth 5 ") || !strings.Contains(last, " score mate -1 ") || !strings.HasSuffix(last, " pv e3 b2 a7") {
		t.Fatalf("want depth 5 mate -1 with pv e3 b2 a7, got %q", last)
	}
}

// Forced wins: the mate count and the line agree.
func TestPVAgreesWithMate(t *testing.T) {
	for _, fen := range []string{
		"***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30",
		"*@***@**/***@****/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 0 40",
		"@O@*****/O*@O@O@*/@@***O*@ b m r 5 0 8 0 0 1 0 0 0 0 0 2 27",
	} {
		h := startHarness(t, testConfig())
		h.send("position fen "+fen, "go depth 12")
		pvCheck(t, testkit.Game(t, rules.Default(), fen), h.until("bestmove"))
		h.send("go depth 3")
		pvCheck(t, testkit.Game(t, rules.Default(), fen), h.until("bestmove"))
	}
}
