package main

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// playedPosition returns the position of --fen (the start position if fen
// is empty) after the actions of --moves, played without a game's history,
// for perft and solve.
func playedPosition(r *rules.Rules, fen, moves string) (position.Position, error) {
	p := position.New(r)
	if fen != "" {
		var err error
		if p, err = position.ParseFEN(r, fen); err != nil {
			return p, err
		}
	}
	for _, tok := range strings.Fields(moves) {
		m, err := movegen.ParseLegal(r, &p, tok)
		if err != nil {
			return p, fmt.Errorf("--moves: %w", err)
		}
		p.Do(r, m)
	}
	return p, nil
}

// runPerft implements 'millengine perft': it counts the leaves of the action
// tree and prints them in the format of docs/protocol.md. A signal stops the
// count; what is printed then is marked partial.
func runPerft(e *env, args []string) int {
	fs := e.subFlags("perft", `perft --depth D [--variant V] [--fen F] [--moves "t1 t2 …"] [--divide]`,
		"Counts the leaves of the action tree at exactly depth D (docs/rules.md §6), then prints\n'Nodes searched: N', 'Time: T ms' and 'Nodes/second: R'.")
	depth := fs.IntP("depth", "d", 1, fmt.Sprintf("depth in plies (a removal is its own ply), 0..%d", movegen.MaxPerftDepth))
	variant := fs.StringP("variant", "v", e.g.variant, "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fen := fs.String("fen", "", "start from this position string instead of the start position")
	moves := fs.String("moves", "", "tokens to play first, such as \"a7 b4 d7\"")
	divide := fs.Bool("divide", false, "also print each root action's count, sorted by token")
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	if *depth < 0 || *depth > movegen.MaxPerftDepth {
		return e.usageError("perft", fmt.Sprintf("--depth %d is out of range 0..%d", *depth, movegen.MaxPerftDepth))
	}
	r, err := variantRules(*variant)
	if err != nil {
		return e.usageError("perft", err.Error())
	}
	p, err := playedPosition(&r, *fen, *moves)
	if err != nil {
		return e.usageError("perft", err.Error())
	}
	var stop atomic.Bool
	defer context.AfterFunc(e.ctx, func() { stop.Store(true) })()
	start := time.Now()
	nodes, complete := uint64(1), true // perft(0) = 1
	if *depth > 0 {
		nodes = 0
		_, complete = movegen.DivideEach(&r, &p, *depth, &stop, func(d movegen.DivideEntry) {
			if *divide {
				fmt.Fprintf(e.stdout, "%s: %d\n", d.Move, d.Nodes)
			}
			nodes += d.Nodes
		})
	}
	if *divide {
		fmt.Fprintln(e.stdout)
	}
	el := time.Since(start)
	rate := uint64(0)
	if el > 0 {
		rate = uint64(float64(nodes) / el.Seconds())
	}
	fmt.Fprintf(e.stdout, "Nodes searched: %d\nTime: %d ms\nNodes/second: %d\n", nodes, el.Milliseconds(), rate)
	if !complete {
		fmt.Fprintf(e.stderr, "millengine perft: %v; the count is partial\n", context.Cause(e.ctx))
		return 130
	}
	return 0
}
