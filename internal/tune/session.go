package tune

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/engine"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// Session is how milltune's commands play their games: each as Play says,
// pair i from the random opening of seed Seed+i, Workers pairs at once.
// Its methods write their progress to a writer (stderr) and stop early, with
// what they have, when ctx ends.
type Session struct {
	Play    PlayConfig
	Seed    uint64
	Workers int
}

// Screen plays configuration a against b in game pairs, games rounded up
// to whole pairs, and returns the tally from a's view; the score so far
// goes to progress after each pair.
func (s *Session) Screen(ctx context.Context, progress io.Writer, a, b Config, games int) *Tally {
	var mu sync.Mutex
	t := NewTally()
	n := (games + 1) / 2
	type engines struct{ a, b *search.Engine }
	Pairs(ctx, n, s.Workers, func() engines { return engines{a.NewEngine(), b.NewEngine()} },
		func(es engines, i int) {
			r := PlayPair(es.a, es.b, &s.Play, s.Seed+uint64(i))
			mu.Lock()
			defer mu.Unlock()
			t.Add(r)
			fmt.Fprintf(progress, "\rgame %d/%d: A vs B +%d =%d -%d", t.W+t.D+t.L, 2*n, t.W, t.D, t.L)
		})
	fmt.Fprintln(progress)
	return t
}

// Tune plays pairs game pairs of sp's perturbed weights against each other
// and steps sp by each result; the weights so far go to progress every
// hundred pairs.
func (s *Session) Tune(ctx context.Context, progress io.Writer, sp *SPSA, pairs int) {
	type engines struct{ a, b *search.Engine }
	Pairs(ctx, pairs, s.Workers, func() engines { return engines{search.New(4), search.New(4)} },
		func(es engines, it int) {
			pa, pb, delta := sp.Perturb(s.Seed + uint64(it))
			es.a.SetEvalParams(&pa)
			es.b.SetEvalParams(&pb)
			r := PlayPair(es.a, es.b, &s.Play, s.Seed+uint64(it))
			if done := sp.Step(delta, r.Score-1); done%100 == 0 {
				fmt.Fprintf(progress, "after %d pairs: %s\n", done, sp.String())
			}
		})
}

// Openings returns up to count distinct positions that reach the endgame,
// as FENs, and the games played for them: each is the first position of a
// self-play game (from a seeded random opening, the engine at Play's node
// budget on both sides) with both hands empty, no removal pending and from
// minPieces to maxPieces pieces on the board. Games that never get there
// give none. Games are played in batches and taken in the order of their
// seeds, so the list is the same whatever the number of workers; the count
// so far goes to progress after each batch.
func (s *Session) Openings(ctx context.Context, progress io.Writer, count, minPieces, maxPieces int) (fens []string, games int) {
	seen := map[string]bool{}
	for batch := 0; len(fens) < count && batch < 50 && ctx.Err() == nil; batch++ {
		n := 2 * count
		found := make([]string, n)
		Pairs(ctx, n, s.Workers, func() *search.Engine { return search.New(8) }, func(e *search.Engine, i int) {
			if fen, ok := endgameOf(e, &s.Play, s.Seed+uint64(batch*n+i), minPieces, maxPieces); ok {
				found[i] = fen
			}
		})
		for _, fen := range found {
			games++
			if fen != "" && !seen[fen] && len(fens) < count {
				seen[fen] = true
				fens = append(fens, fen)
			}
		}
		fmt.Fprintf(progress, "\ropenings %d/%d from %d games", len(fens), count, games)
	}
	fmt.Fprintln(progress)
	return fens, games
}

// endgameOf plays one self-play game from the random opening of seed and
// returns the FEN of its first position in the wanted range.
func endgameOf(se *search.Engine, pc *PlayConfig, seed uint64, minPieces, maxPieces int) (string, bool) {
	e := engine.New(se, 0, zerolog.Nop()) // plays as the UCI engine's go does
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	g := position.NewGame(pc.Rules, position.New(&pc.Rules))
	match.PlayRandom(g, pc.OpeningPlies, rng, nil)
	e.NewGame()
	for ply := 0; ply < pc.MaxPlies && !g.Pos.IsOver(); ply++ {
		p := &g.Pos
		n := p.OnBoard(position.White) + p.OnBoard(position.Black)
		if p.InHand(position.White) == 0 && p.InHand(position.Black) == 0 && p.Action() != position.Remove &&
			n >= minPieces && n <= maxPieces {
			return p.FEN(), true
		}
		g.Play(e.Play(g, search.Limits{Nodes: pc.Nodes}, 1, nil).Move)
	}
	return "", false
}
