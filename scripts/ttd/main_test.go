package main

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
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
	if got, err := readPositions(good); err != nil || len(got) != 2 || got[1] != (pos{"position fen x", ""}) {
		t.Fatalf("%q %v", got, err)
	}
	tagged := filepath.Join(dir, "tagged")
	os.WriteFile(tagged, []byte("position startpos\n# phase: a b \nposition fen x\n# other\nposition fen y\n#phase: c\n# phase: d\nposition fen z\n"), 0o644)
	want := []pos{{"position startpos", ""}, {"position fen x", "a b"}, {"position fen y", "a b"}, {"position fen z", "d"}}
	if got, err := readPositions(tagged); err != nil || !slices.Equal(got, want) {
		t.Fatalf("tagged: %q %v, want %q", got, err, want)
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

func TestSummarize(t *testing.T) {
	ms := func(a, b int) [2]time.Duration {
		return [2]time.Duration{time.Duration(a) * time.Millisecond, time.Duration(b) * time.Millisecond}
	}
	var out bytes.Buffer
	summarize(&out, []result{{"x", ms(10, 40), false, nil}, {"y", ms(30, 10), false, nil}, {"x", ms(90, 90), false, nil}, {"y", ms(20, 20), false, nil}, {"y", ms(1, 500), true, nil}})
	want := "x              total 100 ms / 130 ms = 0.769; geometric mean of the ratios 0.500 over 2 positions\n" +
		"y              total 50 ms / 30 ms = 1.667; geometric mean of the ratios 1.732 over 2 positions (1 ended short of the depth, left out)\n" +
		"all            total 150 ms / 160 ms = 0.938; geometric mean of the ratios 0.931 over 4 positions (1 ended short of the depth, left out)\n"
	if out.String() != want {
		t.Errorf("got\n%swant\n%s", out.String(), want)
	}
	out.Reset()
	summarize(&out, []result{{"", ms(10, 40), false, nil}, {"", ms(40, 10), false, nil}})
	if want := "all            total 50 ms / 50 ms = 1.000; geometric mean of the ratios 1.000 over 2 positions\n"; out.String() != want {
		t.Errorf("untagged: got %q, want %q", out.String(), want)
	}
	// Two rounds: the pairs' ratios 0.5, 0.5 and 1, 1 (a short position's
	// pairs left out too).
	out.Reset()
	half := math.Log(0.5)
	summarize(&out, []result{{"", ms(10, 20), false, []float64{half, half}}, {"", ms(30, 30), false, []float64{0, 0}},
		{"", ms(1, 30), true, []float64{-3, -3}}})
	if want := "all            total 40 ms / 50 ms = 0.800; geometric mean of the ratios 0.707 over 2 positions" +
		"; paired 0.707 [0.474..1.055] over 4 pairs (1 ended short of the depth, left out)\n"; out.String() != want {
		t.Errorf("paired: got %q, want %q", out.String(), want)
	}
}

// TestPhasesFile checks testdata/ttd-phases.txt: it is what --generate 8
// --seed 1 writes, and every position parses and is of its tagged phase.
func TestPhasesFile(t *testing.T) {
	const path = "../../testdata/ttd-phases.txt"
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := generate(&out, 8, 1); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(file) {
		t.Errorf("%s is not what --generate 8 --seed 1 writes:\n%s", path, out.String())
	}
	got, err := readPositions(path)
	if err != nil {
		t.Fatal(err)
	}
	preset, _ := rules.PresetByName("nine-mens-morris")
	count := map[string]int{}
	for _, ps := range got {
		p, err := position.ParseFEN(&preset.Rules, strings.TrimPrefix(ps.cmd, "position fen "))
		if err != nil {
			t.Fatalf("%s: %v", ps.cmd, err)
		}
		if ph := phaseOf(&preset.Rules, &p); ph < 0 || phaseNames[ph] != ps.phase {
			t.Errorf("%s: phase %d, tagged %q", ps.cmd, ph, ps.phase)
		}
		count[ps.phase]++
	}
	for _, name := range phaseNames {
		if count[name] != 8 {
			t.Errorf("%d positions of %s, want 8", count[name], name)
		}
	}
}

func TestOutcome(t *testing.T) {
	preset, _ := rules.PresetByName("nine-mens-morris")
	r := &preset.Rules
	for _, c := range []struct {
		fen  string
		n    int
		want int
	}{
		// White closes a mill and removes one of black's three: a win in 2.
		{"@*O**@**/*OOOO*OO/**@***** w m s 7 0 3 0 0 0 0 0 0 0 0 1 31", 2, 1},
		{"@*O**@**/*OOOO*OO/**@***** w m s 7 0 3 0 0 0 0 0 0 0 0 1 31", 1, 0},
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", 4, 0},
	} {
		p, err := position.ParseFEN(r, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := outcome(r, &p, c.n); got != c.want {
			t.Errorf("outcome(%s, %d) = %d, want %d", c.fen, c.n, got, c.want)
		}
	}
}

func TestUntil(t *testing.T) {
	out := "info depth 1 score cp 3\ninfo string depth 40\ninfo depth 12 seldepth 30\ninfo depth 7\nbestmove a1\ninfo depth 20\n"
	e := &engine{out: bufio.NewScanner(strings.NewReader(out))}
	if d, err := e.until("bestmove"); d != 12 || err != nil {
		t.Errorf("until bestmove: %d %v, want 12", d, err)
	}
	if d, err := e.until("bestmove"); d != 20 || err == nil {
		t.Errorf("past the end: %d %v, want 20 and an error", d, err)
	}
}
