package testkit

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

func TestMain(m *testing.M) { Main(m) }

func TestGame(t *testing.T) {
	if got, want := Game(t, rules.Default(), "", "d6 f4", "b4").Pos.FEN(), "********/O*@***O*/******** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2"; got != want {
		t.Fatalf("after d6 f4 b4: %s, want %s", got, want)
	}
	if got, want := Game(t, Rules(t, "twelve-mens-morris"), "").Pos.FEN(), "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1"; got != want {
		t.Fatalf("twelve men's morris starts at %s, want %s", got, want)
	}
	fen := "********/O*@***O*/******** b p p 2 7 1 8 0 0 0 0 0 0 0 0 2"
	r := rules.Default()
	if p := Position(t, &r, fen); p.FEN() != fen {
		t.Fatalf("round trip %s, want %s", p.FEN(), fen)
	}
}

// RandomGames starts each game at the start position with ply 0, plays one
// legal action from each position to the next, ends a game at its end or
// at plies, and stops when the loop breaks.
func TestRandomGames(t *testing.T) {
	r := rules.Default()
	start := position.New(&r)
	var prev position.Position
	games, n := 0, 0
	for ply, p := range RandomGames(&r, rand.New(rand.NewPCG(1, 2)), 30, 20) {
		switch {
		case ply == 0:
			if p != start {
				t.Fatalf("game %d starts at %s", games, p.FEN())
			}
			games++
		case ply >= 20:
			t.Fatalf("ply %d beyond the limit", ply)
		default:
			var ml movegen.MoveList
			movegen.Generate(&r, &prev, &ml)
			if !slices.ContainsFunc(ml.Slice(), func(m position.Move) bool { q := prev; q.Do(&r, m); return q == p }) {
				t.Fatalf("ply %d: %s does not follow %s by a legal action", ply, p.FEN(), prev.FEN())
			}
		}
		prev = p
		n++
	}
	if games != 30 || n != 30*20 {
		t.Fatalf("%d games, %d positions; want 30 and 600", games, n)
	}
	n = 0
	for range RandomGames(&r, rand.New(rand.NewPCG(1, 2)), 30, 20) {
		if n++; n == 5 {
			break
		}
	}
	if n != 5 {
		t.Fatalf("%d positions after a break at the fifth", n)
	}
}

func TestLines(t *testing.T) {
	r, w := io.Pipe()
	l := NewLines(t, r)
	go func() {
		io.WriteString(w, "id name x\ninfo depth 1\nbestmove d6\nreadyok\nlast\n")
		w.Close()
	}()
	if got := l.Until("bestmove"); !slices.Equal(got, []string{"id name x", "info depth 1", "bestmove d6"}) {
		t.Fatalf("Until: %q", got)
	}
	l.Expect("readyok")
	if got := l.Rest(); !slices.Equal(got, []string{"last"}) {
		t.Fatalf("Rest: %q", got)
	}
}

// A command is built once, keeps its name, and runs under Start.
func TestBuildAndStart(t *testing.T) {
	bin := Binary(t, "./testdata/engines/randomengine", "test")
	if again := Binary(t, "./testdata/engines/randomengine", "test"); again != bin {
		t.Fatalf("built twice: %s and %s", bin, again)
	}
	if filepath.Base(bin) != "randomengine" {
		t.Fatalf("executable %s, want the command's name", bin)
	}
	p := Start(t, bin, "--name", "kit")
	p.Send("uci")
	if got := p.Until("uciok"); got[0] != "id name kit" {
		t.Fatalf("uci answered %q", got)
	}
	p.Send("quit")
	if err := p.Wait(); err != nil {
		t.Fatalf("exit: %v (stderr %q)", err, p.Stderr())
	}
}
