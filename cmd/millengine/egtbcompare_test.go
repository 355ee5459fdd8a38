package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect/perfecttest"
	"github.com/millengine/millengine/internal/rules"
)

// malomFrom writes, in Malom's format, the sector id of the tables tb with the
// values the tables give (Malom's encoding of a win, a draw and a loss), one
// entry damaged (a draw made a win) when damage is set, and the .secval file
// naming it. It returns the slot damaged and its position's FEN.
func malomFrom(t *testing.T, dir string, tb *egtb.Tables, id malom.SectorID, damage bool) string {
	t.Helper()
	const secVal = 5
	vals, err := malom.NewSecVals(-299, []malom.SectorID{id}, []int16{secVal})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, malom.Standard.SecvalName()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vals.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	x, err := malom.NewIndex(id.W, id.B)
	if err != nil {
		t.Fatal(err)
	}
	es := make([]malom.Raw, x.Len())
	fen := ""
	for slot := range es {
		mover, other := x.Position(slot)
		r, ok := tb.Result(mover, other, id.WF, id.BF)
		if !ok {
			t.Fatalf("slot %d: the tables do not hold the position", slot)
		}
		if damage && fen == "" && r == 0 {
			r = 1
			fen = malom.Difference{Mover: mover, Other: other, MoverHand: id.WF, OtherHand: id.BF}.FEN()
		}
		switch r {
		case 1:
			es[slot] = malom.Raw{Key1: 299 - secVal, Key2: 1}
		case -1:
			es[slot] = malom.Raw{Key1: -299 - secVal, Key2: 2}
		default:
			es[slot] = malom.Raw{Key2: 0} // a draw that stays in the sector
		}
	}
	data, err := malom.EncodeSector(malom.StandardHeader, es)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, malom.Standard.SectorName(id)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return fen
}

// egtb compare reads a sector in Malom's format and compares every entry
// with the tables: equal when written from them, one difference (shown as
// its FEN, exit 1) when an entry is damaged; a sector the tables lack is
// skipped.
func TestEGTBCompare(t *testing.T) {
	dir := egtbtest.Game(t, 7)
	r := rules.Default()
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	id := malom.SectorID{W: 2, B: 2, WF: 2, BF: 1}
	x, _ := malom.NewIndex(2, 2)
	n := x.Len()

	good := t.TempDir()
	malomFrom(t, good, tb, id, false)
	code, out, errOut := runCmd(t, "", "egtb", "compare", "--malom", good, "--dir", dir)
	want := regexp.MustCompile(`^std_2_2_2_1\.sec2: (\d+) entries, (\d+) compared, (\d+) equal, 0 different\ntotal: (\d+) entries, (\d+) compared, (\d+) equal, 0 different\n$`)
	m := want.FindStringSubmatch(out)
	if code != 0 || m == nil || m[1] != itoa(n) || m[2] != itoa(n) || m[3] != itoa(n) {
		t.Fatalf("compare of an exact copy: exit %d, %q %q; want %d entries all equal", code, out, errOut, n)
	}

	bad := t.TempDir()
	fen := malomFrom(t, bad, tb, id, true)
	code, out, _ = runCmd(t, "", "egtb", "compare", "--malom", bad, "--dir", dir)
	if code != 1 || !strings.Contains(out, " 1 different\n  "+fen+": Malom win, ours draw\n") || !strings.HasSuffix(out, " 1 different\n") {
		t.Fatalf("compare with a damaged entry: exit %d, %q; want 1 difference at %s", code, out, fen)
	}

	// Sectors the tables do not hold are checked against Malom's own values
	// one ply down: 2_2_2_1 with its children 2_3_1_1 (a placement) and
	// 1_3_1_1 (a mill and a removal) written from the tables, each entry of
	// 2_2_2_1 is the best of its children; one entry damaged is found.
	// The children's own children are not there: they are not compared.
	// (A child's slot the tables leave unused, a position the game cannot
	// reach, is written as a draw.)
	chain := []malom.SectorID{id, {W: 2, B: 3, WF: 1, BF: 1}, {W: 1, B: 3, WF: 1, BF: 1}}
	var damaged string
	write := func(dir string, damage bool) {
		damaged = ""
		perfecttest.Write(t, dir, malom.Standard, map[malom.SectorID]int16{chain[0]: 3, chain[1]: -2, chain[2]: 7}, chain,
			func(sid malom.SectorID, mover, other bb.Bitboard) perfecttest.Result {
				r, ok := tb.Result(mover, other, sid.WF, sid.BF)
				if !ok && sid == id {
					t.Fatalf("sector %v: the tables do not hold a position", sid)
				}
				if damage && sid == id && damaged == "" && r == 0 {
					damaged = malom.Difference{Mover: mover, Other: other, MoverHand: id.WF, OtherHand: id.BF}.FEN()
					r = 1
				}
				switch r {
				case 1:
					return perfecttest.Win(1)
				case -1:
					return perfecttest.Loss(2)
				}
				return perfecttest.Draw
			})
	}
	noTables := t.TempDir()
	chainDir := t.TempDir()
	write(chainDir, false)
	code, out, errOut = runCmd(t, "", "egtb", "compare", "--malom", chainDir, "--dir", noTables)
	wantLine := "std_2_2_2_1.sec2: " + itoa(n) + " entries, " + itoa(n) + " compared (not in the tables: against Malom's values one ply down), " + itoa(n) + " equal, 0 different\n"
	if code != 0 || !strings.Contains(out, wantLine) || !strings.Contains(out, "std_2_3_1_1.sec2: ") || !strings.Contains(out, " 0 compared (not in the tables: against Malom's values one ply down), 0 equal, 0 different, ") {
		t.Errorf("compare one ply down: exit %d, %q %q; want the line %q", code, out, errOut, wantLine)
	}
	chainDir = t.TempDir()
	write(chainDir, true)
	code, out, _ = runCmd(t, "", "egtb", "compare", "--malom", chainDir, "--dir", noTables)
	if code != 1 || damaged == "" || !strings.Contains(out, ", "+itoa(n-1)+" equal, 1 different\n  "+damaged+": Malom win, ours draw\n") {
		t.Errorf("compare one ply down with a damaged entry: exit %d, %q; want 1 difference at %s", code, out, damaged)
	}

	code, _, errOut = runCmd(t, "", "egtb", "compare", "--dir", dir)
	if code != 2 || !strings.Contains(errOut, "--malom is required") {
		t.Errorf("no --malom: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "", "egtb", "compare", "--malom", good, "--dir", dir, "--variant", "dooz")
	if code != 2 || !strings.Contains(errOut, "Malom solved nine-mens-morris, morabaraba and lasker-morris") {
		t.Errorf("--variant dooz: exit %d, %q", code, errOut)
	}
}

// egtb plan --game lists the placing sectors after the moving ones, one job
// each with what it needs, and egtb build --game --sector solves one.
func TestEGTBPlanGame(t *testing.T) {
	code, out, errOut := runCmd(t, "", "egtb", "plan", "--game", "--max-pieces", "18", "--dir", t.TempDir())
	if code != 0 || !strings.HasPrefix(out, "plain-fly3-min3 up to 18 pieces on the board and in hand, the whole game: 477 jobs, 498 sectors, 31 levels,") {
		t.Fatalf("plan --game: exit %d, %q %q", code, firstLine(out), errOut)
	}
	for _, line := range []string{
		`1 +2_3_1_0 +2_3_1_0 +wdl +46200 +0 +3v3 +missing`,
		`14 +8_8_1_1 +8_8_1_1 +wdl +603332730 +544 +8_9_1_0,7_9_1_0 +missing`,
		`30 +0_0_9_9 +0_0_9_9 +wdl +1 +0 +0_1_9_8 +missing`,
	} {
		if !regexp.MustCompile(`(?m)^` + line + `$`).MatchString(out) {
			t.Errorf("plan --game lacks a line %q", line)
		}
	}
	code, out, _ = runCmd(t, "", "egtb", "plan", "--game", "--max-pieces", "7", "--dir", egtbtest.Game(t, 7))
	if code != 0 || !strings.HasSuffix(out, "18 of 18 jobs built in "+egtbtest.Game(t, 7)+"\n") {
		t.Errorf("plan --game up to 7 pieces: exit %d, %q", code, out)
	}
	code, _, errOut = runCmd(t, "", "--variant", "lasker-morris", "egtb", "plan", "--game", "--max-pieces", "8")
	if code != 2 || !strings.Contains(errOut, "--game: --variant lasker-morris: placing phase not covered by the tables: PiecesCount 10 (at most 9)") {
		t.Errorf("plan --game for Lasker: exit %d, %q", code, errOut)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// egtb probe --malom shows Malom's value of the position and of each action
// beside the tables', labelled, Malom's with its keys: equal on Malom's
// sectors written from the tables.
func TestEGTBProbeMalom(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	tb := egtbtest.Open(t, 7)
	mdir := t.TempDir()
	perfecttest.FromTables(t, mdir, tb, malom.SectorID{W: 3, B: 3}, malom.SectorID{W: 3, B: 4}, malom.SectorID{W: 4, B: 3})
	code, out, errOut := runCmd(t, "", "egtb", "probe", "--dir", dir, "--fen", fen3v3, "--malom", mdir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"value: tables win 1; Malom win 1 [sector 3_3_0_0 (value 0): win in 1 plies (key1 299, key2 1)]",
		"a1-g7: tables win 1; Malom win 1",
		"d7-a4: tables win 1; Malom win 1",
		"a1-a4: tables win 2; Malom win 2 [sector 3_3_0_0 (value 0): loss in 2 plies (key1 -299, key2 2)]",
	}
	if code != 0 || errOut != "" || len(lines) != 55 || !slices.Equal(lines[:4], want) {
		t.Fatalf("exit %d, %q, stdout\n%s", code, errOut, out)
	}
	same := regexp.MustCompile(`^(\S+): tables (win \d+|loss \d+|draw); Malom (win \d+|loss \d+|draw)( \[.*\])?$`)
	for i, l := range lines[1:] {
		m := same.FindStringSubmatch(l)
		if m == nil || m[2] != m[3] || strings.Split(probe3v3, "\n")[i+1] != m[1]+": "+m[2] {
			t.Fatalf("line %q (want the value of %q)", l, strings.Split(probe3v3, "\n")[i+1])
		}
	}
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"egtb", "probe", "--dir", dir, "--fen", fen3v3, "--malom", filepath.Join(mdir, "none")}, "millengine egtb probe: --malom: no folder " + filepath.Join(mdir, "none") + "\n"},
		{[]string{"--variant", "morabaraba", "egtb", "probe", "--dir", dir, "--fen", fen3v3, "--malom", mdir},
			"millengine egtb probe: --malom: rules not solved by Malom's databases: MayRemoveMultiple (Malom's games remove one piece a turn, whatever mills close; for Morabaraba set MayRemoveMultiple false)\n"},
	} {
		if code, out, errOut := runCmd(t, "", c.args...); code != 1 || out != "" || errOut != c.stderr {
			t.Errorf("%q: exit %d, %q, %q; want %q", c.args, code, out, errOut, c.stderr)
		}
	}
}
