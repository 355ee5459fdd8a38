// Package egtbtest gives tests of other packages small endgame tables of Nine
// Men's Morris without each building its own: they are built once per
// machine into a directory under the system's temporary directory, and a
// later run finds them there (the build skips finished sectors, solves a
// damaged or older-format file again, and writes each file atomically, so
// test processes running at once are safe).
package egtbtest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/rules"
)

// Small returns the directory of the Nine Men's Morris tables with at most
// maxPieces pieces on the board (6: 3v3; 7: also 3v4 and 4v3), building
// what is missing.
func Small(t testing.TB, maxPieces int) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "millengine-egtb-test-"+strconv.Itoa(os.Getuid()))
	r := rules.Default()
	p, err := egtb.ParamsOf(&r)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := egtb.Build(context.Background(), egtb.BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces}, func(egtb.SectorReport) {})
	if err != nil {
		t.Fatalf("building the test tables in %s: %v", dir, err)
	}
	tb.Close()
	return dir
}

// Open returns the tables of Small(t, maxPieces) opened for the standard
// rules, closed when the test ends.
func Open(t testing.TB, maxPieces int) *egtb.Tables {
	t.Helper()
	r := rules.Default()
	tb, err := egtb.Open(Small(t, maxPieces), &r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// Game returns the directory of the tables of the whole game of Nine Men's
// Morris with at most maxPieces pieces on the board and in hand (7: the
// moving sectors 3v3, 3v4 and 4v3 and Malom's 16 placing sectors up to 7
// pieces), building what is missing. It is a directory of its own, beside
// Small's, so that tests that count on what Small's holds see no placing
// sector; its moving-phase files are hard links to Small's (built once for
// both: under the race detector 3v4 and 4v3 take minutes), so only the
// placing sectors are solved here.
func Game(t testing.TB, maxPieces int) string {
	t.Helper()
	small := Small(t, min(maxPieces, egtb.MaxPieces))
	dir := filepath.Join(os.TempDir(), "millengine-egtb-game-test-"+strconv.Itoa(os.Getuid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(small)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, s, ok := egtb.ParseFileName(f.Name())
		if !ok || s.Placing() {
			continue
		}
		dst := filepath.Join(dir, f.Name())
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		if err := os.Link(filepath.Join(small, f.Name()), dst); err != nil && !os.IsExist(err) {
			t.Fatalf("linking the moving phase's tables into %s: %v", dir, err)
		}
	}
	r := rules.Default()
	p, _ := egtb.ParamsOf(&r)
	tb, err := egtb.Build(context.Background(), egtb.BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces, Pieces: r.PiecesCount}, func(egtb.SectorReport) {})
	if err != nil {
		t.Fatalf("building the test tables of the game in %s: %v", dir, err)
	}
	tb.Close()
	return dir
}
