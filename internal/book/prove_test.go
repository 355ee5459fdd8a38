package book

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
	"github.com/millengine/millengine/internal/testkit"
)

// Prove gives each position below the ply limit the solver's value and
// value-keeping actions, saves after each, and a second run over the saved
// book proves nothing again; positions at or past the limit are left alone.
func TestProve(t *testing.T) {
	r := rules.Default()
	tb := egtbtest.Open(t, 7)
	s, err := solve.New(r, tb, solve.Options{TableMB: 8})
	if err != nil {
		t.Fatal(err)
	}
	b := New(r, "nine-mens-morris")
	rng := rand.New(rand.NewPCG(9, 10))
	var ps []position.Position
	for len(ps) < 3 {
		p := testkit.RandomPlacing(t, &r, rng, 1, 2, 2, 2) // four placements from the end: leaves up to 7 pieces
		if b.Has(&p) {
			continue
		}
		var ml movegen.MoveList
		movegen.Generate(&r, &p, &ml)
		if err := b.Put(&p, Entry{Depth: 1, Actions: []Action{{Move: ml.Slice()[0], Score: 0}}}); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	// The positions are after 25 actions (14 placed, 3 on the board).
	if st, err := Prove(context.Background(), b, s, 25, nil, nil); err != nil || st != (ProveStats{}) {
		t.Fatalf("plies 25: %+v %v, want nothing to prove", st, err)
	}
	path := filepath.Join(t.TempDir(), "proven.book")
	saves, told := 0, 0
	st, err := Prove(context.Background(), b, s, 26, func() error { saves++; return b.Save(path) },
		func(n, total int, _ string, _ Proof) {
			if told++; n != told || total != 3 {
				t.Errorf("told %d of %d as the %dth", n, total, told)
			}
		})
	if err != nil || st != (ProveStats{Proven: 3, Total: 3}) || saves != 3 || told != 3 {
		t.Fatalf("%+v %v, %d saves, %d told; want 3 proven and saved", st, err, saves, told)
	}
	c, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		v, keep, err := s.Keeping(context.Background(), &p)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := c.Probe(&r, &p)
		if !ok || e.Proof == nil || e.Proof.Value != v || !slices.Equal(sorted(e.Proof.Keep), sorted(keep)) {
			t.Fatalf("%s: %+v, want %s keep %v", p.FEN(), e.Proof, v, keep)
		}
	}
	if st, err := Prove(context.Background(), c, s, 26, nil, nil); err != nil || st != (ProveStats{Before: 3, Total: 3}) {
		t.Fatalf("again: %+v %v, want all 3 proven before", st, err)
	}
}

func sorted(ms []position.Move) []position.Move {
	out := slices.Clone(ms)
	slices.Sort(out)
	return out
}

// The tree order ranks every position of the shipped book once, ply by ply
// (breadth first), and puts the children of one position together: the
// positions after each of Black's replies to the engine's first book
// action as White come as one run of ranks.
func TestTreeOrder(t *testing.T) {
	testkit.NotUnderRace(t, "reads all 89,814 positions of the shipped book")
	b := shippedBook(t)
	rank := b.treeOrder(8)
	if len(rank) != b.Len() {
		t.Fatalf("%d positions ranked, the book has %d", len(rank), b.Len())
	}
	seen := map[int]bool{}
	last := map[int]int{} // the highest rank of each ply
	b.Each(func(fen string, ply int, e Entry) {
		k, ok := rank[fen]
		if !ok || seen[k] {
			t.Fatalf("%s: rank %d (ranked %t, taken before %t)", fen, k, ok, seen[k])
		}
		seen[k] = true
		last[ply] = max(last[ply], k)
	})
	b.Each(func(fen string, ply int, e Entry) {
		if ply > 0 && rank[fen] <= last[ply-1] {
			t.Fatalf("%s (ply %d) ranked %d, before the end of ply %d (%d)", fen, ply, rank[fen], ply-1, last[ply-1])
		}
	})
	// The children of 1. d6 (the book's first action) that are in the book
	// as the engine's (White's) turn: the positions after d6 and any reply.
	r := &b.Rules
	p := position.New(r)
	d6, err := position.ParseMove("d6")
	if err != nil {
		t.Fatal(err)
	}
	p.Do(r, d6)
	var ml movegen.MoveList
	movegen.Generate(r, &p, &ml)
	var ranks []int
	for _, m := range ml.Slice() {
		q := p
		q.Do(r, m)
		_, c := Canonical(&q)
		if k, ok := key(&c); ok {
			if fen, ok := b.fenOf(k); ok {
				ranks = append(ranks, rank[fen])
			}
		}
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	if len(ranks) < 2 || ranks[len(ranks)-1]-ranks[0] != len(ranks)-1 {
		t.Errorf("the replies to d6 are ranked %v, not one run", ranks)
	}
}
