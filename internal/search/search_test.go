package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
	"github.com/millengine/millengine/internal/tt"
)

// SetSeed fixes the random source of Shuffling and SkillLevel.
func (e *Engine) SetSeed(seed uint64) { e.rng = rand.New(rand.NewPCG(seed, 0x6d696c6c)) }

// TestForcedWins: positions with a known forced win; the search must find a
// winning first action and report a mate score with the right turn count.
func TestForcedWins(t *testing.T) {
	cases := []struct {
		name, variant, fen string
		want               []string // acceptable first actions
		mate               int      // expected "mate n"
	}{
		{"mill that wins", "nine-mens-morris", "***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30", []string{"g4-g7"}, 1},
		{"win by blocking every move", "nine-mens-morris", "****O***/**O**@O*/***O@@@O w m s 5 0 4 0 0 0 0 0 0 0 0 0 30", []string{"d3-d2"}, 1},
		{"flying: mill in one", "nine-mens-morris", "*@***@**/***@****/O*****OO w m s 3 0 3 0 0 0 0 0 0 0 0 0 40", []string{"d7-a1", "a4-g7"}, 1},
		{"flying: cannot stop two threats", "nine-mens-morris", "*@***@**/***@****/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 0 40", nil, -1},
		{"removal that wins", "nine-mens-morris", "***@***@/****@O**/OOO****O w m r 5 0 3 0 1 0 0 0 0 0 0 0 30", []string{"xe3", "xc5", "xd2"}, 1},
		// Of the nine actions only b2-d2 wins (each was searched to depth 9):
		// it leaves two mills to close next turn, and the flying defender
		// can stop only one (pv b2-d2 f6-d3 d2-b2 xd3).
		{"mill in two turns", "nine-mens-morris", "***O*O**/*@***OOO/*O**@*@* w m s 6 0 3 0 0 0 0 0 0 0 0 7 51", []string{"b2-d2"}, 2},
	}
	for _, algo := range []Algorithm{MTDF, AlphaBeta, PVS} {
		for _, c := range cases {
			g := testkit.Game(t, testkit.Rules(t, c.variant), c.fen)
			e := New(4)
			o := e.Options()
			o.Algorithm = algo
			e.SetOptions(o)
			var last Info
			res := e.Search(g, Limits{Depth: 6}, func(i Info) {
				if i.PV != nil {
					last = i
				}
			})
			if !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
				t.Fatalf("%v %s: illegal best move %v", algo, c.name, res.BestMove)
			}
			if c.want != nil {
				ok := false
				for _, w := range c.want {
					ok = ok || res.BestMove.String() == w
				}
				if !ok {
					t.Errorf("%v %s: best move %v, want one of %v", algo, c.name, res.BestMove, c.want)
				}
			}
			if last.MateIn != c.mate {
				t.Errorf("%v %s: reported score %d mate %d, want mate %d (pv %v)", algo, c.name, last.Score, last.MateIn, c.mate, last.PV)
			}
		}
	}
}

// TestPrefersFasterWin: a win now is preferred to a slower one.
func TestPrefersFasterWin(t *testing.T) {
	// White can win at once; a slower win also exists. The faster one must
	// be chosen and reported as mate 1.
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30")
	e := New(4)
	res := e.Search(g, Limits{Depth: 8}, nil)
	if res.BestMove.String() != "g4-g7" || res.Score != ValueMate-2 {
		t.Fatalf("best %v score %d, want g4-g7 with %d", res.BestMove, res.Score, ValueMate-2)
	}
}

// TestBlockadeAtPlacingEnd: Black's last placement on f4 leaves White,
// which must slide next, without a legal slide. That is a loss for White
// under the standard rules, and the search must score it as one (a win in
// one ply), not by the static evaluation of the blocked position.
func TestBlockadeAtPlacingEnd(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "@@******/O@*O@O@O/OOO@@OO@ b p p 9 0 8 1 0 0 0 0 0 0 0 0 9")
	for _, depth := range []int{1, 4} {
		res := New(4).Search(g, Limits{Depth: depth}, nil)
		if res.BestMove.String() != "f4" || res.Score != ValueMate-1 {
			t.Fatalf("depth %d: best %v score %d, want f4 with %d", depth, res.BestMove, res.Score, ValueMate-1)
		}
	}
}

// refSearch is a plain minimax with the same rules and leaf semantics as the
// engine but without table, ordering or pruning: the reference value.
type refSearch struct {
	r    *rules.Rules
	maxQ int
	draw [2]int // the score of a draw for each colour to move (Contempt)
}

func (s *refSearch) value(p position.Position, keys []uint32, since, depth, ply, ext int, slid bool) int {
	if p.IsOver() {
		return terminal(&p, ply, s.draw[p.SideToMove()])
	}
	if ply > 0 && slid && refDrawn(s.r, &p, keys, since) {
		return s.draw[p.SideToMove()]
	}
	if depth <= 0 {
		return s.quiesce(p, keys, since, ply, 0, slid)
	}
	var ml movegen.MoveList
	movegen.Generate(s.r, &p, &ml)
	// A side that must slide with two legal slides or fewer is searched a
	// ply deeper, six times at most on a line; the root is not extended.
	if ply > 0 && ext < 6 && ml.N <= 2 && p.Phase() == position.Moving &&
		p.Action() == position.Select && !p.CanFly(s.r, p.SideToMove()) {
		depth++
		ext++
	}
	best := -ValueInfinite
	for _, m := range ml.Slice() {
		c, k, sn := s.child(p, m, keys, since)
		v := s.value(c, k, sn, depth-1, ply+1, ext, m.Kind() == position.KindSlide)
		if c.SideToMove() != p.SideToMove() {
			v = -v
		}
		if v > best {
			best = v
		}
	}
	return best
}

// child plays m from p and returns the position with its line's repetition
// keys and since: a slide adds the child's key, anything else starts a new
// run at the end of keys.
func (s *refSearch) child(p position.Position, m position.Move, keys []uint32, since int) (position.Position, []uint32, int) {
	p.Do(s.r, m)
	if m.Kind() == position.KindSlide {
		return p, append(keys[:len(keys):len(keys)], p.Key()), since
	}
	return p, keys, len(keys)
}

func (s *refSearch) quiesce(p position.Position, keys []uint32, since, ply, qd int, slid bool) int {
	if p.IsOver() {
		return terminal(&p, ply, s.draw[p.SideToMove()])
	}
	if ply > 0 && slid && refDrawn(s.r, &p, keys, since) {
		return s.draw[p.SideToMove()]
	}
	if qd >= s.maxQ {
		return eval.Evaluate(s.r, &p)
	}
	var ml movegen.MoveList
	movegen.Generate(s.r, &p, &ml)
	best := -ValueInfinite
	removing := p.Action() == position.Remove
	if !removing {
		best = eval.Evaluate(s.r, &p)
	}
	t := s.r.Topology()
	// The opponent's last exit: the one empty point next to its pieces when
	// it has to slide. Taking it blocks the opponent.
	them := p.SideToMove() ^ 1
	exits := 0
	lastExit := bb.NoSquare
	if p.InHand(them) == 0 && !p.CanFly(s.r, them) {
		for sq := bb.Square(0); sq < 24; sq++ {
			if p.Empty()&(1<<sq) == 0 {
				continue
			}
			for b := p.Pieces(them); b != 0; {
				if t.Adjacent[b.PopFirst()]&(1<<sq) != 0 {
					exits++
					lastExit = sq
					break
				}
			}
		}
	}
	for _, m := range ml.Slice() {
		if !removing {
			own := p.Pieces(p.SideToMove())
			if m.Kind() == position.KindSlide {
				own &^= 1 << m.From()
			}
			if t.MillsAt(m.To(), own) == 0 && (exits != 1 || m.To() != lastExit) {
				continue
			}
		}
		c, k, sn := s.child(p, m, keys, since)
		v := s.quiesce(c, k, sn, ply+1, qd+1, m.Kind() == position.KindSlide)
		if c.SideToMove() != p.SideToMove() {
			v = -v
		}
		if v > best {
			best = v
		}
	}
	return best
}

func refDrawn(r *rules.Rules, p *position.Position, keys []uint32, since int) bool {
	if p.NMoveDraw(r) != position.NoReason {
		return true
	}
	key := p.Key()
	for i := since; i < len(keys)-1; i++ {
		if keys[i] == key {
			return true
		}
	}
	return false
}

// TestDriversAgreeWithMinimax: in exact mode (no reductions, table cutoffs
// only at equal depth) MTD(f), alpha-beta and PVS return the minimax value.
func TestDriversAgreeWithMinimax(t *testing.T) {
	cases := []struct {
		variant, fen, tokens string // the game: from fen ("" the start position), tokens played
		depth                int
	}{
		{"nine-mens-morris", "", "", 3},
		{"nine-mens-morris", "", "d6 d2 f4 b4", 3},
		{"nine-mens-morris", "", "a7 b4 d7 f4", 3},
		{"nine-mens-morris", "", "a7 b4 d7 f4 g7", 3},
		{"nine-mens-morris", "", "g7 a7 a4 a1 d1 e4 b4 c4 b6 d5 b2 xc4 g1 c3 e5 c4 xd5 d6 d3", 3},
		{"twelve-mens-morris", "", "d6 d2 f6 b2", 3},
		{"morabaraba", "", "a7 b4 d7 f4 b6 d2", 3},
		{"lasker-morris", "", "a7 b4 d7 f4", 3},
		{"nine-mens-morris", "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10", "", 4},
		{"nine-mens-morris", "*@***@**/***@****/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 0 40", "", 3},
		{"nine-mens-morris", "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11", "", 4},
		// The side not to move is cramped (two or three slides) and can be
		// blocked: the extension and the quiescence moves onto a last exit
		// decide the value.
		{"nine-mens-morris", "O****OO*/@@O@OO@@/@@@@**O* w m s 7 0 9 0 0 0 0 0 0 0 0 0 11", "", 3},
		{"nine-mens-morris", "***OO**@/@*@*@*@O/OO@@O@OO b m s 8 0 8 0 0 0 0 0 0 0 0 19 20", "", 3},
		{"nine-mens-morris", "@O@@OO*O/O@O**O@*/O@@**O@@ w m s 9 0 9 0 0 0 0 0 0 0 0 2 11", "", 3},
		{"nine-mens-morris", "@@**O**@/*@@***@@/OOO@@OO* b m s 6 0 9 0 0 0 0 0 0 0 0 1 30", "", 2},
		// A few plies from the N-move rule, draws inside the horizon. By
		// minimax at depth 3 with contempt 0, 40 and −40: every line
		// draws (0, −40, 40); the root side keeps the game going at −28
		// rather than draw at −40, and draws (40) when it loves draws
		// (0, −28, 40); the root side draws (40) where it would play on
		// at 6 (6, 6, 40); the opponent avoids the draw the root side
		// wants and concedes 26 instead of 40 (0, −40, 26).
		{"nine-mens-morris", "@O@@OO*O/O@O**O@*/O@@**O@@ w m s 9 0 9 0 0 0 0 0 0 0 0 98 11", "", 3},
		{"nine-mens-morris", "O****OO*/@@O@OO@@/@@@@**O* w m s 7 0 9 0 0 0 0 0 0 0 0 97 11", "", 3},
		{"nine-mens-morris", "O****OO*/@@O@OO@@/@@@@**O* w m s 7 0 9 0 0 0 0 0 0 0 0 96 11", "", 3},
		{"nine-mens-morris", "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 96 10", "", 3},
	}
	for i, c := range cases {
		g := testkit.Game(t, testkit.Rules(t, c.variant), c.fen, c.tokens)
		// Without contempt and with one each way: the drivers score draws
		// by the rules as the minimax does, −Contempt for the root's side.
		for _, contempt := range []int{0, 40, -40} {
			opts := DefaultOptions()
			opts.Contempt = contempt
			ref := refSearch{r: &g.Rules, maxQ: opts.MaxQuiescenceDepth}
			ref.draw[g.Pos.SideToMove()], ref.draw[g.Pos.SideToMove().Opponent()] = -contempt, contempt
			keys := append([]uint32(nil), g.RepetitionKeys()...)
			want := ref.value(g.Pos, keys, 0, c.depth, 0, 0, false)
			for _, algo := range []Algorithm{MTDF, AlphaBeta, PVS} {
				e := New(4)
				e.testExact = true
				o := opts
				o.Algorithm = algo
				e.SetOptions(o)
				res := e.Search(g, Limits{Depth: c.depth}, nil)
				if res.Score != want {
					t.Errorf("position %d (%s) depth %d contempt %d: %v scores %d, minimax %d", i, g.Pos.FEN(), c.depth, contempt, algo, res.Score, want)
				}
			}
		}
	}
}

// TestMovesAreLegal: from random positions of every preset, with one and two
// threads, the returned move is always legal and the PV plays legally.
func TestMovesAreLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, preset := range rules.Presets {
		r := preset.Rules
		for game := 0; game < 3; game++ {
			g := position.NewGame(r, position.New(&r))
			plies := rng.IntN(60)
			for i := 0; i < plies && !g.Pos.IsOver(); i++ {
				var ml movegen.MoveList
				movegen.Generate(&g.Rules, &g.Pos, &ml)
				g.Play(ml.Moves[rng.IntN(ml.N)])
			}
			if g.Pos.IsOver() {
				continue
			}
			for _, threads := range []int{1, 2} {
				e := New(2)
				o := e.Options()
				o.Threads = threads
				e.SetOptions(o)
				res := e.Search(g, Limits{Depth: 4}, nil)
				if !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
					t.Fatalf("%s: illegal best move %v in %s", preset.Key, res.BestMove, g.Pos.FEN())
				}
				p := g.Pos
				for _, m := range res.PV {
					if !movegen.IsLegal(&g.Rules, &p, m) {
						t.Fatalf("%s: illegal PV move %v in %s (pv %v)", preset.Key, m, p.FEN(), res.PV)
					}
					p.Do(&g.Rules, m)
				}
			}
		}
	}
}

// TestBenchDeterministic: with one thread, bench counts the same nodes twice,
// and writes a line per position with a cp or mate score.
func TestBenchDeterministic(t *testing.T) {
	var a, b strings.Builder
	ra, err := Bench(context.Background(), BenchConfig{Depth: 4, Threads: 1, HashMB: 4}, &a)
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := Bench(context.Background(), BenchConfig{Depth: 4, Threads: 1, HashMB: 4}, &b)
	posLines := func(s string) string { return s[:strings.Index(s, "\nTime: ")] }
	if ra.Nodes != rb.Nodes || ra.Nodes == 0 || posLines(a.String()) != posLines(b.String()) {
		t.Fatalf("bench nodes %d then %d:\n%s\n%s", ra.Nodes, rb.Nodes, a.String(), b.String())
	}
	line := regexp.MustCompile(`^Position +\d+/38 [a-z-]+ +[a-z]+ +bestmove [a-gx1-7-]+ +score -?\d+ +nodes +\d+$`) // Score nil: the number
	lines := strings.Split(a.String(), "\n")
	for _, l := range lines[:38] {
		if !line.MatchString(l) {
			t.Fatalf("bench line %q", l)
		}
	}
	if want := fmt.Sprintf("Nodes searched: %d", ra.Nodes); lines[39] != want {
		t.Fatalf("summary %q, want %q", lines[39], want)
	}
}

// TestBenchStops: a bench whose context ends stops at once and says how far
// it got.
func TestBenchStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var out strings.Builder
	start := time.Now()
	if _, err := Bench(ctx, BenchConfig{Depth: 60, Threads: 1, HashMB: 4}, &out); err != nil {
		t.Fatal(err)
	}
	// A hang guard, not a latency figure: a bench that ignored its context
	// would run for minutes.
	if el := time.Since(start); el > 30*time.Second {
		t.Fatalf("bench took %v after its context ended at 300ms", el)
	}
	if !strings.Contains(out.String(), "Bench stopped after 0 of 38 positions\n\nNodes searched: ") {
		t.Fatalf("output %q", out.String())
	}
}

// TestStopAndPonder: an infinite or ponder search returns only after Stop
// (or PonderHit), and then with a legal move.
func TestStopAndPonder(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "", "d6 d2")
	for _, lim := range []Limits{{Infinite: true}, {Ponder: true, Depth: 2}} {
		e := New(4)
		o := e.Options()
		o.Threads = 2
		e.SetOptions(o)
		done := make(chan Result, 1)
		go func() { done <- e.Search(g, lim, nil) }()
		select {
		case <-done:
			t.Fatalf("%+v: search returned before stop", lim)
		case <-time.After(100 * time.Millisecond):
		}
		if lim.Ponder {
			e.PonderHit() // depth 2 is long done: the result follows
		} else {
			e.Stop()
		}
		res := <-done
		if !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
			t.Fatalf("illegal move %v after stop", res.BestMove)
		}
	}
}

// TestClockFromStart: the clock runs from Limits.Start, the go's arrival, so a
// search whose move time is spent before it starts stops at once with a
// legal move, and reports the time since the go.
func TestClockFromStart(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "", "d6 d2 f4 b4")
	e := New(4)
	var times []time.Duration
	lim := Limits{MoveTime: 200 * time.Millisecond, Start: time.Now().Add(-10 * time.Second)}
	res := e.Search(g, lim, func(in Info) { times = append(times, in.Time) })
	if !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
		t.Fatalf("illegal move %v", res.BestMove)
	}
	if len(times) == 0 {
		t.Fatal("no info reported")
	}
	for _, d := range times {
		if d < 10*time.Second {
			t.Fatalf("reported time %v, want at least 10s (the clock runs from Start)", d)
		}
	}
}

// TestSkillAndShuffling: weak play is legal and still takes a win; shuffling
// off is deterministic.
func TestSkillAndShuffling(t *testing.T) {
	win := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "***@***@/****@O**/O*O****O w m s 4 0 3 0 0 0 0 0 0 0 0 0 30")
	start := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "", "")
	for level := 0; level < 30; level += 7 {
		e := New(2)
		e.SetSeed(uint64(level))
		o := e.Options()
		o.SkillLevel = level
		e.SetOptions(o)
		if res := e.Search(win, Limits{Depth: 3}, nil); res.BestMove.String() != "g4-g7" {
			t.Errorf("skill %d missed the win: %v", level, res.BestMove)
		}
		for i := 0; i < 3; i++ {
			res := e.Search(start, Limits{Depth: 3}, nil)
			if !movegen.IsLegal(&start.Rules, &start.Pos, res.BestMove) {
				t.Fatalf("skill %d: illegal %v", level, res.BestMove)
			}
		}
	}
	var first position.Move
	for i := 0; i < 3; i++ {
		e := New(2)
		res := e.Search(start, Limits{Depth: 4}, nil)
		if i > 0 && res.BestMove != first {
			t.Fatalf("shuffling off: %v then %v", first, res.BestMove)
		}
		first = res.BestMove
	}
	seen := map[position.Move]bool{}
	for i := 0; i < 12; i++ {
		e := New(2)
		e.SetSeed(uint64(i))
		o := e.Options()
		o.Shuffling = true
		e.SetOptions(o)
		seen[e.Search(start, Limits{Depth: 1}, nil).BestMove] = true
	}
	if len(seen) < 2 {
		t.Errorf("shuffling on: always %v", seen)
	}
}

// TestConcurrentStop: Stop from another goroutine during a threaded search.
func TestConcurrentStop(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "", "")
	e := New(8)
	o := e.Options()
	o.Threads = 2
	e.SetOptions(o)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(30 * time.Millisecond)
		e.Stop()
	}()
	res := e.Search(g, Limits{Infinite: true}, func(Info) {})
	wg.Wait()
	if !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
		t.Fatalf("illegal %v", res.BestMove)
	}
}

// TestContemptIsOffForAnalysis: two plies from the N-move rule, White can
// draw or play on at −28 (by minimax at depth 3). With Contempt 40 it plays
// on; in analysis (AnalyseMode, or an infinite search) the same options
// score the draw as a draw.
func TestContemptIsOffForAnalysis(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "O****OO*/@@O@OO@@/@@@@**O* w m s 7 0 9 0 0 0 0 0 0 0 0 97 11")
	cases := []struct {
		name     string
		analyse  bool
		infinite bool
		want     int
	}{
		{"contempt 40", false, false, -28},
		{"AnalyseMode", true, false, 0},
		{"infinite", false, true, 0},
	}
	for _, c := range cases {
		e := New(4)
		e.testExact = true
		o := e.Options()
		o.Contempt, o.AnalyseMode = 40, c.analyse
		e.SetOptions(o)
		lim := Limits{Depth: 3, Infinite: c.infinite}
		res := e.Search(g, lim, func(i Info) {
			if i.PV != nil && i.Depth == 3 {
				e.Stop() // an infinite search answers only after stop
			}
		})
		if res.Score != c.want {
			t.Errorf("%s: score %d, want %d", c.name, res.Score, c.want)
		}
	}
	for _, c := range []struct {
		o     Options
		lim   Limits
		root  position.Color
		drawn bool
		want  [2]int
	}{
		{Options{Contempt: 15}, Limits{}, position.White, false, [2]int{-15, 15}},
		{Options{Contempt: 15}, Limits{}, position.Black, false, [2]int{15, -15}},
		{Options{Contempt: -30}, Limits{MoveTime: time.Second}, position.White, false, [2]int{30, -30}},
		{Options{Contempt: 15, AnalyseMode: true}, Limits{}, position.White, false, [2]int{0, 0}},
		{Options{Contempt: 15}, Limits{Infinite: true}, position.Black, false, [2]int{0, 0}},
		// DrawnContempt counts only at a drawn root, and 0 keeps Contempt.
		{Options{Contempt: 15, DrawnContempt: 60}, Limits{}, position.White, false, [2]int{-15, 15}},
		{Options{Contempt: 15, DrawnContempt: 60}, Limits{}, position.White, true, [2]int{-60, 60}},
		{Options{Contempt: 15, DrawnContempt: 60}, Limits{}, position.Black, true, [2]int{60, -60}},
		{Options{Contempt: 15}, Limits{}, position.White, true, [2]int{-15, 15}},
		{Options{Contempt: 15, DrawnContempt: 60, AnalyseMode: true}, Limits{}, position.White, true, [2]int{0, 0}},
	} {
		if got := drawScores(&c.o, &c.lim, c.root, c.drawn); got != c.want {
			t.Errorf("drawScores(%+v, infinite %v, %v, drawn %v) = %v, want %v", c.o, c.lim.Infinite, c.root, c.drawn, got, c.want)
		}
	}
}

// Reverse futility pruning, internal iterative reduction and enhanced
// transposition cutoffs are on only in a search for one line: the searches
// that score every root action (MultiPV, the levels, the policies' opponent
// model) and the exact tests go without them.
func TestPruningOnlyForOneLine(t *testing.T) {
	g := testkit.Game(t, testkit.Rules(t, "nine-mens-morris"), "@@@@**O*/*O*O@@O*/*OO***@* w p p 6 2 7 2 0 0 0 0 0 0 0 0 8")
	for _, c := range []struct {
		name    string
		multiPV int
		exact   bool
		want    bool
	}{
		{"one line", 1, false, true},
		{"MultiPV 3", 3, false, false},
		{"exact", 1, true, false},
	} {
		e := New(4)
		e.testExact = c.exact
		o := e.Options()
		o.MultiPV, o.Threads = c.multiPV, 1
		e.SetOptions(o)
		e.Search(g, Limits{Depth: 4}, nil)
		if got := e.workers[0].oneLine; got != c.want {
			t.Errorf("%s: oneLine %v, want %v", c.name, got, c.want)
		}
	}
	e := New(4)
	e.replyScores(g, 3, nil)
	if e.workers[0].oneLine {
		t.Errorf("replyScores searched with the one-line pruning")
	}
}

// etcWorker is a worker at the root p with an empty table of its own, as
// etc needs it.
func etcWorker(r *rules.Rules, p position.Position) *worker {
	e := New(1)
	w := newWorker(e, 0)
	w.r, w.tt = r, e.tt
	w.stack[0] = frame{pos: p}
	return w
}

// TestEnhancedTranspositionCutoff: etc ends a node with a child's table
// entry that is deep enough and proves beta, whether the turn passes to the
// child (its upper bound, negated) or stays (a mill's removal: its lower
// bound), and not with a shallower entry, a bound on the wrong side, or a
// slide's child.
func TestEnhancedTranspositionCutoff(t *testing.T) {
	r := testkit.Rules(t, "nine-mens-morris")
	// White to place: some placements pass the turn, one closes a mill.
	p := testkit.Position(t, &r, "@@@@**O*/*O*O@@O*/*OO***@* w p p 6 2 7 2 0 0 0 0 0 0 0 0 8")
	var ml movegen.MoveList
	movegen.Generate(&r, &p, &ml)
	var quiet, mill position.Move
	for _, m := range ml.Slice() {
		c := p
		c.Do(&r, m)
		if c.SideToMove() != p.SideToMove() && quiet == position.NoMove {
			quiet = m
		}
		if c.SideToMove() == p.SideToMove() && mill == position.NoMove {
			mill = m
		}
	}
	if quiet == position.NoMove || mill == position.NoMove {
		t.Fatalf("%s: no quiet placement or no mill among %v", p.FEN(), ml.Slice())
	}
	child := func(m position.Move) position.Position {
		c := p
		c.Do(&r, m)
		return c
	}
	for _, c := range []struct {
		name   string
		move   position.Move
		value  int16 // from the child's side to move
		depth  int8
		bound  tt.Bound
		beta   int
		want   int
		wantOK bool
	}{
		{"quiet, upper bound of the child", quiet, -300, 2, tt.BoundUpper, 200, 300, true},
		{"quiet, exact", quiet, -300, 2, tt.BoundExact, 300, 300, true},
		{"quiet, below beta", quiet, -300, 2, tt.BoundUpper, 301, 0, false},
		{"quiet, too shallow", quiet, -300, 1, tt.BoundUpper, 200, 0, false},
		{"quiet, lower bound of the child", quiet, -300, 2, tt.BoundLower, 200, 0, false},
		{"mill, lower bound", mill, 300, 2, tt.BoundLower, 200, 300, true},
		{"mill, upper bound", mill, 300, 2, tt.BoundUpper, 200, 0, false},
	} {
		w := etcWorker(&r, p)
		k := child(c.move)
		w.tt.Store(k.Key(), k.Signature(), position.NoMove, c.value, c.depth, c.bound)
		if v, ok := w.etc(0, 3, c.beta, ml.Slice()); v != c.want || ok != c.wantOK {
			t.Errorf("%s: etc = %d, %v; want %d, %v", c.name, v, ok, c.want, c.wantOK)
		}
	}
	// A slide's child is never looked up: it may be a repetition.
	mp := testkit.Position(t, &r, "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10")
	var sl movegen.MoveList
	movegen.Generate(&r, &mp, &sl)
	w := etcWorker(&r, mp)
	for _, m := range sl.Slice() {
		k := mp
		k.Do(&r, m)
		w.tt.Store(k.Key(), k.Signature(), position.NoMove, -ValueMate+10, 20, tt.BoundExact)
	}
	if v, ok := w.etc(0, 3, 0, sl.Slice()); ok {
		t.Errorf("etc cut a moving-phase node with a slide's child: %d", v)
	}
}
