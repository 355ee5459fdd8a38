package eval

import (
	"unsafe"

	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// cacheBits sets the size of a search thread's evaluation cache: 2^14 slots of
// 16 bytes, 256 KB, which stays in a core's second-level cache. Caches of
// 2^12 to 2^17 slots saved the same time within noise (`bench --depth 11`,
// eight rounds each, interleaved), so a small one is used.
const (
	cacheBits = 14
	cacheMask = 1<<cacheBits - 1 // a key's slot: key & cacheMask
)

// evalSlot is one remembered evaluation. It holds everything the evaluation
// reads from a position, so a slot can only answer for the position it was
// filled from: the pieces of both colours, the side to move, both hands, the
// marked points and both pending removals. The Zobrist key only picks the
// slot.
type evalSlot struct {
	board uint64 // white | black<<24 | side<<48 | slotUsed
	rest  uint64 // marked | pending (8 bits each)<<24 | hands (4 bits each)<<40 | uint16(value)<<48
}

// slotUsed marks a slot in use, so that an empty slot never matches.
const slotUsed = 1 << 63

// Cache remembers the static evaluations of the positions a search thread
// evaluated lately. It lives beside the evaluation because it must mirror
// what the evaluation reads (signature): a change to the features that reads
// something new from a position must add it to the slot here. A search meets the same positions again and again (the
// same pieces placed in another order, slides back and forth, the next
// iteration), and the evaluation, with its flood fills for the blockade
// features, is the costliest part of a node. A search with the cache
// visits the same nodes (the bench signature is unchanged) in less time:
// paired runs of `bench` took 16 % less time at depth 8 and 11 % less at
// depth 11. BenchmarkEvalCache (plain PVS, no MTD(f) re-searches) shows no
// gain, and in games at 100 ms nodes/s rose only ~1 % (docs/speed.md, bench).
//
// The evaluation depends on the rules and the weights as well, and a
// search may run under other rules than the last (the same position scores
// differently under another preset), so the cache is cleared whenever a
// search starts.
type Cache struct {
	slots [1 << cacheBits]evalSlot
}

// Clear empties every slot. A nil cache (benchmarks measure the search
// without one) has nothing to clear.
func (c *Cache) Clear() {
	if c != nil {
		clear(c.slots[:])
	}
}

// Prefetch asks for the slot of the position with Key key to be brought
// into the cache (see memory.Prefetch): the search calls it when it makes a
// move into a position it will evaluate, so that the slot's miss overlaps
// the work before the lookup. A nil cache has nothing to fetch.
func (c *Cache) Prefetch(key uint32) {
	if c != nil {
		memory.Prefetch(uintptr(unsafe.Pointer(&c.slots[key&cacheMask])))
	}
}

// signature packs what the evaluation reads from p into a slot's two words
// (rest without the value). A hand fits 4 bits: position keys a hand by a
// 16-entry Zobrist table, so no position holds more than 15; a pending
// removal (negative: the side removes its own pieces) fits 8 bits as is.
func signature(p *position.Position) (board, rest uint64) {
	board = uint64(p.Pieces(position.White)) | uint64(p.Pieces(position.Black))<<24 |
		uint64(p.SideToMove())<<48 | slotUsed
	rest = uint64(p.Marked()) |
		uint64(uint8(p.PendingRemovals(position.White)))<<24 | uint64(uint8(p.PendingRemovals(position.Black)))<<32 |
		uint64(p.InHand(position.White))<<40 | uint64(p.InHand(position.Black))<<44
	return board, rest
}

// Evaluate returns EvaluateWith(prm, r, p), from the cache when it
// holds p. A nil cache always evaluates.
func (c *Cache) Evaluate(prm *Params, r *rules.Rules, p *position.Position) int {
	if c == nil {
		return EvaluateWith(prm, r, p)
	}
	board, rest := signature(p)
	s := &c.slots[p.Key()&cacheMask]
	if s.board == board && s.rest&(1<<48-1) == rest {
		return int(int16(s.rest >> 48))
	}
	v := EvaluateWith(prm, r, p)
	if v == int(int16(v)) {
		*s = evalSlot{board: board, rest: rest | uint64(uint16(int16(v)))<<48}
	}
	return v
}
