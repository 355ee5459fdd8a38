package movepick

import (
	"math/rand/v2"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// Init generates and prepares in one call.
func (pk *Picker) Init(r *rules.Rules, p *position.Position, ttMove position.Move, killers [2]position.Move, hist *History) {
	pk.Generate(r, p)
	pk.Prepare(ttMove, killers, hist)
}

// TestYieldsEveryMoveOnce: over random positions of every preset, the picker
// returns exactly the legal moves, each once, the table move first.
func TestYieldsEveryMoveOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var hist History
	for _, pr := range rules.Presets {
		r := pr.Rules
		for _, p := range testkit.RandomGames(&r, rng, 1, 150) {
			var ml movegen.MoveList
			movegen.Generate(&r, &p, &ml)
			tt := ml.Moves[rng.IntN(ml.N)]
			var pk Picker
			pk.Init(&r, &p, tt, [2]position.Move{ml.Moves[0], position.MakePlace(3)}, &hist)
			seen := map[position.Move]int{}
			first := true
			for {
				m, ok := pk.Next()
				if !ok {
					break
				}
				if first && m != tt {
					t.Fatalf("%s: first move %v, table move %v", pr.Key, m, tt)
				}
				first = false
				seen[m]++
			}
			if len(seen) != ml.N {
				t.Fatalf("%s %s: %d distinct moves, %d legal", pr.Key, p.FEN(), len(seen), ml.N)
			}
			for m, n := range seen {
				if n != 1 || !ml.Contains(m) {
					t.Fatalf("%s: move %v returned %d times (legal %v)", pr.Key, m, n, ml.Contains(m))
				}
			}
			hist.Update(p.SideToMove(), ml.Moves[0], 100)
		}
	}
}

// TestForeignTableMoveIgnored: a table move that is not legal here (a key
// collision) is not returned.
func TestForeignTableMoveIgnored(t *testing.T) {
	r := rules.Default()
	p := position.New(&r)
	var pk Picker
	pk.Init(&r, &p, position.MakeRemove(3), [2]position.Move{}, nil)
	n := 0
	for {
		m, ok := pk.Next()
		if !ok {
			break
		}
		if m.Kind() != position.KindPlace {
			t.Fatalf("returned %v", m)
		}
		n++
	}
	if n != 24 {
		t.Fatalf("%d moves", n)
	}
}

func order(t *testing.T, r *rules.Rules, p *position.Position) []string {
	var pk Picker
	pk.Init(r, p, position.NoMove, [2]position.Move{}, nil)
	var out []string
	for {
		m, ok := pk.Next()
		if !ok {
			return out
		}
		out = append(out, m.String())
	}
}

// TestMillKnowledge: closing our mill comes first, then stopping theirs.
func TestMillKnowledge(t *testing.T) {
	r := rules.Default()
	// White (to move) has a7 d7 (g7 closes a mill) and d2; black has b6 b2
	// (b4 closes theirs).
	p := testkit.Position(t, &r, "********/****O@*@/O******O w p p 3 6 2 7 0 0 0 0 0 0 0 0 3")
	got := order(t, &r, &p)
	if got[0] != "g7" {
		t.Fatalf("first %v, want the mill g7 (order %v)", got[0], got)
	}
	if got[1] != "b4" {
		t.Fatalf("second %v, want b4 which stops black's b6-b4-b2 (order %v)", got[1], got)
	}
}

// TestRemovalOrder: breaking an opponent's open two comes before removing an
// isolated piece.
func TestRemovalOrder(t *testing.T) {
	r := rules.Default()
	// White to remove; black has b6 b2 (open two on b4) and a lone c3.
	p := testkit.Position(t, &r, "*****@**/*****@*@/OOO***** w p r 3 6 3 6 1 0 0 0 0 0 0 0 4")
	got := order(t, &r, &p)
	if got[0] != "xb6" && got[0] != "xb2" {
		t.Fatalf("removal order %v: want b6 or b2 first", got)
	}
	if got[len(got)-1] != "xc3" {
		t.Fatalf("removal order %v: want the lone c3 last", got)
	}
}

func TestHistory(t *testing.T) {
	var h History
	m := position.MakePlace(5)
	for i := 0; i < 100; i++ {
		h.Update(position.White, m, 1<<20)
	}
	if v := h.Get(position.White, m); v <= 0 || v > historyMax {
		t.Fatalf("history %d out of (0, %d]", v, historyMax)
	}
	if h.Get(position.Black, m) != 0 {
		t.Fatal("history leaked to the other side")
	}
	h.Clear()
	if h.Get(position.White, m) != 0 {
		t.Fatal("Clear left a value")
	}
}

func BenchmarkPicker(b *testing.B) {
	r := rules.Default()
	p, _ := position.ParseFEN(&r, "O*@*O**@/@*@O@O@O/*O**@OO@ w m s 8 0 8 0 0 0 0 0 0 0 0 10 17")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var pk Picker
		pk.Init(&r, &p, position.NoMove, [2]position.Move{}, nil)
		for {
			if _, ok := pk.Next(); !ok {
				break
			}
		}
	}
}
