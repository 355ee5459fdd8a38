package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/match/matchtest"
)

var randomEngine string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "millmatch-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	randomEngine, err = matchtest.BuildRandomEngine(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	code, _, stderr := runArgs("--help")
	if code != exitOK || !strings.Contains(stderr, "--engine") || !strings.Contains(stderr, "millengine-prev") {
		t.Errorf("--help: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	e := "--engine=" + randomEngine
	cases := map[string][]string{
		"two --engine":        {e},
		"unknown --variant":   {e, e, "--variant", "chess"},
		"--tc and --movetime": {e, e, "--tc", "1+0", "--movetime", "10"},
		"bad --tc":            {e, e, "--tc", "fast"},
		"bad --sprt":          {e, e, "--sprt", "5"},
		"--sprt elo order":    {e, e, "--sprt", "5,0"},
		"--sprt with three":   {e, e, e, "--sprt", "0,5"},
		"--name out of range": {e, e, "--name", "3:x"},
		"too many --name":     {e, e, "--name", "a", "--name", "b", "--name", "c"},
		"--args without N":    {e, e, "--args", "--seed 3"},
		"openings both ways":  {e, e, "--openings", "x.txt", "--random-openings", "3"},
		"missing openings":    {e, e, "--openings", "/nonexistent/openings.txt"},
		"bad flag":            {e, e, "--no-such-flag"},
		"positional":          {e, e, "extra"},
		"zero games":          {e, e, "--games", "0"},
		"same label":          {e, e, "--name", "a", "--name", "a"},
	}
	for name, args := range cases {
		if code, _, stderr := runArgs(args...); code != exitUsage || stderr == "" {
			t.Errorf("%s: exit %d (want %d), stderr %q", name, code, exitUsage, stderr)
		}
	}
}

func TestConfigFromFlags(t *testing.T) {
	o := options{
		engines: []string{"./bin/millengine --threads 1", "./bin/millengine", "/x/other"},
		names:   []string{"new", "3:third"},
		sprt:    "-1,4",
		args:    []string{"2:--hash 64 --log-level warn"},
		setopts: []string{"Hash=32", "1:Move Overhead=10", "2:Clear Hash"},
		games:   10, concurrency: 2, maxPlies: 500, margin: 50, tc: "10+0.1",
		variant: "Lasker Morris", randomOpenings: 3, seed: 9,
	}
	if _, _, err := o.config(); err == nil || !strings.Contains(err.Error(), "SPRT needs exactly two engines") {
		t.Errorf("an SPRT with three engines: %v", err)
	}
	o.sprt = ""
	cfg, seed, err := o.config()
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
	if len(e[0].Options) != 2 || e[0].Options[1] != (match.Option{Name: "Move Overhead", Value: "10"}) ||
		len(e[1].Options) != 2 || !e[1].Options[1].Button || len(e[2].Options) != 1 {
		t.Errorf("options %+v / %+v / %+v", e[0].Options, e[1].Options, e[2].Options)
	}
	if cfg.Variant.Key != "lasker-morris" || cfg.TC.String() != "10+0.1" || len(cfg.Openings) != 5 || cfg.Margin.Milliseconds() != 50 {
		t.Errorf("config %+v", cfg)
	}
	if sp, err := parseSPRT("-1,4"); err != nil || sp != (match.SPRT{Elo0: -1, Elo1: 4, Alpha: 0.05, Beta: 0.05}) {
		t.Errorf("parseSPRT(-1,4) = %+v, %v", sp, err)
	}
	if sp, err := parseSPRT("0, 5, 0.1, 0.2"); err != nil || sp != (match.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.1, Beta: 0.2}) {
		t.Errorf("parseSPRT(0,5,0.1,0.2) = %+v, %v", sp, err)
	}

	names := []match.EngineSpec{{Path: "a/eng"}, {Path: "b/eng"}, {Path: "eng-2"}}
	defaultNames(names)
	if names[0].Name != "eng" || names[1].Name != "eng-2" || names[2].Name != "eng-2-2" {
		t.Errorf("default names %q %q %q", names[0].Name, names[1].Name, names[2].Name)
	}
}

// A real match from the command line: the output has the summary lines and
// the JSON-lines file one record per game.
func TestRunMatch(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	code, stdout, stderr := runArgs(
		"--engine", randomEngine+" --seed 1", "--engine", randomEngine+" --greedy",
		"--name", "random", "--name", "greedy", "--option", "2:Hash=8",
		"--games", "6", "--movetime", "50", "--random-openings", "4", "--seed", "3",
		"--concurrency", "2", "--out", out, "--sprt", "0,400", "--timemargin", "2000")
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	re := regexp.MustCompile(`(?m)^Score of random vs greedy: (\d+) - (\d+) - (\d+) \[[0-9.]+\] (\d+)$`)
	m := re.FindAllStringSubmatch(stdout, -1)
	if len(m) == 0 {
		t.Fatalf("no score line in:\n%s", stdout)
	}
	last := m[len(m)-1]
	w, _ := strconv.Atoi(last[1])
	l, _ := strconv.Atoi(last[2])
	d, _ := strconv.Atoi(last[3])
	n, _ := strconv.Atoi(last[4])
	if w+l+d != n || n == 0 {
		t.Errorf("score line %q does not add up", last[0])
	}
	for _, want := range []string{"Elo difference: ", "LOS: ", "SPRT (trinomial", "Rank", "Endings:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec match.GameRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d: %v", lines+1, err)
		}
		if rec.Reason == "" || rec.Result == "*" || len(rec.Opening) != 4 {
			t.Errorf("record %+v", rec)
		}
		lines++
	}
	if lines != n {
		t.Errorf("%d JSON lines for %d counted games", lines, n)
	}
}

func TestRunOpeningsFileAndVariant(t *testing.T) {
	root, err := matchtest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs(
		"--engine", randomEngine, "--engine", randomEngine+" --sanmill-style --no-variant",
		"--games", "2", "--movetime", "30", "--timemargin", "2000", "--openings", filepath.Join(root, "testdata", "openings", "nine-mens-morris.txt"), "-q")
	if code != exitOK || !strings.Contains(stdout, "Score of randomengine vs randomengine-2: ") || strings.Contains(stdout, "Game 1/") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// An engine that cannot start fails the run with a clear message.
	code, _, stderr = runArgs("--engine", randomEngine, "--engine", "/nonexistent/engine", "--games", "2")
	if code != exitFailure || !strings.Contains(stderr, "/nonexistent/engine") {
		t.Errorf("missing engine: exit %d, stderr %q", code, stderr)
	}
}
