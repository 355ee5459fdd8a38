package match

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

func TestParseOpenings(t *testing.T) {
	in := `# comment
A7 b4 d7

fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 moves d6 d2
a7 b4 d7 f4 g7
`
	ops, err := ParseOpenings(strings.NewReader(in), rules.Default(), "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 3 {
		t.Fatalf("got %d openings, want 3", len(ops))
	}
	if got := strings.Join(ops[0].Moves, " "); got != "a7 b4 d7" || ops[0].Source != "test:2" {
		t.Errorf("opening 1 = %q from %s", got, ops[0].Source)
	}
	if ops[1].FEN != position.StartFEN || strings.Join(ops[1].Moves, " ") != "d6 d2" {
		t.Errorf("opening 2 = %+v", ops[1])
	}
	// An opening may stop at a pending removal: the engine to move removes.
	g, err := ops[2].Game(rules.Default())
	if err != nil || g.Pos.Action() != position.Remove {
		t.Errorf("opening 3: %v, action %v", err, g.Pos.Action())
	}
	if got := PositionCommand(ops[1].FEN, ops[1].Moves); got != "position fen "+position.StartFEN+" moves d6 d2" {
		t.Errorf("PositionCommand = %q", got)
	}
}

func TestParseOpeningsErrors(t *testing.T) {
	bad := map[string]string{
		"a7 a7\n":                          "test:1", // occupied point
		"\n\na7 zz\n":                      "test:3", // not a token
		"fen\n":                            "without a position",
		"fen nonsense\n":                   "fen",
		"# only comment\n":                 "no openings",
		"a7 b4 d7 f4 g7 xb4 a1 b2 a4 b6\n": "", // legal, not decided: accepted
	}
	for in, want := range bad {
		_, err := ParseOpenings(strings.NewReader(in), rules.Default(), "test")
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", in, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want one mentioning %q", in, err, want)
		}
	}
}

func TestOpeningsFilesParse(t *testing.T) {
	root, err := testkit.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "testdata", "openings", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no opening files in testdata/openings")
	}
	for _, f := range files {
		variant := "nine-mens-morris"
		if b, err := os.ReadFile(f); err == nil {
			if first, _, _ := strings.Cut(string(b), "\n"); strings.HasPrefix(first, "# variant: ") {
				variant = strings.TrimSpace(strings.TrimPrefix(first, "# variant: "))
			}
		}
		p, ok := rules.PresetByName(variant)
		if !ok {
			t.Errorf("%s: unknown variant %q", f, variant)
			continue
		}
		if ops, err := LoadOpenings(f, p.Rules); err != nil || len(ops) == 0 {
			t.Errorf("%s: %d openings, %v", f, len(ops), err)
		}
	}
}

func TestRandomOpenings(t *testing.T) {
	for _, p := range rules.Presets {
		ops, err := RandomOpenings(p.Rules, 20, 4, 42)
		if err != nil {
			t.Errorf("%s: %v", p.Key, err)
			continue
		}
		again, _ := RandomOpenings(p.Rules, 20, 4, 42)
		seen := map[string]bool{}
		for i, o := range ops {
			key := strings.Join(o.Moves, " ")
			if len(o.Moves) != 4 || seen[key] {
				t.Errorf("%s: opening %q: want 4 distinct actions", p.Key, key)
			}
			seen[key] = true
			if strings.Join(again[i].Moves, " ") != key {
				t.Errorf("%s: the same seed gave %q then %q", p.Key, key, strings.Join(again[i].Moves, " "))
			}
			g, err := o.Game(p.Rules)
			if err != nil {
				t.Errorf("%s: %v", p.Key, err)
				continue
			}
			if !undecided(&g.Rules, &g.Pos) {
				t.Errorf("%s: opening %q is decided", p.Key, key)
			}
		}
	}
	other, _ := RandomOpenings(rules.Default(), 20, 4, 43)
	first, _ := RandomOpenings(rules.Default(), 20, 4, 42)
	if strings.Join(other[0].Moves, " ") == strings.Join(first[0].Moves, " ") &&
		strings.Join(other[1].Moves, " ") == strings.Join(first[1].Moves, " ") {
		t.Error("different seeds gave the same openings")
	}
	if ops, err := RandomOpenings(rules.Default(), 30, 1, 1); err != nil || len(ops) != 24 {
		t.Errorf("30 openings of one placement: got %d, %v; want the 24 that exist", len(ops), err)
	}
	if _, err := RandomOpenings(rules.Default(), 3, -1, 1); err == nil {
		t.Error("a negative length: want an error")
	}
}
