package egtb

import (
	"context"
	"fmt"
	"sync"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// verifyPlacing is Verify for a placing sector's WDL table. Its positions
// are built by position.NewPlacing with the side to move White when both
// sides hold as many pieces in hand, Black when it holds one more (so that
// the colour that moves first once placing ends is the opponent's, as in a
// game); their placements and removals are generated and played by movegen
// and position, and the positions after the turn looked up in the tables
// (the placing ones, or the moving phase's once both hands are empty), or
// won or lost by the rules when the turn ends the game.
//
// It makes two passes. The first goes over the slots in order: a slot holds
// a code exactly when it is used (its position is canonical). The second
// goes over the positions as the solve does, grouped by the other side's
// set (so that the positions after their placements, all with that set to
// move, are looked up in one small block of a table), and checks each
// position's stored code against the rules' count; Upto and Checked of
// VerifyOptions' Start and Part count the second pass's positions in that
// order, and Checked of the result the slots of the first.
func (t *Tables) verifyPlacing(ctx context.Context, s SectorSpec, tb *table, data []byte, o VerifyOptions) (VerifyResult, error) {
	var res VerifyResult
	prog, step := o.Progress, o.Step // both set by Verify
	r := t.params.Rules()
	sec := tb.sec
	others := setsOf(s.O)
	perO := binom[24-s.O][s.M]
	units := uint32(len(others.sets)) * perO
	from := o.Start.Upto
	if from > 0 && (step > 1 || from > units) {
		return res, fmt.Errorf("egtb: verify %s: cannot go on from position %d (step %d, %d positions)", s, from, step, units)
	}
	threads := o.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	var mu sync.Mutex
	sv := &solver{threads: threads, prog: prog, ctx: ctx}
	// The slots: a code exactly where the slot is used.
	_, err := sv.parallel("verify "+s.String()+" slots", 0, sec.size, sec.size, func(lo, hi uint32) int {
		var local []Mismatch
		var n, bad uint64
		var w slotWalk
		first := (lo + step - 1) / step * step
		if step == 1 && first < hi {
			w.start(sec, first)
		}
		for i := first; i < hi; i += step {
			n++
			var mover, other bb.Bitboard
			var used bool
			if step == 1 {
				mover, other, used = w.slot()
				w.next()
			} else {
				mover, other = sec.decode(i)
				used = sec.used(mover, other)
			}
			c := code2(data, i)
			if used == (c != codeUnused) {
				continue
			}
			bad++
			if len(local) < o.Limit {
				p := placingPosition(s, mover, other)
				want := "unused"
				if used {
					want = "a value (the slot is used)"
				}
				local = append(local, Mismatch{Slot: i, FEN: p.FEN(), Stored: codeNames[c], Computed: want})
			}
		}
		mu.Lock()
		res.merge(n, bad, local)
		mu.Unlock()
		return 0
	})
	if err != nil {
		return res, err
	}
	// The positions: each code as the rules count it.
	parts := newPartTracker(from, units, o)
	parts.part.Checked = o.Start.Checked
	_, err = sv.parallel("verify "+s.String()+" wdl", from, units, units, func(lo, hi uint32) int {
		var local []Mismatch
		var n, bad uint64
		w := placingWalk{others: others, perO: perO, m: s.M}
		for u := w.start(lo); u < hi; u = w.next(u) {
			if (step > 1 && u%step != 0) || (w.stab != 1 && !w.least()) {
				continue
			}
			n++
			i := sec.index(w.mover, w.o)
			p := placingPosition(s, w.mover, w.o)
			stored := code2(data, i)
			c, ok := t.placingByRules(&r, &p)
			if ok && c == stored {
				continue
			}
			bad++
			if len(local) < o.Limit {
				want := "unknown"
				if ok {
					want = codeNames[c]
				}
				local = append(local, Mismatch{Slot: i, FEN: p.FEN(), Stored: codeNames[stored], Computed: want})
			}
		}
		mu.Lock()
		res.merge(0, bad, local) // Checked counts the first pass's slots
		parts.done(lo, n, bad > 0)
		mu.Unlock()
		return 0
	})
	res.trim(o.Limit)
	return res, err
}

// placingWalk goes over the positions of a placing sector as its solve does:
// unit u is the u/perO-th canonical set of the other side and the
// (u%perO)-th set (colex order) of the side to move's m pieces on the points
// it leaves free.
type placingWalk struct {
	others *setTable
	perO   uint32
	m      int
	ci, j  uint32
	cm     uint32      // the side to move's set, as ranks of the free points
	o      bb.Bitboard // the other side's canonical set
	stab   uint16      // the symmetries that fix it
	mover  bb.Bitboard // the side to move's set
}

// start places the walk at unit u and returns u.
func (w *placingWalk) start(u uint32) uint32 {
	w.ci, w.j = u/w.perO, u%w.perO
	if w.ci < uint32(len(w.others.sets)) {
		w.setO()
		w.cm = unrankColex(w.j, w.m, 24-w.o.Count())
		w.mover = deposit(w.cm, w.o)
	}
	return u
}

func (w *placingWalk) setO() {
	w.o = w.others.sets[w.ci]
	w.stab = uint16(w.others.info[colex(w.o)])
}

// next moves the walk to unit u+1 and returns u+1.
func (w *placingWalk) next(u uint32) uint32 {
	if w.j++; w.j == w.perO {
		w.j = 0
		if w.ci++; w.ci < uint32(len(w.others.sets)) {
			w.setO()
		}
		w.cm = 1<<w.m - 1
	} else {
		x := w.cm & -w.cm
		y := w.cm + x
		w.cm = ((y^w.cm)>>2)/x | y
	}
	if w.ci < uint32(len(w.others.sets)) {
		w.mover = deposit(w.cm, w.o)
	}
	return u + 1
}

// least reports whether the current position is the one the walk counts:
// the side to move's set the least of its images under the symmetries that
// fix the other side's.
func (w *placingWalk) least() bool {
	st := oState{o: w.o, stab: w.stab}
	var orbit uint64
	return st.leastUnderStab(w.mover, &orbit)
}

// placingPosition is the position of a placing sector's slot: mover to
// move, White when both sides hold as many pieces in hand, else Black (see
// verifyPlacing).
func placingPosition(s SectorSpec, mover, other bb.Bitboard) position.Position {
	if s.MF == s.OF {
		return position.NewPlacing(mover, other, s.MF, s.OF, position.White)
	}
	return position.NewPlacing(other, mover, s.OF, s.MF, position.Black)
}

// codeNames name the two-bit codes.
var codeNames = [4]string{codeDraw: "draw", codeWin: "win", codeLoss: "loss", codeUnused: "unused"}

// placingByRules computes the code of a placing position for its side to
// move from its successors, generated and played by movegen and position:
// the removal after a mill is expanded the same way, the positions after
// the turn are looked up in the tables, and a game the turn ends is won or
// lost by the rules. It reports false if a successor it looks at is not in
// the tables; a win found ends the search of the others (nothing is better).
func (t *Tables) placingByRules(r *rules.Rules, p *position.Position) (uint8, bool) {
	var ml, rl movegen.MoveList
	movegen.Generate(r, p, &ml)
	if ml.N == 0 {
		return 0, false
	}
	us := p.SideToMove()
	best := uint8(codeLoss)
	var cp childProbe
	for _, m := range ml.Slice() {
		c := *p
		c.Do(r, m)
		var v uint8
		if !c.IsOver() && c.SideToMove() == us && c.Action() == position.Remove {
			// A mill: the best of the removals.
			movegen.Generate(r, &c, &rl)
			if rl.N == 0 {
				return 0, false
			}
			v = codeLoss
			for _, x := range rl.Slice() {
				d := c
				d.Do(r, x)
				w, ok := t.afterTurn(&d, us, &cp)
				if !ok {
					return 0, false
				}
				if codeRank[w] > codeRank[v] {
					if v = w; v == codeWin {
						break // no removal does better
					}
				}
			}
		} else {
			var ok bool
			if v, ok = t.afterTurn(&c, us, &cp); !ok {
				return 0, false
			}
		}
		if codeRank[v] > codeRank[best] {
			if best = v; best == codeWin {
				break // no action does better: the rest need not be looked at, as the solve stops
			}
		}
	}
	return best, true
}

// afterTurn is the code, for us, of the position c reached by our turn: won
// or lost when the game ended, else its code in the tables turned for us
// (looked up through cp). A removal still pending is not a position the
// tables hold.
func (t *Tables) afterTurn(c *position.Position, us position.Color, cp *childProbe) (uint8, bool) {
	if c.IsOver() {
		switch res, _ := c.Result(); res {
		case position.Winner(us):
			return codeWin, true
		case position.Draw:
			return codeDraw, true
		}
		return codeLoss, true
	}
	if c.SideToMove() == us || c.PendingRemovals(us^1) != 0 {
		return 0, false
	}
	// The opponent to move, to place or to slide: its table's entry (the
	// placing tables' when it still holds pieces, else the moving phase's).
	code, ok := cp.code(t, c.Pieces(us^1), c.Pieces(us), c.InHand(us^1), c.InHand(us))
	if !ok || code == codeUnused {
		return 0, false
	}
	return codeParent[code], true
}

// childProbe is probePlacing for the positions after one position's turns:
// all of them have the opponent to move with the same set of points (a
// placement adds to the other set, a removal takes from it), so the table
// and that set's class (sector.moverClass) are found once a position, not
// once a successor. The slot is then the same as probePlacing's.
type childProbe struct {
	tb     *table
	mover  bb.Bitboard
	o      int // the other side's pieces
	mf, of int // the pieces in hand
	ci     uint32
	mask   uint16
	cm     bb.Bitboard
}

// code returns the code of the placing or moving position (mover to move,
// other, mf and of pieces in hand), and whether its table is loaded.
func (cp *childProbe) code(t *Tables, mover, other bb.Bitboard, mf, of int) (uint8, bool) {
	o := other.Count()
	if cp.tb == nil || mover != cp.mover || o != cp.o || mf != cp.mf || of != cp.of {
		cp.tb = t.placingOrMoving(mover.Count(), o, mf, of)
		if cp.tb == nil {
			return 0, false
		}
		cp.mover, cp.o, cp.mf, cp.of = mover, o, mf, of
		cp.ci, cp.mask, cp.cm = cp.tb.sec.moverClass(mover)
	}
	return cp.tb.codeAt(cp.tb.sec.indexIn(cp.ci, cp.mask, cp.cm, other))
}

// codeOfValue is the two-bit code of a Value's result.
func codeOfValue(v Value) uint8 {
	switch {
	case v.IsWin():
		return codeWin
	case v.IsLoss():
		return codeLoss
	}
	return codeDraw
}
