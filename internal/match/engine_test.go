package match

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/rules"
)

func TestParseAnswerLine(t *testing.T) {
	cases := []struct {
		line string
		done bool
		want Answer
	}{
		{"bestmove d6", true, Answer{Move: "d6"}},
		{"bestmove d6-d5 ponder d2", true, Answer{Move: "d6-d5"}},
		{"bestmove", true, Answer{}},
		{"info score 12 bestmove xb4", true, Answer{Move: "xb4", Score: "12"}}, // Sanmill
		{"info depth 7 seldepth 9 score cp -35 nodes 1000 nps 250000 time 4 pv a7 b4", false,
			Answer{Depth: 7, NPS: 250000, Score: "cp -35"}},
		{"info depth 3 score mate 2 pv d6 bestmove", false, Answer{Depth: 3, Score: "mate 2"}},
		{"info string bestmove soon depth 4", false, Answer{Notes: []string{"bestmove soon depth 4"}}},
		{"info depth x nps -5", false, Answer{}},
		{"readyok", false, Answer{}},
		{"", false, Answer{}},
	}
	for _, c := range cases {
		var a Answer
		if done := parseAnswerLine(c.line, &a); done != c.done || !reflect.DeepEqual(a, c.want) {
			t.Errorf("%q: done %v %+v, want %v %+v", c.line, done, a, c.done, c.want)
		}
	}
}

func TestParseOption(t *testing.T) {
	cases := map[string]Option{
		"Hash=64":            {Name: "Hash", Value: "64"},
		"Move Overhead = 10": {Name: "Move Overhead", Value: "10"},
		"Clear Hash":         {Name: "Clear Hash", Button: true},
		"Path=":              {Name: "Path", Value: ""},
	}
	for in, want := range cases {
		got, err := ParseOption(in)
		if err != nil || got != want {
			t.Errorf("ParseOption(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	if _, err := ParseOption("=5"); err == nil {
		t.Error("ParseOption(=5): want an error")
	}
	if got := (Option{Name: "Clear Hash", Button: true}).Command(); got != "setoption name Clear Hash" {
		t.Errorf("button command %q", got)
	}
}

func startTest(t *testing.T, args ...string) *Process {
	t.Helper()
	spec := EngineSpec{Name: "test", Path: randomEngine, Args: args}
	p, err := Start(context.Background(), spec, StartConfig{Timeout: 5 * time.Second, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Quit(time.Second) })
	return p
}

func TestProcessPlays(t *testing.T) {
	p := startTest(t, "--depth", "5", "--nps", "12345")
	if p.IDName != "randomengine" || !p.HasOption("variant") || !p.HasOption("pieces count") {
		t.Fatalf("handshake: id %q, options %v", p.IDName, p.options)
	}
	ctx := context.Background()
	preset, _ := rules.PresetByName("morabaraba")
	if err := p.Configure(ctx, preset); err != nil {
		t.Fatal(err)
	}
	if err := p.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := p.Go(ctx, "position startpos moves a7 b4 d7 f4 g7", "go movetime 50", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Move, "x") || a.Depth != 5 || a.NPS != 12345 || a.Elapsed <= 0 {
		t.Errorf("answer %+v: want a removal with depth 5 and nps 12345", a)
	}
}

func TestProcessWithoutVariantOption(t *testing.T) {
	p := startTest(t, "--no-variant", "--sanmill-style")
	ctx := context.Background()
	preset, _ := rules.PresetByName("twelve-mens-morris")
	if err := p.Configure(ctx, preset); err != nil {
		t.Fatal(err)
	}
	// On the diagonal board a7-b6-c5 is a mill: the engine must remove, which
	// it only knows if the rule options reached it.
	a, err := p.Go(ctx, "position startpos moves a7 d7 b6 d6 c5", "go movetime 10", time.Second)
	if err != nil || !strings.HasPrefix(a.Move, "x") {
		t.Fatalf("answer %+v, %v: want a removal", a, err)
	}
}

func TestProcessFaults(t *testing.T) {
	ctx := context.Background()
	hang := startTest(t, "--hang-after", "0")
	start := time.Now()
	_, err := hang.Go(ctx, "position startpos", "go movetime 10", 60*time.Millisecond)
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Kind != FaultTimeout {
		t.Errorf("hanging engine: %v, want a timeout fault", err)
	}
	// Never before the deadline; the upper bound only guards against a hang.
	if el := time.Since(start); el < 60*time.Millisecond || el > 30*time.Second {
		t.Errorf("timeout after %v, want no sooner than 60ms", el)
	}
	hang.Kill()
	hang.Kill() // twice is fine

	crash := startTest(t, "--crash-after", "1")
	if _, err := crash.Go(ctx, "position startpos", "go movetime 10", time.Second); err != nil {
		t.Fatalf("first answer: %v", err)
	}
	_, err = crash.Go(ctx, "position startpos moves a7", "go movetime 10", 5*time.Second)
	if !errors.As(err, &ee) || ee.Kind != FaultCrash || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("crashing engine: %v, want a crash fault with exit status 3", err)
	}
	if err := crash.NewGame(ctx); !errors.As(err, &ee) || ee.Kind != FaultCrash {
		t.Errorf("after the crash: %v, want a crash fault", err)
	}

	if _, err := Start(ctx, EngineSpec{Name: "missing", Path: "/nonexistent/engine"}, StartConfig{Log: zerolog.Nop()}); err == nil {
		t.Error("starting a missing executable: want an error")
	}
	// A program that never says uciok: the handshake times out.
	_, err = Start(ctx, EngineSpec{Name: "mute", Path: randomEngine, Args: []string{"--bogus-flag"}},
		StartConfig{Timeout: 2 * time.Second, Log: zerolog.Nop()})
	if err == nil {
		t.Error("an engine that exits at once: want an error")
	}
}

// Option values are checked against what the engine declared in its answer
// to uci before anything is sent; an option it did not declare is refused.
func TestConfigureChecksDeclaredOptions(t *testing.T) {
	ctx := context.Background()
	bad := []struct {
		opt  string
		want string
	}{
		{"Hash=5000", "option Hash=5000: out of the declared range 1..1024"},
		{"hash=0", "option hash=0: out of the declared range 1..1024"},
		{"Hash=64MB", "option Hash=64MB: not an integer (declared spin 1..1024)"},
		{"Hash", "option Hash: needs a value (declared spin 1..1024)"},
		{"Ponder=yes", "option Ponder=yes: not true or false (declared check)"},
		{"Style=wild", "option Style=wild: not one of the declared values solid, risky, all in"},
		{"Clear Hash=1", "option Clear Hash=1: a button takes no value (--option \"Clear Hash\")"},
		{"Hsh=64", "option Hsh=64: not declared by the engine (its options: Hash, Ponder, Style, Clear Hash, Book File)"},
	}
	for _, c := range bad {
		opt, err := ParseOption(c.opt)
		if err != nil {
			t.Fatal(err)
		}
		spec := EngineSpec{Name: "test", Path: randomEngine, Options: []Option{{Name: "Ponder", Value: "true"}, opt}}
		p, err := Start(ctx, spec, StartConfig{Timeout: 5 * time.Second, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		err = p.Configure(ctx, rules.Presets[0])
		p.Quit(time.Second)
		var ee *EngineError
		if !errors.As(err, &ee) || ee.Kind != FaultProtocol || ee.Err.Error() != c.want {
			t.Errorf("--option %s: %v\nwant %s", c.opt, err, c.want)
		}
	}

	// Good values are sent in the engine's spelling: names and combo values
	// matched without regard to case and spaces, check values in lower case.
	var log strings.Builder
	spec := EngineSpec{Name: "test", Path: randomEngine, Options: []Option{
		{Name: "hash", Value: "1024"}, {Name: "PONDER", Value: "True"}, {Name: "style", Value: "ALL  IN"},
		{Name: "clearhash", Button: true}, {Name: "Book File", Value: "/tmp/book.bin"}}}
	p, err := Start(ctx, spec, StartConfig{Timeout: 5 * time.Second, Log: zerolog.New(&log).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Quit(time.Second)
	if err := p.Configure(ctx, rules.Presets[0]); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"setoption name Hash value 1024", "setoption name Ponder value true",
		"setoption name Style value all in", `"setoption name Clear Hash"`, "setoption name Book File value /tmp/book.bin"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the engine was not sent %s; protocol log:\n%s", want, log.String())
		}
	}
}

// An engine that answers a setoption with "info string error" has not taken
// the option: Configure fails, naming the option and quoting the answer.
func TestConfigureSeesRefusedOptions(t *testing.T) {
	ctx := context.Background()
	twelve, _ := rules.PresetByName("twelve-mens-morris")
	cases := []struct {
		args    []string
		opts    []Option
		variant rules.Preset
		want    string
	}{
		{[]string{"--refuse", "Hash"}, []Option{{Name: "Ponder", Value: "true"}, {Name: "hash", Value: "64"}, {Name: "Style", Value: "risky"}},
			rules.Presets[0], `option hash=64: the engine answered "info string error: option Hash: refused by the test engine"`},
		{[]string{"--refuse", "variant"}, nil,
			twelve, `option Variant=twelve-mens-morris: the engine answered "info string error: option Variant: refused by the test engine"`},
		{[]string{"--refuse", "PiecesCount", "--no-variant"}, nil,
			twelve, `option PiecesCount=12: the engine answered "info string error: option PiecesCount: refused by the test engine"`},
	}
	for _, c := range cases {
		spec := EngineSpec{Name: "picky", Path: randomEngine, Args: c.args, Options: c.opts}
		p, err := Start(ctx, spec, StartConfig{Timeout: 5 * time.Second, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		err = p.Configure(ctx, c.variant)
		p.Quit(time.Second)
		var ee *EngineError
		if !errors.As(err, &ee) || ee.Kind != FaultProtocol || ee.Err.Error() != c.want {
			t.Errorf("%v: %v\nwant %s", c.args, err, c.want)
		}
	}
}

func TestIsErrorLine(t *testing.T) {
	for line, want := range map[string]bool{
		"info string error: option Hash: 0 is out of range 1..1024": true,
		"info string Error: unknown option":                         true,
		"  info  string  ERROR no such option":                      true,
		"info string errors: 2":                                     true,
		"info string warning: error rate high":                      false,
		"info depth 3 string error":                                 false,
		"info string":                                               false,
		"readyok":                                                   false,
	} {
		if got := isErrorLine(line); got != want {
			t.Errorf("isErrorLine(%q) = %v, want %v", line, got, want)
		}
	}
}

// A dead engine is a crash fault of that engine, whatever the referee was
// doing: writing to it or waiting for it. The message says when it died.
func TestDeadEngineFaults(t *testing.T) {
	ctx := context.Background()
	start := func(args ...string) *Process {
		spec := EngineSpec{Name: "dying", Path: randomEngine, Args: args}
		p, err := Start(ctx, spec, StartConfig{Timeout: 5 * time.Second, Log: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Kill)
		return p
	}
	check := func(what string, err error, want string) {
		t.Helper()
		var ee *EngineError
		if !errors.As(err, &ee) || ee.Kind != FaultCrash || ee.Err.Error() != want {
			t.Errorf("%s: %v\nwant a crash fault: %s", what, err, want)
		}
	}
	p := start("--exit-after-uci")
	time.Sleep(50 * time.Millisecond) // gone before the first write: the write fails
	check("configure", p.Configure(ctx, rules.Presets[0]), "the engine exited (exit status 5) while being configured")
	check("ucinewgame", p.NewGame(ctx), "the engine exited (exit status 5) before the game started")
	_, err := p.Go(ctx, "position startpos", "go movetime 10", time.Second)
	check("go", err, "the engine exited (exit status 5) before its bestmove")

	// Gone while the referee waits for readyok, and while it sends position.
	p = start("--exit-on", "ucinewgame")
	check("ucinewgame", p.NewGame(ctx), "the engine exited (exit status 5) before the game started")
	p = start("--exit-on", "position")
	_, err = p.Go(ctx, "position startpos", "go movetime 10", time.Second)
	check("position", err, "the engine exited (exit status 5) before its bestmove")
}
