package match

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
)

// ReadRecords reads whole lines only: complete ends at a newline, a cut-off
// last line is left out, and a bad line is an error naming it.
func TestReadRecords(t *testing.T) {
	a := `{"game":1,"white":"a","black":"b","result":"1-0","winner":"a","termination":"rule","reason":"no legal move"}` + "\n"
	b := `{"game":2,"white":"b","black":"a","result":"1/2-1/2","termination":"rule","reason":"threefold repetition"}` + "\n"
	recs, n, err := ReadRecords(strings.NewReader(a + b + `{"game":3,"wh`))
	if err != nil || n != int64(len(a+b)) || len(recs) != 2 || recs[0].Winner != "a" || recs[1].Reason != "threefold repetition" {
		t.Fatalf("%d records, %d bytes, %v", len(recs), n, err)
	}
	if _, _, err := ReadRecords(strings.NewReader(a + "[]\n" + b)); err == nil || !strings.HasPrefix(err.Error(), "line 2: json: cannot unmarshal array") {
		t.Fatalf("bad line: %v", err)
	}
	o, err := recs[1].restoreOutcome()
	if err != nil || o.Result != position.Draw || o.Termination != TermRule {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := (&GameRecord{Result: "*", Termination: TermRule}).restoreOutcome(); err == nil || err.Error() != `result "*" is not 1-0, 0-1 or 1/2-1/2` {
		t.Fatalf("unfinished game: %v", err)
	}
}

// ReadRecordFile reads a file's records as ReadRecords does; its errors name
// the file.
func TestReadRecordFile(t *testing.T) {
	dir := t.TempDir()
	a := `{"game":1,"white":"a","black":"b","result":"1-0","winner":"a","termination":"rule","reason":"no legal move"}` + "\n"
	good, bad := filepath.Join(dir, "good.jsonl"), filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(good, []byte(a+`{"game":2,"wh`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(a+"[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecordFile(good)
	if err != nil || len(recs) != 1 || recs[0].Game != 1 || recs[0].Winner != "a" {
		t.Fatalf("%+v %v", recs, err)
	}
	if _, err := ReadRecordFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": line 2: json: cannot unmarshal array") {
		t.Fatalf("bad line: %v", err)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	if _, err := ReadRecordFile(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing file: %v", err)
	}
}

// FuzzReadRecords: whatever the file holds, ReadRecords does not panic, and
// what it accepts is a prefix of whole lines.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"game":1,"white":"a","black":"b","result":"1-0"}` + "\n"))
	f.Add([]byte("{}\n{\"game\":"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, n, err := ReadRecords(bytes.NewReader(data))
		if err != nil {
			if recs != nil || n != 0 {
				t.Fatalf("error %v with %d records, %d bytes", err, len(recs), n)
			}
			return
		}
		if n > int64(len(data)) || (n > 0 && data[n-1] != '\n') || bytes.Count(data[:n], []byte("\n")) != len(recs) {
			t.Fatalf("%d records, complete %d of %q", len(recs), n, data)
		}
		for _, r := range recs {
			_, _ = r.restoreOutcome()
		}
	})
}
