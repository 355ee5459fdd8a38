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
	preset, ok := rules.PresetByName(*variant)
	if !ok {
		return e.usageError("perft", fmt.Sprintf("unknown variant %q (want one of %s)", *variant, strings.Join(rules.PresetKeys(), ", ")))
	}
	r := preset.Rules
	p := position.New(&r)
	if *fen != "" {
		var err error
		if p, err = position.ParseFEN(&r, *fen); err != nil {
			return e.usageError("perft", err.Error())
		}
	}
	for _, tok := range strings.Fields(*moves) {
		m, err := movegen.ParseLegal(&r, &p, tok)
		if err != nil {
			return e.usageError("perft", "--moves: "+err.Error())
		}
		p.Do(&r, m)
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
