package uci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/search"
)

// outputLine matches every line the engine may write: protocol lines, and
// the reports of d, go perft, eval and bench.
var outputLine = func() []*regexp.Regexp {
	var res []*regexp.Regexp
	for _, p := range []string{
		// protocol
		`id name millengine \S+`, `id author .+`, `option name .+ type (spin|check|button|combo|string).*`,
		`uciok`, `ugiok`, `readyok`, `info string .+`, `response (true|false|p1win|p2win|draw|none)`,
		`info depth \d+( multipv \d+)? seldepth \d+ score (cp|mate) -?\d+( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+( tbhits \d+)? time \d+ pv( x?[a-g][1-7](-[a-g][1-7])?)+`,
		`info depth \d+ seldepth \d+ nodes \d+ nps \d+ hashfull \d+( tbhits \d+)? time \d+`,
		`bestmove (none|x?[a-g][1-7](-[a-g][1-7])?)( ponder x?[a-g][1-7](-[a-g][1-7])?)?`,
		// d
		`[1-7 ] [ |\-\\/O@*X]+`, `  a   b   c   d   e   f   g`,
		`(fen|key|side|phase|action|pieces in hand|pending removals|result): .+`, `legal:( x?[a-g][1-7](-[a-g][1-7])?)*`,
		// go perft
		`x?[a-g][1-7](-[a-g][1-7])?: \d+`, ``, `Nodes searched: \d+`,
		// eval
		`term +white +black +diff`, `[a-z][a-z ]* +-?\d+ +-?\d+ +-?\d+`, `total: -?\d+ \((white|black) to move\)`,
		// bench
		`Position .*`, `Bench stopped after \d+ of \d+ positions`, `Time: \d+ ms`, `Nodes/second: \d+`,
	} {
		res = append(res, regexp.MustCompile("^(?:"+p+")$"))
	}
	return res
}()

// isOutputLine reports whether l is a line the engine may write.
func isOutputLine(l string) bool {
	if strings.ContainsFunc(l, isControl) {
		return false
	}
	for _, re := range outputLine {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// fuzzSeeds are whole sessions and junk for FuzzDispatch.
var fuzzSeeds = []string{
	"uci\nisready\nquit\n",
	"position startpos moves a7 b4 d7 f4 g7 xb4\nd\neval\ngo depth 2\n",
	"setoption name Variant value dooz\nposition startpos moves d6\nd\ngo perft 2\n",
	"setoption name move overhead value 50\nsetoption name Hash value 2\ngo movetime 20\nisready\n",
	"go infinite\nisready\nstop\ngo ponder\nponderhit\ngo depth 3\ngo depth 1\n",
	"setoption name MultiPV value 3\nsetoption name SkillLevel value 3\ngo depth 2\n",
	"position fen @*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10 moves c4-c5\ngo wtime 100 btime 100\n",
	"position fen O*O*****/@@@*****/******** w o s 2 0 3 0 0 0 0 0 0 0 0 0 20\ngo\nd\n",
	"position fen garbage moves\ngo\nposition startpos moves a7 a7\ngo searchmoves a7\n",
	"bench 1\nsetoption name Threads value 2\nbench 1\n",
	"setoption name HasDiagonalLines value yes\nsetoption name PiecesCount value 12\nd\n",
	"go searchmoves d6 a1 depth 2\nucinewgame\nsetoption name Clear Hash\n",
	"\x00\x01\x02\xff\xfe\r\n\t\v\f\n",
	"go perft 99\nbench 99\ngo depth 127\n",
	"setoption name Hash value 99999999999999999999\nsetoption name NMoveRule value 10\n",
	"position startpos moves " + strings.Repeat("a7 ", 1000) + "\n",
	strings.Repeat("x", MaxLineBytes+1) + "\nisready\n",
	"\n\n   \n\tgo\tdepth\t1\n",
	"quit\nisready\n",
	"go movetime 1 nodes 1 depth 1 wtime 1 btime 1 winc 1 binc 1 movestogo 1 infinite ponder searchmoves d5",
	"ugi\nuginewgame\nquery gameover\nquery p1turn\nquery result\ngo p1time 100 p2time 100 p1inc 1 p2inc 1\nquery\nquery x y\n",
	"\ufeffdebug on\nregister later\ngo mate 2\ngo nodes 3 frobnicate\nbench 1\nisready\nstop\ngo perft 3\nstop\n",
}

// FuzzDispatch feeds arbitrary input to a session: it must not panic, hang or
// write anything but protocol lines and command reports.
func FuzzDispatch(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := testConfig()
		cfg.MaxDepth = 2
		cfg.MaxHashMB = 4
		cfg.MaxThreads = 2
		cfg.Bench = fakeBench
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out bytes.Buffer
		if err := Run(ctx, bytes.NewReader(data), &out, cfg); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("session did not end on its own")
			}
			t.Fatalf("Run: %v", err)
		}
		text := out.String()
		if text != "" && !strings.HasSuffix(text, "\n") {
			t.Fatalf("output does not end with a newline: %q", clip(text, 200))
		}
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if text != "" && !isOutputLine(l) {
				t.Fatalf("not a protocol line: %q", clip(l, 200))
			}
		}
	})
}

// fakeBench writes the shape of search.Bench's report at once.
func fakeBench(_ context.Context, cfg search.BenchConfig, w io.Writer) (search.BenchResult, error) {
	fmt.Fprintf(w, "Position 1/1 nine-mens-morris start bestmove d6 score 0 nodes %d\n", cfg.Depth)
	fmt.Fprintf(w, "\nNodes searched: %d\nTime: 0 ms\nNodes/second: 0\n", cfg.Depth)
	return search.BenchResult{Nodes: uint64(cfg.Depth)}, nil
}

func TestIsOutputLine(t *testing.T) {
	for _, l := range []string{"uciok", "bestmove xb4", "info string error: x", "7 O-----------*", "legal:", "a1-a4: 3", ""} {
		if !isOutputLine(l) {
			t.Errorf("%q rejected", l)
		}
	}
	for _, l := range []string{"hello", "bestmove", "info", "d6 d5", "readyok\x00", "Nodes searched: x"} {
		if isOutputLine(l) {
			t.Errorf("%q accepted", l)
		}
	}
}
