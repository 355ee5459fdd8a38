package search

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// BenchConfig selects the bench depth, threads and hash size.
type BenchConfig struct {
	Depth   int // 0: DefaultBenchDepth
	Threads int // 0: 1
	HashMB  int // 0: 16
	// Score renders a position's score in its line (the protocol's words:
	// uci.ScoreString); nil prints the number.
	Score func(*Info) string
}

// DefaultBenchDepth is the depth bench searches every position to.
const DefaultBenchDepth = 8

// BenchResult sums a bench run.
type BenchResult struct {
	Nodes   uint64
	Elapsed time.Duration
}

// benchPosition is a variant, the phase it shows and a position string.
type benchPosition struct {
	Variant string
	Phase   string
	FEN     string
}

// benchPositions are searched by Bench: 38 positions of all eleven presets
// and every phase (placing, pending removal, moving, flying), taken from
// seeded self-play games.
var benchPositions = []benchPosition{
	{"nine-mens-morris", "start", "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"},
	{"nine-mens-morris", "placing", "**O*****/********/@@*O**** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"},
	{"nine-mens-morris", "placing", "O*@*****/**O****@/@@*O**O@ w p p 4 4 5 4 0 0 0 0 0 0 0 0 6"},
	{"nine-mens-morris", "placing", "*****@**/****O***/***@**O* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3"},
	{"nine-mens-morris", "placing", "O****@**/@**OOO@*/***@**O* w p p 5 4 4 4 0 0 0 0 0 0 0 0 6"},
	{"nine-mens-morris", "remove", "*@O**@O*/O*O@O*@@/@@***O*@ b m r 6 0 8 0 0 1 0 0 0 0 0 4 19"},
	{"nine-mens-morris", "remove", "@O@*****/O*@O@O@*/@@***O*@ b m r 5 0 8 0 0 1 0 0 0 0 0 2 27"},
	{"nine-mens-morris", "moving", "*@O***@O/OO*@O@*@/@@*O*O@* b m s 7 0 8 0 0 0 0 0 0 0 0 3 16"},
	{"nine-mens-morris", "moving", "*@O*O@O*/***@**@@/@*@**O*@ w m s 4 0 8 0 0 0 0 0 0 0 0 2 24"},
	{"nine-mens-morris", "moving", "O*@*O**@/@*@O@O@O/*O**@OO@ w m s 8 0 8 0 0 0 0 0 0 0 0 10 17"},
	{"nine-mens-morris", "moving", "@O@***O*/O*@O@O@*/@*@O**O@ b m s 7 0 8 0 0 0 0 0 0 0 0 3 23"},
	{"nine-mens-morris", "flying", "@**O*@O*/**O**@@@/@*@****@ w m s 3 0 8 0 0 0 0 0 0 0 0 0 27"},
	{"twelve-mens-morris", "placing", "*@*OOO**/*@*O****/***O**** b p p 5 7 2 8 0 0 0 0 0 0 0 0 6"},
	{"twelve-mens-morris", "remove", "*@OO*OOO/*O@O@O*@/@*OO@@@O w m r 11 0 8 0 1 0 0 0 0 0 0 5 18"},
	{"twelve-mens-morris", "moving", "*@*O*OOO/*OOO*O@@/@*OO@@*O w m s 11 0 6 0 0 0 0 0 0 0 0 1 20"},
	{"twelve-mens-morris", "flying", "*@*O*OOO/**OO*O*@/*OOO**@O b m s 11 0 3 0 0 0 0 0 0 0 0 0 24"},
	{"morabaraba", "placing", "*OOO*O**/********/@@*****@ b p p 4 7 3 8 0 0 0 0 0 0 0 0 6"},
	{"morabaraba", "moving", "@O*OO*OO/O@O*O*@*/*@**O@@@ b m s 9 0 7 0 0 0 0 0 0 0 0 1 20"},
	{"morabaraba", "flying", "*OOO*OOO/O***O@**/@***O*@* b m s 9 0 3 0 0 0 0 0 0 0 0 0 26"},
	{"lasker-morris", "placing", "@@***O@O/O*@O@**O/O******* b p p 6 4 5 5 0 0 0 0 0 0 0 0 6"},
	{"lasker-morris", "moving", "@**OOO**/*@@@*OOO/*@***@*O w m s 7 0 6 0 0 0 0 0 0 0 0 0 20"},
	{"lasker-morris", "flying", "***OO*O*/**@*O*OO/*@***@O* b m s 7 0 3 0 0 0 0 0 0 0 0 0 26"},
	{"russian-mill", "placing", "OO@O@O@O/@*******/******** w p p 5 4 4 4 0 0 0 0 0 0 144036023238656 0 6"},
	{"russian-mill", "moving", "OO@O@O@O/@*@@*@**/**@***O* w m s 6 0 8 0 0 0 0 0 0 0 144036099720192 0 17"},
	{"dooz", "placing", "***@OO*O/***O@@O@/****@**O b p p 6 6 5 7 0 0 0 0 0 0 0 0 6"},
	{"dooz", "moving", "O@@@OO*@/@OOO@@@O/O@*O@OO@ w m s 11 0 11 0 0 0 0 0 0 0 0 10 17"},
	{"cheng-san-qi", "placing", "****O***/***@@@@*/*O***O@O w p p 4 4 5 4 0 0 0 0 0 0 0 0 6"},
	{"cheng-san-qi", "moving", "*****@*@/***@@@@@/O*O***OO b m s 4 0 7 0 0 0 0 0 0 0 0 1 16"},
	{"da-san-qi", "placing", "**O**O@O/***@O@O*/***@*@O* b p p 6 6 5 7 0 0 0 0 0 0 0 0 6"},
	{"da-san-qi", "moving", "O@O@OO@O/O@O@*@O@/@O@@O@O@ b m s 11 0 12 0 0 0 0 0 0 0 0 0 13"},
	{"da-san-qi", "remove", "**O@*O@O/***@O@O*/***@*@O* b p r 6 6 6 6 0 1 0 0 0 0 0 0 6"},
	{"zhi-qi", "placing", "********/*O*@@@**/@OOO@OOO b p p 7 4 5 5 0 0 0 0 0 0 0 0 9"},
	{"zhi-qi", "moving", "*O*@@@**/O**@@*@*/*OOO@**O b m s 6 0 7 0 0 0 0 0 0 0 0 1 23"},
	{"zhi-qi", "flying", "***@*@**/**@O@@**/*OO@*@** w m s 3 0 7 0 0 0 0 0 0 0 0 0 31"},
	{"el-filja", "remove", "@*O*O@*@/**O@**@@/OOOO**@O w m r 8 0 7 0 1 0 0 0 0 0 0 4 28"},
	{"el-filja", "moving", "@*O*O@@*/*OO@**@*/*OOO**@* b m s 7 0 6 0 0 0 0 0 0 0 0 1 30"},
	{"experimental", "placing", "***@*@O*/O*****O*/**@*O*O@ w p p 5 7 4 7 0 0 0 0 0 0 0 0 6"},
	{"experimental", "moving", "@@@O*@O@/OO*@*@O*/O@**O*O* b m s 8 0 8 0 0 0 0 0 0 0 0 3 23"},
}

// Bench searches a fixed set of positions to a fixed depth and writes one line
// per position as it finishes, then "Nodes searched: N", "Time: T ms" and
// "Nodes/second: R". With one thread the node count is the same on every run
// and machine. When ctx ends, the running search is stopped and Bench writes
// "Bench stopped after K of N positions" and the totals so far.
func Bench(ctx context.Context, cfg BenchConfig, w io.Writer) (BenchResult, error) {
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
	defer context.AfterFunc(ctx, e.Stop)()
	var total BenchResult
	done := 0
	for i, bp := range benchPositions {
		if ctx.Err() != nil {
			break
		}
		preset, ok := rules.PresetByName(bp.Variant)
		if !ok {
			return total, fmt.Errorf("bench position %d: unknown variant %q", i+1, bp.Variant)
		}
		r := preset.Rules
		p, err := position.ParseFEN(&r, bp.FEN)
		if err != nil {
			return total, fmt.Errorf("bench position %d: %v", i+1, err)
		}
		g := position.NewGame(r, p)
		e.NewGame()
		start := time.Now()
		e.Prepare(false)
		if ctx.Err() != nil {
			break // a stop that came before Prepare would be lost
		}
		res := e.Search(g, Limits{Depth: cfg.Depth}, nil)
		total.Nodes += res.Nodes
		total.Elapsed += time.Since(start)
		if ctx.Err() != nil {
			break
		}
		done++
		info := Info{Score: res.Score, MateIn: res.MateIn}
		score := cfg.Score
		if score == nil {
			score = func(in *Info) string { return strconv.Itoa(in.Score) }
		}
		fmt.Fprintf(w, "Position %2d/%d %-18s %-7s bestmove %-6s score %-9s nodes %9d\n",
			i+1, len(benchPositions), bp.Variant, bp.Phase, res.BestMove, score(&info), res.Nodes)
	}
	if done < len(benchPositions) {
		fmt.Fprintf(w, "Bench stopped after %d of %d positions\n", done, len(benchPositions))
	}
	ms := total.Elapsed.Milliseconds()
	fmt.Fprintf(w, "\nNodes searched: %d\nTime: %d ms\nNodes/second: %d\n", total.Nodes, ms, nps(total.Nodes, total.Elapsed))
	return total, nil
}
