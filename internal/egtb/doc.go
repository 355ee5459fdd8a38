// Package egtb holds endgame tables of the moving phase (no pieces in hand on
// either side): a retrograde solver, the file format, and probing.
//
// A sector MvO holds every placement of M pieces of the side to move and O of
// the other side (colour does not matter: the side to move is normalised), for
// PiecesAtLeastCount ≤ M, O and M + O ≤ MaxPieces. Each entry is a Value: win,
// draw or loss with the distance to the end under perfect play in turns of the
// side to move (see Value). Repetitions and the N-move rules are ignored: what
// no side can force is a draw.
//
// Using the tables (the search's view):
//
//	t, err := egtb.Open(dir, &r) // maps what is there; nil error for a missing dir
//	defer t.Close()
//	if v, ok := t.Probe(&r, &p); ok { … v.IsWin(), v.Distance() … }
//	else { reason := t.Why(&r, &p) } // once, for an info string
//
// Probe is zero-allocation and safe for concurrent use; it answers positions
// with a pending removal too (derived from the smaller sector, at most seven
// probes). The value of an action is ActionValue (the successor's value turned
// into the mover's view with Value.Parent when the turn passes), and Actions
// lists every legal action with its value, best first (root move choice).
//
// Building: Build solves what is missing in dependency order and writes one
// file per sector atomically; Verify re-checks a sector against the engine's
// own movegen and position code.
//
// Packed tables: PackDir writes each table file in a packed form (".egtbz",
// packedfile.go) that Open reads beside the plain files and probes without
// unpacking: blocks of 4 KB compressed one by one, decoded into a cache
// shared by the Tables' threads (packed.go); UnpackDir gives the plain
// files back byte for byte.
//
// Index: positions are reduced by the 16 symmetries of the board (see bitboard.Symmetry and
// sector); the share of slots used is about 0.8 for three pieces to move and
// above 0.87 for more (see docs/tables.md).
package egtb
