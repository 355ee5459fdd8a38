package search

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/perfect/perfecttest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// tablePosition is a sampled position of a table and its value.
type tablePosition struct {
	pos   position.Position
	value egtb.Value
}

// sampleTablePositions draws positions of the sectors the tables hold, with
// White to move: n/3 long wins (at least longWin turns), n/3 other wins and
// n/3 draws, each a legal game position whose side to move can act. A win is
// taken only if the game's rules let it be won: its next removal (DTZ) comes
// before the N-move rule draws; the other wins (6v4 has some 77 turns from a
// removal) are draws in play, and are counted in skipped.
func sampleTablePositions(t *testing.T, tb *egtb.Tables, n, longWin int, rng *rand.Rand) (out []tablePosition, skipped int) {
	t.Helper()
	r := rules.Default()
	sectors := tb.Sectors()
	var long, short, draws []tablePosition
	for tries := 0; tries < 50_000_000 && (len(long) < n/3 || len(short) < n/3 || len(draws) < n-2*(n/3)); tries++ {
		s := sectors[rng.IntN(len(sectors))]
		var white, black bb.Bitboard
		for white.Count() < s.M {
			white |= bb.Bit(bb.Square(rng.IntN(bb.NumSquares)))
		}
		for black.Count() < s.O {
			if sq := bb.Bit(bb.Square(rng.IntN(bb.NumSquares))); sq&white == 0 {
				black |= sq
			}
		}
		v, ok := tb.ProbeSets(white, black)
		if !ok {
			continue
		}
		var list *[]tablePosition
		switch {
		case v.IsWin() && v.Distance() >= longWin && len(long) < n/3:
			list = &long
		case v.IsWin() && v.Distance() < longWin && v.Distance() > 1 && len(short) < n/3:
			list = &short
		case v.IsDraw() && len(draws) < n-2*(n/3):
			list = &draws
		default:
			continue
		}
		fen := setsFEN(white, black) + " w m s " + strconv.Itoa(s.M) + " 0 " + strconv.Itoa(s.O) + " 0 0 0 0 0 0 0 0 0 40"
		p, err := position.ParseFEN(&r, fen)
		if err != nil || p.IsOver() {
			continue
		}
		if z, ok := tb.ProbeDTZ(&r, &p); v.IsWin() && (!ok || 2*z.Distance()-1 >= r.NMoveRule) {
			skipped++
			continue
		}
		*list = append(*list, tablePosition{p, v})
	}
	if len(long) < n/3 || len(short) < n/3 {
		t.Fatalf("found %d long wins, %d other wins, %d draws", len(long), len(short), len(draws))
	}
	return append(append(long, short...), draws...), skipped
}

func setsFEN(white, black bb.Bitboard) string {
	return string(position.AppendBoard(nil, white, black, 0))
}

// TestTablePlay: from table positions the engine converts every win and holds
// every draw against a defender that plays the tables' best action (for a
// lost side the longest loss), under the game's own rules (threefold
// repetition and the N-move rules apply). The default is a short run; the
// issue's run is EGTB_PLAY=200 EGTB_PLAY_MS=100, with EGTB_DIR naming the
// whole set of tables ("default": the default directory; make egtb-play).
func TestTablePlay(t *testing.T) {
	n, ms := 12, 10
	if v, err := strconv.Atoi(os.Getenv("EGTB_PLAY")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.Atoi(os.Getenv("EGTB_PLAY_MS")); err == nil && v > 0 {
		ms = v
	}
	dir := os.Getenv("EGTB_DIR")
	switch dir {
	case "":
		dir = egtbtest.Small(t, 7)
	case "default":
		dir = egtb.DefaultDir()
	}
	r := rules.Default()
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	rng := rand.New(rand.NewPCG(42, 7))
	positions, skipped := sampleTablePositions(t, tb, n, 8, rng)
	e := New(16)
	e.SetTables(tb)
	var converted, held, lost, engineMoves int
	longest := 0
	start := time.Now()
	for i, tp := range positions {
		g := position.NewGame(r, tp.pos)
		e.NewGame()
		us := g.Pos.SideToMove()
		turns := 0
		for ply := 0; ply < 600 && !g.Pos.IsOver(); ply++ {
			var m position.Move
			if g.Pos.SideToMove() == us {
				m = e.Search(g, Limits{MoveTime: time.Duration(ms) * time.Millisecond}, nil).BestMove
				engineMoves++
				if m.Kind() != position.KindRemove {
					turns++
				}
			} else {
				acts := tb.Actions(&r, &g.Pos)
				if len(acts) == 0 || !acts[0].Known {
					t.Fatalf("position %d: the defender's position %s is not in the tables", i, g.Pos.FEN())
				}
				m = acts[0].Move
			}
			g.Play(m)
		}
		res, why := g.Pos.Result()
		switch {
		case tp.value.IsWin() && res == position.Winner(us):
			converted++
			longest = max(longest, turns)
			if turns > tp.value.Distance() {
				t.Errorf("position %d (%s, %s): won in %d turns, the tables say %d", i, tp.pos.FEN(), tp.value, turns, tp.value.Distance())
			}
		case tp.value.IsDraw() && res != position.Winner(us^1):
			held++
		default:
			lost++
			t.Errorf("position %d (%s, %s): the game ended %s (%s) after %v", i, tp.pos.FEN(), tp.value, res, why, g.Moves)
		}
	}
	wins := 2 * (n / 3)
	t.Logf("%d positions at %d ms a move: %d of %d wins converted (the longest in %d turns), %d of %d draws held, %d failures; %d engine moves in %v; %d table wins left out of the sample, whose next removal is past the N-move rule (draws in play)",
		len(positions), ms, converted, wins, longest, held, len(positions)-wins, lost, engineMoves, time.Since(start).Round(time.Millisecond), skipped)
}

// The score of a table entry below the root: a mate where the tables keep
// the distance to the end, a table win (below every mate) where they keep the
// distance to the next removal, and the draw the N-move rule makes of a win
// whose next removal does not fit the plies left (a hair above the draw), or
// of a loss whose winner's removal does not.
func TestTableScore(t *testing.T) {
	const draw = -15 // with contempt
	for _, c := range []struct {
		e      egtb.Entry
		ply    int
		budget int
		want   int
	}{
		{egtb.Entry{Value: egtb.Win(3), DTZ: egtb.Win(2), Exact: true}, 4, 100, ValueMate - 4 - 5},
		{egtb.Entry{Value: egtb.Loss(3), DTZ: egtb.Loss(1), Exact: true}, 4, 100, -ValueMate + 4 + 6},
		{egtb.Entry{Value: egtb.Win(3), DTZ: egtb.Win(3)}, 4, 100, ValueTBWin - 4 - 5},
		{egtb.Entry{Value: egtb.Loss(2), DTZ: egtb.Loss(2)}, 4, 100, -ValueTBWin + 4 + 4},
		{egtb.Entry{}, 4, 100, draw},
		{egtb.Entry{Value: egtb.Win(3), DTZ: egtb.Win(3)}, 4, 6, ValueTBWin - 4 - 5}, // 5 slides to the removal: fits 6
		{egtb.Entry{Value: egtb.Win(3), DTZ: egtb.Win(3)}, 4, 5, draw + 1},           // does not fit 5
		{egtb.Entry{Value: egtb.Win(9), DTZ: egtb.Win(3), Exact: true}, 4, 5, draw + 1},
		{egtb.Entry{Value: egtb.Loss(3), DTZ: egtb.Loss(3)}, 4, 7, -ValueTBWin + 4 + 6}, // the winner's 6th slide removes
		{egtb.Entry{Value: egtb.Loss(3), DTZ: egtb.Loss(3)}, 4, 6, draw - 1},
	} {
		if got := tableScore(c.e, c.ply, draw, c.budget); got != c.want {
			t.Errorf("%+v at ply %d, %d plies left: %d, want %d", c.e, c.ply, c.budget, got, c.want)
		}
	}
	if ValueTBWin+MaxPly+256 >= ValueMateBand || ValueTBBand >= ValueTBWin-MaxPly-256 {
		t.Errorf("the table-win band %d..%d overlaps the mates or itself", ValueTBBand, ValueTBWin)
	}
}

// The proof horizon grows with the proof's budget (a third of the move's
// time) and its threads: 6 placements left always, 10 with two seconds on
// one thread (infinite analysis) or one second on two.
func TestProofHorizon(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		budget  time.Duration
		threads int
		want    int
	}{
		{1 * ms, 1, 6}, {249 * ms, 1, 6}, {250 * ms, 1, 7}, {333 * ms, 1, 7}, {333 * ms, 2, 8},
		{399 * ms, 1, 7}, {400 * ms, 1, 8}, {700 * ms, 1, 9}, {350 * ms, 2, 9}, {1999 * ms, 1, 9},
		{2000 * ms, 1, 10}, {1000 * ms, 2, 10}, {time.Hour, 0, 10},
	} {
		if got := proofHorizon(c.budget, c.threads); got != c.want {
			t.Errorf("%v on %d threads: %d placements, want %d", c.budget, c.threads, got, c.want)
		}
	}
}

// perfectMora writes a synthetic Morabaraba database of the first two plies
// in a temporary folder and returns it opened: the start is worth start;
// after the first placement the opponent (to move) gets loses where the
// piece went on a midpoint of the middle ring, and draws elsewhere.
func perfectMora(t *testing.T, start, loses perfecttest.Result) *perfect.DB {
	t.Helper()
	dir := t.TempDir()
	middle := bb.Bitboard(0)
	for _, s := range []string{"b4", "d2", "d6", "f4"} {
		m, _ := position.ParseMove(s)
		middle |= bb.Bit(m.To())
	}
	ids := []malom.SectorID{{W: 0, B: 0, WF: 12, BF: 12}, {W: 0, B: 1, WF: 12, BF: 11}}
	perfecttest.Write(t, dir, malom.Morabaraba, map[malom.SectorID]int16{ids[0]: 686, ids[1]: -101}, ids,
		func(id malom.SectorID, _, other bb.Bitboard) perfecttest.Result {
			switch {
			case id.B == 0:
				return start
			case other&middle != 0:
				return loses
			}
			return perfecttest.Draw
		})
	r := twelve()
	db, err := perfect.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func twelve() rules.Rules {
	p, _ := rules.PresetByName("twelve-mens-morris")
	return p.Rules
}

// With Malom's database as the root's source the engine answers a root it
// knows at once, by the tables' policy: a move that keeps the value, the
// value as a mate score, said to come from the perfect database; at a drawn
// root the search chooses among the drawing moves and reports the draw.
func TestPerfectRoot(t *testing.T) {
	r := twelve()
	g := position.NewGame(r, position.New(&r))
	wins := map[string]bool{"b4": true, "d2": true, "d6": true, "f4": true}

	e := New(1)
	e.SetRootSource(perfect.NewRoot(nil, perfectMora(t, perfecttest.Win(11), perfecttest.Loss(10))))
	var infos []Info
	res := e.Search(g, Limits{MoveTime: 200 * time.Millisecond}, func(in Info) { infos = append(infos, in) })
	if !wins[res.BestMove.String()] || res.Source != FromPerfect || res.MateIn != 6 || res.Score != ValueMate-11 ||
		res.Outcome != OutcomeWin || len(res.PV) != 1 || res.PV[0] != res.BestMove || res.Nodes != 0 {
		t.Fatalf("a won root: %+v", res)
	}
	if len(infos) != 1 || infos[0].Depth != 1 || infos[0].MateIn != 6 || infos[0].TBHits != 24 {
		t.Fatalf("a won root's reports: %+v", infos)
	}

	// A drawn root: the start a draw, a piece on the middle ring's
	// midpoints loses (the opponent wins in 19 plies).
	e = New(1)
	e.SetRootSource(perfect.NewRoot(nil, perfectMora(t, perfecttest.Draw, perfecttest.Win(19))))
	res = e.Search(g, Limits{Depth: 3}, nil)
	if wins[res.BestMove.String()] || res.Source != FromPerfect || res.Score != 0 || res.Outcome != OutcomeDraw || res.Nodes == 0 {
		t.Fatalf("a drawn root: %+v", res)
	}
	// The source set, but not for these rules: a plain search.
	nine := rules.Default()
	res = e.Search(position.NewGame(nine, position.New(&nine)), Limits{Depth: 2}, nil)
	if res.Source != FromSearch || res.Outcome != OutcomeUnknown {
		t.Fatalf("other rules: %+v", res)
	}
}
