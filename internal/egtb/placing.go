package egtb

import (
	"errors"
	"fmt"
	"slices"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// The placing phase's sectors.
//
// A placing position is the board (the side to move's set and the other
// side's) and the pieces each side still holds in hand, the side to move to
// place. Its sector is W_B_WF_BF as Malom names them: W and B pieces on the
// board of the side to move and of the other side, WF and BF in hand (here
// SectorSpec{M: W, O: B, MF: WF, OF: BF}). White places first and the sides
// alternate, so the side to move holds as many pieces in hand as the other
// (White to move) or one more (Black to move): MF = OF or MF = OF + 1. The
// other side has just placed, so it has a piece on the board, but at the
// start. A side with fewer than PiecesAtLeastCount pieces on the board and in
// hand has lost, so no sector holds one. For Nine Men's Morris that gives
// Malom's 449 placing sectors, which with the 49 of the moving phase make its
// 498.
//
// Every placement takes a piece from the hand, so the placing phase is
// acyclic: a sector's positions lead only to sectors with one piece fewer in
// hand (a placement that closes no mill: the other side to move, with its
// board and hand, and ours one piece more on the board), or to those with
// one piece fewer of the other side on the board too (a mill and its
// removal). Once both hands are empty the game goes on in the moving phase's
// sector. A sector is therefore solved by one pass over its positions once
// its children are (placing_solve.go), and its table holds the result only,
// two bits a slot (WDL, see file.go): the index is the moving phase's (index.go)
// for the board, the hands being the sector's.

// PlacingPieces is the most pieces a side may have for the placing tables:
// the set tables of the index go up to nine points a side.
const PlacingPieces = maxSetSize

// ErrPlacingNotCovered says that a rule set's placing phase is not covered by
// the placing tables.
var ErrPlacingNotCovered = errors.New("placing phase not covered by the tables")

// PlacingOf returns the number of pieces a side places under r, if the
// placing tables cover r's placing phase: a placement that closes a mill
// removes a piece from the board at once and earns one removal however many
// mills it closes, nobody moves while placing, White moves first when
// placing ends, at most nine pieces a side (so the board is never full), and
// the moving phase covered by the tables (ParamsOf). Otherwise the error
// wraps ErrPlacingNotCovered (or ErrNotCovered) and names the rule.
func PlacingOf(r *rules.Rules) (int, error) {
	if _, err := ParamsOf(r); err != nil {
		return 0, err
	}
	switch {
	case r.PiecesCount > PlacingPieces:
		return 0, fmt.Errorf("%w: PiecesCount %d (at most %d)", ErrPlacingNotCovered, r.PiecesCount, PlacingPieces)
	case r.MillFormationActionInPlacingPhase != rules.MillRemoveFromBoard:
		return 0, fmt.Errorf("%w: MillFormationActionInPlacingPhase %d (only 0, a removal from the board)", ErrPlacingNotCovered, r.MillFormationActionInPlacingPhase)
	case r.MayMoveInPlacingPhase:
		return 0, fmt.Errorf("%w: MayMoveInPlacingPhase", ErrPlacingNotCovered)
	case r.IsDefenderMoveFirst:
		return 0, fmt.Errorf("%w: IsDefenderMoveFirst", ErrPlacingNotCovered)
	case r.MayRemoveMultiple:
		return 0, fmt.Errorf("%w: MayRemoveMultiple (a placement may close two mills)", ErrPlacingNotCovered)
	}
	return r.PiecesCount, nil
}

// placingCovered is PlacingOf without the error, for the probes.
func placingCovered(r *rules.Rules) bool {
	return r.PiecesCount <= PlacingPieces && r.MillFormationActionInPlacingPhase == rules.MillRemoveFromBoard &&
		!r.MayMoveInPlacingPhase && !r.IsDefenderMoveFirst && !r.MayRemoveMultiple
}

// validPlacing reports whether s is a sector of the placing phase under p
// (for some number of pieces a side): pieces in hand, MF = OF or OF + 1,
// enough pieces of each side, the other side on the board unless nobody has
// placed yet.
func (p Params) validPlacing(s SectorSpec) bool {
	start := s.M == 0 && s.O == 0 && s.MF == s.OF
	return s.MF >= 1 && (s.MF == s.OF || s.MF == s.OF+1) &&
		s.M >= 0 && s.O >= 0 && s.M+s.MF <= PlacingPieces && s.O+s.OF <= PlacingPieces &&
		s.M+s.MF >= p.MinPieces && s.O+s.OF >= p.MinPieces && (s.O >= 1 || start) && !p.RemoveMultiple
}

// PlacingSectors lists the placing sectors of a game of `pieces` pieces a
// side under p with at most maxPieces pieces in all (on the board and in
// hand, both sides), in an order in which each comes after every sector it
// needs: by the pieces in hand, fewest first, then by the pieces on the
// board. (The moving phase's sectors, Sectors, come before them all.)
func (p Params) PlacingSectors(pieces, maxPieces int) []SectorSpec {
	var out []SectorSpec
	for hand := 1; hand <= 2*pieces; hand++ {
		mf := (hand + 1) / 2
		of := hand - mf
		for n := 0; n <= 2*pieces; n++ {
			for m := 0; m <= n; m++ {
				s := SectorSpec{M: m, O: n - m, MF: mf, OF: of}
				if s.M+s.MF > pieces || s.O+s.OF > pieces || s.Pieces() > maxPieces || !p.validPlacing(s) {
					continue
				}
				if s.O == 0 && s.MF != pieces {
					continue // only the start has nobody on the board
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// GameSectors lists every sector of a game of `pieces` pieces a side with at
// most maxPieces pieces in all: the moving phase's (Sectors, up to maxPieces
// on the board), then the placing phase's (PlacingSectors), each after what
// it needs.
func (p Params) GameSectors(pieces, maxPieces int) []SectorSpec {
	return append(p.Sectors(min(maxPieces, MaxPieces)), p.PlacingSectors(pieces, maxPieces)...)
}

// placingChildren returns the sectors a placement in s leads to, the
// opponent to move: quiet after a placement that closes no mill, mill after
// one that closes a mill and removes a piece of the opponent's; millWins
// says that such a removal leaves the opponent with too few pieces, which
// wins at once (mill is then not needed), and hasMill whether the side to
// move can close a mill at all (it needs three pieces on the board after the
// placement, and a piece of the opponent's to remove).
func (p Params) placingChildren(s SectorSpec) (quiet, mill SectorSpec, hasMill, millWins bool) {
	quiet = SectorSpec{M: s.O, O: s.M + 1, MF: s.OF, OF: s.MF - 1}
	mill = SectorSpec{M: s.O - 1, O: s.M + 1, MF: s.OF, OF: s.MF - 1}
	hasMill = s.M+1 >= 3 && s.O >= 1
	millWins = s.O-1+s.OF < p.MinPieces
	return quiet, mill, hasMill, millWins
}

// placingNeeds lists the sectors whose tables a placing sector's solve
// reads.
func (p Params) placingNeeds(s SectorSpec) []SectorSpec {
	quiet, mill, hasMill, millWins := p.placingChildren(s)
	out := []SectorSpec{quiet}
	if hasMill && !millWins {
		out = append(out, mill)
	}
	return out
}

// The two-bit codes of a WDL table's slots.
const (
	codeDraw   = 0
	codeWin    = 1
	codeLoss   = 2
	codeUnused = 3
)

// codeRank orders the codes for the side to move: a loss, a draw, a win.
var codeRank = [4]int8{codeDraw: 1, codeWin: 2, codeLoss: 0, codeUnused: -1}

// codeParent turns the code of the position after a turn (the opponent to
// move) into the code of that turn for the side that made it.
var codeParent = [4]uint8{codeDraw: codeDraw, codeWin: codeLoss, codeLoss: codeWin, codeUnused: codeUnused}

// codeOf is the code of a moving-phase table's value byte.
func codeOf(v byte) uint8 {
	switch {
	case v == unused:
		return codeUnused
	case v == 0:
		return codeDraw
	case v&1 == 0:
		return codeWin
	}
	return codeLoss
}

// valueOfCode is the Value a placing position with the code has: its result,
// counted in turns to the next placement or removal (the next turn: it
// places), as a DTZ value would count it.
func valueOfCode(c uint8) Value {
	switch c {
	case codeWin:
		return Win(1)
	case codeLoss:
		return Loss(1)
	}
	return Draw
}

// code2 reads slot i of two-bit data.
func code2(data []byte, i uint32) uint8 { return data[i>>2] >> ((i & 3) * 2) & 3 }

// placingIndex is the table of the placing sector (m, o, mf, of), or nil.
func (t *Tables) placingTable(s SectorSpec) *table {
	if t == nil || s.M < 0 || s.O < 0 || s.M > maxSetSize || s.O > maxSetSize || s.OF < 0 || s.OF > maxSetSize {
		return nil
	}
	d := s.MF - s.OF
	if d < 0 || d > 1 {
		return nil
	}
	return t.place[s.M][s.O][s.OF][d].usable()
}

// HasPlacing reports whether any placing sector is loaded.
func (t *Tables) HasPlacing() bool { return t != nil && t.placing > 0 }

// probePlacing returns the code of the placing position (mover to place,
// other, with mf and of pieces in hand), and whether its sector is loaded.
// Both hands empty is the moving phase: its tables answer.
func (t *Tables) probePlacing(mover, other bb.Bitboard, mf, of int) (uint8, bool) {
	tb := t.placingOrMoving(mover.Count(), other.Count(), mf, of)
	if tb == nil || mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return 0, false
	}
	return tb.codeAt(tb.sec.index(mover, other))
}

// placingOrMoving returns the table probePlacing reads for a position with
// m and o pieces on the board and mf and of in hand (the moving phase's when
// both hands are empty), nil when it is not loaded.
func (t *Tables) placingOrMoving(m, o, mf, of int) *table {
	if mf == 0 && of == 0 {
		return t.lookupWDL(m, o)
	}
	return t.placingTable(SectorSpec{M: m, O: o, MF: mf, OF: of})
}

// afterPlacingMill returns the code, for the side that has just placed and
// closed a mill (mover, holding mf in hand now), of its best removal: the
// opponent (other, of in hand) then moves. A removal that leaves the
// opponent with too few pieces wins.
func (t *Tables) afterPlacingMill(mover, other bb.Bitboard, mf, of int) (uint8, bool) {
	if other.Count()-1+of < t.params.MinPieces {
		return codeWin, true
	}
	best := uint8(codeLoss)
	for b := t.game.removable(other); b != 0; {
		c, ok := t.probePlacing(other&^bb.Bit(b.PopFirst()), mover, of, mf)
		if !ok {
			return 0, false
		}
		if c = codeParent[c]; codeRank[c] > codeRank[best] {
			best = c
		}
	}
	return best, true
}

// lookupPlacing is Lookup for a position with pieces in hand: to place, or
// to remove after a placement that closed a mill.
func (t *Tables) lookupPlacing(r *rules.Rules, p *position.Position) (Entry, bool) {
	if !placingCovered(r) || p.IsOver() || p.Phase() != position.Placing || p.Marked() != 0 ||
		p.StalemateRemoving() || p.BothStalemateRemoving() {
		return Entry{}, false
	}
	us := p.SideToMove()
	mover, other := p.Pieces(us), p.Pieces(us^1)
	mf, of := p.InHand(us), p.InHand(us^1)
	var c uint8
	var ok bool
	switch p.Action() {
	case position.Place:
		if p.PendingRemovals(us^1) != 0 {
			return Entry{}, false
		}
		c, ok = t.probePlacing(mover, other, mf, of)
	case position.Remove:
		if p.PendingRemovals(us) != 1 || p.PendingRemovals(us^1) != 0 {
			return Entry{}, false
		}
		c, ok = t.afterPlacingMill(mover, other, mf, of)
	}
	if !ok || c == codeUnused {
		return Entry{}, false
	}
	v := valueOfCode(c)
	return Entry{Value: v, DTZ: v, ResultOnly: true}, true
}

// placingSectorsOf lists the loaded placing sectors, in build order.
func (t *Tables) placingSectorsOf() []SectorSpec {
	var out []SectorSpec
	for m := range t.place {
		for o := range t.place[m] {
			for of := range t.place[m][o] {
				for d, tb := range t.place[m][o][of] {
					if tb != nil {
						out = append(out, SectorSpec{M: m, O: o, MF: of + d, OF: of})
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b SectorSpec) int {
		if h := (a.MF + a.OF) - (b.MF + b.OF); h != 0 {
			return h
		}
		if n := (a.M + a.O) - (b.M + b.O); n != 0 {
			return n
		}
		return a.M - b.M
	})
	return out
}

// Result returns the result for the side to move of the position in which it
// holds mover on the board and mf in hand, the other side other and of (1 a
// win, 0 a draw, −1 a loss), and whether the tables hold it: a moving-phase
// position when both hands are empty, else a placing position with the side
// to move to place. It is what a comparison with another solution (Malom's)
// reads.
func (t *Tables) Result(mover, other bb.Bitboard, mf, of int) (int8, bool) {
	if mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return 0, false
	}
	c, ok := t.probePlacing(mover, other, mf, of)
	switch {
	case !ok || c == codeUnused:
		return 0, false
	case c == codeWin:
		return 1, true
	case c == codeLoss:
		return -1, true
	}
	return 0, true
}

// SectorBalance returns, for the side to move of p, the balance of the
// sector p belongs to: its wins less its losses over all its positions (the
// build's counts, every placement weighted alike), from −1 (every position
// lost) to 1, and whether the tables hold that sector. It is Malom's idea
// of a sector's value, what the sectors policy of a drawn root ranks by.
func (t *Tables) SectorBalance(r *rules.Rules, p *position.Position) (float64, bool) {
	if t == nil || t.game == nil || !t.Covers(r) {
		return 0, false
	}
	us := p.SideToMove()
	s := SectorSpec{M: p.OnBoard(us), O: p.OnBoard(us ^ 1), MF: p.InHand(us), OF: p.InHand(us ^ 1)}
	var tb *table
	switch {
	case s.Placing():
		tb = t.placingTable(s)
	default:
		tb = t.lookupWDL(s.M, s.O)
	}
	if tb == nil || tb.hdr.stats.Positions == 0 {
		return 0, false
	}
	st := tb.hdr.stats
	return (float64(st.Wins) - float64(st.Losses)) / float64(st.Positions), true
}
