package egtb

import (
	"errors"
	"fmt"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/rules"
)

// Params are the rule parameters that matter in the moving phase with no
// pieces in hand: a set of tables is solved under one Params and answers for
// every rule set with the same Params. Parameters of the placing phase
// (PiecesCount, MillFormationActionInPlacingPhase, MayMoveInPlacingPhase,
// IsDefenderMoveFirst, BoardFullAction, StopPlacingWhenTwoEmptySquares) do not
// matter there; the draw rules (NMoveRule, EndgameNMoveRule,
// ThreefoldRepetitionRule) are left out by design: a value says what can be
// forced when repetitions and move counts are ignored.
type Params struct {
	Diagonal        bool // HasDiagonalLines: the board with the corner diagonals
	Fly             int  // a side with at most this many pieces flies; 0: nobody flies
	MinPieces       int  // PiecesAtLeastCount: a side with fewer pieces has lost
	RemoveFromMills bool // MayRemoveFromMillsAlways
	RemoveMultiple  bool // MayRemoveMultiple: closing n mills at once gives n removals (diagonal board only)
}

// Standard are the parameters of Nine Men's Morris.
var Standard = Params{Fly: 3, MinPieces: 3}

// ErrNotCovered says that a rule set's endgames are not covered by any table.
var ErrNotCovered = errors.New("rules not covered by the endgame tables")

// ParamsOf returns the table parameters of r, or an error wrapping
// ErrNotCovered that names the rule the tables cannot handle.
func ParamsOf(r *rules.Rules) (Params, error) {
	switch {
	case r.StalemateAction != rules.StalemateLose:
		return Params{}, fmt.Errorf("%w: StalemateAction %d (only 0, a blocked side loses)", ErrNotCovered, r.StalemateAction)
	case r.OneTimeUseMill:
		return Params{}, fmt.Errorf("%w: OneTimeUseMill depends on the game's history", ErrNotCovered)
	case r.RestrictRepeatedMillsFormation:
		return Params{}, fmt.Errorf("%w: RestrictRepeatedMillsFormation depends on the game's history", ErrNotCovered)
	case r.PiecesAtLeastCount < 3 || r.PiecesAtLeastCount > 5:
		return Params{}, fmt.Errorf("%w: PiecesAtLeastCount %d (3..5)", ErrNotCovered, r.PiecesAtLeastCount)
	case r.MayFly && (r.FlyPieceCount < 3 || r.FlyPieceCount > 4):
		return Params{}, fmt.Errorf("%w: flyPieceCount %d (3..4)", ErrNotCovered, r.FlyPieceCount)
	}
	p, _ := paramsOf(r)
	return p, nil
}

// paramsOf is ParamsOf without the error (and without allocating).
func paramsOf(r *rules.Rules) (Params, bool) {
	if r.StalemateAction != rules.StalemateLose || r.OneTimeUseMill || r.RestrictRepeatedMillsFormation ||
		r.PiecesAtLeastCount < 3 || r.PiecesAtLeastCount > 5 || (r.MayFly && (r.FlyPieceCount < 3 || r.FlyPieceCount > 4)) {
		return Params{}, false
	}
	p := Params{
		Diagonal:        r.HasDiagonalLines,
		MinPieces:       r.PiecesAtLeastCount,
		RemoveFromMills: r.MayRemoveFromMillsAlways,
		// On the plain board no turn of the moving phase closes two mills: a
		// slide leaves one of the two lines through its destination (every
		// neighbour lies on one), and a fly needs four other pieces on the
		// two lines, so five pieces, but only sides with at most four fly.
		RemoveMultiple: r.MayRemoveMultiple && r.HasDiagonalLines,
	}
	if r.MayFly && r.FlyPieceCount >= r.PiecesAtLeastCount {
		// Below PiecesAtLeastCount a side has lost, so a lower limit never flies.
		p.Fly = r.FlyPieceCount
	}
	return p, true
}

// Rules returns a rule set with these parameters (the others as in Nine
// Men's Morris, or Twelve Men's Morris on the diagonal board).
func (p Params) Rules() rules.Rules {
	r := rules.Default()
	if p.Diagonal {
		r.HasDiagonalLines, r.PiecesCount = true, 12
	}
	r.MayFly = p.Fly > 0
	if p.Fly > 0 {
		r.FlyPieceCount = p.Fly
	}
	r.PiecesAtLeastCount = p.MinPieces
	r.MayRemoveFromMillsAlways = p.RemoveFromMills
	r.MayRemoveMultiple = p.RemoveMultiple
	return r
}

// Name returns the name of the parameter set, the prefix of its files:
// "plain-fly3-min3" for Nine Men's Morris, with "-anymill" for
// MayRemoveFromMillsAlways and "-multi" for MayRemoveMultiple.
func (p Params) Name() string {
	s := "plain"
	if p.Diagonal {
		s = "diag"
	}
	if p.Fly > 0 {
		s += fmt.Sprintf("-fly%d", p.Fly)
	} else {
		s += "-nofly"
	}
	s += fmt.Sprintf("-min%d", p.MinPieces)
	if p.RemoveFromMills {
		s += "-anymill"
	}
	if p.RemoveMultiple {
		s += "-multi"
	}
	return s
}

// String describes the parameters with the rule option names.
func (p Params) String() string {
	return fmt.Sprintf("HasDiagonalLines=%t MayFly=%t flyPieceCount=%d PiecesAtLeastCount=%d MayRemoveFromMillsAlways=%t MayRemoveMultiple=%t StalemateAction=0",
		p.Diagonal, p.Fly > 0, p.Fly, p.MinPieces, p.RemoveFromMills, p.RemoveMultiple)
}

// valid reports whether p could come from ParamsOf.
func (p Params) valid() bool {
	return (p.Fly == 0 || (p.Fly >= 3 && p.Fly <= 4 && p.Fly >= p.MinPieces)) && p.MinPieces >= 3 && p.MinPieces <= 5 &&
		(p.Diagonal || !p.RemoveMultiple)
}

// topology returns the board p is played on.
func (p Params) topology() *bb.Topology { return bb.For(p.Diagonal) }

// flies reports whether a side with n pieces flies.
func (p Params) flies(n int) bool { return n <= p.Fly }

// SectorSpec names a sector: the side to move has M pieces on the board and
// MF in hand, the other side O on the board and OF in hand. A sector of the
// moving phase has nothing in hand (MF = OF = 0); the others are the placing
// phase's (see placing.go).
type SectorSpec struct{ M, O, MF, OF int }

// String names the sector: "MvO" in the moving phase (the tables' own name
// since the first build), "M_O_MF_OF" in the placing phase, as Malom names
// its sectors (W_B_WF_BF).
func (s SectorSpec) String() string {
	if s.Placing() {
		return s.Malom()
	}
	return fmt.Sprintf("%dv%d", s.M, s.O)
}

// Malom is the sector's name as Malom writes it, W_B_WF_BF: "3_4_0_0" for
// 3v4, "8_8_1_1" for a placing sector.
func (s SectorSpec) Malom() string { return fmt.Sprintf("%d_%d_%d_%d", s.M, s.O, s.MF, s.OF) }

// Placing reports whether the sector belongs to the placing phase: a side
// still has pieces in hand.
func (s SectorSpec) Placing() bool { return s.MF > 0 || s.OF > 0 }

// Pieces is the number of pieces of both sides, on the board and in hand:
// what --max-pieces counts.
func (s SectorSpec) Pieces() int { return s.M + s.O + s.MF + s.OF }

// Sectors lists the sectors of p with at most maxPieces pieces on the board,
// in an order in which each is built after every sector it needs: by the
// number of pieces, the two sides of a pair next to each other (M ≤ O first).
func (p Params) Sectors(maxPieces int) []SectorSpec {
	var out []SectorSpec
	for n := 2 * p.MinPieces; n <= maxPieces; n++ {
		for m := max(p.MinPieces, n-maxSetSize); 2*m <= n; m++ {
			out = append(out, SectorSpec{M: m, O: n - m})
			if n-m != m {
				out = append(out, SectorSpec{M: n - m, O: m})
			}
		}
	}
	return out
}
