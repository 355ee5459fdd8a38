package search

import "github.com/millengine/millengine/internal/position"

// pickWeaker chooses the move of a weakened engine (SkillLevel below MaxSkillLevel)
// among the MultiPV lines of the last iteration: the lower the level, the
// more a worse score is forgiven and the more random noise decides. A won
// line is always taken and a lost one is never chosen while another exists,
// so weak play stays legal and sensible.
func (e *Engine) pickWeaker(w *worker, level int) position.Move {
	rms := w.rootMoves
	n := w.run.opts.MultiPV
	if n > len(rms) {
		n = len(rms)
	}
	top := rms[0].score
	if top > ValueMateBand || n <= 1 {
		return rms[0].move
	}
	weakness := 120 - 4*level
	delta := top - rms[n-1].score
	if delta > 100 {
		delta = 100
	}
	best, bestVal := rms[0].move, -ValueInfinite
	for i := 0; i < n; i++ {
		s := rms[i].score
		if s < -ValueMateBand && top >= -ValueMateBand {
			continue
		}
		push := (weakness*(top-s) + delta*e.rng.IntN(weakness)) / 128
		if v := s + push; v > bestVal {
			best, bestVal = rms[i].move, v
		}
	}
	return best
}
