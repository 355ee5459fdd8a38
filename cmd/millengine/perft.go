package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// runPerft implements 'millengine perft': it counts the leaves of the action
// tree and prints them in the format of protocol.md.
func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("perft", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.IntP("depth", "d", 1, "depth in plies (a removal is its own ply)")
	variant := fs.StringP("variant", "v", "nine-mens-morris", "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	fen := fs.String("fen", "", "start from this position string instead of the start position")
	moves := fs.String("moves", "", "tokens to play first, such as \"a7 b4 d7\"")
	divide := fs.Bool("divide", false, "also print each root action's count")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: millengine perft --depth D [--variant V] [--fen F] [--moves \"t1 t2 …\"] [--divide]")
		fmt.Fprintln(stderr, "\nCounts the leaves of the action tree at exactly depth D (rules.md §6).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "perft: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "perft: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *depth < 0 || *depth > movegen.MaxPerftDepth {
		fmt.Fprintf(stderr, "perft: --depth %d is out of range 0..%d\n", *depth, movegen.MaxPerftDepth)
		return 2
	}
	preset, ok := rules.PresetByName(*variant)
	if !ok {
		fmt.Fprintf(stderr, "perft: unknown variant %q (want one of %s)\n", *variant, strings.Join(rules.PresetKeys(), ", "))
		return 2
	}
	r := preset.Rules
	p := position.New(&r)
	if *fen != "" {
		var err error
		if p, err = position.ParseFEN(&r, *fen); err != nil {
			fmt.Fprintf(stderr, "perft: %v\n", err)
			return 2
		}
	}
	for _, tok := range strings.Fields(*moves) {
		m, err := movegen.ParseLegal(&r, &p, tok)
		if err != nil {
			fmt.Fprintf(stderr, "perft: --moves: %v\n", err)
			return 2
		}
		p.Do(&r, m)
	}
	start := time.Now()
	var nodes uint64
	if *divide {
		for _, e := range movegen.Divide(&r, &p, *depth) {
			fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
			nodes += e.Nodes
		}
		fmt.Fprintln(stdout)
	} else {
		nodes = movegen.Perft(&r, &p, *depth)
	}
	el := time.Since(start)
	rate := uint64(0)
	if el > 0 {
		rate = uint64(float64(nodes) / el.Seconds())
	}
	fmt.Fprintf(stdout, "Nodes searched: %d\nTime: %d ms\nNodes/second: %d\n", nodes, el.Milliseconds(), rate)
	return 0
}
