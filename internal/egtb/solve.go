package egtb

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// The retrograde solver.
//
// The sectors (m, o) and (o, m) are solved together: a non-capturing turn in
// one leads into the other, while a capturing turn (a slide or fly that
// closes a mill, then the removal) leaves the pair for the smaller sector
// (o−1, m), solved before. Values are kept as their bytes (1 + plies to the end,
// 0 unresolved or draw).
//
//  1. Init, in parallel over slot ranges. For each position: count the
//     non-capturing turns (weighted, see below), and find the best exit: the
//     best over the capturing turns and their removals, looked up in the
//     smaller sectors. No action at all: loss 0. An exit that wins is set as
//     a tentative win at its ply; a position whose only turns are exits takes
//     the exit's value.
//  2. Retrograde, in increasing ply order (a bucket queue whose buckets are the
//     value bytes: ply k is every slot whose byte is k+1). For each position
//     resolved at ply k, every predecessor (un-moves of the other side that
//     did not close a mill) is updated: if k is a loss, the predecessor wins at
//     k+1 (overriding a longer tentative exit win); if k is a win, its counter
//     drops, and at zero the predecessor loses, at ply max(k+1, its exit's
//     loss ply) — or draws if an exit draws. Updates are atomic on 32-bit
//     words, so the slots of one ply are processed in parallel. A slot's
//     value byte and counter share 16 bits (two slots a word), so an update
//     touches one cache line.
//  3. What is unresolved is a draw.
//
// Symmetry and the counters. A slot stands for a class of symmetric
// positions. The counter of P must reach zero exactly when every non-capturing
// turn of P leads to an opponent's win, and it is decremented once for every
// un-move from a resolved child's representative C that lands in P's class.
// Counting the positions pairs (R, R') with R ≡ P, R' ≡ C and a move R→R' two
// ways gives #unmoves(C→P) = #moves(P→C)·|Stab(C)|/|Stab(P)|, so P's counter
// starts at the sum over its turns of |Stab(child)|/|Stab(P)| — the number of
// its turns whenever the other side's set has no symmetry, which is almost
// always.

// work is one sector's arrays while it is being solved.
type work struct {
	sec *sector
	// cells holds two slots a word: slot i's value byte is byte 2i of the
	// array, its counter byte 2i+1 (atomic in the retrograde pass).
	cells   []uint32
	ext     []byte // best exit for counted positions: 0 none, 0xFF draw, else its (loss) value
	partner *work  // the sector of the opponent's positions: (o, m)
}

func newWork(sec *sector) *work {
	return &work{sec: sec, cells: make([]uint32, (int(sec.size)+1)/2), ext: make([]byte, sec.size)}
}

// bytesOf views a word slice as bytes.
func bytesOf(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
}

// values returns the value bytes of the sector.
func (w *work) values() []byte {
	b := bytesOf(w.cells)
	out := make([]byte, w.sec.size)
	for i := range out {
		out[i] = b[2*i]
	}
	return out
}

// SolveStats are the counts of one solved sector: raw positions (every
// placement, no symmetry reduction), weighted by orbit size.
type SolveStats struct {
	Positions, Wins, Draws, Losses uint64
	Stored, Slots                  uint64 // used slots, all slots
	LongestWin, LongestLoss        int    // in turns of the side to move
}

// Progress receives the solver's progress: a phase name, and done of total
// units (total 0 when unknown).
type Progress func(phase string, done, total uint64)

type solver struct {
	g       *game
	look    func(m, o int) *table // the smaller sectors (their DTM tables)
	zeroing bool                  // solve for DTZ: a removal ends the count like the end of the game
	threads int
	prog    Progress
	ctx     context.Context
	maxCnt  atomic.Int64
	fail    atomic.Pointer[error]
	pair    string // the sectors being solved, for progress: "3v4+4v3"
}

func (s *solver) setErr(err error) { s.fail.CompareAndSwap(nil, &err) }

func (s *solver) err() error {
	if e := s.fail.Load(); e != nil {
		return *e
	}
	return s.ctx.Err()
}

// solvePair solves the sector (m, o) and, unless m == o, (o, m). look must
// give the smaller sectors the captures lead to. It returns the value bytes
// of each sector (unused slots hold 0xFF) and the largest move counter.
func solvePair(ctx context.Context, p Params, m, o int, look func(m, o int) *table, zeroing bool, threads int, prog Progress) ([][]byte, int, error) {
	if threads < 1 {
		threads = 1
	}
	if prog == nil {
		prog = func(string, uint64, uint64) {}
	}
	s := &solver{g: newGame(p), look: look, zeroing: zeroing, threads: threads, prog: prog, ctx: ctx}
	a := newWork(newSector(m, o))
	ws := []*work{a}
	s.pair = a.sec.name()
	if m != o {
		s.pair += "+" + fmt.Sprintf("%dv%d", o, m)
		b := newWork(newSector(o, m))
		a.partner, b.partner = b, a
		ws = append(ws, b)
	} else {
		a.partner = a
	}
	hi := 0
	for _, w := range ws {
		h, err := s.initPass(w)
		if err != nil {
			return nil, 0, err
		}
		hi = max(hi, h)
	}
	if err := s.retro(ws, hi); err != nil {
		return nil, 0, err
	}
	out := make([][]byte, len(ws))
	for i, w := range ws {
		out[i] = w.values()
		w.cells, w.ext = nil, nil
	}
	return out, int(s.maxCnt.Load()), nil
}

// phase names a step for the progress: "3v4+4v3 init 3v4", "3v3 init".
func (s *solver) phase(step string, sec *sector) string {
	if s.pair == sec.name() {
		return s.pair + " " + step
	}
	return s.pair + " " + step + ", " + sec.name()
}

// chunk is the unit of parallel work, in slots (a multiple of 64).
const chunk = 1 << 14

// parallel runs f over [0, n) in chunks on s.threads goroutines, reporting
// progress under phase. f returns the highest ply it wrote.
func (s *solver) parallel(phase string, n uint32, f func(lo, hi uint32) int) (int, error) {
	var next atomic.Uint32
	var done atomic.Uint64
	nchunks := (n + chunk - 1) / chunk
	his := make([]int, s.threads)
	var wg sync.WaitGroup
	for t := 0; t < s.threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			for s.err() == nil {
				c := next.Add(1) - 1
				if c >= nchunks {
					return
				}
				lo := c * chunk
				hi := min(lo+chunk, n)
				his[t] = max(his[t], f(lo, hi))
				d := done.Add(uint64(hi - lo))
				if t == 0 {
					s.prog(phase, d, uint64(n))
				}
			}
		}(t)
	}
	wg.Wait()
	hi := 0
	for _, h := range his {
		hi = max(hi, h)
	}
	return hi, s.err()
}

// initPass sets every slot of w: tentative exit wins, immediate losses and
// exits' values, the counters. It returns the highest ply it set.
func (s *solver) initPass(w *work) (int, error) {
	sec := w.sec
	cells := bytesOf(w.cells)
	var exitTab, exitTab2 *table
	if sec.o-1 >= s.g.p.MinPieces {
		if exitTab = s.look(sec.o-1, sec.m); exitTab == nil {
			return 0, fmt.Errorf("egtb: sector %dv%d needs %dv%d, which is missing", sec.m, sec.o, sec.o-1, sec.m)
		}
	}
	if s.g.p.RemoveMultiple && sec.o-2 >= s.g.p.MinPieces {
		if exitTab2 = s.look(sec.o-2, sec.m); exitTab2 == nil {
			return 0, fmt.Errorf("egtb: sector %dv%d needs %dv%d, which is missing", sec.m, sec.o, sec.o-2, sec.m)
		}
	}
	look := func(mover, other bb.Bitboard) (Value, bool) {
		t := exitTab
		if mover.Count() != sec.o-1 {
			t = exitTab2
		}
		v := t.get(mover, other)
		if s.zeroing {
			v = zeroed(v)
		}
		return v, true
	}
	g := s.g
	others := setsOf(sec.o)
	return s.parallel(s.phase("init", sec), sec.size, func(lo, hi uint32) int {
		top, maxN := 0, 0
		defer func() { s.noteCounter(maxN) }()
		ci, j := lo/sec.others, lo%sec.others
		c := unrankColex(j, sec.o, 24-sec.m)
		mover := sec.movers.sets[ci]
		stabM := uint16(sec.movers.info[colex(mover)])
		for i := lo; i < hi; i++ {
			other := deposit(c, mover)
			if stabM == 1 || sec.used(mover, other) {
				v, n, ext := g.initPosition(mover, other, stabM, others, look)
				if n > 0xFF {
					s.setErr(fmt.Errorf("egtb: sector %s: a move counter of %d does not fit a byte", sec.name(), n))
					return top
				}
				maxN = max(maxN, n)
				cells[2*i], cells[2*i+1], w.ext[i] = v, byte(n), ext
				if v != 0 {
					top = max(top, int(v)-1)
				}
			} else {
				cells[2*i] = unused
			}
			// Next slot: the next other's set, or the next mover's set.
			if j++; j == sec.others {
				j = 0
				c = 1<<sec.o - 1
				if ci++; int(ci) < len(sec.movers.sets) {
					mover = sec.movers.sets[ci]
					stabM = uint16(sec.movers.info[colex(mover)])
				}
			} else {
				x := c & -c
				y := c + x
				c = ((y^c)>>2)/x | y
			}
		}
		return top
	})
}

// zeroed is the value, for the DTZ count, of the position a removal leads to
// (the opponent to move): the count ends there, so only who wins remains —
// a loss as loss 0, a win as win 1, so that the turn that removed is worth
// win 1 or loss 1 (Value.Parent), a draw a draw.
func zeroed(v Value) Value {
	switch {
	case v.IsLoss():
		return Loss(0)
	case v.IsWin():
		return Win(1)
	}
	return Draw
}

// noteCounter records the largest move counter seen.
func (s *solver) noteCounter(n int) {
	for {
		old := s.maxCnt.Load()
		if int64(n) <= old || s.maxCnt.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

// initPosition returns the starting value byte, the counter and the exit
// byte of the position (mover, other), mover to move.
func (g *game) initPosition(mover, other bb.Bitboard, stabM uint16, others *setTable, look lookupFunc) (val byte, n int, ext byte) {
	// Weights: 1 unless the other side's set has a symmetry.
	var stabO uint16 = 1
	if e := uint16(others.info[colex(other)]); e&(e-1) != 0 {
		stabO = stabiliser(other)
	}
	weighted := 0
	best, hasExit := Value(0), false
	g.forEachAction(mover, other, func(m2 bb.Bitboard) {
		if stabO == 1 {
			weighted++
		} else {
			weighted += bits.OnesCount16(stabiliserWithin(m2, stabO))
		}
	}, func(m2 bb.Bitboard, n int) {
		v, _ := g.afterMill(m2, other, n, look)
		if !hasExit || v.Better(best) {
			best, hasExit = v, true
		}
	})
	if stabO != 1 {
		sp := bits.OnesCount16(stabO & stabM)
		if weighted%sp != 0 {
			panic(fmt.Sprintf("egtb: counter %d of %06x/%06x not divisible by |Stab| %d", weighted, mover, other, sp))
		}
		weighted /= sp
	}
	switch {
	case hasExit && best.IsWin():
		return byte(best), weighted, 0
	case weighted == 0 && !hasExit:
		return byte(Loss(0)), 0, 0
	case weighted == 0:
		return byte(best), 0, 0 // a loss or a draw (0)
	case !hasExit:
		return 0, weighted, 0
	case best.IsDraw():
		return 0, weighted, 0xFF
	}
	return 0, weighted, byte(best)
}

// retro is the retrograde pass over the pair's sectors, from ply 0 to the
// last ply anything was set at.
func (s *solver) retro(ws []*work, hi int) error {
	for k := 0; k <= hi; k++ {
		if k+2 > maxValue {
			return fmt.Errorf("egtb: sector %s: distance of %d plies does not fit a byte", ws[0].sec.name(), k+1)
		}
		target := byte(k + 1)
		for _, w := range ws {
			h, err := s.parallel(s.phase(fmt.Sprintf("retrograde ply %d", k), w.sec), w.sec.size, func(lo, hi uint32) int {
				return s.retroRange(w, lo, hi, k, target)
			})
			if err != nil {
				return err
			}
			hi = max(hi, h)
		}
	}
	return nil
}

// retroRange handles the slots of w in [lo, hi) resolved at ply k.
func (s *solver) retroRange(w *work, lo, hi uint32, k int, target byte) int {
	top := 0
	for wi := lo / 2; wi < (hi+1)/2; wi++ {
		x := atomic.LoadUint32(&w.cells[wi])
		for bi := uint32(0); bi < 2; bi++ {
			if byte(x>>(16*bi)) != target {
				continue
			}
			mover, other := w.sec.decode(wi*2 + bi)
			top = max(top, s.predecessors(w.partner, mover, other, k))
		}
	}
	return top
}

// predecessors updates every predecessor, in sector q, of the position
// (mover, other) resolved at ply k: the positions from which the other side
// reached it by a turn that closed no mill.
func (s *solver) predecessors(q *work, mover, other bb.Bitboard, k int) int {
	top := 0
	if k&1 == 0 {
		v := byte(k + 2)
		s.g.forEachUnmove(mover, other, func(prev bb.Bitboard) {
			top = max(top, q.setWin(q.sec.index(prev, mover), v))
		})
	} else {
		s.g.forEachUnmove(mover, other, func(prev bb.Bitboard) {
			top = max(top, q.decrement(q.sec.index(prev, mover), k))
		})
	}
	return top
}

// setWin makes slot i a win with byte v unless it wins sooner already. It
// returns the ply it set, or 0.
func (w *work) setWin(i uint32, v byte) int {
	p := &w.cells[i>>1]
	sh := 16 * (i & 1)
	for {
		old := atomic.LoadUint32(p)
		cur := byte(old >> sh)
		if cur != 0 && (cur&1 == 1 || cur <= v) {
			return 0
		}
		if atomic.CompareAndSwapUint32(p, old, old&^(0xFF<<sh)|uint32(v)<<sh) {
			return int(v) - 1
		}
	}
}

// decrement counts down the counter of slot i after one of its children
// became a win at ply k; at zero the slot loses (or draws by its exit). It
// returns the ply it set, or 0. A slot that wins already is counted down
// too, harmlessly: every counter gets exactly as many decrements as it
// started with, and nothing else writes a value in a ply of wins.
func (w *work) decrement(i uint32, k int) int {
	p := &w.cells[i>>1]
	sh := 16 * (i & 1)
	now := atomic.AddUint32(p, ^uint32(1<<(sh+8)-1)) // the counter byte minus 1
	if byte(now>>(sh+8)) == 0xFF {
		panic(fmt.Sprintf("egtb: sector %s: the counter of slot %d went below zero", w.sec.name(), i))
	}
	if byte(now>>sh) != 0 || byte(now>>(sh+8)) != 0 {
		return 0 // it wins, or children are left
	}
	e := w.ext[i]
	if e == 0xFF {
		return 0 // its exit draws
	}
	ply := k + 1
	if e != 0 && int(e)-1 > ply {
		ply = int(e) - 1
	}
	for {
		old := atomic.LoadUint32(p)
		if atomic.CompareAndSwapUint32(p, old, old&^(0xFF<<sh)|uint32(ply+1)<<sh) {
			return ply
		}
	}
}

// sectorStats counts the values of a solved sector, weighted by orbit size.
func sectorStats(sec *sector, data []byte) SolveStats {
	st := SolveStats{Slots: uint64(sec.size)}
	var hist [256]uint64 // weighted counts per value byte
	var stored uint64
	for ci, mover := range sec.movers.sets {
		block := data[uint32(ci)*sec.others : uint32(ci+1)*sec.others]
		if uint16(sec.movers.info[colex(mover)]) == 1 {
			for _, v := range block {
				hist[v] += bb.NumSymmetries
			}
			stored += uint64(len(block))
			continue
		}
		c := uint32(1)<<sec.o - 1
		for _, v := range block {
			if v != unused {
				hist[v] += uint64(sec.orbit(mover, deposit(c, mover)))
				stored++
			}
			x := c & -c
			y := c + x
			c = ((y^c)>>2)/x | y
		}
	}
	st.Stored = stored
	for v := 0; v < unused; v++ {
		n := hist[v]
		if n == 0 {
			continue
		}
		st.Positions += n
		switch val := Value(v); {
		case val.IsWin():
			st.Wins += n
			st.LongestWin = max(st.LongestWin, val.Distance())
		case val.IsLoss():
			st.Losses += n
			st.LongestLoss = max(st.LongestLoss, val.Distance())
		default:
			st.Draws += n
		}
	}
	return st
}

func defaultThreads() int { return runtime.NumCPU() }
