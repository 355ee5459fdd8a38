package uci

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect/perfecttest"
	"github.com/millengine/millengine/internal/rules"
)

// moraLine is the egtb line of the synthetic database's start.
const moraLine = "info string egtb win 6 moves b4 win 6 d2 win 6 d6 win 6 f4 win 6 a4 draw b2 draw b6 draw c4 draw d1 draw d3 draw d5 draw d7 draw e4 draw f2 draw f6 draw g4 draw " +
	"a1 loss 10 a7 loss 10 c3 loss 10 c5 loss 10 e3 loss 10 e5 loss 10 g1 loss 10 g7 loss 10"

// Through Sanmill's options the engine plays from Malom's values: under
// rules Malom did not solve it says so at the next go and searches; under
// Malom's Morabaraba (the morabaraba preset without MayRemoveMultiple) it
// says what it found once, ranks the root by the tables' policy from
// Malom's values and answers at once with a move that keeps the win.
func TestPerfectDatabaseOptions(t *testing.T) {
	dir := t.TempDir()
	perfecttest.Morabaraba(t, dir)
	h := startHarness(t, testConfig())
	h.send("setoption name Variant value morabaraba", "setoption name UsePerfectDatabase value true",
		"setoption name PerfectDatabasePath value "+dir, "position startpos", "go depth 1")
	lines := h.until("bestmove")
	if want := "info string perfect database: not used: rules not solved by Malom's databases: MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)"; lines[0] != want {
		t.Fatalf("under the morabaraba preset: %q, want first %q", lines, want)
	}
	if slices.ContainsFunc(lines[1:], func(l string) bool { return strings.HasPrefix(l, "info string") }) {
		t.Fatalf("under the morabaraba preset: %q", lines)
	}

	h.send("setoption name MayRemoveMultiple value false", "position startpos", "go movetime 5000")
	lines = h.until("bestmove")
	want := []string{"info string perfect database: 2 sectors of mora in " + dir, moraLine}
	if len(lines) != 5 || !slices.Equal(lines[:2], want) {
		t.Fatalf("Malom's Morabaraba: %q, want first %q", lines, want)
	}
	best := bestMoveOf(t, lines[4])
	if !slices.Contains([]string{"b4", "d2", "d6", "f4"}, best) || lines[3] != "info string perfect database move "+best ||
		!regexp.MustCompile(`^info depth 1 seldepth 1 score mate 6 nodes 0 nps 0 hashfull 0 tbhits 24 time \d+ pv `+best+`$`).MatchString(lines[2]) {
		t.Fatalf("Malom's Morabaraba: %q", lines)
	}
	// The next go: the coverage is not said again.
	h.send("go depth 1")
	if lines = h.until("bestmove"); lines[0] != moraLine || len(lines) != 4 {
		t.Fatalf("the second go: %q", lines)
	}
	// Off: the search alone, silent.
	h.send("setoption name UsePerfectDatabase value false", "go depth 1")
	if lines = h.until("bestmove"); slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string") }) {
		t.Fatalf("UsePerfectDatabase false: %q", lines)
	}
}

// Why the perfect database is not used is said once, at the next go: no
// .secval file in the default folder, no folder, no path, a damaged .secval
// file; a damaged sector file is said with its name when first read, and
// the root is searched.
func TestPerfectDatabaseNotUsed(t *testing.T) {
	dir := t.TempDir()
	perfecttest.Morabaraba(t, dir)
	damaged := perfecttest.DamageSector(t, dir, malom.Morabaraba, perfecttest.MoraOne)
	missing := filepath.Join(t.TempDir(), "none")
	badSecval := t.TempDir()
	if err := os.WriteFile(filepath.Join(badSecval, "std.secval"), []byte("virt_loss_val: -299\nvirt_win_val: 299\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  []string
		want []string
	}{
		{[]string{"setoption name UsePerfectDatabase value true"}, []string{"info string perfect database: not used: no std.secval in ."}},
		{[]string{"setoption name PerfectDatabasePath value " + missing, "setoption name UsePerfectDatabase value on"},
			[]string{"info string perfect database: not used: no folder " + missing}},
		{[]string{"setoption name UsePerfectDatabase value 1", "setoption name PerfectDatabasePath value <empty>"},
			[]string{"info string perfect database: not used: PerfectDatabasePath is empty"}},
		{[]string{"setoption name UsePerfectDatabase value true", "setoption name PerfectDatabasePath value " + badSecval},
			[]string{"info string error: perfect database: not used: " + filepath.Join(badSecval, "std.secval") + `: line 3: sector count "three" is not a non-negative integer`}},
		{[]string{"setoption name Variant value twelve-mens-morris", "setoption name UsePerfectDatabase value true", "setoption name PerfectDatabasePath value " + dir},
			[]string{"info string perfect database: 2 sectors of mora in " + dir,
				"info string error: perfect database: " + damaged + ": truncated: 138 bytes, want at least 140 for 24 entries of 3 bytes and the escape count; this sector is not used"}},
	} {
		h := startHarness(t, testConfig())
		h.send(c.set...)
		h.send("go depth 1")
		lines := h.until("bestmove")
		if len(lines) != len(c.want)+2 || !slices.Equal(lines[:len(c.want)], c.want) || strings.HasPrefix(lines[len(c.want)], "info string") {
			t.Fatalf("%q: %q, want first %q and a search", c.set, lines, c.want)
		}
		h.send("go depth 1")
		if lines := h.until("bestmove"); len(lines) != 2 {
			t.Fatalf("%q: the second go: %q", c.set, lines)
		}
	}
}

// A path that is a file is refused, and the options stay as they were; so
// is a value of UsePerfectDatabase that is not a boolean.
func TestPerfectDatabaseBadValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "std.secval")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, f := newTestSession(t)
	for _, c := range []struct{ line, err string }{
		{"name PerfectDatabasePath value " + file, "option PerfectDatabasePath: " + file + " is not a folder (Malom's .secval and .sec2 files are read from a folder)"},
		{"name UsePerfectDatabase value maybe", `option UsePerfectDatabase: "maybe" is not a boolean (true/false, 1/0, yes/no, on/off)`},
		{"name UsePerfectDatabase", "option UsePerfectDatabase: missing value"},
	} {
		if err := s.cmdSetOption(strings.Fields(c.line)); err == nil || err.Error() != c.err {
			t.Errorf("setoption %s: %v, want %q", c.line, err, c.err)
		}
		if use, dir := s.engine.PerfectDatabase(); use || dir != "." || s.engine.Perfect() != nil || len(f.Calls()) != 0 {
			t.Errorf("setoption %s: UsePerfectDatabase %t, PerfectDatabasePath %q, %p, calls %q", c.line, use, dir, s.engine.Perfect(), f.Calls())
		}
	}
	if err := s.cmdSetOption(strings.Fields("name perfectdatabasepath value  /x/y ")); err != nil {
		t.Fatal(err)
	}
	if err := s.cmdSetOption(strings.Fields("name usePerfectDatabase value yes")); err != nil {
		t.Fatal(err)
	}
	if use, dir := s.engine.PerfectDatabase(); !use || dir != "/x/y" || s.engine.Perfect() != nil {
		t.Errorf("after good values: %t %q %p", use, dir, s.engine.Perfect())
	}
}

// The tests below read Malom's files from MALOM_DIR (e.g. /work/malom-data,
// the sectors Sanmill ships) and are skipped without them.

// malomDir returns MALOM_DIR when it holds the files named, else skips.
func malomDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := os.Getenv("MALOM_DIR")
	if dir == "" {
		t.Skip("MALOM_DIR not set")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("no %s in %s", f, dir)
		}
	}
	return dir
}

// In Morabaraba after d6 d2 (sector mora_1_1_11_11, whose actions lead
// into mora_1_2_11_10) White wins in 23 turns by Malom's values; through
// Sanmill's options the engine plays a move that keeps the win, at once.
// After d6 alone Black holds the draw with eight of its 24 actions: the
// search chooses among them and reports the draw.
func TestPerfectDatabaseMorabaraba(t *testing.T) {
	dir := malomDir(t, "mora.secval", "mora_1_1_11_11.sec2", "mora_1_2_11_10.sec2", "mora_0_1_12_11.sec2", "mora_2_2_10_10.sec2")
	h := startHarness(t, testConfig())
	h.send("setoption name Variant value morabaraba", "setoption name MayRemoveMultiple value false",
		"setoption name UsePerfectDatabase value true", "setoption name PerfectDatabasePath value "+dir,
		"position startpos moves d6 d2", "go wtime 60000 btime 60000")
	lines := h.until("bestmove")
	want := "info string egtb win 23 moves a7 win 23 c5 win 23 e5 win 23 g7 win 23 b2 win 24 f2 win 24 a1 win 26 c3 win 26 e3 win 26 g1 win 26 " +
		"b6 draw d5 draw d7 draw f6 draw b4 draw d1 draw d3 draw f4 draw a4 draw c4 draw e4 draw g4 draw"
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "info string perfect database: ") || lines[1] != want {
		t.Fatalf("d6 d2: %q, want %q second", lines, want)
	}
	best := bestMoveOf(t, lines[4])
	if !slices.Contains([]string{"a7", "c5", "e5", "g7"}, best) || lines[3] != "info string perfect database move "+best ||
		!regexp.MustCompile(`^info depth 1 seldepth \d+ score mate 23 nodes 0 nps 0 hashfull 0 tbhits 22 time \d+ pv `+best+`( |$)`).MatchString(lines[2]) {
		t.Fatalf("d6 d2: %q", lines)
	}
	t.Logf("d6 d2: %s", strings.Join(lines, "\n"))

	h.send("position startpos moves d6", "go movetime 1000")
	lines = h.until("bestmove")
	want = "info string egtb draw moves b2 draw f2 draw b6 draw f6 draw a1 draw c3 draw e3 draw g1 draw a7 loss 33 c5 loss 33 e5 loss 33 g7 loss 33 " +
		"d5 loss 26 d7 loss 26 d1 loss 25 d3 loss 25 a4 loss 24 b4 loss 24 c4 loss 24 e4 loss 24 f4 loss 24 g4 loss 24 d2 loss 23"
	best = bestMoveOf(t, lines[len(lines)-1])
	last := lines[len(lines)-3]
	if lines[0] != want || !slices.Contains([]string{"b2", "f2", "b6", "f6", "a1", "c3", "e3", "g1"}, best) ||
		lines[len(lines)-2] != "info string perfect database move "+best || !strings.Contains(last, " score cp 0 ") {
		t.Fatalf("d6: %q", lines)
	}
	t.Logf("d6: %s ... %s %s", lines[0], last, lines[len(lines)-1])
}

// A position of 3v4 gets the same answer from Malom's files as from the
// engine's own tables: each action's value, the root's value and the move
// (the first that keeps it); with both, the tables' line and no
// disagreement.
func TestPerfectDatabaseAsTheTables(t *testing.T) {
	dir := malomDir(t, "std.secval", "std_3_3_0_0.sec2", "std_3_4_0_0.sec2", "std_4_3_0_0.sec2")
	tables := smallTables(t)
	for _, c := range []struct {
		fen     string
		options []string
	}{
		// White (3 pieces) to move wins in 6 turns; draws (answered at once
		// with the drawing action that leaves the fewest drawing replies).
		{fen: first3v4(t, tables, egtb.Win(6))},
		{fen: first3v4(t, tables, egtb.Draw), options: []string{"setoption name TableWinningChances value true"}},
	} {
		answer := func(set ...string) []string {
			h := startHarness(t, testConfig())
			h.send(c.options...)
			h.send(set...)
			h.send("position fen "+c.fen, "go depth 1")
			return h.until("bestmove")
		}
		ours := answer("setoption name EGTBPath value " + tables)
		malom := answer("setoption name UsePerfectDatabase value true", "setoption name PerfectDatabasePath value "+dir)
		both := answer("setoption name EGTBPath value "+tables, "setoption name UsePerfectDatabase value true", "setoption name PerfectDatabasePath value "+dir)
		t.Logf("%s\nours:  %q\nMalom: %q", c.fen, ours, malom)
		if len(ours) != 5 || len(malom) != 5 || len(both) != 6 {
			t.Fatalf("%s: ours %q, Malom %q, both %q", c.fen, ours, malom, both)
		}
		if a, b := actionValues(t, ours[1]), actionValues(t, malom[1]); !maps(a, b) {
			t.Fatalf("%s: ours %s, Malom %s", c.fen, ours[1], malom[1])
		}
		if ours[4] != malom[4] || scoreOf(ours[2]) != scoreOf(malom[2]) || malom[3] != "info string perfect database move "+bestMoveOf(t, malom[4]) {
			t.Fatalf("%s: ours %q, Malom %q", c.fen, ours, malom)
		}
		if both[2] != ours[1] || both[5] != ours[4] || both[4] != "info string tables move "+bestMoveOf(t, ours[4]) {
			t.Fatalf("%s: with both %q, ours %q", c.fen, both, ours)
		}
	}
}

// first3v4 returns the first position of 3v4 in Malom's slot order, White
// (3 pieces) to move, that the tables in dir value v.
func first3v4(t *testing.T, dir string, v egtb.Value) string {
	t.Helper()
	r := rules.Default()
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	x, _ := malom.NewIndex(3, 4)
	for slot := range x.Len() {
		mover, other := x.Position(slot)
		if w, ok := tb.ProbeSets(mover, other); ok && w == v {
			return malom.Difference{Mover: mover, Other: other}.FEN()
		}
	}
	t.Fatalf("no %v in 3v4", v)
	return ""
}

// actionValues reads an egtb line: the root's value and each action's.
func actionValues(t *testing.T, line string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(line, "info string egtb ")
	root, acts, ok2 := strings.Cut(rest, " moves ")
	if !ok || !ok2 {
		t.Fatalf("not an egtb line: %q", line)
	}
	out := map[string]string{"root": root}
	f := strings.Fields(acts)
	for i := 0; i+1 < len(f); {
		j := i + 2 // "draw"
		if f[i+1] == "win" || f[i+1] == "loss" {
			j++ // "win N"
		}
		if j < len(f) && (f[j] == "dtz" || f[j] == "repetition" || f[j] == "nmove") {
			j++
		}
		if j > len(f) {
			t.Fatalf("egtb line cut: %q", line)
		}
		out[f[i]] = strings.Join(f[i+1:j], " ")
		i = j
	}
	return out
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// scoreOf is the score of an info line ("mate 6", "cp 0").
func scoreOf(line string) string {
	m := regexp.MustCompile(` score (\S+ \S+) `).FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1]
}
