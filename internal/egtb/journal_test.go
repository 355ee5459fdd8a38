package egtb_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/rules"
)

// standardSet returns the directory of the standard tables up to maxPieces
// the tests share, and their parameters.
func standardSet(t *testing.T, maxPieces int) (string, egtb.Params) {
	t.Helper()
	r := rules.Default()
	p, err := egtb.ParamsOf(&r)
	if err != nil {
		t.Fatal(err)
	}
	return egtbtest.Small(t, maxPieces), p
}

// A verify journal makes a stopped verify go on where it was: the tables it
// holds as OK, with the checksum they have, are skipped; a line for another
// checksum (a table rebuilt since) or cut by a kill is not trusted; a file
// that is not a journal is refused.
func TestVerifyJournal(t *testing.T) {
	dir, p := standardSet(t, 6)
	path := filepath.Join(t.TempDir(), "verify.journal")
	run := func() (checked, skipped []string) {
		t.Helper()
		j, err := egtb.OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		var planned uint64
		o := egtb.VerifyOptions{Step: 97, Limit: 1, Skip: j.Has, Planned: func(n uint64) { planned += n }}
		defer func() {
			if planned != 2*210140 { // 3v3's slots, its DTM and DTZ tables
				t.Errorf("planned %d slot-tables", planned)
			}
		}()
		_, err = egtb.VerifyDir(context.Background(), dir, []egtb.Params{p}, []egtb.SectorSpec{{M: 3, O: 3}}, o, func(rep egtb.VerifyReport) {
			if rep.Skipped {
				skipped = append(skipped, rep.Label())
				return
			}
			if !rep.OK() {
				t.Errorf("%s: not OK: %+v", rep.Label(), rep.Result)
			}
			checked = append(checked, rep.Label())
			if err := j.Add(rep); err != nil {
				t.Fatal(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return checked, skipped
	}
	checked, skipped := run()
	if strings.Join(checked, ",") != "3v3,3v3 dtz" || len(skipped) != 0 {
		t.Fatalf("first run: checked %v, skipped %v", checked, skipped)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || lines[0] != "# millengine egtb verify journal" ||
		!strings.HasPrefix(lines[1], "plain-fly3-min3 3v3 crc ") || !strings.HasPrefix(lines[2], "plain-fly3-min3 3v3 dtz crc ") {
		t.Fatalf("journal:\n%s", data)
	}
	checked, skipped = run()
	if len(checked) != 0 || strings.Join(skipped, ",") != "3v3,3v3 dtz" {
		t.Fatalf("second run: checked %v, skipped %v", checked, skipped)
	}
	// Another checksum for 3v3 (as after a rebuild), and the DTZ line cut
	// short by a kill: both checked again.
	crc := lines[1][len("plain-fly3-min3 3v3 crc ") : len("plain-fly3-min3 3v3 crc ")+8]
	other := "00000000"
	if crc == other {
		other = "ffffffff"
	}
	bad := lines[0] + "\n" + strings.Replace(lines[1], crc, other, 1) + "\n" + lines[2][:len(lines[2])/2]
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	checked, skipped = run()
	if strings.Join(checked, ",") != "3v3,3v3 dtz" || len(skipped) != 0 {
		t.Fatalf("after a rebuild: checked %v, skipped %v", checked, skipped)
	}
	foreign := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(foreign, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := egtb.OpenJournal(foreign); err == nil || !strings.Contains(err.Error(), "not a journal of egtb verify") {
		t.Errorf("a foreign file: %v", err)
	}
}

// A table's check stopped half way goes on from the last part the journal
// recorded: the second run checks only the slots above it, and the two
// runs together count exactly the entries of one whole check. A part line
// cut by a kill is ignored.
func TestVerifyResumesATable(t *testing.T) {
	dir, p := standardSet(t, 6)
	only := []egtb.SectorSpec{{M: 3, O: 3}}
	whole := map[string]uint64{}
	if _, err := egtb.VerifyDir(context.Background(), dir, []egtb.Params{p}, only, egtb.VerifyOptions{Limit: 1}, func(rep egtb.VerifyReport) {
		whole[rep.Label()] = rep.Result.Checked
	}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "verify.journal")
	j, err := egtb.OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	// First run: a checkpoint after every chunk, stopped at the third.
	ctx, cancel := context.WithCancel(context.Background())
	parts := 0
	o := egtb.VerifyOptions{Limit: 1, Threads: 1, CheckpointEvery: time.Nanosecond, Skip: j.Has,
		Checkpoint: func(rep egtb.VerifyReport, part egtb.VerifyPart) {
			if err := j.Checkpoint(rep, part); err != nil {
				t.Fatal(err)
			}
			if parts++; parts == 3 {
				cancel()
			}
		}}
	if _, err := egtb.VerifyDir(ctx, dir, []egtb.Params{p}, only, o, func(rep egtb.VerifyReport) {
		t.Errorf("a table finished in the stopped run: %s", rep.Label())
	}); err == nil {
		t.Fatal("the stopped run did not say so")
	}
	j.Close()
	// The kill cut the last line short.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, " part: upto 49152, ") {
		t.Fatalf("last part line %q, want the third chunk's", last)
	}
	f.WriteString(strings.Replace(last, "49152, ", "65536, ", 1)[:len(last)-6])
	f.Close()

	j, err = egtb.OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var firstDone uint64
	resumed := map[string]uint32{}
	// One thread, so that the first progress comes after the first chunk
	// (with two, the first thread's first chunk may finish after others:
	// it also makes the first reads of the tables).
	o = egtb.VerifyOptions{Limit: 1, Threads: 1, Skip: j.Has,
		Resume: func(rep egtb.VerifyReport) (egtb.VerifyPart, bool) {
			part, ok := j.Resume(rep)
			if ok {
				resumed[rep.Label()] = part.Upto
			}
			return part, ok
		},
		Progress: func(_ string, done, _ uint64) {
			if firstDone == 0 {
				firstDone = done
			}
		}}
	got := map[string]uint64{}
	if _, err := egtb.VerifyDir(context.Background(), dir, []egtb.Params{p}, only, o, func(rep egtb.VerifyReport) {
		if !rep.OK() {
			t.Errorf("%s: %+v", rep.Label(), rep.Result)
		}
		got[rep.Label()] = rep.Result.Checked
	}); err != nil {
		t.Fatal(err)
	}
	if len(resumed) != 1 || resumed["3v3"] != 49152 {
		t.Errorf("resumed %v, want 3v3 from slot 49152", resumed)
	}
	if firstDone != 49152+16384 {
		t.Errorf("the resumed run's first progress: %d slots, want %d (a chunk past 49152)", firstDone, 49152+16384)
	}
	if got["3v3"] != whole["3v3"] || got["3v3 dtz"] != whole["3v3 dtz"] || whole["3v3"] == 0 {
		t.Errorf("checked %v, a whole check %v", got, whole)
	}
}

// The record built into the engine (egtb.Record) holds the tables the tests
// build, with their checksums: the build reproduces byte for byte the data
// that was verified entry by entry, and a verify with the record skips it.
func TestRecord(t *testing.T) {
	dir, p := standardSet(t, 7)
	rec := egtb.Record()
	var skipped []string
	only := []egtb.SectorSpec{{M: 3, O: 3}, {M: 3, O: 4}, {M: 4, O: 3}}
	_, err := egtb.VerifyDir(context.Background(), dir, []egtb.Params{p}, only, egtb.VerifyOptions{Skip: rec.Has, Step: 997, Limit: 1}, func(rep egtb.VerifyReport) {
		if !rep.Skipped {
			t.Errorf("%s (crc %08x) is not in the record", rep.Label(), rep.CRC)
			return
		}
		skipped = append(skipped, rep.Label())
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(skipped, ","); got != "3v3,3v3 dtz,3v4,3v4 dtz,4v3,4v3 dtz" {
		t.Errorf("skipped %s", got)
	}
	if _, ok := rec.Resume(egtb.VerifyReport{Params: p, Spec: egtb.SectorSpec{M: 3, O: 3}, CRC: 1}); ok {
		t.Error("a part for a checksum the record does not hold")
	}
}

// A verify's journal adds to the record only what the record lacks: new OK
// lines, and the furthest part of a table still under way, once.
func TestRecordAdditions(t *testing.T) {
	const h = "# millengine egtb verify journal\n"
	record := h + "# an earlier machine\n" +
		"p 3v3 crc 00000001: OK, 10 entries, 1.0 s\n" +
		"p 5v5 crc 00000005 part: upto 300, 300 entries, 3.0 s\n" +
		"p 6v6 crc 00000006 part: upto 100, 100 entries, 1.0 s\n"
	journal := h +
		"p 3v3 crc 00000001: OK, 10 entries, 0.9 s\n" + // held already
		"p 3v3 dtz crc 00000002: OK, 10 entries, 0.8 s\n" +
		"p 4v4 crc 00000004 part: upto 50, 50 entries, 2.0 s\n" +
		"p 4v4 crc 00000004: OK, 90 entries, 4.0 s\n" + // finished: no part line
		"p 5v5 crc 00000005 part: upto 200, 200 entries, 2.0 s\n" + // behind the record's
		"p 6v6 crc 00000006 part: upto 150, 150 entries, 1.5 s\n" +
		"p 6v6 crc 00000006 part: upto 250, 250 entries, 2.5 s\n" +
		"p 7v7 crc 00000007 part: upto 9"
	oks, parts, err := egtb.RecordAdditions(record, journal)
	if err != nil {
		t.Fatal(err)
	}
	got := append(oks, parts...)
	want := []string{
		"p 3v3 dtz crc 00000002: OK, 10 entries, 0.8 s",
		"p 4v4 crc 00000004: OK, 90 entries, 4.0 s",
		"p 6v6 crc 00000006 part: upto 250, 250 entries, 2.5 s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, _, err := egtb.RecordAdditions(record, "not a journal\n"); err == nil || !strings.Contains(err.Error(), "not a journal of egtb verify") {
		t.Errorf("a file that is not a journal: %v", err)
	}
}
