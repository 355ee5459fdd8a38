// Package malom reads the perfect database of Malom (Gévay and Danner's
// strong solution of mill, which Sanmill ships as its "perfect database"), so
// that its values can be compared with ours and used to rank moves. The data
// files are not part of this repository (they are under the AGPL); this
// package is a reader written from the published description of the format,
// with a small writer for its tests.
//
// # Files
//
// A variant's database is a directory holding a "<prefix>.secval" text file
// and one "<prefix>_W_B_WF_BF.sec2" file per sector (prefix std, mora or
// lask; see Variant). A sector holds every position with W pieces on the
// board and WF in hand for the side to move, B and BF for the other side: the
// side to move is always called white. The .secval file gives each sector a
// value, a small integer used to tell draws apart, and two virtual values,
// the value of a won and of a lost game (see SecVals).
//
// A sector file (little endian) is a 64-byte header, one packed entry per
// slot, and an escape table:
//
//	offset        size  field
//	0             4     format version (2)
//	4             4     entry size E in bytes (3 in the shipped files)
//	8             4     width in bits of the first key (12 std, 14 mora/lask)
//	12            1     stone-difference flag (0: sector values from .secval)
//	13            51    zero
//	64            n·E   entries in slot order
//	64+n·E        4     escape count k
//	68+n·E        8·k   k pairs (slot, key2), both int32
//
// An entry holds two signed keys: key1 in its low bits, key2 in the rest.
// The most negative key2 the field can hold means "key2 did not fit: look it
// up in the escape table". The slot count n is not stored: it follows from
// W and B (see Index).
//
// # Entries
//
// key1 ≠ 0: a value. key1 is relative to the sector's value: key1 + the
// sector value is the absolute value, which is the virtual win value for a
// won position, the virtual loss value for a lost one, and anything else
// for a draw: the value of the sector the draw drifts into, which is how
// Malom tells draws apart. For a win or a loss key2 is the number of plies
// to the end of the game, the winner taking the shortest way and the loser
// the longest (it equals our endgame tables' distance on every won and lost
// position of 3v3, 3v4 and 4v3). For a draw key2 is a signed depth of the
// solver, not a distance to any end.
//
// Malom ranks values of one sector by key1 (higher is better), then by key2:
// smaller is better when key1 > 0, larger when key1 < 0. To rank the moves
// of a position it rebases each successor's key1 from the successor's sector
// value to the position's (flipping key2's sign when that flips key1's),
// negates it and adds one ply to key2.
//
// key1 = 0, key2 ≥ 0: a count left over from the solver (key2, no
// distance); the position is a draw that stays in this sector, its absolute
// value the sector's own.
//
// key1 = 0, key2 < 0: a redirect. The slot's position is a symmetric image
// of another slot's; −(key2+1), 0–15, is the symmetry that maps it there.
// It always fixes the white pieces, and the value always sits at the
// smallest slot among the images (true of every shipped file).
//
// There is no mark for invalid or unreachable positions: every slot is a
// position of the sector and holds its value, a count or a redirect. What
// the database does not hold at all are positions with a removal pending
// (Malom's turn is a move plus its removal) and positions where a side has
// fewer than three pieces left (lost).
//
// # Index
//
// Malom numbers the points 0–23 ring by ring from the outer ring, each ring
// starting at the midpoint of its left side and going clockwise (outer ring:
// a4 a7 d7 g7 g4 g1 d1 a1), so Malom point 8r+q is our point
// 8(2−r) + (q+6) mod 8 (see ToMalom). The 16 symmetries are numbered as in
// Malom (see Transform). A slot is
//
//	orbit(white) · C(24−W, B) + rank(black squeezed into the empty points)
//
// where the white sets are grouped into orbits under the symmetries, the
// orbits numbered in the order of their smallest member, and a set's rank
// is its position in increasing numeric order among the sets of its size
// (the colex rank). A position is first turned by the symmetry that maps its
// white set to the orbit's smallest member (the one Malom picks when several
// do); if that slot holds a redirect, the redirect is applied once more.
package malom
