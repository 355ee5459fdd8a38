package uci

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// newTestSession returns a session on a fake engine whose output is dropped.
func newTestSession(t *testing.T) (*session, *fakeEngine) {
	t.Helper()
	return newTestSessionWith(t, testConfig())
}

// newTestSessionWith is newTestSession with the start-up configuration c.
func newTestSessionWith(t *testing.T, c Config) (*session, *fakeEngine) {
	t.Helper()
	cfg, err := c.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeEngine{}
	cfg.Engine = f
	w := newWriter(io.Discard, cfg.Log)
	t.Cleanup(w.close)
	return newSession(cfg, w), f
}

// snapshot is the option state of a session.
type snapshot struct {
	sopts    search.Options
	hashMB   int
	ponder   bool
	moveTime time.Duration
	rules    rules.Rules
	fen      string
}

func snap(s *session) snapshot {
	return snapshot{s.sopts, s.hashMB, s.ponder, s.moveTime, s.rules, s.game.Pos.FEN()}
}

func TestSetOption(t *testing.T) {
	tests := []struct {
		line  string
		check func(s *session) bool
	}{
		{"name Hash value 64", func(s *session) bool { return s.hashMB == 64 }},
		{"name hash value  8 ", func(s *session) bool { return s.hashMB == 8 }},
		{"name Threads value 4", func(s *session) bool { return s.sopts.Threads == 4 }},
		{"name Ponder value on", func(s *session) bool { return s.ponder }},
		{"name Ponder value 1", func(s *session) bool { return s.ponder }},
		{"name MultiPV value 3", func(s *session) bool { return s.sopts.MultiPV == 3 }},
		{"name Move Overhead value 50", func(s *session) bool { return s.sopts.MoveOverhead == 50*time.Millisecond }},
		{"name move  OVERHEAD value 0", func(s *session) bool { return s.sopts.MoveOverhead == 0 }},
		{"name moveoverhead value 7", func(s *session) bool { return s.sopts.MoveOverhead == 7*time.Millisecond }},
		{"name MoveTime value 5", func(s *session) bool { return s.moveTime == 5*time.Second }},
		{"name MoveTimeMs value 1500", func(s *session) bool { return s.moveTime == 1500*time.Millisecond }},
		{"name MoveTime value 0", func(s *session) bool { return s.moveTime == 0 }},
		{"name SkillLevel value 0", func(s *session) bool { return s.sopts.SkillLevel == 0 }},
		{"name Shuffling value yes", func(s *session) bool { return s.sopts.Shuffling }},
		{"name Algorithm value alphabeta", func(s *session) bool { return s.sopts.Algorithm == search.AlphaBeta }},
		{"name Algorithm value 0", func(s *session) bool { return s.sopts.Algorithm == search.AlphaBeta }},
		{"name Algorithm value 1", func(s *session) bool { return s.sopts.Algorithm == search.AlphaBeta }},
		{"name Algorithm value 2", func(s *session) bool { return s.sopts.Algorithm == search.MTDF }},
		{"name Algorithm value PVS", func(s *session) bool { return s.sopts.Algorithm == search.PVS }},
		{"name MaxQuiescenceDepth value 4", func(s *session) bool { return s.sopts.MaxQuiescenceDepth == 4 }},
		{"name Variant value dooz", func(s *session) bool {
			p, _ := rules.PresetByName("dooz")
			return s.rules == p.Rules && s.game.Rules == p.Rules
		}},
		{"name Variant value Twelve Men's Morris", func(s *session) bool { return s.rules.PiecesCount == 12 && s.rules.HasDiagonalLines }},
		{"name PiecesCount value 12", func(s *session) bool {
			return s.rules.PiecesCount == 12 && s.game.Pos.InHand(0) == 12
		}},
		{"name PieceCount value 10", func(s *session) bool { return s.rules.PiecesCount == 10 }},
		{"name mayfly value false", func(s *session) bool { return !s.rules.MayFly }},
		{"name HasDiagonalLines value true", func(s *session) bool { return s.rules.HasDiagonalLines }},
		{"name NMoveRule value 30", func(s *session) bool { return s.rules.NMoveRule == 30 }},
		{"name Clear Hash", func(s *session) bool { return true }},
		{"name Clear Hash value whatever", func(s *session) bool { return true }},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			s, f := newTestSession(t)
			if err := s.cmdPosition(strings.Fields("startpos moves d6")); err != nil {
				t.Fatal(err)
			}
			if err := s.cmdSetOption(strings.Fields(tc.line)); err != nil {
				t.Fatalf("setoption %s: %v", tc.line, err)
			}
			if !tc.check(s) {
				t.Fatalf("setoption %s: state not as expected: %+v", tc.line, snap(s))
			}
			if got := f.Options(); got != s.sopts {
				t.Fatalf("engine options %+v, session %+v", got, s.sopts)
			}
			isRule := false
			if _, ok := rules.Lookup(strings.Fields(tc.line)[1]); ok || strings.Contains(tc.line, "Variant") {
				isRule = true
			}
			if atStart := s.game.Pos.FEN() == s.game.Start.FEN() && len(s.game.Moves) == 0; atStart != isRule {
				t.Fatalf("setoption %s: position reset %v, want %v", tc.line, atStart, isRule)
			}
		})
	}
}

func TestSetOptionErrorsChangeNothing(t *testing.T) {
	tests := []struct{ line, err string }{
		{"name Hash value 0", "option Hash: 0 is out of range 1..65536"},
		{"name Hash value 1e3", `option Hash: "1e3" is not an integer`},
		{"name Threads", "option Threads: missing value"},
		{"name Threads value", "option Threads: missing value"},
		{"name Ponder value 2", `option Ponder: "2" is not a boolean (true/false, 1/0, yes/no, on/off)`},
		{"name Algorithm value 3", `option Algorithm: algorithm "3": want mtdf, alphabeta or pvs (or 0, 1, 2)`},
		{"name Variant value", "option Variant: missing value"},
		{"name Variant value nine", `option Variant: unknown variant "nine" (want one of ` + strings.Join(rules.PresetKeys(), ", ") + ")"},
		{"name PiecesCount value 8", "option PiecesCount: 8 is out of range 9..12"},
		{"name flyPieceCount value five", `option flyPieceCount: "five" is not an integer`},
		{"name MayFly", "option MayFly: missing value"},
		{"name Nope value 1", "setoption: unknown option 'Nope'"},
		{"name value 1", "setoption: want 'setoption name <name> [value <value>]'"},
		{"Hash value 1", "setoption: want 'setoption name <name> [value <value>]'"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			s, f := newTestSession(t)
			if err := s.cmdPosition(strings.Fields("startpos moves d6")); err != nil {
				t.Fatal(err)
			}
			before := snap(s)
			err := s.cmdSetOption(strings.Fields(tc.line))
			if err == nil || err.Error() != tc.err {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if after := snap(s); after != before {
				t.Fatalf("state changed:\n%+v\n%+v", before, after)
			}
			if len(f.Calls()) != 0 {
				t.Fatalf("engine called: %q", f.Calls())
			}
		})
	}
}

// Every option listed by uci can be found by its name in any case.
func TestOptionNames(t *testing.T) {
	s, _ := newTestSession(t)
	for _, l := range s.uciLines("uciok") {
		if !strings.HasPrefix(l, "option name ") {
			continue
		}
		name := strings.TrimPrefix(l, "option name ")
		name = name[:strings.Index(name, " type ")]
		for _, n := range []string{name, strings.ToUpper(name), strings.ToLower(name)} {
			if s.findOption(n) == nil {
				if _, ok := rules.Lookup(n); !ok {
					t.Errorf("option %q not found", n)
				}
			}
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	tests := []struct {
		in   Config
		want string // the Variant after defaults, or the error
	}{
		{Config{}, "nine-mens-morris"},
		{Config{Variant: "Twelve Men's Morris"}, "twelve-mens-morris"},
		{Config{Variant: "chess"}, `uci config: unknown variant "chess" (want one of ` + strings.Join(rules.PresetKeys(), ", ") + ")"},
		{Config{HashMB: -1}, "uci config: hash -1 MB is out of range 1..65536"},
		{Config{HashMB: 64, MaxHashMB: 32}, "uci config: hash 64 MB is out of range 1..32"},
		{Config{Threads: 300}, "uci config: threads 300 is out of range 1..256"},
	}
	for _, tc := range tests {
		c, err := tc.in.withDefaults()
		got := c.Variant
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.in, got, tc.want)
		}
	}
	if err := Run(context.Background(), strings.NewReader(""), io.Discard, Config{Variant: "chess"}); err == nil {
		t.Error("Run accepted an unknown variant")
	}
}

// Contempt decides between a draw and playing on: two plies from the N-move
// rule White can draw (d2-d1) or play on at −28 (d5-c5) by a depth-3
// search. At the default 15 it draws (−15 beats −28), at 40 it plays on,
// and UCI_AnalyseMode shows the draw as the 0 it is.
func TestContemptOption(t *testing.T) {
	cases := []struct {
		options []string
		score   string
		best    string
	}{
		{nil, "score cp -15", "bestmove d2-d1"},
		{[]string{"setoption name Contempt value 40"}, "score cp -28", "bestmove d5-c5"},
		{[]string{"setoption name Contempt value 40", "setoption name UCI_AnalyseMode value true"}, "score cp 0", "bestmove d2-d1"},
		{[]string{"setoption name Contempt value -40"}, "score cp 40", "bestmove d2-d1"},
	}
	for _, c := range cases {
		h := startHarness(t, testConfig())
		h.send(c.options...)
		h.send("position fen O****OO*/@@O@OO@@/@@@@**O* w m s 7 0 9 0 0 0 0 0 0 0 0 97 11", "go depth 3")
		lines := h.until("bestmove")
		var depth3 string
		for _, l := range lines {
			if strings.HasPrefix(l, "info depth 3 ") {
				depth3 = l
			}
		}
		if !strings.Contains(depth3, " "+c.score+" ") || lines[len(lines)-1] != c.best {
			t.Errorf("%q: got %q and %q, want %q and %q", c.options, depth3, lines[len(lines)-1], c.score, c.best)
		}
	}
}
