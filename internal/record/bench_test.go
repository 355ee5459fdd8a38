package record_test

import (
	"testing"

	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
)

// gamesFile writes n random games of Nine Men's Morris (up to 200 engine
// moves each) as one record.
func gamesFile(tb testing.TB, n int) []byte {
	tb.Helper()
	r := rules.Default()
	games := make([]record.Game, n)
	for i := range games {
		g, err := record.FromEngine(randomGame(r, uint64(i+1), 200))
		if err != nil {
			tb.Fatal(err)
		}
		g.SetTag("Round", "1")
		games[i] = g
	}
	b, err := record.Marshal(games...)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkRead200 reads a file of 200 games.
func BenchmarkRead200(b *testing.B) {
	src := gamesFile(b, 200)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		gs, err := record.Parse(src)
		if err != nil || len(gs) != 200 {
			b.Fatalf("%d games, %v", len(gs), err)
		}
	}
}

// BenchmarkWrite200 writes a file of 200 games.
func BenchmarkWrite200(b *testing.B) {
	gs, err := record.Parse(gamesFile(b, 200))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := record.Marshal(gs...); err != nil {
			b.Fatal(err)
		}
	}
}
