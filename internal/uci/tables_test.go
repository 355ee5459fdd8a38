package uci

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/testkit"
)

// smallTables returns the directory of the Nine Men's Morris tables up to 7
// pieces (3v3, 3v4, 4v3).
func smallTables(t *testing.T) string { return egtbtest.Small(t, 7) }

// tablesHarness starts a session whose EGTBPath is smallTables' and sends it
// the lines of setup.
func tablesHarness(t *testing.T, setup ...string) *harness {
	h := startHarness(t, testConfig())
	h.send(append([]string{"setoption name EGTBPath value " + smallTables(t)}, setup...)...)
	return h
}

// At a table position the engine says what the tables say (one line a GUI
// can show per move), plays a move that keeps the value, and reports the
// table's mate count and line.
func TestTablesAtTheRoot(t *testing.T) {
	dir := smallTables(t)
	h := startHarness(t, testConfig())
	h.send("setoption name EGTBPath value "+dir, "isready")
	expectLines(t, h, "readyok")

	// A mill in one by flying: a1-g7 or d7-a4.
	h.send("position fen ***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1", "go depth 6")
	lines := h.until("bestmove")
	if want := "info string egtb: 3 of 49 sectors of plain-fly3-min3 in " + dir + ": every sector up to 7 pieces; the search goes on where they end"; lines[0] != want {
		t.Fatalf("first line %q, want %q", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "info string egtb win 1 moves a1-g7 win 1 d7-a4 win 1 a1-a4 win 2 ") {
		t.Fatalf("second line %q", lines[1])
	}
	if best := lines[len(lines)-1]; best != "bestmove a1-g7" && best != "bestmove d7-a4" {
		t.Fatalf("%q", lines)
	}
	if src := lines[len(lines)-2]; src != "info string tables move "+strings.TrimPrefix(lines[len(lines)-1], "bestmove ") {
		t.Fatalf("source line %q", src)
	}
	for _, l := range lines[2 : len(lines)-2] {
		if !regexp.MustCompile(` score mate 1 .* pv (a1-g7|d7-a4) x`).MatchString(l) {
			t.Fatalf("info line %q", l)
		}
	}

	// The longest win of 3v3 and the longest loss: every move the engine
	// chooses keeps the table's value.
	r := rules.Default()
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	for _, fen := range []string{longestWin3v3(t, tb), "O*O*****/@@@*****/O******* b m s 3 0 3 0 0 0 0 0 0 0 0 0 30"} {
		p := testkit.Position(t, &r, fen)
		want, ok := tb.Probe(&r, &p)
		if !ok {
			t.Fatalf("%s is not in the tables", fen)
		}
		h.send("position fen "+fen, "go depth 4")
		lines := h.until("bestmove")
		m, err := movegen.ParseLegal(&r, &p, bestMoveOf(t, lines[len(lines)-1]))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := tb.ActionValue(&r, &p, m); got != want {
			t.Fatalf("%s (%s): the engine's %s is %s", fen, want, m, got)
		}
		if want.IsWin() && !slices.ContainsFunc(lines, func(l string) bool {
			return strings.Contains(l, " score mate "+itoa(want.Distance())+" ")
		}) {
			t.Fatalf("%s (%s): no score mate %d in %q", fen, want, want.Distance(), lines)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The tables decide with the game's history: a win is not given away by a
// move that repeats a position a third time (a draw), and a lost position is
// saved by such a move. Both failed when the root was ranked without the
// history: the engine played a1-d5 ("mate 2", a draw) and f6-g1 (mate -8).
func TestTablesWithTheGamesHistory(t *testing.T) {
	dir := egtbtest.Small(t, 6)
	h := startHarness(t, testConfig())
	h.send("setoption name EGTBPath value "+dir, "isready")
	expectLines(t, h, "readyok")
	h.send("position fen *O**@***/O*@****@/*****O** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1 moves a1-d5 d3-e4 d5-a1 e4-d3 a1-d5 d3-e4 d5-a1 e4-d3",
		"go movetime 500")
	lines := h.until("bestmove")
	if !slices.Contains(lines, "info string egtb win 3 moves e5-a7 win 3 e5-d7 win 3 d6-a4 win 4 d6-a7 win 4 d6-c5 win 4 d6-d5 win 4 e5-d1 win 4 d6-d1 win 5 a1-d7 win 7 e5-d5 win 7 e5-a4 win 8 a1-c5 win 9 a1-d5 draw repetition a1-d2 loss 10 a1-f2 loss 8 d6-f2 loss 8 a1-b2 loss 7 d6-g1 loss 7 e5-g1 loss 7 a1-e3 loss 5 a1-e4 loss 5 d6-e3 loss 5 d6-e4 loss 5 e5-f6 loss 4 a1-a4 loss 3 a1-a7 loss 3 a1-b4 loss 3 a1-c3 loss 3 a1-c4 loss 3 a1-d1 loss 3 a1-f6 loss 3 a1-g1 loss 3 a1-g4 loss 3 a1-g7 loss 3 d6-f6 loss 3 e5-b2 loss 3 e5-b4 loss 3 e5-c3 loss 3 e5-c4 loss 3 e5-c5 loss 3 e5-d2 loss 3 e5-e3 loss 3 e5-e4 loss 3 e5-f2 loss 3 e5-g4 loss 3 e5-g7 loss 3 d6-b2 loss 2 d6-b4 loss 2 d6-c3 loss 2 d6-c4 loss 2 d6-d2 loss 2 d6-d7 loss 2 d6-g4 loss 2 d6-g7 loss 2") {
		t.Fatalf("no egtb line with a1-d5 as the repetition it is: %q", lines)
	}
	if got := lines[len(lines)-1]; got != "bestmove e5-a7" || lines[len(lines)-2] != "info string tables move e5-a7" {
		t.Fatalf("the win: %q", lines)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " score mate 3 ") && strings.Contains(l, " pv e5-a7 ") }) {
		t.Fatalf("the win's score and line: %q", lines)
	}
	h.send("position fen **O@***O/*O******/*@@***** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1 moves f6-f4 e3-d5 f4-f6 d5-e3 f6-f4 e3-d5 f4-f6 d5-e3",
		"go movetime 500")
	lines = h.until("bestmove")
	if got := lines[len(lines)-1]; got != "bestmove f6-f4" {
		t.Fatalf("the draw: %q", lines)
	}
	if !slices.ContainsFunc(lines, func(l string) bool {
		return regexp.MustCompile(`^info depth 1 seldepth 1 score cp 0 .* tbhits 54 .* pv f6-f4$`).MatchString(l)
	}) {
		t.Fatalf("the draw's score and line: %q", lines)
	}
}

// longestWin3v3 returns a position of 3v3 whose side to move wins in 13
// turns, the longest win of the sector.
func longestWin3v3(t *testing.T, tb *egtb.Tables) string {
	t.Helper()
	r := rules.Default()
	for a := 0; a < 24; a++ {
		for b := a + 1; b < 24; b++ {
			for c := b + 1; c < 24; c++ {
				mover := uint32(1)<<a | 1<<b | 1<<c
				for x := 0; x < 24; x++ {
					for y := x + 1; y < 24; y++ {
						for z := y + 1; z < 24; z++ {
							other := uint32(1)<<x | 1<<y | 1<<z
							if mover&other != 0 {
								continue
							}
							if v, ok := tb.ProbeSets(bbOf(mover), bbOf(other)); ok && v == egtb.Win(13) {
								fen := boardFEN(mover, other) + " w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"
								if _, err := position.ParseFEN(&r, fen); err == nil {
									return fen
								}
							}
						}
					}
				}
			}
		}
	}
	t.Fatal("no win in 13 in 3v3")
	return ""
}

// A search that reaches table positions below the root counts its probes.
func TestTableHitsInTheSearch(t *testing.T) {
	h := tablesHarness(t)
	// 4 against 4 is not built; g4-g7 closes a mill, and the capture leads
	// into 3v4 (Black to move).
	h.send("position fen @@*@****/*****O**/O*O*@**O w m s 4 0 4 0 0 0 0 0 0 0 0 0 30", "go depth 3")
	lines := h.until("bestmove")
	if !slices.ContainsFunc(lines, func(l string) bool { return regexp.MustCompile(` tbhits [1-9]\d* time `).MatchString(l) }) {
		t.Fatalf("no tbhits in %q", lines)
	}
}

// Tables are never probed under other rules: the engine says so once.
// A damaged file is refused with an error; an empty path disables them.
func TestTablesRulesAndDamage(t *testing.T) {
	dir := smallTables(t)
	h := startHarness(t, testConfig())
	fen := "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"
	h.send("setoption name EGTBPath value "+dir, "setoption name Variant value russian-mill", "position fen "+fen, "go depth 2")
	expectLines(t, h, "info string egtb: the tables are not used under these rules (rules not covered by the endgame tables: OneTimeUseMill depends on the game's history)")
	h.until("bestmove")
	h.send("go depth 2")
	if l, _ := h.next(); strings.HasPrefix(l, "info string egtb") {
		t.Fatalf("said twice: %q", l)
	}
	h.until("bestmove")

	damaged := t.TempDir()
	for _, name := range []string{"plain-fly3-min3-3v3.egtb", "plain-fly3-min3-3v4.egtb", "plain-fly3-min3-4v3.egtb"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "plain-fly3-min3-3v3.egtb" {
			b[len(b)-11] ^= 4
		}
		if err := os.WriteFile(filepath.Join(damaged, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A damaged 3v3 costs only itself: found at its first use, said once,
	// left out; 3v4 still answers.
	h.send("setoption name Variant value nine-mens-morris", "setoption name EGTBPath value "+damaged, "position fen "+fen, "go depth 2")
	lines := h.until("bestmove")
	want := "info string error: egtb: endgame table " + filepath.Join(damaged, "plain-fly3-min3-3v3.egtb") + ": data checksum mismatch"
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, want) && strings.HasSuffix(l, "; this sector is not used")
	}) ||
		slices.ContainsFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "info string egtb draw") || strings.HasPrefix(l, "info string egtb win") || strings.HasPrefix(l, "info string egtb loss")
		}) {
		t.Fatalf("damaged 3v3: %q", lines)
	}
	h.send("position fen @@*@****/*****O*@/O*O***** b m s 3 0 4 0 0 0 0 0 0 0 0 0 30", "go depth 2")
	lines = h.until("bestmove")
	if !slices.ContainsFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "info string egtb ") && strings.Contains(l, " moves ")
	}) ||
		slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "data checksum") }) {
		t.Fatalf("3v4 beside a damaged 3v3: %q", lines)
	}
	h.send("setoption name EGTBPath value "+dir, "setoption name EGTBPath value <empty>", "position fen "+fen, "go depth 2")
	if lines := h.until("bestmove"); strings.HasPrefix(lines[0], "info string egtb") {
		t.Fatalf("disabled tables used: %q", lines)
	}
}

func bbOf(x uint32) bitboard.Bitboard { return bitboard.Bitboard(x) }

// boardFEN is the board field of a FEN with White on white and Black on black.
func boardFEN(white, black uint32) string {
	b := []byte(strings.Repeat("*", 24))
	for s := 0; s < 24; s++ {
		switch {
		case white&(1<<s) != 0:
			b[s] = 'O'
		case black&(1<<s) != 0:
			b[s] = '@'
		}
	}
	return string(b[0:8]) + "/" + string(b[8:16]) + "/" + string(b[16:24])
}

// UCI_ShowWDL: info lines carry "wdl W D L", exact where the tables know the
// value, from the score's model elsewhere.
func TestShowWDL(t *testing.T) {
	h := tablesHarness(t, "setoption name UCI_ShowWDL value true")
	h.send("position fen ***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1", "go depth 3")
	lines := h.until("bestmove")
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " score mate 1 wdl 1000 0 0 nodes ") }) {
		t.Fatalf("table win: %q", lines)
	}
	h.send("position fen **O@***O/*O******/*@@***** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1 moves f6-f4 e3-d5 f4-f6 d5-e3 f6-f4 e3-d5 f4-f6 d5-e3", "go depth 3")
	lines = h.until("bestmove")
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " score cp 0 wdl 0 1000 0 nodes ") }) {
		t.Fatalf("table draw: %q", lines)
	}
	h.send("position startpos", "go depth 2")
	lines = h.until("bestmove")
	if !slices.ContainsFunc(lines, func(l string) bool {
		return regexp.MustCompile(` score cp -?\d+ wdl \d+ \d+ \d+ nodes `).MatchString(l)
	}) {
		t.Fatalf("start: %q", lines)
	}
	for _, c := range []struct{ score, w, d, l int }{{0, 34, 932, 34}, {100, 159, 834, 7}, {-100, 7, 834, 159}, {200, 500, 499, 1}} {
		in := search.Info{Score: c.score}
		if w, d, l := wdlOf(&in); w != c.w || d != c.d || l != c.l {
			t.Errorf("score %d: %d %d %d, want %d %d %d", c.score, w, d, l, c.w, c.d, c.l)
		}
	}
}

// Late in the placing phase the engine proves the root down to the tables
// before it searches: it says so, keeps only the actions that keep the
// proven value, and reports that value (a draw scores 0, exactly).
func TestProofAtTheRoot(t *testing.T) {
	h := tablesHarness(t, "setoption name UCI_ShowWDL value true")
	// The proof may take a third of the move's time: 5 s here, far more than
	// it needs alone (beside the other packages' tests on two cores, under
	// the race detector, the two-thread proof once missed a 1 s budget: make
	// test, 2026-11-29). Once the proof line is out the search is stopped:
	// the test waits for the proof, not the clock.
	proofDraw := regexp.MustCompile(`^info string proof draw in 4 placements \(\d+ nodes, \d+ ms\): keep it( \w\d){21}, a removal worth ` +
		strconv.Itoa(search.DefaultDrawnTrades) + `, the opponent flying -` + strconv.Itoa(search.DefaultDrawnFlying) + `$`)
	// prove sends the position and go, waits for the proof line (failing if
	// bestmove comes first), stops the search and returns every line up to
	// bestmove.
	prove := func(threads string) []string {
		t.Helper()
		h.send("position fen *O*****@/********/***O**** w p p 2 2 1 2 0 0 0 0 0 0 0 0 9", "go movetime 15000")
		var lines []string
		for {
			l, ok := h.next()
			if !ok || strings.HasPrefix(l, "bestmove") {
				t.Fatalf("no proof line with %s: %q", threads, append(lines, l))
			}
			lines = append(lines, l)
			if strings.HasPrefix(l, "info string proof draw") {
				break
			}
		}
		if !proofDraw.MatchString(lines[len(lines)-1]) {
			t.Fatalf("proof line with %s: %q", threads, lines[len(lines)-1])
		}
		h.send("stop")
		return append(lines, h.until("bestmove")...)
	}
	lines := prove("one thread")
	last := ""
	for _, l := range lines {
		if strings.Contains(l, " score ") {
			last = l
		}
	}
	if !strings.Contains(last, " score cp 0 wdl 0 1000 0 ") {
		t.Fatalf("last score line %q in %q", last, lines)
	}
	if src, best := lines[len(lines)-2], lines[len(lines)-1]; src != "info string proof move "+strings.TrimPrefix(best, "bestmove ") {
		t.Fatalf("source line %q before %q", src, best)
	}
	// With two search threads the proof shares its root's actions between
	// two (the race detector watches the shared table): the same proof.
	h.send("setoption name Threads value 2")
	prove("two threads")
	h.send("setoption name Threads value 1")
	// With more time the horizon grows (search.proofHorizon): seven
	// placements left, tried with a budget of 20 s (a third of 60 s: far
	// more than the quarter second it takes alone, or the 2 s under the race
	// detector; beside the other packages' tests on two cores it took more
	// than 5 s: make test failed so once, 2026-11-28); stopped once proven,
	// the engine plays one of the actions the proof keeps.
	h.send("position fen ********/********/******** w p p 0 4 0 3 0 0 0 0 0 0 0 0 1", "go movetime 60000")
	var proof string
	for proof == "" {
		l, ok := h.next()
		if !ok || strings.HasPrefix(l, "bestmove") {
			t.Fatalf("no proof with 7 placements left before %q", l)
		}
		if strings.HasPrefix(l, "info string proof ") {
			proof = l
		}
	}
	h.send("stop")
	m := regexp.MustCompile(`^info string proof win in 7 placements \(\d+ nodes, \d+ ms\): keep it((?: \w\d)+)$`).FindStringSubmatch(proof)
	if m == nil {
		t.Fatalf("proof line %q", proof)
	}
	if best := h.until("bestmove"); !slices.Contains(strings.Fields(m[1]), strings.TrimPrefix(best[len(best)-1], "bestmove ")) {
		t.Fatalf("%q: not one of the proof's actions %q", best[len(best)-1], m[1])
	}
	// A fixed-depth search does not prove (bench and tools stay reproducible).
	h.send("go depth 2")
	if lines := h.until("bestmove"); slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string proof") }) {
		t.Fatalf("a depth search proved: %q", lines)
	}
	// Where placing may end in a sector the tables lack (4v4 here, the
	// tables going up to 7 pieces: a build half done), there is no proof
	// and the search plays on; the engine used to panic at the first leaf.
	h.send("position fen *O*****@/********/***O***@ w p p 2 2 2 2 0 0 0 0 0 0 0 0 9", "go movetime 300")
	lines = h.until("bestmove")
	if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string proof") }) {
		t.Fatalf("a proof without the tables it needs: %q", lines)
	}
	if best := lines[len(lines)-1]; !regexp.MustCompile(`^bestmove [a-g][1-7]$`).MatchString(best) {
		t.Fatalf("answer %q", best)
	}
	h.send("isready")
	h.until("readyok")
}

// At a drawn table root the search chooses among the drawing moves
// (TableWinningChances off, the default) and reports the draw
// the tables prove: every scored line says cp 0 and the move is a drawing
// one, from the tables. With TableWinningChances on the tables' own choice
// (the fewest drawing replies, first in the egtb line) is played.
func TestTableDrawChosenBySearch(t *testing.T) {
	dir := smallTables(t)
	r := rules.Default()
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	fen := ""
	rng := rand.New(rand.NewPCG(31, 32))
	for tries := 0; tries < 20000 && fen == ""; tries++ {
		perm := rng.Perm(24)
		var w, b uint32
		for _, s := range perm[:3] {
			w |= 1 << s
		}
		for _, s := range perm[3:7] {
			b |= 1 << s
		}
		f := boardFEN(w, b) + " w m s 3 0 4 0 0 0 0 0 0 0 0 0 1"
		p, err := position.ParseFEN(&r, f)
		if err != nil || p.IsOver() {
			continue
		}
		if v, ok := tb.Probe(&r, &p); !ok || !v.IsDraw() {
			continue
		}
		acts, ok := tb.RankRoot(position.NewGame(r, p))
		if ok && acts[len(acts)-1].Class != egtb.DrawPlays && acts[1].Class == egtb.DrawPlays {
			fen = f // two drawing moves at least, and a losing one
		}
	}
	if fen == "" {
		t.Fatal("no drawn 3v4 position with a choice")
	}
	p := testkit.Position(t, &r, fen)
	h := startHarness(t, testConfig())
	// A fixed depth, not a move's time: a loaded machine once left the
	// search 300 ms short of its third ply (2026-11-29).
	h.send("setoption name EGTBPath value "+dir, "position fen "+fen, "go depth 3")
	lines := h.until("bestmove")
	best := bestMoveOf(t, lines[len(lines)-1])
	m, err := movegen.ParseLegal(&r, &p, best)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := tb.ActionValue(&r, &p, m); !v.IsDraw() {
		t.Fatalf("%s: the search chose %s (%s): %q", fen, best, v, lines)
	}
	scored := 0
	for _, l := range lines {
		if strings.Contains(l, " score ") {
			scored++
			if !strings.Contains(l, " score cp 0 ") {
				t.Fatalf("%s: %q does not report the draw", fen, l)
			}
		}
	}
	searched := slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info depth 3 ") })
	if scored == 0 || !searched || lines[len(lines)-2] != "info string tables move "+best {
		t.Fatalf("%s: %d scored lines, searched %t, %q", fen, scored, searched, lines)
	}
	h.send("setoption name TableWinningChances value true", "go depth 3")
	lines = h.until("bestmove")
	egtbLine := lines[0]
	first := strings.Fields(strings.TrimPrefix(egtbLine, "info string egtb draw moves "))[0]
	searched = slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info depth 3 ") })
	if !strings.HasPrefix(egtbLine, "info string egtb draw moves ") || lines[len(lines)-1] != "bestmove "+first || searched {
		t.Fatalf("TableWinningChances: %q, want the egtb line's first move at once", lines)
	}
}
