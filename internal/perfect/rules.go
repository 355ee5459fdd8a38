// Package perfect puts Malom's databases — Gévay and Danner's strong solution
// of Nine Men's Morris, Lasker Morris and Morabaraba, which Sanmill ships as
// its "perfect database" and plays from under the options UsePerfectDatabase
// and PerfectDatabasePath — behind the engine's root policy. DB turns Malom's
// values into the tables' own terms (egtb.Entry): it is an egtb.Source, so
// egtb.RankRootWith ranks a root from Malom's values exactly as from the
// engine's tables (the classes win, draw and loss, the game's history, the
// N-move rule, the Best marks), and go, egtb probe and the board read one
// ranking whatever knows the values. Root joins DB with the engine's own
// tables and checks that the two agree where both know a position.
//
// Malom's files are read by internal/malom; they are under the AGPL and are
// never part of this repository.
package perfect

import (
	"errors"
	"fmt"

	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/rules"
)

// ErrNotCovered says that a rule set is none of the three Malom solved.
var ErrNotCovered = errors.New("rules not solved by Malom's databases")

// VariantOf returns Malom's variant whose rules r are, or an error wrapping
// ErrNotCovered that names the rule it does not have. Malom solved three
// games, and its values hold only for exactly their rules:
//
//   - std, Nine Men's Morris: 9 pieces a side on the plain board
//     (PiecesCount 9, HasDiagonalLines and MayMoveInPlacingPhase off);
//   - lask, Lasker Morris: 10 pieces on the plain board, a side with pieces
//     in hand may slide instead of placing (MayMoveInPlacingPhase);
//   - mora, Morabaraba: 12 pieces on the board with diagonals, and one
//     removal a turn whatever mills close — Sanmill's reader accepts mora
//     with MayRemoveMultiple off only, and so does this one: the
//     twelve-mens-morris preset, or morabaraba with MayRemoveMultiple false
//     (the morabaraba preset's own two removals for a double mill are a
//     different game); the placing goes on until the board is full
//     (StopPlacingWhenTwoEmptySquares off), and a full board loses for the
//     side to move (BoardFullAction 0).
//
// Common to all three: a side with three pieces flies (MayFly,
// flyPieceCount 3), one with fewer than three has lost (PiecesAtLeastCount
// 3), a mill while placing removes a piece from the board
// (MillFormationActionInPlacingPhase 0), pieces in mills are safe unless
// all are (MayRemoveFromMillsAlways off), a blocked side loses
// (StalemateAction 0), the turns alternate when placing ends
// (IsDefenderMoveFirst off), and neither OneTimeUseMill nor
// RestrictRepeatedMillsFormation. These are the rules Sanmill checks before
// it reads the databases (IsDefenderMoveFirst and
// StopPlacingWhenTwoEmptySquares included here, as they change the game
// Malom solved). The draw rules (NMoveRule, EndgameNMoveRule,
// ThreefoldRepetitionRule) are not Malom's: the root policy applies them
// with the game's history, as it does with the engine's tables.
func VariantOf(r *rules.Rules) (malom.Variant, error) {
	v, ok := shapeOf(r)
	if !ok {
		return malom.Variant{}, fmt.Errorf("%w: PiecesCount %d, HasDiagonalLines %t, MayMoveInPlacingPhase %t (Malom solved 9 pieces on the plain board, Lasker's 10 with MayMoveInPlacingPhase, and Morabaraba's 12 on the board with diagonals)",
			ErrNotCovered, r.PiecesCount, r.HasDiagonalLines, r.MayMoveInPlacingPhase)
	}
	if why := otherRule(r, v); why != "" {
		return malom.Variant{}, fmt.Errorf("%w: %s", ErrNotCovered, why)
	}
	return v, nil
}

// shapeOf is the variant of r's piece count, board and placing.
func shapeOf(r *rules.Rules) (malom.Variant, bool) {
	switch {
	case r.PiecesCount == 9 && !r.HasDiagonalLines && !r.MayMoveInPlacingPhase:
		return malom.Standard, true
	case r.PiecesCount == 10 && !r.HasDiagonalLines && r.MayMoveInPlacingPhase:
		return malom.Lasker, true
	case r.PiecesCount == 12 && r.HasDiagonalLines && !r.MayMoveInPlacingPhase:
		return malom.Morabaraba, true
	}
	return malom.Variant{}, false
}

// otherRule names the first rule of r that the variant v does not have, ""
// when there is none. It does not allocate.
func otherRule(r *rules.Rules, v malom.Variant) string {
	switch {
	case !r.MayFly || r.FlyPieceCount != 3:
		return "flying is not at three pieces (Malom's games: MayFly, flyPieceCount 3)"
	case r.PiecesAtLeastCount != 3:
		return "PiecesAtLeastCount is not 3"
	case r.MillFormationActionInPlacingPhase != rules.MillRemoveFromBoard:
		return "MillFormationActionInPlacingPhase is not 0 (a mill while placing removes from the board)"
	case r.MayRemoveMultiple:
		return "MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)"
	case r.MayRemoveFromMillsAlways:
		return "MayRemoveFromMillsAlways"
	case r.StalemateAction != rules.StalemateLose:
		return "StalemateAction is not 0 (a blocked side loses)"
	case r.IsDefenderMoveFirst:
		return "IsDefenderMoveFirst"
	case r.OneTimeUseMill:
		return "OneTimeUseMill"
	case r.RestrictRepeatedMillsFormation:
		return "RestrictRepeatedMillsFormation"
	case v == malom.Morabaraba && r.BoardFullAction != rules.BoardFullFirstLoses:
		return "BoardFullAction is not 0 (in Malom's Morabaraba a full board loses for the side to move)"
	case v == malom.Morabaraba && r.StopPlacingWhenTwoEmptySquares:
		return "StopPlacingWhenTwoEmptySquares (Malom's Morabaraba places until the board is full)"
	}
	return ""
}

// solves reports whether r are the rules of v, without allocating: the
// check of every probe.
func solves(r *rules.Rules, v malom.Variant) bool {
	w, ok := shapeOf(r)
	return ok && w == v && otherRule(r, v) == ""
}
