package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run2 runs the command on a JSON lines file and a PGN text.
func run2(t *testing.T, pgn string) (int, string, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "run.pgn")
	if err := os.WriteFile(p, []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"testdata/run.jsonl", p}, &out, &errOut)
	return code, out.String(), errOut.String()
}

func fixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/run.pgn")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Two games of a millmatch run (nodes 3000, seed 23): the PGN millmatch
// wrote agrees with its JSON lines.
func TestAgrees(t *testing.T) {
	code, out, errOut := run2(t, fixture(t))
	want := "2 games, 55 actions: tokens, results and final positions identical; PGN read, written and read back: 2 of 2 games equal\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errOut, want)
	}
}

// Each kind of difference is found and names its game.
func TestDifferences(t *testing.T) {
	pgn := fixture(t)
	for _, tc := range []struct {
		name   string
		fromTo []string // old, new, ...
		want   string
	}{
		{"result", []string{`[Result "0-1"]`, `[Result "1/2-1/2"]`, "g4-f4 0-1", "g4-f4 1/2-1/2"},
			`game 87: result "1/2-1/2" in the PGN, "0-1" in the JSON`},
		{"token", []string{"12. f4-f6 g4-f4", "12. f4-f6 g4-g7"}, "game 87: tokens differ"},
		{"round", []string{`[Round "61"]`, `[Round "62"]`}, "PGN game 1: game 62 is not in testdata/run.jsonl"},
		{"missing game", []string{pgn[strings.Index(pgn, "\n\n[Event"):], "\n"}, "1 games in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := pgn
			for i := 0; i < len(tc.fromTo); i += 2 {
				next := strings.Replace(bad, tc.fromTo[i], tc.fromTo[i+1], 1)
				if next == bad {
					t.Fatalf("the fixture has no %q", tc.fromTo[i])
				}
				bad = next
			}
			code, out, errOut := run2(t, bad)
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 1 and an error with %q", code, out, errOut, tc.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"x"}, &out, &errOut); code != 2 || errOut.String() != "usage: pgncheck RUN.jsonl RUN.pgn\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}
