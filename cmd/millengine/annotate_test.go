package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/record"
)

// annotate writes the game back with the same moves, a summary per side
// first, NAGs that match their comments, and says the summaries on stderr.
func TestAnnotateCommand(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	root, err := filepath.Abs("../../testdata/pgn/sanmill-export.pgn")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.pgn")
	code, _, stderr := runCmd(t, "", "annotate", "--dir", dir, "--depth", "2", "--out", out, root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sum := regexp.MustCompile(`(?m)^game 1 (white|black) \((Human|AI)\): accuracy \d+\.\d %, inaccuracies \d+, mistakes \d+, blunders \d+`)
	if n := len(sum.FindAllString(stderr, -1)); n != 2 {
		t.Fatalf("%d summaries on stderr: %s", n, stderr)
	}
	src, _ := os.ReadFile(root)
	orig, err := record.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := record.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Moves) != len(orig[0].Moves) || got[0].Result != orig[0].Result {
		t.Fatalf("%d games, %d turns (want %d)", len(got), len(got[0].Moves), len(orig[0].Moves))
	}
	g := got[0]
	if len(g.Line.Comments) != 2 || !strings.HasPrefix(g.Line.Comments[0], "White: accuracy ") || !strings.HasPrefix(g.Line.Comments[1], "Black: accuracy ") {
		t.Fatalf("opening comments %q", g.Line.Comments)
	}
	graded := 0
	for k, turn := range g.Moves {
		if turn.String() != orig[0].Moves[k].String() {
			t.Fatalf("turn %d: %s, was %s", k, turn.String(), orig[0].Moves[k].String())
		}
		for _, nag := range turn.NAGs {
			word := map[int]string{6: "inaccuracy", 2: "mistake", 4: "blunder"}[nag]
			if word == "" || len(turn.Comments) == 0 || !strings.Contains(strings.Join(turn.Comments, " "), word) && !strings.Contains(strings.Join(turn.Comments, " "), "→") {
				t.Errorf("turn %d %s: NAG %d with comments %q", k, turn.String(), nag, turn.Comments)
			}
			graded++
		}
	}
	if graded == 0 {
		t.Error("no move graded below good in a game with blunders on both sides")
	}
	if code, _, stderr := runCmd(t, "", "annotate", "--depth", "2"); code != 2 || !strings.Contains(stderr, "want one file of games") {
		t.Errorf("no file: exit %d, %q", code, stderr)
	}
}
