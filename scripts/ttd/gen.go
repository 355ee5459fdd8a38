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

// generate writes a positions file of perPhase positions of each phase of
// Nine Men's Morris, each from its own game of random legal actions (drawn
// from a PCG seeded with seed), at a random one of that game's plies in the
// phase: the same seed writes the same file.
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
			fen := s[rng.IntN(len(s))].FEN()
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
