package record

import (
	"fmt"
	"slices"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
)

// The seven tags every PGN game should carry, in PGN's order (the Seven Tag
// Roster). FromEngine writes them; reading does not require them, since
// Sanmill's clipboard export leaves them out.
var sevenTags = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Pos is a place in the text a game was read from: the 1-based line and
// column, columns counted in characters. The zero Pos means "not read from
// text" (a game built in code).
type Pos struct {
	Line, Col int
}

// Tag is one tag pair, such as [Event "Sanmill-Game"].
type Tag struct {
	Name, Value string
}

// Line is a sequence of turns: a game's main line or a variation.
type Line struct {
	// Comments are the comments before the first turn: a game's opening
	// comments (Sanmill's root comments), or those at the start of a
	// variation.
	Comments []string
	// Moves are the turns in order.
	Moves []Turn
}

// Game is one game record.
type Game struct {
	// Number is the game's 1-based position in the text it was read from,
	// 0 for a game built in code. Errors name it.
	Number int
	// Tags are the tag pairs in the order they were read or set.
	Tags []Tag
	// Line is the main line: the opening comments and the turns.
	Line
	// Result is the game termination marker: "1-0", "0-1", "1/2-1/2" or "*".
	Result string
}

// Turn is one move token: a placement or slide with the removals it earns, or
// removals alone, or a pass, with its annotations.
type Turn struct {
	// Pos is where the token starts in the text it was read from.
	Pos Pos
	// Move is the placement (position.MakePlace) or the slide or fly
	// (position.MakeSlide); position.NoMove when the turn only removes or
	// passes.
	Move position.Move
	// Pass marks the pass token "p"; Move is then NoMove and Removals empty.
	Pass bool
	// Removals are the points whose pieces are removed, in order.
	Removals []bb.Square
	// NAGs are the numeric annotation glyphs after the token (1 for "!").
	NAGs []int
	// Comments are the comments after the token.
	Comments []string
	// Variations are alternatives to this turn, each a line played instead
	// of it from the position before it.
	Variations []Line
}

// Actions returns the engine moves of the turn in order: the placement or
// slide, then one removal move per removed piece. A pass has none.
func (t *Turn) Actions() []position.Move {
	out := make([]position.Move, 0, 1+len(t.Removals))
	if t.Move != position.NoMove {
		out = append(out, t.Move)
	}
	for _, s := range t.Removals {
		out = append(out, position.MakeRemove(s))
	}
	return out
}

// String returns the move token in Sanmill's notation, such as "d6-d5xd7".
func (t *Turn) String() string { return string(t.appendToken(nil)) }

// appendToken appends the move token of a valid turn to b.
func (t *Turn) appendToken(b []byte) []byte {
	if t.Pass {
		return append(b, 'p')
	}
	switch t.Move.Kind() {
	case position.KindPlace:
		b = append(b, t.Move.To().String()...)
	case position.KindSlide:
		b = append(b, t.Move.From().String()...)
		b = append(b, '-')
		b = append(b, t.Move.To().String()...)
	}
	for _, s := range t.Removals {
		b = append(b, 'x')
		b = append(b, s.String()...)
	}
	return b
}

// Tag returns the value of the named tag (names are case-sensitive).
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets the named tag, in place if it exists, else at the end.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// Equal reports whether g and h record the same game: the same tags in the
// same order, comments, turns, annotations, variations and result. Where
// they were read from (Number, Pos) does not count, and neither does the
// difference between a nil and an empty list.
func (g *Game) Equal(h *Game) bool {
	return slices.Equal(g.Tags, h.Tags) && g.Result == h.Result && g.Line.equal(&h.Line)
}

func (l *Line) equal(m *Line) bool {
	if !slices.Equal(l.Comments, m.Comments) || len(l.Moves) != len(m.Moves) {
		return false
	}
	for i := range l.Moves {
		if !l.Moves[i].equal(&m.Moves[i]) {
			return false
		}
	}
	return true
}

func (t *Turn) equal(u *Turn) bool {
	if t.Move != u.Move || t.Pass != u.Pass || !slices.Equal(t.Removals, u.Removals) ||
		!slices.Equal(t.NAGs, u.NAGs) || !slices.Equal(t.Comments, u.Comments) ||
		len(t.Variations) != len(u.Variations) {
		return false
	}
	for i := range t.Variations {
		if !t.Variations[i].equal(&u.Variations[i]) {
			return false
		}
	}
	return true
}

// Error is a bad record: a malformed token or tag when reading, an illegal
// move when replaying. Its message names the game, the ply and the place,
// for example
//
//	game 2, ply 13 (line 40, column 7): bad move token "d6-d9": d9 is not a point of the board
type Error struct {
	Game int // 1-based game number; 0 when unknown
	Ply  int // 1-based number of the move token in its line; 0 outside the movetext
	Pos  Pos // where in the text; zero when unknown
	Msg  string
	Err  error // the engine's error behind an illegal move, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	sep := ""
	if e.Game > 0 {
		fmt.Fprintf(&b, "game %d", e.Game)
		sep = ", "
	}
	if e.Ply > 0 {
		fmt.Fprintf(&b, "%sply %d", sep, e.Ply)
	}
	if e.Pos.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "(line %d, column %d)", e.Pos.Line, e.Pos.Col)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the engine's error behind an illegal move.
func (e *Error) Unwrap() error { return e.Err }
