package search

import (
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/position"
)

// This file is the one home of a search's time management: the soft and hard
// limits taken from the clock or the move time, ponderhit (which starts the
// clock), the hard stop and the periodic progress report that the main worker
// checks every pollEvery nodes, and the decision after each iteration whether
// to go deeper. The protocol loop keeps only a watchdog for a search that does
// not answer at all.

// Progress reporting and polling.
const (
	pollEvery      = 1024        // nodes between two polls of the main worker (a power of two)
	reportInterval = time.Second // longest silence between two progress reports
)

// clock is the part of the engine's controls that concerns time. It lives in
// the Engine rather than in the per-search state because PonderHit may
// arrive between Prepare and Search, and must not be lost.
type clock struct {
	pondering atomic.Bool  // the search ponders: the clock has not started
	startNano atomic.Int64 // when the clock started (go, or ponderhit)
}

// start starts the clock now.
func (c *clock) start() { c.startNano.Store(time.Now().UnixNano()) }

// startFrom starts the clock at t, or now when t is zero.
func (c *clock) startFrom(t time.Time) {
	if t.IsZero() {
		c.start()
		return
	}
	c.startNano.Store(t.UnixNano())
}

// elapsed returns the time since the clock started.
func (c *clock) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - c.startNano.Load())
}

// PonderHit tells a pondering search that the expected move was played: it
// goes on under the normal clock, which starts now. Safe from any goroutine.
func (e *Engine) PonderHit() {
	if e.clock.pondering.CompareAndSwap(true, false) {
		e.clock.start()
		e.wakeUp()
	}
}

// timeBudget returns the soft and hard time limits of this move (0: none).
// The soft limit is checked between iterations, the hard one every pollEvery
// nodes. Move Overhead is kept in reserve for the communication.
func timeBudget(l *Limits, side position.Color, overhead time.Duration) (soft, hard time.Duration) {
	if l.Infinite {
		return 0, 0
	}
	if l.MoveTime > 0 {
		t := max(l.MoveTime-overhead, time.Millisecond)
		return t, t
	}
	if !l.HasClock() {
		return 0, 0
	}
	left, inc := l.WTime, l.WInc
	if side == position.Black {
		left, inc = l.BTime, l.BInc
	}
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > 30 {
		mtg = 30
	}
	usable := max(left-overhead, time.Millisecond)
	soft = usable/time.Duration(mtg) + inc*3/4
	hard = min(soft*4, usable/3)
	soft = min(soft, hard)
	hard = max(hard, time.Millisecond)
	return soft, hard
}

// poll runs on the main worker every pollEvery nodes: it enforces the hard
// time limit and sends a progress report at least once every reportInterval.
// Its nodes, nps and time come from the same instant, so they agree.
func (s *searchRun) poll(w *worker) {
	el := s.e.clock.elapsed()
	if s.hard > 0 && el >= s.hard && !s.e.clock.pondering.Load() {
		s.e.stop.Store(true)
	}
	if s.report != nil && time.Since(s.lastReport) >= reportInterval {
		s.lastReport = time.Now()
		n := s.nodes()
		s.report(Info{Depth: s.depth, SelDepth: max(w.selDepth, s.depth), Nodes: n, NPS: nps(n, el),
			HashFull: s.e.tt.HashFull(), TBHits: s.tbHits(), Time: el})
	}
}

// stopAfterIteration decides after the main worker completed iteration d
// whether to go deeper.
func (s *searchRun) stopAfterIteration(w *worker, d int) bool {
	lim := &s.lim
	if lim.Infinite || s.e.clock.pondering.Load() {
		return false
	}
	if lim.Depth > 0 && d >= lim.Depth {
		return true
	}
	if lim.Mate > 0 {
		if m := mateIn(w, w.rootMoves[0].score, w.bestPV); m > 0 && m <= lim.Mate {
			return true
		}
	}
	// A mate within the searched depth will not change.
	if lim.Depth == 0 && lim.Nodes == 0 {
		v := w.rootMoves[0].score
		if (v > ValueMateBand && ValueMate-v <= d) || (v < -ValueMateBand && ValueMate+v <= d) {
			return true
		}
	}
	// An iteration started past 60 % of the soft limit would most likely
	// not finish within it: do not start one.
	return s.soft > 0 && lim.MoveTime == 0 && s.e.clock.elapsed() >= s.soft*6/10
}

// holdUntilReleased waits, in infinite or ponder mode, until Stop (or, for a
// ponder search that has finished, PonderHit): a bestmove is never given
// before the user asked for it.
func (e *Engine) holdUntilReleased(lim *Limits) {
	for !e.userStop.Load() {
		if !lim.Infinite && !e.clock.pondering.Load() {
			return
		}
		<-e.wake
	}
}

func nps(nodes uint64, el time.Duration) uint64 {
	if el <= 0 {
		return 0
	}
	return uint64(float64(nodes) / el.Seconds())
}
