package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// TestEvalCacheAgrees plays random games of every preset through one cache
// and checks, at every position:
//   - the cache's score, asked twice, is eval.EvaluateWith's, and the second
//     look is answered by the slot the first one filled (a planted value
//     comes back);
//   - with the slot of an earlier position of the game planted at this
//     position's index (a key collision made on purpose), the cache still
//     answers this position's own score;
//   - positions with equal signatures (the same position reached again at
//     another ply or N-move count, or after other mill origins) evaluate the
//     same: the signature holds everything the evaluation reads.
//
// The cache is cleared between presets as a search start clears it: the
// same position scores differently under other rules.
func TestEvalCacheAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	c := new(Cache)
	n, hits, repeats := 0, 0, 0
	for _, pr := range rules.Presets {
		r := pr.Rules
		c.Clear()
		seen := map[[2]uint64]int{}
		var earlier []evalSlot // the slots of the game's earlier positions
		for ply, p := range testkit.RandomGames(&r, rng, 8, 150) {
			if ply == 0 {
				earlier = earlier[:0]
			}
			want := EvaluateWith(&DefaultParams, &r, &p)
			board, rest := signature(&p)
			if v, dup := seen[[2]uint64{board, rest}]; dup {
				repeats++
				if v != want {
					t.Fatalf("%s %s: scores %d, and %d for a position of the same signature", pr.Key, p.FEN(), want, v)
				}
			}
			seen[[2]uint64{board, rest}] = want
			s := &c.slots[p.Key()&cacheMask]
			if len(earlier) > 0 {
				*s = earlier[rng.IntN(len(earlier))]
			}
			if got := c.Evaluate(&DefaultParams, &r, &p); got != want {
				t.Fatalf("%s %s: cached %d, evaluation %d", pr.Key, p.FEN(), got, want)
			}
			if s.board != board || s.rest&(1<<48-1) != rest {
				t.Fatalf("%s %s: the slot holds %#x %#x, want %#x %#x", pr.Key, p.FEN(), s.board, s.rest, board, rest)
			}
			earlier = append(earlier, *s)
			planted := *s
			s.rest = s.rest&(1<<48-1) | uint64(uint16(12345))<<48
			if got := c.Evaluate(&DefaultParams, &r, &p); got != 12345 {
				t.Fatalf("%s %s: second look %d, want the planted 12345", pr.Key, p.FEN(), got)
			}
			hits++
			*s = planted
			n++
		}
	}
	if n < 3000 || repeats < 50 {
		t.Fatalf("only %d positions, %d repeated", n, repeats)
	}
	t.Logf("%d positions (%d repeated), %d second looks", n, repeats, hits)
}

// TestEvalCacheTellsApart: two positions with the same pieces that differ in
// one thing the evaluation reads (the side to move, a hand, a pending
// removal, a marked point) score differently, and each, looked up in the
// other's filled slot (a key collision made on purpose), gets its own score.
func TestEvalCacheTellsApart(t *testing.T) {
	const placing = "O*@*O***/@***@O**/*O**@O*@ w p p "
	const moving = "OOO*@***/@***@***/*@****O* b m "
	for _, c := range []struct{ what, preset, a, b string }{
		{"side to move", "nine-mens-morris",
			"@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10",
			"@*O@@OO*/O@@OO@@O/**O*O@@* b m s 9 0 9 0 0 0 0 0 0 0 0 0 10"},
		{"white's hand", "nine-mens-morris",
			placing + "5 4 5 4 0 0 0 0 0 0 0 0 7", placing + "5 3 5 4 0 0 0 0 0 0 0 0 7"},
		{"black's hand", "nine-mens-morris",
			placing + "5 4 5 4 0 0 0 0 0 0 0 0 7", placing + "5 4 5 3 0 0 0 0 0 0 0 0 7"},
		{"pending removal", "nine-mens-morris",
			moving + "s 4 0 4 0 0 0 0 0 0 0 0 0 7", moving + "r 4 0 4 0 0 1 0 0 0 0 0 0 7"},
		{"marked point", "da-san-qi",
			"O*@*O***/@***@O**/*O**@O*@ w p p 5 7 5 7 0 0 0 0 0 0 0 0 7",
			"O*@*O***/@**X@O**/*O**@O*@ w p p 5 7 5 7 0 0 0 0 0 0 0 0 7"},
	} {
		pr, ok := rules.PresetByName(c.preset)
		if !ok {
			t.Fatalf("no preset %s", c.preset)
		}
		r := pr.Rules
		var pos [2]position.Position
		var want [2]int
		for i, f := range []string{c.a, c.b} {
			p, err := position.ParseFEN(&r, f)
			if err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			pos[i], want[i] = p, EvaluateWith(&DefaultParams, &r, &p)
		}
		if pos[0].Pieces(position.White) != pos[1].Pieces(position.White) || pos[0].Pieces(position.Black) != pos[1].Pieces(position.Black) {
			t.Fatalf("%s: the two positions have other pieces", c.what)
		}
		if want[0] == want[1] {
			t.Fatalf("%s: both score %d; the test needs positions that differ", c.what, want[0])
		}
		for i := range pos {
			c2 := new(Cache)
			a, b := &pos[i], &pos[1-i]
			c2.Evaluate(&DefaultParams, &r, a)
			c2.slots[b.Key()&cacheMask] = c2.slots[a.Key()&cacheMask]
			if got := c2.Evaluate(&DefaultParams, &r, b); got != want[1-i] {
				t.Errorf("%s: %s in the slot of %s: %d, want %d", c.what, b.FEN(), a.FEN(), got, want[1-i])
			}
		}
	}
}

// TestEvalCacheOutOfRange: a score that does not fit the slot's 16 bits is
// returned but not kept, and clear empties every slot.
func TestEvalCacheOutOfRange(t *testing.T) {
	r := rules.Default()
	p := testkit.Position(t, &r, "@*O@@OO*/O@@OO*@O/**O*O@@* w m s 9 0 8 0 0 0 0 0 0 0 0 0 10")
	big := DefaultParams
	big.W[StageMoving][Piece] = 40000
	want := EvaluateWith(&big, &r, &p)
	if want <= 32767 {
		t.Fatalf("score %d fits 16 bits: the test needs a larger one", want)
	}
	c := new(Cache)
	for k := 0; k < 2; k++ {
		if got := c.Evaluate(&big, &r, &p); got != want {
			t.Fatalf("look %d: %d, want %d", k+1, got, want)
		}
	}
	if s := c.slots[p.Key()&cacheMask]; s != (evalSlot{}) {
		t.Fatalf("the slot holds %+v for an out-of-range score", s)
	}
	c.Evaluate(&DefaultParams, &r, &p)
	if c.slots[p.Key()&cacheMask] == (evalSlot{}) {
		t.Fatal("an in-range score was not kept")
	}
	c.Clear()
	for i, s := range c.slots {
		if s != (evalSlot{}) {
			t.Fatalf("slot %d holds %+v after clear", i, s)
		}
	}
	var none *Cache
	none.Clear()
	if got := none.Evaluate(&DefaultParams, &r, &p); got != EvaluateWith(&DefaultParams, &r, &p) {
		t.Fatalf("a nil cache gave %d", got)
	}
}
