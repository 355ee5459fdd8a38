package egtb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A verify journal is read from a file a kill may have cut anywhere or that
// may be something else altogether: OpenJournal takes a file only if it
// starts with the journal's header, never panics, and every part it keeps
// reads back the same when written again.
func FuzzOpenJournal(f *testing.F) {
	f.Add(journalHeader + "\nplain-fly3-min3 3v3 crc 1a2b3c4d: OK, 210140 entries, 0.9 s\n")
	f.Add(journalHeader + "\nplain-fly3-min3 9v9 dtz crc 1a2b3c4d part: upto 123731968, 98304221 entries, 1502.3 s\n")
	f.Add(journalHeader + "\nx part: upto 7, 8 entries, 9")
	f.Add("my notes\n")
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(t.TempDir(), "j")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		j, err := OpenJournal(path)
		if err != nil {
			return
		}
		defer j.Close()
		if data != "" && data != journalHeader && !strings.HasPrefix(data, journalHeader+"\n") && !strings.HasPrefix(data, journalHeader+"\r\n") {
			t.Fatalf("took a file that does not start with the header: %q", data)
		}
		for k, p := range j.parts {
			line := k + partSep + strings.TrimSpace(formatPart(p))
			k2, p2, ok := parsePart(line)
			if !ok || k2 != k || p2.Upto != p.Upto || p2.Checked != p.Checked || (p2.Elapsed-p.Elapsed).Abs().Seconds() > 0.05 {
				t.Fatalf("part %q %+v written as %q reads back %q %+v %t", k, p, line, k2, p2, ok)
			}
		}
	})
}
