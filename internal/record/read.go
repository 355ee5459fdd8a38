package record

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
)

// notation is the way a record's move tokens name the points.
type notation uint8

const (
	sanmillNotation notation = iota // a7 … g1 (the engine's and Sanmill's labels)
	playOKNotation                  // 1 … 24 (PlayOK)
)

// maxDepth bounds the nesting of variations, so that neither reading nor
// writing recurses without limit on hostile input.
const maxDepth = 64

// results are the game termination markers.
var results = [...]string{"1-0", "0-1", "1/2-1/2", "*"}

// nagSymbols are the suffix annotations that stand for NAGs 1–6.
var nagSymbols = [...]string{1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

var bom = []byte("\xef\xbb\xbf")

// Read reads every game of a record in Sanmill's PGN dialect from r.
func Read(r io.Reader) ([]Game, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return Parse(src)
}

// Parse reads every game of a record in Sanmill's PGN dialect. On an error
// it returns no games and an *Error naming the game, ply and place.
func Parse(src []byte) ([]Game, error) { return parse(src, sanmillNotation) }

// ParsePlayOK reads every game of a record in PlayOK's notation, the points
// numbered 1–24 (see playOKPoints), into the same Turns Parse gives for
// Sanmill's notation; the rest of the syntax (tags, move numbers, comments,
// termination markers) is PGN as for Parse.
func ParsePlayOK(src []byte) ([]Game, error) { return parse(src, playOKNotation) }

// FromFEN makes a record of a bare position string: a game without moves
// that starts there, with the tags [FEN] and [SetUp "1"] (as Sanmill imports
// one). Only the shape of the string is checked here (17 fields, the board,
// the side to move); Replay checks the rest with the rules.
func FromFEN(fen string) (Game, error) {
	v := strings.Join(strings.Fields(fen), " ")
	if why := checkFEN(v); why != "" {
		return Game{}, &Error{Msg: fmt.Sprintf("bad FEN %q: %s", v, why)}
	}
	return Game{Tags: []Tag{{"FEN", v}, {"SetUp", "1"}}, Result: "*"}, nil
}

// Import reads a record whatever its form, as Sanmill's import does: a bare
// position string (FromFEN), a PlayOK record (a [Site "PlayOK"] tag, or move
// text with a "1." and no letter a–g: ParsePlayOK), or else Sanmill PGN
// (Parse).
func Import(src []byte) ([]Game, error) {
	text := strings.TrimSpace(string(bytes.TrimPrefix(src, bom)))
	switch {
	case looksLikeFEN(text):
		g, err := FromFEN(text)
		if err != nil {
			return nil, err
		}
		g.Number = 1
		return []Game{g}, nil
	case looksLikePlayOK(text):
		return ParsePlayOK(src)
	}
	return Parse(src)
}

// looksLikeFEN reports whether text starts with a FEN board field.
func looksLikeFEN(text string) bool {
	f, _, _ := strings.Cut(text, " ")
	return len(f) == 26 && f[8] == '/' && f[17] == '/'
}

// looksLikePlayOK applies Sanmill's test for a PlayOK record: the PlayOK site
// tag, or move text (tag lines and comments left out) with a move number 1
// and no letter a–g. It reads the text once.
func looksLikePlayOK(text string) bool {
	if strings.Contains(text, `[Site "PlayOK"]`) {
		return true
	}
	number := false
	inComment, tagLine, lineStart := false, false, true
	var prev byte // the last byte of move text
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			tagLine, lineStart = false, true
			continue
		case inComment:
			inComment = c != '}'
			continue
		case tagLine:
			continue
		case lineStart && (c == ' ' || c == '\t' || c == '\r'):
			continue
		case lineStart && c == '[':
			tagLine, lineStart = true, false
			continue
		}
		lineStart = false
		switch {
		case c == '{':
			inComment = true
			continue
		case c >= 'a' && c <= 'g' || c >= 'A' && c <= 'G':
			return false
		case c == '.' && prev == '1':
			number = true
		}
		prev = c
	}
	return number
}

func parse(src []byte, n notation) ([]Game, error) {
	// One string copy of the text: tokens are then substrings, free to take.
	r := &reader{src: string(bytes.TrimPrefix(src, bom)), line: 1, col: 1, notation: n}
	var games []Game
	for {
		r.skipSpace()
		if r.eof() {
			return games, nil
		}
		r.game++
		g, err := r.readGame()
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}

// reader is the state of one pass over a record's text.
type reader struct {
	src       string
	off       int // the next byte
	line, col int // the place of src[off]
	notation  notation
	game      int    // the number of the game being read
	turns     []Turn // scratch: the turns of the lines being read, innermost last
}

func (r *reader) eof() bool { return r.off >= len(r.src) }
func (r *reader) pos() Pos  { return Pos{r.line, r.col} }

// step moves past one byte; columns count characters, so UTF-8
// continuation bytes do not advance them.
func (r *reader) step() {
	c := r.src[r.off]
	r.off++
	if c == '\n' {
		r.line++
		r.col = 1
	} else if c&0xC0 != 0x80 {
		r.col++
	}
}

func (r *reader) errAt(p Pos, ply int, format string, args ...any) error {
	return &Error{Game: r.game, Ply: ply, Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// skipSpace moves past white space and % escape lines (a % in the first
// column comments out its line).
func (r *reader) skipSpace() {
	for !r.eof() {
		switch c := r.src[r.off]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			r.step()
		case c == '%' && r.col == 1:
			for !r.eof() && r.src[r.off] != '\n' {
				r.step()
			}
		default:
			return
		}
	}
}

// skipBlank moves past spaces and tabs within a line.
func (r *reader) skipBlank() {
	for !r.eof() && (r.src[r.off] == ' ' || r.src[r.off] == '\t') {
		r.step()
	}
}

// readGame reads one game: its tag section, then its movetext up to the
// termination marker or the end of the text.
func (r *reader) readGame() (Game, error) {
	g := Game{Number: r.game}
	var tagPos []Pos
	var names tagSet
	for {
		r.skipSpace()
		if r.eof() || r.src[r.off] != '[' {
			break
		}
		t, p, err := r.tag()
		if err != nil {
			return Game{}, err
		}
		if names.add(g.Tags, t.Name) {
			return Game{}, r.errAt(p, 0, "duplicate tag %s", t.Name)
		}
		g.Tags = append(g.Tags, t)
		tagPos = append(tagPos, p)
	}
	if i, why := checkTags(g.Tags); why != "" {
		return Game{}, r.errAt(tagPos[i], 0, "%s", why)
	}
	res, resPos, err := r.readLine(&g.Line, 1, 0, Pos{})
	if err != nil {
		return Game{}, err
	}
	tagRes, hasTag := g.Tag("Result")
	switch {
	case res == "" && hasTag:
		res = tagRes
	case res == "":
		res = "*"
	case hasTag && res != tagRes:
		return Game{}, r.errAt(resPos, 0, "termination marker %s disagrees with the Result tag %q", res, tagRes)
	}
	g.Result = res
	return g, nil
}

// tag reads one tag pair, [Name "value"], which must fit on one line.
func (r *reader) tag() (Tag, Pos, error) {
	p := r.pos()
	r.step() // '['
	r.skipBlank()
	namePos, start := r.pos(), r.off
	for !r.eof() && strings.IndexByte(" \t\r\n\"]", r.src[r.off]) < 0 {
		r.step()
	}
	name := strings.Clone(r.src[start:r.off])
	if !validTagName(name) {
		if name == "" {
			return Tag{}, p, r.errAt(namePos, 0, "tag without a name")
		}
		return Tag{}, p, r.errAt(namePos, 0, "bad tag name %q", name)
	}
	r.skipBlank()
	if r.eof() || r.src[r.off] != '"' {
		return Tag{}, p, r.errAt(r.pos(), 0, "tag %s: want a quoted value", name)
	}
	r.step()
	var v []byte
	for {
		if r.eof() || r.src[r.off] == '\n' {
			return Tag{}, p, r.errAt(p, 0, "tag %s: value not closed on its line", name)
		}
		c := r.src[r.off]
		if c == '"' {
			r.step()
			break
		}
		if c == '\\' {
			esc := r.pos()
			r.step()
			if r.eof() || (r.src[r.off] != '"' && r.src[r.off] != '\\') {
				return Tag{}, p, r.errAt(esc, 0, `tag %s: bad escape in the value (only \" and \\)`, name)
			}
			c = r.src[r.off]
		}
		v = append(v, c)
		r.step()
	}
	r.skipBlank()
	if r.eof() || r.src[r.off] != ']' {
		return Tag{}, p, r.errAt(r.pos(), 0, "tag %s: want ] after the value", name)
	}
	r.step()
	return Tag{name, string(v)}, p, nil
}

// tagSet finds duplicate tag names: it scans a few tags and keeps a map once
// there are many, so that hostile input with thousands of tags stays linear.
type tagSet struct{ m map[string]struct{} }

// add reports whether name is among the names of prev (the tags added so
// far), and adds it.
func (s *tagSet) add(prev []Tag, name string) bool {
	if s.m == nil && len(prev) < 32 {
		for _, t := range prev {
			if t.Name == name {
				return true
			}
		}
		return false
	}
	if s.m == nil {
		s.m = make(map[string]struct{}, 2*len(prev))
		for _, t := range prev {
			s.m[t.Name] = struct{}{}
		}
	}
	if _, ok := s.m[name]; ok {
		return true
	}
	s.m[name] = struct{}{}
	return false
}

// isNameByte reports whether c may appear in a tag name.
func isNameByte(c byte) bool {
	return isAlnum(c) || strings.IndexByte("_+#=:-", c) >= 0
}

// validTagName reports whether name is a tag name as Sanmill reads them: a
// letter or digit, then letters, digits and _+#=:-.
func validTagName(name string) bool {
	if name == "" || !isAlnum(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isSymbolByte reports whether c may appear in a PGN symbol token (a move or
// a termination marker).
func isSymbolByte(c byte) bool {
	return isAlnum(c) || strings.IndexByte("_+#=:-/", c) >= 0
}

// checkTags checks the values of the tags the package understands: Result,
// SetUp and FEN. It returns the index of the bad tag and why, or "".
func checkTags(tags []Tag) (int, string) {
	fen, setup := -1, -1
	for i, t := range tags {
		switch t.Name {
		case "Result":
			if !isResult(t.Value) {
				return i, fmt.Sprintf("bad Result tag %q: want 1-0, 0-1, 1/2-1/2 or *", t.Value)
			}
		case "SetUp":
			if t.Value != "0" && t.Value != "1" {
				return i, fmt.Sprintf("bad SetUp tag %q: want 0 or 1", t.Value)
			}
			setup = i
		case "FEN":
			if why := checkFEN(t.Value); why != "" {
				return i, fmt.Sprintf("bad FEN tag %q: %s", t.Value, why)
			}
			fen = i
		}
	}
	switch {
	case setup >= 0 && tags[setup].Value == "1" && fen < 0:
		return setup, `SetUp "1" without a FEN tag`
	case setup >= 0 && tags[setup].Value == "0" && fen >= 0:
		return fen, `FEN tag with SetUp "0"`
	}
	return -1, ""
}

func isResult(s string) bool {
	for _, r := range results {
		if s == r {
			return true
		}
	}
	return false
}

// checkFEN checks the shape of a mill position string: at least 17 fields,
// three rings of 8 points, the side to move. It returns why not, or "".
func checkFEN(v string) string {
	f := strings.Fields(v)
	if len(f) < 17 {
		return fmt.Sprintf("a position string has 17 fields, got %d", len(f))
	}
	b := f[0]
	ok := len(b) == 26
	for i := 0; ok && i < len(b); i++ {
		if i == 8 || i == 17 {
			ok = b[i] == '/'
		} else {
			ok = strings.IndexByte("O@X*", b[i]) >= 0
		}
	}
	if !ok {
		return "the board is three rings of 8 points (O, @, X or *) separated by /"
	}
	if f[1] != "w" && f[1] != "b" {
		return "the side to move is w or b"
	}
	return ""
}

// fenSide returns the side to move of the game's FEN tag (White without one).
func fenSide(g *Game) position.Color {
	if v, ok := g.Tag("FEN"); ok {
		if f := strings.Fields(v); len(f) > 1 && f[1] == "b" {
			return position.Black
		}
	}
	return position.White
}

// tokenKind is the kind of a movetext token.
type tokenKind uint8

const (
	tokEOF     tokenKind = iota
	tokTag               // '[': the next game's tags (not consumed)
	tokComment           // {…} or ;…
	tokOpen              // (
	tokClose             // )
	tokNAG               // $n, !, ?, …
	tokNumber            // 12. or 12...
	tokResult            // 1-0, 0-1, 1/2-1/2, *
	tokMove              // any other symbol: a move token
)

type token struct {
	kind tokenKind
	pos  Pos
	text string // comment text, marker or move symbol
	nag  int
}

// next reads the next movetext token. ply is the ply a move token would
// have; an error in another token names the ply of the move before it.
func (r *reader) next(ply int) (token, error) {
	r.skipSpace()
	p := r.pos()
	last := ply - 1
	if r.eof() {
		return token{kind: tokEOF, pos: p}, nil
	}
	c := r.src[r.off]
	switch {
	case c == '[':
		return token{kind: tokTag, pos: p}, nil
	case c == '{':
		r.step()
		start := r.off
		for !r.eof() && r.src[r.off] != '}' {
			r.step()
		}
		if r.eof() {
			return token{}, r.errAt(p, last, "comment not closed: { without }")
		}
		text := commentText(r.src[start:r.off])
		r.step()
		return token{kind: tokComment, pos: p, text: strings.Clone(text)}, nil
	case c == ';':
		r.step()
		start := r.off
		for !r.eof() && r.src[r.off] != '\n' {
			r.step()
		}
		return token{kind: tokComment, pos: p, text: strings.Clone(commentText(r.src[start:r.off]))}, nil
	case c == '(':
		r.step()
		return token{kind: tokOpen, pos: p}, nil
	case c == ')':
		r.step()
		return token{kind: tokClose, pos: p}, nil
	case c == '*':
		r.step()
		return token{kind: tokResult, pos: p, text: "*"}, nil
	case c == '$':
		r.step()
		start := r.off
		for !r.eof() && isDigit(r.src[r.off]) {
			r.step()
		}
		d := r.src[start:r.off]
		n := 0
		for i := 0; i < len(d); i++ {
			if n <= 255 {
				n = n*10 + int(d[i]-'0')
			}
		}
		if len(d) == 0 || n > 255 {
			return token{}, r.errAt(p, last, "bad NAG %q: want $0 to $255", "$"+d)
		}
		return token{kind: tokNAG, pos: p, nag: n}, nil
	case c == '!' || c == '?':
		start := r.off
		for !r.eof() && (r.src[r.off] == '!' || r.src[r.off] == '?') {
			r.step()
		}
		s := r.src[start:r.off]
		for n, sym := range nagSymbols {
			if n > 0 && s == sym {
				return token{kind: tokNAG, pos: p, nag: n}, nil
			}
		}
		return token{}, r.errAt(p, last, "bad NAG %q: want !, ?, !!, ??, !? or ?!", s)
	case isSymbolByte(c):
		start := r.off
		for !r.eof() && isSymbolByte(r.src[r.off]) {
			r.step()
		}
		sym := r.src[start:r.off]
		if !r.eof() && r.src[r.off] == '.' {
			dots := r.off
			for !r.eof() && r.src[r.off] == '.' {
				r.step()
			}
			nd := r.off - dots
			whole := r.src[start:r.off]
			if !allDigits(sym) {
				return token{}, r.errAt(p, ply, "bad move token %q", whole)
			}
			if nd != 1 && nd != 3 {
				return token{}, r.errAt(p, last, "bad move number %q: want 12. or 12...", whole)
			}
			return token{kind: tokNumber, pos: p, text: whole}, nil
		}
		if sym == "1-0" || sym == "0-1" || sym == "1/2-1/2" {
			return token{kind: tokResult, pos: p, text: sym}, nil
		}
		return token{kind: tokMove, pos: p, text: sym}, nil
	}
	ch, _ := utf8.DecodeRuneInString(r.src[r.off:])
	return token{}, r.errAt(p, last, "unexpected character %q", ch)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// commentText is a comment as kept: line ends normalised to LF, surrounding
// white space removed.
func commentText(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, "\r")
		}
		s = strings.Join(lines, "\n")
	}
	return strings.TrimSpace(s)
}

// readLine reads turns into l until the line ends: at ')' for a variation
// (depth > 0), at a termination marker or the end of the text for the main
// line. ply is the ply of l's first turn; open is where a variation's '('
// stands. It returns the marker ("" without one) and its place.
//
// The turns gather on the reader's scratch stack and are copied into
// l.Moves at the end, so that each line is allocated once at its size.
func (r *reader) readLine(l *Line, ply, depth int, open Pos) (string, Pos, error) {
	base := len(r.turns)
	defer func() {
		if n := len(r.turns) - base; n > 0 {
			l.Moves = append(make([]Turn, 0, n), r.turns[base:]...)
			clear(r.turns[base:])
			r.turns = r.turns[:base]
		}
	}()
	for {
		cur := ply + len(r.turns) - base
		t, err := r.next(cur)
		if err != nil {
			return "", Pos{}, err
		}
		var last *Turn
		if n := len(r.turns); n > base {
			last = &r.turns[n-1]
		}
		switch t.kind {
		case tokEOF:
			if depth > 0 {
				return "", Pos{}, r.errAt(open, ply, "variation not closed: ( without )")
			}
			return "", t.pos, nil
		case tokTag:
			if depth > 0 {
				return "", Pos{}, r.errAt(open, ply, "variation not closed: ( without )")
			}
			return "", Pos{}, r.errAt(t.pos, cur-1, "tag after the movetext: a game ends with 1-0, 0-1, 1/2-1/2 or * before the next game's tags")
		case tokComment:
			if last == nil {
				l.Comments = append(l.Comments, t.text)
			} else {
				last.Comments = append(last.Comments, t.text)
			}
		case tokNAG:
			if last == nil {
				return "", Pos{}, r.errAt(t.pos, cur-1, "NAG before any move")
			}
			last.NAGs = append(last.NAGs, t.nag)
		case tokOpen:
			if last == nil {
				return "", Pos{}, r.errAt(t.pos, cur-1, "variation before any move")
			}
			if depth+1 > maxDepth {
				return "", Pos{}, r.errAt(t.pos, cur-1, "variations nested deeper than %d levels", maxDepth)
			}
			var v Line
			if _, _, err := r.readLine(&v, cur-1, depth+1, t.pos); err != nil {
				return "", Pos{}, err
			}
			if len(v.Moves) == 0 {
				return "", Pos{}, r.errAt(t.pos, cur-1, "empty variation")
			}
			last = &r.turns[len(r.turns)-1] // the variation's turns may have moved the stack
			last.Variations = append(last.Variations, v)
		case tokClose:
			if depth == 0 {
				return "", Pos{}, r.errAt(t.pos, cur-1, "unmatched )")
			}
			return "", t.pos, nil
		case tokNumber:
			// Numbers are checked for shape only (see the package comment).
		case tokResult:
			if depth > 0 {
				return "", Pos{}, r.errAt(t.pos, cur-1, "termination marker %s inside a variation", t.text)
			}
			return t.text, t.pos, nil
		case tokMove:
			turn, ok, why := r.parseTurn(t.text)
			if !ok {
				msg := fmt.Sprintf("bad move token %q", t.text)
				if why != "" {
					msg += ": " + why
				}
				return "", Pos{}, r.errAt(t.pos, cur, "%s", msg)
			}
			turn.Pos = t.pos
			r.turns = append(r.turns, turn)
		}
	}
}

// parseTurn reads a move token in the reader's notation. When the token is
// malformed it returns false and why (possibly "").
func (r *reader) parseTurn(s string) (Turn, bool, string) {
	if r.notation == playOKNotation {
		return parseTurn(s, playOKPoint)
	}
	if s == "p" || s == "P" {
		return Turn{Pass: true}, true, ""
	}
	return parseTurn(s, labelPoint)
}

// pointReader reads the point at the start of s and returns it and its
// length; length 0 (and maybe a reason) when there is none.
type pointReader func(s string) (bb.Square, int, string)

// labelPoint reads a label such as "d6" (any case).
func labelPoint(s string) (bb.Square, int, string) {
	if len(s) < 2 {
		return bb.NoSquare, 0, ""
	}
	f, rk := s[0]|0x20, s[1]
	if f < 'a' || f > 'z' || !isDigit(rk) {
		return bb.NoSquare, 0, ""
	}
	sq, err := bb.ParseSquare(s[:2])
	if err != nil {
		return bb.NoSquare, 0, fmt.Sprintf("%c%c is not a point of the board", f, rk)
	}
	return sq, 2, ""
}

// parseTurn reads a turn: an optional placement "P" or slide "P-P", then
// removals "xP", at least one part, with point reads the points.
func parseTurn(s string, point pointReader) (Turn, bool, string) {
	var t Turn
	i := 0
	if s != "" && s[0] != 'x' && s[0] != 'X' {
		to, n, why := point(s)
		if n == 0 {
			return Turn{}, false, why
		}
		i = n
		t.Move = position.MakePlace(to)
		if i < len(s) && s[i] == '-' {
			from := to
			to, n, why = point(s[i+1:])
			if n == 0 {
				return Turn{}, false, why
			}
			if from == to {
				return Turn{}, false, "origin and destination are the same point"
			}
			i += 1 + n
			t.Move = position.MakeSlide(from, to)
		}
	}
	for i < len(s) {
		if s[i] != 'x' && s[i] != 'X' {
			return Turn{}, false, ""
		}
		sq, n, why := point(s[i+1:])
		if n == 0 {
			return Turn{}, false, why
		}
		t.Removals = append(t.Removals, sq)
		i += 1 + n
	}
	if t.Move == position.NoMove && len(t.Removals) == 0 {
		return Turn{}, false, ""
	}
	return t, true, ""
}
