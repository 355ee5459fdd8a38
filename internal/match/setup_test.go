package match

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/rules"
)

func TestConfigFromFlags(t *testing.T) {
	o := Setup{
		Engines: []string{"./bin/millengine --threads 1", "./bin/millengine", "/x/other"},
		Names:   []string{"new", "3:third"},
		SPRT:    "-1,4",
		Args:    []string{"2:--hash 64 --log-level warn"},
		Options: []string{"Hash=32", "1:Move Overhead=10", "2:Clear Hash"},
		Games:   10, Concurrency: 2, MaxPlies: 500, Margin: 50, TC: "10+0.1", Startup: time.Second,
		Variant: "Lasker Morris", RandomOpenings: 3, Seed: 9,
	}
	if _, _, err := o.Config(); err == nil || err.Error() != "--sprt needs exactly two engines, got 3" {
		t.Errorf("an SPRT with three engines: %v", err)
	}
	o.SPRT = ""
	cfg, seed, err := o.Config()
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Engines
	if e[0].Name != "new" || e[1].Name != "millengine" || e[2].Name != "third" || seed != 9 {
		t.Errorf("names %q %q %q, seed %d", e[0].Name, e[1].Name, e[2].Name, seed)
	}
	if strings.Join(e[0].Args, " ") != "--threads 1" || strings.Join(e[1].Args, " ") != "--hash 64 --log-level warn" {
		t.Errorf("args %q / %q", e[0].Args, e[1].Args)
	}
	if len(e[0].Options) != 2 || e[0].Options[1] != (Option{Name: "Move Overhead", Value: "10"}) ||
		len(e[1].Options) != 2 || !e[1].Options[1].Button || len(e[2].Options) != 1 {
		t.Errorf("options %+v / %+v / %+v", e[0].Options, e[1].Options, e[2].Options)
	}
	if cfg.Variant.Key != "lasker-morris" || cfg.TC.String() != "10+0.1" || len(cfg.Openings) != 5 || cfg.Margin.Milliseconds() != 50 {
		t.Errorf("config %+v", cfg)
	}
	o.TC, o.Nodes = "", 20000
	if cfg, _, err := o.Config(); err != nil || cfg.TC != (TimeControl{Nodes: 20000}) || cfg.TC.String() != "nodes 20000" {
		t.Errorf("--nodes 20000: %+v, %v", cfg.TC, err)
	}
	if sp, err := parseSPRT("-1,4"); err != nil || sp != (SPRT{Elo0: -1, Elo1: 4, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("parseSPRT(-1,4) = %+v, %v", sp, err)
	}
	if sp, err := parseSPRT("0, 5, 0.1, 0.2"); err != nil || sp != (SPRT{Elo0: 0, Elo1: 5, Alpha: 0.1, Beta: 0.2}) {
		t.Errorf("parseSPRT(0,5,0.1,0.2) = %+v, %v", sp, err)
	}

	names := []EngineSpec{{Path: "a/eng"}, {Path: "b/eng"}, {Path: "eng-2"}}
	defaultNames(names)
	if names[0].Name != "eng" || names[1].Name != "eng-2" || names[2].Name != "eng-2-2" {
		t.Errorf("default names %q %q %q", names[0].Name, names[1].Name, names[2].Name)
	}
}

// Engine options whose names merely contain a rule word are fine (a rule
// option is refused: cmd/millmatch's TestRuleOptionsRefused).
func TestSetupEngineOptionsWithRuleWords(t *testing.T) {
	o := Setup{Engines: []string{"a", "b"}, Options: []string{"MaxQuiescenceDepth=2", "2:VariantBook=x"},
		Games: 2, Concurrency: 1, Startup: time.Second, Variant: "dooz"}
	if _, _, err := o.Config(); err != nil {
		t.Errorf("engine options refused: %v", err)
	}
}

// The openings of a seed as tokens and as the positions they lead to; an
// opening that does not play under the rules names its source.
func TestWriteOpenings(t *testing.T) {
	r := rules.Default()
	ops, err := RandomOpenings(r, 2, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteOpenings(&out, ops, r, false); err != nil || out.String() != "d1 b4 c3 f4\nd1 f4 a7 g1\n" {
		t.Errorf("tokens: %q, %v", out.String(), err)
	}
	out.Reset()
	want := "*****O**/**@***@*/****O*** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3\n********/**@*****/***@O**O w p p 2 7 2 7 0 0 0 0 0 0 0 0 3\n"
	if err := WriteOpenings(&out, ops, r, true); err != nil || out.String() != want {
		t.Errorf("FENs: %q, %v", out.String(), err)
	}
	bad := []Opening{{Moves: []string{"d1", "d1"}, Source: "openings.txt:3"}}
	if err := WriteOpenings(&out, bad, r, true); err == nil || !strings.HasPrefix(err.Error(), "openings.txt:3: ") {
		t.Errorf("an opening that does not play: %v", err)
	}
}

// The header names the rules, the time control, the engines, the openings
// and the games a resumed match holds.
func TestWriteHeader(t *testing.T) {
	o := Setup{Engines: []string{"./a --x", "b"}, Games: 4, Concurrency: 2, Startup: time.Second, Variant: "morabaraba",
		RandomOpenings: 2, Seed: 5, Nodes: 800}
	cfg, seed, err := o.Config()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	o.WriteHeader(&out, &cfg, seed)
	want := "millmatch: morabaraba, nodes 800, 4 games per pairing, concurrency 2\n" +
		"  engine 1: a = ./a --x\n  engine 2: b = b\n  openings: 2 random of 2 actions, seed 5\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
