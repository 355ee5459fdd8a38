package main

import (
	"context"
	"fmt"

	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// runBench implements 'millengine bench': a line per position as it is
// searched, then the totals. A signal stops it with a partial summary.
func runBench(e *env, args []string) int {
	fs := e.subFlags("bench", "bench [--depth D] [--threads T] [--hash MB]",
		"Searches a fixed set of positions to a fixed depth and prints a line per position as it\n"+
			"goes, then 'Nodes searched: N', 'Time: T ms' and 'Nodes/second: R'. With one thread the\n"+
			"node count is the build signature.")
	depth := fs.IntP("depth", "d", search.DefaultBenchDepth, "depth every position is searched to")
	threads := fs.IntP("threads", "t", e.g.threads, "search threads (the node count is deterministic with 1)")
	hash := fs.Int("hash", e.g.hashMB, "transposition table size in MB")
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	for _, err := range []error{
		checkRange("--depth", *depth, 1, search.MaxPly-1),
		checkRange("--threads", *threads, 1, uci.DefaultMaxThreads),
		checkRange("--hash", *hash, 1, uci.DefaultMaxHashMB),
	} {
		if err != nil {
			return e.usageError("bench", err.Error())
		}
	}
	if _, err := search.Bench(e.ctx, search.BenchConfig{Depth: *depth, Threads: *threads, HashMB: *hash, Score: uci.ScoreString}, e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "millengine bench: %v\n", err)
		return 1
	}
	if e.ctx.Err() != nil {
		fmt.Fprintf(e.stderr, "millengine bench: %v; the summary is partial\n", context.Cause(e.ctx))
		return 130
	}
	return 0
}
