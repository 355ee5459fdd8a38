package malom

import (
	"fmt"

	"github.com/millengine/millengine/internal/wdl"
)

// Raw is one entry of a sector as stored: the two keys, with key2 taken from
// the escape table where the entry points there. See the package
// documentation for what they mean.
type Raw struct {
	Key1 int16 // relative to the sector's value; 0 for a count or a redirect
	Key2 int32 // plies (win, loss), a depth (draw), a count, or −(symmetry+1)
}

// Kind is what an entry holds.
type Kind uint8

// The kinds of entries.
const (
	KindValue    Kind = iota // key1 ≠ 0: a win, a loss or a draw with its keys
	KindCount                // key1 = 0, key2 ≥ 0: a draw that stays in the sector
	KindRedirect             // key1 = 0, −16 ≤ key2 < 0: see the symmetric image
	KindBad                  // key1 = 0, key2 < −16: not a valid entry
)

var kindNames = [...]string{"value", "count", "redirect", "bad"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Kind returns what the entry holds.
func (r Raw) Kind() Kind {
	switch {
	case r.Key1 != 0:
		return KindValue
	case r.Key2 >= 0:
		return KindCount
	case r.Key2 >= -NumSymmetries:
		return KindRedirect
	}
	return KindBad
}

// Symmetry returns the symmetry of a redirect (Malom's number, 0–15).
func (r Raw) Symmetry() int { return int(-(r.Key2 + 1)) }

// Redirect returns the entry that redirects with symmetry op.
func Redirect(op int) Raw { return Raw{Key2: int32(-op - 1)} }

// WDL is a game result for the side to move (package wdl's, so that
// Malom's values and the engine's own compare with ==).
type WDL = wdl.Value

// The results.
const (
	Loss = wdl.Loss
	Draw = wdl.Draw
	Win  = wdl.Win
)

// Eval is the decoded value of a position.
type Eval struct {
	// Raw are the keys read (after a redirect, the target's): never a
	// redirect.
	Raw Raw
	// Abs is the absolute value: Raw.Key1 plus the sector's value. It is the
	// virtual win value for a win, the virtual loss value for a loss, and
	// for a draw the value of the sector the draw ends up in (the sector's
	// own value for a count).
	Abs int
	// WDL is the result for the side to move.
	WDL WDL
	// Slot is the slot the keys were read from.
	Slot int
}

// Plies returns the number of plies to the end of the game for a win or a
// loss (key2), and 0 for a draw.
func (e Eval) Plies() int {
	if e.WDL == Draw {
		return 0
	}
	return int(e.Raw.Key2)
}

// String describes the value, e.g. "win in 7 plies (key1 299, key2 7)".
func (e Eval) String() string {
	if e.WDL == Draw {
		return fmt.Sprintf("draw (abs %d, key1 %d, key2 %d)", e.Abs, e.Raw.Key1, e.Raw.Key2)
	}
	return fmt.Sprintf("%v in %d plies (key1 %d, key2 %d)", e.WDL, e.Raw.Key2, e.Raw.Key1, e.Raw.Key2)
}

// decode turns a non-redirect entry of a sector with value secVal into an
// Eval.
func decode(r Raw, slot, secVal int, vals *SecVals) Eval {
	e := Eval{Raw: r, Abs: int(r.Key1) + secVal, Slot: slot}
	if r.Key1 != 0 {
		switch e.Abs {
		case int(vals.VirtWin):
			e.WDL = Win
		case int(vals.VirtLoss):
			e.WDL = Loss
		}
	}
	return e
}
