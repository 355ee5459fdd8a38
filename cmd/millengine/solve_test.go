package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
)

// solve proves a late placing position whose placing ends in 4v3: every one
// of its 21 actions draws; bad input is a usage error.
func TestSolveCommand(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	fen := "*O*****@/********/***O**** w p p 2 2 1 2 0 0 0 0 0 0 0 0 9"
	code, stdout, stderr := runCmd(t, "", "solve", "--dir", dir, "--tt-mb", "4", "--fen", fen)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `^value: draw\n(\w\d: draw\n){21}Time: \d+ ms\nNodes: \d+\nTable leaves: \d+\n$`
	if !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("stdout\n%s\ndoes not match %q", stdout, want)
	}
	if !strings.Contains(stderr, "solve: action 21/21 ") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	code, stdout, stderr = runCmd(t, "", "solve", "--dir", dir, "--tt-mb", "4", "--fen", fen, "--keep")
	want = `^value: draw\nkeep: 21 of 21: (\w\d ){20}\w\d\nTime: \d+ ms\nNodes: \d+\nTable leaves: \d+\n$`
	if code != 0 || !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("--keep: exit %d, stdout\n%s\ndoes not match %q (stderr %s)", code, stdout, want, stderr)
	}
	// With --tt-file the table is written at the end and read back by the
	// next run, which answers from it.
	file := filepath.Join(t.TempDir(), "solve.tt")
	var nodes []string
	for range 2 {
		code, stdout, stderr = runCmd(t, "", "solve", "--dir", dir, "--tt-mb", "4", "--fen", fen, "--keep", "--tt-file", file)
		m := regexp.MustCompile(`\nNodes: (\d+)\n`).FindStringSubmatch(stdout)
		if code != 0 || m == nil {
			t.Fatalf("--tt-file: exit %d, %q %q", code, stdout, stderr)
		}
		nodes = append(nodes, m[1])
	}
	if nodes[0] == nodes[1] || nodes[1] != "42" {
		t.Errorf("--tt-file: nodes %v, want the second run to answer both rounds over the 21 actions (wins, non-losses) from the table", nodes)
	}
	// --plies 2: the root and one line per class of Black's positions after
	// it, each a draw (every action of the root draws), then the counts.
	code, stdout, stderr = runCmd(t, "", "solve", "--dir", dir, "--tt-mb", "4", "--fen", fen, "--plies", "2")
	want = `^ply 0 \(root\): draw, keep 21 of 21: (\w\d ){20}\w\d \(\d+ ms\)\n(ply 1 \w\d: draw, keep \d+ of 20: [\w\d ]+ \(\d+ ms\)\n){21}` +
		`ply 0: 1 positions \(win 0, draw 1, loss 0\), 21 of 21 actions keep the value\n` +
		`ply 1: 21 positions \(win 0, draw 21, loss 0\), 306 of 420 actions keep the value\nTime: \d+ ms\nNodes: \d+\n$`
	if code != 0 || !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("--plies 2: exit %d, stdout\n%s\ndoes not match %q (stderr %s)", code, stdout, want, stderr)
	}
	if !strings.Contains(stdout, "\nply 1 e4: draw, keep 1 of 20: e3 (") {
		t.Errorf("--plies 2: no line for e4 kept only by e3:\n%s", stdout)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"solve", "--dir", dir, "--plies", "19"}, "millengine solve: --plies 19 is out of range"},
		{[]string{"solve", "--dir", dir, "--fen", "x"}, "millengine solve: fen field 2"},
		{[]string{"solve", "--dir", dir, "--moves", "a7 a7"}, "millengine solve: --moves: "},
		{[]string{"solve", "--dir", dir, "--tt-mb", "0"}, "millengine solve: --tt-mb 0 is out of range"},
		{[]string{"solve", "--dir", dir, "--variant", "russian-mill"}, "millengine solve: --variant russian-mill: rules not covered"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.err) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.err)
		}
	}
}

// book prove writes a position's proven value and its value-keeping actions
// into the book file, book stats counts it, and a second run has nothing
// left to prove.
func TestBookProveCommand(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	fen := "*O*****@/********/***O**** w p p 2 2 1 2 0 0 0 0 0 0 0 0 9"
	path := filepath.Join(t.TempDir(), "late.book")
	text := "# millengine opening book\n# rules: nine-mens-morris\n# diff: (none)\n" + fen + "\tdepth 5\tb4 12 d6 3\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "book", "prove", "--dir", dir, "--tt-mb", "4", "--plies", "30", path)
	want := `^1/1 [^ ]+ w p p 2 2 1 2 0 0 0 0 0 0 0 0 9: draw, 21 actions keep it\n` +
		regexp.QuoteMeta(path) + `: 1 of the 1 positions before ply 30 proven \(1 now, 0 before\) in [\d.]+ s\n$`
	if code != 0 || !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("exit %d, stdout %q does not match %q (stderr %s)", code, stdout, want, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\tdepth 5\tb4 12 \w\d 3\tproven draw keep( \w\d){21}\n$`).Match(data) {
		t.Fatalf("book file:\n%s", data)
	}
	if code, stdout, _ := runCmd(t, "", "book", "stats", path); code != 0 || !regexp.MustCompile(`\n +25 +1 +5\.0 +5 +5 +2\.0 +1\n`).MatchString(stdout) {
		t.Fatalf("book stats: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCmd(t, "", "book", "prove", "--dir", dir, "--tt-mb", "4", "--plies", "30", path)
	if code != 0 || !strings.Contains(stdout, ": 1 of the 1 positions before ply 30 proven (0 now, 1 before)") {
		t.Fatalf("again: exit %d, %q", code, stdout)
	}
	if code, _, stderr := runCmd(t, "", "book", "prove", "--dir", dir, path, "extra"); code != 2 || !strings.Contains(stderr, "want one book FILE") {
		t.Fatalf("two files: exit %d, %q", code, stderr)
	}
}
