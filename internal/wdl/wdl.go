// Package wdl is the home of a proven game value for the side to move —
// win, draw or loss — as the solver, the endgame tables' readers and Malom's
// reader all report it, so that values from each compare with ==.
package wdl

import "fmt"

// Value is a proven value for the side to move: Loss, Draw or Win.
type Value int8

// The values, ordered so that a greater one is better for the side to move
// and -v is the value for the other side.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// names are the values' words, from Loss.
var names = [...]string{"loss", "draw", "win"}

// String returns "win", "draw" or "loss" (and "Value(n)" for anything else,
// which no valid value is).
func (v Value) String() string {
	if v < Loss || v > Win {
		return fmt.Sprintf("Value(%d)", int8(v))
	}
	return names[v-Loss]
}

// Parse reads "win", "draw" or "loss" (String's words).
func Parse(s string) (Value, bool) {
	for _, v := range []Value{Win, Draw, Loss} {
		if s == v.String() {
			return v, true
		}
	}
	return Draw, false
}
