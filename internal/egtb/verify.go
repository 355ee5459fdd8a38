package egtb

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Mismatch is a slot whose stored value differs from what its successors
// give.
type Mismatch struct {
	Slot     uint32
	FEN      string // the position, White to move
	Stored   string // the stored value (or "unused", "unknown")
	Computed string // the value the successors give
}

func (m Mismatch) String() string {
	return fmt.Sprintf("slot %d: %s: stored %s, successors give %s", m.Slot, m.FEN, m.Stored, m.Computed)
}

// VerifyOptions tune Verify.
type VerifyOptions struct {
	Metric   Metric   // the table to check: DTM, or the sector's DTZ table
	Threads  int      // goroutines (≤ 0: one per CPU)
	Limit    int      // mismatches to keep (all are counted)
	Step     uint32   // check every Step-th slot (0 or 1: all)
	Progress Progress // progress, if set
}

// VerifyResult is what Verify found in one sector.
type VerifyResult struct {
	Checked, Bad uint64     // slots checked, slots wrong
	First        []Mismatch // the first Limit mismatches by slot
}

// Verify re-checks the slots of a loaded sector with the engine's own rules
// code: each used slot's position is built from a FEN (White to move),
// movegen.Generate lists its actions and Position.Do plays them (removals
// included), and the best of the successors' values — probed in the tables,
// or given by the rules when the game ends — must equal the stored value.
// Unused slots must hold 0xFF and used ones must not. This local check over
// every slot proves every value, by induction on the distance: a loss 0 has
// no action, a win d has an action to a loss d−1 and none to a shorter one,
// a loss d has only actions to wins, the longest d−1, and a draw has no
// action to a loss and one to a draw.
func (t *Tables) Verify(ctx context.Context, s SectorSpec, o VerifyOptions) (VerifyResult, error) {
	var res VerifyResult
	tb := t.lookup(s.M, s.O)
	if o.Metric == DTZ {
		tb = t.lookupDTZ(s.M, s.O)
	}
	if tb == nil {
		return res, fmt.Errorf("egtb: the %s table of sector %s is not loaded", o.Metric, s)
	}
	prog := o.Progress
	if prog == nil {
		prog = func(string, uint64, uint64) {}
	}
	step := max(o.Step, 1)
	r := t.params.Rules()
	sec := tb.sec
	var mu sync.Mutex
	threads := o.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	sv := &solver{threads: threads, prog: prog, ctx: ctx}
	_, err := sv.parallel("verify "+s.String()+" "+o.Metric.String(), sec.size, func(lo, hi uint32) int {
		var fen []byte
		var local []Mismatch
		var n, bad uint64
		for i := (lo + step - 1) / step * step; i < hi; i += step {
			n++
			mover, other := sec.decode(i)
			stored := tb.data[i]
			used := sec.used(mover, other)
			var want string
			switch {
			case !used && stored == unused:
				continue
			case !used:
				want = "unused"
			case stored == unused:
				want = "a value (the slot is used)"
			}
			fen = appendFEN(fen[:0], mover, other)
			if want == "" {
				p, err := position.ParseFEN(&r, string(fen))
				if err != nil {
					want = "error: " + err.Error()
				} else if v, ok := t.valueByRules(&r, &p, o.Metric); !ok {
					want = "unknown"
				} else if v != Value(stored) {
					want = v.String()
				}
			}
			if want != "" {
				bad++
				if len(local) < o.Limit {
					st := "unused"
					if stored != unused {
						st = Value(stored).String()
					}
					local = append(local, Mismatch{Slot: i, FEN: string(fen), Stored: st, Computed: want})
				}
			}
		}
		mu.Lock()
		res.Checked += n
		res.Bad += bad
		res.First = append(res.First, local...)
		mu.Unlock()
		return 0
	})
	sortMismatches(res.First)
	if len(res.First) > o.Limit {
		res.First = res.First[:o.Limit]
	}
	return res, err
}

func sortMismatches(ms []Mismatch) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Slot < ms[j-1].Slot; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// appendFEN appends the FEN of the moving-phase position with White (to
// move) on mover and Black on other.
func appendFEN(b []byte, mover, other bb.Bitboard) []byte {
	b = position.AppendBoard(b, mover, other, 0)
	b = append(b, " w m s "...)
	b = strconv.AppendInt(b, int64(mover.Count()), 10)
	b = append(b, " 0 "...)
	b = strconv.AppendInt(b, int64(other.Count()), 10)
	return append(b, " 0 0 0 0 0 0 0 0 0 1"...)
}

// valueByRules computes the value of p for its side to move from its
// successors, generated and played by movegen and position: the removals
// after a mill are expanded the same way, and the positions after the turn
// are probed in the tables.
func (t *Tables) valueByRules(r *rules.Rules, p *position.Position, metric Metric) (Value, bool) {
	if p.IsOver() {
		if res, _ := p.Result(); res == position.Winner(p.SideToMove()^1) {
			return Loss(0), true
		}
		return 0, false
	}
	return t.bestAfter(r, p, metric)
}

// bestAfter returns the best value, for p's side to move, over p's actions;
// p must not be over.
// For DTZ a turn that removes counts 1 (its result from the DTM tables), and
// a turn that does not counts the DTZ value of the position it leads to.
func (t *Tables) bestAfter(r *rules.Rules, p *position.Position, metric Metric) (Value, bool) {
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	if ml.N == 0 {
		return 0, false
	}
	us := p.SideToMove()
	var best Value
	for i, m := range ml.Slice() {
		c := *p
		c.Do(r, m)
		var v Value
		switch {
		case c.IsOver():
			res, _ := c.Result()
			if res != position.Winner(us) {
				return 0, false
			}
			v = Win(1)
		case c.SideToMove() == us:
			if c.Action() != position.Remove {
				return 0, false
			}
			var ok bool
			if v, ok = t.bestAfter(r, &c, DTM); !ok {
				return 0, false
			}
			if metric == DTZ {
				v = removingTurn(v)
			}
		default:
			if c.Action() != position.Select {
				return 0, false
			}
			w, ok := t.ProbeSets(c.Pieces(us^1), c.Pieces(us))
			if metric == DTZ {
				tb := t.lookupDTZ(c.OnBoard(us^1), c.OnBoard(us))
				if tb == nil {
					return 0, false
				}
				w = tb.get(c.Pieces(us^1), c.Pieces(us))
			}
			if !ok {
				return 0, false
			}
			v = w.Parent()
		}
		if i == 0 || v.Better(best) {
			best = v
		}
	}
	return best, true
}
