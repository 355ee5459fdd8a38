package position

import (
	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/rules"
)

// Flag bits of Position.flags.
const (
	flagStalemateRemoving     = 1 << 0 // StalemateAction 2: after the removal the same side moves again
	flagBothStalemateRemoving = 1 << 1 // StalemateAction 5: both sides remove next to their pieces
)

// Position is the complete state of a game at one moment. It holds no
// pointers; copying it is the way to keep a state.
type Position struct {
	pieces   [2]bb.Bitboard // pieces of each colour, marked points excluded
	marked   bb.Bitboard    // points of removed pieces while placing (MillFormationActionInPlacingPhase 4)
	formed   [2]bb.Bitboard // OneTimeUseMill: the union of the lines each side has used
	key      uint32         // Zobrist key without the phase term
	ply      int32          // actions played since the start (FEN fullmove is derived from it)
	nMoves   uint16         // the N-move counter: plies since the last placement or removal
	inHand   [2]int8
	pending  [2]int8      // removals pending per side; negative: remove own pieces
	millFrom [2]bb.Square // RestrictRepeatedMillsFormation: origin of the last mill-closing slide
	millTo   [2]bb.Square // … and its destination
	side     Color
	phase    Phase
	action   Action
	flags    uint8
	result   Result
	reason   Reason
}

// New returns the start position of the given rules.
func New(r *rules.Rules) Position {
	return newBoard(0, 0, r.PiecesCount, r.PiecesCount, White, Placing, Place)
}

// NewMoving returns the moving-phase position with white's and black's pieces
// on the board, none in hand, no removal pending, side to move (to select a
// piece), the counters at zero: the position ParseFEN reads from
// "<board> <side> m s <n> 0 <n> 0 0 0 0 0 0 0 0 0 1", the end of the game
// included (a side with too few pieces, a blocked side to move). It is how
// the endgame tables' checks build their positions without a FEN.
func NewMoving(r *rules.Rules, white, black bb.Bitboard, side Color) Position {
	p := newBoard(white, black, 0, 0, side, Moving, Select)
	if !p.fewerPieces(r, White) {
		p.checkGameOver(r)
	}
	return p
}

// newBoard is the position of the pieces and hands given, side to move in
// phase and action, nothing pending, the counters at zero.
func newBoard(white, black bb.Bitboard, whiteHand, blackHand int, side Color, phase Phase, action Action) Position {
	p := Position{
		pieces:   [2]bb.Bitboard{white, black},
		inHand:   [2]int8{int8(whiteHand), int8(blackHand)},
		millFrom: [2]bb.Square{bb.NoSquare, bb.NoSquare},
		millTo:   [2]bb.Square{bb.NoSquare, bb.NoSquare},
		side:     side,
		phase:    phase,
		action:   action,
		ply:      int32(side),
	}
	p.key = p.baseKey()
	return p
}

// NewPlacing returns the placing-phase position with white's and black's
// pieces on the board and whiteHand and blackHand pieces in hand, side to
// move (to place; it must hold a piece in hand), no removal pending, the
// counters at zero: the position ParseFEN reads from "<board> <side> p p
// <n> <whiteHand> <n> <blackHand> 0 0 0 0 0 0 0 0 1". It is how the placing
// tables' checks build their positions without a FEN.
func NewPlacing(white, black bb.Bitboard, whiteHand, blackHand int, side Color) Position {
	return newBoard(white, black, whiteHand, blackHand, side, Placing, Place)
}

// Signature returns the position as one 64-bit word, for the
// transposition table to check an entry against the exact position while
// the 32-bit Key only picks its bucket: white's pieces (bits 0–23), black's
// (24–47), the hands (4 bits each from 48), the side to move (56) and the
// pending removals (3 bits each, two's complement, from 57). That is the
// whole position where the rules keep nothing else; where they do (marked
// points, used mills, the last mill of each side, a stalemate removal) the
// top bit is set and the Key of that state is folded into the hands' and
// removals' bits, so those positions are told apart as well as by the key.
func (p *Position) Signature() uint64 {
	s := uint64(p.pieces[White]) | uint64(p.pieces[Black])<<24 |
		uint64(p.inHand[White]&15)<<48 | uint64(p.inHand[Black]&15)<<52 |
		uint64(p.side)<<56 | uint64(uint8(p.pending[White])&7)<<57 | uint64(uint8(p.pending[Black])&7)<<60
	if p.marked|p.formed[White]|p.formed[Black] != 0 || p.flags != 0 ||
		p.millFrom != [2]bb.Square{bb.NoSquare, bb.NoSquare} || p.millTo != [2]bb.Square{bb.NoSquare, bb.NoSquare} {
		s ^= uint64(p.key)<<31 | 1<<63
	}
	return s
}

// SideToMove returns the side whose action is next.
func (p *Position) SideToMove() Color { return p.side }

// Phase returns the phase of the side to move, or GameOver.
func (p *Position) Phase() Phase { return p.phase }

// Action returns what the side to move does next.
func (p *Position) Action() Action { return p.action }

// Pieces returns the points holding pieces of c (marked points excluded).
func (p *Position) Pieces(c Color) bb.Bitboard { return p.pieces[c] }

// Marked returns the marked points (removed pieces that still block their point).
func (p *Position) Marked() bb.Bitboard { return p.marked }

// FormedMills returns the union of the lines c has used (OneTimeUseMill).
func (p *Position) FormedMills(c Color) bb.Bitboard { return p.formed[c] }

// LastMill returns the origin and destination of c's last mill-closing slide
// (RestrictRepeatedMillsFormation), or NoSquare.
func (p *Position) LastMill(c Color) (from, to bb.Square) { return p.millFrom[c], p.millTo[c] }

// Occupied returns every point that is not empty.
func (p *Position) Occupied() bb.Bitboard { return p.pieces[0] | p.pieces[1] | p.marked }

// Empty returns the empty points.
func (p *Position) Empty() bb.Bitboard { return bb.Full &^ p.Occupied() }

// OnBoard returns the number of pieces of c on the board.
func (p *Position) OnBoard(c Color) int { return p.pieces[c].Count() }

// InHand returns the number of pieces c has still to place.
func (p *Position) InHand(c Color) int { return int(p.inHand[c]) }

// PendingRemovals returns c's pending removals; negative means c must remove
// its own pieces (MillFormationActionInPlacingPhase 5).
func (p *Position) PendingRemovals(c Color) int { return int(p.pending[c]) }

// Key returns the 32-bit Zobrist key of the position.
func (p *Position) Key() uint32 { return p.key ^ zPhase[p.phase] }

// NMoveCounter returns the N-move counter: the plies played since the last
// placement or removal (the FEN calls it rule50).
func (p *Position) NMoveCounter() int { return int(p.nMoves) }

// Ply returns the number of actions played since the start.
func (p *Position) Ply() int { return int(p.ply) }

// FullMove returns the FEN full-move number.
func (p *Position) FullMove() int {
	b := int32(0)
	if p.side == Black {
		b = 1
	}
	return 1 + int((p.ply-b)/2)
}

// IsOver reports whether the game has ended.
func (p *Position) IsOver() bool { return p.phase == GameOver }

// Result returns the outcome and its reason (Ongoing, NoReason while playing).
func (p *Position) Result() (Result, Reason) { return p.result, p.reason }

// StalemateRemoving reports whether the side to move removes because it was
// blocked and will move again afterwards (StalemateAction 2).
func (p *Position) StalemateRemoving() bool { return p.flags&flagStalemateRemoving != 0 }

// BothStalemateRemoving reports whether both sides remove after a block
// (StalemateAction 5).
func (p *Position) BothStalemateRemoving() bool { return p.flags&flagBothStalemateRemoving != 0 }

// SetGameOver ends the game with the given result. Do uses it for the rules
// a position decides alone; Game uses it for the draw rules that need history.
func (p *Position) SetGameOver(res Result, why Reason) {
	p.phase = GameOver
	p.result = res
	p.reason = why
}

// CanFly reports whether c moves by flying (to any empty point) rather than
// sliding: flying is allowed, c has nothing left in hand and at most
// FlyPieceCount pieces on the board. It is the one home of the rule; movegen,
// the move picker and the evaluation all ask here.
func (p *Position) CanFly(r *rules.Rules, c Color) bool {
	return r.MayFly && p.inHand[c] == 0 && p.pieces[c].Count() <= r.FlyPieceCount
}

// NMoveDraw returns the N-move rule that draws the position, or NoReason:
// NMoveRule plies without a placement or removal, or EndgameNMoveRule plies
// (when smaller) once a side is down to three pieces with both hands empty.
// Game applies it after every slide, the search at every node reached by one.
func (p *Position) NMoveDraw(r *rules.Rules) Reason {
	if limit, why := p.NMoveLimit(r); int(p.nMoves) >= limit {
		return why
	}
	return NoReason
}

// NMoveLimit returns the N-move rule that applies to the position and its
// number of plies: EndgameNMoveRule when it is smaller and a side is down to
// three pieces with both hands empty, else NMoveRule. The game is drawn when
// NMoveCounter reaches it.
func (p *Position) NMoveLimit(r *rules.Rules) (int, Reason) {
	if r.EndgameNMoveRule < r.NMoveRule &&
		(p.pieces[White].Count() == 3 || p.pieces[Black].Count() == 3) && p.inHand[White] == 0 && p.inHand[Black] == 0 {
		return r.EndgameNMoveRule, EndgameNMoveRule
	}
	return r.NMoveRule, NMoveRule
}

// NMoveBudget returns the plies left before the N-move rule that applies
// (NMoveLimit) draws the game: what a table's distance to the next removal
// must fit in (egtb.Entry.FitsRule).
func (p *Position) NMoveBudget(r *rules.Rules) int {
	limit, _ := p.NMoveLimit(r)
	return limit - int(p.nMoves)
}

// Do plays move m, which must be legal in p (generated by movegen or checked
// by it). Sign, side and phase changes follow the rules exactly.
func (p *Position) Do(r *rules.Rules, m Move) {
	t := r.Topology()
	switch m.Kind() {
	case KindPlace:
		p.place(r, t, m.To())
		p.nMoves = 0
	case KindSlide:
		p.slide(r, t, m.From(), m.To())
		p.nMoves++
	case KindRemove:
		p.remove(r, t, m.To())
		p.nMoves = 0
	}
	p.ply++
}

func (p *Position) setHand(c Color, n int8) {
	p.key ^= zHand[c][p.inHand[c]] ^ zHand[c][n]
	p.inHand[c] = n
}

func (p *Position) setPending(c Color, n int8) {
	p.key ^= zPending[c][int(p.pending[c])+pendingOffset] ^ zPending[c][int(n)+pendingOffset]
	p.pending[c] = n
}

func (p *Position) setFlag(f uint8, on bool) {
	if (p.flags&f != 0) == on {
		return
	}
	p.flags ^= f
	for i := 0; i < 8; i++ {
		if f&(1<<i) != 0 {
			p.key ^= zFlag[i]
		}
	}
}

func (p *Position) setLastMill(c Color, from, to bb.Square) {
	if p.millFrom[c] != bb.NoSquare {
		p.key ^= zMillFrom[c][p.millFrom[c]]
	}
	if p.millTo[c] != bb.NoSquare {
		p.key ^= zMillTo[c][p.millTo[c]]
	}
	p.millFrom[c], p.millTo[c] = from, to
	if from != bb.NoSquare {
		p.key ^= zMillFrom[c][from]
	}
	if to != bb.NoSquare {
		p.key ^= zMillTo[c][to]
	}
}

// setSide gives the turn to c and derives phase and action from c's hand and
// pending removals.
func (p *Position) setSide(c Color) {
	if p.side != c {
		p.side = c
		p.key ^= zSide
	}
	if p.inHand[c] == 0 {
		p.phase, p.action = Moving, Select
	} else {
		p.phase, p.action = Placing, Place
	}
	if p.pending[c] != 0 {
		p.action = Remove
	}
}

func (p *Position) changeSide() { p.setSide(p.side ^ 1) }
func (p *Position) keepSide()   { p.setSide(p.side) }

// fewerPieces ends the game if a side, first then the other, has fewer than
// PiecesAtLeastCount pieces on board and in hand. Removals from the board
// check this in remove; it is needed too where a hand shrinks
// (MillFormationActionInPlacingPhase 1 and 2, StopPlacingWhenTwoEmptySquares).
func (p *Position) fewerPieces(r *rules.Rules, first Color) bool {
	for _, c := range [2]Color{first, first ^ 1} {
		if p.tooFew(r, c) {
			p.SetGameOver(Winner(c^1), FewerPieces)
			return true
		}
	}
	return false
}

// tooFew reports whether c has fewer than PiecesAtLeastCount pieces on board
// and in hand.
func (p *Position) tooFew(r *rules.Rules, c Color) bool {
	return p.pieces[c].Count()+int(p.inHand[c]) < r.PiecesAtLeastCount
}

// millsFormed counts the mills that the piece of c just put on s closes. With
// OneTimeUseMill only lines c has not used yet count, and they become used.
func (p *Position) millsFormed(r *rules.Rules, t *bb.Topology, s bb.Square, c Color) int {
	if !r.OneTimeUseMill {
		return t.MillsAt(s, p.pieces[c])
	}
	n := 0
	for k := uint8(0); k < t.NumLines[s]; k++ {
		part := t.Partners[s][k]
		if p.pieces[c]&part != part {
			continue
		}
		line := part | bb.Bit(s)
		if p.formed[c]&line == line {
			continue
		}
		for nb := line &^ p.formed[c]; nb != 0; {
			p.key ^= zFormed[c][nb.PopFirst()]
		}
		p.formed[c] |= line
		n++
	}
	return n
}

// potentialMills counts the lines through s that c would complete with a
// piece on s, with the piece on 'without' (if any) taken away. With
// OneTimeUseMill lines already used by the side to move do not count.
func (p *Position) potentialMills(r *rules.Rules, t *bb.Topology, s bb.Square, c Color, without bb.Square) int {
	own := p.pieces[c]
	if without != bb.NoSquare {
		own &^= bb.Bit(without)
	}
	n := 0
	for k := uint8(0); k < t.NumLines[s]; k++ {
		part := t.Partners[s][k]
		if own&part != part {
			continue
		}
		if r.OneTimeUseMill {
			line := part | bb.Bit(s)
			if p.formed[p.side]&line == line {
				continue
			}
		}
		n++
	}
	return n
}

// IsRepeatedMill reports whether sliding from→to is forbidden by
// RestrictRepeatedMillsFormation: the piece that closed the side's last mill
// by moving X→Y may not go straight back Y→X to close a mill there while it
// stands in a mill on Y.
func (p *Position) IsRepeatedMill(r *rules.Rules, from, to bb.Square) bool {
	if !r.RestrictRepeatedMillsFormation {
		return false
	}
	us := p.side
	if p.millTo[us] != from || p.millFrom[us] != to {
		return false
	}
	t := r.Topology()
	return p.potentialMills(r, t, from, us, bb.NoSquare) > 0 && p.potentialMills(r, t, to, us, from) > 0
}

// AllSurrounded reports whether c has no slide: the board is full, or c cannot
// fly and every neighbour of every piece of c is occupied.
func (p *Position) AllSurrounded(r *rules.Rules, c Color) bool {
	if p.pieces[0].Count()+p.pieces[1].Count() >= bb.NumSquares {
		return true
	}
	if p.CanFly(r, c) {
		return false
	}
	t := r.Topology()
	free := bb.Full &^ p.Occupied()
	for b := p.pieces[c]; b != 0; {
		if t.Adjacent[b.PopFirst()]&free != 0 {
			return false
		}
	}
	return true
}

// IsStalemateRemoval reports whether the pending removal is one made because a
// side was blocked (or the board filled): such a removal must take a piece
// next to one of the remover's own, and mill protection does not apply.
func (p *Position) IsStalemateRemoval(r *rules.Rules) bool {
	if p.boardFullRemovalAtPlacingEnd(r) {
		return true
	}
	if p.flags&flagBothStalemateRemoving != 0 {
		return true
	}
	if r.StalemateAction != rules.StalemateRemoveAndMove && r.StalemateAction != rules.StalemateRemoveAndPass {
		return false
	}
	if p.flags&flagStalemateRemoving != 0 {
		return true
	}
	// Blocking is checked only in the moving phase: a removal pending while
	// the side still places comes from a mill.
	return p.inHand[p.side] == 0 && p.AllSurrounded(r, p.side)
}

func (p *Position) boardFullRemovalAtPlacingEnd(r *rules.Rules) bool {
	return r.PiecesCount == 12 &&
		r.BoardFullAction != rules.BoardFullFirstLoses && r.BoardFullAction != rules.BoardFullDraw &&
		p.phase == Placing && p.inHand[0] == 0 && p.inHand[1] == 0 &&
		r.Topology().CountMills(p.pieces[Black]) == 0
}

// checkGameOver applies what happens to a side to move that is blocked, and
// sets the action to Remove when a removal is pending. It reports whether the
// game ended.
func (p *Position) checkGameOver(r *rules.Rules) bool {
	if p.phase == Moving && p.action == Select && p.AllSurrounded(r, p.side) {
		if res, why, ok := stalemateEnd(r, p.side); ok {
			p.SetGameOver(res, why)
			return true
		}
		switch r.StalemateAction {
		case rules.StalematePass:
			p.changeSide()
			if p.phase == Moving && p.pending[p.side] == 0 && p.AllSurrounded(r, p.side) {
				// Both sides blocked: passing back and forth would never end.
				p.SetGameOver(Draw, StalemateDraw)
				return true
			}
		case rules.StalemateRemoveAndMove:
			p.setPending(p.side, 1)
			p.setFlag(flagStalemateRemoving, true)
		case rules.StalemateRemoveAndPass:
			p.setPending(p.side, 1)
		case rules.StalemateBothRemove:
			p.setPending(p.side, 1)
			p.setPending(p.side^1, 1)
			p.setFlag(flagBothStalemateRemoving, true)
		}
	}
	if p.pending[p.side] != 0 {
		p.action = Remove
	}
	return false
}

// placingEnd handles the end of the placing phase once both hands are empty
// and nothing is pending. It reports whether it set the side to move itself.
func (p *Position) placingEnd(r *rules.Rules, t *bb.Topology) bool {
	if p.phase != Placing || p.inHand[0] > 0 || p.inHand[1] > 0 || p.pending[0] != 0 || p.pending[1] != 0 {
		return false
	}
	mfa := r.MillFormationActionInPlacingPhase
	keepsTurnOrder := mfa == rules.MillRemoveFromHandThenThem ||
		(mfa == rules.MillRemoveFromHandThenUs && r.MayRemoveMultiple) ||
		r.MayMoveInPlacingPhase
	switch {
	case mfa == rules.MillMarkAndDelay:
		for b := p.marked; b != 0; {
			p.key ^= zMarked[b.PopFirst()]
		}
		p.marked = 0
	case mfa == rules.MillRemovalByMillCountsLate:
		p.removalsByMillCounts(t)
	case keepsTurnOrder:
		if r.IsDefenderMoveFirst {
			p.setSide(Black)
			return true
		}
		return false
	}
	if r.IsDefenderMoveFirst {
		p.setSide(Black)
	} else {
		p.setSide(White)
	}
	return true
}

// removalsByMillCounts sets both sides' removals from the mills on the board
// when placing ends (MillFormationActionInPlacingPhase 5).
func (p *Position) removalsByMillCounts(t *bb.Topology) {
	w, b := t.CountMills(p.pieces[White]), t.CountMills(p.pieces[Black])
	var wr, br int
	switch {
	case w == 0 && b == 0:
		wr, br = -1, -1
	case w > 0 && b == 0:
		wr, br = 2, 1
	case b > 0 && w == 0:
		wr, br = 1, 2
	case w == b:
		wr, br = w, b
	case w > b:
		br = b
		wr = br + 1
	default:
		wr = w
		br = wr + 1
	}
	p.setPending(White, int8(wr))
	p.setPending(Black, int8(br))
}

// place puts a piece of the side to move from its hand on s, then applies
// what the rules make of it: a mill (placeMill), the twelve-piece rules
// (placeTwelve), or else the turn passes (and the placing phase may end).
// The plain placement stays inline: it is the most frequent action of all.
func (p *Position) place(r *rules.Rules, t *bb.Topology, s bb.Square) {
	us := p.side
	p.setHand(us, p.inHand[us]-1)
	p.pieces[us] |= bb.Bit(s)
	p.key ^= zPiece[us][s]
	p.setLastMill(us, bb.NoSquare, bb.NoSquare)
	if n := p.millsFormed(r, t, s, us); n > 0 {
		p.placeMill(r, t, n)
		return
	}
	if r.PiecesCount == 12 && p.placeTwelve(r) {
		return
	}
	p.passTurnAfterPlacing(r, t)
}

// placeTwelve applies the rules of a placement without a mill that exist
// only with twelve pieces a side: placing stops when two points are left
// empty, and a full board ends the placing phase by BoardFullAction. It
// reports whether it finished the action.
func (p *Position) placeTwelve(r *rules.Rules) bool {
	if r.StopPlacingWhenTwoEmptySquares && p.Empty().Count() <= 2 {
		p.setHand(White, 0)
		p.setHand(Black, 0)
		if p.fewerPieces(r, p.side^1) {
			return true
		}
	}
	if r.MillFormationActionInPlacingPhase == rules.MillRemovalByMillCountsLate && p.inHand[0] == 0 && p.inHand[1] == 0 {
		return false // the removals by mill counts come first
	}
	if p.pieces[0].Count()+p.pieces[1].Count() >= bb.NumSquares {
		p.boardFull(r)
		return true
	}
	return false
}

// passTurnAfterPlacing ends the placing phase if both hands are empty (which
// may choose the side to move), else gives the turn to the opponent; then a
// blocked side to move is dealt with.
func (p *Position) passTurnAfterPlacing(r *rules.Rules, t *bb.Topology) {
	if !p.placingEnd(r, t) {
		p.changeSide()
	}
	p.checkGameOver(r)
}

// boardFull applies BoardFullAction when the last placement filled the board
// (twelve pieces a side).
func (p *Position) boardFull(r *rules.Rules) {
	if res, ok := boardFullEnd(r); ok {
		p.SetGameOver(res, BoardFull)
		return
	}
	switch r.BoardFullAction {
	case rules.BoardFullFirstThenSecond:
		p.setPending(White, 1)
		p.setPending(Black, 1)
		p.changeSide()
	case rules.BoardFullSecondThenFirst:
		p.setPending(White, 1)
		p.setPending(Black, 1)
		p.keepSide()
	case rules.BoardFullSideToMoveRemoves:
		if r.IsDefenderMoveFirst {
			p.setSide(Black)
		} else {
			p.setSide(White)
		}
		p.setPending(p.side, 1)
		p.keepSide()
	}
}

// The two ways the rules end a game at once, decided here for play
// (boardFull, checkGameOver) and for a FEN that says the game is over
// (deriveResult) alike.

// boardFullEnd is the result of a full board when BoardFullAction ends the
// game: the first player loses, or a draw.
func boardFullEnd(r *rules.Rules) (Result, bool) {
	switch r.BoardFullAction {
	case rules.BoardFullFirstLoses:
		return BlackWins, true
	case rules.BoardFullDraw:
		return Draw, true
	}
	return Ongoing, false
}

// stalemateEnd is the result of a blocked side to move when StalemateAction
// ends the game: it loses, or a draw.
func stalemateEnd(r *rules.Rules, blocked Color) (Result, Reason, bool) {
	switch r.StalemateAction {
	case rules.StalemateLose:
		return Winner(blocked ^ 1), NoLegalMove, true
	case rules.StalemateDraw:
		return Draw, StalemateDraw, true
	}
	return Ongoing, NoReason, false
}

// placeMill applies MillFormationActionInPlacingPhase to a placement that
// closed n mills: removals from the board, from the opponent's hand, or
// none until placing ends.
func (p *Position) placeMill(r *rules.Rules, t *bb.Topology, n int) {
	us := p.side
	them := us ^ 1
	mfa := r.MillFormationActionInPlacingPhase
	rm := int8(0)
	if mfa != rules.MillRemovalByMillCountsLate {
		rm = 1
		if r.MayRemoveMultiple {
			rm = int8(n)
		}
	}
	p.setPending(us, rm)

	switch mfa {
	case rules.MillRemoveFromHandThenThem, rules.MillRemoveFromHandThenUs:
		for i := int8(0); i < rm; i++ {
			if p.inHand[them] == 0 {
				// Nothing left in hand: the rest is taken from the board.
				p.setPending(us, rm-i)
				p.action = Remove
				return
			}
			p.setHand(them, p.inHand[them]-1)
			p.setPending(us, p.pending[us]-1)
			if p.fewerPieces(r, them) {
				return
			}
		}
		if !p.placingEnd(r, t) {
			if mfa == rules.MillRemoveFromHandThenThem {
				p.changeSide()
			} else {
				p.keepSide()
			}
		}
		p.checkGameOver(r)
	case rules.MillRemovalByMillCountsLate:
		// With MayMoveInPlacingPhase the opponent may have placed all its
		// pieces already, and be blocked: passTurnAfterPlacing checks.
		p.passTurnAfterPlacing(r, t)
	default:
		p.action = Remove
	}
}

func (p *Position) slide(r *rules.Rules, t *bb.Topology, from, to bb.Square) {
	us := p.side
	p.pieces[us] ^= bb.Bit(from) | bb.Bit(to)
	p.key ^= zPiece[us][from] ^ zPiece[us][to]

	n := p.millsFormed(r, t, to, us)
	if n == 0 {
		p.setLastMill(us, bb.NoSquare, bb.NoSquare)
		p.changeSide()
		p.checkGameOver(r)
		return
	}
	if r.RestrictRepeatedMillsFormation {
		if p.potentialMills(r, t, from, us, bb.NoSquare) > 0 {
			p.setLastMill(us, from, to)
		} else {
			p.setLastMill(us, bb.NoSquare, bb.NoSquare)
		}
	}
	rm := int8(1)
	if r.MayRemoveMultiple {
		rm = int8(n)
	}
	p.setPending(us, rm)
	p.action = Remove
}

func (p *Position) remove(r *rules.Rules, t *bb.Topology, s bb.Square) {
	us := p.side
	victim := us ^ 1
	if p.pending[us] < 0 {
		victim = us
	}
	p.pieces[victim] &^= bb.Bit(s)
	p.key ^= zPiece[victim][s]
	if r.MillFormationActionInPlacingPhase == rules.MillMarkAndDelay && p.phase == Placing {
		p.marked |= bb.Bit(s)
		p.key ^= zMarked[s]
	}
	if p.tooFew(r, victim) {
		p.SetGameOver(Winner(victim^1), FewerPieces)
		return
	}

	if p.pending[us] > 0 {
		p.setPending(us, p.pending[us]-1)
	} else {
		p.setPending(us, p.pending[us]+1)
	}
	if p.pending[us] != 0 {
		return
	}

	if !p.placingEnd(r, t) {
		if p.flags&flagStalemateRemoving != 0 {
			p.setFlag(flagStalemateRemoving, false)
			p.keepSide()
		} else {
			p.changeSide()
		}
	}
	if p.flags&flagBothStalemateRemoving != 0 && p.pending[0] == 0 && p.pending[1] == 0 {
		p.setFlag(flagBothStalemateRemoving, false)
	}
	if p.pending[p.side] != 0 {
		return
	}
	if p.inHand[p.side] == 0 {
		p.checkGameOver(r)
	}
}
