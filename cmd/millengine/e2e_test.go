package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// binary returns the engine built once with the version "e2e-test"; the
// end-to-end tests drive it through pipes.
func binary(t *testing.T) string {
	t.Helper()
	return testkit.Binary(t, "./cmd/millengine", "e2e-test")
}

// raceBinary returns the engine built with -race when the tests run under
// the race detector, and the plain binary otherwise.
func raceBinary(t *testing.T) string {
	t.Helper()
	if !testkit.Race {
		return binary(t)
	}
	return testkit.Binary(t, "./cmd/millengine", "e2e-test", "-race")
}

// proc is a running engine process.
type proc struct{ *testkit.Proc }

func startProc(t *testing.T, args ...string) proc {
	t.Helper()
	return startBinary(t, binary(t), args...)
}

func startBinary(t *testing.T, bin string, args ...string) proc {
	t.Helper()
	return proc{testkit.Start(t, bin, args...)}
}

func (p proc) wait() error                  { return p.Wait() }
func (p proc) send(lines ...string)         { p.Send(lines...) }
func (p proc) until(prefix string) []string { return p.Until(prefix) }

// A whole game of the binary against itself at depth 2: every bestmove is
// legal in our own copy of the game, every pv is legal, and the game ends by
// the rules.
func TestEndToEndSelfPlay(t *testing.T) {
	p := startProc(t, "--log-level", "debug")
	p.send("uci")
	lines := p.until("uciok")
	if lines[0] != "id name millengine e2e-test" {
		t.Fatalf("first line %q", lines[0])
	}
	g := startGame(p)
	var moves []string
	for ply := 0; !g.Pos.IsOver() && ply < 600; ply++ {
		p.send(strings.TrimSpace("position startpos moves "+strings.Join(moves, " ")), "go depth 2")
		moves = append(moves, testkit.PlayAnswer(t, g, p.until("bestmove"), false))
	}
	if !g.Pos.IsOver() {
		t.Fatalf("no result after %d plies", len(moves))
	}
	res, why := g.Pos.Result()
	p.send("position startpos moves "+strings.Join(moves, " "), "go")
	want := []string{fmt.Sprintf("info string game over: %s (%s)", res, why), "bestmove none"}
	if got := p.until("bestmove"); !slices.Equal(got, want) {
		t.Fatalf("after the game: %q, want %q", got, want)
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatalf("exit: %v\nstderr:\n%s", err, p.Stderr())
	}
	t.Logf("%d plies: %s (%s)", len(moves), res, why)
	if !strings.Contains(p.Stderr(), "line=quit") {
		t.Errorf("debug log on stderr lacks the commands:\n%s", p.Stderr())
	}
}

// TestEndToEndThreads2 plays a whole game of the binary against itself with
// Threads 2 while isready and stop arrive mid-search. Under -race the binary
// is built with the race detector too, which makes the engine exit with an
// error and a report on stderr if two threads race. On even plies `go depth 4`
// is followed at once by isready (readyok and bestmove may come in either
// order); on odd plies `go infinite` is followed by isready, whose readyok
// must come while the search holds its bestmove, and then by stop. Every
// bestmove is legal and the game ends by the rules.
func TestEndToEndThreads2(t *testing.T) {
	p := startBinary(t, raceBinary(t), "--threads", "2", "--hash", "8")
	p.send("uci")
	p.until("uciok")
	g := startGame(p)
	var moves []string
	for ply := 0; !g.Pos.IsOver() && ply < 600; ply++ {
		p.send(strings.TrimSpace("position startpos moves " + strings.Join(moves, " ")))
		var lines []string
		if ply%2 == 0 {
			p.send("go depth 4", "isready")
			for !slices.Contains(lines, "readyok") || !slices.ContainsFunc(lines, isBestmove) {
				lines = append(lines, p.next())
			}
		} else {
			p.send("go infinite", "isready")
			lines = p.until("readyok")
			if slices.ContainsFunc(lines, isBestmove) {
				t.Fatalf("ply %d: bestmove before stop in go infinite: %q", ply, lines)
			}
			p.send("stop")
			lines = append(lines, p.until("bestmove")...)
		}
		moves = append(moves, testkit.PlayAnswer(t, g, lines, true))
	}
	if !g.Pos.IsOver() {
		t.Fatalf("no result after %d plies", len(moves))
	}
	p.send("quit")
	if err := p.wait(); err != nil {
		t.Fatalf("exit: %v\nstderr:\n%s", err, p.Stderr())
	}
	if strings.Contains(p.Stderr(), "DATA RACE") {
		t.Fatalf("race report:\n%s", p.Stderr())
	}
	res, why := g.Pos.Result()
	t.Logf("race detector in the binary: %v; %d plies: %s (%s)", testkit.Race, len(moves), res, why)
}

// startGame starts a game with the N-move rule at 30 (so that self-play ends
// soon) in the engine and in our own copy, which it returns.
func startGame(p proc) *position.Game {
	p.send("setoption name NMoveRule value 30", "ucinewgame", "isready")
	p.until("readyok")
	r := rules.Default()
	r.NMoveRule = 30
	return position.NewGame(r, position.New(&r))
}

func isBestmove(l string) bool { return strings.HasPrefix(l, "bestmove ") }

// next reads one line; the end of the output fails the test.
func (p proc) next() string { return p.Line() }

// TestLatency measures, on the real binary, the time from stop to bestmove
// and from quit to the end of the process during go infinite, and logs the
// figures. It asserts nothing about them: on a loaded machine they measure the
// scheduler. A hang still fails (every wait has a timeout).
func TestLatency(t *testing.T) {
	var stops, quits, engineStops, engineQuits []time.Duration
	for i := range 5 {
		logFile := filepath.Join(t.TempDir(), "engine.log")
		p := startProc(t, "--hash", "16", "--log-level", "debug", "--log-file", logFile)
		stops = append(stops, testkit.StopTime(p.send, p.until, time.Duration(200+50*i)*time.Millisecond))

		p.send("go infinite")
		time.Sleep(time.Duration(200+50*i) * time.Millisecond)
		start := time.Now()
		p.send("quit")
		if err := p.wait(); err != nil {
			t.Fatalf("exit: %v", err)
		}
		quits = append(quits, time.Since(start))
		st, qu := engineLatency(t, logFile)
		engineStops, engineQuits = append(engineStops, st), append(engineQuits, qu)
	}
	for _, s := range []struct {
		what string
		d    []time.Duration
	}{
		{"stop -> bestmove (seen by the test)", stops},
		{"quit -> process gone (seen by the test)", quits},
		{"stop read -> bestmove written (engine log)", engineStops},
		{"quit read -> session ended (engine log)", engineQuits},
	} {
		slices.Sort(s.d)
		t.Logf("%s over %d runs: min %v, median %v, max %v", s.what, len(s.d), s.d[0], s.d[len(s.d)/2], s.d[len(s.d)-1])
	}
}

// engineLatency reads the engine's JSON log and returns, as the engine saw
// them, the time from reading stop to writing the first search's bestmove,
// and from reading quit to the end of the session.
func engineLatency(t *testing.T, path string) (stop, quit time.Duration) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stopAt, quitAt time.Time
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Time    time.Time `json:"time"`
			Message string    `json:"message"`
			Line    string    `json:"line"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		switch {
		case rec.Message == "<<" && rec.Line == "stop" && stopAt.IsZero():
			stopAt = rec.Time
		case rec.Message == "search ended" && stop == 0 && !stopAt.IsZero():
			stop = rec.Time.Sub(stopAt)
		case rec.Message == "<<" && rec.Line == "quit":
			quitAt = rec.Time
		case rec.Message == "uci session ended":
			quit = rec.Time.Sub(quitAt)
		}
	}
	return stop, quit
}

// exitCode returns the exit status of an ended process.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("wait: %v", err)
	return -1
}

// The engine is never deaf: during a long bench in the protocol loop it
// answers isready, and SIGTERM ends it promptly with the status 143.
func TestSignalDuringBench(t *testing.T) {
	p := startProc(t, "--hash", "1")
	p.send("bench 60")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	p.send("isready")
	p.until("readyok")
	// bench 60 runs for minutes: a deaf loop would answer then, not in
	// seconds (the bound allows for a loaded CI machine).
	if el := time.Since(start); el > 30*time.Second {
		t.Fatalf("readyok %v after isready during bench", el)
	}
	start = time.Now()
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := exitCode(t, p.wait())
	if el := time.Since(start); el > 30*time.Second {
		t.Fatalf("exit %v after SIGTERM", el)
	}
	if code != 143 {
		t.Fatalf("exit status %d after SIGTERM, want 143; stderr %s", code, p.Stderr())
	}
}

// millengine bench stopped by SIGINT prints a partial summary and exits 130.
func TestBenchInterrupted(t *testing.T) {
	p := startProc(t, "bench", "--depth", "60", "--hash", "1")
	time.Sleep(300 * time.Millisecond)
	if err := p.Cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	lines := p.until("Nodes/second: ")
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Bench stopped after ") }) {
		t.Fatalf("no partial summary: %q", lines)
	}
	if code := exitCode(t, p.wait()); code != 130 {
		t.Fatalf("exit status %d after SIGINT, want 130", code)
	}
}

// make run prints nothing on stdout but the engine's own lines.
func TestMakeRunStdout(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("make not found: %v", err)
	}
	cmd := exec.Command(mk, "-s", "run")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = userEnv()
	cmd.Stdin = strings.NewReader("isready\nquit\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make run: %v\n%s", err, stderr.String())
	}
	if string(out) != "readyok\n" {
		t.Fatalf("make run printed %q on stdout", out)
	}
	// Without -s, as a user types it in a shell. Under CI this test runs
	// inside make test, and a sub-make announces its directory on stdout
	// before it reads the Makefile; the user's make is not a sub-make, so the
	// inherited make variables are dropped.
	cmd = exec.Command(mk, "run")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = userEnv()
	cmd.Stdin = strings.NewReader("isready\nquit\n")
	if out, err = cmd.Output(); err != nil || string(out) != "readyok\n" {
		t.Fatalf("make run (without -s) printed %q on stdout (%v)", out, err)
	}
}

// userEnv is this process's environment without the variables a parent make
// passes to its children: the environment of a user's shell.
func userEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES":
			continue
		}
		env = append(env, kv)
	}
	return env
}
