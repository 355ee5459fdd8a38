package main

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// phaseNames are the phases of the positions file, in its order: the
// phase of a position is that of the last "# phase: NAME" line above it.
var phaseNames = [...]string{"early placing", "late placing", "moving", "flying"}

const phaseTag = "# phase: "

// phaseOf returns the index in phaseNames of p's phase under r, or -1 for a
// position of none (over, a removal pending, or a side placing while the
// other moves): early placing has 2–5 pieces placed in all, late placing
// more with both sides still holding pieces in hand, moving has both hands
// empty and both sides on at least FlyPieceCount+1 pieces, flying a side
// that may fly.
func phaseOf(r *rules.Rules, p *position.Position) int {
	if p.IsOver() || p.Action() == position.Remove {
		return -1
	}
	wh, bh := p.InHand(position.White), p.InHand(position.Black)
	switch placed := 2*r.PiecesCount - wh - bh; {
	case p.Action() == position.Place && placed >= 2 && placed <= 5:
		return 0
	case p.Action() == position.Place && placed > 5 && wh > 0 && bh > 0:
		return 1
	case wh > 0 || bh > 0 || p.Action() != position.Select:
		return -1
	case p.CanFly(r, position.White) || p.CanFly(r, position.Black):
		return 3
	}
	return 2
}

// decidedPlies is the horizon of the generator's filter: a position whose
// game is won by a side within this many actions is left out, since an
// engine that ends its iterations at a proven win reaches no depth there.
const decidedPlies = 4

// outcome returns +1 if the side to move in p wins within n actions
// whatever the other does, -1 if it loses so, else 0: an exhaustive
// search of the game's rules alone (no engine), a removal being an action.
func outcome(r *rules.Rules, p *position.Position, n int) int {
	if p.IsOver() {
		switch res, _ := p.Result(); {
		case res == position.Draw || res == position.Ongoing:
			return 0
		case (res == position.WhiteWins) == (p.SideToMove() == position.White):
			return 1
		}
		return -1
	}
	if n == 0 {
		return 0
	}
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	best := -1
	for _, m := range ml.Slice() {
		c := *p
		c.Do(r, m)
		v := outcome(r, &c, n-1)
		if c.SideToMove() != p.SideToMove() && !c.IsOver() {
			v = -v
		}
		if v > best {
			if best = v; best == 1 {
				break
			}
		}
	}
	return best
}

// generate writes a positions file of perPhase positions of each phase of
// Nine Men's Morris, each from its own game of random legal actions (drawn
// from a PCG seeded with seed), at a random one of that game's plies in the
// phase whose game is not decided within decidedPlies actions: the same
// seed writes the same file.
func generate(w io.Writer, perPhase int, seed uint64) error {
	preset, _ := rules.PresetByName("nine-mens-morris")
	r := &preset.Rules
	rng := rand.New(rand.NewPCG(seed, 0))
	var got [len(phaseNames)][]string
	need := func() bool {
		for _, g := range got {
			if len(g) < perPhase {
				return true
			}
		}
		return false
	}
	for games := 0; need(); games++ {
		if games == 100000 {
			return fmt.Errorf("%d games did not give %d positions of each phase", games, perPhase)
		}
		var seen [len(phaseNames)][]position.Position
		p := position.New(r)
		for ply := 0; ply < 400 && !p.IsOver(); ply++ {
			if ph := phaseOf(r, &p); ph >= 0 {
				seen[ph] = append(seen[ph], p)
			}
			var ml movegen.MoveList
			movegen.Generate(r, &p, &ml)
			p.Do(r, ml.Moves[rng.IntN(ml.N)])
		}
		for ph, s := range seen {
			if len(s) == 0 || len(got[ph]) == perPhase {
				continue
			}
			i := rng.IntN(len(s))
			if outcome(r, &s[i], decidedPlies) != 0 {
				continue
			}
			fen := s[i].FEN()
			if _, err := position.ParseFEN(r, fen); err != nil {
				return fmt.Errorf("%s: %v", fen, err)
			}
			got[ph] = append(got[ph], "position fen "+fen)
		}
	}
	fmt.Fprintf(w, "# Time to depth by phase: %d Nine Men's Morris positions a phase, each from its own\n", perPhase)
	fmt.Fprintf(w, "# game of random legal actions; written by go run ./scripts/ttd --generate %d --seed %d.\n", perPhase, seed)
	for ph, name := range phaseNames {
		fmt.Fprintf(w, "%s%s\n", phaseTag, name)
		for _, l := range got[ph] {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}
