package solve

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// minimax is the plain game-tree value of p: no table, no ordering, no
// pruning, the tables at the end of placing.
func minimax(t *testing.T, r *rules.Rules, tb *egtb.Tables, p *position.Position) Value {
	if p.IsOver() {
		return terminal(p)
	}
	if p.InHand(position.White) == 0 && p.InHand(position.Black) == 0 {
		e, ok := tb.Lookup(r, p)
		if !ok {
			t.Fatalf("%s: not in the tables: %s", p.FEN(), tb.Why(r, p))
		}
		return e.Value.WDL()
	}
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	best := Loss - 1
	for _, m := range ml.Slice() {
		best = max(best, minimaxOf(t, r, tb, p, m))
	}
	return best
}

// minimaxOf is minimax's value of the action m of p for p's side to move.
func minimaxOf(t *testing.T, r *rules.Rules, tb *egtb.Tables, p *position.Position, m position.Move) Value {
	c := *p
	c.Do(r, m)
	v := minimax(t, r, tb, &c)
	if c.SideToMove() != p.SideToMove() {
		v = -v
	}
	return v
}

// latePlacings returns n random positions four placements from the end
// (White one piece on the board and two in hand, Black two and two), or
// short of them in a short run or under the race detector.
func latePlacings(t *testing.T, r *rules.Rules, rng *rand.Rand, n, short int) []position.Position {
	if testing.Short() || testkit.Race {
		n = short
	}
	ps := make([]position.Position, n)
	for i := range ps {
		ps[i] = testkit.RandomPlacing(t, r, rng, 1, 2, 2, 2)
	}
	return ps
}

// egtb.Value.WDL keeps a table value's result and drops its distance; terminal
// reads a finished game's result for its side to move.
func TestTableWDLAndTerminal(t *testing.T) {
	for _, c := range []struct {
		v    egtb.Value
		want Value
	}{{egtb.Win(1), Win}, {egtb.Win(40), Win}, {egtb.Loss(0), Loss}, {egtb.Loss(7), Loss}, {egtb.Draw, Draw}} {
		if got := c.v.WDL(); got != c.want {
			t.Errorf("%v.WDL() = %v, want %v", c.v, got, c.want)
		}
	}
	r := rules.Default()
	for _, c := range []struct {
		fen  string
		want Value
	}{
		// White to move has two pieces left: Black has won.
		{"OO@@@***/********/******** w m s 2 0 3 0 0 0 0 0 0 0 0 0 40", Loss},
		{"OO@@@***/********/******** b m s 2 0 3 0 0 0 0 0 0 0 0 0 40", Win},
		// The N-move rule's counter has run out.
		{"OOO@@@**/********/******** w m s 3 0 3 0 0 0 0 0 0 0 0 100 40", Draw},
	} {
		p := testkit.Position(t, &r, c.fen)
		if !p.IsOver() {
			t.Fatalf("%s is not over", c.fen)
		}
		if got := terminal(&p); got != c.want {
			t.Errorf("terminal(%s) = %v, want %v", c.fen, got, c.want)
		}
	}
}

// smallSolver returns a solver of the standard rules with the tables up to
// 7 pieces (placing positions four placements from the end), and the tables.
func smallSolver(t testing.TB, o Options) (*Solver, *egtb.Tables) {
	t.Helper()
	r := rules.Default()
	tb := egtbtest.Open(t, 7)
	s, err := New(r, tb, o)
	if err != nil {
		t.Fatal(err)
	}
	return s, tb
}

// The proof agrees with plain minimax on every action of random positions
// four placements from the end (leaves in 3v4 and 4v3, and the games that
// end while placing), with the table carried from one proof to the next.
func TestSolveMatchesMinimax(t *testing.T) {
	r := rules.Default()
	s, tb := smallSolver(t, Options{TableMB: 8, Threads: 2})
	seen := map[Value]int{}
	var transposed uint64
	for _, p := range latePlacings(t, &r, rand.New(rand.NewPCG(1, 2)), 12, 3) {
		v, acts, err := s.Actions(context.Background(), &p)
		if err != nil {
			t.Fatal(err)
		}
		transposed += s.Stats().Transposed
		if want := minimax(t, &r, tb, &p); v != want {
			t.Fatalf("%s: proved %s, minimax %s", p.FEN(), v, want)
		}
		for _, a := range acts {
			if want := minimaxOf(t, &r, tb, &p, a.Move); a.Value != want {
				t.Fatalf("%s %s: proved %s, minimax %s", p.FEN(), a.Move, a.Value, want)
			}
			seen[a.Value]++
		}
		if again, _ := s.Value(context.Background(), &p); again != v {
			t.Fatalf("%s: %s again, %s before", p.FEN(), again, v)
		}
	}
	t.Logf("action values: %v; %+v; %d transposition cutoffs", seen, s.Stats(), transposed)
	if len(seen) < 2 {
		t.Errorf("the positions gave one value only: %v", seen)
	}
	if transposed == 0 {
		t.Errorf("no position was settled by a child's table entry: the cutoff went untested")
	}
}

// The table survives a restart: a short proof does not write its file before
// SaveEach, Save does, and a new solver reads it back and answers from it;
// a table of another size is refused.
func TestSolveTableFile(t *testing.T) {
	r := rules.Default()
	tb := egtbtest.Open(t, 7)
	file := filepath.Join(t.TempDir(), "tt")
	s, err := New(r, tb, Options{TableMB: 4, File: file})
	if err != nil {
		t.Fatal(err)
	}
	p := testkit.RandomPlacing(t, &r, rand.New(rand.NewPCG(3, 4)), 1, 2, 2, 2)
	v, err := s.Value(context.Background(), &p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a short proof wrote its table before SaveEach")
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	first := s.Stats()
	s2, err := New(r, tb, Options{TableMB: 4, File: file})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := s2.Value(context.Background(), &p)
	if err != nil || v2 != v {
		t.Fatalf("again: %s %v, want %s", v2, err, v)
	}
	if st := s2.Stats(); st.Nodes != 1 || st.TTFilled != first.TTFilled {
		t.Fatalf("the second proof searched %d nodes (table %d entries, %d before)", st.Nodes, st.TTFilled, first.TTFilled)
	}
	if _, err := New(r, tb, Options{TableMB: 8, File: file}); err == nil {
		t.Fatal("a table of another size was read")
	}
}

// A position whose leaves may lie in a sector the tables do not hold (4v4
// with the tables up to 7 pieces, as a build half done) is refused with the
// sector named, before any search, by Value and Actions alike; a position
// whose leaves are all there is proved by the same solver afterwards.
func TestSolveRefusesMissingSectors(t *testing.T) {
	r := rules.Default()
	dir := egtbtest.Small(t, 7)
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	s, err := New(r, tb, Options{TableMB: 4})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	far := testkit.RandomPlacing(t, &r, rng, 2, 2, 2, 2)
	want := "solve: a leaf may be in sector 4v4, which the tables in " + dir + " do not hold"
	if _, err := s.Value(context.Background(), &far); err == nil || err.Error() != want {
		t.Fatalf("Value: %v, want %q", err, want)
	}
	if _, acts, err := s.Actions(context.Background(), &far); err == nil || err.Error() != want || acts != nil {
		t.Fatalf("Actions: %v %v, want %q", acts, err, want)
	}
	if st := s.Stats(); st.Nodes != 0 {
		t.Fatalf("%d nodes searched for a refused position", st.Nodes)
	}
	near := testkit.RandomPlacing(t, &r, rng, 1, 2, 2, 2)
	v, err := s.Value(context.Background(), &near)
	if err != nil {
		t.Fatal(err)
	}
	if want := minimax(t, &r, tb, &near); v != want {
		t.Fatalf("%s: proved %s, minimax %s", near.FEN(), v, want)
	}
}

// Keeping names exactly the actions whose minimax value (for the mover)
// is at least the position's, and proves the position's value, on random
// positions four placements from the end whose values differ.
func TestKeepingMatchesMinimax(t *testing.T) {
	r := rules.Default()
	s, tb := smallSolver(t, Options{TableMB: 8, Threads: 2})
	values := map[Value]int{}
	var kept, given int
	for _, p := range latePlacings(t, &r, rand.New(rand.NewPCG(7, 8)), 10, 4) {
		v, keep, err := s.Keeping(context.Background(), &p)
		if err != nil {
			t.Fatal(err)
		}
		if want := minimax(t, &r, tb, &p); v != want {
			t.Fatalf("%s: proved %s, minimax %s", p.FEN(), v, want)
		}
		values[v]++
		var ml movegen.MoveList
		movegen.Generate(&r, &p, &ml)
		for _, m := range ml.Slice() {
			cv := minimaxOf(t, &r, tb, &p, m)
			in := false
			for _, k := range keep {
				in = in || k == m
			}
			if in != (cv >= v) {
				t.Fatalf("%s %s: worth %s to the mover, position %s, kept %t", p.FEN(), m, cv, v, in)
			}
			if in {
				kept++
			} else {
				given++
			}
		}
	}
	t.Logf("values %v, actions kept %d, given up %d", values, kept, given)
	if kept == 0 || given == 0 {
		t.Errorf("no action of either kind: %d kept, %d given up", kept, given)
	}
}

// Tree visits the start position, then the four classes of first placement
// (a corner or a midpoint of the outer and inner rings, of the middle ring),
// once each, with a line that reaches them; a stop ends it.
func TestTree(t *testing.T) {
	r := rules.Default()
	start := position.New(&r)
	var lines []string
	Tree(&r, &start, 2, func(line []position.Move, q *position.Position) bool {
		c := start
		s := ""
		for _, m := range line {
			c.Do(&r, m)
			s += m.String()
		}
		if c.FEN() != q.FEN() {
			t.Fatalf("line %s reaches %s, not %s", s, c.FEN(), q.FEN())
		}
		lines = append(lines, s)
		return true
	})
	if len(lines) != 5 || lines[0] != "" {
		t.Fatalf("lines %q, want the root and 4 first placements", lines)
	}
	classes := map[bb.Square]bool{}
	for _, l := range lines[1:] {
		sq, err := bb.ParseSquare(l)
		if err != nil {
			t.Fatal(err)
		}
		y := bb.Canonical(bb.Bit(sq), 0)
		classes[bb.Square(bits.TrailingZeros32(uint32(y.Apply(bb.Bit(sq)))))] = true
	}
	if len(classes) != 4 {
		t.Fatalf("first placements %q fall in %d classes, want 4", lines[1:], len(classes))
	}
	n := 0
	Tree(&r, &start, 3, func([]position.Move, *position.Position) bool { n++; return n < 3 })
	if n != 3 {
		t.Fatalf("a stop after 3 positions gave %d", n)
	}
}

// BenchmarkKeeping times Keeping on late placing positions (four placements
// left, the small tables), each proof from an empty table: the cost of the
// search per node, the ordering and the table lookups of the children.
func BenchmarkKeeping(b *testing.B) {
	r := rules.Default()
	s, _ := smallSolver(b, Options{TableMB: 1, Threads: 1})
	rng := rand.New(rand.NewPCG(3, 4))
	ps := make([]position.Position, 16)
	for i := range ps {
		ps[i] = testkit.RandomPlacing(b, &r, rng, 1, 2, 2, 2)
	}
	var nodes uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		clear(s.tt.b) // each proof from an empty table
		if _, _, err := s.Keeping(context.Background(), &ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
		nodes += s.Stats().Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
