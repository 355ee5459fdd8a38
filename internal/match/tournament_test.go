package match

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/rules"
)

func engine(name string, args ...string) EngineSpec {
	return EngineSpec{Name: name, Path: randomEngine, Args: args}
}

func baseConfig(engines ...EngineSpec) Config {
	return Config{
		Engines: engines, Variant: rules.Presets[0], Games: 2,
		// The test engines answer at once: a wide margin costs nothing and
		// keeps a loaded machine from turning a slow answer into a fault.
		TC: TimeControl{MoveTime: 50 * time.Millisecond}, Margin: 2 * time.Second,
		MaxPlies: 2000, Concurrency: 2, StartupTimeout: 5 * time.Second, Log: zerolog.Nop(),
	}
}

func readRecords(t *testing.T, b []byte) []GameRecord {
	t.Helper()
	var recs []GameRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r GameRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

// A short real match between two builds of the test engine: the summary
// adds up, each opening is played with colours swapped, every game ends by a
// rule with its reason recorded, and the JSON lines hold every game.
func TestMatchRandomEngines(t *testing.T) {
	ops, err := RandomOpenings(rules.Default(), 4, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig(engine("seed1", "--seed", "1", "--note"), engine("seed2", "--seed", "2"))
	cfg.Games, cfg.Openings = 8, ops
	var live, recs bytes.Buffer
	cfg.Live, cfg.Records = &live, &recs
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum.Write(&out)
	t.Logf("live:\n%s\nsummary:%s", live.String(), out.String())

	r := sum.Pair(0, 1)
	if r.N() != 8 || sum.Played != 8 || sum.Aborted != 0 {
		t.Errorf("W+L+D = %d, played %d, aborted %d; want 8, 8, 0", r.N(), sum.Played, sum.Aborted)
	}
	if a, b := sum.Engines[0].WDL, sum.Engines[1].WDL; a != r || b != r.Flip() {
		t.Errorf("engine totals %+v / %+v disagree with the pairing %+v", a, b, r)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("Score of seed1 vs seed2: %d - %d - %d [", r.W, r.L, r.D)) ||
		!strings.Contains(out.String(), "Elo difference: ") || !strings.Contains(out.String(), "LOS: ") {
		t.Errorf("summary lacks the score or Elo line:\n%s", out.String())
	}
	games := readRecords(t, recs.Bytes())
	if len(games) != 8 {
		t.Fatalf("%d JSON records, want 8", len(games))
	}
	byOpening := map[int][]GameRecord{}
	for _, g := range games {
		byOpening[g.OpeningIndex] = append(byOpening[g.OpeningIndex], g)
		if g.Termination != TermRule || g.Reason == "" || g.Reason == "none" {
			t.Errorf("game %d ended by %s (%s), want a rule with a reason", g.Game, g.Termination, g.Reason)
		}
		if g.Plies != len(g.Opening)+len(g.Moves) || g.Actions.White+g.Actions.Black != len(g.Moves) {
			t.Errorf("game %d: %d plies, %d+%d opening and moves, %d+%d actions", g.Game, g.Plies, len(g.Opening), len(g.Moves), g.Actions.White, g.Actions.Black)
		}
		if g.AvgDepth.White != 3 || g.AvgNPS.Black != 100000 {
			t.Errorf("game %d: depth %v nps %v, want the engines' reports 3 and 100000", g.Game, g.AvgDepth, g.AvgNPS)
		}
		// seed1 gives its account of every move, seed2 none.
		if len(g.Notes) != len(g.Moves) {
			t.Fatalf("game %d: %d notes for %d moves", g.Game, len(g.Notes), len(g.Moves))
		}
		noted, want := 0, g.Actions.White
		if g.White != "seed1" {
			want = g.Actions.Black
		}
		for i, n := range g.Notes {
			if n == "" {
				continue
			}
			noted++
			if !strings.HasPrefix(n, "chose "+g.Moves[i]+" among ") {
				t.Errorf("game %d move %d %s: note %q", g.Game, i, g.Moves[i], n)
			}
		}
		if noted != want {
			t.Errorf("game %d: %d notes, want one for each of seed1's %d actions", g.Game, noted, want)
		}
	}
	if len(byOpening) != 4 {
		t.Errorf("%d openings used, want 4", len(byOpening))
	}
	// Each engine's losses by ending, counted from the records.
	losses := map[string]map[string]int{"seed1": {}, "seed2": {}}
	for _, g := range games {
		switch g.Result {
		case "1-0":
			losses[g.Black][g.Reason]++
		case "0-1":
			losses[g.White][g.Reason]++
		}
	}
	for i, name := range []string{"seed1", "seed2"} {
		if !maps.Equal(sum.Engines[i].Losses, losses[name]) {
			t.Errorf("%s lost %v, the records say %v", name, sum.Engines[i].Losses, losses[name])
		}
		if want := fmt.Sprintf("  %s: %s\n", name, CountList(losses[name])); !strings.Contains(out.String(), "Losses by ending:\n") || !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	for i, pair := range byOpening {
		if len(pair) != 2 || pair[0].White != pair[1].Black || pair[0].Black != pair[1].White ||
			strings.Join(pair[0].Opening, " ") != strings.Join(pair[1].Opening, " ") {
			t.Errorf("opening %d: games %+v are not one pair with colours swapped", i, pair)
		}
	}
	if e := sum.Engines[0]; e.AvgDepth() != 3 || e.AvgNPS() != 100000 {
		t.Errorf("averages: depth %v nps %v", e.AvgDepth(), e.AvgNPS())
	}
}

// Each faulty engine loses every game with the right termination, its
// process is restarted for the next game, and the match completes.
func TestMatchFaults(t *testing.T) {
	cases := []struct {
		args    []string
		term    Termination
		clock   bool
		restart bool // the process is replaced after the fault
	}{
		{[]string{"--crash-after", "3"}, TermCrash, false, true},
		{[]string{"--illegal-after", "3"}, TermIllegal, false, true},
		{[]string{"--hang-after", "3"}, TermTimeout, false, true},
		{[]string{"--none-after", "3"}, TermForfeit, false, false},
		{[]string{"--draw-after", "3"}, TermFalseClaim, false, false},
		{[]string{"--delay", "100ms"}, TermTimeForfeit, true, true},
	}
	for _, c := range cases {
		t.Run(string(c.term), func(t *testing.T) {
			t.Parallel()
			cfg := baseConfig(engine("good", "--seed", "5"), engine("faulty", c.args...))
			cfg.Concurrency = 1 // one worker: the second game needs the restarted process
			// The hang is detected after 20 ms + 300 ms.
			cfg.TC, cfg.Margin = TimeControl{MoveTime: 20 * time.Millisecond}, 300*time.Millisecond
			if c.clock {
				// 300 ms + 50 ms on the clock: the faulty engine's fourth
				// action (at 100 ms each) overruns it; the good engine has
				// the same budget for its few instant answers.
				cfg.TC, cfg.Margin = TimeControl{Base: 300 * time.Millisecond}, 50*time.Millisecond
			}
			var recs bytes.Buffer
			cfg.Records = &recs
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r := sum.Pair(0, 1); r != (WDL{W: 2}) || sum.Played != 2 {
				t.Errorf("good vs faulty %+v in %d games, want 2 - 0 - 0", r, sum.Played)
			}
			if n := sum.Engines[1].Faults[c.term]; n != 2 {
				t.Errorf("faults %v, want 2 × %s", sum.Engines[1].Faults, c.term)
			}
			if l := sum.Engines[1].Losses; !maps.Equal(l, map[string]int{string(c.term): 2}) || len(sum.Engines[0].Losses) != 0 {
				t.Errorf("losses by ending %v and %v, want the faulty one's 2 × %s", sum.Engines[0].Losses, l, c.term)
			}
			for _, g := range readRecords(t, recs.Bytes()) {
				if g.Termination != c.term || g.Winner != "good" || g.Reason == "" {
					t.Errorf("game %d: %s, winner %q (%s)", g.Game, g.Termination, g.Winner, g.Reason)
				}
				faulty := g.Actions.Black
				if g.White == "faulty" {
					faulty = g.Actions.White
				}
				// A fresh process answers 3 times before it misbehaves; one
				// left over from the first game would fail at once.
				if c.restart && !c.clock && faulty < 3 {
					t.Errorf("game %d: the faulty engine gave %d answers, want at least 3 (was it restarted?)", g.Game, faulty)
				}
			}
		})
	}
}

// An engine that dies before or as a game starts loses that game by a crash,
// with the moment in the reason, and is started again for the next one; the
// match is not aborted, not even when it dies right after uciok in the check
// before the match.
func TestMatchEngineDiesBeforeTheGame(t *testing.T) {
	cases := []struct {
		args []string
		when string
	}{
		{[]string{"--exit-after-uci"}, "while being configured"},
		{[]string{"--exit-on", "ucinewgame"}, "before the game started"},
		{[]string{"--exit-on", "position"}, "before its bestmove"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			cfg := baseConfig(engine("good", "--seed", "5"), engine("dying", c.args...))
			cfg.Concurrency = 1
			var recs bytes.Buffer
			cfg.Records = &recs
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if r := sum.Pair(0, 1); r != (WDL{W: 2}) || sum.Engines[1].Faults[TermCrash] != 2 {
				t.Errorf("good vs dying %+v, faults %v; want 2 - 0 - 0 by two crashes", r, sum.Engines[1].Faults)
			}
			for _, g := range readRecords(t, recs.Bytes()) {
				side := "white"
				if g.Black == "dying" {
					side = "black"
				}
				want := side + " (dying) crashed: the engine exited (exit status 5) " + c.when
				if g.Termination != TermCrash || g.Reason != want {
					t.Errorf("game %d: %s: %q\nwant %q", g.Game, g.Termination, g.Reason, want)
				}
			}
		})
	}
}

// An engine with Sanmill's habits (result lines "info score N bestmove M", no
// Variant option but the rule options) plays a variant to a rule ending.
func TestMatchSanmillStyle(t *testing.T) {
	p, _ := rules.PresetByName("morabaraba")
	cfg := baseConfig(engine("uci", "--seed", "8"), engine("sanmill", "--sanmill-style", "--no-variant", "--depth", "0"))
	cfg.Variant, cfg.Games = p, 4
	var recs bytes.Buffer
	cfg.Records = &recs
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 4 {
		t.Errorf("played %d, want 4", sum.Played)
	}
	for _, g := range readRecords(t, recs.Bytes()) {
		if g.Termination != TermRule || g.Variant != "morabaraba" {
			t.Errorf("game %d: %s (%s) in %s", g.Game, g.Termination, g.Reason, g.Variant)
		}
	}
	if e := sum.Engines[1]; e.AvgDepth() != 0 || e.FaultCount() != 0 {
		t.Errorf("sanmill engine: depth %v (it reports none), faults %v", e.AvgDepth(), e.Faults)
	}
}

func TestRoundRobin(t *testing.T) {
	cfg := baseConfig(engine("a", "--seed", "1"), engine("b", "--seed", "2"), engine("c", "--greedy"))
	var live bytes.Buffer
	cfg.Live = &live
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 6 || len(sum.Pairs) != 3 {
		t.Fatalf("played %d games in %d pairings, want 6 in 3", sum.Played, len(sum.Pairs))
	}
	total := WDL{}
	for _, e := range sum.Engines {
		if e.WDL.N() != 4 {
			t.Errorf("%s played %d games, want 4", e.Name, e.WDL.N())
		}
		total = total.Add(e.WDL)
	}
	if total.W != total.L {
		t.Errorf("wins %d and losses %d over the field differ", total.W, total.L)
	}
	var out bytes.Buffer
	sum.Write(&out)
	for _, want := range []string{"Score of a vs b:", "Score of a vs c:", "Score of b vs c:", "Rank"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(live.String(), "Score of") {
		t.Error("a round-robin's live lines should not carry a two-engine score")
	}
}

// The SPRT stops the match as soon as it decides: two equal random engines
// tested for a 400 Elo gain accept H0 long before 200 games.
func TestMatchSPRTStops(t *testing.T) {
	cfg := baseConfig(engine("x", "--seed", "11"), engine("y", "--seed", "12"))
	cfg.Games, cfg.Concurrency = 200, 1
	cfg.SPRT = &SPRT{Elo0: 0, Elo1: 400, Alpha: 0.05, Beta: 0.05}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum.Write(&out)
	if sum.SPRTDecision != AcceptH0 || sum.Played >= 200 || !strings.Contains(out.String(), "H0 accepted") {
		t.Errorf("decision %v after %d games:\n%s", sum.SPRTDecision, sum.Played, out.String())
	}
	if llr, _ := cfg.SPRT.Bounds(); cfg.SPRT.LLR(sum.Pair(0, 1)) > llr {
		t.Errorf("stopped with LLR %v above the lower bound", cfg.SPRT.LLR(sum.Pair(0, 1)))
	}
	t.Logf("stopped after %d games", sum.Played)
}

func TestRunRejects(t *testing.T) {
	ctx := context.Background()
	bad := map[string]Config{
		"one engine":     baseConfig(engine("a")),
		"same names":     baseConfig(engine("a"), engine("a")),
		"missing binary": baseConfig(engine("a"), EngineSpec{Name: "b", Path: "/nonexistent/engine"}),
		"sprt with three": func() Config {
			c := baseConfig(engine("a"), engine("b"), engine("c"))
			c.SPRT = &SPRT{0, 5, 0.05, 0.05}
			return c
		}(),
		"a rule option": func() Config {
			c := baseConfig(engine("a"), engine("b"))
			c.Engines[1].Options = []Option{{Name: "Piece Count", Value: "12"}}
			return c
		}(),
		"no time": func() Config { c := baseConfig(engine("a"), engine("b")); c.TC = TimeControl{}; return c }(),
		"not an engine (no uciok)": func() Config {
			c := baseConfig(engine("a"), EngineSpec{Name: "b", Path: "/bin/cat"})
			c.StartupTimeout = 300 * time.Millisecond
			return c
		}(),
	}
	for name, cfg := range bad {
		if _, err := Run(ctx, cfg); err == nil {
			t.Errorf("%s: Run succeeded, want an error", name)
		}
	}
}

func TestSchedule(t *testing.T) {
	ops := []Opening{{Moves: []string{"a7"}}, {Moves: []string{"d6"}}}
	jobs := Schedule(2, 5, ops)
	if len(jobs) != 5 {
		t.Fatalf("%d jobs, want 5", len(jobs))
	}
	want := []struct{ w, b, op int }{{0, 1, 0}, {1, 0, 0}, {0, 1, 1}, {1, 0, 1}, {0, 1, 0}}
	for i, j := range jobs {
		if j.Number != i+1 || j.White != want[i].w || j.Black != want[i].b || j.OpeningIndex != want[i].op {
			t.Errorf("job %d = %+v, want %+v", i, j, want[i])
		}
	}
	if n := len(Schedule(4, 2, nil)); n != 12 {
		t.Errorf("round-robin of 4 with 2 games per pairing: %d jobs, want 12", n)
	}
}
