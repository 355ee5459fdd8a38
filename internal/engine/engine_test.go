package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/book"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/perfect/perfecttest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/testkit"
)

// fakeSearcher answers every search with its move and counts the searches.
type fakeSearcher struct {
	move     string
	searches int
	tables   *egtb.Tables
	root     egtb.Source
	last     search.Limits // of the last search
}

func (f *fakeSearcher) SetOptions(search.Options)   {}
func (f *fakeSearcher) SetHash(int) error           { return nil }
func (f *fakeSearcher) SetTables(t *egtb.Tables)    { f.tables = t }
func (f *fakeSearcher) SetRootSource(s egtb.Source) { f.root = s }
func (f *fakeSearcher) ClearHash()                  {}
func (f *fakeSearcher) NewGame()                    {}
func (f *fakeSearcher) Prepare(bool)                {}
func (f *fakeSearcher) Stop()                       {}
func (f *fakeSearcher) PonderHit()                  {}
func (f *fakeSearcher) Search(g *position.Game, lim search.Limits, _ func(search.Info)) search.Result {
	f.searches++
	f.last = lim
	m, _ := position.ParseMove(f.move)
	return search.Result{BestMove: m}
}

func newEngine(t *testing.T, bookName string) (*Engine, *fakeSearcher) {
	t.Helper()
	f := &fakeSearcher{move: "a7"}
	e := New(f, 0, zerolog.Nop())
	e.SeedBook(1)
	if err := e.SetBook(bookName); err != nil {
		t.Fatal(err)
	}
	return e, f
}

// A go that plays a move at a book position is answered by the book with
// one of the entry's actions, without a search; a go that asks for a
// search (a depth) only hears what the book holds.
func TestBookAtGo(t *testing.T) {
	e, f := newEngine(t, book.Builtin)
	g := testkit.Game(t, rules.Default(), "")
	en, ok := e.BookEntry(g)
	if !ok {
		t.Fatal("the shipped book does not hold the start position")
	}
	wantNote := "book " + BookLine(en)
	a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil)
	if !a.FromBook || f.searches != 0 || !slices.Equal(a.Notes, Notes{wantNote}) {
		t.Fatalf("movetime go: %+v after %d searches, want a book answer and the note %q", a, f.searches, wantNote)
	}
	if !slices.ContainsFunc(en.Actions, func(b book.Action) bool { return b.Move == a.Move }) {
		t.Fatalf("book answered %s, not one of the entry's actions %v", a.Move, en.Actions)
	}
	for _, lim := range []search.Limits{{Depth: 3}, {Infinite: true}, {Nodes: 100}, {Mate: 2}} {
		a := e.Play(g, lim, 1, nil)
		if a.FromBook || a.Move.String() != "a7" || !slices.Equal(a.Notes, Notes{wantNote}) {
			t.Fatalf("%+v: %+v, want a search and the note", lim, a)
		}
	}
	if a := e.Play(g, search.Limits{MoveTime: 1}, 2, nil); a.FromBook {
		t.Fatal("MultiPV 2 was answered by the book")
	}
	// A level below full strength plays as a person: no book.
	o := search.DefaultOptions()
	o.LimitStrength, o.Elo = true, 800
	e.SetOptions(o)
	if a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil); a.FromBook || f.searches == 0 || len(a.Notes) != 0 {
		t.Fatalf("UCI_Elo 800: %+v after %d searches, want a search and no book note", a, f.searches)
	}
}

// A proven value in the book is kept: the answer is a book action that
// keeps it (scored 0 for a proven draw, even where a better-scored book
// action gives it up); where no book action keeps it the search chooses
// among those that do; a go's searchmoves outside the kept actions are
// obeyed.
func TestBookKeepsProvenValue(t *testing.T) {
	r := rules.Default()
	g := testkit.Game(t, r, "")
	mv := func(toks ...string) []position.Move {
		var out []position.Move
		for _, tok := range toks {
			m, err := position.ParseMove(tok)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return out
	}
	acts := []book.Action{{Move: mv("d6")[0], Score: 46}, {Move: mv("d2")[0], Score: 11}}
	newBook := func(keep ...string) (*Engine, *fakeSearcher) {
		b := book.New(r, "nine-mens-morris")
		if err := b.Put(&g.Pos, book.Entry{Depth: 14, Actions: acts, Proof: &book.Proof{Value: 0, Keep: mv(keep...)}}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "proven.book")
		if err := b.Save(path); err != nil {
			t.Fatal(err)
		}
		return newEngine(t, path)
	}
	e, _ := newBook("a7", "d2")
	for range 5 {
		a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil)
		if !a.FromBook || a.Move.String() != "d2" || !a.Book.Proven || a.Book.Score != 0 {
			t.Fatalf("got %+v, want the book's d2, proven, score 0", a)
		}
	}
	wantNote := "book depth 14 moves d6 46 d2 11 proven draw keep a7 d2"
	if a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil); !slices.Equal(a.Notes, Notes{wantNote}) {
		t.Fatalf("notes %q, want %q", a.Notes, wantNote)
	}
	if a := e.Play(g, search.Limits{MoveTime: 1, SearchMoves: mv("d6")}, 1, nil); !a.FromBook || a.Move.String() != "d6" || a.Book.Proven {
		t.Fatalf("searchmoves d6: %+v, want the book's d6, not proven", a)
	}
	e, f := newBook("a7", "a4")
	a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil)
	if a.FromBook || f.searches != 1 || !slices.Equal(f.last.SearchMoves, mv("a7", "a4")) {
		t.Fatalf("got %+v, searched %d times with searchmoves %v, want a search among a7 a4", a, f.searches, f.last.SearchMoves)
	}
	if want := "book: no book action keeps the proven draw; the search chooses among the 2 that do"; a.Notes[len(a.Notes)-1] != want {
		t.Fatalf("notes %q, want the last %q", a.Notes, want)
	}
	// searchmoves that neither the book nor the proof holds: a plain search
	// among them.
	a = e.Play(g, search.Limits{MoveTime: 1, SearchMoves: mv("g7")}, 1, nil)
	if a.FromBook || f.searches != 2 || !slices.Equal(f.last.SearchMoves, mv("g7")) || strings.Contains(strings.Join(a.Notes, "\n"), "keeps the proven") {
		t.Fatalf("searchmoves g7: %+v, searched with %v", a, f.last.SearchMoves)
	}
}

// Without a book every go is a search, and no note is said.
func TestNoBookSearches(t *testing.T) {
	e, f := newEngine(t, "")
	g := testkit.Game(t, rules.Default(), "")
	if a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil); a.FromBook || a.Move.String() != "a7" || len(a.Notes) != 0 || f.searches != 1 {
		t.Fatalf("%+v after %d searches", a, f.searches)
	}
}

// A book file that cannot be read leaves no book in use, with an error that
// names the option; one noted at start-up is said once, at the next go. A
// damaged binary form is refused likewise, whole.
func TestBadBook(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.book")
	if err := os.WriteFile(bad, []byte("not a book\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _ := newEngine(t, "")
	badBin := filepath.Join(dir, "bad.book.bin")
	if err := os.WriteFile(badBin, []byte("millbook\x01\x00\x00\x00\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.SetBook(book.Builtin); err != nil {
		t.Fatal(err)
	}
	if err := e.SetBook(badBin); err == nil || err.Error() != "option Book: book: binary form: 16 bytes, cut within the header (24 bytes); no book is used" {
		t.Fatalf("SetBook(a cut binary form): %v", err)
	}
	if path, b := e.BookInUse(); path != "" || b != nil {
		t.Fatalf("after a bad binary book: %q %p", path, b)
	}
	err := e.SetBook(bad)
	if err == nil || err.Error() != `option Book: book: line 1: "not a book" is not a millengine opening book header; no book is used` {
		t.Fatalf("SetBook(bad): %v", err)
	}
	if path, b := e.BookInUse(); path != "" || b != nil {
		t.Fatalf("after a bad book: %q %p", path, b)
	}
	e.NoteBookError(err)
	g := testkit.Game(t, rules.Default(), "")
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); !slices.Equal(notes, Notes{"error: " + err.Error()}) {
		t.Fatalf("first go notes %q", notes)
	}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); len(notes) != 0 {
		t.Fatalf("second go notes %q", notes)
	}
}

// A tables directory that does not exist is said once, at the next go, and
// the searcher gets no tables.
func TestMissingTables(t *testing.T) {
	e, f := newEngine(t, "")
	dir := filepath.Join(t.TempDir(), "none")
	r := rules.Default()
	if err := e.SetTablesDir(dir, &r); err != nil {
		t.Fatal(err)
	}
	g := testkit.Game(t, r, "")
	want := Notes{"egtb: no tables in " + dir + " (build them with: millengine egtb build)"}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); !slices.Equal(notes, want) || f.tables != nil || e.Tables() != nil {
		t.Fatalf("notes %q, tables %p", notes, f.tables)
	}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); len(notes) != 0 {
		t.Fatalf("second go notes %q", notes)
	}
}

// Malom's database through the façade: what it holds is said once, at the
// next go, with the root's ranking from its values; the searcher gets it
// (with the tables) as the root's source; off, or under rules it did not
// solve, the searcher gets none and the reason is said.
func TestPerfectDatabase(t *testing.T) {
	dir := t.TempDir()
	ids := []malom.SectorID{{W: 0, B: 0, WF: 12, BF: 12}, {W: 0, B: 1, WF: 12, BF: 11}}
	perfecttest.Write(t, dir, malom.Morabaraba, map[malom.SectorID]int16{ids[0]: 686, ids[1]: -101, {W: 1, B: 1, WF: 11, BF: 11}: 33}, ids,
		func(id malom.SectorID, _, _ bb.Bitboard) perfecttest.Result {
			if id.B == 0 {
				return perfecttest.Win(3)
			}
			return perfecttest.Loss(2) // every placement wins in 3 plies
		})
	e, f := newEngine(t, "")
	r := testkit.Rules(t, "twelve-mens-morris")
	if err := e.SetPerfectDatabase(true, dir, &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.root.(*perfect.Root); !ok || e.Perfect() == nil {
		t.Fatalf("the searcher's root source %T", f.root)
	}
	g := testkit.Game(t, r, "")
	line := "egtb win 2 moves a1 win 2 a4 win 2 a7 win 2 b2 win 2 b4 win 2 b6 win 2 c3 win 2 c4 win 2 c5 win 2 d1 win 2 d2 win 2 d3 win 2 d5 win 2 d6 win 2 d7 win 2 e3 win 2 e4 win 2 e5 win 2 f2 win 2 f4 win 2 f6 win 2 g1 win 2 g4 win 2 g7 win 2"
	want := Notes{"perfect database: 2 sectors of mora in " + dir, line}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); !slices.Equal(notes, want) {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); !slices.Equal(notes, want[1:]) {
		t.Fatalf("second go notes %q", notes)
	}
	// The same options again (a GUI sends them at every new game): nothing
	// changes, nothing is said again.
	db := e.Perfect()
	if err := e.SetPerfectDatabase(true, dir, &r); err != nil || e.Perfect() != db {
		t.Fatalf("the same options again: %v, %p, was %p", err, e.Perfect(), db)
	}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); !slices.Equal(notes, want[1:]) {
		t.Fatalf("after the same options: notes %q", notes)
	}
	// New rules: reopened, for them: not solved.
	mr := testkit.Rules(t, "morabaraba")
	if err := e.ReopenTables(&mr); err != nil {
		t.Fatal(err)
	}
	want = Notes{"perfect database: not used: rules not solved by Malom's databases: MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)"}
	if notes, _, _ := e.AtGo(testkit.Game(t, mr, ""), &search.Limits{Depth: 1}, 1); !slices.Equal(notes, want) || f.root != nil || e.Perfect() != nil {
		t.Fatalf("notes %q, root source %v", notes, f.root)
	}
	// Off: silent, no source.
	if err := e.SetPerfectDatabase(false, dir, &r); err != nil {
		t.Fatal(err)
	}
	if notes, _, _ := e.AtGo(g, &search.Limits{Depth: 1}, 1); len(notes) != 0 || f.root != nil {
		t.Fatalf("off: notes %q, root source %v", notes, f.root)
	}
	if use, d := e.PerfectDatabase(); use || d != dir {
		t.Fatalf("PerfectDatabase() = %t, %q", use, d)
	}
}

// A book position that Malom's database ranks is played from Malom's
// values, not from the book: the book's line is said, the searcher
// decides (here a drawn root: the searcher chooses among the draws).
func TestPerfectDatabaseBeforeTheBook(t *testing.T) {
	dir := t.TempDir()
	ids := []malom.SectorID{{W: 0, B: 0, WF: 9, BF: 9}, {W: 0, B: 1, WF: 9, BF: 8}}
	perfecttest.Write(t, dir, malom.Standard, map[malom.SectorID]int16{ids[0]: 21, ids[1]: -18, {W: 1, B: 1, WF: 8, BF: 8}: 5}, ids,
		func(malom.SectorID, bb.Bitboard, bb.Bitboard) perfecttest.Result { return perfecttest.Draw })
	e, f := newEngine(t, book.Builtin)
	r := rules.Default()
	g := testkit.Game(t, r, "")
	if a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil); !a.FromBook {
		t.Fatalf("without the database: %+v", a)
	}
	if err := e.SetPerfectDatabase(true, dir, &r); err != nil {
		t.Fatal(err)
	}
	en, _ := e.BookEntry(g)
	a := e.Play(g, search.Limits{MoveTime: 1}, 1, nil)
	want := Notes{"perfect database: 2 sectors of std in " + dir,
		"egtb draw moves a1 draw a4 draw a7 draw b2 draw b4 draw b6 draw c3 draw c4 draw c5 draw d1 draw d2 draw d3 draw d5 draw d6 draw d7 draw e3 draw e4 draw e5 draw f2 draw f4 draw f6 draw g1 draw g4 draw g7 draw",
		"book " + BookLine(en)}
	if a.FromBook || f.searches != 1 || !slices.Equal(a.Notes, want) {
		t.Fatalf("with the database: %+v after %d searches, want a search and the notes %q", a, f.searches, want)
	}
}
