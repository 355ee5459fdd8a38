package position

import "github.com/millengine/millengine/internal/bitboard"

// Zobrist keys. The key covers the pieces, marked points, side to move, pieces
// in hand, pending removals, used mills (OneTimeUseMill), the last-mill squares
// (RestrictRepeatedMillsFormation), the stalemate-removal flags and the phase.
const pendingOffset = 16 // pending removals are stored from -16 to +16

var (
	zPiece    [2][bitboard.NumSquares]uint32
	zMarked   [bitboard.NumSquares]uint32
	zSide     uint32
	zHand     [2][16]uint32
	zPending  [2][2*pendingOffset + 1]uint32
	zFormed   [2][bitboard.NumSquares]uint32
	zMillFrom [2][bitboard.NumSquares]uint32
	zMillTo   [2][bitboard.NumSquares]uint32
	zFlag     [8]uint32
	zPhase    [3]uint32
)

func init() {
	// splitmix64 with a fixed seed: the keys, and so bench node counts, are the
	// same on every run and every machine.
	state := uint64(0x6d696c6c656e67) // "millengine"-ish
	next := func() uint32 {
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return uint32((z ^ z>>31) >> 16)
	}
	for c := 0; c < 2; c++ {
		for s := 0; s < bitboard.NumSquares; s++ {
			zPiece[c][s] = next()
			zFormed[c][s] = next()
			zMillFrom[c][s] = next()
			zMillTo[c][s] = next()
		}
		for n := range zHand[c] {
			zHand[c][n] = next()
		}
		for n := range zPending[c] {
			zPending[c][n] = next()
		}
		zHand[c][0] = 0
		zPending[c][pendingOffset] = 0
	}
	for s := 0; s < bitboard.NumSquares; s++ {
		zMarked[s] = next()
	}
	zSide = next()
	for i := range zFlag {
		zFlag[i] = next()
	}
	zPhase[Moving] = next()
	zPhase[GameOver] = next()
}

// ComputeKey returns the Zobrist key computed from scratch; it always equals
// Key() for a consistent position.
func (p *Position) ComputeKey() uint32 {
	return p.baseKey() ^ zPhase[p.phase]
}

func (p *Position) baseKey() uint32 {
	var k uint32
	for c := 0; c < 2; c++ {
		for b := p.pieces[c]; b != 0; {
			k ^= zPiece[c][b.PopFirst()]
		}
		for b := p.formed[c]; b != 0; {
			k ^= zFormed[c][b.PopFirst()]
		}
		k ^= zHand[c][p.inHand[c]]
		k ^= zPending[c][int(p.pending[c])+pendingOffset]
		if p.millFrom[c] != bitboard.NoSquare {
			k ^= zMillFrom[c][p.millFrom[c]]
		}
		if p.millTo[c] != bitboard.NoSquare {
			k ^= zMillTo[c][p.millTo[c]]
		}
	}
	for b := p.marked; b != 0; {
		k ^= zMarked[b.PopFirst()]
	}
	if p.side == Black {
		k ^= zSide
	}
	for i := 0; i < 8; i++ {
		if p.flags&(1<<i) != 0 {
			k ^= zFlag[i]
		}
	}
	return k
}
