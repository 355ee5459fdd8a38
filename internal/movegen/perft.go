package movegen

import (
	"sort"
	"sync/atomic"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// MaxPerftDepth bounds the depth of perft wherever a user asks for it (the
// perft command, go perft): deeper counts would not end in a lifetime.
const MaxPerftDepth = 64

// Perft counts the leaves of the action tree of p at exactly the given depth.
// A removal is its own ply; a finished game has no actions; no draw rule is
// applied (rules.md §6). The last ply is counted without being played.
func Perft(r *rules.Rules, p *position.Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	pf := perfter{r: r}
	pf.stack[0] = *p
	return pf.count(0, depth)
}

// perfter counts with copy-make into its own stack of positions: a child is
// copied from its parent into the next slot, played there and passed on by
// its ply, so no Position is copied through the call stack. Passed by value,
// each copy read a Position that Do had just written field by field, and how
// much that cost (store forwarding, line splits) changed with the alignment
// of the caller's frame: perft 6 took 118 ms from one caller and 225 ms from
// another with the same machine code.
type perfter struct {
	r     *rules.Rules
	stop  *atomic.Bool // polled above stoppableDepth when not nil
	stack [MaxPerftDepth + 1]position.Position
}

// count returns the leaves depth plies below the position at ply (depth ≥ 1).
func (pf *perfter) count(ply, depth int) uint64 {
	p := &pf.stack[ply]
	if depth == 1 {
		return uint64(Count(pf.r, p))
	}
	var ml MoveList
	Generate(pf.r, p, &ml)
	child := &pf.stack[ply+1]
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		*child = *p
		child.Do(pf.r, m)
		n += pf.count(ply+1, depth-1)
	}
	return n
}

// stoppableDepth is the depth below which countUntil hands over to count:
// subtrees of three plies take microseconds, so a stop is seen at once while
// the hot recursion carries no check.
const stoppableDepth = 3

// countUntil is count that polls pf.stop above stoppableDepth; once stop is
// set the count is cut short and the caller must not trust it.
func (pf *perfter) countUntil(ply, depth int) uint64 {
	if depth <= stoppableDepth || pf.stop == nil {
		if depth <= 0 {
			return 1
		}
		return pf.count(ply, depth)
	}
	if pf.stop.Load() {
		return 0
	}
	p := &pf.stack[ply]
	var ml MoveList
	Generate(pf.r, p, &ml)
	child := &pf.stack[ply+1]
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		*child = *p
		child.Do(pf.r, m)
		n += pf.countUntil(ply+1, depth-1)
	}
	return n
}

// DivideEntry is the leaf count under one root action.
type DivideEntry struct {
	Move  position.Move
	Nodes uint64
}

// Divide returns the perft count under each legal action of p, sorted by
// move token.
func Divide(r *rules.Rules, p *position.Position, depth int) []DivideEntry {
	var out []DivideEntry
	DivideEach(r, p, depth, nil, func(e DivideEntry) { out = append(out, e) })
	return out
}

// DivideEach counts the leaves under each legal action of p in token order
// and hands each count to emit as soon as it is known. Setting stop ends it
// early: the action being counted is dropped, and DivideEach returns how many
// actions were emitted and false.
func DivideEach(r *rules.Rules, p *position.Position, depth int, stop *atomic.Bool, emit func(DivideEntry)) (int, bool) {
	var ml MoveList
	Generate(r, p, &ml)
	moves := ml.Slice()
	sort.Slice(moves, func(i, j int) bool { return moves[i].String() < moves[j].String() })
	pf := &perfter{r: r, stop: stop}
	for i, m := range moves {
		pf.stack[1] = *p
		pf.stack[1].Do(r, m)
		n := pf.countUntil(1, depth-1)
		if stop != nil && stop.Load() {
			return i, false
		}
		emit(DivideEntry{Move: m, Nodes: n})
	}
	return len(moves), true
}
