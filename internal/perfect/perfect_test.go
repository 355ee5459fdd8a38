package perfect

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect/perfecttest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// The rule presets map to Malom's variants where their rules are Malom's,
// and the others are refused with the rule that differs.
func TestVariantOf(t *testing.T) {
	noMulti := testkit.Rules(t, "morabaraba")
	noMulti.MayRemoveMultiple = false
	full := testkit.Rules(t, "twelve-mens-morris")
	full.StopPlacingWhenTwoEmptySquares = true
	defender := rules.Default()
	defender.IsDefenderMoveFirst = true
	const not = "rules not solved by Malom's databases: "
	for _, c := range []struct {
		name string
		r    rules.Rules
		want string // the prefix of the variant, or the error
	}{
		{"nine-mens-morris", rules.Default(), "std"},
		{"lasker-morris", testkit.Rules(t, "lasker-morris"), "lask"},
		{"twelve-mens-morris", testkit.Rules(t, "twelve-mens-morris"), "mora"},
		{"morabaraba without MayRemoveMultiple", noMulti, "mora"},
		{"morabaraba", testkit.Rules(t, "morabaraba"), not + "MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)"},
		{"dooz", testkit.Rules(t, "dooz"), not + "MillFormationActionInPlacingPhase is not 0 (a mill while placing removes from the board)"},
		{"russian-mill", testkit.Rules(t, "russian-mill"), not + "OneTimeUseMill"},
		{"cheng-san-qi", testkit.Rules(t, "cheng-san-qi"), not + "flying is not at three pieces (Malom's games: MayFly, flyPieceCount 3)"},
		{"zhi-qi", testkit.Rules(t, "zhi-qi"), not + "StalemateAction is not 0 (a blocked side loses)"},
		{"el-filja", testkit.Rules(t, "el-filja"), not + "PiecesCount 12, HasDiagonalLines false, MayMoveInPlacingPhase false (Malom solved 9 pieces on the plain board, Lasker's 10 with MayMoveInPlacingPhase, and Morabaraba's 12 on the board with diagonals)"},
		{"twelve with StopPlacingWhenTwoEmptySquares", full, not + "StopPlacingWhenTwoEmptySquares (Malom's Morabaraba places until the board is full)"},
		{"IsDefenderMoveFirst", defender, not + "IsDefenderMoveFirst"},
	} {
		v, err := VariantOf(&c.r)
		got := v.Prefix
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrNotCovered) {
				t.Errorf("%s: %v does not wrap ErrNotCovered", c.name, err)
			}
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if solves(&c.r, malom.Standard) != (got == "std") || solves(&c.r, malom.Morabaraba) != (got == "mora") {
			t.Errorf("%s: solves disagrees with VariantOf", c.name)
		}
	}
}

// Open says why it cannot use a folder: exactly.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	r := rules.Default()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := t.TempDir()
	if err := os.WriteFile(filepath.Join(damaged, "std.secval"), []byte("virt_loss_val: -299\nvirt_win_val: 299\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	perfecttest.Write(t, empty, malom.Standard, map[malom.SectorID]int16{{W: 3, B: 3}: 0}, nil, nil)
	mora := testkit.Rules(t, "morabaraba")
	for _, c := range []struct {
		dir  string
		r    *rules.Rules
		want string
	}{
		{filepath.Join(dir, "none"), &r, "no folder " + filepath.Join(dir, "none")},
		{file, &r, file + " is not a folder"},
		{dir, &r, "no std.secval in " + dir},
		{damaged, &r, filepath.Join(damaged, "std.secval") + `: line 3: sector count "three" is not a non-negative integer`},
		{empty, &r, "no sector files of std (std_W_B_WF_BF.sec2) in " + empty},
		{empty, &mora, "rules not solved by Malom's databases: MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)"},
	} {
		db, err := Open(c.dir, c.r)
		if err == nil || err.Error() != c.want {
			t.Errorf("Open(%s): %v, %v; want %q", c.dir, db, err, c.want)
		}
		if errors.Is(err, ErrDamaged) != (c.dir == damaged) {
			t.Errorf("Open(%s): %v matches ErrDamaged: %t", c.dir, err, errors.Is(err, ErrDamaged))
		}
	}
}

// stdFromTables writes Malom's 3v3, 3v4 and 4v3 from the test tables (7
// pieces) and opens both.
func stdFromTables(t *testing.T) (*egtb.Tables, *DB, string) {
	t.Helper()
	tb := egtbtest.Open(t, 7)
	dir := t.TempDir()
	perfecttest.FromTables(t, dir, tb, malom.SectorID{W: 3, B: 3}, malom.SectorID{W: 3, B: 4}, malom.SectorID{W: 4, B: 3})
	r := rules.Default()
	db, err := Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return tb, db, dir
}

// sampleRoots yields games at positions of the moving sector id, white to move:
// about n of them, spread over its index, those where the game goes on.
func sampleRoots(t *testing.T, id malom.SectorID, n int) iter.Seq[*position.Game] {
	return func(yield func(*position.Game) bool) {
		x, err := malom.NewIndex(id.W, id.B)
		if err != nil {
			t.Fatal(err)
		}
		for slot := 0; slot < x.Len(); slot += x.Len()/n + 1 {
			mover, other := x.Position(slot)
			g := testkit.Game(t, rules.Default(), malom.Difference{Mover: mover, Other: other}.FEN())
			if !g.Pos.IsOver() && !yield(g) {
				return
			}
		}
	}
}

// Malom's values, read through DB, rank a root as the tables' own do: the
// same value of every action (Malom's key2 is the tables' distance), so the
// same root value and the same actions that keep it; and a position with a
// removal pending is valued by its best removal as the tables value it.
// The sectors are written from the tables, as Malom's 3v3, 3v4 and 4v3 are
// (TestData compares with Malom's own).
func TestRankRootAsTheTables(t *testing.T) {
	tb, db, dir := stdFromTables(t)
	if got := db.Coverage(); got != "all 3 sectors of std in "+dir {
		t.Fatalf("Coverage %q", got)
	}
	roots := 0
	for _, id := range []malom.SectorID{{W: 3, B: 4}, {W: 4, B: 3}, {W: 3, B: 3}} {
		for g := range sampleRoots(t, id, 15) {
			sameRanking(t, tb, db, g)
			roots++
			// Every mill-closing action: the position with the removal pending.
			want, _ := tb.RankRoot(g)
			for _, a := range want {
				c := g.Clone()
				c.Play(a.Move)
				if c.Pos.IsOver() || c.Pos.Action() != position.Remove {
					continue
				}
				e, ok := db.Lookup(&c.Rules, &c.Pos)
				te, _ := tb.Lookup(&c.Rules, &c.Pos)
				if !ok || e.Value != te.Value || e.DTZ != te.DTZ || !e.Perfect {
					t.Fatalf("%s after %s: Malom %+v (%t), the tables %+v", g.Pos.FEN(), a.Move, e, ok, te)
				}
				sameRanking(t, tb, db, c)
			}
		}
	}
	t.Logf("%d roots ranked alike", roots)
}

// sameRanking checks that Malom's ranking of g is the tables' (the values of
// the actions, the root's value, the actions that keep its result, and the
// Best marks of a won or drawn root; a lost root's Best may differ, as the
// tables put first the loss whose next removal is furthest away, which
// Malom does not know).
func sameRanking(t *testing.T, tb *egtb.Tables, db *DB, g *position.Game) {
	t.Helper()
	want, ok := tb.RankRoot(g)
	if !ok {
		t.Fatalf("%s: not in the tables", g.Pos.FEN())
	}
	got, ok := db.RankRoot(g)
	if !ok {
		t.Fatalf("%s: not in Malom's sectors", g.Pos.FEN())
	}
	values := func(acts []egtb.RootAction) map[position.Move]string {
		m := map[position.Move]string{}
		for _, a := range acts {
			m[a.Move] = fmt.Sprintf("%s %v", a.Entry.Value, a.Class)
		}
		return m
	}
	keep := func(acts []egtb.RootAction, best bool) []string {
		var out []string
		for _, a := range acts {
			if resultOf(a.Entry.Value) == resultOf(acts[0].Entry.Value) && (!best || a.Best) {
				out = append(out, a.Move.String())
			}
		}
		slices.Sort(out)
		return out
	}
	acts := make([]egtb.RootAction, len(got))
	for i, a := range got {
		acts[i] = a.RootAction
		c := g.Pos
		c.Do(&g.Rules, a.Move)
		// No keys where the game ends: at once, or by the best removal.
		ends := c.IsOver() || c.Action() == position.Remove && a.Entry.Value == egtb.Win(1)
		if a.HasKeys == ends || !c.IsOver() && !a.Entry.Perfect {
			t.Fatalf("%s: %s: keys %t (%v), game over %t, entry %+v", g.Pos.FEN(), a.Move, a.HasKeys, a.Keys, c.IsOver(), a.Entry)
		}
	}
	gv, wv := values(acts), values(want)
	if len(gv) != len(wv) || acts[0].Entry.Value != want[0].Entry.Value {
		t.Fatalf("%s: Malom %v, the tables %v", g.Pos.FEN(), acts[0].Entry.Value, want[0].Entry.Value)
	}
	for m, v := range wv {
		if gv[m] != v {
			t.Fatalf("%s: %s: Malom %s, the tables %s", g.Pos.FEN(), m, gv[m], v)
		}
	}
	if k, w := keep(acts, false), keep(want, false); !slices.Equal(k, w) {
		t.Fatalf("%s: Malom keeps %v, the tables %v", g.Pos.FEN(), k, w)
	}
	if !want[0].Entry.Value.IsLoss() {
		if k, w := keep(acts, true), keep(want, true); !slices.Equal(k, w) {
			t.Fatalf("%s: Malom's best %v, the tables' %v", g.Pos.FEN(), k, w)
		}
	}
}

// A probe allocates nothing once its sector is open, nor does one of Root
// where the tables and Malom agree; a position with a removal pending
// neither.
func TestLookupAllocs(t *testing.T) {
	tb, db, _ := stdFromTables(t)
	root := NewRoot(tb, db)
	for _, fen := range []string{"O*O*****/@@@*****/O******* b m s 3 0 3 0 0 0 0 0 0 0 0 0 30", "***@@@**/*****@**/OO*****O w m r 3 0 4 0 1 0 0 0 0 0 0 0 1"} {
		g := testkit.Game(t, rules.Default(), fen)
		if _, ok := db.Lookup(&g.Rules, &g.Pos); !ok {
			t.Fatalf("%s is not in the database", fen)
		}
		if n := testing.AllocsPerRun(100, func() { db.Lookup(&g.Rules, &g.Pos) }); n != 0 {
			t.Fatalf("%s: %v allocations a probe", fen, n)
		}
		if n := testing.AllocsPerRun(100, func() { root.Lookup(&g.Rules, &g.Pos) }); n != 0 || len(root.Disagreements()) != 0 {
			t.Fatalf("%s: %v allocations a probe of Root; %v", fen, n, root.Disagreements())
		}
	}
}

// A placing root of Morabaraba: the actions valued by Malom, with their
// keys; the wins first (the shortest way), then the draws, the losses.
func TestMoraPlacingRoot(t *testing.T) {
	dir := t.TempDir()
	perfecttest.Morabaraba(t, dir)
	r := testkit.Rules(t, "twelve-mens-morris")
	db, err := Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.Coverage(); got != "2 sectors of mora in "+dir {
		t.Fatalf("Coverage %q", got)
	}
	g := testkit.Game(t, r, "")
	e, ok := db.Lookup(&g.Rules, &g.Pos)
	if want := (egtb.Entry{Value: egtb.Win(6), DTZ: egtb.Win(1), Exact: true, Perfect: true}); !ok || e != want {
		t.Fatalf("the start: %+v, %t; want %+v", e, ok, want)
	}
	acts, ok := db.RankRoot(g)
	if !ok {
		t.Fatal("the start is not ranked")
	}
	var line []string
	for _, a := range acts {
		best := ""
		if a.Best {
			best = "*"
		}
		line = append(line, fmt.Sprintf("%s%s %s", a.Move, best, a.Token()))
	}
	want := "b4* win 6 d2* win 6 d6* win 6 f4* win 6 a4 draw b2 draw b6 draw c4 draw d1 draw d3 draw d5 draw d7 draw e4 draw f2 draw f6 draw g4 draw " +
		"a1 loss 10 a7 loss 10 c3 loss 10 c5 loss 10 e3 loss 10 e5 loss 10 g1 loss 10 g7 loss 10"
	if got := strings.Join(line, " "); got != want {
		t.Fatalf("ranking\n got %s\nwant %s", got, want)
	}
	// The keys of the position each action leads to, as the file holds them.
	k := acts[0].Keys
	if wantK := (Keys{Sector: perfecttest.MoraOne, SectorValue: -101, Eval: malom.Eval{Raw: malom.Raw{Key1: -704 + 101, Key2: 10}, Abs: -704, WDL: malom.Loss, Slot: k.Eval.Slot},
		Removal: position.NoMove}); !acts[0].HasKeys || k != wantK {
		t.Fatalf("keys of b4: %+v, want %+v", k, wantK)
	}
	if got := k.String(); got != "sector 0_1_12_11 (value -101): loss in 10 plies (key1 -603, key2 10)" {
		t.Fatalf("keys %q", got)
	}
	if k := acts[4].Keys; k.Eval.WDL != malom.Draw || k.Eval.Abs != -101 || k.Eval.Raw != (malom.Raw{}) {
		t.Fatalf("keys of a draw: %+v", k)
	}
	// After the first placement the opponent's actions lead to 1_1_11_11,
	// which is not there: unknown.
	g.Play(acts[0].Move)
	if _, ok := db.RankRoot(g); ok {
		t.Fatal("ranked a root whose actions are not in the database")
	}
	if _, ok := db.Lookup(&g.Rules, &g.Pos); !ok {
		t.Fatal("the position after b4 is in the database")
	}
	// Under other rules (the morabaraba preset's two removals) it knows
	// nothing.
	mr := testkit.Rules(t, "morabaraba")
	mg := testkit.Game(t, mr, "")
	if _, ok := db.Lookup(&mg.Rules, &mg.Pos); ok {
		t.Fatal("a probe under other rules")
	}
}

// A damaged sector file is left out, said once with its name, and its
// positions are unknown; the other sectors are used.
func TestDamagedSector(t *testing.T) {
	dir := t.TempDir()
	perfecttest.Morabaraba(t, dir)
	path := perfecttest.DamageSector(t, dir, malom.Morabaraba, perfecttest.MoraOne)
	r := testkit.Rules(t, "twelve-mens-morris")
	db, err := Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := testkit.Game(t, r, "")
	if _, ok := db.Lookup(&g.Rules, &g.Pos); !ok {
		t.Fatal("the start's sector is not damaged")
	}
	if _, ok := db.RankRoot(g); ok {
		t.Fatal("ranked with a damaged sector")
	}
	want := path + ": truncated: 138 bytes, want at least 140 for 24 entries of 3 bytes and the escape count; this sector is not used"
	if d := db.Damaged(); len(d) != 1 || d[0].Error() != want {
		t.Fatalf("Damaged %v, want %q", d, want)
	}
	db.RankRoot(g)
	if d := db.Damaged(); len(d) != 1 || db.Has(perfecttest.MoraOne) || !db.Has(perfecttest.MoraStart) {
		t.Fatalf("after a second ranking: Damaged %v, Has %t %t", d, db.Has(perfecttest.MoraOne), db.Has(perfecttest.MoraStart))
	}
}

// Root joins the tables and Malom's database: where they disagree the
// disagreement is kept and, in the moving phase, the tables' value used.
func TestRootDisagreement(t *testing.T) {
	tb := egtbtest.Open(t, 7)
	dir := t.TempDir()
	// 3v3 from the tables, one position turned from a draw into a loss.
	var flipped string
	perfecttest.Write(t, dir, malom.Standard, map[malom.SectorID]int16{{W: 3, B: 3}: 0}, []malom.SectorID{{W: 3, B: 3}},
		func(_ malom.SectorID, mover, other bb.Bitboard) perfecttest.Result {
			v, _ := tb.ProbeSets(mover, other)
			switch {
			case v.IsWin():
				return perfecttest.Win(int32(v.Plies()))
			case v.IsLoss():
				return perfecttest.Loss(int32(v.Plies()))
			}
			fen := malom.Difference{Mover: mover, Other: other}.FEN()
			if flipped == "" || fen == flipped {
				flipped = fen
				return perfecttest.Loss(4)
			}
			return perfecttest.Draw
		})
	r := rules.Default()
	db, err := Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := NewRoot(tb, db)
	g := testkit.Game(t, r, flipped)
	e, ok := root.Lookup(&g.Rules, &g.Pos)
	te, _ := tb.Lookup(&g.Rules, &g.Pos)
	if !ok || e != te || e.Perfect {
		t.Fatalf("%s: %+v, want the tables' %+v", flipped, e, te)
	}
	root.Lookup(&g.Rules, &g.Pos)
	want := "Malom and the tables disagree at " + g.Pos.FEN() + ": Malom loss 2, the tables draw; the tables' value is used"
	if d := root.Disagreements(); len(d) != 1 || d[0].String() != want {
		t.Fatalf("disagreements %v, want %q", d, want)
	}
	// Where they agree, no disagreement, and the tables' entry.
	g = testkit.Game(t, r, "O*O*****/@@@*****/O******* b m s 3 0 3 0 0 0 0 0 0 0 0 0 30")
	e, _ = root.Lookup(&g.Rules, &g.Pos)
	if te, _ := tb.Lookup(&g.Rules, &g.Pos); e != te || len(root.Disagreements()) != 1 {
		t.Fatalf("%+v, want %+v; %v", e, te, root.Disagreements())
	}
}
