package uci

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// maxSelfPlayPlies bounds a self-play game; with NMoveRule 30 a game ends
// far earlier.
const maxSelfPlayPlies = 600

// selfPlay plays a whole game of the engine against itself through h at
// depth 2, checking every bestmove and pv against its own Game. With
// interrupts, some searches are infinite ones stopped after an isready, and
// isready is sent during others.
func selfPlay(t *testing.T, h *harness, interrupts bool) *position.Game {
	t.Helper()
	r := rules.Default()
	r.NMoveRule = 30
	h.send("uci")
	h.until("uciok")
	h.send("setoption name NMoveRule value 30", "ucinewgame", "isready")
	expectLines(t, h, "readyok")
	g := position.NewGame(r, position.New(&r))
	var moves []string
	for ply := 0; !g.Pos.IsOver() && ply < maxSelfPlayPlies; ply++ {
		h.send(strings.TrimSpace("position startpos moves " + strings.Join(moves, " ")))
		mode := "plain"
		switch {
		case interrupts && ply%7 == 3:
			mode = "stop"
			h.send("go infinite", "isready")
		case interrupts && ply%5 == 1:
			mode = "isready"
			h.send("go depth 2", "isready")
		default:
			h.send("go depth 2")
		}
		if mode == "stop" {
			var got []string
			for !slices.Contains(got, "readyok") {
				l, ok := h.next()
				if !ok {
					t.Fatal("output ended")
				}
				got = append(got, l)
			}
			h.send("stop")
		}
		lines := h.until("bestmove")
		if mode == "isready" && !slices.Contains(lines, "readyok") {
			lines = append(lines, h.until("readyok")...)
		}
		moves = append(moves, testkit.PlayAnswer(t, g, lines, true))
	}
	if !g.Pos.IsOver() {
		t.Fatalf("game not over after %d plies: %s", len(moves), g.Pos.FEN())
	}
	// The engine agrees that the game is over.
	h.send("position startpos moves "+strings.Join(moves, " "), "go depth 2")
	lines := h.until("bestmove")
	res, why := g.Pos.Result()
	want := []string{"info string game over: " + res.String() + " (" + why.String() + ")", "bestmove none"}
	if !slices.Equal(lines, want) {
		t.Fatalf("after the game: %q, want %q", lines, want)
	}
	return g
}

// A whole game at Threads 2, with isready and stop arriving mid-search, under
// the race detector when the tests run with -race.
func TestSelfPlayThreads2(t *testing.T) {
	cfg := testConfig()
	cfg.Threads = 2
	h := startHarness(t, cfg)
	g := selfPlay(t, h, true)
	res, why := g.Pos.Result()
	t.Logf("%d plies: %s (%s)", len(g.Moves), res, why)
	if rest, err := h.finish(); err != nil || len(rest) > 0 {
		t.Fatalf("finish: %v %q", err, rest)
	}
}

var timeFields = regexp.MustCompile(` (time|nps) \d+`)

// With Threads 1, go depth N repeats itself (time and nps aside).
func TestGoDepthDeterministic(t *testing.T) {
	run := func() []string {
		h := startHarness(t, testConfig())
		h.send("position startpos moves d6 f4 b4", "go depth 4")
		lines := h.until("bestmove")
		h.send("position startpos moves a7 b4 d7 f4 g7", "go depth 3")
		lines = append(lines, h.until("bestmove")...)
		for i, l := range lines {
			lines[i] = timeFields.ReplaceAllString(l, " $1 _")
		}
		return lines
	}
	a, b := run(), run()
	if !slices.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n--\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if !strings.HasPrefix(a[len(a)-1], "bestmove x") {
		t.Fatalf("after a mill the bestmove is not a removal: %q", a[len(a)-1])
	}
}

// TestStopLatency measures the time from stop to bestmove during a deep
// infinite search and logs it; it asserts nothing about the figures (a hang
// still fails: every wait has a timeout).
func TestStopLatency(t *testing.T) {
	cfg := testConfig()
	cfg.HashMB = 1
	h := startHarness(t, cfg)
	var samples []time.Duration
	for i := range 5 {
		samples = append(samples, testkit.StopTime(h.send, h.until, time.Duration(150+50*i)*time.Millisecond))
	}
	slices.Sort(samples)
	t.Logf("stop -> bestmove over %d searches: min %v, median %v, max %v", len(samples), samples[0], samples[len(samples)/2], samples[len(samples)-1])
}
