// Package bitboard holds the geometry of the mill board: the 24 points as bits
// of a uint32, their labels and Sanmill square numbers, and the adjacency and
// mill-line tables of the plain and the diagonal board.
//
// Points are numbered 0–23 in ring order (inner, middle, outer ring, each read
// clockwise from its top middle point). Point i is Sanmill square i+8, so the
// FEN board string lists the points in index order.
package bitboard

import (
	"fmt"
	"math/bits"
	"strings"
)

// Square is a point of the board, 0–23 in ring order.
type Square uint8

// NumSquares is the number of points on the board.
const NumSquares = 24

// NoSquare marks the absence of a square.
const NoSquare Square = 0xFF

// Bitboard is a set of points: bit i is Square i.
type Bitboard uint32

// Full is the set of all 24 points.
const Full Bitboard = 1<<NumSquares - 1

// Bit returns the one-point set {s}.
func Bit(s Square) Bitboard { return 1 << s }

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// Count returns the number of points in b.
func (b Bitboard) Count() int { return bits.OnesCount32(uint32(b)) }

// First returns the lowest point of a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros32(uint32(b))) }

// PopFirst removes and returns the lowest point of a non-empty set.
func (b *Bitboard) PopFirst() Square {
	s := Square(bits.TrailingZeros32(uint32(*b)))
	*b &= *b - 1
	return s
}

// labels in index order: inner, middle, outer ring, clockwise from the top.
var labels = [NumSquares]string{
	"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",
	"d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
	"d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
}

// byLabel maps file (0–6) and rank (0–6) to a square, NoSquare where no point is.
var byLabel [7][7]Square

func init() {
	for f := range byLabel {
		for r := range byLabel[f] {
			byLabel[f][r] = NoSquare
		}
	}
	for i, l := range labels {
		byLabel[l[0]-'a'][l[1]-'1'] = Square(i)
	}
}

// String returns the lower-case label of s, such as "d6".
func (s Square) String() string {
	if s < NumSquares {
		return labels[s]
	}
	return "none"
}

// ParseSquare reads a label such as "d6" (any case).
func ParseSquare(t string) (Square, error) {
	if len(t) != 2 {
		return NoSquare, fmt.Errorf("square %q: want a file a-g and a rank 1-7", t)
	}
	f := t[0] | 0x20
	r := t[1]
	if f < 'a' || f > 'g' || r < '1' || r > '7' {
		return NoSquare, fmt.Errorf("square %q: want a file a-g and a rank 1-7", t)
	}
	s := byLabel[f-'a'][r-'1']
	if s == NoSquare {
		return NoSquare, fmt.Errorf("square %q is not a point of the board", strings.ToLower(t))
	}
	return s, nil
}

// SanmillOffset is the difference between a Sanmill square number and a Square.
const SanmillOffset = 8

// Sanmill returns Sanmill's square number of s (8–31).
func (s Square) Sanmill() int { return int(s) + SanmillOffset }

// FromSanmill returns the square with Sanmill number n (8–31).
func FromSanmill(n int) (Square, bool) {
	if n < SanmillOffset || n >= SanmillOffset+NumSquares {
		return NoSquare, false
	}
	return Square(n - SanmillOffset), true
}

// Topology is the adjacency and mill-line data of one board shape.
type Topology struct {
	// Diagonal is true for the board with the four corner diagonals.
	Diagonal bool
	// Adjacent[s] is the set of points joined to s by a line.
	Adjacent [NumSquares]Bitboard
	// Lines are the mill lines, each a set of three points.
	Lines []Bitboard
	// Partners[s][k] is the other two points of the k-th line through s;
	// NumLines[s] says how many lines pass through s.
	Partners [NumSquares][3]Bitboard
	// NumLines[s] is the number of mill lines through s.
	NumLines [NumSquares]uint8
	// LinesThrough[s] is the union of all lines through s, s excluded.
	LinesThrough [NumSquares]Bitboard
	// Degree[s] is the number of neighbours of s.
	Degree [NumSquares]uint8
	// cross is the set of points joined to the point of the same place on
	// the next or the previous ring (a point p is ring p/8, place p%8):
	// with the ring links it makes the adjacency a few shifts of a whole
	// set (Neighbours, Links).
	cross Bitboard
	// pointPlanes[k] is the set of points s whose NumLines[s]+Degree[s] has
	// bit k (PointSum).
	pointPlanes [4]Bitboard
}

// Plain is the board without diagonals (16 mills).
var Plain = build(false)

// Diagonal is the board with the corner diagonals (20 mills).
var Diagonal = build(true)

// For returns the topology for the board with or without diagonals.
func For(diagonal bool) *Topology {
	if diagonal {
		return Diagonal
	}
	return Plain
}

func build(diagonal bool) *Topology {
	t := &Topology{Diagonal: diagonal}
	link := func(a, b Square) {
		t.Adjacent[a] |= Bit(b)
		t.Adjacent[b] |= Bit(a)
	}
	for ring := 0; ring < 3; ring++ {
		for p := 0; p < 8; p++ {
			link(Square(ring*8+p), Square(ring*8+(p+1)%8))
		}
		// The four sides of a ring: corner, middle, corner.
		for side := 0; side < 4; side++ {
			a := Square(ring*8 + (2*side+7)%8)
			t.Lines = append(t.Lines, Bit(a)|Bit(Square(ring*8+2*side))|Bit(Square(ring*8+2*side+1)))
		}
	}
	for p := 0; p < 8; p++ {
		if p%2 == 1 && !diagonal {
			continue
		}
		a, b, c := Square(p), Square(8+p), Square(16+p)
		link(a, b)
		link(b, c)
		t.Lines = append(t.Lines, Bit(a)|Bit(b)|Bit(c))
		t.cross |= Bit(a) | Bit(b) | Bit(c)
	}
	for s := Square(0); s < NumSquares; s++ {
		t.Degree[s] = uint8(t.Adjacent[s].Count())
		for _, l := range t.Lines {
			if l.Has(s) {
				t.Partners[s][t.NumLines[s]] = l &^ Bit(s)
				t.NumLines[s]++
				t.LinesThrough[s] |= l &^ Bit(s)
			}
		}
		for k, v := 0, int(t.NumLines[s])+int(t.Degree[s]); v != 0; k, v = k+1, v>>1 {
			if v&1 != 0 {
				t.pointPlanes[k] |= Bit(s)
			}
		}
	}
	return t
}

// RingNext and RingPrev are the ring links as shifts of a set: each point
// of b moved to the next (p+1) or the previous (p-1) place on its own ring,
// 7 and 0 joined.
func RingNext(b Bitboard) Bitboard { return b<<1&0xFEFEFE | b>>7&0x010101 }

// RingPrev: see RingNext.
func RingPrev(b Bitboard) Bitboard { return b>>1&0x7F7F7F | b<<7&0x808080 }

// The lines of every board by their middle points: a ring's side is the
// middle point m (an even place) and m-1, m+1 on the ring (RingMiddles); a
// line across the rings is the middle ring's point q and q-8, q+8
// (CrossMiddles).
const (
	RingMiddles Bitboard = 0x555555
	middleRing  Bitboard = 0x00FF00
)

// CrossMiddles returns the middle points of the lines across the rings.
func (t *Topology) CrossMiddles() Bitboard { return t.cross & middleRing }

// MillsAt counts the lines through s whose other two points are all in own.
func (t *Topology) MillsAt(s Square, own Bitboard) int {
	n := 0
	for k := uint8(0); k < t.NumLines[s]; k++ {
		p := t.Partners[s][k]
		if own&p == p {
			n++
		}
	}
	return n
}

// InMills returns the points of own that stand in a complete line of own.
func (t *Topology) InMills(own Bitboard) Bitboard {
	var in Bitboard
	for _, l := range t.Lines {
		if own&l == l {
			in |= l
		}
	}
	return in
}

// CountMills returns the number of complete lines of own.
func (t *Topology) CountMills(own Bitboard) int {
	n := 0
	for _, l := range t.Lines {
		if own&l == l {
			n++
		}
	}
	return n
}

// Neighbours returns the union of the neighbours of every point of b (the
// union of Adjacent over b, computed for the whole set at once).
func (t *Topology) Neighbours(b Bitboard) Bitboard {
	c := b & t.cross
	return RingNext(b) | RingPrev(b) | c<<8&Full | c>>8
}

// Links returns the number of pairs of adjacent points with one in from and
// the other in to: the sum over the points s of from of
// (Adjacent[s] & to).Count(). Every link is one of the four shifts of
// Neighbours, so each pair is counted once.
func (t *Topology) Links(from, to Bitboard) int {
	c := from & t.cross
	return (RingNext(from) & to).Count() + (RingPrev(from) & to).Count() + (c << 8 & to).Count() + (c >> 8 & to).Count()
}

// NearTwo returns the points with at least two neighbours in b: each
// neighbour lies in one of the four shifts of Neighbours.
func (t *Topology) NearTwo(b Bitboard) Bitboard {
	_, two, _ := t.NearCounts(b)
	return two
}

// NearCounts returns the points with at least one, two and three
// neighbours in b, adding up the four shifts of Neighbours bit by bit.
func (t *Topology) NearCounts(b Bitboard) (one, two, three Bitboard) {
	c := b & t.cross
	for _, d := range [4]Bitboard{RingNext(b), RingPrev(b), c << 8 & Full, c >> 8} {
		three |= two & d
		two |= one & d
		one |= d
	}
	return one, two, three
}

// PointSum returns the sum of NumLines[s]+Degree[s] over the points s of b.
func (t *Topology) PointSum(b Bitboard) int {
	return (b & t.pointPlanes[0]).Count() + (b&t.pointPlanes[1]).Count()<<1 +
		(b&t.pointPlanes[2]).Count()<<2 + (b&t.pointPlanes[3]).Count()<<3
}
