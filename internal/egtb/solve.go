package egtb

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
)

// The retrograde solver.
//
// The sectors (m, o) and (o, m) are solved together: a non-capturing turn in
// one leads into the other, while a capturing turn (a slide or fly that
// closes a mill, then the removal) leaves the pair for the smaller sector
// (o−1, m), solved before. Values are kept as in the files (1 + plies to the
// end, 0 unresolved or draw), in 16 bits while solving.
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
//     loss ply) — or draws if an exit draws. Updates are atomic on a slot's
//     32-bit cell (value, counter and exit together), so the slots of one
//     ply are processed in parallel and an update touches one cache line;
//     each thread gathers its updates and applies them sorted by region of
//     the cells (updateBuf), so that the cells of a region are in the
//     caches while its updates are applied.
//  3. What is unresolved is a draw.
//
// A pair that takes long keeps checkpoints (see checkpointer): the cells and
// how far the solve has come, written at the end of an init segment or a
// retrograde ply, from which a killed build goes on.
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

// work is one sector's array while it is being solved.
type work struct {
	sec *sector
	// cells holds a word per slot: the value (1 + plies to the end, 0 while
	// unresolved or a draw, unusedCell for an unused slot) in bits 0–15, the
	// move counter in bits 16–23 and the best exit in bits 24–31 (0 none,
	// 0xFF a draw, else its loss value byte). One word per slot puts all
	// that an update reads in one cache line, and the 16-bit value lets a
	// solve run past the 253 plies a file byte holds (the write then says
	// so) instead of failing in the middle.
	cells []uint32
	// plies has plyWords words per chunk of slots: bit k%256 (plyBit) is
	// set once a slot of the chunk took ply k, so that the retrograde pass
	// skips the chunks without a slot of its ply instead of reading them (a
	// hint: a set bit may stand for a ply 256 plies away). Pairs run to 189
	// plies, so bits mod 64 often stood for other plies (docs/tables.md
	// gives the cells read either way).
	plies   []uint64
	free    func() // releases cells (huge-page memory outside the Go heap)
	partner *work  // the sector of the opponent's positions: (o, m)
}

// Fields of a cell.
const (
	cntShift   = 16
	extShift   = 24
	valMask    = 0xFFFF
	unusedCell = valMask // the value of an unused slot
	maxPly     = 0xFFFD  // the longest distance, in plies, a solve can reach
)

func cellOf(val byte, n int, ext byte) uint32 {
	return uint32(val) | uint32(n)<<cntShift | uint32(ext)<<extShift
}

// newWork maps the cells of sec in huge pages: the retrograde pass updates
// them at random, and 4 KB pages would cost a TLB miss on almost every
// update of a large sector.
func newWork(sec *sector) (*work, error) {
	mem, free, _, err := memory.Huge(4*int(sec.size), false)
	if err != nil {
		return nil, fmt.Errorf("egtb: %d MB for sector %s: %w", 4*uint64(sec.size)>>20, sec.name(), err)
	}
	w := &work{sec: sec, free: free, plies: make([]uint64, (sec.size+chunk-1)/chunk*plyWords)}
	if sec.size > 0 {
		w.cells = unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), sec.size)
	}
	return w, nil
}

// markPly notes that slot i took ply k.
func (w *work) markPly(i uint32, k int) {
	word, bit := plyBit(i, k)
	if p := &w.plies[word]; atomic.LoadUint64(p)&bit == 0 {
		atomic.OrUint64(p, bit)
	}
}

// plyWords is the number of 64-bit words of ply hints per chunk.
const plyWords = 4

// plyBit is where the hint that slot i took ply k is kept: the word of
// work.plies and the bit in it.
func plyBit(i uint32, k int) (word int, bit uint64) {
	return int(i/chunk)*plyWords + k>>6&(plyWords-1), 1 << (k & 63)
}

// hasPly reports whether a slot of the chunk at slot lo may hold ply k.
func (w *work) hasPly(lo uint32, k int) bool {
	word, bit := plyBit(lo, k)
	return atomic.LoadUint64(&w.plies[word])&bit != 0
}

// rebuildPlies sets the ply hints from the cells (after a checkpoint is
// read).
func (w *work) rebuildPlies() {
	clear(w.plies)
	for i, c := range w.cells {
		if v := c & valMask; v != 0 && v != unusedCell {
			word, bit := plyBit(uint32(i), int(v)-1)
			w.plies[word] |= bit
		}
	}
}

// release frees the cells.
func (w *work) release() {
	if w.free != nil {
		w.free()
		w.free, w.cells = nil, nil
	}
}

// bytesOf views a word slice as bytes.
func bytesOf(w []uint32) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
}

// values returns the value bytes of the sector, as stored in its file, and
// how many of them saturated (distances beyond what a byte holds).
func (w *work) values() (out []byte, saturated uint64) {
	out = make([]byte, w.sec.size)
	for i, c := range w.cells {
		switch v := c & valMask; {
		case v == unusedCell:
			out[i] = unused
		case v > maxValue:
			out[i] = byte(saturate(v))
			saturated++
		default:
			out[i] = byte(v)
		}
	}
	return out, saturated
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
	look    func(m, o int) *table // the smaller sectors (their DTM tables, or any table for DTZ)
	zeroing bool                  // solve for DTZ: a removal ends the count like the end of the game
	threads int
	prog    Progress
	ctx     context.Context
	maxCnt  atomic.Int64
	fail    atomic.Pointer[error]
	pair    string // the sectors being solved, for progress: "3v4+4v3"
	// scanned, resolved and updates count the retrograde pass's work for
	// SolveWork, added once per chunk.
	scanned, resolved, updates atomic.Uint64
}

// SolveWork is what the solve of a pair of moving-phase sectors did, so
// that its time can be set against what bounds it (docs/tables.md, "What
// bounds the solver"): the retrograde pass reads the cells in order and
// updates predecessors' cells at random.
type SolveWork struct {
	Init, Retro time.Duration // wall time of the init pass and of the retrograde plies (this run's, after a resume)
	Plies       int           // retrograde plies run
	Scanned     uint64        // cells read in order by the plies (a chunk without a cell of the ply is skipped)
	Resolved    uint64        // cells whose predecessors were generated: each position with a value, once
	Updates     uint64        // predecessor cells updated, each a random access into the partner's cells
}

func (s *solver) setErr(err error) { s.fail.CompareAndSwap(nil, &err) }

func (s *solver) err() error {
	if e := s.fail.Load(); e != nil {
		return *e
	}
	return s.ctx.Err()
}

// pairJob is the solve of one pair of sectors.
type pairJob struct {
	p       Params
	m, o    int
	look    func(m, o int) *table
	zeroing bool
	threads int
	prog    Progress
	ckpt    *checkpointer // nil: no checkpoints
	work    *SolveWork    // if not nil, what the solve did
}

// solveState is how far a pair's solve has come: what a checkpoint records
// beside the cells.
type solveState struct {
	initDone [2]uint32 // the slots of each sector whose init is done (a prefix)
	nextPly  int       // the first retrograde ply not yet done
	hi       int       // the highest ply set so far
	maxCnt   int       // the largest move counter so far
}

// initSegment is how many slots the init pass handles between two chances
// to write a checkpoint.
var initSegment uint32 = 1 << 25

// solvePair solves the sector (m, o) and, unless m == o, (o, m). look must
// give the smaller sectors the captures lead to. It returns the value bytes
// of each sector (unused slots hold 0xFF) and the largest move counter. With
// a checkpointer it goes on from the pair's checkpoint, if there is a good
// one, and writes one whenever the checkpointer's interval has passed at the
// end of an init segment or a retrograde ply.
func solvePair(ctx context.Context, j pairJob) ([][]byte, int, error) {
	threads := max(j.threads, 1)
	prog := j.prog
	if prog == nil {
		prog = func(string, uint64, uint64) {}
	}
	s := &solver{g: newGame(j.p), look: j.look, zeroing: j.zeroing, threads: threads, prog: prog, ctx: ctx}
	secs := []*sector{newSector(j.m, j.o)}
	s.pair = secs[0].name()
	if j.m != j.o {
		secs = append(secs, newSector(j.o, j.m))
		s.pair += "+" + secs[1].name()
	}
	var ws []*work
	defer func() {
		for _, w := range ws {
			w.release()
		}
	}()
	for _, sec := range secs {
		w, err := newWork(sec)
		if err != nil {
			return nil, 0, err
		}
		ws = append(ws, w)
	}
	ws[0].partner = ws[len(ws)-1]
	ws[len(ws)-1].partner = ws[0]

	var st solveState
	if j.ckpt != nil {
		j.ckpt.resume(ws, &st)
	}
	s.maxCnt.Store(int64(st.maxCnt))
	save := func() error {
		if j.ckpt == nil {
			return nil
		}
		st.maxCnt = int(s.maxCnt.Load())
		return j.ckpt.maybeSave(ws, &st)
	}
	initStart := time.Now()
	for i, w := range ws {
		exits, fast, err := s.exitLookup(w.sec)
		if err != nil {
			return nil, 0, err
		}
		for lo := st.initDone[i]; lo < w.sec.size; {
			hi := lo + min(initSegment, w.sec.size-lo)
			top, err := s.parallel(s.phase("init", w.sec), lo, hi, w.sec.size, func(a, b uint32) int {
				return s.initRange(w, a, b, exits, fast)
			})
			if err != nil {
				return nil, 0, err
			}
			st.hi = max(st.hi, top)
			st.initDone[i], lo = hi, hi
			if err := save(); err != nil {
				return nil, 0, err
			}
		}
	}
	retroStart, plies := time.Now(), 0
	bufs := make([]updateBuf, threads)
	for k := st.nextPly; k <= st.hi; k++ {
		plies++
		if k+1 > maxPly {
			return nil, 0, fmt.Errorf("egtb: sector %s: a distance of %d plies is beyond the solver's %d", s.pair, k+1, maxPly)
		}
		for _, w := range ws {
			top, err := s.parallelT(s.phase(fmt.Sprintf("retrograde ply %d", k), w.sec), 0, w.sec.size, w.sec.size, func(t int, a, b uint32) int {
				return s.retroRange(w, a, b, k, &bufs[t])
			})
			if err != nil {
				return nil, 0, err
			}
			st.hi = max(st.hi, top, applyAll(bufs, w.partner, k))
		}
		st.nextPly = k + 1
		if err := save(); err != nil {
			return nil, 0, err
		}
	}
	if j.work != nil {
		*j.work = SolveWork{Init: retroStart.Sub(initStart), Retro: time.Since(retroStart), Plies: plies,
			Scanned: s.scanned.Load(), Resolved: s.resolved.Load(), Updates: s.updates.Load()}
	}
	out := make([][]byte, len(ws))
	for i, w := range ws {
		var sat uint64
		out[i], sat = w.values()
		if sat > 0 && j.ckpt != nil {
			j.ckpt.note(fmt.Sprintf("sector %s: %d positions are more than %d plies from the end of the count; stored as win %d / loss %d (at least)",
				w.sec.name(), sat, maxValue-1, Value(maxValue).Distance(), maxLoss.Distance()))
		}
	}
	return out, int(s.maxCnt.Load()), nil
}

// phase names a step for the progress: "3v4+4v3 init, 3v4", "3v3 init".
func (s *solver) phase(step string, sec *sector) string {
	if s.pair == sec.name() {
		return s.pair + " " + step
	}
	return s.pair + " " + step + ", " + sec.name()
}

// chunk is the unit of parallel work, in slots (a multiple of 64).
const chunk = 1 << 14

// parallel runs f over [lo, hi) in chunks on s.threads goroutines, reporting
// progress under phase as slots done of total (lo counts as done), the last
// time when the range is done. f returns the highest ply it wrote.
func (s *solver) parallel(phase string, lo, hi, total uint32, f func(lo, hi uint32) int) (int, error) {
	return s.parallelT(phase, lo, hi, total, func(_ int, lo, hi uint32) int { return f(lo, hi) })
}

// parallelT is parallel with f told which goroutine runs it (0 to
// s.threads-1), for work that keeps state per goroutine.
func (s *solver) parallelT(phase string, lo, hi, total uint32, f func(t int, lo, hi uint32) int) (int, error) {
	var next atomic.Uint32
	var done atomic.Uint64
	nchunks := (hi - lo + chunk - 1) / chunk
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
				a := lo + c*chunk
				b := min(a+chunk, hi)
				his[t] = max(his[t], f(t, a, b))
				d := done.Add(uint64(b - a))
				if t == 0 {
					s.prog(phase, uint64(lo)+d, uint64(total))
				}
			}
		}(t)
	}
	wg.Wait()
	if s.err() == nil {
		// The range's end, reported by the caller: goroutine 0 may have
		// had none of its chunks (a range of one chunk), or not the last.
		s.prog(phase, uint64(hi), uint64(total))
	}
	top := 0
	for _, h := range his {
		top = max(top, h)
	}
	return top, s.err()
}

// exitTable is the plain table the captures of a sector lead to, read
// directly by the init pass (game.exits): one removal a capture, the
// table's data in memory. zeroing: the DTZ count (solver.zeroing).
type exitTable struct {
	t       *table
	zeroing bool
}

// exitScratch is an init goroutine's room for a position's captures
// (initPosition with an exitTable): the mover's sets after them, and the
// slots their removals lead to. Kept from one position to the next, so
// that a position does not clear kilobytes of arrays.
type exitScratch struct {
	mills []bb.Bitboard
	idx   []uint32
}

// exitLookup returns the look-up of the positions the captures of sec lead
// to, in the smaller sectors, or an error naming a missing one; and the
// exitTable that stands for it when one removal is due a capture and the
// table the captures lead to is plain (nil otherwise).
func (s *solver) exitLookup(sec *sector) (lookupFunc, *exitTable, error) {
	var exitTab, exitTab2 *table
	if sec.o-1 >= s.g.p.MinPieces {
		if exitTab = s.look(sec.o-1, sec.m); exitTab == nil {
			return nil, nil, fmt.Errorf("egtb: sector %dv%d needs %dv%d, which is missing", sec.m, sec.o, sec.o-1, sec.m)
		}
	}
	if s.g.p.RemoveMultiple && sec.o-2 >= s.g.p.MinPieces {
		if exitTab2 = s.look(sec.o-2, sec.m); exitTab2 == nil {
			return nil, nil, fmt.Errorf("egtb: sector %dv%d needs %dv%d, which is missing", sec.m, sec.o, sec.o-2, sec.m)
		}
	}
	var fast *exitTable
	if !s.g.p.RemoveMultiple && (exitTab == nil || exitTab.pk == nil) {
		fast = &exitTable{t: exitTab, zeroing: s.zeroing}
	}
	return func(mover, other bb.Bitboard) (Value, bool) {
		t := exitTab
		if mover.Count() != sec.o-1 {
			t = exitTab2
		}
		v, ok := t.get(mover, other)
		if s.zeroing {
			v = zeroed(v)
		}
		return v, ok
	}, fast, nil
}

// initRange sets the slots [lo, hi) of w: tentative exit wins, immediate
// losses and exits' values, the counters. It returns the highest ply it set.
func (s *solver) initRange(w *work, lo, hi uint32, look lookupFunc, fast *exitTable) int {
	sec := w.sec
	g := s.g
	others := setsOf(sec.o)
	top, maxN := 0, 0
	defer func() { s.noteCounter(maxN) }()
	ci, j := lo/sec.others, lo%sec.others
	c := unrankColex(j, sec.o, 24-sec.m)
	movers := sec.movers()
	mover := movers.sets[ci]
	stabM := uint16(movers.info[colex(mover)])
	var sc exitScratch
	if fast != nil {
		// A side's moves: its pieces times the empty points, at most 12·12
		// on 24 points; with up to 12 removals each.
		sc = exitScratch{mills: make([]bb.Bitboard, 0, 12*12), idx: make([]uint32, 0, 12*12*12)}
	}
	for i := lo; i < hi; i++ {
		other := deposit(c, mover)
		if stabM == 1 || sec.used(mover, other) {
			v, n, ext := g.initPosition(mover, other, stabM, others, look, fast, &sc)
			if n > 0xFF {
				s.setErr(fmt.Errorf("egtb: sector %s: a move counter of %d does not fit a byte", sec.name(), n))
				return top
			}
			maxN = max(maxN, n)
			w.cells[i] = cellOf(v, n, ext)
			if v != 0 {
				top = max(top, int(v)-1)
				w.markPly(i, int(v)-1)
			}
		} else {
			w.cells[i] = unusedCell
		}
		// Next slot: the next other's set, or the next mover's set.
		if j++; j == sec.others {
			j = 0
			c = 1<<sec.o - 1
			if ci++; int(ci) < len(movers.sets) {
				mover = movers.sets[ci]
				stabM = uint16(movers.info[colex(mover)])
			}
		} else {
			x := c & -c
			y := c + x
			c = ((y^c)>>2)/x | y
		}
	}
	return top
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
// byte of the position (mover, other), mover to move. With fast, the
// captures' values are read by exits, prefetched, instead of by look, with
// sc's room.
func (g *game) initPosition(mover, other bb.Bitboard, stabM uint16, others *setTable, look lookupFunc, fast *exitTable, sc *exitScratch) (val byte, n int, ext byte) {
	// Weights: 1 unless the other side's set has a symmetry.
	var stabO uint16 = 1
	if e := uint16(others.info[colex(other)]); e&(e-1) != 0 {
		stabO = stabiliser(other)
	}
	weighted := 0
	best, hasExit := Value(0), false
	var mills []bb.Bitboard // the mover's sets after its captures (fast)
	if fast != nil {
		mills = sc.mills[:0]
	}
	g.forEachAction(mover, other, func(m2 bb.Bitboard) {
		if stabO == 1 {
			weighted++
		} else {
			weighted += bits.OnesCount16(stabiliserWithin(m2, stabO))
		}
	}, func(m2 bb.Bitboard, n int) {
		if fast != nil {
			mills = append(mills, m2)
			return
		}
		v, _ := g.afterMill(m2, other, n, look)
		if !hasExit || v.Better(best) {
			best, hasExit = v, true
		}
	})
	if len(mills) > 0 {
		best, hasExit = g.exits(mills, other, fast, sc.idx[:0]), true
	}
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

// exits returns what afterMill returns for the best of the captures that
// leave the mover with the sets mills (one removal each), the opponent
// holding other: the best over every capture and removal of the position
// the removal leaves. Those positions lie at random in the exit table; their
// look-ups are prefetched in two rounds (the removal's class entry, then
// the table's byte) before any is read.
func (g *game) exits(mills []bb.Bitboard, other bb.Bitboard, ex *exitTable, idx []uint32) Value {
	rem := g.removable(other)
	switch {
	case rem == 0:
		return 0 // nothing to remove (afterMill's unknown)
	case other.Count()-1 < g.p.MinPieces:
		return Win(1)
	}
	sec := ex.t.sec
	classes := sec.movers()
	var ranks [12]uint32 // the colex ranks of the opponent's sets after each removal
	nr := 0
	for t := rem; t != 0; nr++ {
		ranks[nr] = colex(other &^ bb.Bit(t.PopFirst()))
		classes.prefetchClass(ranks[nr])
	}
	for _, r := range ranks[:nr] {
		ci, mask, cm := classes.class(r)
		for _, m2 := range mills {
			i := sec.indexIn(ci, mask, cm, m2)
			memory.Prefetch(uintptr(unsafe.Pointer(&ex.t.data[i])))
			idx = append(idx, i)
		}
	}
	best := Value(0)
	for j, i := range idx {
		v := Value(ex.t.data[i])
		if ex.zeroing {
			v = zeroed(v)
		}
		if v = v.Parent(); j == 0 || v.Better(best) {
			best = v
		}
	}
	return best
}

// retroRange handles the slots of w in [lo, hi) resolved at ply k: every
// predecessor, in the partner sector (the positions from which the other
// side reached it by a turn that closed no mill), is updated. If k is a
// loss, the predecessor wins at k+1 (overriding a longer tentative exit win);
// if k is a win, its counter drops, and at zero the predecessor loses at
// ply max(k+1, its exit's loss ply), or draws if an exit draws.
//
// The predecessors lie anywhere in the partner's cells, so an update made
// at once is a cache miss. They are gathered in the thread's buffer ub
// instead and applied region by region when it is full (updateBuf.apply)
// or when the ply's scan of w is over (applyAll). An update only ever sets
// a ply after k, so neither the order of a ply's updates nor their delay
// changes what the ply's scan reads or what the ply leaves.
func (s *solver) retroRange(w *work, lo, hi uint32, k int, ub *updateBuf) int {
	if !w.hasPly(lo, k) {
		return 0
	}
	target := uint32(k + 1)
	q := w.partner
	ub.reserve(q.sec.size, maxUpdateBuf)
	classes := q.sec.movers()
	top := 0
	var resolved, updates uint64
	// A position's predecessors, and their movers' sets' colex ranks: the
	// class of each is looked up in a table of up to 10 MB (setTable.info),
	// prefetched for all of them before the first is read. A position has
	// at most 144 predecessors: the pieces of the side that moved times the
	// empty points, on 24 points.
	var prevs [12 * 12]bb.Bitboard
	var ranks [12 * 12]uint32
	for i := lo; i < hi; i++ {
		if atomic.LoadUint32(&w.cells[i])&valMask != target { // the partner may be this sector (MvM), updated meanwhile
			continue
		}
		resolved++
		mover, other := w.sec.decode(i)
		n := 0
		s.g.forEachUnmove(mover, other, func(prev bb.Bitboard) {
			prevs[n] = prev
			n++
		})
		for j, prev := range prevs[:n] {
			ranks[j] = colex(prev)
			classes.prefetchClass(ranks[j])
		}
		updates += uint64(n)
		for _, r := range ranks[:n] {
			if len(ub.raw) == cap(ub.raw) {
				top = max(top, ub.apply(q, k))
			}
			ci, mask, cm := classes.class(r)
			ub.raw = append(ub.raw, q.sec.indexIn(ci, mask, cm, mover))
		}
	}
	s.scanned.Add(uint64(hi - lo))
	s.resolved.Add(resolved)
	s.updates.Add(updates)
	return top
}

// regionShift is log2 of the slots of a region a regionBuf sorts its
// entries into: 2^20 slots, 4 MB of the moving phase's cells (which the
// last-level cache holds), 256 KB of a placing sector's two-bit codes.
const regionShift = 20

// regionBuf gathers a thread's writes to a sector's slots, made at random,
// and gives them back sorted by region: the slots of a region are then in
// the caches and their pages in the TLB while its writes are made. On the
// development machine that halves the time of an update
// (BenchmarkBucketedUpdate against BenchmarkRandomUpdate, internal/memory,
// docs/tables.md). An entry is a slot shifted left by the bits that carry
// what to write (none for updateBuf, the code for codeBuf).
type regionBuf[T uint32 | uint64] struct {
	raw    []T      // the entries, as the thread found them
	sorted []T      // raw sorted by region (a counting sort)
	count  []uint32 // a counter per region, then where each region starts
}

// reserve sizes the buffers for a sector of n slots: a quarter of its slots,
// at least 4096 and at most limit. A buffer holding entries keeps its size.
func (b *regionBuf[T]) reserve(n uint32, limit int) {
	want := min(max(int(n/4), 4096), limit)
	if cap(b.raw) < want && len(b.raw) == 0 {
		b.raw, b.sorted = make([]T, 0, want), make([]T, want)
	}
	if regions := int(n>>regionShift) + 2; len(b.count) < regions {
		b.count = make([]uint32, regions)
	}
}

// take returns the entries gathered for a sector of n slots, low bits of
// each below its slot, sorted by region with one counting pass (in the
// order they came within a region), and empties the buffer.
func (b *regionBuf[T]) take(n uint32, low uint) []T {
	cnt := b.count[:int(n>>regionShift)+2]
	shift := regionShift + low
	clear(cnt)
	for _, x := range b.raw {
		cnt[x>>shift+1]++
	}
	for r := 1; r < len(cnt); r++ {
		cnt[r] += cnt[r-1]
	}
	out := b.sorted[:len(b.raw)]
	for _, x := range b.raw {
		r := x >> shift
		out[cnt[r]] = x
		cnt[r]++
	}
	b.raw = b.raw[:0]
	return out
}

// maxUpdateBuf is the most updates a thread gathers before it applies them
// (two buffers of 32 MB a thread); a variable for the tests, which make it
// small so that buffers fill in the middle of a scan.
var maxUpdateBuf = 8 << 20

// updateBuf gathers a thread's updates of a ply for one sector's cells, the
// slots to update, and applies them sorted by region.
type updateBuf struct{ regionBuf[uint32] }

// apply applies the gathered updates of ply k to q's cells, region by
// region, each prefetched some updates before (updater), and empties the
// buffer. It returns the highest ply it set.
func (ub *updateBuf) apply(q *work, k int) int {
	if len(ub.raw) == 0 {
		return 0
	}
	u := updater{q: q, k: k, win: k&1 == 0}
	for _, i := range ub.take(q.sec.size, 0) {
		u.push(i)
	}
	u.flush()
	return u.top
}

// applyAll applies what every thread's buffer holds of ply k to q's cells,
// the buffers in parallel. It returns the highest ply set.
func applyAll(bufs []updateBuf, q *work, k int) int {
	tops := make([]int, len(bufs))
	var wg sync.WaitGroup
	for t := range bufs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[t] = bufs[t].apply(q, k)
		}()
	}
	wg.Wait()
	return slices.Max(tops)
}

// updaterQueue is how many updates an updater keeps in flight: enough to
// cover a memory latency.
const updaterQueue = 32

// updater applies the updates of one ply to a sector's cells, each a few
// updates after its cell was prefetched.
type updater struct {
	q    *work
	k    int  // the ply being propagated
	win  bool // k is a loss: the predecessors win
	top  int  // the highest ply set
	head int
	n    int
	idx  [updaterQueue]uint32
}

// push queues an update of slot i, applying the oldest if the queue is full.
func (u *updater) push(i uint32) {
	memory.Prefetch(uintptr(unsafe.Pointer(&u.q.cells[i])))
	if u.n < updaterQueue {
		u.idx[(u.head+u.n)%updaterQueue] = i
		u.n++
		return
	}
	u.apply(u.idx[u.head])
	u.idx[u.head] = i
	u.head = (u.head + 1) % updaterQueue
}

// flush applies every queued update.
func (u *updater) flush() {
	for ; u.n > 0; u.n-- {
		u.apply(u.idx[u.head])
		u.head = (u.head + 1) % updaterQueue
	}
}

func (u *updater) apply(i uint32) {
	if u.win {
		u.top = max(u.top, u.q.setWin(i, uint32(u.k+2)))
	} else {
		u.top = max(u.top, u.q.decrement(i, u.k))
	}
}

// setWin makes slot i a win with value v unless it wins sooner already. It
// returns the ply it set, or 0.
func (w *work) setWin(i uint32, v uint32) int {
	p := &w.cells[i]
	for {
		old := atomic.LoadUint32(p)
		cur := old & valMask
		if cur != 0 && (cur&1 == 1 || cur <= v) {
			return 0
		}
		if atomic.CompareAndSwapUint32(p, old, old&^valMask|v) {
			w.markPly(i, int(v)-1)
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
	p := &w.cells[i]
	now := atomic.AddUint32(p, ^uint32(1<<cntShift-1)) // the counter minus 1
	if byte(now>>cntShift) == 0xFF {
		panic(fmt.Sprintf("egtb: sector %s: the counter of slot %d went below zero", w.sec.name(), i))
	}
	if now&valMask != 0 || byte(now>>cntShift) != 0 {
		return 0 // it wins, or children are left
	}
	e := byte(now >> extShift)
	if e == 0xFF {
		return 0 // its exit draws
	}
	ply := k + 1
	if e != 0 && int(e)-1 > ply {
		ply = int(e) - 1
	}
	for {
		old := atomic.LoadUint32(p)
		if atomic.CompareAndSwapUint32(p, old, old&^valMask|uint32(ply+1)) {
			w.markPly(i, ply)
			return ply
		}
	}
}

// sectorStats counts the values of a solved sector, weighted by orbit size.
func sectorStats(sec *sector, data []byte) SolveStats {
	st := SolveStats{Slots: uint64(sec.size)}
	var hist [256]uint64 // weighted counts per value byte
	var stored uint64
	for ci, mover := range sec.movers().sets {
		block := data[uint32(ci)*sec.others : uint32(ci+1)*sec.others]
		if uint16(sec.movers().info[colex(mover)]) == 1 {
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
