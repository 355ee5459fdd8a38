package uci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/book"
)

// testBook writes a two-position book: the start position and the one
// after d6 (which stands for its images, such as the one after f4).
func testBook(t *testing.T) string {
	return writeBook(t,
		"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\tdepth 12\td6 50 d5 42 e5 10",
		"********/O*******/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 1\tdepth 11\td2 20")
}

// writeBook writes a book of Nine Men's Morris with the given lines into a
// temporary file and returns its path.
func writeBook(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.book")
	text := "# millengine opening book\n# rules: nine-mens-morris\n# diff: (none)\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func bookConfig(path string) Config {
	c := testConfig()
	c.Book = path
	return c
}

// A go that plays a move is answered from the book at once: the book's
// line, an info line with the book's depth and score, and the bestmove.
// BookVariety 0 plays the best; the default margin (10) plays any action
// within it, never one below.
func TestBookAnswersAGoThatPlays(t *testing.T) {
	h := startHarness(t, bookConfig(testBook(t)))
	h.send("setoption name BookVariety value 0", "position startpos", "go wtime 60000 btime 60000")
	expectLines(t, h,
		"info string book depth 12 moves d6 50 d5 42 e5 10",
		"info depth 12 score cp 50 nodes 0 nps 0 time 0 pv d6",
		"info string book move d6",
		"bestmove d6")

	h.send("setoption name BookVariety value 10")
	seen := map[string]int{}
	for i := 0; i < 60; i++ {
		h.send("go movetime 5000")
		lines := h.until("bestmove")
		if len(lines) != 4 {
			t.Fatalf("%q", lines)
		}
		seen[strings.TrimPrefix(lines[3], "bestmove ")]++
	}
	if seen["d6"] == 0 || seen["d5"] == 0 || seen["e5"] != 0 || len(seen) != 2 {
		t.Fatalf("BookVariety 10 played %v; want d6 and d5 only", seen)
	}
}

// The Book option takes a book's binary form (book pack) as it takes its
// text, and answers alike.
func TestBookOptionTakesTheBinaryForm(t *testing.T) {
	b, err := book.Open(testBook(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.book.bin")
	if err := b.SaveBinary(path); err != nil {
		t.Fatal(err)
	}
	h := startHarness(t, testConfig())
	h.send("setoption name Book value "+path, "setoption name BookVariety value 0", "position startpos moves f4", "go movetime 5000")
	expectLines(t, h,
		"info string book depth 11 moves b4 20",
		"info depth 11 score cp 20 nodes 0 nps 0 time 0 pv b4",
		"info string book move b4",
		"bestmove b4")
}

// The book maps a position to its stored image and the action back: after
// f4 (the image of d6 by a quarter turn) the book's d2 becomes b4.
func TestBookUnderSymmetry(t *testing.T) {
	h := startHarness(t, bookConfig(testBook(t)))
	h.send("position startpos moves f4", "go movetime 5000")
	expectLines(t, h,
		"info string book depth 11 moves b4 20",
		"info depth 11 score cp 20 nodes 0 nps 0 time 0 pv b4",
		"info string book move b4",
		"bestmove b4")
	h.send("d")
	lines := h.until("book:")
	if last := lines[len(lines)-1]; last != "book: depth 11 moves b4 20" {
		t.Fatalf("d: %q", last)
	}
}

// Analysis (infinite, depth, nodes, mate, MultiPV) sees the book's line and
// gets a search; searchmoves limit the book's choice, and a book without
// any of them leaves the move to the search.
func TestBookAndSearches(t *testing.T) {
	h := startHarness(t, bookConfig(testBook(t)))
	h.send("position startpos", "go depth 2")
	lines := h.until("bestmove")
	if lines[0] != "info string book depth 12 moves d6 50 d5 42 e5 10" || !strings.HasPrefix(lines[1], "info depth 1 ") {
		t.Fatalf("go depth 2: %q", lines)
	}
	h.send("go infinite")
	if l, _ := h.next(); l != "info string book depth 12 moves d6 50 d5 42 e5 10" {
		t.Fatalf("go infinite: %q", l)
	}
	h.send("stop")
	h.until("bestmove")

	h.send("go movetime 5000 searchmoves e5 a7")
	expectLines(t, h,
		"info string book depth 12 moves d6 50 d5 42 e5 10",
		"info depth 12 score cp 10 nodes 0 nps 0 time 0 pv e5",
		"info string book move e5",
		"bestmove e5")
	h.send("go movetime 50 searchmoves a7")
	lines = h.until("bestmove")
	if lines[0] != "info string book depth 12 moves d6 50 d5 42 e5 10" || lines[len(lines)-1] != "bestmove a7" || len(lines) < 3 {
		t.Fatalf("searchmoves outside the book: %q", lines)
	}

	// Other rules: the book is silent.
	h.send("setoption name Variant value twelve-mens-morris", "position startpos", "go depth 1")
	if lines := h.until("bestmove"); strings.Contains(strings.Join(lines, "\n"), "book") {
		t.Fatalf("a nine men's morris book answered under twelve men's morris: %q", lines)
	}
}

// A book that cannot be read is refused with an error and no book is used;
// <empty> switches the book off; the shipped book answers the start.
func TestBookOption(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send("setoption name Book value /nonexistent/x.book", "position startpos", "go depth 1")
	lines := h.until("bestmove")
	if lines[0] != "info string error: option Book: book: open /nonexistent/x.book: no such file or directory; no book is used" ||
		strings.Contains(strings.Join(lines[1:], "\n"), "book") {
		t.Fatalf("%q", lines)
	}
	bad := filepath.Join(t.TempDir(), "bad.book")
	os.WriteFile(bad, []byte("# millengine opening book\n# rules: x\n# diff: (none)\nnot a fen\tdepth 3\td6 1\n"), 0o644)
	h.send("setoption name Book value " + bad)
	if l, _ := h.next(); !strings.HasPrefix(l, "info string error: option Book: book: line 4: ") || !strings.HasSuffix(l, "; no book is used") {
		t.Fatalf("damaged book: %q", l)
	}
	h.send("setoption name Book value "+book.Builtin, "go movetime 5000")
	lines = h.until("bestmove")
	if !strings.HasPrefix(lines[0], "info string book depth ") || !strings.HasPrefix(lines[2], "info string book move ") {
		t.Fatalf("the shipped book: %q", lines)
	}
	h.send("setoption name Book value <empty>", "go depth 1")
	if lines := h.until("bestmove"); strings.Contains(strings.Join(lines, "\n"), "book") {
		t.Fatalf("<empty> still uses a book: %q", lines)
	}
}

// The shipped book is in use from the start, before any isready: it is
// read in place from the binary, with nothing to wait for.
func TestBuiltinBookInUseAtOnce(t *testing.T) {
	s, _ := newTestSessionWith(t, bookConfig(book.Builtin))
	want, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	if path, b := s.engine.BookInUse(); path != book.Builtin || b != want {
		t.Fatalf("at start the session's book is %q %p, want the shipped book %p", path, b, want)
	}
}

// A book position with a proven value is answered only with an action that
// keeps it, scored as the proven draw; where no book action keeps it, the
// search chooses among those that do (its bestmove is one of them).
func TestBookKeepsAProvenDraw(t *testing.T) {
	path := writeBook(t,
		"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\tdepth 12\td6 50 d5 42\tproven draw keep d5 a7",
		"********/O*******/******** b p p 1 8 0 9 0 0 0 0 0 0 0 0 1\tdepth 11\td2 20\tproven draw keep g7")
	h := startHarness(t, bookConfig(path))
	h.send("setoption name BookVariety value 100", "position startpos", "go movetime 5000")
	expectLines(t, h,
		"info string book depth 12 moves d6 50 d5 42 proven draw keep d5 a7",
		"info depth 12 score cp 0 nodes 0 nps 0 time 0 pv d5",
		"info string book move d5, keeps the proven draw",
		"bestmove d5")
	h.send("position startpos moves d6", "go depth 2")
	lines := h.until("bestmove")
	if lines[0] != "info string book depth 11 moves d2 20 proven draw keep g7" || strings.Contains(strings.Join(lines, "\n"), "no book action keeps") {
		t.Fatalf("analysis at a proven position: %q, want the book's line and a free search", lines)
	}
	h.send("go movetime 200")
	lines = h.until("bestmove")
	if lines[1] != "info string book: no book action keeps the proven draw; the search chooses among the 1 that do" || lines[len(lines)-1] != "bestmove g7" {
		t.Fatalf("%q, want the search limited to g7", lines)
	}
}
