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
	return perft(r, *p, depth)
}

// perft takes the position by value: a pointer to a loop variable passed to a
// recursive call would make Go allocate every child on the heap.
func perft(r *rules.Rules, p position.Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(Count(r, &p))
	}
	var ml MoveList
	Generate(r, &p, &ml)
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		child := p
		child.Do(r, m)
		n += perft(r, child, depth-1)
	}
	return n
}

// stoppableDepth is the depth below which perftUntil hands over to perft:
// subtrees of three plies take microseconds, so a stop is seen at once while
// the hot recursion carries no check.
const stoppableDepth = 3

// perftUntil is perft that polls stop above stoppableDepth; once stop is set
// the count is cut short and the caller must not trust it.
func perftUntil(r *rules.Rules, p position.Position, depth int, stop *atomic.Bool) uint64 {
	if depth <= stoppableDepth || stop == nil {
		return perft(r, p, depth)
	}
	if stop.Load() {
		return 0
	}
	var ml MoveList
	Generate(r, &p, &ml)
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		child := p
		child.Do(r, m)
		n += perftUntil(r, child, depth-1, stop)
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
	for i, m := range moves {
		child := *p
		child.Do(r, m)
		n := perftUntil(r, child, depth-1, stop)
		if stop != nil && stop.Load() {
			return i, false
		}
		emit(DivideEntry{Move: m, Nodes: n})
	}
	return len(moves), true
}
