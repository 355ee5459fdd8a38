package uci

import (
	"fmt"
	"math"

	"github.com/millengine/millengine/internal/search"
)

// The win/draw/loss estimate of UCI_ShowWDL: "wdl W D L" in per mille for
// the side to move, after the score.
//
// Where the value is known it is exact: a root the endgame tables know
// (1000 0 0, 0 1000 0, 0 0 1000), a mate score, a table win or loss. Else
// it comes from the score s (centipawns, 100 = a piece) by a logistic
// model with a draw margin, the shape Stockfish's model has:
//
//	W = 1000 / (1 + exp((wdlMargin − s) / wdlScale))
//	L = 1000 / (1 + exp((wdlMargin + s) / wdlScale))
//	D = 1000 − W − L
//
// wdlMargin is the score at which the side to move wins half its games, and
// wdlScale how fast that grows. They are set by hand, not fitted to games:
// 0 gives 34/932/34 (mill is a draw with good play), a piece up (100)
// 159/834/7, two pieces (200) 500/499/1.
const (
	wdlMargin = 200.0
	wdlScale  = 60.0
)

// wdlOf returns the per-mille win, draw and loss of an info line's score.
func wdlOf(in *search.Info) (w, d, l int) {
	switch {
	case in.Outcome == search.OutcomeWin || in.Score > search.ValueTBBand:
		return 1000, 0, 0
	case in.Outcome == search.OutcomeLoss || in.Score < -search.ValueTBBand:
		return 0, 0, 1000
	case in.Outcome == search.OutcomeDraw:
		return 0, 1000, 0
	}
	s := float64(in.Score)
	w = int(math.Round(1000 / (1 + math.Exp((wdlMargin-s)/wdlScale))))
	l = int(math.Round(1000 / (1 + math.Exp((wdlMargin+s)/wdlScale))))
	return w, 1000 - w - l, l
}

// wdlString is " wdl W D L" when UCI_ShowWDL is on, else "".
func (s *session) wdlString(in *search.Info) string {
	if !s.showWDL {
		return ""
	}
	w, d, l := wdlOf(in)
	return fmt.Sprintf(" wdl %d %d %d", w, d, l)
}
