// Package engine is the player between a front end and the search, as
// Stockfish's engine.h is: a searcher with the opening book and the endgame
// tables, and the policy of a go — what the tables and the book say of the
// root, and when the book answers instead of a search. The UCI protocol
// drives it, and so do the in-process tools (the tuner, the book builder,
// the board's review, annotate), so that they play exactly as the engine
// plays over UCI.
package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/book"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/solve"
)

// Searcher is what searches: *search.Engine, or a test's fake. Only Stop
// and PonderHit are called while Search runs; every other method is called
// between searches.
type Searcher interface {
	SetOptions(o search.Options)
	SetHash(mb int) error
	SetTables(t *egtb.Tables)
	// SetRootSource gives the source that values the root in place of the
	// tables (Malom's databases with the tables), nil for the tables.
	SetRootSource(s egtb.Source)
	ClearHash()
	NewGame()
	Prepare(ponder bool)
	Search(g *position.Game, lim search.Limits, report func(search.Info)) search.Result
	Stop()
	PonderHit()
}

// MaxBookVariety bounds BookVariety (centipawns).
const MaxBookVariety = 100

// DefaultBookVariety is the start-up margin: small enough that every choice
// is as good as the best within the book's accuracy, wide enough that games
// differ.
const DefaultBookVariety = 10

// DefaultPerfectPath is PerfectDatabasePath at start-up, as in Sanmill:
// the working directory.
const DefaultPerfectPath = "."

// Engine is a searcher with its book and tables. It is not safe for
// concurrent use, except for the searcher's Stop and PonderHit.
type Engine struct {
	Searcher
	log zerolog.Logger

	tablesDir   string       // where the tables are read from; "" for none
	tables      *egtb.Tables // opened for the current rules, or nil
	tablesNote  string       // why the tables are not used, said once at the next go
	tablesNoted bool
	damageSaid  int  // the tables' damaged files said so far
	limited     bool // the search plays at a level below full strength: no book

	perfectUse        bool          // UsePerfectDatabase
	perfectDir        string        // PerfectDatabasePath
	perfect           *perfect.DB   // Malom's database, opened for the current rules, or nil
	perfectRoot       *perfect.Root // it with the tables: the searcher's root source, or nil
	perfectNote       string        // what it holds, or why it is not used: said once at the next go
	perfectNoted      bool
	perfectDamageSaid int // its damaged files said so far
	disagreementsSaid int // the disagreements with the tables said so far

	bookPath    string     // book.Builtin, a file, or "" for none
	book        *book.Book // the opening book in use, or nil
	bookVariety int        // centipawns below the best a book action may be
	bookRng     *rand.Rand // the book's choices
	bookNote    string     // why the book is not used, said once at the next go
}

// New returns an engine around s (nil: a search.Engine with hashMB of
// table) with no book and no tables. Its book choices are seeded from the
// clock, so games differ; SeedBook fixes them.
func New(s Searcher, hashMB int, log zerolog.Logger) *Engine {
	if s == nil {
		s = search.New(hashMB)
	}
	return &Engine{
		Searcher:    s,
		log:         log,
		bookVariety: DefaultBookVariety,
		perfectDir:  DefaultPerfectPath,
		bookRng:     rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x626f6f6b)),
	}
}

// The endgame tables are opened for the current rules: when the directory
// is set, and again when the rules change. They are read-only and shared
// with the search. A damaged file is left out and said once, at the next go
// after it was found (at open, or at its first use); the others are used.
// Rules the tables do not cover are said once, at the next go, and the
// tables are not probed under them.

// SetTablesDir reads the tables of dir ("": none) for r and hands them to
// the searcher.
func (e *Engine) SetTablesDir(dir string, r *rules.Rules) error {
	e.UseTables(OpenedTables{}) // the old tables are released first
	return e.UseTables(OpenTables(dir, r, e.log))
}

// ReopenTables opens the tables of the current directory for r, as after a
// change of rules, and Malom's database when it is in use (its variant
// follows the rules); without a directory it does nothing.
func (e *Engine) ReopenTables(r *rules.Rules) error {
	if e.perfectUse {
		e.openPerfect(r)
	}
	return e.SetTablesDir(e.tablesDir, r)
}

// OpenedTables are the endgame tables of a directory opened for some rules
// by OpenTables, to be taken into use by UseTables. Opening reads the
// tables' headers only, but a directory of hundreds of files still takes a
// moment, so the protocol loop opens them on another goroutine at start-up
// and answers uci meanwhile; UseTables then runs on the loop.
type OpenedTables struct {
	dir    string
	tables *egtb.Tables // nil: none
	note   string       // why they are not used, or what is missing: said at the next go
	err    error        // a damaged file: no tables
}

// OpenTables opens the tables of dir ("": none) for r. It touches no
// engine: it may run on any goroutine.
func OpenTables(dir string, r *rules.Rules, log zerolog.Logger) OpenedTables {
	o := OpenedTables{dir: strings.TrimSpace(dir)}
	if o.dir == "" {
		return o
	}
	if _, err := os.Stat(o.dir); errors.Is(err, os.ErrNotExist) {
		o.note = fmt.Sprintf("egtb: no tables in %s (build them with: millengine egtb build)", o.dir)
		log.Info().Str("dir", o.dir).Msg("no endgame tables")
		return o
	}
	if _, err := egtb.ParamsOf(r); err != nil {
		o.note = fmt.Sprintf("egtb: the tables are not used under these rules (%v)", err)
		return o
	}
	t, err := egtb.Open(o.dir, r)
	if err != nil {
		log.Error().Err(err).Msg("endgame tables not used")
		o.err = fmt.Errorf("EGTBPath: %w; the tables are not used", err)
		return o
	}
	o.tables = t
	if !t.Covers(r) {
		o.note = fmt.Sprintf("egtb: %s holds no tables for these rules (%s)", o.dir, t.Params().Name())
	}
	log.Info().Str("dir", o.dir).Int("sectors", len(t.Sectors())).Msg("endgame tables opened")
	return o
}

// Close releases tables that are not taken into use.
func (o OpenedTables) Close() {
	if o.tables != nil {
		o.tables.Close()
	}
}

// UseTables takes tables opened by OpenTables into use in place of the
// current ones (which it closes) and hands them to the searcher; it returns
// the error that left none open, if any.
func (e *Engine) UseTables(o OpenedTables) error {
	if e.tables != nil {
		e.tables.Close()
	}
	e.tablesDir, e.tables, e.tablesNote, e.tablesNoted, e.damageSaid = o.dir, o.tables, o.note, false, 0
	e.Searcher.SetTables(e.tables)
	e.setRootSource()
	return o.err
}

// NoteTablesError keeps err (tables that could not be opened at start-up or
// after a change of rules, when nobody asked) to be said at the next go.
func (e *Engine) NoteTablesError(err error) {
	e.tablesNote, e.tablesNoted = "error: "+err.Error(), false
}

// TablesDir is the directory the tables are read from, "" for none.
func (e *Engine) TablesDir() string { return e.tablesDir }

// Tables are the open tables, or nil.
func (e *Engine) Tables() *egtb.Tables { return e.tables }

// Close releases the tables and Malom's database.
func (e *Engine) Close() {
	e.closePerfect()
	if e.tables != nil {
		e.tables.Close()
		e.tables = nil
		e.Searcher.SetTables(nil)
	}
	e.setRootSource()
}

// Malom's databases (Sanmill's perfect database) are used when
// UsePerfectDatabase is on and PerfectDatabasePath names a folder with the
// files of the variant of the rules (internal/perfect): the root is then
// ranked from their values and the tables' together (perfect.Root), by the
// tables' policy, in go's notes as in the searcher. The folder is opened
// when either option is set and when the rules change; what it holds, or
// why it is not used (no folder, no .secval file, rules Malom did not
// solve), is said once, at the next go; so are sector files found damaged
// at their first use, and positions on which Malom and the tables disagree.

// SetPerfectDatabase sets UsePerfectDatabase (use) and PerfectDatabasePath
// (dir; "" none) and opens the database for r when use is on. A dir that
// exists but is not a folder is refused with an error, and nothing changes.
func (e *Engine) SetPerfectDatabase(use bool, dir string, r *rules.Rules) error {
	dir = strings.TrimSpace(dir)
	if st, err := os.Stat(dir); dir != "" && err == nil && !st.IsDir() {
		return fmt.Errorf("PerfectDatabasePath: %s is not a folder (Malom's .secval and .sec2 files are read from a folder)", dir)
	}
	if use == e.perfectUse && dir == e.perfectDir && e.perfect != nil {
		return nil // the same database, open: a GUI that sends its options again changes nothing
	}
	e.perfectUse, e.perfectDir = use, dir
	e.openPerfect(r)
	return nil
}

// PerfectDatabase returns UsePerfectDatabase and PerfectDatabasePath.
func (e *Engine) PerfectDatabase() (use bool, dir string) { return e.perfectUse, e.perfectDir }

// Perfect returns Malom's database in use, or nil.
func (e *Engine) Perfect() *perfect.DB { return e.perfect }

// openPerfect (re)opens Malom's database of the settings for r, noting
// what it holds or why it is not used, and hands the root source to the
// searcher.
func (e *Engine) openPerfect(r *rules.Rules) {
	e.closePerfect()
	e.perfectNote, e.perfectNoted = "", false
	switch {
	case !e.perfectUse:
	case e.perfectDir == "":
		e.perfectNote = "perfect database: not used: PerfectDatabasePath is empty"
	default:
		db, err := perfect.Open(e.perfectDir, r)
		switch {
		case errors.Is(err, perfect.ErrDamaged):
			e.perfectNote = "error: perfect database: not used: " + err.Error()
		case err != nil:
			e.perfectNote = "perfect database: not used: " + err.Error()
		default:
			e.perfect = db
			e.perfectNote = "perfect database: " + db.Coverage()
			e.log.Info().Str("dir", e.perfectDir).Str("variant", db.Variant().Prefix).Msg("perfect database opened")
		}
		if err != nil {
			e.log.Info().Err(err).Msg("perfect database not used")
		}
	}
	e.setRootSource()
}

// closePerfect releases Malom's database.
func (e *Engine) closePerfect() {
	if e.perfect != nil {
		e.perfect.Close()
	}
	e.perfect, e.perfectRoot, e.perfectDamageSaid = nil, nil, 0
}

// setRootSource hands the searcher the root's source: Malom's database
// with the tables when it is open, else none (the searcher's tables).
func (e *Engine) setRootSource() {
	e.perfectRoot, e.disagreementsSaid = nil, 0
	if e.perfect == nil {
		e.Searcher.SetRootSource(nil)
		return
	}
	e.perfectRoot = perfect.NewRoot(e.tables, e.perfect)
	e.Searcher.SetRootSource(e.perfectRoot)
}

// The opening book: at a go that plays a move (a clock, a move time or the
// default move time; not infinite, ponder, depth, nodes, mate or MultiPV
// above 1, which ask for a search), a position the book holds is answered
// at once with one of its actions within BookVariety centipawns of the
// best. Every go in a book position, analysis included, first says what the
// book holds.

// SetBook uses the book named by value: book.Builtin for the shipped one,
// "" for none, otherwise a file. A file that cannot be read leaves no book
// in use.
func (e *Engine) SetBook(value string) error {
	path := strings.TrimSpace(value)
	e.bookPath, e.book, e.bookNote = path, nil, ""
	if path == "" {
		return nil
	}
	// The shipped book is read in place from the binary, at once; a file
	// is read whole, text or binary form.
	open := book.Open
	if path == book.Builtin {
		open = func(string) (*book.Book, error) { return book.Default() }
	}
	b, err := open(path)
	if err != nil {
		err = fmt.Errorf("option Book: %w; no book is used", err)
		e.bookPath = ""
		return err
	}
	e.book = b
	e.log.Info().Str("book", path).Int("positions", b.Len()).Msg("opening book loaded")
	return nil
}

// NoteBookError keeps err (a book that could not be read at start-up) to be
// said at the next go.
func (e *Engine) NoteBookError(err error) { e.bookNote = err.Error() }

// SetBookVariety sets how many centipawns below the best a book action may
// be (0..MaxBookVariety).
func (e *Engine) SetBookVariety(cp int) { e.bookVariety = cp }

// SeedBook makes the book's choices repeatable.
func (e *Engine) SeedBook(seed uint64) { e.bookRng = rand.New(rand.NewPCG(seed, 0x626f6f6b)) }

// BookInUse returns the book's name (book.Builtin, a file or "") and the
// book in use (nil for none).
func (e *Engine) BookInUse() (string, *book.Book) { return e.bookPath, e.book }

// BookEntry returns the book's entry for g's position, if any.
func (e *Engine) BookEntry(g *position.Game) (book.Entry, bool) {
	if e.book == nil {
		return book.Entry{}, false
	}
	return e.book.Probe(&g.Rules, &g.Pos)
}

// BookLine formats an entry's actions: "depth 12 moves d6 61 d5 48", and
// its proof where it has one: "… proven draw keep d6 d5 …".
func BookLine(en book.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "depth %d moves", en.Depth)
	for _, a := range en.Actions {
		fmt.Fprintf(&b, " %s %d", a.Move, a.Score)
	}
	if en.Proof != nil {
		b.WriteString(" " + en.Proof.String())
	}
	return b.String()
}

// SetOptions hands the search options to the searcher and notes whether
// they limit the strength: a level plays without the book, as a person
// does.
func (e *Engine) SetOptions(o search.Options) {
	e.limited = o.Limited()
	e.Searcher.SetOptions(o)
}

// PlaysFromBook reports whether a go with lim (and multiPV lines) asks for
// a move to play, which the book may answer, rather than for a search to
// look at.
func PlaysFromBook(lim *search.Limits, multiPV int) bool {
	return !lim.Infinite && !lim.Ponder && lim.Depth == 0 && lim.Nodes == 0 && lim.Mate == 0 && multiPV <= 1
}

// BookAnswer is a go answered by the book.
type BookAnswer struct {
	Move   position.Move
	Score  int // centipawns, from the side to move's view, or a mate score; a proven draw 0
	Depth  int // the depth of the book's analysis
	Proven bool
	Value  solve.Value // the position's proven value, when Proven (Move keeps it)
}

// Notes are what the engine says of a root before it answers a go: what
// the tables and the book hold of it, and why either is not used.
type Notes []string

// AtGo is the policy of a go at g with lim: the notes a front end shows
// (each one "info string" line in UCI: the root's value and each action's
// by the tables' policy, egtb.RankRootWith, from the tables or from Malom's
// database with them, "egtb <V> moves <token> <V> …"; the book's actions,
// "book depth <D> moves <token> <score> …"; once, what the tables and
// Malom's database hold or why they or the book are not used), and the
// book's answer when the go plays a move and the book holds the position.
//
// A root that Malom's database (UsePerfectDatabase) ranks is played from its
// values, not from the book: the book's line is said, the search decides.
//
// Where the book holds a proven value, a go that plays a move keeps it: the
// answer is a book action among those that keep the value and, when the
// book's actions all give it up, the search is limited (lim.SearchMoves)
// to the actions that keep it.
func (e *Engine) AtGo(g *position.Game, lim *search.Limits, multiPV int) (Notes, BookAnswer, bool) {
	notes, perfectRoot := e.tablesNotes(g, nil)
	if e.bookNote != "" {
		notes = append(notes, "error: "+e.bookNote)
		e.bookNote = ""
	}
	en, ok := e.BookEntry(g)
	if !ok || e.limited {
		return notes, BookAnswer{}, false
	}
	notes = append(notes, "book "+BookLine(en))
	if !PlaysFromBook(lim, multiPV) || perfectRoot {
		// A root Malom's database ranks is played from its values.
		return notes, BookAnswer{}, false
	}
	allowed := lim.SearchMoves
	var kept []position.Move
	if en.Proof != nil {
		if kept = keptAmong(en.Proof, lim.SearchMoves); len(kept) > 0 {
			allowed = kept
		}
	}
	a, ok := book.Pick(en, e.bookVariety, allowed, e.bookRng)
	if !ok {
		if len(kept) > 0 {
			lim.SearchMoves = kept
			notes = append(notes, fmt.Sprintf("book: no book action keeps the proven %s; the search chooses among the %d that do", en.Proof.Value, len(kept)))
		}
		return notes, BookAnswer{}, false
	}
	ba := BookAnswer{Move: a.Move, Score: a.Score, Depth: en.Depth}
	if en.Proof != nil && en.Proof.Keeps(a.Move) {
		ba.Proven, ba.Value, ba.Score = true, en.Proof.Value, search.ProvenScore(en.Proof.Value, a.Score)
	}
	return notes, ba, true
}

// keptAmong returns the actions of pr that keep its value, limited to
// among when that is not empty (a go's searchmoves), or nil when none of
// among keeps it.
func keptAmong(pr *book.Proof, among []position.Move) []position.Move {
	if len(among) == 0 {
		return slices.Clone(pr.Keep)
	}
	var out []position.Move
	for _, m := range among {
		if pr.Keeps(m) {
			out = append(out, m)
		}
	}
	return out
}

// tablesNotes appends what the tables and Malom's database say of g's
// root: once, what they hold or why they are not used; the damaged files
// and disagreements found; the root's ranking, from the values the search
// ranks it with (the tables, or Malom's database with them). It reports
// whether Malom's database (with the tables) ranked the root.
func (e *Engine) tablesNotes(g *position.Game, notes Notes) (Notes, bool) {
	covers := e.tables.Covers(&g.Rules)
	if !e.tablesNoted {
		switch {
		case covers:
			e.tablesNoted = true
			notes = append(notes, "egtb: "+e.tables.Coverage())
		case e.tablesNote != "":
			e.tablesNoted = true
			notes = append(notes, e.tablesNote)
		}
	}
	if e.perfectNote != "" && !e.perfectNoted {
		e.perfectNoted = true
		notes = append(notes, e.perfectNote)
	}
	var src egtb.Source
	switch {
	case e.perfectRoot != nil:
		src = e.perfectRoot
	case covers:
		src = e.tables
	default:
		return notes, false
	}
	acts, ok := egtb.RankRootWith(src, g)
	notes = e.damageNotes(notes)
	if !ok || e.limited {
		return notes, false // a level does not show what it does not know
	}
	var b strings.Builder
	fmt.Fprintf(&b, "egtb %s moves", acts[0].Token())
	for _, a := range acts {
		fmt.Fprintf(&b, " %s %s", a.Move, a.Token())
	}
	return append(notes, b.String()), e.perfectRoot != nil
}

// damageNotes appends the damaged files of the tables and of Malom's
// database, and the positions on which the two disagree, not said yet.
func (e *Engine) damageNotes(notes Notes) Notes {
	d := e.tables.Damaged()
	for _, err := range d[min(e.damageSaid, len(d)):] {
		notes = append(notes, "error: egtb: "+err.Error())
	}
	e.damageSaid = len(d)
	if e.perfectRoot == nil {
		return notes
	}
	d = e.perfect.Damaged()
	for _, err := range d[min(e.perfectDamageSaid, len(d)):] {
		e.log.Error().Err(err).Msg("perfect database: damaged sector")
		notes = append(notes, "error: perfect database: "+err.Error())
	}
	e.perfectDamageSaid = len(d)
	dis := e.perfectRoot.Disagreements()
	for _, x := range dis[min(e.disagreementsSaid, len(dis)):] {
		e.log.Warn().Str("fen", x.FEN).Str("malom", x.Malom.String()).Str("tables", x.Tables.String()).Msg("perfect database: Malom and the tables disagree")
		notes = append(notes, "perfect database: "+x.String())
	}
	e.disagreementsSaid = len(dis)
	return notes
}

// Answer is the action the engine plays and how it chose it.
type Answer struct {
	Move     position.Move // position.NoMove when the game is over
	FromBook bool
	Book     BookAnswer    // when FromBook
	Result   search.Result // when searched
	Notes    Notes
}

// Play answers a go at g with lim as the UCI engine does: the book when it
// holds the position and the go plays a move, a search otherwise. report
// (may be nil) receives the search's info. The notes are returned, not
// printed.
func (e *Engine) Play(g *position.Game, lim search.Limits, multiPV int, report func(search.Info)) Answer {
	if lim.Start.IsZero() {
		lim.Start = time.Now() // the book and the notes are spent from the move's time
	}
	notes, ba, ok := e.AtGo(g, &lim, multiPV)
	if ok {
		return Answer{Move: ba.Move, FromBook: true, Book: ba, Notes: notes}
	}
	if report == nil {
		report = func(search.Info) {}
	}
	e.Prepare(lim.Ponder)
	res := e.Search(g, lim, report)
	return Answer{Move: res.BestMove, Result: res, Notes: notes}
}
