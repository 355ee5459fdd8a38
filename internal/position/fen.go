package position

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/rules"
)

// StartFEN is the FEN of the start position of Nine Men's Morris.
const StartFEN = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"

// Extension tokens after the 17 FEN fields.
const (
	extIDs                   = "ids:nodes"               // squares numbered 0–23, -1 for none
	extStalemateRemoving     = "stalemate-removing"      // StalemateAction 2 removal in progress
	extBothStalemateRemoving = "both-stalemate-removing" // StalemateAction 5 removals in progress
)

var fieldNames = [...]string{
	"", "board", "side to move", "phase", "action",
	"white on board", "white in hand", "black on board", "black in hand",
	"white removals", "black removals",
	"white mill from", "white mill to", "black mill from", "black mill to",
	"used mills", "rule50", "fullmove",
}

func fieldErr(n int, val string, format string, args ...any) error {
	return fmt.Errorf("fen field %d (%s) %q: %s", n, fieldNames[n], val, fmt.Sprintf(format, args...))
}

// PointChar returns the FEN character of the point s: O white, @ black,
// X marked, * empty.
func (p *Position) PointChar(s bb.Square) byte {
	return pointChar(s, p.pieces[White], p.pieces[Black], p.marked)
}

// pointChar is the FEN character of the point s for the given sets.
func pointChar(s bb.Square, white, black, marked bb.Bitboard) byte {
	switch {
	case white.Has(s):
		return 'O'
	case black.Has(s):
		return '@'
	case marked.Has(s):
		return 'X'
	}
	return '*'
}

// AppendBoard appends the board field of a FEN (rules.md §5) for the given
// sets: three rings of eight points, O white, @ black, X marked, * empty.
// The endgame tables and tests write FENs of bare piece sets with it.
func AppendBoard(b []byte, white, black, marked bb.Bitboard) []byte {
	for s := bb.Square(0); s < bb.NumSquares; s++ {
		if s > 0 && s%8 == 0 {
			b = append(b, '/')
		}
		b = append(b, pointChar(s, white, black, marked))
	}
	return b
}

// FEN returns the position string (rules.md §5) with Sanmill square numbers.
func (p *Position) FEN() string {
	buf := AppendBoard(make([]byte, 0, 96), p.pieces[White], p.pieces[Black], p.marked)
	buf = append(buf, ' ', "wb"[p.side], ' ', "pmo"[p.phase], ' ', "psr"[p.action])
	// The numbers are appended with strconv rather than fmt: book loading
	// writes a FEN per position, and fmt was a sixth of its time.
	num := func(n int) { buf = strconv.AppendInt(append(buf, ' '), int64(n), 10) }
	sq := func(s bb.Square) {
		if s == bb.NoSquare {
			num(0)
		} else {
			num(s.Sanmill())
		}
	}
	num(p.pieces[White].Count())
	num(int(p.inHand[White]))
	num(p.pieces[Black].Count())
	num(int(p.inHand[Black]))
	num(int(p.pending[White])) // negative: own pieces to remove
	num(int(p.pending[Black]))
	sq(p.millFrom[White])
	sq(p.millTo[White])
	sq(p.millFrom[Black])
	sq(p.millTo[Black])
	// The used mills take up to 64 bits: unsigned.
	mills := uint64(p.formed[White])<<(32+bb.SanmillOffset) | uint64(p.formed[Black])<<bb.SanmillOffset
	buf = strconv.AppendUint(append(buf, ' '), mills, 10)
	num(int(p.nMoves))
	num(p.FullMove())
	if p.flags&flagStalemateRemoving != 0 {
		buf = append(buf, " "+extStalemateRemoving...)
	}
	if p.flags&flagBothStalemateRemoving != 0 {
		buf = append(buf, " "+extBothStalemateRemoving...)
	}
	return string(buf)
}

// ParseFEN reads a position string for the given rules. Both square dialects
// are accepted (Sanmill's 8–31, or 0–23 when the string ends with ids:nodes).
// An inconsistent string is rejected with an error naming the field.
func ParseFEN(r *rules.Rules, fen string) (Position, error) {
	fp := fenParser{r: r}
	if err := fp.split(fen); err != nil {
		return Position{}, err
	}
	p := &fp.p
	p.millFrom = [2]bb.Square{bb.NoSquare, bb.NoSquare}
	p.millTo = [2]bb.Square{bb.NoSquare, bb.NoSquare}
	for _, step := range []func() error{
		fp.board, fp.sidePhaseAction, fp.counts, fp.lastMills, fp.usedMills, fp.counters,
		fp.consistency, fp.removals, fp.nMoveCounter, fp.extensions,
	} {
		if err := step(); err != nil {
			return *p, err
		}
	}
	p.key = p.baseKey()
	if p.phase == GameOver {
		p.result, p.reason = p.deriveResult(r)
		if p.reason == UnknownReason {
			return *p, fieldErr(3, fp.f[2], "the game is not over by any rule the position shows (a draw by repetition needs the moves that led to it)")
		}
		return *p, nil
	}
	if !p.fewerPieces(r, White) && !p.checkGameOver(r) {
		// The last slide reached the N-move rule (a block takes precedence,
		// as Game.Play applies it).
		if why := p.NMoveDraw(r); why != NoReason {
			p.SetGameOver(Draw, why)
		}
	}
	return *p, nil
}

// fenParser reads the fields of a position string into p, one group of
// fields per method, in the order of rules.md §5.
type fenParser struct {
	r     *rules.Rules
	f     []string // the 17 fields
	ids   bool     // squares are numbered 0–23 (ids:nodes)
	flags uint8    // flags from the extension tokens
	p     Position
}

// split separates the 17 fields from the extension tokens after them.
func (fp *fenParser) split(fen string) error {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return errors.New("fen: empty position string")
	}
	for len(f) > 17 {
		ext := f[len(f)-1]
		switch ext {
		case extIDs:
			fp.ids = true
		case extStalemateRemoving:
			fp.flags |= flagStalemateRemoving
		case extBothStalemateRemoving:
			fp.flags |= flagBothStalemateRemoving
		default:
			return fmt.Errorf("fen: unknown extension token %q after the 17 fields", ext)
		}
		f = f[:len(f)-1]
	}
	if len(f) < 17 {
		n := len(f) + 1
		return fmt.Errorf("fen field %d (%s) is missing: a position string has 17 fields, got %d", n, fieldNames[n], len(f))
	}
	fp.f = f
	return nil
}

// board reads field 1.
func (fp *fenParser) board() error {
	p, f := &fp.p, fp.f
	rings := strings.Split(f[0], "/")
	if len(rings) != 3 {
		return fieldErr(1, f[0], "want three rings of 8 points separated by '/', got %d", len(rings))
	}
	for ri, ring := range rings {
		if len(ring) != 8 {
			return fieldErr(1, f[0], "ring %d has %d points, want 8", ri+1, len(ring))
		}
		for i := 0; i < 8; i++ {
			s := bb.Square(ri*8 + i)
			switch ring[i] {
			case 'O':
				p.pieces[White] |= bb.Bit(s)
			case '@':
				p.pieces[Black] |= bb.Bit(s)
			case 'X':
				p.marked |= bb.Bit(s)
			case '*':
			default:
				return fieldErr(1, f[0], "unknown character %q at %s (want O, @, * or X)", ring[i], s)
			}
		}
	}
	if p.marked != 0 && fp.r.MillFormationActionInPlacingPhase != rules.MillMarkAndDelay {
		return fieldErr(1, f[0], "marked points (X) exist only with MillFormationActionInPlacingPhase 4")
	}
	return nil
}

// sidePhaseAction reads fields 2–4.
func (fp *fenParser) sidePhaseAction() error {
	p, f := &fp.p, fp.f
	switch f[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fieldErr(2, f[1], "want w or b")
	}
	switch f[2] {
	case "r", "p":
		p.phase = Placing
	case "m":
		p.phase = Moving
	case "o":
		p.phase = GameOver
	default:
		return fieldErr(3, f[2], "want r, p, m or o")
	}
	switch f[3] {
	case "p":
		p.action = Place
	case "s":
		p.action = Select
	case "r":
		p.action = Remove
	default:
		return fieldErr(4, f[3], "want p, s or r")
	}
	return nil
}

// counts reads fields 5–10: pieces on board and in hand, pending removals.
func (fp *fenParser) counts() error {
	p, f, r := &fp.p, fp.f, fp.r
	var n [6]int
	for i := range n {
		v, err := strconv.Atoi(f[4+i])
		if err != nil {
			return fieldErr(5+i, f[4+i], "not an integer")
		}
		n[i] = v
	}
	for c, on := range [2]int{n[0], n[2]} {
		fi := 5 + 2*c
		if on != p.pieces[c].Count() {
			return fieldErr(fi, f[fi-1], "the board has %d %s pieces", p.pieces[c].Count(), Color(c))
		}
		hand := n[1+2*c]
		if hand < 0 || hand > r.PiecesCount {
			return fieldErr(fi+1, f[fi], "out of range 0..%d", r.PiecesCount)
		}
		if on+hand > r.PiecesCount {
			return fieldErr(fi+1, f[fi], "%d on board and %d in hand exceed PiecesCount %d", on, hand, r.PiecesCount)
		}
		p.inHand[c] = int8(hand)
	}
	for c := 0; c < 2; c++ {
		v := n[4+c]
		if v < -r.PiecesCount || v > r.PiecesCount {
			return fieldErr(9+c, f[8+c], "out of range %d..%d", -r.PiecesCount, r.PiecesCount)
		}
		if v < 0 && r.MillFormationActionInPlacingPhase != rules.MillRemovalByMillCountsLate {
			return fieldErr(9+c, f[8+c], "negative removals exist only with MillFormationActionInPlacingPhase 5")
		}
		p.pending[c] = int8(v)
	}
	return nil
}

// lastMills reads fields 11–14, the squares of each side's last mill slide.
func (fp *fenParser) lastMills() error {
	p, f, ids := &fp.p, fp.f, fp.ids
	for i := 0; i < 4; i++ {
		v, err := strconv.Atoi(f[10+i])
		if err != nil {
			return fieldErr(11+i, f[10+i], "not an integer")
		}
		s := bb.NoSquare
		switch {
		case ids && v == -1, !ids && v == 0:
		case ids && v >= 0 && v < bb.NumSquares:
			s = bb.Square(v)
		case !ids:
			q, ok := bb.FromSanmill(v)
			if !ok {
				return fieldErr(11+i, f[10+i], "want 0 (none) or a square number 8..31")
			}
			s = q
		default:
			return fieldErr(11+i, f[10+i], "want -1 (none) or a square number 0..23")
		}
		if i%2 == 0 {
			p.millFrom[i/2] = s
		} else {
			p.millTo[i/2] = s
		}
	}
	for c := 0; c < 2; c++ {
		if (p.millFrom[c] == bb.NoSquare) != (p.millTo[c] == bb.NoSquare) {
			return fieldErr(12+2*c, f[11+2*c], "a last mill has both an origin and a destination, or neither")
		}
		if p.millFrom[c] != bb.NoSquare && !fp.r.RestrictRepeatedMillsFormation {
			return fieldErr(11+2*c, f[10+2*c], "last mill squares are kept only with RestrictRepeatedMillsFormation")
		}
	}
	return nil
}

// usedMills reads field 15, the lines each side has used (OneTimeUseMill).
func (fp *fenParser) usedMills() error {
	p, f := &fp.p, fp.f
	mills, err := strconv.ParseUint(f[14], 10, 64)
	if err != nil {
		return fieldErr(15, f[14], "not an unsigned integer")
	}
	shift := uint(bb.SanmillOffset)
	if fp.ids {
		shift = 0
	}
	for c := 0; c < 2; c++ {
		half := uint32(mills >> (32 * uint(1-c)))
		if half&^(uint32(bb.Full)<<shift) != 0 {
			return fieldErr(15, f[14], "%s bits outside the board's squares", Color(c))
		}
		p.formed[c] = bb.Bitboard(half >> shift)
	}
	if mills != 0 && !fp.r.OneTimeUseMill {
		return fieldErr(15, f[14], "used mills are kept only with OneTimeUseMill")
	}
	return nil
}

// counters reads fields 16–17: plies since the last placement or removal,
// and the full-move number.
func (fp *fenParser) counters() error {
	p, f := &fp.p, fp.f
	r50, err := strconv.Atoi(f[15])
	if err != nil || r50 < 0 || r50 > 65535 {
		return fieldErr(16, f[15], "want an integer 0..65535")
	}
	p.nMoves = uint16(r50)
	fm, err := strconv.Atoi(f[16])
	if err != nil || fm < 1 || fm > 1<<24 {
		return fieldErr(17, f[16], "want an integer 1..16777216")
	}
	p.ply = int32(2*(fm-1)) + int32(p.side)
	return nil
}

// consistency checks that the action, phase, hands and pending removals of
// a game in progress fit together.
func (fp *fenParser) consistency() error {
	p, f, r := &fp.p, fp.f, fp.r
	if p.phase == GameOver {
		return nil
	}
	us, them := p.side, p.side^1
	switch p.action {
	case Remove:
		if p.pending[us] == 0 {
			return fieldErr(4, f[3], "the side to move has no removal pending")
		}
	case Place:
		if p.pending[us] != 0 {
			return fieldErr(4, f[3], "a removal is pending, the action must be r")
		}
		if p.phase != Placing || p.inHand[us] == 0 {
			return fieldErr(4, f[3], "placing needs phase p and pieces in hand")
		}
	case Select:
		if p.pending[us] != 0 {
			return fieldErr(4, f[3], "a removal is pending, the action must be r")
		}
		if p.phase != Moving {
			return fieldErr(4, f[3], "action s needs phase m")
		}
	}
	if p.phase == Moving && p.inHand[us] > 0 {
		return fieldErr(3, f[2], "the side to move has pieces in hand, the phase is p")
	}
	if p.pending[them] != 0 {
		if p.pending[us] == 0 {
			return fieldErr(9+int(them), f[8+int(them)], "a removal is pending for the side not to move")
		}
		both := r.MillFormationActionInPlacingPhase == rules.MillRemovalByMillCountsLate ||
			r.StalemateAction == rules.StalemateBothRemove ||
			(r.PiecesCount == 12 && (r.BoardFullAction == rules.BoardFullFirstThenSecond || r.BoardFullAction == rules.BoardFullSecondThenFirst))
		if !both {
			return fieldErr(9+int(them), f[8+int(them)], "a removal is pending for the side not to move")
		}
	}
	return nil
}

// removals checks the pending removals against what the rules can give at
// once and against the pieces there are to remove.
func (fp *fenParser) removals() error {
	p, f, r := &fp.p, fp.f, fp.r
	most := maxPending(r)
	for c := Color(0); c < 2; c++ {
		n := int(p.pending[c])
		if n == 0 {
			continue
		}
		if n > most {
			return fieldErr(9+int(c), f[8+c], "%d removals pending; the rules allow at most %d", n, most)
		}
		victim := c ^ 1
		if n < 0 {
			victim = c
		}
		if p.phase != GameOver && p.pieces[victim] == 0 {
			return fieldErr(9+int(c), f[8+c], "a removal is pending but %s has no piece on the board", victim)
		}
	}
	return nil
}

// maxPending is the most removals a side can have pending: one per action,
// as many as the mills one piece closes with MayRemoveMultiple, and up to
// the mills on the board (plus one) when MillFormationActionInPlacingPhase 5
// counts them at the end of placing.
func maxPending(r *rules.Rules) int {
	t := r.Topology()
	switch {
	case r.MillFormationActionInPlacingPhase == rules.MillRemovalByMillCountsLate:
		return len(t.Lines) + 1
	case r.MayRemoveMultiple:
		most := 1
		for s := bb.Square(0); s < bb.NumSquares; s++ {
			most = max(most, int(t.NumLines[s]))
		}
		return most
	}
	return 1
}

// nMoveCounter refuses a counter past the N-move rule that applies: the
// game would have ended when it reached it. A counter at the rule is a draw,
// which ParseFEN applies once the position is complete.
func (fp *fenParser) nMoveCounter() error {
	p, f, r := &fp.p, fp.f, fp.r
	if limit, why := p.NMoveLimit(r); int(p.nMoves) > limit {
		return fieldErr(16, f[15], "%d plies without a placement or removal: past the %s (%d)", p.nMoves, why, limit)
	}
	return nil
}

// extensions checks the stalemate-removal extension tokens against the rules
// and the position, and sets their flags.
func (fp *fenParser) extensions() error {
	p, f, r := &fp.p, fp.f, fp.r
	them := p.side ^ 1
	if fp.flags&flagStalemateRemoving != 0 {
		switch {
		case r.StalemateAction != rules.StalemateRemoveAndMove || p.action != Remove:
			return fmt.Errorf("fen: %s needs StalemateAction 2 and a pending removal", extStalemateRemoving)
		case p.phase == Placing:
			// Only a blocked side in the moving phase removes this way.
			return fieldErr(3, f[2], "a %s happens only in the moving phase", extStalemateRemoving)
		case p.pending[them] != 0:
			// The remover moves again afterwards: the opponent's removal would be stranded.
			return fieldErr(9+int(them), f[8+int(them)], "no removal can be pending for the side not to move during a %s", extStalemateRemoving)
		}
	}
	if fp.flags&flagBothStalemateRemoving != 0 && (r.StalemateAction != rules.StalemateBothRemove || p.action != Remove) {
		return fmt.Errorf("fen: %s needs StalemateAction 5 and a pending removal", extBothStalemateRemoving)
	}
	p.flags = fp.flags
	return nil
}

// deriveResult works out who won a position that a FEN says is over.
func (p *Position) deriveResult(r *rules.Rules) (Result, Reason) {
	for c := Color(0); c < 2; c++ {
		if p.tooFew(r, c) {
			return Winner(c ^ 1), FewerPieces
		}
	}
	if r.PiecesCount == 12 && p.pieces[0].Count()+p.pieces[1].Count() >= bb.NumSquares {
		if res, ok := boardFullEnd(r); ok {
			return res, BoardFull
		}
	}
	if p.inHand[p.side] == 0 && p.pending[p.side] == 0 && p.AllSurrounded(r, p.side) {
		if res, why, ok := stalemateEnd(r, p.side); ok {
			return res, why
		}
	}
	if why := p.NMoveDraw(r); why != NoReason {
		return Draw, why
	}
	return Draw, UnknownReason
}
