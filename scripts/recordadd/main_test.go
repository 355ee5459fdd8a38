package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The record gets the note and the journal's new lines, once: a second run
// adds nothing.
func TestAppends(t *testing.T) {
	dir := t.TempDir()
	rec, jr := filepath.Join(dir, "record"), filepath.Join(dir, "journal")
	const h = "# millengine egtb verify journal\n"
	if err := os.WriteFile(rec, []byte(h+"p 3v3 crc 00000001: OK, 10 entries, 1.0 s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jr, []byte(h+"p 3v3 crc 00000001: OK, 10 entries, 0.9 s\np 9v9 dtz crc 00000009 part: upto 64, 60 entries, 120.0 s\np 4v4 crc 00000004: OK, 20 entries, 2.0 s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--journal", jr, "--record", rec, "--note", "today, build x"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "1 OK lines and 1 part lines added to " + rec + "\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	got, _ := os.ReadFile(rec)
	want := h + "p 3v3 crc 00000001: OK, 10 entries, 1.0 s\n# today, build x\np 4v4 crc 00000004: OK, 20 entries, 2.0 s\np 9v9 dtz crc 00000009 part: upto 64, 60 entries, 120.0 s\n"
	if string(got) != want {
		t.Errorf("record\n%s\nwant\n%s", got, want)
	}
	out.Reset()
	if code := run([]string{"--journal", jr, "--record", rec, "--note", "again"}, &out, &errb); code != 0 || out.String() != rec+" holds every line of "+jr+" already\n" {
		t.Errorf("second run: exit %d, %q", code, out.String())
	}
	if again, _ := os.ReadFile(rec); string(again) != want {
		t.Errorf("the second run changed the record:\n%s", again)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"--journal", "j"}, {"--journal", "j", "--note", " "}, {"--journal", "j", "--note", "a\nb"}, {"--journal", "j", "--note", "n", "extra"}, {"--nope"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and an error", args, code, out.String(), errb.String())
		}
	}
}
