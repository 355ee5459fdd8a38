// Package perfecttest writes small databases in Malom's format for tests,
// with malom's own writer: the tests of the packages that read Malom's
// databases run without Malom's data (which is under the AGPL and never part
// of this repository), on sectors whose values they choose or take from the
// engine's tables.
package perfecttest

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/position"
)

// Result is a synthetic value: a win or a loss for the side to move in
// Plies plies (Malom's key2), or a draw.
type Result struct {
	WDL   malom.WDL
	Plies int32
}

// Win is a win for the side to move in plies plies (odd).
func Win(plies int32) Result { return Result{malom.Win, plies} }

// Loss is a loss for the side to move in plies plies (even).
func Loss(plies int32) Result { return Result{malom.Loss, plies} }

// Draw is a draw that stays in its sector (a count).
var Draw = Result{}

// virtWin are the virtual win values of Malom's files.
var virtWin = map[string]int16{"std": 299, "mora": 704, "lask": 1715}

// Write writes Malom's database of v in dir: the .secval file listing the
// sectors of values (sorted), and a sector file for each of files, every
// slot holding the value value gives its position (no redirects: the
// reader finds a position through its symmetries at the smallest slot of
// its images, so value must give a position's images the same result).
func Write(tb testing.TB, dir string, v malom.Variant, values map[malom.SectorID]int16, files []malom.SectorID,
	value func(id malom.SectorID, mover, other bb.Bitboard) Result) {
	tb.Helper()
	ids := make([]malom.SectorID, 0, len(values))
	for id := range values {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b malom.SectorID) int {
		return cmp.Or(cmp.Compare(a.W, b.W), cmp.Compare(a.B, b.B), cmp.Compare(a.WF, b.WF), cmp.Compare(a.BF, b.BF))
	})
	secVals := make([]int16, len(ids))
	for i, id := range ids {
		secVals[i] = values[id]
	}
	win := virtWin[v.Prefix]
	vals, err := malom.NewSecVals(-win, ids, secVals)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, v.SecvalName()))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := vals.WriteTo(f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	h := malom.WideHeader
	if v == malom.Standard {
		h = malom.StandardHeader
	}
	for _, id := range files {
		sv, ok := values[id]
		if !ok {
			tb.Fatalf("sector %v has a file but no value", id)
		}
		x, err := malom.NewIndex(id.W, id.B)
		if err != nil {
			tb.Fatal(err)
		}
		es := make([]malom.Raw, x.Len())
		for slot := range es {
			mover, other := x.Position(slot)
			r := value(id, mover, other)
			switch r.WDL {
			case malom.Win:
				es[slot] = malom.Raw{Key1: win - sv, Key2: r.Plies}
			case malom.Loss:
				es[slot] = malom.Raw{Key1: -win - sv, Key2: r.Plies}
			default:
				es[slot] = malom.Raw{Key2: 0} // a count: a draw that stays in the sector
			}
		}
		data, err := malom.EncodeSector(h, es)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, v.SectorName(id)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// FromTables writes the moving-phase sectors ids of Nine Men's Morris in dir
// with the values of the tables t (which must hold them): Malom's files as
// they are for 3v3, 3v4 and 4v3, where key2 is the tables' distance in
// plies. The sector values are Malom's where the test knows them (3_3_0_0
// 0, 3_4_0_0 40, 4_3_0_0 −40), else distinct small numbers.
func FromTables(tb testing.TB, dir string, t *egtb.Tables, ids ...malom.SectorID) {
	tb.Helper()
	known := map[malom.SectorID]int16{{W: 3, B: 3}: 0, {W: 3, B: 4}: 40, {W: 4, B: 3}: -40}
	values := map[malom.SectorID]int16{}
	for i, id := range ids {
		if v, ok := known[id]; ok {
			values[id] = v
		} else {
			values[id] = int16(100 + i)
		}
	}
	Write(tb, dir, malom.Standard, values, ids, func(id malom.SectorID, mover, other bb.Bitboard) Result {
		v, ok := t.ProbeSets(mover, other)
		if !ok {
			tb.Fatalf("the tables do not hold sector %v", id)
		}
		switch {
		case v.IsWin():
			return Win(int32(v.Plies()))
		case v.IsLoss():
			return Loss(int32(v.Plies()))
		}
		return Draw
	})
}

// The sectors of Morabaraba's first two plies: the start, and after the
// first placement.
var (
	MoraStart = malom.SectorID{W: 0, B: 0, WF: 12, BF: 12}
	MoraOne   = malom.SectorID{W: 0, B: 1, WF: 12, BF: 11}
)

// Morabaraba writes in dir a synthetic Morabaraba database of the first two
// plies (the files of MoraStart and MoraOne): the start is won in 11
// plies; after the first placement the opponent loses in 10 plies where it
// went on a midpoint of the middle ring (b4, d2, d6, f4), wins in 19 where
// it went on a corner of the outer or the inner ring, and draws elsewhere
// (values the symmetries keep, as Malom's are).
func Morabaraba(tb testing.TB, dir string) {
	tb.Helper()
	points := func(labels ...string) bb.Bitboard {
		var b bb.Bitboard
		for _, l := range labels {
			m, err := position.ParseMove(l)
			if err != nil {
				tb.Fatal(err)
			}
			b |= bb.Bit(m.To())
		}
		return b
	}
	middle, corners := points("b4", "d2", "d6", "f4"), points("a1", "a7", "g1", "g7", "c3", "c5", "e3", "e5")
	values := map[malom.SectorID]int16{MoraStart: 686, MoraOne: -101, {W: 1, B: 1, WF: 11, BF: 11}: 33}
	Write(tb, dir, malom.Morabaraba, values, []malom.SectorID{MoraStart, MoraOne}, func(id malom.SectorID, _, other bb.Bitboard) Result {
		switch {
		case id.B == 0:
			return Win(11)
		case other&middle != 0:
			return Loss(10)
		case other&corners != 0:
			return Win(19)
		}
		return Draw
	})
}

// DamageSector cuts the last two bytes off the file of sector id of v in
// dir, a damaged sector file, and returns its path.
func DamageSector(tb testing.TB, dir string, v malom.Variant, id malom.SectorID) string {
	tb.Helper()
	path := filepath.Join(dir, v.SectorName(id))
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-2], 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
