// Package testkit is the shared kit of the packages' tests: positions and
// games from FENs and move tokens, the repository's commands built once per
// test binary, and a line harness that reads an engine's output with a hang
// guard. It is imported by tests only; it exists so that seven packages do
// not each carry their own FEN helper, binary builder and line reader.
package testkit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Rules returns the rules of the preset named variant; "" is the standard
// game.
func Rules(tb testing.TB, variant string) rules.Rules {
	tb.Helper()
	if variant == "" {
		return rules.Default()
	}
	p, ok := rules.PresetByName(variant)
	if !ok {
		tb.Fatalf("unknown variant %q", variant)
	}
	return p.Rules
}

// Position parses fen under r; "" is the start position. A FEN the reader
// refuses fails the test.
func Position(tb testing.TB, r *rules.Rules, fen string) position.Position {
	tb.Helper()
	if fen == "" {
		return position.New(r)
	}
	p, err := position.ParseFEN(r, fen)
	if err != nil {
		tb.Fatalf("FEN %q: %v", fen, err)
	}
	return p
}

// Game is the game from fen ("" is the start position) under r with the
// move tokens played; an illegal token fails the test.
func Game(tb testing.TB, r rules.Rules, fen string, moves ...string) *position.Game {
	tb.Helper()
	g := position.NewGame(r, Position(tb, &r, fen))
	Play(tb, g, moves...)
	return g
}

// RandomPlacing returns a placing position of rules r (the board's
// topology; hands as given, not r's piece count) with White's and Black's
// pieces on the board and in hand as given, White to move, no mill on the
// board, drawn at random: late placing positions for the proof tests.
func RandomPlacing(tb testing.TB, r *rules.Rules, rng *rand.Rand, wOn, wHand, bOn, bHand int) position.Position {
	tb.Helper()
	for {
		perm := rng.Perm(bb.NumSquares)
		var w, b bb.Bitboard
		for _, s := range perm[:wOn] {
			w |= bb.Bit(bb.Square(s))
		}
		for _, s := range perm[wOn : wOn+bOn] {
			b |= bb.Bit(bb.Square(s))
		}
		if r.Topology().CountMills(w)+r.Topology().CountMills(b) > 0 {
			continue
		}
		fen := fmt.Sprintf("%s w p p %d %d %d %d 0 0 0 0 0 0 0 0 9", position.AppendBoard(nil, w, b, 0), wOn, wHand, bOn, bHand)
		return Position(tb, r, fen)
	}
}

// RandomGames yields the positions of games of random legal actions under
// r from the start position, with their ply: games games, each ending at
// the end of the game or after plies actions. The action played after a
// position is drawn from rng once the loop's body has seen it.
func RandomGames(r *rules.Rules, rng *rand.Rand, games, plies int) iter.Seq2[int, position.Position] {
	return func(yield func(int, position.Position) bool) {
		for range games {
			p := position.New(r)
			for ply := 0; ply < plies && !p.IsOver(); ply++ {
				if !yield(ply, p) {
					return
				}
				var ml movegen.MoveList
				movegen.Generate(r, &p, &ml)
				p.Do(r, ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
}

// Play plays move tokens on g; a token may hold several moves separated by
// spaces. An illegal one fails the test.
func Play(tb testing.TB, g *position.Game, moves ...string) {
	tb.Helper()
	for _, tok := range strings.Fields(strings.Join(moves, " ")) {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			tb.Fatalf("%s in %s: %v", tok, g.Pos.FEN(), err)
		}
		g.Play(m)
	}
}

// StopTime starts an infinite search of a placing position through send,
// lets it run for d, sends stop and returns the time until until has read
// the bestmove: the stop latency the engine's latency tests log.
func StopTime(send func(lines ...string), until func(prefix string) []string, d time.Duration) time.Duration {
	send("position startpos moves d6 f4 b4 d2", "go infinite")
	time.Sleep(d)
	start := time.Now()
	send("stop")
	until("bestmove")
	return time.Since(start)
}

// PlayAnswer checks an engine's lines for one go in the game g and plays
// its move: every info line's pv is legal from g's position, readyok comes
// only where allowed, and there is nothing else but one bestmove, which is
// legal and is played on g. It returns the bestmove's token.
func PlayAnswer(tb testing.TB, g *position.Game, lines []string, readyok bool) string {
	tb.Helper()
	ply := len(g.Moves)
	var best string
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) > 0 && f[0] == "info":
			if i := slices.Index(f, "pv"); i >= 0 {
				q := g.Pos
				for _, tok := range f[i+1:] {
					m, err := movegen.ParseLegal(&g.Rules, &q, tok)
					if err != nil {
						tb.Fatalf("ply %d: pv %q: %v", ply, l, err)
					}
					q.Do(&g.Rules, m)
				}
			}
		case len(f) >= 2 && f[0] == "bestmove" && best == "":
			best = f[1]
		case readyok && l == "readyok":
		default:
			tb.Fatalf("ply %d: unexpected line %q", ply, l)
		}
	}
	m, err := movegen.ParseLegal(&g.Rules, &g.Pos, best)
	if err != nil {
		tb.Fatalf("ply %d: bestmove %q in %s: %v", ply, best, g.Pos.FEN(), err)
	}
	g.Play(m)
	return best
}

// The commands a test binary has built, in one directory that Main removes.
var (
	buildMu  sync.Mutex
	buildDir string
	built    = map[string]buildResult{}
)

type buildResult struct {
	path string
	err  error
}

// Main runs the tests and removes the binaries Build made. Call it from
// TestMain when the package's tests build commands.
func Main(m *testing.M) {
	code := m.Run()
	buildMu.Lock()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	buildMu.Unlock()
	os.Exit(code)
}

// MainBuilding is Main for tests that all need one command: it builds the
// main package pkg with Build and sets *bin to its path before the tests
// run. A build that fails ends the test binary with exit status 1.
func MainBuilding(m *testing.M, bin *string, pkg, version string) {
	var err error
	if *bin, err = Build(pkg, version); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	Main(m)
}

// Build compiles the main package pkg (a path from the module root, such as
// "./cmd/millengine") with main.version set to version and the extra go
// build flags, once per test binary, and returns the executable's path.
// The go build cache makes a second build cheap but not free, so the result
// is shared.
func Build(pkg, version string, flags ...string) (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	key := pkg + "\x00" + version + "\x00" + strings.Join(flags, "\x00")
	if r, ok := built[key]; ok {
		return r.path, r.err
	}
	path, err := build(pkg, version, flags, len(built))
	built[key] = buildResult{path, err}
	return path, err
}

func build(pkg, version string, flags []string, n int) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("go tool not found: %w", err)
	}
	if buildDir == "" {
		if buildDir, err = os.MkdirTemp("", "millengine-testkit-"); err != nil {
			return "", err
		}
	}
	// Each build has its own directory, so the executable keeps its
	// command's name (a test may read it back, from a usage line or ps).
	dir := filepath.Join(buildDir, fmt.Sprint(n))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, filepath.Base(pkg))
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	args := append([]string{"build"}, flags...)
	args = append(args, "-ldflags", "-X main.version="+version, "-o", out, pkg)
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, msg)
	}
	return out, nil
}

// Binary is Build for one test: a build that fails fails the test.
func Binary(tb testing.TB, pkg, version string, flags ...string) string {
	tb.Helper()
	path, err := Build(pkg, version, flags...)
	if err != nil {
		tb.Fatal(err)
	}
	return path
}

// ModuleRoot returns the directory holding go.mod, searching upwards from the
// working directory (a package's tests run in the package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// LineTimeout bounds the wait for any one expected output line: a hang
// guard, far above any prompt answer on a loaded machine.
const LineTimeout = 10 * time.Second

// Lines reads an engine's output line by line in the background and hands
// the lines to a test with a hang guard, so a test that waits for a line
// that never comes fails instead of hanging.
type Lines struct {
	tb  testing.TB
	ch  chan string
	eof chan struct{} // closed when the reader has reached its end
}

// NewLines starts reading r; reading ends at r's end.
func NewLines(tb testing.TB, r io.Reader) *Lines {
	l := &Lines{tb: tb, ch: make(chan string, 4096), eof: make(chan struct{})}
	go func() {
		defer close(l.ch)
		defer close(l.eof)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			l.ch <- sc.Text()
		}
	}()
	return l
}

// Next returns the next line; ok is false at the end of the output.
func (l *Lines) Next() (line string, ok bool) {
	l.tb.Helper()
	select {
	case line, ok = <-l.ch:
		return line, ok
	case <-time.After(LineTimeout):
		l.tb.Fatalf("no output line within %v", LineTimeout)
		return "", false
	}
}

// Line returns the next line; the end of the output fails the test.
func (l *Lines) Line() string {
	l.tb.Helper()
	line, ok := l.Next()
	if !ok {
		l.tb.Fatal("output ended")
	}
	return line
}

// None fails the test if a line arrives within d: for what must stay
// silent, such as the loop while the table is allocated.
func (l *Lines) None(d time.Duration) {
	l.tb.Helper()
	select {
	case line, ok := <-l.ch:
		if ok {
			l.tb.Fatalf("unexpected line %q", line)
		}
	case <-time.After(d):
	}
}

// Until reads lines until one starts with prefix and returns them all, that
// one last.
func (l *Lines) Until(prefix string) []string {
	l.tb.Helper()
	var got []string
	for {
		line, ok := l.Next()
		if !ok {
			l.tb.Fatalf("output ended while waiting for %q; got %q", prefix, got)
		}
		got = append(got, line)
		if strings.HasPrefix(line, prefix) {
			return got
		}
	}
}

// Expect reads len(want) lines and fails unless they are exactly want.
func (l *Lines) Expect(want ...string) {
	l.tb.Helper()
	for i, w := range want {
		got, ok := l.Next()
		if !ok {
			l.tb.Fatalf("output ended before line %d %q", i, w)
		}
		if got != w {
			l.tb.Fatalf("line %d: got %q, want %q", i, got, w)
		}
	}
}

// Rest reads every line left until the end of the output.
func (l *Lines) Rest() []string {
	l.tb.Helper()
	var rest []string
	for {
		line, ok := l.Next()
		if !ok {
			return rest
		}
		rest = append(rest, line)
	}
}

// Send writes lines, each ended by a newline, to w; a failed write fails the
// test.
func Send(tb testing.TB, w io.Writer, lines ...string) {
	tb.Helper()
	for _, line := range lines {
		if _, err := io.WriteString(w, line+"\n"); err != nil {
			tb.Fatalf("writing %q: %v", line, err)
		}
	}
}

// Proc is a command running under a test, driven through its standard
// input and read line by line from its standard output.
type Proc struct {
	*Lines
	tb     testing.TB
	Cmd    *exec.Cmd
	in     io.WriteCloser
	stderr lockedBuilder
	exited chan struct{} // closed when the process has ended
	err    error         // its exit status, once exited is closed
}

// Start runs bin with args. At the end of the test its input is closed and,
// if it has not ended 5 s later, it is killed.
func Start(tb testing.TB, bin string, args ...string) *Proc {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p := &Proc{tb: tb, Cmd: cmd, in: in, exited: make(chan struct{})}
	cmd.Stderr = &p.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p.Lines = NewLines(tb, out)
	go func() {
		// Wait only after the output is read to its end: Wait closes the pipe.
		<-p.Lines.eof
		p.err = cmd.Wait()
		close(p.exited)
	}()
	tb.Cleanup(func() {
		in.Close()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return p
}

// Send writes lines to the process's input.
func (p *Proc) Send(lines ...string) {
	p.tb.Helper()
	Send(p.tb, p.in, lines...)
}

// CloseInput closes the process's input, as a GUI that goes away does.
func (p *Proc) CloseInput() error { return p.in.Close() }

// Wait waits up to 10 s for the process to end and returns its exit status.
func (p *Proc) Wait() error {
	p.tb.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(LineTimeout):
		p.tb.Fatal("the process did not exit")
		return nil
	}
}

// Stderr is what the process has written to its standard error so far.
func (p *Proc) Stderr() string { return p.stderr.String() }

// lockedBuilder is a strings.Builder safe for exec's copier and a reader.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// NotUnderRace skips a test under the race detector: one that works through
// data (solving or verifying tables, reading the whole book), where the
// detector slows the run many times over and finds nothing, because no
// goroutines share memory there. make test runs the packages of such tests
// once more without the detector, so every one of them runs.
func NotUnderRace(t testing.TB, why string) {
	t.Helper()
	if Race {
		t.Skip(why + "; make test runs it without the race detector")
	}
}
