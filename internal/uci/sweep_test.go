package uci

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// sweepStats counts what a rule-set sweep checked.
type sweepStats struct {
	ruleSets, games, gos, plies int
	endings                     map[string]int
}

// TestRuleSetSweep plays self-play games through the protocol under random
// rule sets (every rule option drawn in its range and sent with setoption,
// as a GUI would): before every go, go perft 1 lists the legal actions, and
// the bestmove must be one of them; every info pv must be legal and stop at
// the end of the game; at the end, d's result line and query result must
// agree with our own referee. SWEEP_RULESETS sets the number of rule sets
// (make sweep runs 500); the default is a short run for make test.
func TestRuleSetSweep(t *testing.T) {
	n := 10
	if v, err := strconv.Atoi(os.Getenv("SWEEP_RULESETS")); err == nil && v > 0 {
		n = v
	}
	seed := uint64(0x73776565)
	if v, err := strconv.ParseUint(os.Getenv("SWEEP_SEED"), 0, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	st := sweepStats{endings: map[string]int{}}
	start := time.Now()
	h := startHarness(t, testConfig())
	for i := 0; i < n; i++ {
		r := rules.Default()
		var cmds []string
		for k := range rules.Params {
			p := &rules.Params[k]
			v := p.Min + rng.IntN(p.Max-p.Min+1)
			if err := p.Set(&r, strconv.Itoa(v)); err != nil {
				t.Fatal(err)
			}
			val := strconv.Itoa(v)
			if p.Bool {
				val = strconv.FormatBool(v != 0)
			}
			cmds = append(cmds, "setoption name "+p.Name+" value "+val)
		}
		h.send(cmds...)
		h.send("ucinewgame", "isready")
		expectLines(t, h, "readyok")
		sweepGame(t, h, r, rng, &st, fmt.Sprintf("rule set %d (seed %#x): %s", i+1, seed, strings.Join(r.Diff(ptr(rules.Default())), " ")))
		st.ruleSets++
	}
	var ends []string
	for k, v := range st.endings {
		ends = append(ends, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(ends)
	t.Logf("%d rule sets, %d games, %d go commands, %d plies, every bestmove in go perft 1, in %v; endings: %s",
		st.ruleSets, st.games, st.gos, st.plies, time.Since(start).Round(time.Millisecond), strings.Join(ends, ", "))
}

func ptr[T any](v T) *T { return &v }

// sweepGame plays one game of r through the protocol and checks it.
func sweepGame(t *testing.T, h *harness, r rules.Rules, rng *rand.Rand, st *sweepStats, what string) {
	t.Helper()
	g := position.NewGame(r, position.New(&r))
	var moves []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, after %q: %s", what, strings.Join(moves, " "), fmt.Sprintf(format, args...))
	}
	for ply := 0; ply < 600 && !g.Pos.IsOver(); ply++ {
		pos := "position startpos"
		if len(moves) > 0 {
			pos += " moves " + strings.Join(moves, " ")
		}
		h.send(pos, "go perft 1")
		var legal []string
		for _, l := range h.until("Nodes searched: ") {
			if tok, _, ok := strings.Cut(l, ": "); ok && tok != "Nodes searched" {
				legal = append(legal, tok)
			}
		}
		var want []string
		var ml movegen.MoveList
		movegen.Generate(&g.Rules, &g.Pos, &ml)
		for _, m := range ml.Slice() {
			want = append(want, m.String())
		}
		sort.Strings(want)
		if !slices.Equal(legal, want) {
			fail("go perft 1 lists %v, the referee %v", legal, want)
		}
		// Alternate the limits a GUI sends.
		switch rng.IntN(3) {
		case 0:
			h.send("go depth " + strconv.Itoa(1+rng.IntN(3)))
		case 1:
			h.send("go nodes " + strconv.Itoa(200+rng.IntN(2000)))
		default:
			h.send("go movetime 5")
		}
		st.gos++
		lines := h.until("bestmove")
		pvCheck(t, g, lines[:len(lines)-1])
		best := bestMoveOf(t, lines[len(lines)-1])
		if !slices.Contains(legal, best) {
			fail("bestmove %s is not among %v", best, legal)
		}
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, best)
		if err != nil {
			fail("%v", err)
		}
		g.Play(m)
		moves = append(moves, best)
		st.plies++
	}
	st.games++
	res, why := g.Pos.Result()
	if !g.Pos.IsOver() {
		st.endings["ply cap"]++
		return
	}
	st.endings[why.String()]++
	h.send("position startpos moves "+strings.Join(moves, " "), "d")
	var result string
	for _, l := range h.until("legal:") {
		if strings.HasPrefix(l, "result: ") {
			result = l
		}
	}
	if want := fmt.Sprintf("result: %s (%s)", res, why); result != want {
		fail("d says %q, the referee %q", result, want)
	}
	h.send("go depth 1")
	expectLines(t, h, fmt.Sprintf("info string game over: %s (%s)", res, why), "bestmove none")
}
