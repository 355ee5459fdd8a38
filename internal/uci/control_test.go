package uci

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// fakeHarness starts a session on a fake engine.
func fakeHarness(t *testing.T, f *fakeEngine) *harness {
	cfg := testConfig()
	cfg.Engine = f
	return startHarness(t, cfg)
}

// deafHarness starts a session on a fake engine whose search reports one
// iteration, then ignores Stop until the test ends.
func deafHarness(t *testing.T) (*harness, *fakeEngine) {
	release := make(chan struct{})
	f := &fakeEngine{search: deafSearch(release)}
	h := fakeHarness(t, f)
	t.Cleanup(func() { close(release) }) // before the session's own clean-up
	return h, f
}

// expectLines reads len(want) lines and compares them.
func expectLines(t *testing.T, h *harness, want ...string) {
	t.Helper()
	for _, w := range want {
		got, ok := h.next()
		if !ok || got != w {
			t.Fatalf("got %q (more output: %v), want %q", got, ok, w)
		}
	}
}

// A search that ends early holds its bestmove until what ends the wait:
// stop for an infinite search, ponderhit for a pondering one. The same
// command again has nothing to answer.
func TestEarlyEndHoldsBestmove(t *testing.T) {
	for _, tc := range []struct{ goCmd, release string }{
		{"go infinite", "stop"},
		{"go ponder wtime 1000 btime 1000", "ponderhit"},
	} {
		t.Run(tc.release, func(t *testing.T) {
			f := &fakeEngine{} // returns at once, ignoring Infinite and Ponder
			h := fakeHarness(t, f)
			h.send("position startpos", tc.goCmd)
			expectLines(t, h, "info depth 1 seldepth 1 score cp 7 nodes 10 nps 1000 hashfull 0 time 1 pv d5")
			time.Sleep(20 * time.Millisecond) // the fake has long returned
			h.send("isready")
			expectLines(t, h, "readyok")
			h.send(tc.release)
			expectLines(t, h, "bestmove d5")
			h.send(tc.release, "isready")
			expectLines(t, h, "readyok")
			if rest, err := h.finish(); err != nil || len(rest) > 0 {
				t.Fatalf("finish: %v %q", err, rest)
			}
		})
	}
}

// MoveTime 0 means "search until stop" for a go without limits.
func TestMoveTimeZeroWaitsForStop(t *testing.T) {
	f := &fakeEngine{}
	h := fakeHarness(t, f)
	h.send("setoption name MoveTime value 0", "go")
	expectLines(t, h, "info depth 1 seldepth 1 score cp 7 nodes 10 nps 1000 hashfull 0 time 1 pv d5")
	if lim := f.Limits(); !lim.Infinite {
		t.Fatalf("limits %+v: want Infinite", lim)
	}
	h.send("stop")
	expectLines(t, h, "bestmove d5")
}

// A go without limits gets the MoveTime option's time.
func TestBareGoUsesMoveTime(t *testing.T) {
	tests := []struct {
		setup []string
		want  time.Duration
	}{
		{nil, time.Second},
		{[]string{"setoption name MoveTime value 3"}, 3 * time.Second},
		{[]string{"setoption name MoveTimeMs value 250"}, 250 * time.Millisecond},
		{[]string{"setoption name movetimems value 250", "setoption name MoveTime value 2"}, 2 * time.Second},
	}
	for _, tc := range tests {
		f := &fakeEngine{}
		h := fakeHarness(t, f)
		h.send(tc.setup...)
		h.send("go")
		h.until("bestmove")
		if lim := f.Limits(); lim.MoveTime != tc.want || lim.Infinite {
			t.Errorf("after %q: limits %+v, want MoveTime %v", tc.setup, lim, tc.want)
		}
	}
}

// The go's limits carry the time it arrived, from which the search's clock
// runs: the book and the tables' notes before the search are spent from the
// move's time.
func TestGoStampsArrival(t *testing.T) {
	f := &fakeEngine{}
	h := fakeHarness(t, f)
	before := time.Now()
	h.send("go movetime 100")
	h.until("bestmove")
	after := time.Now()
	if lim := f.Limits(); lim.Start.IsZero() || lim.Start.Before(before) || lim.Start.After(after) {
		t.Fatalf("limits' Start %v, want the go's arrival, between %v and %v", lim.Start, before, after)
	}
}

// stop during pondering answers with the bestmove too.
func TestPonderStop(t *testing.T) {
	f := &fakeEngine{search: untilStop}
	h := fakeHarness(t, f)
	h.send("go ponder movetime 10000")
	h.until("info")
	h.send("stop")
	expectLines(t, h, "bestmove d5")
}

// ponderhit reaches a running ponder search, which then ends under the clock.
func TestPonderHitReachesSearch(t *testing.T) {
	f := &fakeEngine{search: func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
		res := quickResult(g, report)
		for !f.hit.Load() && !f.stop.Load() {
			time.Sleep(time.Millisecond)
		}
		return res
	}}
	h := fakeHarness(t, f)
	h.send("go ponder depth 5")
	h.until("info")
	h.send("ponderhit")
	expectLines(t, h, "bestmove d5")
	if f.hitCalls.Load() == 0 {
		t.Fatal("PonderHit was never called")
	}
}

// go during a search stops it and answers it before starting the next.
func TestGoAfterGo(t *testing.T) {
	f := &fakeEngine{search: untilStop}
	h := fakeHarness(t, f)
	h.send("go infinite")
	h.until("info")
	h.send("position startpos moves d5", "go infinite")
	expectLines(t, h, "bestmove d5")
	h.until("info") // the second search, from the new position
	h.send("stop")
	got := h.until("bestmove")
	if got[len(got)-1] == "bestmove d5" {
		t.Fatalf("second search answered for the old position: %q", got)
	}
	if n := f.Searches(); n != 2 {
		t.Fatalf("%d searches, want 2", n)
	}
}

// The loop stops a search that overruns its movetime.
func TestHardDeadline(t *testing.T) {
	f := &fakeEngine{search: untilStop}
	h := fakeHarness(t, f)
	start := time.Now()
	h.send("go movetime 40")
	h.until("bestmove")
	el := time.Since(start)
	if el < 40*time.Millisecond {
		t.Fatalf("bestmove after %v, before the 40ms movetime", el)
	}
	t.Logf("bestmove %v after go movetime 40", el)
}

// quit with a search that never stops still ends the session promptly, with
// a bestmove.
func TestQuitWithStuckSearch(t *testing.T) {
	h, _ := deafHarness(t)
	h.send("go infinite")
	h.until("info")
	start := time.Now()
	h.send("quit")
	got := h.until("bestmove")
	if got[len(got)-1] != "bestmove d5" {
		t.Fatalf("got %q, want the last pv's move", got)
	}
	rest, err := h.finish()
	if err != nil || len(rest) > 0 {
		t.Fatalf("finish: %v %q", err, rest)
	}
	// The loop gives a stuck search quitWait (150ms); a loop that waited for
	// the search would never end: the bound is a hang guard, not a latency
	// figure (those are benchmarks: TestLatency's figures are printed).
	if el := time.Since(start); el > 30*time.Second {
		t.Fatalf("session ended %v after quit", el)
	}
}

// The end of input stops a running search and answers it.
func TestEndOfInputStopsSearch(t *testing.T) {
	f := &fakeEngine{search: untilStop}
	h := fakeHarness(t, f)
	h.send("go infinite")
	h.until("info")
	rest, err := h.finish()
	if err != nil || !slices.Equal(rest, []string{"bestmove d5"}) {
		t.Fatalf("finish: %v %q", err, rest)
	}
}

// The loop writes no info line of its own: a silent search stays silent
// (progress reports are the search's business), and stop answers it.
func TestLoopAddsNoInfo(t *testing.T) {
	f := &fakeEngine{search: func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
		for !f.stop.Load() {
			time.Sleep(time.Millisecond)
		}
		return search.Result{BestMove: firstLegal(g)}
	}}
	h := fakeHarness(t, f)
	h.send("go infinite")
	time.Sleep(1200 * time.Millisecond)
	h.send("stop")
	expectLines(t, h, "bestmove d5")
	if n := f.stopped.Load(); n != 1 {
		t.Fatalf("Stop called %d times, want once", n)
	}
}

// A search that ignores Stop after overrunning its time is abandoned by the
// watchdog with the last legal move it reported.
func TestWatchdogAbandonsDeafSearch(t *testing.T) {
	h, f := deafHarness(t)
	start := time.Now()
	h.send("go movetime 30")
	got := h.until("bestmove")
	el := time.Since(start)
	if got[len(got)-1] != "bestmove d5" {
		t.Fatalf("got %q, want the last pv's move", got)
	}
	if el < 30*time.Millisecond+goWait {
		t.Fatalf("abandoned after %v, before movetime + %v", el, goWait)
	}
	if n := f.stopped.Load(); n != 1 {
		t.Fatalf("Stop called %d times, want once", n)
	}
	h.send("isready")
	expectLines(t, h, "readyok")
}

// Whatever the search returns, bestmove is legal (and inside searchmoves),
// and info lines carry only the legal part of the pv.
func TestIllegalSearchOutputIsRepaired(t *testing.T) {
	d5, e5 := position.MakePlace(0), position.MakePlace(1)
	bad := position.MakeRemove(2)
	tests := []struct {
		name  string
		goCmd string
		res   search.Result
		pv    []position.Move
		want  []string
	}{
		{"illegal best, pv fallback", "go depth 1", search.Result{BestMove: bad}, []position.Move{e5, bad},
			[]string{"info depth 1 seldepth 1 score cp 7 nodes 10 nps 1000 hashfull 0 time 1 pv e5", "bestmove e5"}},
		{"no best, no pv", "go depth 1", search.Result{}, []position.Move{bad},
			[]string{"info depth 1 seldepth 1 nodes 10 nps 1000 hashfull 0 time 1", "bestmove d5"}},
		{"outside searchmoves", "go depth 1 searchmoves g7 a1", search.Result{BestMove: d5}, []position.Move{d5},
			[]string{"info depth 1 seldepth 1 score cp 7 nodes 10 nps 1000 hashfull 0 time 1 pv d5", "bestmove g7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeEngine{search: func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
				report(search.Info{Depth: 1, SelDepth: 1, MultiPV: 1, Score: 7, Nodes: 10, NPS: 1000,
					Time: time.Millisecond, PV: tc.pv})
				return tc.res
			}}
			h := fakeHarness(t, f)
			h.send(tc.goCmd)
			expectLines(t, h, tc.want...)
		})
	}
}

// MultiPV lines beyond the option are not shown; with MultiPV > 1 the lines
// are tagged.
func TestMultiPVFilter(t *testing.T) {
	report4 := func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
		for k := 1; k <= 4; k++ {
			report(search.Info{Depth: 1, SelDepth: 1, MultiPV: k, Score: 10 - k, Nodes: 10,
				PV: []position.Move{position.MakePlace(0)}})
		}
		return search.Result{BestMove: position.MakePlace(0)}
	}
	f := &fakeEngine{search: report4}
	h := fakeHarness(t, f)
	h.send("go depth 1")
	expectLines(t, h, "info depth 1 seldepth 1 score cp 9 nodes 10 nps 0 hashfull 0 time 0 pv d5", "bestmove d5")
	h.send("setoption name MultiPV value 2", "go depth 1")
	expectLines(t, h,
		"info depth 1 multipv 1 seldepth 1 score cp 9 nodes 10 nps 0 hashfull 0 time 0 pv d5",
		"info depth 1 multipv 2 seldepth 1 score cp 8 nodes 10 nps 0 hashfull 0 time 0 pv d5",
		"bestmove d5")
}

// bestmove carries a ponder move when Ponder is on and the move hands the
// turn to the opponent (not after a mill, where the removal is ours).
func TestPonderMove(t *testing.T) {
	withPonder := func(best, reply string) func(*fakeEngine, *position.Game, search.Limits, func(search.Info)) search.Result {
		return func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
			b, _ := position.ParseMove(best)
			r, _ := position.ParseMove(reply)
			return search.Result{BestMove: b, PonderMove: r, PV: []position.Move{b, r}}
		}
	}
	tests := []struct {
		hello, ponder, pos, best, reply, want string
	}{
		{"uci", "true", "startpos", "d5", "e5", "bestmove d5 ponder e5"},
		{"uci", "false", "startpos", "d5", "e5", "bestmove d5"},
		{"uci", "true", "startpos", "d5", "d5", "bestmove d5"}, // illegal reply
		{"uci", "true", "startpos moves a7 b4 d7 f4", "g7", "xb4", "bestmove g7"},
		// UGI has no ponder move: after ugi the move goes alone (cutegames
		// waited forever on "bestmove d1 ponder c5").
		{"ugi", "true", "startpos", "d5", "e5", "bestmove d5"},
	}
	for _, tc := range tests {
		f := &fakeEngine{search: withPonder(tc.best, tc.reply)}
		h := fakeHarness(t, f)
		h.send(tc.hello)
		h.until(tc.hello + "ok")
		h.send("setoption name Ponder value "+tc.ponder, "position "+tc.pos, "go depth 3")
		expectLines(t, h, tc.want)
	}
}

// Commands that change the engine are refused while a search runs; position
// is accepted and applies to the next go.
func TestBusyPolicy(t *testing.T) {
	f := &fakeEngine{search: func(f *fakeEngine, g *position.Game, lim search.Limits, report func(search.Info)) search.Result {
		if lim.Infinite {
			return untilStop(f, g, lim, report)
		}
		return quickResult(g, report)
	}}
	h := fakeHarness(t, f)
	h.send("go infinite")
	h.until("info")
	h.send("setoption name Hash value 2", "ucinewgame", "bench 1", "position startpos moves a1", "isready")
	expectLines(t, h,
		"info string error: setoption: a search is running; send stop first",
		"info string error: ucinewgame: a search is running; send stop first",
		"info string error: bench: a search is running; send stop first",
		"readyok")
	h.send("stop")
	expectLines(t, h, "bestmove d5")
	h.send("go depth 1")
	expectLines(t, h, "info depth 1 seldepth 1 score cp 7 nodes 10 nps 1000 hashfull 0 time 1 pv d5", "bestmove d5")
	if got := f.Calls(); slices.Contains(got, "SetHash") || slices.Contains(got, "NewGame") {
		t.Fatalf("engine calls during the search: %q", got)
	}
}

// ucinewgame clears the engine; rule changes clear it once, at the next go.
func TestNewGameCalls(t *testing.T) {
	f := &fakeEngine{}
	h := fakeHarness(t, f)
	h.send("ucinewgame", "setoption name Clear Hash", "setoption name Hash value 4",
		"setoption name PiecesCount value 10", "setoption name MayFly value false", "go depth 1")
	h.until("bestmove")
	h.send("go depth 1")
	h.until("bestmove")
	want := []string{"NewGame", "ClearHash", "SetHash", "NewGame"}
	if got := f.Calls(); !slices.Equal(got, want) {
		t.Fatalf("engine calls %q, want %q", got, want)
	}
}

// infoFields reads the integer fields of an info line ("depth", "nodes", …);
// it reports whether the line is a periodic one (no pv).
func infoFields(t *testing.T, line string) (map[string]int64, bool) {
	t.Helper()
	f := strings.Fields(line)
	vals := map[string]int64{}
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "pv" || f[i] == "score" {
			i++
			continue
		}
		if v, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
			vals[f[i]] = v
			i++
		}
	}
	for _, k := range []string{"depth", "nodes", "nps", "time"} {
		if _, ok := vals[k]; !ok {
			t.Fatalf("info line without %s: %q", k, line)
		}
	}
	return vals, !strings.Contains(line, " pv ")
}

// During go infinite every info line's nps agrees with its nodes and time,
// and the periodic lines (no pv) come from one place: at most once a second,
// only after a second without any line (by the engine's own clock, the
// lines' time field). How many periodic lines come, and the longest gap,
// depend on the machine's load (a loaded machine may finish a depth every
// second and need none): they are logged, not pass marks.
func TestInfiniteInfoLinesAgree(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("go infinite")
	time.Sleep(3500 * time.Millisecond)
	h.send("stop")
	lines := h.until("bestmove")
	lastTime, periodic, maxGap := int64(-1), 0, int64(0)
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "info depth ") {
			t.Fatalf("unexpected line %q", l)
		}
		v, isPeriodic := infoFields(t, l)
		nodes, nps, ms := v["nodes"], v["nps"], v["time"]
		if ms >= 20 {
			// time is truncated to the millisecond, nps is not.
			lo, hi := nodes*1000/(ms+1)-1, nodes*1000/ms+1
			if nps < lo || nps > hi {
				t.Errorf("nps %d disagrees with nodes %d in %d ms (want %d..%d): %q", nps, nodes, ms, lo, hi, l)
			}
		}
		if isPeriodic {
			periodic++
			if lastTime >= 0 && ms-lastTime < 950 {
				t.Errorf("periodic line %d ms after the previous line: %q", ms-lastTime, l)
			}
		}
		if lastTime >= 0 {
			maxGap = max(maxGap, ms-lastTime)
		}
		lastTime = ms
	}
	t.Logf("%d info lines, %d periodic, longest gap %d ms", len(lines)-1, periodic, maxGap)
}

// deafBound is how late an answer during a long job (bench 60, go perft 9:
// minutes each) may come: a hang guard, not a latency figure. A loop that
// waited for the job would answer minutes late; a loaded CI machine has
// delayed a prompt answer by 2.3 s once, so the bound sits well above that
// and well below the jobs' length.
const deafBound = 20 * time.Second

// readyDuring starts a session and the long job cmd in it, and checks that
// isready is answered within deafBound while the job runs.
func readyDuring(t *testing.T, cmd string) *harness {
	t.Helper()
	h := startHarness(t, testConfig())
	h.send(cmd)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	h.send("isready")
	expectLines(t, h, "readyok")
	if el := time.Since(start); el > deafBound {
		t.Fatalf("readyok %v after isready during %s", el, cmd)
	}
	return h
}

// go perft runs off the loop like a search: isready is answered while it
// counts, and stop ends it with the counts it has finished, whose sum is the
// total it prints.
func TestPerftIsNeverDeaf(t *testing.T) {
	h := readyDuring(t, "go perft 9")
	h.send("stop")
	lines := h.until("Nodes searched: ")
	var sum int64
	for _, l := range lines[:len(lines)-1] {
		switch {
		case l == "", strings.HasPrefix(l, "info string go perft stopped after "):
		default:
			tok, n, ok := strings.Cut(l, ": ")
			v, err := strconv.ParseInt(n, 10, 64)
			if !ok || err != nil || len(tok) != 2 {
				t.Fatalf("unexpected line %q in %q", l, lines)
			}
			sum += v
		}
	}
	if want := fmt.Sprintf("Nodes searched: %d", sum); lines[len(lines)-1] != want {
		t.Fatalf("total %q, want %q", lines[len(lines)-1], want)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string go perft stopped after ") }) {
		t.Fatalf("no stop notice in %q", lines)
	}
	h.send("isready")
	expectLines(t, h, "readyok")
}

// bench runs off the loop: isready is answered, stop ends it with a partial
// summary, and quit during a bench ends the session promptly.
func TestBenchIsNeverDeaf(t *testing.T) {
	h := readyDuring(t, "bench 60")
	h.send("stop")
	lines := h.until("Nodes/second: ")
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Bench stopped after ") }) {
		t.Fatalf("no partial summary in %q", lines)
	}
	h.send("bench 60")
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	h.send("quit")
	if _, err := h.finish(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > deafBound {
		t.Fatalf("session ended %v after quit during bench", el)
	}
}
