package search

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

func TestTTD(t *testing.T) {
	r := rules.Default()
	threads, _ := strconv.Atoi(os.Getenv("T"))
	if threads == 0 {
		threads = 1
	}
	for _, c := range []struct {
		fen string
		d   int
	}{{position.StartFEN, 11}, {position.StartFEN, 12}, {"@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10", 16}, {"O*@*O**@/@*@O@O@O/*O**@OO@ w m s 8 0 8 0 0 0 0 0 0 0 0 10 17", 16}} {
		for _, algo := range []Algorithm{MTDF, PVS} {
			p, _ := position.ParseFEN(&r, c.fen)
			g := position.NewGame(r, p)
			e := New(64)
			o := e.Options()
			o.Algorithm = algo
			o.Threads = threads
			e.SetOptions(o)
			if os.Getenv("LMRLOG") != "" {
				e.tune.lmrLog = true
			}
			e.tune.ttMinDepth, _ = strconv.Atoi(os.Getenv("TTMIN"))
			start := time.Now()
			res := e.Search(g, Limits{Depth: c.d}, nil)
			el := time.Since(start)
			t.Logf("%.14s %v d%d T%d: %v nodes %d (%.2f Mnps) best %v %d", c.fen, algo, c.d, threads, el.Round(time.Millisecond), res.Nodes, float64(res.Nodes)/el.Seconds()/1e6, res.BestMove, res.Score)
		}
	}
}
