package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestIndexed(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		rest string
		ok   bool
	}{{"1:go", 0, "go", true}, {"2:setoption name X value 1", 1, "setoption name X value 1", true}, {"3:go", 0, "", false}, {"go", 0, "", false}} {
		n, rest, ok := indexed(c.in)
		if n != c.n || rest != c.rest || ok != c.ok {
			t.Errorf("indexed(%q) = %d %q %v, want %d %q %v", c.in, n, rest, ok, c.n, c.rest, c.ok)
		}
	}
}

func TestReadPositions(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("# c\nposition startpos\n\nposition fen x\n"), 0o644)
	if got, err := readPositions(good); err != nil || len(got) != 2 || got[1] != "position fen x" {
		t.Fatalf("%q %v", got, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("startpos\n"), 0o644)
	if _, err := readPositions(bad); err == nil {
		t.Fatal("a line without position was read")
	}
	if got, err := readPositions("../../testdata/ttd-positions.txt"); err != nil || len(got) != 12 {
		t.Fatalf("testdata: %d positions, %v", len(got), err)
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--engine", "x"}, &out, &errb); code != 2 || errb.Len() == 0 {
		t.Fatalf("one engine: exit %d, stderr %q", code, errb.String())
	}
}
