package uci

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// noLineWithin fails if the session writes anything within d.
func noLineWithin(t *testing.T, h *harness, d time.Duration) {
	t.Helper()
	h.None(d)
}

// go mate N searches for a win in N turns and stops when it has one.
func TestGoMate(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("position fen ***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30", "go mate 1")
	lines := h.until("bestmove")
	if got := lines[len(lines)-1]; got != "bestmove g4-g7" {
		t.Fatalf("bestmove %q, want g4-g7; %q", got, lines)
	}
	if !strings.Contains(strings.Join(lines, "\n"), " score mate 1 ") {
		t.Fatalf("no mate 1 score in %q", lines)
	}
}

// debug and register are standard UCI commands: accepted without an error.
func TestDebugAndRegister(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("debug on", "debug off", "register later", "register name x code y", "isready")
	expectLines(t, h, "readyok")
	h.send("debug maybe")
	expectLines(t, h, "info string error: debug: want 'debug on' or 'debug off'")
}

// An unknown go token is ignored with a warning; the search goes on.
func TestUnknownGoTokenIgnored(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("go depth 2 frobnicate 7")
	expectLines(t, h, "info string warning: go: unknown arguments 'frobnicate' '7' ignored")
	lines := h.until("bestmove")
	if got := lines[len(lines)-1]; got == "bestmove none" {
		t.Fatalf("go with an unknown token gave %q", lines)
	}
}

// go nodes N stops within a few nodes of N, also for small N.
func TestGoNodesSmall(t *testing.T) {
	for _, n := range []int{1, 10, 100, 5000} {
		h := startHarness(t, testConfig())
		h.send("go nodes " + strconv.Itoa(n))
		lines := h.until("bestmove")
		var last int
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "info" {
				for i := 0; i+1 < len(f); i++ {
					if f[i] == "nodes" {
						last, _ = strconv.Atoi(f[i+1])
					}
				}
			}
		}
		if last > n+n/10+8 {
			t.Errorf("go nodes %d: the search reported %d nodes", n, last)
		}
		if lines[len(lines)-1] == "bestmove none" {
			t.Errorf("go nodes %d: %q", n, lines)
		}
	}
}

// go infinite on a finished game says so at once and holds bestmove none
// until stop, like any infinite search.
func TestInfiniteOnFinishedGame(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("position fen O*O*****/@@@*****/******** w o s 2 0 3 0 0 0 0 0 0 0 0 0 20", "go infinite")
	expectLines(t, h, "info string game over: black wins (fewer than the minimum pieces)")
	noLineWithin(t, h, 200*time.Millisecond)
	h.send("isready")
	expectLines(t, h, "readyok")
	h.send("stop")
	expectLines(t, h, "bestmove none")
	h.send("go depth 3")
	expectLines(t, h, "info string game over: black wins (fewer than the minimum pieces)", "bestmove none")
}

// A UTF-8 byte-order mark before the first command is ignored.
func TestByteOrderMark(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("\ufeffisready")
	expectLines(t, h, "readyok")
	h.send("\ufeffisready")
	expectLines(t, h, "info string error: unknown command '\\ufeffisready'")
}

// searchmoves with more than 128 tokens, duplicates among them, is searched
// over the distinct moves.
func TestManySearchMoves(t *testing.T) {
	h := startHarness(t, testConfig())
	toks := strings.Repeat("a7 d7 g7 a4 ", 60)
	h.send("go depth 3 searchmoves " + toks)
	lines := h.until("bestmove")
	best := lines[len(lines)-1]
	if !slices.Contains([]string{"bestmove a7", "bestmove d7", "bestmove g7", "bestmove a4"}, best) {
		t.Fatalf("%q", lines)
	}
	// A search this short sends no periodic line: every info line is an
	// iteration's, with its score and a pv.
	for _, l := range lines[:len(lines)-1] {
		if strings.Contains(l, "error") || !strings.Contains(l, " score ") || !strings.Contains(l, " pv ") {
			t.Fatalf("%q in %q", l, lines)
		}
	}
}

// checkSelDepth fails if an info line reports a seldepth below its depth.
func checkSelDepth(t *testing.T, lines []string) {
	t.Helper()
	for _, l := range lines {
		f := strings.Fields(l)
		var depth, sel = -1, -1
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "depth":
				depth, _ = strconv.Atoi(f[i+1])
			case "seldepth":
				sel, _ = strconv.Atoi(f[i+1])
			}
		}
		if depth >= 0 && sel >= 0 && sel < depth {
			t.Fatalf("seldepth %d below depth %d: %q", sel, depth, l)
		}
	}
}

// When every move is a known draw (here the 100th slide), the search stops
// at once instead of iterating to the maximum depth; in infinite mode it
// then holds its bestmove until stop.
func TestAllDrawsStopAtOnce(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("position fen @*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 99 10", "go depth 60")
	lines := h.until("bestmove")
	if len(lines) > 4 {
		t.Fatalf("%d lines for a root of known draws: %q", len(lines), lines)
	}
	checkSelDepth(t, lines)
	h.send("go infinite")
	time.Sleep(300 * time.Millisecond)
	h.send("stop")
	lines = h.until("bestmove")
	if len(lines) > 4 {
		t.Fatalf("%d lines in go infinite for a root of known draws", len(lines))
	}
}

// seldepth is never below depth.
func TestSelDepthAtLeastDepth(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("position startpos moves d6 f4 b6 d2", "go depth 9")
	checkSelDepth(t, h.until("bestmove"))
	h.send("go depth 9")
	checkSelDepth(t, h.until("bestmove"))
}

// A position string whose counter has reached the N-move rule is a draw.
func TestFENAtNMoveRuleIsOver(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("position fen @*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 100 10", "go depth 3")
	expectLines(t, h, "info string game over: draw (N-move rule)", "bestmove none")
	h.send("position fen @*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 101 10")
	expectLines(t, h, "info string error: position fen: fen field 16 (rule50) \"101\": 101 plies without a placement or removal: past the N-move rule (100)")
}

// The uci answer lists the rule options under the names Sanmill's newer
// engine lists too (PieceCount, FlyPieceCount), each the same setting.
func TestSanmillOptionAliases(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("uci")
	lines := h.until("uciok")
	for _, want := range []string{
		"option name PiecesCount type spin default 9 min 9 max 12",
		"option name PieceCount type spin default 9 min 9 max 12",
		"option name flyPieceCount type spin default 3 min 3 max 4",
		"option name FlyPieceCount type spin default 3 min 3 max 4",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("uci lacks %q", want)
		}
	}
	h.send("setoption name PieceCount value 12", "setoption name Fly Piece Count value 4", "position startpos", "d")
	lines = h.until("legal:")
	if !slices.Contains(lines, "pieces in hand: white 12 black 12") {
		t.Fatalf("PieceCount 12 did not set PiecesCount: %q", lines)
	}
}

// A Hash the machine cannot supply is refused with an error line; the table
// keeps its size and the session goes on.
func TestHashBeyondMemory(t *testing.T) {
	cfg := testConfig()
	cfg.MaxHashMB = 1 << 30
	h := startHarness(t, cfg)
	h.send("setoption name Hash value 1073741824", "isready")
	l, _ := h.next()
	if !strings.HasPrefix(l, "info string error: option Hash: 1073741824 MB is more than the memory available (") ||
		!strings.HasSuffix(l, "; the table stays at 1 MB") {
		t.Fatalf("got %q", l)
	}
	expectLines(t, h, "readyok")
	h.send("go depth 2")
	if got := h.until("bestmove"); got[len(got)-1] == "bestmove none" {
		t.Fatalf("%q", got)
	}
}

// The table is allocated off the loop: isready waits for it, quit does not.
// The allocation is a fake one that lasts until the test releases it, so the
// test does not hang on how long the machine takes to map a real table.
func TestQuitDuringHashAllocation(t *testing.T) {
	started, release := make(chan int, 2), make(chan struct{})
	f := &fakeEngine{setHash: func(mb int) error {
		started <- mb
		<-release
		return nil
	}}
	defer close(release)
	h := fakeHarness(t, f)
	h.send("setoption name Hash value 64", "isready")
	if mb := <-started; mb != 64 {
		t.Fatalf("SetHash(%d), want 64", mb)
	}
	h.None(50 * time.Millisecond) // nothing while the table is allocated
	release <- struct{}{}
	expectLines(t, h, "readyok")
	h.send("setoption name Hash value 1024", "go depth 30")
	if mb := <-started; mb != 1024 {
		t.Fatalf("SetHash(%d), want 1024", mb)
	}
	h.send("quit")
	// The session ends on quit itself, with its input still open.
	if l, ok := h.next(); ok {
		t.Fatalf("%q after quit", l)
	}
	if rest, err := h.finish(); err != nil || len(rest) != 0 {
		t.Fatalf("finish: %v %q", err, rest)
	}
	if f.Searches() != 0 {
		t.Fatal("the go queued behind the allocation ran after quit")
	}
}

// However many threads are asked for, the loop keeps answering: isready and
// stop are answered during an infinite search with Threads 64, because the
// search is clamped to the CPUs the engine may use (with 64 unclamped threads
// each answer took seconds). How fast they are answered is a figure, not a
// pass mark: BenchmarkLoopLatencyThreads64 measures it, so a loaded machine
// cannot fail this test.
func TestManyThreadsDoNotStarveTheLoop(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("setoption name Threads value 64")
	if n := runtime.GOMAXPROCS(0); n < 64 {
		expectLines(t, h, fmt.Sprintf("info string Threads 64 is more than the %d CPUs the engine may use; the search runs %d threads", n, n))
	}
	for range 3 {
		h.send("go infinite")
		time.Sleep(100 * time.Millisecond)
		h.send("isready")
		h.until("readyok")
		h.send("stop")
		h.until("bestmove")
	}
}

// BenchmarkLoopLatencyThreads64 reports how long isready and stop take to be
// answered during an infinite search with Threads 64 (ns per answer, as
// isready-ns and stop-ns).
func BenchmarkLoopLatencyThreads64(b *testing.B) {
	h := startHarness(b, testConfig())
	h.send("setoption name Threads value 64")
	var ready, stop time.Duration
	for b.Loop() {
		h.send("go infinite")
		b.StopTimer()
		time.Sleep(50 * time.Millisecond)
		b.StartTimer()
		start := time.Now()
		h.send("isready")
		h.until("readyok")
		ready += time.Since(start)
		start = time.Now()
		h.send("stop")
		h.until("bestmove")
		stop += time.Since(start)
	}
	b.ReportMetric(float64(ready.Nanoseconds())/float64(b.N), "isready-ns")
	b.ReportMetric(float64(stop.Nanoseconds())/float64(b.N), "stop-ns")
}
