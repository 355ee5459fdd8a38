package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/millengine/millengine/internal/cli"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

var randomEngine string

func TestMain(m *testing.M) {
	var err error
	if randomEngine, err = testkit.Build("./testdata/engines/randomengine", "test"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testkit.Main(m)
}

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// A signal before the first game ends the run with the signal's status and
// one line saying so; there is no summary to print.
func TestStoppedBeforeTheFirstGame(t *testing.T) {
	for _, c := range []struct {
		cause error
		code  int
		msg   string
	}{
		{cli.SignalCause(syscall.SIGTERM), 143, "stopped by SIGTERM"},
		{cli.SignalCause(syscall.SIGINT), 130, "stopped by SIGINT"},
		{errors.New("cancelled"), cli.ExitInterrupted, "cancelled"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(c.cause)
		var out, errb bytes.Buffer
		code := run(ctx, []string{"--engine", randomEngine, "--engine", randomEngine, "--games", "2"}, &out, &errb)
		want := "millmatch: " + c.msg + " before the first game\n"
		if code != c.code || errb.String() != want || strings.Contains(out.String(), "Score of") {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)\nstdout:\n%s", c.cause, code, c.code, errb.String(), want, out.String())
		}
	}
}

// Help goes to stdout with exit 0, asked for as a flag or as a word.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"--engine", "x", "--help"}} {
		code, stdout, stderr := runArgs(args...)
		if code != exitOK || !strings.HasPrefix(stdout, "Usage: millmatch --engine CMD --engine CMD") ||
			!strings.Contains(stdout, "millengine-prev") || !strings.Contains(stdout, "--startup-timeout") ||
			!strings.Contains(stdout, "--version") || stderr != "" {
			t.Errorf("%q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
	}
}

// --version prints the version stamped by the build (-ldflags -X
// main.version=…) on stdout, whatever else is on the command line.
func TestVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3-test"
	for _, args := range [][]string{{"--version"}, {"--engine", "x", "--version", "--games", "0"}} {
		code, stdout, stderr := runArgs(args...)
		if code != exitOK || stdout != "millmatch v1.2.3-test\n" || stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	version = ""
	if code, stdout, _ := runArgs("--version"); code != exitOK || !regexp.MustCompile(`^millmatch \S+\n$`).MatchString(stdout) {
		t.Errorf("unstamped --version: exit %d, stdout %q", code, stdout)
	}
}

// Every bad command line gets one line on stderr with the same hint, and
// exit status 2; nothing is started.
func TestUsageErrors(t *testing.T) {
	e := "--engine=" + randomEngine
	keys := strings.Join(rules.PresetKeys(), ", ")
	cases := []struct {
		args []string
		want string // the message between "millmatch: " and " (see millmatch --help)"
	}{
		{[]string{e}, "need at least two --engine flags, got 1"},
		{[]string{e, e, "--variant", "chess"}, `unknown --variant "chess" (want one of ` + keys + ")"},
		{[]string{e, e, "--tc", "1+0", "--movetime", "10"}, "--tc and --movetime are exclusive"},
		{[]string{e, e, "--nodes", "500", "--movetime", "10"}, "--nodes excludes --tc and --movetime"},
		{[]string{e, e, "--nodes", "500", "--tc", "1+0"}, "--nodes excludes --tc and --movetime"},
		{[]string{e, e, "--tc", "fast"}, `--tc: time control "fast": base: "fast" is not a number of seconds`},
		{[]string{e, e, "--tc", "0+1"}, `--tc: time control "0+1": the base time must be positive`},
		{[]string{e, e, "--sprt", "5"}, `--sprt "5": want elo0,elo1 or elo0,elo1,alpha,beta`},
		{[]string{e, e, "--sprt", "5,0"}, `--sprt "5,0": sprt: elo1 (0) must be greater than elo0 (5)`},
		{[]string{e, e, e, "--sprt", "0,5"}, "--sprt needs exactly two engines, got 3"},
		{[]string{e, e, "--name", "3:x"}, `--name "3:x": engine number 3 is out of range 1..2`},
		{[]string{e, e, "--name", "a", "--name", "b", "--name", "c"}, `--name "c": more names than engines`},
		{[]string{e, e, "--name", "a", "--name", "a"}, `two engines are named "a" (label them apart with --name)`},
		{[]string{e, e, "--args", "--seed 3"}, `--args "--seed 3": want N:ARGS with N from 1 to 2`},
		{[]string{e, e, "--openings", "x.txt", "--random-openings", "3"}, "--openings and --random-openings are exclusive"},
		{[]string{e, e, "--openings", "/nonexistent/openings.txt"}, "openings: open /nonexistent/openings.txt: no such file or directory"},
		{[]string{e, e, "--no-such-flag"}, "unknown flag: --no-such-flag"},
		{[]string{e, e, "--games", "x"}, `invalid argument "x" for "-g, --games" flag: strconv.ParseInt: parsing "x": invalid syntax`},
		{[]string{e, e, "extra"}, `unexpected argument "extra" (engine commands go in --engine)`},
		{[]string{e, e, "--games", "0"}, "--games 0: must be at least 1"},
		{[]string{e, e, "--concurrency", "0"}, "--concurrency 0: must be at least 1"},
		{[]string{e, e, "--movetime", "0"}, "--movetime 0: must be at least 1"},
		{[]string{e, e, "--movetime", "-5"}, "--movetime -5: must be at least 1"},
		{[]string{e, e, "--tc", "1+0", "--movetime", "0"}, "--movetime 0: must be at least 1"},
		{[]string{e, e, "--timemargin", "-1"}, "--timemargin -1: must not be negative"},
		{[]string{e, e, "--max-plies", "-1"}, "--max-plies -1: must not be negative (0: no cap)"},
		{[]string{e, e, "--random-openings", "-1"}, "--random-openings -1: must not be negative"},
		{[]string{e, e, "--startup-timeout", "0s"}, "--startup-timeout 0s: must be positive"},
		{[]string{e, e, "--resume"}, "--resume needs --out, the file of the games to go on from"},
		{[]string{e, e, "--egtb-adjudicate", os.TempDir() + "/millmatch-no-tables"}, "--egtb-adjudicate " + os.TempDir() + "/millmatch-no-tables: no endgame tables for nine-mens-morris there"},
	}
	for _, c := range cases {
		// --games 2: should a check be missing, the test plays two quick games, not a hundred.
		args := append([]string{"--games", "2"}, c.args...)
		code, stdout, stderr := runArgs(args...)
		want := "millmatch: " + c.want + " (see millmatch --help)\n"
		if code != exitUsage || stderr != want || stdout != "" {
			t.Errorf("%q: exit %d (want %d)\nstderr %q\nwant   %q\nstdout %q", c.args, code, exitUsage, stderr, want, stdout)
		}
	}
}

// Rules reach the engines only through --variant, which also sets the
// referee's: a rule option for one engine (or all) would make them play a
// game the referee does not, and every game a false illegal-move loss.
func TestRuleOptionsRefused(t *testing.T) {
	e := "--engine=" + randomEngine
	cases := map[string]string{ // --option → the name in the message
		"Variant=morabaraba":              "Variant",
		"2:variant=dooz":                  "variant",
		"PiecesCount=12":                  "PiecesCount",
		"1:PieceCount=12":                 "PieceCount", // Sanmill's alias
		"pieces count = 10":               "pieces count",
		"HASDIAGONALLINES=true":           "HASDIAGONALLINES",
		"2:nMoveRule=50":                  "nMoveRule",
		"Threefold Repetition Rule=false": "Threefold Repetition Rule",
	}
	for opt, name := range cases {
		code, stdout, stderr := runArgs(e, e, "--games", "2", "-q", "--option", opt)
		want := fmt.Sprintf("millmatch: --option %q: %s is a rule option: the rules of every engine and of the referee are set with --variant (see millmatch --help)\n", opt, name)
		if code != exitUsage || stderr != want || stdout != "" {
			t.Errorf("--option %q: exit %d\nstderr %q\nwant   %q\nstdout %q", opt, code, stderr, want, stdout)
		}
	}
}

// An option value the engine's declaration does not allow stops the run
// before the first game, naming the engine, the option, the value and what
// the engine declared; nothing is played.
func TestOptionsCheckedAgainstTheEngine(t *testing.T) {
	e := "--engine=" + randomEngine
	cases := []struct {
		opt, want string
	}{
		{"2:Hash=5000", "engine 2 (randomengine-2): option Hash=5000: out of the declared range 1..1024"},
		{"Ponder=maybe", "engine 1 (randomengine): option Ponder=maybe: not true or false (declared check)"},
		{"2:Style=wild", "engine 2 (randomengine-2): option Style=wild: not one of the declared values solid, risky, all in"},
		{"1:Treads=2", "engine 1 (randomengine): option Treads=2: not declared by the engine (its options: Hash, Ponder, Style, Clear Hash, Book File)"},
	}
	for _, c := range cases {
		code, stdout, stderr := runArgs(e, e, "--games", "2", "-q", "--option", c.opt)
		want := "millmatch: " + c.want + "\n"
		if code != exitFailure || stderr != want || strings.Contains(stdout, "Score of") {
			t.Errorf("--option %q: exit %d\nstderr %q\nwant   %q\nstdout %q", c.opt, code, stderr, want, stdout)
		}
	}
}

// An engine's "info string error" answer to a setoption stops the run before
// the first game, naming the engine and the option.
func TestRefusedOptionStopsTheMatch(t *testing.T) {
	code, stdout, stderr := runArgs("--engine", randomEngine, "--engine", randomEngine+" --refuse Hash",
		"--name", "2:picky", "--option", "Hash=64", "--games", "2", "-q")
	want := `millmatch: engine 2 (picky): option Hash=64: the engine answered "info string error: option Hash: refused by the test engine"` + "\n"
	if code != exitFailure || stderr != want || strings.Contains(stdout, "Score of") {
		t.Errorf("exit %d\nstderr %q\nwant   %q\nstdout %q", code, stderr, want, stdout)
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
	root, err := testkit.ModuleRoot()
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

// An interrupted match goes on with --resume: the games already in the file
// count, the rest are played and appended, and a line cut off by the kill is
// dropped. The file of another match (another seed here) is refused and left
// as it was, as is a file with a line that is not a record.
func TestResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.jsonl")
	args := []string{"--engine", randomEngine + " --seed 1", "--engine", randomEngine + " --greedy",
		"--name", "random", "--name", "greedy", "--games", "6", "--movetime", "30", "--timemargin", "2000",
		"--random-openings", "2", "--seed", "3", "--out", out, "-q"}
	if code, stdout, stderr := runArgs(args...); code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	full, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	if len(lines) != 7 || lines[6] != "" {
		t.Fatalf("%d lines in the file of a 6-game match", len(lines)-1)
	}
	// Killed while writing its third game.
	kept := lines[0] + lines[1]
	if err := os.WriteFile(out, []byte(kept+lines[2][:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runArgs(append(args, "--resume")...)
	if code != exitOK || !strings.Contains(stdout, "  resumed: 2 games already in "+out+"\n") ||
		!strings.Contains(stdout, "6 of 6 games played (2 by an earlier run)") ||
		!strings.Contains(stderr, "--resume: dropping the unfinished last line of "+out) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), kept) {
		t.Fatalf("the earlier games were rewritten:\n%s", got)
	}
	// Every game once, and the score counts the earlier games with the new.
	recs, complete, err := match.ReadRecords(bytes.NewReader(got))
	if err != nil || complete != int64(len(got)) || len(recs) != 6 {
		t.Fatalf("%d records (%d of %d bytes), %v", len(recs), complete, len(got), err)
	}
	seen := map[int]bool{}
	var w, l, d int
	for _, r := range recs {
		seen[r.Game] = true
		switch r.Winner {
		case "random":
			w++
		case "greedy":
			l++
		default:
			d++
		}
	}
	if len(seen) != 6 {
		t.Fatalf("games %v", seen)
	}
	if want := fmt.Sprintf("Score of random vs greedy: %d - %d - %d ", w, l, d); !strings.Contains(stdout, want) {
		t.Fatalf("want %q in:\n%s", want, stdout)
	}
	// Another match's file is not touched.
	other := append([]string{}, args...)
	other[len(other)-4] = "4" // --seed 4
	code, stdout, stderr = runArgs(append(other, "--resume")...)
	if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, "millmatch: --resume: "+out+": match: earlier game ") ||
		!strings.Contains(stderr, "not the same match") {
		t.Fatalf("other seed: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if now, _ := os.ReadFile(out); !bytes.Equal(now, got) {
		t.Fatal("the refused resume changed the file")
	}
	bad := lines[0] + "{not json}\n" + lines[1]
	if err := os.WriteFile(out, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runArgs(append(args, "--resume")...)
	if code != exitFailure || !strings.HasPrefix(stderr, "millmatch: --resume: "+out+": line 2: invalid character") {
		t.Fatalf("bad line: exit %d, stderr %q", code, stderr)
	}
	if now, _ := os.ReadFile(out); string(now) != bad {
		t.Fatal("the refused resume changed the file")
	}
}

// millmatch openings prints the random openings a match with the same seed
// plays, as tokens or, with --fen, as the bare position each leads to.
func TestOpeningsCommand(t *testing.T) {
	code, out, errs := runArgs("openings", "--random-openings", "4", "--count", "3", "--seed", "7")
	if code != 0 || out != "d1 b4 c3 f4\nd1 f4 a7 g1\nd1 d5 b4 a4\n" {
		t.Fatalf("tokens: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = runArgs("openings", "--random-openings", "4", "--count", "3", "--seed", "7", "--fen")
	want := "*****O**/**@***@*/****O*** w p p 2 7 2 7 0 0 0 0 0 0 0 0 3\n" +
		"********/**@*****/***@O**O w p p 2 7 2 7 0 0 0 0 0 0 0 0 3\n" +
		"@*******/******O*/****O*@* w p p 2 7 2 7 0 0 0 0 0 0 0 0 3\n"
	if code != 0 || out != want {
		t.Fatalf("fen: exit %d, %q, %q", code, out, errs)
	}
	ops, err := match.RandomOpenings(rules.Default(), 3, 4, 7)
	if err != nil || len(ops) != 3 || strings.Join(ops[2].Moves, " ") != "d1 d5 b4 a4" {
		t.Fatalf("the match's openings for seed 7: %v %v", ops, err)
	}
	for _, c := range [][]string{{"openings"}, {"openings", "--random-openings", "4", "--count", "0"}, {"openings", "--openings", "x", "--random-openings", "2"}, {"openings", "stray"}} {
		if code, _, errs := runArgs(c...); code != 2 || !strings.HasPrefix(errs, "millmatch openings: ") {
			t.Errorf("%v: exit %d, %q", c, code, errs)
		}
	}
}

// --pgn writes every game in Sanmill's PGN dialect beside the JSON lines:
// read back, each game has the tokens of its record (removals separate, as
// the engines played them), its result and millmatch's tags.
func TestPGNOut(t *testing.T) {
	dir := t.TempDir()
	out, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	args := []string{"--engine", randomEngine + " --seed 1", "--engine", randomEngine + " --greedy",
		"--name", "random", "--name", "greedy", "--games", "6", "--movetime", "30", "--timemargin", "2000",
		"--random-openings", "2", "--seed", "3", "--out", out, "--pgn", pgn, "-q"}
	if code, stdout, stderr := runArgs(args...); code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := match.ReadRecords(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pgn)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := record.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(recs) || len(recs) != 6 {
		t.Fatalf("%d PGN games, %d records", len(games), len(recs))
	}
	for i, g := range games {
		rec := recs[i]
		rp, err := record.Replay(&g, nil)
		if err != nil {
			t.Fatalf("game %d: %v", rec.Game, err)
		}
		var toks []string
		for _, m := range rp.Game.Moves {
			toks = append(toks, m.String())
		}
		want := append(append([]string{}, rec.Opening...), rec.Moves...)
		if strings.Join(toks, " ") != strings.Join(want, " ") || g.Result != rec.Result {
			t.Errorf("game %d: PGN %v %s, record %v %s", rec.Game, toks, g.Result, want, rec.Result)
		}
		for tag, v := range map[string]string{"White": rec.White, "Black": rec.Black, "Round": strconv.Itoa(rec.Game),
			"Result": rec.Result, "Termination": rec.Reason, "Opening": strings.Join(rec.Opening, " "), "Variant": "Nine Men's Morris"} {
			if got, _ := g.Tag(tag); got != v {
				t.Errorf("game %d: [%s %q], want %q", rec.Game, tag, got, v)
			}
		}
	}
}
