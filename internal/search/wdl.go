package search

import "math"

// WDL is the win, draw and loss per mille that a search score stands for,
// for its side to move: certain for a mate or table score (1000 0 0 or
// 0 0 1000); otherwise by a logistic model of the score s (centipawns) with
// a draw margin, the shape of Stockfish's model:
//
//	W = 1000 / (1 + exp((WDLMargin − s) / WDLScale))
//	L = 1000 / (1 + exp((WDLMargin + s) / WDLScale))
//	D = 1000 − W − L
//
// WDLMargin is the score at which the side to move wins half its games and
// WDLScale how fast that grows; they are set by hand, not fitted to games:
// 0 gives 34/932/34 (mill is a draw with good play), a piece up (100)
// 159/834/7, two pieces (200) 500/499/1. UCI_ShowWDL prints it; game reviews
// grade moves by the expected score it gives (W + D/2).
func WDL(score int) (w, d, l int) {
	switch {
	case score > ValueTBBand:
		return 1000, 0, 0
	case score < -ValueTBBand:
		return 0, 0, 1000
	}
	s := float64(score)
	w = int(math.Round(1000 / (1 + math.Exp((WDLMargin-s)/WDLScale))))
	l = int(math.Round(1000 / (1 + math.Exp((WDLMargin+s)/WDLScale))))
	return w, 1000 - w - l, l
}

// The model's parameters (see WDL).
const (
	WDLMargin = 200.0
	WDLScale  = 60.0
)
