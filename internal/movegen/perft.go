package movegen

import (
	"sort"

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

// DivideEntry is the leaf count under one root action.
type DivideEntry struct {
	Move  position.Move
	Nodes uint64
}

// Divide returns the perft count under each legal action of p, sorted by
// move token.
func Divide(r *rules.Rules, p *position.Position, depth int) []DivideEntry {
	var ml MoveList
	Generate(r, p, &ml)
	out := make([]DivideEntry, 0, ml.N)
	for _, m := range ml.Moves[:ml.N] {
		child := *p
		child.Do(r, m)
		out = append(out, DivideEntry{Move: m, Nodes: perft(r, child, depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.String() < out[j].Move.String() })
	return out
}
