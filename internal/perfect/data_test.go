package perfect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/malom"
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
		x, _ := malom.NewIndex(id.W, id.B)
		for slot := 0; slot < x.Len(); slot += x.Len()/200 + 1 {
			mover, other := x.Position(slot)
			g := gameOf(t, mover, other)
			if g.Pos.IsOver() {
				continue
			}
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
