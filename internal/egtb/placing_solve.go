package egtb

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
)

// The solve of one placing sector: one pass, each position's result the best
// over its placements (and after a mill, the best removal) of the results its
// children give, read from their tables.
//
// The pass goes over the positions grouped by the other side's set O, the
// canonical sets of the sector's o pieces one after the other, and for each
// over every set M of the side to move's m pieces on the free points (only
// the least of M's images under the symmetries that fix O, so that each
// position is met once). A placement that closes no mill leads to (O, M + p)
// with the opponent to move, and O is the mover's set of that child: all the
// children of all the positions of one O lie in one block of C(24−o, m+1)
// slots of the child's table (a few kilobytes), which stays in the cache
// while the M go by, and their index is the rank of M + p among the points O
// leaves free, a few table look-ups. The position's own slot is where its
// board's canonical form puts it, anywhere in the sector: written at once,
// each would be a cache and TLB miss that the next position waits for. So
// each thread gathers its results (codeBuf) and writes them sorted by
// region of the sector when its buffer is full and at the end, with an
// atomic AND into the sector's two-bit array (set to unused before), so
// that threads writing the same word never lose each other's bits.

// wdlView is a solved sector's results as two-bit codes (see file.go).
type wdlView struct {
	sec  *sector
	data []byte
}

func (w *wdlView) code(i uint32) uint8 { return code2(w.data, i) }

// placingJob is the solve of one placing sector.
type placingJob struct {
	p       Params
	s       SectorSpec
	look    func(SectorSpec) *wdlView // the children's results
	threads int
	prog    Progress
}

// placingSolver holds what the pass over one sector reads.
type placingSolver struct {
	g        *game
	s        SectorSpec
	sec      *sector
	others   *setTable // the canonical sets of the other side's o pieces
	perO     uint32    // C(24−o, m): the sets M for one O
	quiet    *wdlView
	mill     *wdlView // nil when no placement can close a mill
	hasMill  bool
	millWins bool
	words    []uint32 // the sector's two-bit codes, 16 a word
	hist     [4]atomic.Uint64
	stored   atomic.Uint64
}

// solvePlacing solves a placing sector and returns its two-bit data (as a
// WDL file holds it) and its counts.
func solvePlacing(ctx context.Context, j placingJob) ([]byte, SolveStats, error) {
	ps := &placingSolver{g: newGame(j.p), s: j.s, sec: newSector(j.s.M, j.s.O), others: setsOf(j.s.O)}
	ps.perO = binom[24-j.s.O][j.s.M]
	var quietSpec, millSpec SectorSpec
	quietSpec, millSpec, ps.hasMill, ps.millWins = j.p.placingChildren(j.s)
	if ps.quiet = j.look(quietSpec); ps.quiet == nil {
		return nil, SolveStats{}, fmt.Errorf("egtb: sector %s needs %s, which is missing", j.s, quietSpec)
	}
	if ps.hasMill && !ps.millWins {
		if ps.mill = j.look(millSpec); ps.mill == nil {
			return nil, SolveStats{}, fmt.Errorf("egtb: sector %s needs %s, which is missing", j.s, millSpec)
		}
	}
	nwords := (int(ps.sec.size) + 15) / 16
	mem, free, _, err := memory.Huge(4*nwords, false)
	if err != nil {
		return nil, SolveStats{}, fmt.Errorf("egtb: %d MB for sector %s: %w", 4*nwords>>20, j.s, err)
	}
	defer free()
	if nwords > 0 {
		ps.words = unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), nwords)
	}
	for i := range ps.words {
		ps.words[i] = ^uint32(0)
	}
	prog := j.prog
	if prog == nil {
		prog = func(string, uint64, uint64) {}
	}
	sv := &solver{threads: max(j.threads, 1), prog: prog, ctx: ctx}
	units := uint64(len(ps.others.sets)) * uint64(ps.perO)
	if units >= 1<<32 {
		return nil, SolveStats{}, fmt.Errorf("egtb: sector %s has too many positions to enumerate", j.s)
	}
	bufs := make([]codeBuf, sv.threads)
	for t := range bufs {
		bufs[t].reserve(ps.sec.size, maxCodeBuf)
	}
	if _, err := sv.parallelT(j.s.String()+" wdl", 0, uint32(units), uint32(units), func(t int, lo, hi uint32) int {
		return ps.solveRange(lo, hi, &bufs[t])
	}); err != nil {
		return nil, SolveStats{}, err
	}
	var wg sync.WaitGroup
	for t := range bufs {
		wg.Go(func() { bufs[t].write(ps.words, ps.sec.size) })
	}
	wg.Wait()
	out := make([]byte, WDL.dataSize(uint64(ps.sec.size)))
	copy(out, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ps.words))), 4*len(ps.words)))
	st := SolveStats{Slots: uint64(ps.sec.size), Stored: ps.stored.Load(),
		Wins: ps.hist[codeWin].Load(), Draws: ps.hist[codeDraw].Load(), Losses: ps.hist[codeLoss].Load()}
	st.Positions = st.Wins + st.Draws + st.Losses
	return out, st, nil
}

// solveRange solves the units [lo, hi) of the walk over the sector's
// positions (placingWalk), their results gathered in cb.
func (ps *placingSolver) solveRange(lo, hi uint32, cb *codeBuf) int {
	var hist [4]uint64
	var stored uint64
	var st oState
	w := placingWalk{others: ps.others, perO: ps.perO, m: ps.s.M}
	ci := ^uint32(0)
	for u := w.start(lo); u < hi; u = w.next(u) {
		if w.ci != ci {
			ci = w.ci
			ps.setO(&st, ci)
		}
		orbit := uint64(bb.NumSymmetries)
		if st.stab != 1 && !st.leastUnderStab(w.mover, &orbit) {
			continue
		}
		c := ps.value(&st, w.mover, w.cm)
		if len(cb.raw) == cap(cb.raw) {
			cb.write(ps.words, ps.sec.size)
		}
		cb.raw = append(cb.raw, uint64(ps.sec.index(w.mover, st.o))<<2|uint64(c))
		hist[c] += orbit
		stored++
	}
	for c := range hist {
		ps.hist[c].Add(hist[c])
	}
	ps.stored.Add(stored)
	return 0
}

// maxCodeBuf is the most results a thread gathers before it writes them (two
// buffers of 32 MB a thread); a variable for the tests, which make it small
// so that buffers fill in the middle of a pass.
var maxCodeBuf = 4 << 20

// codeBufAhead is how many writes a codeBuf prefetches ahead of the one it
// makes: enough to cover a memory latency.
const codeBufAhead = 16

// codeBuf gathers a thread's results of a placing sector's pass, each as
// its slot << 2 | its code, and writes them sorted by region (regionBuf, as
// updateBuf does the moving phase's updates), each write's word prefetched
// some writes before.
type codeBuf struct{ regionBuf[uint64] }

// write writes the gathered results into words, the two-bit codes of a
// sector of n slots (16 a word, each unused before), and empties the buffer.
func (cb *codeBuf) write(words []uint32, n uint32) {
	out := cb.take(n, 2)
	for k, x := range out {
		if k+codeBufAhead < len(out) {
			memory.Prefetch(uintptr(unsafe.Pointer(&words[out[k+codeBufAhead]>>6])))
		}
		i, c := uint32(x>>2), uint32(x&3)
		atomic.AndUint32(&words[i>>4], ^((codeUnused ^ c) << ((i & 15) * 2)))
	}
}

// oState is what the pass knows of the current other side's set O.
type oState struct {
	o         bb.Bitboard // the canonical set
	stab      uint16      // the symmetries that fix it
	base      uint32      // the first slot of its block in the quiet child
	free      [24]bb.Square
	removable bb.Bitboard // what a mill may remove
	// closers[k] are the lines through the k-th free point whose two other
	// points are free too, as sets of free points (the rank space of cm):
	// the placement there closes a mill when cm holds one of them.
	closers  [24][3]uint32
	nclosers [24]uint8
	// The mill child's side to move is O less the piece removed, the same
	// for every M of this O: the class of each (millCI, millMk, millCM, as
	// sector.moverClass gives them) is looked up once per removable piece.
	nmill  int
	millCI [24]uint32
	millMk [24]uint16
	millCM [24]bb.Bitboard
}

func (ps *placingSolver) setO(st *oState, ci uint32) {
	o := ps.others.sets[ci]
	st.o = o
	st.stab = uint16(ps.others.info[colex(o)])
	st.base = ci * ps.quiet.sec.others
	t := ps.g.t
	n := 0
	for b := bb.Full &^ o; b != 0; n++ {
		p := b.PopFirst()
		st.free[n] = p
		st.nclosers[n] = 0
		if !ps.hasMill {
			continue
		}
		for _, pm := range t.Partners[p][:t.NumLines[p]] {
			if pm&o == 0 {
				st.closers[n][st.nclosers[n]] = compress(pm, o)
				st.nclosers[n]++
			}
		}
	}
	st.removable = ps.g.removable(o)
	st.nmill = 0
	if ps.mill == nil {
		return
	}
	for r := st.removable; r != 0; st.nmill++ {
		o2 := o &^ bb.Bit(r.PopFirst())
		st.millCI[st.nmill], st.millMk[st.nmill], st.millCM[st.nmill] = ps.mill.sec.moverClass(o2)
	}
}

// leastUnderStab reports whether mover is the least of its images under the
// symmetries that fix O (so that the position is met once), and sets orbit
// to the size of the position's orbit under all the symmetries.
func (st *oState) leastUnderStab(mover bb.Bitboard, orbit *uint64) bool {
	fix := 1
	for mask := st.stab &^ 1; mask != 0; mask &= mask - 1 {
		switch img := bb.Symmetry(bits.TrailingZeros16(mask)).Apply(mover); {
		case img < mover:
			return false
		case img == mover:
			fix++
		}
	}
	*orbit = uint64(bb.NumSymmetries / fix)
	return true
}

// closes reports whether a placement on the k-th free point closes a mill
// for the side to move on cm.
func (st *oState) closes(k int, cm uint32) bool {
	for _, l := range st.closers[k][:st.nclosers[k]] {
		if cm&l == l {
			return true
		}
	}
	return false
}

// value returns the code of the position (mover to place, st.o), mover
// being the set cm of the free points. The placements that close no mill
// come first: each is one look-up in a block of the quiet child that stays
// in the cache, where a mill's costs one look-up for each piece it may
// remove, and a win found ends the search.
func (ps *placingSolver) value(st *oState, mover bb.Bitboard, cm uint32) uint8 {
	best := uint8(codeLoss)
	nfree := 24 - ps.s.O
	var mills uint32 // the placements that close a mill, as free points
	for b := ^cm & (1<<nfree - 1); b != 0; b &= b - 1 {
		k := bits.TrailingZeros32(b)
		if st.closes(k, cm) {
			mills |= 1 << k
			continue
		}
		var c uint8
		if st.stab == 1 {
			c = codeParent[ps.quiet.code(st.base+colex(bb.Bitboard(cm|1<<k)))]
		} else {
			c = codeParent[ps.quiet.code(ps.quiet.sec.index(st.o, mover|bb.Bit(st.free[k])))]
		}
		if c == codeWin {
			return codeWin
		}
		if codeRank[c] > codeRank[best] {
			best = c
		}
	}
	if mills != 0 && ps.millWins {
		return codeWin
	}
	for ; mills != 0; mills &= mills - 1 {
		m2 := mover | bb.Bit(st.free[bits.TrailingZeros32(mills)])
		for n := range st.nmill {
			c := codeParent[ps.mill.code(ps.mill.sec.indexIn(st.millCI[n], st.millMk[n], st.millCM[n], m2))]
			if c == codeWin {
				return codeWin
			}
			if codeRank[c] > codeRank[best] {
				best = c
			}
		}
	}
	return best
}

// movingView returns the results of a moving-phase table as two-bit codes,
// converted in parallel.
func movingView(tb *table, threads int) *wdlView {
	data := tb.all()
	n := len(data)
	out := make([]byte, (n+3)/4)
	var wg sync.WaitGroup
	per := (len(out) + threads - 1) / threads
	for t := 0; t < threads; t++ {
		lo, hi := t*per, min((t+1)*per, len(out))
		wg.Go(func() {
			for k := lo; k < hi; k++ {
				var b byte
				for q := 0; q < 4; q++ {
					c := uint8(codeUnused)
					if i := 4*k + q; i < n {
						c = codeOf(data[i])
					}
					b |= c << (2 * q)
				}
				out[k] = b
			}
		})
	}
	wg.Wait()
	return &wdlView{sec: tb.sec, data: out}
}

// sectorStatsWDL counts the results of a placing sector's two-bit data,
// weighted by orbit size, as sectorStats counts a moving one's.
func sectorStatsWDL(sec *sector, data []byte) SolveStats {
	st := SolveStats{Slots: uint64(sec.size)}
	var hist [4]uint64
	for ci, mover := range sec.movers().sets {
		lo := uint32(ci) * sec.others
		full := uint16(sec.movers().info[colex(mover)]) == 1
		c := uint32(1)<<sec.o - 1
		for i := lo; i < lo+sec.others; i++ {
			v := code2(data, i)
			if v != codeUnused {
				if full {
					hist[v] += bb.NumSymmetries
				} else {
					hist[v] += uint64(sec.orbit(mover, deposit(c, mover)))
				}
				st.Stored++
			}
			if sec.o > 0 {
				x := c & -c
				y := c + x
				c = ((y^c)>>2)/x | y
			}
		}
	}
	st.Wins, st.Draws, st.Losses = hist[codeWin], hist[codeDraw], hist[codeLoss]
	st.Positions = st.Wins + st.Draws + st.Losses
	return st
}
