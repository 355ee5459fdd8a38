package egtb

import (
	"fmt"
	"math/rand/v2"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// testParams are parameter sets the generator is checked under: the presets'
// sets and the corners of the parameter space.
var testParams = []Params{
	Standard,
	{Diagonal: true, Fly: 3, MinPieces: 3}, // Twelve Men's Morris, Dooz
	{Diagonal: true, Fly: 3, MinPieces: 3, RemoveMultiple: true}, // Morabaraba
	{MinPieces: 3}, // Cheng San Qi
	{Diagonal: true, MinPieces: 3, RemoveFromMills: true}, // Da San Qi, Experimental
	{MinPieces: 3, RemoveFromMills: true},                 // El Filja
	{Fly: 4, MinPieces: 3},
	{Fly: 4, MinPieces: 4},
	{Diagonal: true, MinPieces: 5},
}

// MayRemoveMultiple matters in the moving phase only on the diagonal board:
// on the plain board every neighbour of a point lies on one of its two lines
// (so a slide leaves one of them open) and a flying side has at most four
// pieces (two lines need four besides the flying one); on the diagonal board
// a slide along a diagonal can close both ring lines of a corner. ParamsOf
// folds the parameter away on the plain board.
func TestRemoveMultipleOnlyOnTheDiagonalBoard(t *testing.T) {
	for _, topo := range []*bb.Topology{bb.Plain, bb.Diagonal} {
		two := false
		for y := bb.Square(0); y < bb.NumSquares; y++ {
			for k := uint8(0); k < topo.NumLines[y]; k++ {
				for l := k + 1; l < topo.NumLines[y]; l++ {
					if topo.Adjacent[y]&^(topo.Partners[y][k]|topo.Partners[y][l]) != 0 {
						two = true // a neighbour off both lines: a slide from it can close both
					}
				}
			}
		}
		if two != topo.Diagonal {
			t.Errorf("diagonal %t: a slide can close two mills: %t", topo.Diagonal, two)
		}
	}
	if fly, _ := rules.Lookup("flyPieceCount"); fly.Max > 4 {
		t.Errorf("a side of %d pieces may fly: it can close two mills at once", fly.Max)
	}
	for _, p := range rules.Presets {
		r := p.Rules
		got, err := ParamsOf(&r)
		if err == nil && got.RemoveMultiple != (r.MayRemoveMultiple && r.HasDiagonalLines) {
			t.Errorf("%s: RemoveMultiple %t", p.Key, got.RemoveMultiple)
		}
	}
	r := rules.Default()
	r.MayRemoveMultiple = true
	if got, _ := ParamsOf(&r); got != Standard {
		t.Errorf("Nine Men's Morris with MayRemoveMultiple: %s, want the standard tables", got.Name())
	}
}

// outcome is where a turn ends: the side to move next (the opponent) holds
// mover, the side that moved holds other; over when the turn won by leaving
// the opponent too few pieces.
type outcome struct {
	mover, other bb.Bitboard
	over         bool
}

// solverTurns lists the turns of (mover, other) by the solver's generator.
func solverTurns(g *game, mover, other bb.Bitboard) map[outcome]int {
	out := map[outcome]int{}
	var removals func(m2, o2 bb.Bitboard, n int)
	removals = func(m2, o2 bb.Bitboard, n int) {
		for t := g.removable(o2); t != 0; {
			o3 := o2 &^ bb.Bit(t.PopFirst())
			switch {
			case o3.Count() < g.p.MinPieces:
				out[outcome{o3, m2, true}]++
			case n > 1:
				removals(m2, o3, n-1)
			default:
				out[outcome{o3, m2, false}]++
			}
		}
	}
	g.forEachAction(mover, other, func(m2 bb.Bitboard) {
		out[outcome{other, m2, false}]++
	}, func(m2 bb.Bitboard, n int) { removals(m2, other, n) })
	return out
}

// engineTurns lists the turns of the position by movegen and Position.Do,
// and reports for each outcome whether the engine says the opponent is then
// blocked (the game over by NoLegalMove).
func engineTurns(t *testing.T, r *rules.Rules, p *position.Position) (map[outcome]int, map[outcome]bool) {
	out := map[outcome]int{}
	blocked := map[outcome]bool{}
	us := p.SideToMove()
	var walk func(p *position.Position)
	walk = func(p *position.Position) {
		var ml movegen.MoveList
		movegen.Generate(r, p, &ml)
		for _, m := range ml.Slice() {
			c := *p
			c.Do(r, m)
			if !c.IsOver() && c.SideToMove() == us {
				if c.Action() != position.Remove {
					t.Fatalf("%s after %s: same side to move without a removal", p.FEN(), m)
				}
				walk(&c)
				continue
			}
			res, why := c.Result()
			oc := outcome{c.Pieces(us ^ 1), c.Pieces(us), c.IsOver() && why == position.FewerPieces}
			if c.IsOver() && (res != position.Winner(us) || (why != position.FewerPieces && why != position.NoLegalMove)) {
				t.Fatalf("%s after %s: %s by %s", p.FEN(), m, res, why)
			}
			out[oc]++
			blocked[oc] = c.IsOver() && why == position.NoLegalMove
		}
	}
	walk(p)
	return out, blocked
}

func positionOf(t *testing.T, r *rules.Rules, mover, other bb.Bitboard) position.Position {
	p, err := position.ParseFEN(r, string(appendFEN(nil, mover, other)))
	if err != nil {
		t.Fatalf("%s: %v", appendFEN(nil, mover, other), err)
	}
	return p
}

// The solver's turns (slides, flies, mills, removals with mill protection,
// two removals for two mills) equal movegen's and Position.Do's on random
// positions of every sector of every parameter set; the engine's "blocked"
// equals the solver's "no action"; and the un-moves are exactly the turns
// that lead to a position without closing a mill.
func TestGeneratorMatchesMovegen(t *testing.T) {
	n := 150
	if testkit.Race || testing.Short() {
		n = 15
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range testParams {
		r := p.Rules()
		if got, err := ParamsOf(&r); err != nil || got != p {
			t.Fatalf("ParamsOf(%s.Rules()) = %v, %v", p.Name(), got.Name(), err)
		}
		g := newGame(p)
		for _, sp := range p.Sectors(MaxPieces) {
			t.Run(fmt.Sprintf("%s/%s", p.Name(), sp), func(t *testing.T) {
				for i := 0; i < n; i++ {
					mover, other := randomPosition(rng, sp.M, sp.O)
					switch {
					case i%3 == 0:
						mover, other = positionWithMill(rng, g, sp.M, sp.O)
					case i%3 == 1 && sp.M >= 5:
						mover, other = positionWithTwoMills(rng, g, sp.M, sp.O)
					}
					pos := positionOf(t, &r, mover, other)
					mine := solverTurns(g, mover, other)
					if pos.IsOver() {
						if len(mine) != 0 {
							t.Fatalf("%s: the engine says blocked, the solver has %d turns", pos.FEN(), len(mine))
						}
						continue
					}
					theirs, blocked := engineTurns(t, &r, &pos)
					if fmt.Sprint(mine) != fmt.Sprint(theirs) {
						t.Fatalf("%s: solver turns %v\nengine turns %v", pos.FEN(), mine, theirs)
					}
					for oc, b := range blocked {
						if oc.over {
							continue
						}
						none := len(solverTurns(g, oc.mover, oc.other)) == 0
						if none != b {
							t.Fatalf("%s → %06x/%06x: engine blocked %t, solver no turns %t", pos.FEN(), oc.mover, oc.other, b, none)
						}
					}
					checkUnmoves(t, &r, g, mover, other)
				}
			})
		}
	}
}

// positionWithMill returns a random position in which the side to move holds
// two points of a line whose third point is empty.
func positionWithMill(rng *rand.Rand, g *game, m, o int) (mover, other bb.Bitboard) {
	for {
		l := g.t.Lines[rng.IntN(len(g.t.Lines))]
		two := l &^ bb.Bit(bb.Square(points(l)[rng.IntN(3)]))
		mover, other = randomPosition(rng, m-2, o)
		if mover&l != 0 || other&l != 0 {
			continue
		}
		return mover | two, other
	}
}

// positionWithTwoMills returns a random position in which the side to move
// can close two mills at once if the board allows it: it holds the other
// points of two lines through an empty point y and a piece next to y off
// those lines (or anywhere when it flies).
func positionWithTwoMills(rng *rand.Rand, g *game, m, o int) (mover, other bb.Bitboard) {
	for try := 0; ; try++ {
		y := bb.Square(rng.IntN(bb.NumSquares))
		if g.t.NumLines[y] < 2 || try > 1000 {
			if try > 1000 {
				return randomPosition(rng, m, o)
			}
			continue
		}
		k := rng.IntN(int(g.t.NumLines[y]))
		four := g.t.Partners[y][k] | g.t.Partners[y][(k+1)%int(g.t.NumLines[y])]
		src := g.t.Adjacent[y] &^ four
		if g.p.flies(m) {
			src = bb.Full &^ four &^ bb.Bit(y)
		}
		if src == 0 {
			continue
		}
		ps := points(src)
		mover = four | bb.Bit(ps[rng.IntN(len(ps))])
		rest := points(bb.Full &^ mover &^ bb.Bit(y))
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for _, s := range rest[:m-5] {
			mover |= bb.Bit(s)
		}
		for _, s := range rest[m-5 : m-5+o] {
			other |= bb.Bit(s)
		}
		return mover, other
	}
}

func points(s bb.Bitboard) []bb.Square {
	var out []bb.Square
	for s != 0 {
		out = append(out, s.PopFirst())
	}
	return out
}

// checkUnmoves compares the solver's un-moves of (mover, other) with every
// position one slide or fly of the other side back, checked by the engine.
func checkUnmoves(t *testing.T, r *rules.Rules, g *game, mover, other bb.Bitboard) {
	t.Helper()
	mine := map[bb.Bitboard]int{}
	g.forEachUnmove(mover, other, func(prev bb.Bitboard) { mine[prev]++ })
	empty := bb.Full &^ (mover | other)
	for _, to := range points(other) {
		for _, from := range points(empty) {
			prev := other ^ bb.Bit(to) ^ bb.Bit(from)
			pos := positionOf(t, r, prev, mover) // the other side to move, White
			want := false
			if !pos.IsOver() {
				m := position.MakeSlide(from, to)
				if movegen.IsLegal(r, &pos, m) {
					c := pos
					c.Do(r, m)
					want = c.SideToMove() != pos.SideToMove() || c.IsOver()
				}
			}
			if got := mine[prev] == 1; got != want {
				t.Fatalf("un-move %s-%s to %06x/%06x: solver %d, engine says %t", from, to, mover, other, mine[prev], want)
			}
		}
	}
}
