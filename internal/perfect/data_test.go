package perfect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// The tests below read Malom's files from MALOM_DIR (e.g. /work/malom-data,
// Sanmill's few shipped sectors) and are skipped without them.

// openData opens the database of r in MALOM_DIR, skipping the test when it
// is not there.
func openData(t *testing.T, r *rules.Rules) *DB {
	t.Helper()
	dir := os.Getenv("MALOM_DIR")
	if dir == "" {
		t.Skip("MALOM_DIR not set")
	}
	v, err := VariantOf(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, v.SecvalName())); err != nil {
		t.Skipf("no %s in %s", v.SecvalName(), dir)
	}
	db, err := Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// ranking formats a ranking: "d6* win 3 …", Best marked.
func ranking(acts []Action) string {
	var b strings.Builder
	for i, a := range acts {
		if i > 0 {
			b.WriteByte(' ')
		}
		best := ""
		if a.Best {
			best = "*"
		}
		fmt.Fprintf(&b, "%s%s %s", a.Move, best, a.Token())
	}
	return b.String()
}

// Malom's own std_3_3_0_0, std_3_4_0_0 and std_4_3_0_0 rank roots as the
// engine's tables do (TestRankRootAsTheTables with Malom's files).
func TestDataRankRootAsTheTables(t *testing.T) {
	r := rules.Default()
	db := openData(t, &r)
	for _, id := range []malom.SectorID{{W: 3, B: 3}, {W: 3, B: 4}, {W: 4, B: 3}} {
		if !db.Has(id) {
			t.Skipf("no sector %v in %s", id, db.Dir())
		}
	}
	tb := egtbtest.Open(t, 7)
	roots := 0
	for _, id := range []malom.SectorID{{W: 3, B: 4}, {W: 4, B: 3}} {
		for g := range sampleRoots(t, id, 200) {
			sameRanking(t, tb, db, g)
			roots++
		}
	}
	t.Logf("%d roots of 3v4 and 4v3 ranked alike", roots)
}

// A Morabaraba root of mora_1_1_11_11, whose actions lead into
// mora_1_2_11_10: every action is valued, and the ranking is logged (with
// MALOM_DIR and -v: the figures of the perfect database's play).
func TestDataMorabaraba(t *testing.T) {
	r := testkit.Rules(t, "twelve-mens-morris")
	db := openData(t, &r)
	for _, id := range []malom.SectorID{{W: 1, B: 1, WF: 11, BF: 11}, {W: 1, B: 2, WF: 11, BF: 10}} {
		if !db.Has(id) {
			t.Skipf("no sector %v in %s", id, db.Dir())
		}
	}
	g := testkit.Game(t, r, "", "d6", "d2")
	e, ok := db.Lookup(&g.Rules, &g.Pos)
	if !ok {
		t.Fatal("d6 d2 is not in the database")
	}
	acts, ok := db.RankRoot(g)
	if !ok || len(acts) != 22 {
		t.Fatalf("d6 d2: %d actions ranked, %t", len(acts), ok)
	}
	if acts[0].Entry.Value != e.Value {
		t.Fatalf("the root %v, its best action %v", e.Value, acts[0].Entry.Value)
	}
	k, _ := db.Keys(&g.Rules, &g.Pos)
	t.Logf("d6 d2: %v; %s", k, ranking(acts))
	for _, a := range acts {
		t.Logf("%s: %v, Malom %v", a.Move, a.RootAction, a.Keys)
	}
}

// Malom's value of a position is the best of its actions' values as the
// engine's rules generate them (each action's position probed, a mill's
// through its best removal): Malom's games and the engine's rules agree on
// every sector whose actions' sectors are shipped — the placing phase of
// Nine Men's Morris with mills (3_3_6_6 into 3_4_6_5 and, after a removal,
// 2_4_6_5), Morabaraba's, and Lasker Morris's with its slides while placing
// (1_1_9_9 into 1_2_9_8 and into itself).
func TestDataConsistent(t *testing.T) {
	dir := os.Getenv("MALOM_DIR")
	if dir == "" {
		t.Skip("MALOM_DIR not set")
	}
	for _, c := range []struct {
		variant string
		id      malom.SectorID
		needs   []malom.SectorID
	}{
		{"nine-mens-morris", malom.SectorID{W: 1, B: 1, WF: 8, BF: 8}, []malom.SectorID{{W: 1, B: 2, WF: 8, BF: 7}}},
		{"nine-mens-morris", malom.SectorID{W: 2, B: 2, WF: 7, BF: 7}, []malom.SectorID{{W: 2, B: 3, WF: 7, BF: 6}, {W: 1, B: 3, WF: 7, BF: 6}}},
		{"nine-mens-morris", malom.SectorID{W: 3, B: 3, WF: 6, BF: 6}, []malom.SectorID{{W: 3, B: 4, WF: 6, BF: 5}, {W: 2, B: 4, WF: 6, BF: 5}}},
		{"twelve-mens-morris", malom.SectorID{W: 1, B: 1, WF: 11, BF: 11}, []malom.SectorID{{W: 1, B: 2, WF: 11, BF: 10}}},
		{"lasker-morris", malom.SectorID{W: 1, B: 1, WF: 9, BF: 9}, []malom.SectorID{{W: 1, B: 2, WF: 9, BF: 8}, {W: 1, B: 1, WF: 9, BF: 9}}},
	} {
		t.Run(c.variant+"_"+c.id.String(), func(t *testing.T) {
			r := testkit.Rules(t, c.variant)
			db := openData(t, &r)
			for _, id := range append([]malom.SectorID{c.id}, c.needs...) {
				if !db.Has(id) {
					t.Skipf("no sector %v in %s", id, dir)
				}
			}
			x, _ := malom.NewIndex(c.id.W, c.id.B)
			n, mills := 0, 0
			for slot := 0; slot < x.Len(); slot += x.Len()/3000 + 1 {
				mover, other := x.Position(slot)
				d := malom.Difference{Mover: mover, Other: other, MoverHand: c.id.WF, OtherHand: c.id.BF}
				p, err := position.ParseFEN(&r, d.FEN())
				if err != nil || p.IsOver() {
					continue
				}
				g := position.NewGame(r, p)
				root, ok := db.Lookup(&r, &g.Pos)
				if !ok {
					t.Fatalf("%s: not in the database", d.FEN())
				}
				var ml movegen.MoveList
				movegen.Generate(&r, &g.Pos, &ml)
				best, bestMove := egtb.Value(0), position.NoMove
				for _, m := range ml.Slice() {
					e, _, ok := egtb.ActionEntryWith(db, g, m)
					if !ok {
						t.Fatalf("%s: %s is not in the database: %s", d.FEN(), m, db.Why(&r, &g.Pos))
					}
					after := g.Pos
					after.Do(&r, m)
					if after.Action() == position.Remove {
						mills++
					}
					if bestMove == position.NoMove || e.Value.Better(best) {
						best, bestMove = e.Value, m
					}
				}
				if best != root.Value {
					t.Fatalf("%s: Malom %v, its best action %s %v", d.FEN(), root.Value, bestMove, best)
				}
				n++
			}
			t.Logf("%v: %d positions, each the best of its actions (%d mills closed)", c.id, n, mills)
		})
	}
}
