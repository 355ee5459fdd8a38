package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
)

// lineWidth is the column the writer wraps the movetext at.
const lineWidth = 80

// Write writes the games to w in Sanmill's PGN dialect, a blank line between
// games. It checks every game first and writes nothing if one is invalid.
func Write(w io.Writer, games ...Game) error {
	b, err := Marshal(games...)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal returns the games in Sanmill's PGN dialect: each game's tags in
// their order, a blank line, the movetext wrapped at 80 columns, the
// termination marker. Parse gives the same games back (Game.Equal).
func Marshal(games ...Game) ([]byte, error) {
	for i := range games {
		if err := games[i].Validate(); err != nil {
			return nil, fmt.Errorf("record: game %d: %w", i+1, err)
		}
	}
	w := &writer{}
	for i := range games {
		if i > 0 {
			w.buf = append(w.buf, '\n')
		}
		w.game(&games[i])
	}
	return w.buf, nil
}

// Validate reports why the game cannot be written so that reading gives it
// back, or nil: a bad tag name, a tag value with a line end, a duplicate
// tag, a bad Result, SetUp or FEN tag, a termination marker that is not one
// of the four or disagrees with the Result tag, a malformed turn or NAG, a
// comment with both } and a line end or with surrounding white space, an
// empty variation, variations nested too deep. A game that passes writes and
// reads back Equal.
func (g *Game) Validate() error {
	var names tagSet
	for i, t := range g.Tags {
		if !validTagName(t.Name) {
			return fmt.Errorf("tag %d: bad tag name %q", i+1, t.Name)
		}
		if strings.IndexByte(t.Value, '\n') >= 0 {
			return fmt.Errorf("tag %s: the value has a line end", t.Name)
		}
		if names.add(g.Tags[:i], t.Name) {
			return fmt.Errorf("duplicate tag %s", t.Name)
		}
	}
	if _, why := checkTags(g.Tags); why != "" {
		return errors.New(why)
	}
	if !isResult(g.Result) {
		return fmt.Errorf("bad termination marker %q: want 1-0, 0-1, 1/2-1/2 or *", g.Result)
	}
	if v, ok := g.Tag("Result"); ok && v != g.Result {
		return fmt.Errorf("termination marker %s disagrees with the Result tag %q", g.Result, v)
	}
	return g.Line.validate(1, 0)
}

func (l *Line) validate(ply, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("ply %d: variations nested deeper than %d levels", ply, maxDepth)
	}
	if err := validateComments(l.Comments); err != nil {
		return fmt.Errorf("ply %d: %w", ply, err)
	}
	for i := range l.Moves {
		t := &l.Moves[i]
		p := ply + i
		if err := t.validate(); err != nil {
			return fmt.Errorf("ply %d: %w", p, err)
		}
		for _, n := range t.NAGs {
			if n < 0 || n > 255 {
				return fmt.Errorf("ply %d: bad NAG %d: want 0 to 255", p, n)
			}
		}
		if err := validateComments(t.Comments); err != nil {
			return fmt.Errorf("ply %d: %w", p, err)
		}
		for j := range t.Variations {
			v := &t.Variations[j]
			if len(v.Moves) == 0 {
				return fmt.Errorf("ply %d: variation %d is empty", p, j+1)
			}
			if err := v.validate(p, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// validate checks the shape of the turn's move parts.
func (t *Turn) validate() error {
	if t.Pass {
		if t.Move != position.NoMove || len(t.Removals) > 0 {
			return errors.New("a pass has no move and no removals")
		}
		return nil
	}
	switch t.Move.Kind() {
	case position.KindPlace:
		if t.Move != position.MakePlace(t.Move.To()) || t.Move.To() >= bb.NumSquares {
			return fmt.Errorf("bad placement %#04x", uint16(t.Move))
		}
	case position.KindSlide:
		from, to := t.Move.From(), t.Move.To()
		if from >= bb.NumSquares || to >= bb.NumSquares || from == to {
			return fmt.Errorf("bad slide %#04x", uint16(t.Move))
		}
	default:
		if t.Move != position.NoMove {
			return fmt.Errorf("bad move %#04x: a turn's move is a placement or a slide", uint16(t.Move))
		}
		if len(t.Removals) == 0 {
			return errors.New("a turn has a move, removals or a pass")
		}
	}
	for _, s := range t.Removals {
		if s >= bb.NumSquares {
			return fmt.Errorf("bad removal square %d", s)
		}
	}
	return nil
}

// validateComments rejects the first comment that reading would not give
// back: one that can be written neither as {…} (it has a '}') nor as ;… (it
// has a line end), or one with surrounding white space or CR line ends,
// which reading drops.
func validateComments(cs []string) error {
	for _, c := range cs {
		if strings.IndexByte(c, '}') >= 0 && strings.IndexByte(c, '\n') >= 0 {
			return fmt.Errorf("comment %q has both } and a line end", c)
		}
		if commentText(c) != c {
			return fmt.Errorf("comment %q has surrounding white space or CR line ends", c)
		}
	}
	return nil
}

// writer builds the text of valid games.
type writer struct {
	buf   []byte // the text
	arena []byte // the words of the current movetext, end to end
	words []word
	open  bool // a "(" waits for the next word
}

// word is a unit of movetext the wrapping never breaks: arena[start:end].
type word struct {
	start, end int
	eol        bool // a ;comment: the line ends after it
}

func (w *writer) game(g *Game) {
	for _, t := range g.Tags {
		w.buf = append(w.buf, '[')
		w.buf = append(w.buf, t.Name...)
		w.buf = append(w.buf, ' ', '"')
		for i := 0; i < len(t.Value); i++ {
			if c := t.Value[i]; c == '"' || c == '\\' {
				w.buf = append(w.buf, '\\')
			}
			w.buf = append(w.buf, t.Value[i])
		}
		w.buf = append(w.buf, '"', ']', '\n')
	}
	if len(g.Tags) > 0 {
		w.buf = append(w.buf, '\n')
	}
	w.arena, w.words = w.arena[:0], w.words[:0]
	w.line(&g.Line, int(fenSide(g)), true, true)
	w.add(g.Result)
	w.flush()
}

// begin starts a word, with the waiting "(" if any.
func (w *writer) begin() int {
	start := len(w.arena)
	if w.open {
		w.arena = append(w.arena, '(')
		w.open = false
	}
	return start
}

func (w *writer) end(start int, eol bool) {
	w.words = append(w.words, word{start, len(w.arena), eol})
}

func (w *writer) add(s string) {
	start := w.begin()
	w.arena = append(w.arena, s...)
	w.end(start, false)
}

func (w *writer) comment(c string) {
	start := w.begin()
	eol := strings.IndexByte(c, '}') >= 0
	if eol {
		w.arena = append(w.arena, ';')
		w.arena = append(w.arena, c...)
	} else {
		w.arena = append(w.arena, '{')
		w.arena = append(w.arena, c...)
		w.arena = append(w.arena, '}')
	}
	w.end(start, eol)
}

// line adds the words of l. ply counts half-moves from 0 (White's first
// turn); force asks for a number before a Black turn; gameStart tells that
// l's first turn is the first of the game.
func (w *writer) line(l *Line, ply int, force, gameStart bool) {
	for _, c := range l.Comments {
		w.comment(c)
		force = true
	}
	for i := range l.Moves {
		t := &l.Moves[i]
		// A removal-only turn continues the turn before it (or the turn
		// before the branch point), unless it opens the game.
		cont := t.Move == position.NoMove && !t.Pass && !(gameStart && i == 0)
		start := w.begin()
		if !cont {
			// A number stays with its move in one word.
			if ply%2 == 0 {
				w.arena = strconv.AppendInt(w.arena, int64(ply/2+1), 10)
				w.arena = append(w.arena, ". "...)
			} else if force {
				w.arena = strconv.AppendInt(w.arena, int64(ply/2+1), 10)
				w.arena = append(w.arena, "... "...)
			}
			force = false
		}
		w.arena = t.appendToken(w.arena)
		nags := t.NAGs
		if len(nags) > 0 && nags[0] >= 1 && nags[0] <= 6 {
			w.arena = append(w.arena, nagSymbols[nags[0]]...)
			nags = nags[1:]
		}
		w.end(start, false)
		for _, n := range nags {
			start := w.begin()
			w.arena = append(w.arena, '$')
			w.arena = strconv.AppendInt(w.arena, int64(n), 10)
			w.end(start, false)
		}
		for _, c := range t.Comments {
			w.comment(c)
			force = true
		}
		for j := range t.Variations {
			w.open = true
			w.line(&t.Variations[j], ply, true, gameStart && i == 0)
			// The last word ends the arena: ")" joins it, unless it is
			// a ;comment, which the line end must follow.
			if last := &w.words[len(w.words)-1]; last.eol {
				w.add(")")
			} else {
				w.arena = append(w.arena, ')')
				last.end++
			}
			force = true
		}
		if !cont {
			ply++
		}
	}
}

// flush writes the words, wrapping before a word that would pass column 80.
func (w *writer) flush() {
	col := 0
	for _, wd := range w.words {
		text := w.arena[wd.start:wd.end]
		first := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			first = text[:i]
		}
		n := utf8.RuneCount(first)
		if col > 0 {
			if col+1+n > lineWidth {
				w.buf = append(w.buf, '\n')
				col = 0
			} else {
				w.buf = append(w.buf, ' ')
				col++
			}
		}
		w.buf = append(w.buf, text...)
		if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
			col = utf8.RuneCount(text[i+1:])
		} else {
			col += n
		}
		if wd.eol {
			w.buf = append(w.buf, '\n')
			col = 0
		}
	}
	if col > 0 {
		w.buf = append(w.buf, '\n')
	}
}
