package search

import (
	"fmt"
	"io"
	"time"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// BenchConfig selects the bench depth, threads and hash size.
type BenchConfig struct {
	Depth   int // 0: DefaultBenchDepth
	Threads int // 0: 1
	HashMB  int // 0: 16
}

// DefaultBenchDepth is the depth bench searches every position to.
const DefaultBenchDepth = 8

// BenchResult sums a bench run.
type BenchResult struct {
	Nodes   uint64
	Elapsed time.Duration
}

// benchPosition is a variant and the tokens leading to a bench position.
type benchPosition struct {
	Variant string
	Moves   string
}

// benchPositions are searched by Bench; they cover every phase and several presets.
var benchPositions = []benchPosition{
	{"nine-mens-morris", ""},
	{"nine-mens-morris", "g7 a7 a4 a1 d1 e4 b4 c4 b6 d5 b2 xc4 g1 c3 e5 c4 xd5 d6 d3"},
}

// Bench searches a fixed set of positions to a fixed depth and writes one line
// per position, then "Nodes searched: N", "Time: T ms" and "Nodes/second: R".
// With one thread the node count is the same on every run and machine.
func Bench(cfg BenchConfig, w io.Writer) (BenchResult, error) {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultBenchDepth
	}
	if cfg.Threads <= 0 {
		cfg.Threads = 1
	}
	if cfg.HashMB <= 0 {
		cfg.HashMB = 16
	}
	e := New(cfg.HashMB)
	o := e.Options()
	o.Threads = cfg.Threads
	e.SetOptions(o)
	var total BenchResult
	for i, bp := range benchPositions {
		preset, ok := rules.PresetByName(bp.Variant)
		if !ok {
			return total, fmt.Errorf("bench position %d: unknown variant %q", i+1, bp.Variant)
		}
		r := preset.Rules
		g := position.NewGame(r, position.New(&r))
		for _, tok := range splitFields(bp.Moves) {
			m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
			if err != nil {
				return total, fmt.Errorf("bench position %d: %v", i+1, err)
			}
			g.Play(m)
		}
		e.NewGame()
		start := time.Now()
		res := e.Search(g, Limits{Depth: cfg.Depth}, nil)
		el := time.Since(start)
		total.Nodes += res.Nodes
		total.Elapsed += el
		fmt.Fprintf(w, "Position %d/%d (%s): bestmove %s score %d nodes %d\n",
			i+1, len(benchPositions), bp.Variant, res.BestMove, res.Score, res.Nodes)
	}
	ms := total.Elapsed.Milliseconds()
	fmt.Fprintf(w, "\nNodes searched: %d\nTime: %d ms\nNodes/second: %d\n", total.Nodes, ms, nps(total.Nodes, total.Elapsed))
	return total, nil
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}
