package record_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// passRules let a blocked side pass; no side flies.
func passRules() rules.Rules {
	r := rules.Default()
	r.MayFly, r.StalemateAction = false, rules.StalematePass
	return r
}

// TestReplayHandWritten replays the main lines of the round-trip cases.
func TestReplayHandWritten(t *testing.T) {
	for _, tc := range roundTripCases {
		for i := range tc.want {
			g := &tc.want[i]
			var r *rules.Rules
			if tc.name == "a pass" {
				pr := passRules()
				r = &pr
			}
			rp, err := record.Replay(g, r)
			if err != nil {
				t.Errorf("%s, game %d: %v", tc.name, i+1, err)
				continue
			}
			n := 0
			for j := range g.Moves {
				n += len(g.Moves[j].Actions())
			}
			if len(rp.Game.Moves) != n || len(rp.TurnEnd) != len(g.Moves) {
				t.Errorf("%s, game %d: %d moves and %d turn ends for %d actions in %d turns",
					tc.name, i+1, len(rp.Game.Moves), len(rp.TurnEnd), n, len(g.Moves))
			}
		}
	}
}

func TestReplayPass(t *testing.T) {
	g := mustParse(t, roundTripCases[2].in)[0]
	r := passRules()
	rp, err := record.Replay(&g, &r)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rp.TurnEnd, []int{1, 1, 2, 3}) {
		t.Errorf("TurnEnd %v, want [1 1 2 3]", rp.TurnEnd)
	}
	if side := rp.Positions[0].SideToMove(); side != position.White {
		t.Errorf("after g4-g7 %s is to move; Black should have been skipped", side)
	}
}

func TestReplayDoubleMill(t *testing.T) {
	g := mustParse(t, roundTripCases[7].in)[0]
	rp, err := record.Replay(&g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Variant != "morabaraba" || len(rp.Game.Moves) != 3 || rp.Game.Pos.OnBoard(position.Black) != 2 {
		t.Errorf("variant %q, %d moves, black has %d", rp.Variant, len(rp.Game.Moves), rp.Game.Pos.OnBoard(position.Black))
	}
}

func TestReplayErrors(t *testing.T) {
	pr := passRules()
	cases := []struct {
		name, in string
		r        *rules.Rules
		want     string
	}{
		{"occupied point", "1. d6 d6", nil, `game 1, ply 2 (line 1, column 7): illegal move d6: d6 is not empty`},
		{"removal without a mill", "1. d6 f4 2. d5xf4", nil,
			`game 1, ply 3 (line 1, column 13): illegal move xf4: no removal is pending (in "d5xf4")`},
		{"mill without its removal", "1. d6 f4 2. d5 b4 3. d7 b6", nil,
			`game 1, ply 6 (line 1, column 25): illegal move b6: white must remove a piece first`},
		{"slide without flying", "[FEN \"" + fenBlock + "\"]\n[SetUp \"1\"]\n\n1. a1-g1", nil,
			`game 1, ply 1 (line 4, column 4): illegal move a1-g1: g1 is not next to a1 and white may not fly`},
		{"pass where nobody is blocked", "[FEN \"" + fenBlock + "\"]\n[SetUp \"1\"]\n\n1. g4-g1 p", &pr,
			`game 1, ply 2 (line 4, column 10): illegal pass: white moved last and black is to move`},
		{"pass first", "1. p", &pr, `game 1, ply 1 (line 1, column 4): illegal pass: no turn before it`},
		{"variant the engine lacks", "[Variant \"Cham Gonu\"]\n\n1. d6", nil, `game 1: variant "Cham Gonu": the engine has no such rules`},
		{"custom variant", "[Variant \"Custom\"]\n\n1. d6", nil, `game 1: variant "Custom" does not say which rules: give them to Replay`},
		{"unknown variant", "[Variant \"Foo\"]\n\n1. d6", nil, `game 1: unknown variant "Foo"`},
		{"capture field", "[FEN \"" + fenBlock + " c:w-1-3|b-0-\"]\n\n1. d6", nil,
			`game 1: FEN tag: capture field "c:w-1-3|b-0-": the engine has no custodian, intervention or leap captures`},
		{"inconsistent FEN", "[FEN \"O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\"]\n\n*", nil,
			`game 1: FEN tag: fen field 5 (white on board) "0"`},
		{"error in game 2", "1. d6 *\n\n1. d6 d6 *", nil, `game 2, ply 2 (line 3, column 7): illegal move d6: d6 is not empty`},
	}
	for _, tc := range cases {
		gs := mustParse(t, tc.in)
		g := &gs[len(gs)-1]
		rp, err := record.Replay(g, tc.r)
		if err == nil {
			t.Errorf("%s: replayed %d moves", tc.name, len(rp.Game.Moves))
			continue
		}
		if rp != nil {
			t.Errorf("%s: a result with the error", tc.name)
		}
		var e *record.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

func TestEngineFEN(t *testing.T) {
	base := "O*******/********/@******* w m s 1 0 1 0 0 0 -1 -1 -1 -1 0 0 20"
	for in, want := range map[string]string{
		base:                          base,
		base + "  ids:nodes":          base + " ids:nodes",
		base + " ids:nodes s:1 p:7":   base + " ids:nodes stalemate-removing",
		base + " ids:nodes s:2":       base + " ids:nodes both-stalemate-removing",
		base + " stalemate-removing":  base + " stalemate-removing",
		"  " + base + "\n ids:nodes ": base + " ids:nodes",
	} {
		if got, err := record.EngineFEN(in); err != nil || got != want {
			t.Errorf("EngineFEN(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, f := range []string{"c:w-1-3|b-0-", "i:w-0-|b-1-5", "l:w-1-2|b-0-"} {
		if _, err := record.EngineFEN(base + " ids:nodes " + f); err == nil {
			t.Errorf("EngineFEN accepted %s", f)
		}
	}
}

func TestVariants(t *testing.T) {
	for in, key := range map[string]string{
		"Nine Men's Morris": "nine-mens-morris", "standard_9mm": "nine-mens-morris",
		" twelve men's morris ": "twelve-mens-morris", "Morabaraba": "morabaraba", "DOOZ": "dooz",
		"Lasker Morris": "lasker-morris", "russian_mill": "russian-mill", "Zhi Qi": "zhi-qi",
		"Cheng San Qi": "cheng-san-qi", "da_san_qi": "da-san-qi", "El Filja": "el-filja",
		"experimental": "experimental", "nine-mens-morris": "nine-mens-morris",
	} {
		p, err := record.VariantPreset(in)
		if err != nil || p.Key != key {
			t.Errorf("VariantPreset(%q) = %q, %v; want %q", in, p.Key, err, key)
		}
	}
	for _, in := range []string{"Custom", "Cham Gonu", "mul_mulan", "Nerenchi", "", "Chess"} {
		if p, err := record.VariantPreset(in); err == nil {
			t.Errorf("VariantPreset(%q) = %q", in, p.Key)
		}
	}
	for key, name := range map[string]string{
		"nine-mens-morris": "Nine Men's Morris", "el-filja": "El Filja", "experimental": "experimental",
	} {
		if got := record.VariantName(key); got != name {
			t.Errorf("VariantName(%q) = %q, want %q", key, got, name)
		}
	}
	for _, p := range rules.Presets {
		if back, err := record.VariantPreset(record.VariantName(p.Key)); err != nil || back.Key != p.Key {
			t.Errorf("preset %s does not come back from %q: %v", p.Key, record.VariantName(p.Key), err)
		}
	}
	g := record.Game{}
	if p, err := g.Preset(); err != nil || p.Key != record.DefaultVariant {
		t.Errorf("no Variant tag: %q, %v", p.Key, err)
	}
}

func TestTurns(t *testing.T) {
	r := rules.Default()
	var moves []position.Move
	for _, tok := range strings.Fields("d6 f4 d5 b4 d7 xb4 g7") {
		m, err := position.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	turns, err := record.Turns(&r, position.New(&r), moves)
	if err != nil {
		t.Fatal(err)
	}
	l := record.Line{Moves: turns}
	if got := tokens(&l); got != "d6 f4 d5 b4 d7xb4 g7" {
		t.Errorf("turns %q", got)
	}
	_, err = record.Turns(&r, position.New(&r), []position.Move{moves[0], moves[0]})
	if err == nil || err.Error() != "record: move 2: illegal move d6: d6 is not empty" {
		t.Errorf("illegal move: %v", err)
	}
}

// TestFromEngineSetup writes an engine game that starts with a removal.
func TestFromEngineSetup(t *testing.T) {
	r := rules.Default()
	g := testkit.Game(t, r, fenWhiteRemoves, "xb4", "e5", "d6")
	rec, err := record.FromEngine(g)
	if err != nil {
		t.Fatal(err)
	}
	out := roundTrip(t, []record.Game{rec})
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "Nine Men's Morris"]
[PlyCount "3"]
[FEN "` + fenWhiteRemoves + `"]
[SetUp "1"]

1. xb4 e5 2. d6 *
`
	if out != want {
		t.Errorf("written:\n%s\nwant:\n%s", out, want)
	}
}

// randomGame plays random legal moves from the start position.
func randomGame(r rules.Rules, seed uint64, maxMoves int) *position.Game {
	rng := rand.New(rand.NewPCG(seed, 1))
	g := position.NewGame(r, position.New(&r))
	for !g.Pos.IsOver() && len(g.Moves) < maxMoves {
		var ml movegen.MoveList
		movegen.Generate(&r, &g.Pos, &ml)
		if ml.N == 0 {
			break
		}
		g.Play(ml.Moves[rng.IntN(ml.N)])
	}
	return g
}

// TestFromEngineRoundTrip writes random games of every preset and of some
// custom rules, reads them back and replays them: the same engine moves, the
// same final position and result.
func TestFromEngineRoundTrip(t *testing.T) {
	type variant struct {
		name  string
		r     rules.Rules
		games uint64
	}
	var vs []variant
	for _, p := range rules.Presets {
		vs = append(vs, variant{p.Key, p.Rules, 8})
	}
	// Twelve men without flying get blocked: these rules pass, or make the
	// blocked side (or both sides) remove, which gives removal-only turns.
	for _, sa := range []int{rules.StalematePass, rules.StalemateRemoveAndMove, rules.StalemateRemoveAndPass, rules.StalemateBothRemove} {
		r := rules.Default()
		r.PiecesCount, r.HasDiagonalLines, r.MayFly, r.StalemateAction = 12, true, false, sa
		vs = append(vs, variant{"custom", r, 60})
	}
	removalOnly := 0
	for _, v := range vs {
		for seed := uint64(1); seed <= v.games; seed++ {
			g := randomGame(v.r, seed, 300)
			rec, err := record.FromEngine(g)
			if err != nil {
				t.Fatalf("%s seed %d: %v", v.name, seed, err)
			}
			roundTrip(t, []record.Game{rec})
			for i := range rec.Moves {
				if rec.Moves[i].Move == position.NoMove {
					removalOnly++
				}
			}
			var r *rules.Rules
			if tag, _ := rec.Tag("Variant"); tag == "Custom" {
				r = &v.r
			}
			rp, err := record.Replay(&rec, r)
			if err != nil {
				t.Fatalf("%s seed %d: %v", v.name, seed, err)
			}
			if !slices.Equal(rp.Game.Moves, g.Moves) || rp.Game.Pos.FEN() != g.Pos.FEN() {
				t.Fatalf("%s seed %d: replay differs", v.name, seed)
			}
			res, _ := g.Pos.Result()
			got, _ := rp.Game.Pos.Result()
			if got != res {
				t.Errorf("%s seed %d: result %v, engine %v", v.name, seed, got, res)
			}
		}
	}
	if removalOnly == 0 {
		t.Error("no game had a removal-only turn")
	}
}
