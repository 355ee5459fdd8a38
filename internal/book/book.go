// Package book is millengine's opening book: for positions of the first
// placing plies, the best actions found by deep searches, with their scores
// and the depth searched, so that the engine's first moves are its
// best-searched ones and differ from game to game (a random choice among the
// actions within a small score margin of the best).
//
// Positions are stored once for all their images under the 16 symmetries of
// the board (bitboard.Symmetry): an entry holds the canonical image and its
// actions in the canonical orientation; a probe maps them back to the
// position asked about.
//
// A book file is text, one position a line, so that it can be read, diffed
// and resumed after an interruption:
//
//	# millengine opening book
//	# rules: nine-mens-morris
//	# diff: (none)
//	<canonical FEN> TAB depth <D> TAB <action> <score> [<action> <score> …] [TAB proven <value> keep <action> …]
//
// The last field, where present, is the position's value proven down to the
// endgame tables of the whole moving phase (millengine book prove): win,
// draw or loss for the side to move, and every action that keeps it. In
// play the engine then chooses only among those actions.
//
// "rules" names the rule preset the book was built for and "diff" lists the
// parameters that differ from the defaults (rules.Rules.Diff), so that a
// book answers only under the rules it was searched with. Scores are
// centipawns from the side to move's view (100 = one piece), best first.
package book

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
	"github.com/millengine/millengine/internal/wdl"
)

// Action is a book action with its score from the side to move's view.
type Action struct {
	Move  position.Move
	Score int
}

// Entry is what the book knows of one position: its actions, best first,
// the depth of the search that scored them and, where it was proven, its
// value.
type Entry struct {
	Depth   int
	Actions []Action
	Proof   *Proof // nil: not proven
}

// Proof is a book position's value proven by a search down to the endgame
// tables (internal/solve) and every action that keeps it: a drawn position's
// actions that do not lose, a won one's that still win (a lost position's
// actions all keep its value).
type Proof struct {
	Value solve.Value
	Keep  []position.Move
}

// Keeps reports whether m keeps the proven value.
func (p *Proof) Keeps(m position.Move) bool { return slices.Contains(p.Keep, m) }

// transformed returns a copy of p with its actions mapped by y, or nil for
// nil.
func (p *Proof) transformed(y bb.Symmetry) *Proof {
	out := p.clone()
	out.transform(y)
	return out
}

// transform maps p's actions by y in place; nil is left alone.
func (p *Proof) transform(y bb.Symmetry) {
	if p == nil {
		return
	}
	for i, m := range p.Keep {
		p.Keep[i] = m.Transform(y)
	}
}

// clone returns a copy of p that shares nothing with it, or nil for nil.
func (p *Proof) clone() *Proof {
	if p == nil {
		return nil
	}
	return &Proof{Value: p.Value, Keep: slices.Clone(p.Keep)}
}

// String is the proof as a book line and the engine's book note write it:
// "proven draw keep d6 f4 …".
func (p *Proof) String() string {
	return fmt.Sprintf("proven %s keep %s", p.Value, position.JoinMoves(p.Keep))
}

// Book maps canonical positions to entries, for one rule set. It is held
// in maps (a book read from text, or being built or proven), or read in
// place from its binary form (the shipped book, a binary book file), which
// turns into maps at its first change.
type Book struct {
	Rules   rules.Rules // the rules the book was searched under
	Preset  string      // the preset key the header names ("custom" for none)
	entries map[uint64]Entry
	fens    map[uint64]string // the canonical FEN of each entry, to write the book back
	packed  *packed           // the binary form, when the book is read in place; entries and fens are then nil
}

// New returns an empty book for the rules r (preset names them in the header).
func New(r rules.Rules, preset string) *Book {
	return &Book{Rules: r, Preset: preset, entries: map[uint64]Entry{}, fens: map[uint64]string{}}
}

// Len returns the number of positions in the book.
func (b *Book) Len() int {
	if b.packed != nil {
		return b.packed.n
	}
	return len(b.entries)
}

// key is the exact identity of a position the book can hold: both sets of
// pieces (bits 0–47), the side to move (48), the action (49–50), the phase
// (51–52), the pieces in hand (53–56, 57–60) and whether a removal is
// pending for each side (61, 62). Positions with state a key cannot express
// (marked points, used mills, last-mill squares, stalemate removals, more
// than one pending removal, more than 15 pieces in hand) are never in the
// book; the first plies of the standard games have none of it.
func key(p *position.Position) (uint64, bool) {
	if p.Marked() != 0 || p.FormedMills(position.White)|p.FormedMills(position.Black) != 0 ||
		p.StalemateRemoving() || p.BothStalemateRemoving() || p.IsOver() {
		return 0, false
	}
	k := uint64(p.Pieces(position.White)) | uint64(p.Pieces(position.Black))<<24
	k |= uint64(p.SideToMove())<<48 | uint64(p.Action())<<49 | uint64(p.Phase())<<51
	for c := position.White; c <= position.Black; c++ {
		if from, _ := p.LastMill(c); from != bb.NoSquare {
			return 0, false
		}
		pr, hand := p.PendingRemovals(c), p.InHand(c)
		if pr < 0 || pr > 1 || hand > 15 {
			return 0, false
		}
		k |= uint64(hand)<<(53+4*c) | uint64(pr)<<(61+c)
	}
	return k, true
}

// ply returns the number of actions that lead from the start to the
// position of key k under rules with n pieces per side: every piece placed
// and every piece removed took one.
func ply(k uint64, n int) int {
	placed := 2*n - int(k>>53&15) - int(k>>57&15)
	onBoard := bits.OnesCount64(k & (1<<48 - 1))
	return placed + placed - onBoard
}

// Canonical returns the symmetry that takes p to the canonical image the
// book stores, and that image.
func Canonical(p *position.Position) (bb.Symmetry, position.Position) {
	y := bb.Canonical(p.Pieces(position.White), p.Pieces(position.Black))
	return y, p.Transform(y)
}

// Matches reports whether the book answers under the rules r: every rule
// parameter must be the one the book was searched with.
func (b *Book) Matches(r *rules.Rules) bool {
	return slices.Equal(r.Diff(&b.Rules), nil)
}

// Probe returns the book's entry for p under the rules r, its actions
// mapped to p's orientation, or false when the book does not hold p (or was
// built for other rules).
func (b *Book) Probe(r *rules.Rules, p *position.Position) (Entry, bool) {
	if b == nil || !b.Matches(r) {
		return Entry{}, false
	}
	y, c := Canonical(p)
	k, ok := key(&c)
	if !ok {
		return Entry{}, false
	}
	inv := y.Inverse()
	if b.packed != nil {
		i, ok := b.packed.find(k)
		if !ok {
			return Entry{}, false
		}
		return b.packed.entry(i, inv), true
	}
	e, ok := b.entries[k]
	if !ok {
		return Entry{}, false
	}
	out := Entry{Depth: e.Depth, Actions: make([]Action, len(e.Actions))}
	for i, a := range e.Actions {
		out.Actions[i] = Action{Move: a.Move.Transform(inv), Score: a.Score}
	}
	out.Proof = e.Proof.transformed(inv)
	return out, true
}

// Pick chooses the action to play from an entry: uniformly among the
// actions scored within variety centipawns of the best (variety 0: the best
// only), skipping those not in allowed when allowed is not empty. It returns
// false when no action qualifies.
func Pick(e Entry, variety int, allowed []position.Move, rng *rand.Rand) (Action, bool) {
	var cands []Action
	best := 0
	for _, a := range e.Actions {
		if len(allowed) > 0 && !slices.Contains(allowed, a.Move) {
			continue
		}
		if len(cands) == 0 {
			best = a.Score
		}
		if a.Score >= best-variety {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return Action{}, false
	}
	return cands[rng.IntN(len(cands))], true
}

// Put stores the entry of p (actions in p's orientation, best first); it
// replaces an earlier entry of the same position.
func (b *Book) Put(p *position.Position, e Entry) error {
	_, err := b.put(p, Entry{Depth: e.Depth, Actions: slices.Clone(e.Actions), Proof: e.Proof.clone()})
	return err
}

// put stores e (actions and proof in p's orientation, which it turns in
// place: e must be the caller's own) under p's canonical image and reports
// whether it replaced an entry held there.
func (b *Book) put(p *position.Position, e Entry) (replaced bool, err error) {
	b.thaw()
	y, c := Canonical(p)
	k, ok := key(&c)
	if !ok {
		return false, fmt.Errorf("book: %s cannot be stored (marked points, used mills or similar state)", p.FEN())
	}
	_, replaced = b.entries[k]
	for i := range e.Actions {
		e.Actions[i].Move = e.Actions[i].Move.Transform(y)
	}
	e.Proof.transform(y)
	b.entries[k] = e
	b.fens[k] = c.FEN()
	return replaced, nil
}

// Has reports whether the book holds p.
func (b *Book) Has(p *position.Position) bool {
	_, c := Canonical(p)
	k, ok := key(&c)
	if !ok {
		return false
	}
	if b.packed != nil {
		_, ok = b.packed.find(k)
		return ok
	}
	_, ok = b.entries[k]
	return ok
}

// header is the first line of every book file.
const header = "# millengine opening book"

// WriteHeader writes the header lines of a book for b's rules.
func (b *Book) WriteHeader(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s\n# rules: %s\n# diff: %s\n", header, b.Preset, diffText(&b.Rules))
	return err
}

// Line formats the book line of an entry for the canonical FEN fen.
func Line(fen string, e Entry) string {
	b := make([]byte, 0, 256)
	b = append(b, fen...)
	b = append(b, "\tdepth "...)
	b = strconv.AppendInt(b, int64(e.Depth), 10)
	b = append(b, '\t')
	for i, a := range e.Actions {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, a.Move.String()...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(a.Score), 10)
	}
	if e.Proof != nil {
		b = append(b, '\t')
		b = append(b, e.Proof.String()...)
	}
	return string(b)
}

// Each calls f for every position of the book in file order: by the
// number of actions played to reach it (its ply), then by canonical FEN.
func (b *Book) Each(f func(fen string, ply int, e Entry)) {
	// The sort keys are taken out of the maps once: looked up in each
	// comparison they made a save of a book of 85,000 positions take 0.6 s.
	// A book in the binary form is not changed: its FENs and entries are
	// decoded here, as the maps would hold them.
	type item struct {
		fen string
		ply int
		key uint64
		i   int // the index in the binary form
	}
	n := b.Rules.PiecesCount
	var items []item
	if pk := b.packed; pk != nil {
		items = make([]item, 0, pk.n)
		for i := range pk.n {
			k := pk.key(i)
			r50, fm := pk.counters(i, n)
			items = append(items, item{keyFEN(k, r50, fm), ply(k, n), k, i})
		}
	} else {
		items = make([]item, 0, len(b.entries))
		for k := range b.entries {
			items = append(items, item{b.fens[k], ply(k, n), k, 0})
		}
	}
	slices.SortFunc(items, func(x, y item) int {
		if x.ply != y.ply {
			return x.ply - y.ply
		}
		return strings.Compare(x.fen, y.fen)
	})
	for _, it := range items {
		if b.packed != nil {
			f(it.fen, it.ply, b.packed.entry(it.i, bb.Identity))
		} else {
			f(it.fen, it.ply, b.entries[it.key])
		}
	}
}

// WriteTo writes the whole book: the header, then one line per position in
// the order of Each, so the same book always gives the same file.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	if err := b.WriteHeader(bw); err != nil {
		return cw.n, err
	}
	b.Each(func(fen string, _ int, e Entry) {
		fmt.Fprintln(bw, Line(fen, e))
	})
	err := bw.Flush()
	return cw.n, err
}

// countingWriter counts the bytes written through it (for io.WriterTo).
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Read parses a book file. Every line must be well formed and every action
// legal in its position: a damaged book is refused with the line number,
// not half used. A last line without its newline (a build interrupted while
// writing) is dropped when lenient is true and refused otherwise.
func Read(rd io.Reader, lenient bool) (*Book, error) {
	br := bufio.NewReader(rd)
	var b *Book
	var preset string
	var diffSeen bool
	var r rules.Rules
	var toks []string // the fields of a line, reused: a book is ninety thousand lines
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err == io.EOF && line == "" {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("book: %w", err)
		}
		if err == io.EOF { // a last line without a newline
			if lenient {
				break
			}
			return nil, fmt.Errorf("book: line %d: incomplete (no newline at the end of the file)", n)
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		switch {
		case n == 1:
			if line != header {
				return nil, fmt.Errorf("book: line 1: %q is not a millengine opening book header", trim(line))
			}
			continue
		case strings.HasPrefix(line, "# rules: "):
			preset = strings.TrimPrefix(line, "# rules: ")
			continue
		case strings.HasPrefix(line, "# diff: "):
			var err error
			if r, err = parseDiff(strings.TrimPrefix(line, "# diff: ")); err != nil {
				return nil, fmt.Errorf("book: line %d: %w", n, err)
			}
			diffSeen = true
			b = New(r, preset)
			continue
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
			continue
		}
		if !diffSeen {
			return nil, fmt.Errorf("book: line %d: a position before the rules and diff header lines", n)
		}
		if err := b.parseLine(line, &toks); err != nil {
			return nil, fmt.Errorf("book: line %d: %w", n, err)
		}
	}
	if b == nil {
		return nil, errors.New("book: no rules header (# rules: …, # diff: …)")
	}
	return b, nil
}

// parseDiff rebuilds the rules of a book from its diff line.
func parseDiff(diff string) (rules.Rules, error) {
	r := rules.Default()
	if diff == "(none)" {
		return r, nil
	}
	for _, item := range strings.Fields(diff) {
		name, val, ok := strings.Cut(item, "=")
		prm, found := rules.Lookup(name)
		if !ok || !found {
			return r, fmt.Errorf("diff %q: want Name=value with a rule parameter name", trim(item))
		}
		if err := prm.Set(&r, val); err != nil {
			return r, fmt.Errorf("diff %q: %w", trim(item), err)
		}
	}
	if err := r.Validate(); err != nil {
		return r, fmt.Errorf("diff: %w", err)
	}
	return r, nil
}

// appendFields appends the space-separated fields of s to dst.
func appendFields(dst []string, s string) []string {
	for f := range strings.FieldsSeq(s) {
		dst = append(dst, f)
	}
	return dst
}

// parseLine reads one position line into the book; toks is scratch space
// for its fields.
func (b *Book) parseLine(line string, toks *[]string) error {
	var fields [4]string
	nf, rest := 0, line
	for more := true; more; nf++ {
		var f string
		f, rest, more = strings.Cut(rest, "\t")
		if nf < len(fields) {
			fields[nf] = f
		}
	}
	if nf != 3 && nf != 4 {
		return fmt.Errorf("want FEN, depth, actions and an optional proof separated by tabs, got %d fields", nf)
	}
	fen, depthText, acts := fields[0], fields[1], fields[2]
	p, err := position.ParseFEN(&b.Rules, fen)
	if err != nil {
		return err
	}
	d, ok := strings.CutPrefix(depthText, "depth ")
	depth, err := strconv.Atoi(d)
	if !ok || err != nil || depth < 1 || depth > 255 {
		return fmt.Errorf("%q: want depth 1..255", trim(depthText))
	}
	tk := appendFields((*toks)[:0], acts)
	*toks = tk
	if len(tk) == 0 || len(tk)%2 != 0 {
		return fmt.Errorf("%q: want one or more pairs of action and score", trim(acts))
	}
	// The legal actions are generated once per line, not once per action:
	// a shipped book of ninety thousand lines is read at every start.
	var legal movegen.MoveList
	movegen.Generate(&b.Rules, &p, &legal)
	e := Entry{Depth: depth, Actions: make([]Action, 0, len(tk)/2)}
	for i := 0; i < len(tk); i += 2 {
		m, err := legalAction(&b.Rules, &p, &legal, tk[i])
		if err != nil {
			return err
		}
		sc, err := strconv.Atoi(tk[i+1])
		if err != nil || sc < -32000 || sc > 32000 {
			return fmt.Errorf("score %q of %s: want an integer -32000..32000", trim(tk[i+1]), tk[i])
		}
		if slices.ContainsFunc(e.Actions, func(a Action) bool { return a.Move == m }) {
			return fmt.Errorf("%s is listed twice", tk[i])
		}
		if len(e.Actions) > 0 && sc > e.Actions[len(e.Actions)-1].Score {
			return fmt.Errorf("%s %d: actions must be sorted best first", tk[i], sc)
		}
		e.Actions = append(e.Actions, Action{Move: m, Score: sc})
	}
	if nf == 4 {
		if e.Proof, err = parseProof(fields[3], &b.Rules, &p, &legal, toks); err != nil {
			return err
		}
	}
	// A repeated position fails the whole read (Read returns no book), so
	// the entry it replaced does not matter.
	replaced, err := b.put(&p, e)
	if err == nil && replaced {
		err = fmt.Errorf("%s: the position (or a symmetric image) is listed twice", fen)
	}
	return err
}

// parseProof reads a line's proof field, "proven <win|draw|loss> keep
// <action> …": the kept actions legal in p (whose legal actions are legal)
// and listed once each. scratch is space for its fields.
func parseProof(text string, r *rules.Rules, p *position.Position, legal *movegen.MoveList, scratch *[]string) (*Proof, error) {
	toks := appendFields((*scratch)[:0], text)
	*scratch = toks
	if len(toks) < 4 || toks[0] != "proven" || toks[2] != "keep" {
		return nil, fmt.Errorf("%q: want \"proven <win|draw|loss> keep <action> …\"", trim(text))
	}
	v, ok := wdl.Parse(toks[1])
	if !ok {
		return nil, fmt.Errorf("proven %q: want win, draw or loss", trim(toks[1]))
	}
	pr := &Proof{Value: v, Keep: make([]position.Move, 0, len(toks)-3)}
	for _, tok := range toks[3:] {
		m, err := legalAction(r, p, legal, tok)
		if err != nil {
			return nil, fmt.Errorf("proven: %w", err)
		}
		if pr.Keeps(m) {
			return nil, fmt.Errorf("proven: %s is kept twice", tok)
		}
		pr.Keep = append(pr.Keep, m)
	}
	return pr, nil
}

// legalAction reads an action token of p, whose legal actions are legal:
// an illegal one is refused with movegen's reason.
func legalAction(r *rules.Rules, p *position.Position, legal *movegen.MoveList, tok string) (position.Move, error) {
	m, err := position.ParseMove(tok)
	if err == nil && !legal.Contains(m) {
		_, err = movegen.ParseLegal(r, p, tok) // says why not
	}
	return m, err
}

// trim shortens a quoted piece of bad input for an error message.
func trim(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Open reads the book file at path, text or binary form (strictly: a
// damaged file is refused).
func Open(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	if IsBinary(data) {
		return ReadBinary(data)
	}
	return Read(bytes.NewReader(data), false)
}
