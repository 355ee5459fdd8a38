package record

import (
	"fmt"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// playOKPoints are the labels of PlayOK's points 1–24: left to right, top to
// bottom, as in Sanmill's import (playOkToStandardNotation in
// src/ui/flutter_app/lib/games/mill/mill_board_coordinate_maps.dart):
//
//	 1 ----------- 2 ----------- 3
//	 |  4 ------- 5 ------- 6    |
//	 |  |  7 --- 8 --- 9    |    |
//	10-11-12          13-14-15
//	 |  | 16 -- 17 -- 18    |    |
//	 | 19 ------ 20 ------ 21    |
//	22 ---------- 23 ---------- 24
//
// It is the one place the numbering is written down; correct it here.
var playOKPoints = [24]string{
	"a7", "d7", "g7",
	"b6", "d6", "f6",
	"c5", "d5", "e5",
	"a4", "b4", "c4", "e4", "f4", "g4",
	"c3", "d3", "e3",
	"b2", "d2", "f2",
	"a1", "d1", "g1",
}

// playOKSquares are playOKPoints as squares, computed once and never changed.
var playOKSquares = func() (sq [24]bb.Square) {
	for i, l := range playOKPoints {
		s, err := bb.ParseSquare(l)
		if err != nil {
			panic("record: bad PlayOK table entry " + l)
		}
		sq[i] = s
	}
	return sq
}()

// playOKPoint reads a PlayOK point number (1–24, no leading zero) at the
// start of s.
func playOKPoint(s string) (bb.Square, int, string) {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == 0 {
		return bb.NoSquare, 0, ""
	}
	v := 0
	for i := 0; i < n; i++ {
		if v <= 24 {
			v = v*10 + int(s[i]-'0')
		}
	}
	if s[0] == '0' || v < 1 || v > 24 {
		return bb.NoSquare, 0, fmt.Sprintf("%s is not a PlayOK point (1-24)", s[:n])
	}
	return playOKSquares[v-1], n, ""
}

// PlayOKPoint returns the square of PlayOK's point number n (1–24).
func PlayOKPoint(n int) (bb.Square, bool) {
	if n < 1 || n > 24 {
		return bb.NoSquare, false
	}
	return playOKSquares[n-1], true
}
