// Package solve proves the value of placing-phase positions: a search of the
// remaining placements whose leaves are the endgame tables (the positions
// where placing ends, every one of which the tables of the whole moving phase
// know), so that its answer is the game's value, not an estimate. Gasser
// proved Nine Men's Morris a draw this way in 1996: an 18-ply alpha-beta
// search over his databases.
//
// Values are win, draw or loss for the side to move, under the rules the
// tables use: repetitions and the N-move rules are ignored (they cannot
// happen while placing, and the tables ignore them after it). The search is a
// fail-soft alpha-beta over the three values, with a transposition table
// keyed by the position's least image under the board's 16 symmetries (an
// exact 64-bit encoding, so two positions are never confused), the best move
// of a proven subtree first, then the children in the order of the engine's
// static evaluation. Two proofs suffice for a draw: the side to move cannot
// win, and it cannot lose; the alpha-beta over three values does both.
//
// A long proof is resumable: the transposition table is written to a file
// every few minutes and read back at the next start, so that what was proven
// before is not searched again.
package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/wdl"
)

// Value is a proven value for the side to move (package wdl's, here so
// that the solver's callers need not import both).
type Value = wdl.Value

// Values.
const (
	Loss = wdl.Loss
	Draw = wdl.Draw
	Win  = wdl.Win
)

// Supported reports whether the solver can prove positions under r: the
// endgame tables must cover the rules, and a position's state must be its
// pieces, hands, side to move and pending removals (a mill while placing
// removes a piece from the board; nothing is marked or remembered).
func Supported(r *rules.Rules) error {
	if _, err := egtb.ParamsOf(r); err != nil {
		return err
	}
	switch {
	case r.MillFormationActionInPlacingPhase != rules.MillRemoveFromBoard:
		return fmt.Errorf("MillFormationActionInPlacingPhase %d: the solver handles a removal from the board (0)", r.MillFormationActionInPlacingPhase)
	case r.MayMoveInPlacingPhase:
		return errors.New("MayMoveInPlacingPhase: positions may repeat while placing")
	}
	return nil
}

// Stats are a proof's counters.
type Stats struct {
	Nodes  uint64 // positions searched (table leaves included)
	Leaves uint64 // table probes at the end of placing
	TTHits uint64 // positions answered by the transposition table
	// Transposed counts the positions settled by a child's table entry
	// before their own search (enhanced transposition cutoffs).
	Transposed uint64
	Elapsed    time.Duration
	TTFilled   uint64 // entries in use
}

// Progress receives a line now and then while a proof runs.
type Progress func(s Stats, what string)

// Solver proves placing-phase positions under one rule set with one set of
// endgame tables. One proof runs at a time; Actions spreads the root's
// actions over Options.Threads goroutines that share the table.
type Solver struct {
	r       rules.Rules
	tables  *egtb.Tables
	tt      *table
	threads int
	prog    Progress
	every   time.Duration // how often prog is called
	save    func() error  // writes the table, if a file was given
	saveEv  time.Duration
	extern  *atomic.Bool // Options.Stop

	ctx                     context.Context
	stop                    atomic.Bool
	failed                  error // why the proof cannot finish (a leaf the tables do not know), under mu
	nodes, leaves, hits, tr atomic.Uint64
	start                   time.Time
	mu                      sync.Mutex // progress lines and saves, one at a time
	lastProg, lastSave      time.Time
}

// worker is one goroutine's share of a proof: its counters since it last
// added them to the solver's.
type worker struct {
	s                       *Solver
	nodes, leaves, hits, tr uint64
	checkTime               int
	// kids holds the child being searched at each depth below the
	// worker's root: a child on search's own stack would escape to the heap
	// through the recursive call, an allocation per node.
	kids [maxDepth]position.Position
}

// maxDepth bounds a proof's depth below its root: at most 30 placements
// (keyOf holds hands of up to 15 pieces) and up to two removals after each.
const maxDepth = 90

// Options configure a Solver.
type Options struct {
	TableMB  int           // the transposition table's size (rounded down to a power of two buckets)
	File     string        // where the table is kept between runs ("": nowhere)
	Threads  int           // goroutines for Actions (default 1)
	Progress Progress      // called every Every, if set
	Every    time.Duration // progress interval (default 10 s)
	SaveEach time.Duration // how often the table is written to File (default 10 min)
	Stop     *atomic.Bool  // when set, stops a proof like a cancelled context
}

// New returns a solver for the rules r with the tables t (which must cover
// r). With a file, a table written by an earlier run for the same rules is
// read back.
func New(r rules.Rules, t *egtb.Tables, o Options) (*Solver, error) {
	if err := Supported(&r); err != nil {
		return nil, err
	}
	if !t.Covers(&r) {
		return nil, errors.New("solve: the endgame tables do not cover these rules")
	}
	s := &Solver{r: r, tables: t, prog: o.Progress, every: o.Every, saveEv: o.SaveEach, extern: o.Stop, threads: max(o.Threads, 1)}
	if s.every <= 0 {
		s.every = 10 * time.Second
	}
	if s.saveEv <= 0 {
		s.saveEv = 10 * time.Minute
	}
	mb := max(o.TableMB, 1)
	s.tt = newTable(uint64(mb) << 20)
	if o.File != "" {
		tag := rulesTag(&r)
		if err := s.tt.load(o.File, tag); err != nil && !errors.Is(err, errNoFile) {
			return nil, err
		}
		s.save = func() error { return s.tt.store(o.File, tag) }
	}
	s.lastSave = time.Now()
	return s, nil
}

// rulesTag names the rule set in a saved table: the tables' parameters and
// the placing rules that matter.
func rulesTag(r *rules.Rules) string {
	p, _ := egtb.ParamsOf(r)
	return fmt.Sprintf("%s pieces=%d mill-in-placing=%d defender-first=%t board-full=%d stop-two-empty=%t",
		p.Name(), r.PiecesCount, r.MillFormationActionInPlacingPhase, r.IsDefenderMoveFirst, r.BoardFullAction, r.StopPlacingWhenTwoEmptySquares)
}

// ActionValue is a root action and its proven value for the side that takes it.
type ActionValue struct {
	Move  position.Move
	Value Value
}

// ErrStopped is returned when a proof was interrupted.
var ErrStopped = errors.New("solve: interrupted")

// Value proves the value of p for its side to move.
func (s *Solver) Value(ctx context.Context, p *position.Position) (Value, error) {
	if err := s.Reaches(p); err != nil {
		return Draw, err
	}
	s.begin(ctx)
	v := s.exact(p)
	return v, s.end()
}

// Actions proves the value of every legal action of p, best first (ties in
// the order of the engine's evaluation), and p's value (the best action's).
// The actions are shared out among the solver's threads.
func (s *Solver) Actions(ctx context.Context, p *position.Position) (Value, []ActionValue, error) {
	if err := s.Reaches(p); err != nil {
		return Draw, nil, err
	}
	s.begin(ctx)
	moves := s.rootMoves(p)
	vals, done := s.eachAction(p, moves, Loss, Win, func(m position.Move, v Value) string { return fmt.Sprintf("%s: %s", m, v) })
	out := make([]ActionValue, 0, len(moves))
	for i, m := range moves {
		if done[i] {
			out = append(out, ActionValue{m, vals[i]})
		}
	}
	if err := s.end(); err != nil {
		return Draw, out, err
	}
	slices.SortStableFunc(out, func(a, b ActionValue) int { return int(b.Value) - int(a.Value) })
	if len(out) == 0 {
		return s.exact(p), nil, nil
	}
	return out[0].Value, out, nil
}

// Keeping proves p's value and which of its actions keep it: those after
// which the mover is still worth at least that value (for a drawn position,
// the actions that do not lose; for a lost one, every action). Each action
// needs only one-sided proofs, null windows, which are cheaper than its
// exact value (Actions); a book of proven values needs no more: the value
// and the actions that do not give it up. The actions are in the order of
// the engine's evaluation.
//
// The proof has two rounds over the actions, each shared out among the
// threads: which actions win; then, if none does, which do not lose. The
// root's own alpha-beta would find the value one action after another on a
// single thread before the keeping actions could be shared out; the rounds
// do the same one-sided proofs (a draw needs "no action wins" and "this one
// does not lose" either way) with every thread busy from the start.
func (s *Solver) Keeping(ctx context.Context, p *position.Position) (Value, []position.Move, error) {
	if err := s.Reaches(p); err != nil {
		return Draw, nil, err
	}
	s.begin(ctx)
	moves := s.rootMoves(p)
	if len(moves) == 0 {
		return s.exact(p), nil, s.end()
	}
	for _, v := range []Value{Win, Draw} {
		vals, done := s.eachAction(p, moves, v-1, v, func(m position.Move, cv Value) string {
			if cv >= v {
				return fmt.Sprintf("%s: at least a %s", m, v)
			}
			return fmt.Sprintf("%s: less than a %s", m, v)
		})
		if s.stop.Load() {
			return v, nil, s.end()
		}
		var keep []position.Move
		for i, m := range moves {
			if done[i] && vals[i] >= v {
				keep = append(keep, m)
			}
		}
		if len(keep) > 0 {
			return v, keep, s.end()
		}
	}
	return Loss, moves, s.end()
}

// exact searches p with the full window on the calling goroutine: its
// value, unless the proof is stopped.
func (s *Solver) exact(p *position.Position) Value {
	w := &worker{s: s}
	defer w.flush()
	return w.search(p, Loss, Win, 0)
}

// rootMoves returns p's legal actions in the order the proofs take them.
func (s *Solver) rootMoves(p *position.Position) []position.Move {
	var ml movegen.MoveList
	movegen.Generate(&s.r, p, &ml)
	moves := slices.Clone(ml.Slice())
	(&worker{s: s}).order(p, moves, position.NoMove, Win+1)
	return moves
}

// eachAction searches the position after each of p's moves within the
// window (alpha, beta) of p's mover, fail-soft, the moves shared out among
// the solver's threads, and reports each result with what(move, value). It
// returns the values from the mover's view and which of them were finished
// (an interrupt leaves the rest undone).
func (s *Solver) eachAction(p *position.Position, moves []position.Move, alpha, beta Value, what func(position.Move, Value) string) ([]Value, []bool) {
	vals := make([]Value, len(moves))
	done := make([]bool, len(moves))
	var next, finished atomic.Int64
	var wg sync.WaitGroup
	for range min(s.threads, len(moves)) {
		wg.Go(func() {
			w := &worker{s: s}
			defer w.flush()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(moves) || s.stop.Load() {
					return
				}
				c := *p
				c.Do(&s.r, moves[i])
				var v Value
				if c.SideToMove() == p.SideToMove() {
					v = w.search(&c, alpha, beta, 0)
				} else {
					v = -w.search(&c, -beta, -alpha, 0)
				}
				if s.stop.Load() {
					return
				}
				vals[i], done[i] = v, true
				w.flush()
				s.report(fmt.Sprintf("action %d/%d %s", finished.Add(1), len(moves), what(moves[i], v)))
			}
		})
	}
	wg.Wait()
	return vals, done
}

func (s *Solver) begin(ctx context.Context) {
	s.ctx = ctx
	s.stop.Store(false)
	s.mu.Lock()
	s.failed = nil
	s.mu.Unlock()
	s.nodes.Store(0)
	s.leaves.Store(0)
	s.hits.Store(0)
	s.tr.Store(0)
	s.start = time.Now()
	s.lastProg = s.start
}

// end finishes a proof: the table is saved if the last save is older than
// Options.SaveEach (a run of many short proofs does not write a table of
// gigabytes after each), and an interrupt is an error.
func (s *Solver) end() error {
	s.mu.Lock()
	_, err := s.saveLocked(time.Now(), false)
	failed := s.failed
	s.mu.Unlock()
	if failed != nil {
		return failed
	}
	if s.stop.Load() {
		return ErrStopped
	}
	return err
}

// Save writes the table to Options.File (nothing without one), so that
// the next run with that file goes on from everything proven so far; a run
// calls it when it ends, finished or interrupted.
func (s *Solver) Save() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.saveLocked(time.Now(), true)
	return err
}

// saveLocked writes the table, if one is kept in a file, when force is set
// or the last save is older than Options.SaveEach, and reports whether it
// wrote; s.mu is held.
func (s *Solver) saveLocked(now time.Time, force bool) (bool, error) {
	if s.save == nil || !force && now.Sub(s.lastSave) < s.saveEv {
		return false, nil
	}
	s.lastSave = now
	return true, s.save()
}

// fail stops the proof for a reason other than an interrupt; end returns
// the first such reason.
func (s *Solver) fail(err error) {
	s.mu.Lock()
	if s.failed == nil {
		s.failed = err
	}
	s.mu.Unlock()
	s.stop.Store(true)
}

// Reaches checks that the tables hold every sector a leaf of p can be in:
// each M v O (either side to move) from the rules' least number of pieces
// up to the pieces each side has on the board and in hand. Without one of
// them a proof cannot finish, so the engine does not start it (a table
// build half done, the ≤ 10-piece set).
func (s *Solver) Reaches(p *position.Position) error {
	least := s.tables.Params().MinPieces
	w := p.OnBoard(position.White) + p.InHand(position.White)
	b := p.OnBoard(position.Black) + p.InHand(position.Black)
	for m := least; m <= w; m++ {
		for o := least; o <= b; o++ {
			for _, sec := range []egtb.SectorSpec{{M: m, O: o}, {M: o, O: m}} {
				if !s.tables.Has(sec) {
					return fmt.Errorf("solve: a leaf may be in sector %s, which the tables in %s do not hold", sec, s.tables.Dir())
				}
			}
		}
	}
	return nil
}

// Threads returns the goroutines a proof shares its root's actions among.
func (s *Solver) Threads() int { return s.threads }

// Rules returns the rules the solver proves under.
func (s *Solver) Rules() *rules.Rules { return &s.r }

// Stats returns the counters of the last proof (as the threads last added
// them).
func (s *Solver) Stats() Stats {
	return Stats{Nodes: s.nodes.Load(), Leaves: s.leaves.Load(), TTHits: s.hits.Load(), Transposed: s.tr.Load(),
		Elapsed: time.Since(s.start), TTFilled: s.tt.filled.Load()}
}

func (s *Solver) report(what string) {
	if s.prog != nil {
		s.mu.Lock()
		s.prog(s.Stats(), what)
		s.mu.Unlock()
	}
}

// flush adds the worker's counters to the solver's.
func (w *worker) flush() {
	w.s.nodes.Add(w.nodes)
	w.s.leaves.Add(w.leaves)
	w.s.hits.Add(w.hits)
	w.s.tr.Add(w.tr)
	w.nodes, w.leaves, w.hits, w.tr = 0, 0, 0, 0
}

// tick looks at the clock every thousand nodes: the interrupt, progress and
// periodic saves (by whichever thread gets there).
func (w *worker) tick() {
	if w.checkTime > 0 {
		w.checkTime--
		return
	}
	w.checkTime = 1024
	w.flush()
	s := w.s
	if s.ctx.Err() != nil || s.extern != nil && s.extern.Load() {
		s.stop.Store(true)
	}
	if !s.mu.TryLock() {
		return
	}
	now := time.Now()
	prog := s.prog != nil && now.Sub(s.lastProg) >= s.every
	if prog {
		s.lastProg = now
		s.prog(s.Stats(), "")
	}
	if saved, err := s.saveLocked(now, false); saved && s.prog != nil {
		msg := "table saved"
		if err != nil {
			msg = "saving the table: " + err.Error()
		}
		s.prog(s.Stats(), msg)
	}
	s.mu.Unlock()
}

// terminal is the value of a finished game for its side to move.
func terminal(p *position.Position) Value {
	switch res, _ := p.Result(); res {
	case position.Draw:
		return Draw
	case position.Winner(p.SideToMove()):
		return Win
	}
	return Loss
}

// search returns the value of p for its side to move, within (alpha, beta)
// fail-soft: a value ≤ alpha is an upper bound, ≥ beta a lower bound. An
// interrupted search returns Draw and its caller's result is not used.
// depth is p's distance from the worker's root (where its children go in
// kids).
func (w *worker) search(p *position.Position, alpha, beta Value, depth int) Value {
	s := w.s
	w.nodes++
	w.tick()
	if s.stop.Load() {
		return Draw
	}
	if p.IsOver() {
		return terminal(p)
	}
	if p.InHand(position.White) == 0 && p.InHand(position.Black) == 0 {
		e, ok := s.tables.Lookup(&s.r, p)
		if !ok {
			s.fail(fmt.Errorf("solve: the tables do not know %s: %s", p.FEN(), s.tables.Why(&s.r, p)))
			return Draw
		}
		w.leaves++
		return e.Value.WDL()
	}
	k, sym := keyOf(p)
	lo, hi, best := s.tt.get(k)
	if lo != Loss || hi != Win {
		w.hits++
		if lo >= beta || lo == hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
	}
	if best != position.NoMove {
		best = best.Transform(sym.Inverse())
	}
	var ml movegen.MoveList
	movegen.Generate(&s.r, p, &ml)
	origAlpha := alpha
	v := Loss - 1
	var bestMove position.Move
	moves := ml.Slice()
	if remaining(p) > 1 {
		// The last placement's children are table leaves: probing them is
		// cheaper than ordering them.
		if cut, m, ok := w.order(p, moves, best, beta); ok {
			s.tt.put(k, max(lo, cut), hi, m.Transform(sym), remaining(p))
			return cut
		}
	}
	c := &w.kids[depth]
	for _, m := range moves {
		*c = *p
		c.Do(&s.r, m)
		var cv Value
		if c.SideToMove() == p.SideToMove() {
			cv = w.search(c, alpha, beta, depth+1)
		} else {
			cv = -w.search(c, -beta, -alpha, depth+1)
		}
		if s.stop.Load() {
			return Draw
		}
		if cv > v {
			v, bestMove = cv, m
		}
		alpha = max(alpha, cv)
		if alpha >= beta {
			break
		}
	}
	if v < Loss {
		panic("solve: a placing position without a legal action: " + p.FEN())
	}
	nlo, nhi := Loss, Win
	switch {
	case v <= origAlpha:
		nhi = v
	case v >= beta:
		nlo = v
	default:
		nlo, nhi = v, v
	}
	s.tt.put(k, max(lo, nlo), min(hi, nhi), bestMove.Transform(sym), remaining(p))
	return v
}

// remaining is the number of placements left, the size of the subtree a
// table entry saves.
func remaining(p *position.Position) int { return p.InHand(position.White) + p.InHand(position.Black) }

// order sorts moves in the order to search them: first the move the table
// remembers, then a move that wins at once, then by the engine's static
// evaluation of the position each leads to, best for the mover first.
//
// It also looks each child up in the table (an enhanced transposition
// cutoff): placements transpose so much that a sibling's proof has often
// already settled a child; when a child's stored bound is worth at least
// beta to the mover, order returns that value and the move (ok), and p
// needs no search. beta > Win asks for the ordering only.
func (w *worker) order(p *position.Position, moves []position.Move, first position.Move, beta Value) (cut Value, move position.Move, ok bool) {
	var score [movegen.MaxMoves]int
	us := p.SideToMove()
	r := &w.s.r
	for i, m := range moves {
		c := *p
		c.Do(r, m)
		if beta <= Win && !c.IsOver() && remaining(&c) > 0 {
			k, _ := keyOf(&c)
			lo, hi, _ := w.s.tt.get(k)
			if c.SideToMove() != us {
				lo = -hi
			}
			if lo >= beta {
				w.tr++
				return lo, m, true
			}
		}
		v := eval.Evaluate(r, &c)
		if c.SideToMove() != us {
			v = -v
		}
		if c.IsOver() {
			if res, _ := c.Result(); res == position.Winner(us) {
				v = 1 << 20
			}
		}
		if m == first {
			v = 1 << 21
		}
		score[i] = v
	}
	// Insertion sort: a few dozen moves, stable, no allocation.
	for i := 1; i < len(moves); i++ {
		m, v := moves[i], score[i]
		j := i
		for ; j > 0 && score[j-1] < v; j-- {
			moves[j], score[j] = moves[j-1], score[j-1]
		}
		moves[j], score[j] = m, v
	}
	return 0, position.NoMove, false
}

// keyOf returns the exact key of a placing position, for its least image
// under the symmetries, and the symmetry that maps p to that image: the
// pieces of both sides (24 bits each), the hands (4 bits each), the side to
// move and the pending removals of each side (2 bits each).
func keyOf(p *position.Position) (uint64, bb.Symmetry) {
	w, b := p.Pieces(position.White), p.Pieces(position.Black)
	y := bb.Canonical(w, b)
	k := uint64(y.Apply(w)) | uint64(y.Apply(b))<<24 |
		uint64(p.InHand(position.White))<<48 | uint64(p.InHand(position.Black))<<52 |
		uint64(p.SideToMove())<<56 | uint64(p.PendingRemovals(position.White)&3)<<57 | uint64(p.PendingRemovals(position.Black)&3)<<59
	return k, y
}

// Tree calls f for every position reached from p by fewer than plies
// actions, once for all its images under the board's symmetries, breadth
// first (p itself first), with one line of actions that reaches it; a game
// that is over is left out. f returns false to stop. It is how the first
// plies of a game are proven position by position (millengine solve --plies).
func Tree(r *rules.Rules, p *position.Position, plies int, f func(line []position.Move, q *position.Position) bool) {
	type node struct {
		line []position.Move
		pos  position.Position
	}
	front := []node{{pos: *p}}
	seen := map[uint64]bool{}
	for ply := 0; ply < plies && len(front) > 0; ply++ {
		var next []node
		for _, n := range front {
			if n.pos.IsOver() {
				continue
			}
			k, _ := keyOf(&n.pos)
			if seen[k] {
				continue
			}
			seen[k] = true
			if !f(n.line, &n.pos) {
				return
			}
			if ply == plies-1 {
				continue
			}
			var ml movegen.MoveList
			movegen.Generate(r, &n.pos, &ml)
			for _, m := range ml.Slice() {
				c := n.pos
				c.Do(r, m)
				next = append(next, node{append(slices.Clip(n.line), m), c})
			}
		}
		front = next
	}
}
