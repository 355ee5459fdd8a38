package uci

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/book"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// The opening book (Book, BookVariety). At a go that plays a move (a clock,
// a move time or the MoveTime option's default; not infinite, ponder,
// depth, nodes, mate or MultiPV above 1, which ask for a search), a
// position the book holds is answered at once with one of its actions
// within BookVariety centipawns of the best. Every go in a book position,
// analysis included, first says what the book holds in one line a GUI can
// show: "info string book depth <D> moves <token> <score> …".

// maxBookVariety bounds the BookVariety option (centipawns).
const maxBookVariety = 100

// defaultBookVariety is the start-up margin: small enough that every choice
// is as good as the best within the book's accuracy, wide enough that games
// differ.
const defaultBookVariety = 10

// openBook loads the book named by value: book.Builtin for the shipped one,
// "" or <empty> for none, otherwise a file. A file that cannot be read
// leaves no book in use.
func (s *session) openBook(value string) error {
	path := strings.TrimSpace(value)
	if path == emptyString {
		path = ""
	}
	s.bookPath, s.book = path, nil
	var (
		b   *book.Book
		err error
	)
	switch path {
	case "":
		return nil
	case book.Builtin:
		// Reading the shipped book takes a few tenths of a second: it is
		// read off the loop, so uciok does not wait for it, and taken at
		// the next isready or book look-up (awaitBook).
		go book.Default() // its error, if any, is seen at the look-up
		return nil
	default:
		b, err = book.Open(path)
	}
	if err != nil {
		return fmt.Errorf("option Book: %w; no book is used", err)
	}
	s.book = b
	s.log.Info().Str("book", path).Int("positions", b.Len()).Msg("opening book loaded")
	return nil
}

// awaitBook takes the shipped book into use once its background read is
// done, waiting for it if need be. isready calls it too: isready is the
// protocol's point for a GUI to wait out slow set-up, so the first go of a
// game under a move time is not the one that pays for the read.
func (s *session) awaitBook() {
	if s.book != nil || s.bookPath != book.Builtin {
		return
	}
	b, err := book.Default()
	if err != nil {
		s.bookPath, s.bookNote = "", fmt.Sprintf("option Book: %v; no book is used", err)
		return
	}
	s.book = b
}

// bookEntry returns the book's entry for the current position, if any.
func (s *session) bookEntry(g *position.Game) (book.Entry, bool) {
	s.awaitBook()
	if s.book == nil {
		return book.Entry{}, false
	}
	return s.book.Probe(&g.Rules, &g.Pos)
}

// bookLine formats an entry's actions: "depth 12 moves d6 61 d5 48".
func bookLine(e book.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "depth %d moves", e.Depth)
	for _, a := range e.Actions {
		fmt.Fprintf(&b, " %s %d", a.Move, a.Score)
	}
	return b.String()
}

// playsFromBook reports whether a go request asks for a move to play, which
// the book may answer, rather than for a search to look at.
func (s *session) playsFromBook(req goRequest) bool {
	l := &req.lim
	return !l.Infinite && !l.Ponder && l.Depth == 0 && l.Nodes == 0 && l.Mate == 0 && s.sopts.MultiPV <= 1
}

// bookAtGo says what the book holds of the root and, when the go plays a
// move, answers with a book action. It reports whether it answered.
func (s *session) bookAtGo(g *position.Game, req goRequest) bool {
	if s.bookNote != "" {
		s.printf("info string error: %s", s.bookNote)
		s.bookNote = ""
	}
	e, ok := s.bookEntry(g)
	if !ok {
		return false
	}
	s.printf("info string book %s", bookLine(e))
	if !s.playsFromBook(req) {
		return false
	}
	a, ok := book.Pick(e, s.bookVariety, req.lim.SearchMoves, s.bookRng)
	if !ok {
		return false
	}
	if a.Score > -search.ValueMateBand && a.Score < search.ValueMateBand {
		s.printf("info depth %d score cp %d nodes 0 nps 0 time 0 pv %s", e.Depth, a.Score, a.Move)
	}
	s.printf("info string book move %s", a.Move)
	s.printf("bestmove %s", a.Move)
	return true
}

// newBookRng seeds the book's choices from the clock, so that games differ.
func newBookRng() *rand.Rand {
	return rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x626f6f6b))
}
