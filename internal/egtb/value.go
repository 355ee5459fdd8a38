package egtb

import (
	"strconv"

	"github.com/millengine/millengine/internal/wdl"
)

// Value is the game-theoretic value of a position for its side to move, with
// the distance to the end of the game under perfect play (the winner takes the
// shortest way, the loser the longest), counted in turns of the side to move.
// A turn is an action plus the removal it earns.
//
//   - win d: the side to move's d-th turn ends the game (d ≥ 1);
//   - loss d: the side to move makes d more turns, then has lost; loss 0 means
//     it has lost already (it has no legal action);
//   - draw: no side can force a win (repetitions and the N-move rules are
//     ignored).
//
// The encoding is one byte, as stored in the files: 0 is a draw, otherwise
// the value is 1 + the number of plies (turns of either side) to the end, so
// odd plies (even bytes) are wins: win d = 2d, loss d = 2d+1. The byte 0xFF
// marks an unused slot in a file and is never a Value.
type Value uint8

// Draw is the value of a position no side can win.
const Draw Value = 0

// unused marks a slot that no canonical position maps to.
const unused = 0xFF

// maxValue is the largest byte a value may take (the longest distance that fits).
const maxValue = 0xFE

// Win returns the value "win d" (d ≥ 1).
func Win(d int) Value { return Value(2 * d) }

// Loss returns the value "loss d" (d ≥ 0).
func Loss(d int) Value { return Value(2*d + 1) }

// IsWin reports whether the side to move wins.
func (v Value) IsWin() bool { return v != 0 && v&1 == 0 }

// IsLoss reports whether the side to move loses.
func (v Value) IsLoss() bool { return v&1 == 1 }

// IsDraw reports whether the position is a draw.
func (v Value) IsDraw() bool { return v == 0 }

// WDL is the value without its distance: win, draw or loss for the side
// to move, in the terms the solver, the book and Malom's reader share.
func (v Value) WDL() wdl.Value {
	switch {
	case v.IsWin():
		return wdl.Win
	case v.IsLoss():
		return wdl.Loss
	}
	return wdl.Draw
}

// Distance returns the number of turns of the side to move until the end of
// the game (d of "win d" or "loss d"); 0 for a draw.
func (v Value) Distance() int { return int(v) / 2 }

// Plies returns the number of plies (turns of either side) to the end of the
// game; 0 for a draw.
func (v Value) Plies() int {
	if v == 0 {
		return 0
	}
	return int(v) - 1
}

// String returns "win D", "loss D" or "draw".
func (v Value) String() string {
	switch {
	case v.IsWin():
		return "win " + strconv.Itoa(v.Distance())
	case v.IsLoss():
		return "loss " + strconv.Itoa(v.Distance())
	}
	return "draw"
}

// Parent turns the value of the position reached by a turn, with the
// opponent to move, into the value of that turn for the side that made it:
// the opponent's loss d is our win d+1, its win d our loss d, a draw a draw.
// (A position with a pending removal has the same side to move as the action
// that led to it; its value needs no turning.) The longest distances
// saturate (see Saturated): the parent of win 127 is loss 126.
func (v Value) Parent() Value {
	switch v {
	case 0:
		return 0
	case maxValue:
		return maxLoss
	}
	return v + 1
}

// maxLoss is the longest loss a byte holds (loss 126); the longest win is
// maxValue (win 127).
const maxLoss Value = maxValue - 1

// saturate returns the value byte of a distance of v−1 plies (v is 1 +
// plies, as in the solver): itself when it fits, else the longest value of
// its kind, win 127 or loss 126. A file then holds "at least" for those
// positions, which are far beyond any N-move rule; the check of a value
// against its successors saturates the same way, so it stays exact.
func saturate(v uint32) Value {
	switch {
	case v <= maxValue:
		return Value(v)
	case v&1 == 0:
		return maxValue
	}
	return maxLoss
}

// Saturated reports whether v is a longest value a byte holds (win 127 or
// loss 126): its distance is at least that.
func (v Value) Saturated() bool { return v == maxValue || v == maxLoss }

// Score orders values from the side to move's view: higher is better. A
// shorter win beats a longer one, any win beats a draw, a draw beats any loss,
// and a longer loss beats a shorter one.
func (v Value) Score() int {
	switch {
	case v.IsWin():
		return 1000 - int(v)
	case v.IsLoss():
		return -1000 + int(v)
	}
	return 0
}

// Better reports whether v is better than w for the side to move.
func (v Value) Better(w Value) bool { return v.Score() > w.Score() }

// removingTurn is the DTZ value of a turn that removes (or closes a mill and
// removes), for the remover, whose result is v: the count ends with this
// turn, so it is win 1, loss 1 or a draw.
func removingTurn(v Value) Value {
	switch {
	case v.IsWin():
		return Win(1)
	case v.IsLoss():
		return Loss(1)
	}
	return Draw
}
