package uci

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// Timing of the loop's watchdog over a running search. The search keeps its
// own time (internal/search/clock.go); the loop only steps in when a search
// does not answer.
const (
	quitWait   = 150 * time.Millisecond // how long quit waits for a search to stop
	goWait     = 2 * time.Second        // how long a stopped search may take to answer before it is abandoned
	maxClockMs = 1 << 40                // larger times are surely mistakes
)

// errNoPosition answers go after a rejected position command.
var errNoPosition = errors.New("no valid position")

// goRequest is a parsed go command.
type goRequest struct {
	lim       search.Limits
	untilStop bool // bestmove waits for stop (infinite, or MoveTime 0)
	hard      time.Duration
	ignored   []string // unknown tokens, ignored with a warning
}

// run is the state of one search, from go to bestmove.
type run struct {
	id          int
	game        *position.Game // the root, owned by the loop
	legal       []position.Move
	searchMoves []position.Move
	untilStop   bool          // infinite: bestmove only after stop
	pondering   bool          // ponder mode and no ponderhit yet
	stopSent    bool          // Stop was called (by stop, quit, a new go or the watchdog)
	hard        time.Duration // the watchdog's deadline from the clock's start, 0 for none
	start       time.Time
	done        bool // the search goroutine has returned
	held        search.Result
	lastPV      []position.Move // the last legal main line reported
}

// event is what a search or a job sends the loop: an info line or, last, the
// search's result; a line of a job's output or, last, the job's end.
type event struct {
	id     int
	info   *search.Info
	result *search.Result
	line   *string
	end    bool
}

// sender returns a function that sends events to the loop from another
// goroutine, and gives up once the session has ended.
func (s *session) sender() func(event) {
	events, closed := s.events, s.closed
	return func(ev event) {
		select {
		case events <- ev:
		case <-closed:
		}
	}
}

// watchdogC returns the channel of the watchdog timer, or nil when it is not armed.
func (s *session) watchdogC() <-chan time.Time {
	if s.watchdog == nil {
		return nil
	}
	return s.watchdog.C
}

// armWatchdog (re)starts the watchdog to fire after d; d <= 0 disarms it.
func (s *session) armWatchdog(d time.Duration) {
	s.stopWatchdog()
	if d > 0 {
		s.watchdog = time.NewTimer(d)
	}
}

func (s *session) stopWatchdog() {
	if s.watchdog != nil {
		s.watchdog.Stop()
		s.watchdog = nil
	}
}

// cmdGo handles go. A running search is stopped first and its bestmove
// written, so every go gets exactly one bestmove, in order. go perft is
// separate: it counts, it does not search.
func (s *session) cmdGo(args []string) error {
	if len(args) > 0 && strings.EqualFold(args[0], "perft") {
		return s.cmdPerft(args[1:])
	}
	// The move's time runs from here: stopping a search still running, the
	// book and the tables' notes on the root are spent from it.
	arrived := time.Now()
	s.stopAll(goWait)
	if !s.valid {
		s.userError(strings.TrimSpace("go "+strings.Join(args, " ")), errNoPosition)
		s.printf("bestmove none")
		return nil
	}
	req, err := s.parseGo(args)
	if err != nil {
		s.userError(strings.TrimSpace("go "+strings.Join(args, " ")), err)
		s.printf("bestmove none")
		return nil
	}
	req.lim.Start = arrived
	if n := len(req.ignored); n > 0 {
		qs := make([]string, n)
		for i, a := range req.ignored {
			qs[i] = quote(a)
		}
		noun := "argument"
		if n > 1 {
			noun = "arguments"
		}
		s.log.Warn().Strs("ignored", req.ignored).Msg("go: unknown arguments")
		s.printf("info string warning: go: unknown %s %s ignored", noun, strings.Join(qs, " "))
	}
	g := s.game
	legal := legalMoves(g)
	if g.Pos.IsOver() || len(legal) == 0 {
		if res, why := g.Pos.Result(); g.Pos.IsOver() {
			s.printf("info string game over: %s (%s)", res, why)
		} else {
			s.printf("info string game over: no legal action")
		}
		if req.untilStop || req.lim.Ponder {
			s.holdNone(req)
			return nil
		}
		s.printf("bestmove none")
		return nil
	}
	if s.notesAtGo(g, &req) {
		return nil
	}
	s.startSearch(req, legal)
	return nil
}

// holdNone answers an infinite (or ponder) go on a finished game like any
// infinite search: its bestmove, none, waits for stop (or ponderhit).
func (s *session) holdNone(req goRequest) {
	s.runID++
	s.run = &run{id: s.runID, game: s.game.Clone(), untilStop: req.untilStop, pondering: req.lim.Ponder,
		start: time.Now(), done: true}
}

// goParam is a go argument with an integer value: its range, where it goes,
// and whether it limits the search (a go without any limit gets the MoveTime
// option's time).
type goParam struct {
	lo, hi  int64
	limits  bool
	setting func(l *search.Limits, v int64)
}

func msec(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

// goParams are the go arguments that take a value. A clock at or below zero
// is still a clock: the engine moves at once.
var goParams = map[string]goParam{
	"wtime":     {-maxClockMs, maxClockMs, true, func(l *search.Limits, v int64) { l.WTime = msec(max(v, 1)) }},
	"btime":     {-maxClockMs, maxClockMs, true, func(l *search.Limits, v int64) { l.BTime = msec(max(v, 1)) }},
	"winc":      {0, maxClockMs, false, func(l *search.Limits, v int64) { l.WInc = msec(v) }},
	"binc":      {0, maxClockMs, false, func(l *search.Limits, v int64) { l.BInc = msec(v) }},
	"movestogo": {0, 1_000_000, false, func(l *search.Limits, v int64) { l.MovesToGo = int(v) }},
	"depth":     {1, search.MaxPly - 1, true, func(l *search.Limits, v int64) { l.Depth = int(v) }},
	"nodes":     {1, 1 << 62, true, func(l *search.Limits, v int64) { l.Nodes = uint64(v) }},
	"movetime":  {1, maxClockMs, true, func(l *search.Limits, v int64) { l.MoveTime = msec(v) }},
	"mate":      {1, search.MaxPly / 4, true, func(l *search.Limits, v int64) { l.Mate = int(v) }},
	// UGI names the clocks by player; player 1 (White) moves first.
	"p1time": {-maxClockMs, maxClockMs, true, func(l *search.Limits, v int64) { l.WTime = msec(max(v, 1)) }},
	"p2time": {-maxClockMs, maxClockMs, true, func(l *search.Limits, v int64) { l.BTime = msec(max(v, 1)) }},
	"p1inc":  {0, maxClockMs, false, func(l *search.Limits, v int64) { l.WInc = msec(v) }},
	"p2inc":  {0, maxClockMs, false, func(l *search.Limits, v int64) { l.BInc = msec(v) }},
}

// parseGo reads the arguments of go into limits. A go with no limit at all
// gets the MoveTime option's time, or searches until stop if it is 0.
func (s *session) parseGo(args []string) (goRequest, error) {
	var (
		req     goRequest
		l       = &req.lim
		limited bool
	)
	for i := 0; i < len(args); i++ {
		key := strings.ToLower(args[i])
		switch key {
		case "infinite":
			l.Infinite, limited = true, true
			continue
		case "ponder":
			l.Ponder = true
			continue
		case "searchmoves":
			n, err := s.parseSearchMoves(args[i+1:], l)
			if err != nil {
				return req, err
			}
			i += n
			continue
		}
		prm, ok := goParams[key]
		if !ok {
			// GUIs send what other engines know; a search is still wanted.
			req.ignored = append(req.ignored, args[i])
			continue
		}
		if i+1 >= len(args) {
			return req, fmt.Errorf("go: %s wants a value", key)
		}
		i++
		v, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			return req, fmt.Errorf("go: %s %s is not an integer", key, quote(args[i]))
		}
		if v < prm.lo || v > prm.hi {
			return req, fmt.Errorf("go: %s %d is out of range %d..%d", key, v, prm.lo, prm.hi)
		}
		prm.setting(l, v)
		limited = limited || prm.limits
	}
	if !limited {
		if s.moveTime > 0 {
			l.MoveTime = s.moveTime
		} else {
			l.Infinite = true
		}
	}
	req.untilStop = l.Infinite
	req.hard = hardDeadline(l, s.game.Pos.SideToMove(), s.sopts.MoveOverhead)
	return req, nil
}

// parseSearchMoves reads the move tokens after searchmoves, up to the next
// go keyword, into l. It returns how many tokens it read.
func (s *session) parseSearchMoves(args []string, l *search.Limits) (int, error) {
	g := s.game
	n := 0
	for ; n < len(args) && !isGoKeyword(args[n]); n++ {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, args[n])
		if err != nil {
			return n, fmt.Errorf("go searchmoves: %w", err)
		}
		l.SearchMoves = append(l.SearchMoves, m)
	}
	if n == 0 {
		return 0, errors.New("go searchmoves: want at least one move token")
	}
	return n, nil
}

// isGoKeyword reports whether tok starts another go argument (it ends a
// searchmoves list).
func isGoKeyword(tok string) bool {
	key := strings.ToLower(tok)
	_, ok := goParams[key]
	return ok || key == "infinite" || key == "ponder" || key == "searchmoves"
}

// hardDeadline is the watchdog's deadline: the time after which the loop
// stops a search that has not answered. It is looser than the search's own
// limits (the search stops itself at MoveTime minus the overhead, and uses at
// most a third of its clock).
func hardDeadline(l *search.Limits, side position.Color, overhead time.Duration) time.Duration {
	if l.Infinite {
		return 0
	}
	if l.MoveTime > 0 {
		return l.MoveTime
	}
	left := l.WTime
	if side == position.Black {
		left = l.BTime
	}
	if left <= 0 {
		return 0
	}
	return max((left-overhead)/2, time.Millisecond)
}

// startSearch hands a copy of the game to a search goroutine.
func (s *session) startSearch(req goRequest, legal []position.Move) {
	if s.game.Rules != s.engineRules {
		s.engine.NewGame()
		s.engineRules = s.game.Rules
	}
	s.runID++
	r := &run{
		id:          s.runID,
		game:        s.game.Clone(),
		legal:       legal,
		searchMoves: req.lim.SearchMoves,
		untilStop:   req.untilStop,
		pondering:   req.lim.Ponder,
		hard:        req.hard,
		start:       req.lim.Start,
	}
	s.run = r
	if !r.pondering && r.hard > 0 {
		s.armWatchdog(max(r.hard-time.Since(r.start), time.Millisecond))
	}
	g := s.game.Clone()
	lim := req.lim
	lim.SearchMoves = append([]position.Move(nil), lim.SearchMoves...)
	id, send, eng := r.id, s.sender(), s.engine
	s.log.Debug().Int("search", id).Msg("search started")
	eng.Prepare(lim.Ponder) // before the goroutine: a stop sent next cannot be lost
	go func() {
		res := eng.Search(g, lim, func(in search.Info) {
			in.PV = append([]position.Move(nil), in.PV...)
			send(event{id: id, info: &in})
		})
		res.PV = append([]position.Move(nil), res.PV...)
		send(event{id: id, result: &res})
	}()
}

// handleEvent prints an info line or, for a result, the bestmove (held back
// in infinite and ponder mode until stop or ponderhit); a job's events go to
// handleJobEvent.
func (s *session) handleEvent(ev event) {
	if ev.line != nil || ev.end {
		s.handleJobEvent(ev)
		return
	}
	r := s.run
	if r == nil || ev.id != r.id {
		s.log.Debug().Int("search", ev.id).Msg("event of an abandoned search dropped")
		return
	}
	if ev.info != nil {
		s.printInfo(r, ev.info)
		return
	}
	r.done = true
	s.stopWatchdog()
	if (r.untilStop || r.pondering) && !r.stopSent {
		r.held = *ev.result
		s.log.Debug().Int("search", r.id).Msg("search finished early; bestmove held until stop or ponderhit")
		return
	}
	s.emitBest(r, ev.result)
}

// watchdogFired handles a search that has not answered by its deadline:
// it is stopped, and if it does not answer within goWait after that, it is
// abandoned with the last legal move it reported.
func (s *session) watchdogFired() {
	s.watchdog = nil
	r := s.run
	if r == nil || r.done {
		return
	}
	if !r.stopSent {
		s.log.Warn().Int("search", r.id).Dur("after", time.Since(r.start)).Msg("watchdog: the search overran its time; stopping it")
		s.stopRun(r)
		s.armWatchdog(goWait)
		return
	}
	s.log.Error().Int("search", r.id).Dur("after", time.Since(r.start)).Msg("watchdog: the search does not answer; abandoning it")
	s.emitBest(r, &search.Result{})
}

// cmdStop ends the running search; its bestmove follows (at once if it is
// being held). stop without a search is ignored.
func (s *session) cmdStop() {
	switch {
	case s.run != nil:
		s.stopRun(s.run)
	case s.job != nil:
		s.stopJob()
	default:
		s.log.Debug().Msg("stop without a search ignored")
	}
}

// stopRun asks the search r to stop. If r has already finished and holds its
// bestmove, the bestmove is written now. It reports whether r still runs.
func (s *session) stopRun(r *run) bool {
	if r.done {
		s.emitBest(r, &r.held)
		return false
	}
	r.stopSent = true
	s.engine.Stop()
	return true
}

// cmdPonderHit switches a pondering search to the normal clock. Without a
// pondering search it is ignored.
func (s *session) cmdPonderHit() {
	r := s.run
	if r == nil || !r.pondering {
		s.log.Debug().Msg("ponderhit without a pondering search ignored")
		return
	}
	r.pondering = false
	if r.done {
		if !r.untilStop {
			s.emitBest(r, &r.held)
		}
		return
	}
	s.armWatchdog(r.hard)
	s.engine.PonderHit()
}

// stopAndWait stops the running search and waits for its result (at most
// wait), writing its info lines and bestmove.
func (s *session) stopAndWait(wait time.Duration) {
	r := s.run
	if r == nil || !s.stopRun(r) {
		return
	}
	if !s.handleEventsUntil(wait, func() bool { return s.run != r }) {
		s.log.Error().Int("search", r.id).Dur("waited", wait).Msg("search did not stop; abandoning it")
		s.emitBest(r, &search.Result{})
	}
}

// handleEventsUntil handles the events of searches and jobs until done
// reports true, or at most wait; it returns false if wait ran out first.
func (s *session) handleEventsUntil(wait time.Duration, done func() bool) bool {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for !done() {
		select {
		case ev := <-s.events:
			s.handleEvent(ev)
		case <-deadline.C:
			return false
		}
	}
	return true
}

// finishSearch ends the session's search or job for quit, the end of input
// or a cancelled context.
func (s *session) finishSearch() { s.stopAll(quitWait) }

// emitBest writes the bestmove of r and ends it. A move the search should
// never return (illegal, or outside searchmoves) is replaced by a legal one
// and logged.
func (s *session) emitBest(r *run, res *search.Result) {
	s.run = nil
	s.stopWatchdog()
	best := res.BestMove
	if len(r.legal) == 0 {
		s.printf("bestmove none") // the game is over
		return
	}
	if !slices.Contains(r.legal, best) {
		alt := r.legal[0]
		if len(r.lastPV) > 0 {
			alt = r.lastPV[0]
		}
		s.log.Error().Str("bestmove", best.String()).Str("instead", alt.String()).Msg("search returned no legal move")
		best = alt
	}
	if len(r.searchMoves) > 0 && !slices.Contains(r.searchMoves, best) {
		s.log.Error().Str("bestmove", best.String()).Msg("search returned a move outside searchmoves")
		best = r.searchMoves[0]
	}
	line := "bestmove " + best.String()
	if s.ponder && !s.ugi && res.PonderMove != position.NoMove && len(r.searchMoves) == 0 {
		after := r.game.Pos
		after.Do(&r.game.Rules, best)
		// Only an opponent's reply is worth pondering; after a mill the
		// removal is ours.
		if after.SideToMove() != r.game.Pos.SideToMove() && !after.IsOver() &&
			movegen.IsLegal(&r.game.Rules, &after, res.PonderMove) {
			line += " ponder " + res.PonderMove.String()
		}
	}
	s.log.Debug().Int("search", r.id).Str("line", line).Dur("elapsed", time.Since(r.start)).Msg("search ended")
	if res.Source != search.FromSearch && best == res.BestMove {
		// Where the move came from when it was not the search alone, as
		// the book says "info string book move …".
		s.printf("info string %s move %s", res.Source, best)
	}
	s.printf("%s", line)
}

// printInfo writes an info line: the full shape when the PV is a legal line
// from the root, the periodic shape (no score, no pv) otherwise. Lines beyond
// the MultiPV option (a weakened search may look at more) are not shown.
func (s *session) printInfo(r *run, in *search.Info) {
	if in.Note != "" {
		s.printf("info string %s", in.Note)
		return
	}
	k := max(in.MultiPV, 1)
	if k > s.sopts.MultiPV {
		return
	}
	pv := legalPrefix(r.game, in.PV)
	if len(pv) < len(in.PV) {
		s.log.Error().Str("pv", position.JoinMoves(in.PV)).Int("legal", len(pv)).Msg("search reported an illegal pv; cut")
	}
	if k == 1 && len(pv) > 0 {
		r.lastPV = pv
	}
	if len(pv) == 0 {
		s.printf("info depth %d seldepth %d nodes %d nps %d hashfull %d%s time %d",
			in.Depth, in.SelDepth, in.Nodes, in.NPS, in.HashFull, tbHits(in), in.Time.Milliseconds())
		return
	}
	mpv := ""
	if s.sopts.MultiPV > 1 {
		mpv = fmt.Sprintf(" multipv %d", k)
	}
	s.printf("info depth %d%s seldepth %d score %s%s nodes %d nps %d hashfull %d%s time %d pv %s",
		in.Depth, mpv, in.SelDepth, ScoreString(in), s.wdlString(in), in.Nodes, in.NPS, in.HashFull, tbHits(in), in.Time.Milliseconds(), position.JoinMoves(pv))
}

// tbHits is the " tbhits N" of an info line, when the search probed the
// endgame tables.
func tbHits(in *search.Info) string {
	if in.TBHits == 0 {
		return ""
	}
	return fmt.Sprintf(" tbhits %d", in.TBHits)
}

// legalPrefix returns the longest prefix of pv that is a legal line from the
// game's position.
func legalPrefix(g *position.Game, pv []position.Move) []position.Move {
	p := g.Pos
	for i, m := range pv {
		if !movegen.IsLegal(&g.Rules, &p, m) {
			return pv[:i]
		}
		p.Do(&g.Rules, m)
	}
	return pv
}
