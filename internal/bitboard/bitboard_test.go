package bitboard

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// ringTable is rules.md §1 written out: label and Sanmill number of every point.
var ringTable = []struct {
	label   string
	sanmill int
}{
	{"d5", 8}, {"e5", 9}, {"e4", 10}, {"e3", 11}, {"d3", 12}, {"c3", 13}, {"c4", 14}, {"c5", 15},
	{"d6", 16}, {"f6", 17}, {"f4", 18}, {"f2", 19}, {"d2", 20}, {"b2", 21}, {"b4", 22}, {"b6", 23},
	{"d7", 24}, {"g7", 25}, {"g4", 26}, {"g1", 27}, {"d1", 28}, {"a1", 29}, {"a4", 30}, {"a7", 31},
}

func sq(t *testing.T, label string) Square {
	t.Helper()
	s, err := ParseSquare(label)
	if err != nil {
		t.Fatalf("ParseSquare(%q): %v", label, err)
	}
	return s
}

func set(t *testing.T, labels ...string) Bitboard {
	t.Helper()
	var b Bitboard
	for _, l := range labels {
		b |= Bit(sq(t, l))
	}
	return b
}

// names lists the labels of b in square order.
func names(b Bitboard) string {
	var out []string
	for b != 0 {
		out = append(out, b.PopFirst().String())
	}
	return strings.Join(out, " ")
}

func TestSquareRoundTrip(t *testing.T) {
	if len(ringTable) != NumSquares {
		t.Fatalf("table has %d rows", len(ringTable))
	}
	for i, row := range ringTable {
		s := Square(i)
		if got := s.String(); got != row.label {
			t.Errorf("Square(%d).String() = %q, want %q", i, got, row.label)
		}
		if got := s.Sanmill(); got != row.sanmill {
			t.Errorf("Square(%d).Sanmill() = %d, want %d", i, got, row.sanmill)
		}
		if got, ok := FromSanmill(row.sanmill); !ok || got != s {
			t.Errorf("FromSanmill(%d) = %d, %t, want %d", row.sanmill, got, ok, s)
		}
		for _, in := range []string{row.label, strings.ToUpper(row.label), strings.ToUpper(row.label[:1]) + row.label[1:]} {
			if got, err := ParseSquare(in); err != nil || got != s {
				t.Errorf("ParseSquare(%q) = %d, %v, want %d", in, got, err, s)
			}
		}
		// The corners, the points on neither file d nor rank 4, are the
		// odd points of each ring.
		corner := row.label[0] != 'd' && row.label[1] != '4'
		if got := s&1 == 1; got != corner {
			t.Errorf("%s: odd %t, corner %t", s, got, corner)
		}
	}
	if got := NoSquare.String(); got != "none" {
		t.Errorf("NoSquare.String() = %q", got)
	}
	if got := Square(24).String(); got != "none" {
		t.Errorf("Square(24).String() = %q", got)
	}
}

func TestFromSanmillOutOfRange(t *testing.T) {
	for _, n := range []int{-1, 0, 7, 32, 100} {
		if s, ok := FromSanmill(n); ok || s != NoSquare {
			t.Errorf("FromSanmill(%d) = %d, %t, want NoSquare, false", n, s, ok)
		}
	}
}

func TestParseSquareErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `square "": want a file a-g and a rank 1-7`},
		{"a", `square "a": want a file a-g and a rank 1-7`},
		{"a10", `square "a10": want a file a-g and a rank 1-7`},
		{"h1", `square "h1": want a file a-g and a rank 1-7`},
		{"a0", `square "a0": want a file a-g and a rank 1-7`},
		{"a8", `square "a8": want a file a-g and a rank 1-7`},
		{"1a", `square "1a": want a file a-g and a rank 1-7`},
		{"@1", `square "@1": want a file a-g and a rank 1-7`},
		{"d4", `square "d4" is not a point of the board`},
		{"D4", `square "d4" is not a point of the board`},
		{"b7", `square "b7" is not a point of the board`},
		{"E6", `square "e6" is not a point of the board`},
		{"c1", `square "c1" is not a point of the board`},
	}
	for _, tc := range tests {
		s, err := ParseSquare(tc.in)
		if err == nil {
			t.Errorf("ParseSquare(%q) = %d, want an error", tc.in, s)
			continue
		}
		if err.Error() != tc.want || s != NoSquare {
			t.Errorf("ParseSquare(%q) = %d, %q, want NoSquare, %q", tc.in, s, err, tc.want)
		}
	}
	// Exactly 24 of the 49 file/rank pairs are points.
	n := 0
	for f := 'a'; f <= 'g'; f++ {
		for r := '1'; r <= '7'; r++ {
			if _, err := ParseSquare(string([]rune{f, r})); err == nil {
				n++
			}
		}
	}
	if n != NumSquares {
		t.Errorf("%d labels parse, want %d", n, NumSquares)
	}
}

func TestBitOperations(t *testing.T) {
	b := set(t, "a7", "d5", "g1")
	if b.Count() != 3 {
		t.Errorf("Count = %d", b.Count())
	}
	if !b.Has(sq(t, "a7")) || b.Has(sq(t, "a4")) {
		t.Error("Has is wrong")
	}
	if b.First() != sq(t, "d5") {
		t.Errorf("First = %s", b.First())
	}
	var got []string
	for c := b; c != 0; {
		got = append(got, c.PopFirst().String())
	}
	if want := []string{"d5", "g1", "a7"}; !slices.Equal(got, want) {
		t.Errorf("PopFirst order %v, want %v", got, want)
	}
	if Full.Count() != NumSquares || Full != 0xFFFFFF {
		t.Errorf("Full = %#x", uint32(Full))
	}
}

// edges lists every line segment of rules.md §1 as "x-y" label pairs.
var plainEdges = []string{
	// inner ring
	"d5-e5", "e5-e4", "e4-e3", "e3-d3", "d3-c3", "c3-c4", "c4-c5", "c5-d5",
	// middle ring
	"d6-f6", "f6-f4", "f4-f2", "f2-d2", "d2-b2", "b2-b4", "b4-b6", "b6-d6",
	// outer ring
	"d7-g7", "g7-g4", "g4-g1", "g1-d1", "d1-a1", "a1-a4", "a4-a7", "a7-d7",
	// spokes
	"d7-d6", "d6-d5", "g4-f4", "f4-e4", "d1-d2", "d2-d3", "a4-b4", "b4-c4",
}

var diagonalEdges = []string{"a7-b6", "b6-c5", "g7-f6", "f6-e5", "g1-f2", "f2-e3", "a1-b2", "b2-c3"}

func TestAdjacency(t *testing.T) {
	for _, tc := range []struct {
		topo  *Topology
		edges []string
	}{
		{Plain, plainEdges},
		{Diagonal, append(slices.Clone(plainEdges), diagonalEdges...)},
	} {
		var want [NumSquares]Bitboard
		for _, e := range tc.edges {
			a, b := sq(t, e[:2]), sq(t, e[3:])
			want[a] |= Bit(b)
			want[b] |= Bit(a)
		}
		edges := 0
		for s := Square(0); s < NumSquares; s++ {
			if tc.topo.Adjacent[s] != want[s] {
				t.Errorf("diagonal=%t: Adjacent[%s] = {%s}, want {%s}", tc.topo.Diagonal, s, names(tc.topo.Adjacent[s]), names(want[s]))
			}
			if tc.topo.Adjacent[s].Has(s) {
				t.Errorf("diagonal=%t: %s is its own neighbour", tc.topo.Diagonal, s)
			}
			for n := tc.topo.Adjacent[s]; n != 0; {
				if o := n.PopFirst(); !tc.topo.Adjacent[o].Has(s) {
					t.Errorf("diagonal=%t: %s-%s is not symmetric", tc.topo.Diagonal, s, o)
				}
			}
			edges += tc.topo.Adjacent[s].Count()
			if int(tc.topo.Degree[s]) != tc.topo.Adjacent[s].Count() {
				t.Errorf("diagonal=%t: Degree[%s] = %d", tc.topo.Diagonal, s, tc.topo.Degree[s])
			}
		}
		if edges/2 != len(tc.edges) {
			t.Errorf("diagonal=%t: %d edges, want %d", tc.topo.Diagonal, edges/2, len(tc.edges))
		}
	}
}

func TestDegrees(t *testing.T) {
	// label -> degree on the plain and on the diagonal board.
	want := map[string][2]int{
		"d5": {3, 3}, "e4": {3, 3}, "d3": {3, 3}, "c4": {3, 3},
		"d6": {4, 4}, "f4": {4, 4}, "d2": {4, 4}, "b4": {4, 4},
		"d7": {3, 3}, "g4": {3, 3}, "d1": {3, 3}, "a4": {3, 3},
		"e5": {2, 3}, "e3": {2, 3}, "c3": {2, 3}, "c5": {2, 3},
		"f6": {2, 4}, "f2": {2, 4}, "b2": {2, 4}, "b6": {2, 4},
		"g7": {2, 3}, "g1": {2, 3}, "a1": {2, 3}, "a7": {2, 3},
	}
	if len(want) != NumSquares {
		t.Fatalf("table has %d rows", len(want))
	}
	sum := [2]int{}
	for label, d := range want {
		s := sq(t, label)
		if got := int(Plain.Degree[s]); got != d[0] {
			t.Errorf("plain degree of %s = %d, want %d", label, got, d[0])
		}
		if got := int(Diagonal.Degree[s]); got != d[1] {
			t.Errorf("diagonal degree of %s = %d, want %d", label, got, d[1])
		}
		sum[0] += d[0]
		sum[1] += d[1]
	}
	if sum != [2]int{64, 80} {
		t.Errorf("degree sums %v, want [64 80] (32 and 40 edges)", sum)
	}
}

var plainMills = []string{
	"a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1",
	"a7 a4 a1", "b6 b4 b2", "c5 c4 c3", "d7 d6 d5", "d3 d2 d1", "e5 e4 e3", "f6 f4 f2", "g7 g4 g1",
}

var diagonalMills = []string{"a7 b6 c5", "g7 f6 e5", "g1 f2 e3", "a1 b2 c3"}

func millSet(t *testing.T, mills []string) []Bitboard {
	t.Helper()
	var out []Bitboard
	for _, m := range mills {
		out = append(out, set(t, strings.Fields(m)...))
	}
	slices.Sort(out)
	return out
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		topo  *Topology
		mills []string
		n     int
	}{
		{Plain, plainMills, 16},
		{Diagonal, append(slices.Clone(plainMills), diagonalMills...), 20},
	} {
		if len(tc.topo.Lines) != tc.n {
			t.Errorf("diagonal=%t: %d lines, want %d", tc.topo.Diagonal, len(tc.topo.Lines), tc.n)
		}
		got := slices.Clone(tc.topo.Lines)
		slices.Sort(got)
		want := millSet(t, tc.mills)
		if !slices.Equal(got, want) {
			var g []string
			for _, l := range got {
				g = append(g, names(l))
			}
			t.Errorf("diagonal=%t: lines %v", tc.topo.Diagonal, g)
		}
		for _, l := range tc.topo.Lines {
			if l.Count() != 3 {
				t.Errorf("diagonal=%t: line {%s} has %d points", tc.topo.Diagonal, names(l), l.Count())
			}
			// The three points of a line are a path: the middle one is next to both ends.
			mid := 0
			for b := l; b != 0; {
				s := b.PopFirst()
				if (tc.topo.Adjacent[s] & l).Count() == 2 {
					mid++
				}
			}
			if mid != 1 {
				t.Errorf("diagonal=%t: line {%s} is not a path of three", tc.topo.Diagonal, names(l))
			}
		}
		// Partners, NumLines and LinesThrough agree with Lines.
		total := 0
		for s := Square(0); s < NumSquares; s++ {
			var partners []Bitboard
			var through Bitboard
			for _, l := range tc.topo.Lines {
				if l.Has(s) {
					partners = append(partners, l&^Bit(s))
					through |= l &^ Bit(s)
				}
			}
			if int(tc.topo.NumLines[s]) != len(partners) {
				t.Errorf("diagonal=%t: NumLines[%s] = %d, want %d", tc.topo.Diagonal, s, tc.topo.NumLines[s], len(partners))
				continue
			}
			got := slices.Clone(tc.topo.Partners[s][:tc.topo.NumLines[s]])
			slices.Sort(got)
			slices.Sort(partners)
			if !slices.Equal(got, partners) {
				t.Errorf("diagonal=%t: Partners[%s] wrong", tc.topo.Diagonal, s)
			}
			for k := int(tc.topo.NumLines[s]); k < 3; k++ {
				if tc.topo.Partners[s][k] != 0 {
					t.Errorf("diagonal=%t: Partners[%s][%d] set past NumLines", tc.topo.Diagonal, s, k)
				}
			}
			if tc.topo.LinesThrough[s] != through {
				t.Errorf("diagonal=%t: LinesThrough[%s] = {%s}, want {%s}", tc.topo.Diagonal, s, names(tc.topo.LinesThrough[s]), names(through))
			}
			wantLines := 2
			if tc.topo.Diagonal && s&1 == 1 {
				wantLines = 3
			}
			if int(tc.topo.NumLines[s]) != wantLines {
				t.Errorf("diagonal=%t: %s is on %d lines, want %d", tc.topo.Diagonal, s, tc.topo.NumLines[s], wantLines)
			}
			total += int(tc.topo.NumLines[s])
		}
		if total != 3*tc.n {
			t.Errorf("diagonal=%t: %d point-line incidences, want %d", tc.topo.Diagonal, total, 3*tc.n)
		}
	}
	if For(false) != Plain || For(true) != Diagonal || Plain.Diagonal || !Diagonal.Diagonal {
		t.Error("For or the Diagonal flag is wrong")
	}
}

func TestMillsAtInMillsCountMills(t *testing.T) {
	tests := []struct {
		diagonal bool
		own      []string
		at       string
		millsAt  int
		inMills  string
		count    int
	}{
		{false, nil, "a7", 0, "", 0},
		{false, []string{"d7", "g7"}, "a7", 1, "", 0},
		{false, []string{"d7", "g7", "a4", "a1"}, "a7", 2, "", 0},
		{false, []string{"b6", "c5"}, "a7", 0, "", 0},
		{true, []string{"b6", "c5"}, "a7", 1, "", 0},
		{true, []string{"b6", "c5", "d7", "g7", "a4", "a1"}, "a7", 3, "", 0},
		{false, []string{"a7", "d7", "g7", "d6"}, "d5", 1, "a7 d7 g7", 1},
		{false, []string{"a7", "d7", "g7", "d6", "d5"}, "d6", 1, "a7 d7 g7 d6 d5", 2},
		{false, []string{"a7", "d7", "g7", "g4", "g1"}, "b4", 0, "g1 g4 g7 d7 a7", 2},
		{true, []string{"a7", "b6", "c5", "d5", "e5"}, "a4", 0, "d5 e5 c5 b6 a7", 2},
		{false, []string{"a7", "b6", "c5", "d5", "e5"}, "a4", 0, "d5 e5 c5", 1},
	}
	for _, tc := range tests {
		topo := For(tc.diagonal)
		own := set(t, tc.own...)
		if got := topo.MillsAt(sq(t, tc.at), own); got != tc.millsAt {
			t.Errorf("diagonal=%t own {%s}: MillsAt(%s) = %d, want %d", tc.diagonal, names(own), tc.at, got, tc.millsAt)
		}
		if got, want := topo.InMills(own), set(t, strings.Fields(tc.inMills)...); got != want {
			t.Errorf("diagonal=%t own {%s}: InMills = {%s}, want {%s}", tc.diagonal, names(own), names(got), names(want))
		}
		if got := topo.CountMills(own); got != tc.count {
			t.Errorf("diagonal=%t own {%s}: CountMills = %d, want %d", tc.diagonal, names(own), got, tc.count)
		}
	}
	if got := Plain.CountMills(Full); got != 16 {
		t.Errorf("CountMills(Full) = %d on the plain board", got)
	}
	if got := Diagonal.CountMills(Full); got != 20 {
		t.Errorf("CountMills(Full) = %d on the diagonal board", got)
	}
}

func TestNeighbours(t *testing.T) {
	tests := []struct {
		diagonal bool
		of       []string
		want     []string
	}{
		{false, nil, nil},
		{false, []string{"a7"}, []string{"d7", "a4"}},
		{true, []string{"a7"}, []string{"d7", "a4", "b6"}},
		{false, []string{"a7", "g1"}, []string{"d7", "a4", "g4", "d1"}},
		{false, []string{"d6"}, []string{"d7", "d5", "b6", "f6"}},
		{false, []string{"d7", "d5"}, []string{"a7", "g7", "d6", "c5", "e5"}},
	}
	for _, tc := range tests {
		got := For(tc.diagonal).Neighbours(set(t, tc.of...))
		if want := set(t, tc.want...); got != want {
			t.Errorf("diagonal=%t: Neighbours(%v) = {%s}, want {%s}", tc.diagonal, tc.of, names(got), names(want))
		}
	}
}

// TestSetAdjacency checks Neighbours, Links, NearCounts, NearTwo and PointSum, which shift whole
// sets, against the tables point by point on both boards.
func TestSetAdjacency(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, top := range []*Topology{Plain, Diagonal} {
		for s := Square(0); s < NumSquares; s++ {
			if got := top.Neighbours(Bit(s)); got != top.Adjacent[s] {
				t.Fatalf("diagonal %v: Neighbours(%d) = %#x, want %#x", top.Diagonal, s, uint32(got), uint32(top.Adjacent[s]))
			}
		}
		for range 2000 {
			a, b := Bitboard(rng.Uint32())&Full, Bitboard(rng.Uint32())&Full
			var nb, one, two, three Bitboard
			for s := Square(0); s < NumSquares; s++ {
				switch n := (top.Adjacent[s] & a).Count(); {
				case n >= 3:
					three |= Bit(s)
					fallthrough
				case n == 2:
					two |= Bit(s)
					fallthrough
				case n == 1:
					one |= Bit(s)
				}
			}
			if o, tw, th := top.NearCounts(a); o != one || tw != two || th != three || top.NearTwo(a) != two {
				t.Fatalf("diagonal %v: NearCounts(%#x) = %#x %#x %#x, want %#x %#x %#x", top.Diagonal, uint32(a), uint32(o), uint32(tw), uint32(th), uint32(one), uint32(two), uint32(three))
			}
			links, points := 0, 0
			for x := a; x != 0; {
				s := x.PopFirst()
				nb |= top.Adjacent[s]
				links += (top.Adjacent[s] & b).Count()
				points += int(top.NumLines[s]) + int(top.Degree[s])
			}
			if top.Neighbours(a) != nb || top.Links(a, b) != links || top.PointSum(a) != points {
				t.Fatalf("diagonal %v, %#x %#x: Neighbours %#x Links %d PointSum %d, want %#x %d %d", top.Diagonal, uint32(a), uint32(b),
					uint32(top.Neighbours(a)), top.Links(a, b), top.PointSum(a), uint32(nb), links, points)
			}
		}
	}
}

// TestMiddles checks that the lines of both boards are the ring sides
// around RingMiddles and the lines across around CrossMiddles.
func TestMiddles(t *testing.T) {
	for _, top := range []*Topology{Plain, Diagonal} {
		var want []Bitboard
		for m := RingMiddles; m != 0; {
			b := Bit(m.PopFirst())
			want = append(want, b|RingNext(b)|RingPrev(b))
		}
		for q := top.CrossMiddles(); q != 0; {
			b := Bit(q.PopFirst())
			want = append(want, b|b<<8|b>>8)
		}
		got := slices.Clone(top.Lines)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("diagonal %v: lines %x, by their middles %x", top.Diagonal, got, want)
		}
	}
}
