package uci

import (
	"fmt"

	"github.com/millengine/millengine/internal/search"
)

// The win/draw/loss of UCI_ShowWDL: "wdl W D L" in per mille for the side to
// move, after the score. Exact where the value is known — a root the
// endgame tables (or a proof) know, a mate score, a table win or loss —
// else search.WDL's model of the score.

// wdlOf returns the per-mille win, draw and loss of an info line.
func wdlOf(in *search.Info) (w, d, l int) {
	switch in.Outcome {
	case search.OutcomeWin:
		return 1000, 0, 0
	case search.OutcomeLoss:
		return 0, 0, 1000
	case search.OutcomeDraw:
		return 0, 1000, 0
	}
	return search.WDL(in.Score)
}

// wdlString is " wdl W D L" when UCI_ShowWDL is on, else "".
func (s *session) wdlString(in *search.Info) string {
	if !s.showWDL {
		return ""
	}
	w, d, l := wdlOf(in)
	return fmt.Sprintf(" wdl %d %d %d", w, d, l)
}
