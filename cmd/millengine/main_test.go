package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCmd runs main's logic in-process.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stdout string // regexp the whole stdout must match
		stderr string // substring of stderr
	}{
		{[]string{"--help"}, 0, `(?s)^millengine — .*Commands:.*uci .*perft .*bench .*version .*help .*--log-level.*--version.*$`, ""},
		{[]string{"help"}, 0, `(?s)^millengine — .*uci .*perft .*bench .*version .*--log-level.*--log-file.*--hash.*--threads.*--variant.*$`, ""},
		{[]string{"--version"}, 0, `^millengine \S+\n$`, ""},
		{[]string{"version"}, 0, `^millengine \S+\n$`, ""},
		{[]string{"version", "x"}, 2, `^$`, `millengine version: unexpected argument "x" (see millengine version --help)`},
		{[]string{"frobnicate"}, 2, `^$`, `millengine: unknown command "frobnicate" (want one of annotate, bench, book, egtb, help, perft, serve, solve, uci, version; see millengine --help)`},
		{[]string{"help", "frobnicate"}, 2, `^$`, `millengine: unknown command "frobnicate"`},
		{[]string{"--hash", "0"}, 2, `^$`, "millengine: --hash 0 is out of range 1..65536 (see millengine --help)"},
		{[]string{"--threads", "1000"}, 2, `^$`, "--threads 1000 is out of range"},
		{[]string{"--variant", "chess"}, 2, `^$`, `--variant "chess": unknown variant`},
		{[]string{"--log-level", "loud"}, 2, `^$`, `--log-level "loud"`},
		{[]string{"--no-such-flag"}, 2, `^$`, "millengine: unknown flag: --no-such-flag (see millengine --help)"},
		{[]string{"uci", "extra"}, 2, `^$`, `millengine uci: unexpected argument "extra" (see millengine uci --help)`},
		{[]string{"uci", "--help"}, 0, `^Usage: millengine \[global flags\] \[uci\]\n`, ""},
		{[]string{"help", "uci"}, 0, `^Usage: millengine \[global flags\] \[uci\]\n`, ""},
		{[]string{"bench", "--depth", "0"}, 2, `^$`, "millengine bench: --depth 0 is out of range 1..127 (see millengine bench --help)"},
		{[]string{"bench", "--bogus"}, 2, `^$`, "millengine bench: unknown flag: --bogus (see millengine bench --help)"},
		{[]string{"bench", "--help"}, 0, `(?s)^Usage: millengine bench .*--depth.*--threads.*--hash`, ""},
		{[]string{"help", "bench"}, 0, `(?s)^Usage: millengine bench .*--depth.*--threads.*--hash`, ""},
		{[]string{"perft", "--help"}, 0, `(?s)^Usage: millengine perft .*--depth.*--variant.*--fen.*--moves.*--divide`, ""},
		{[]string{"help", "version"}, 0, `^Usage: millengine version\n`, ""},
		{[]string{"perft", "--depth", "99"}, 2, `^$`, "millengine perft: --depth 99 is out of range 0..64 (see millengine perft --help)"},
		{[]string{"perft", "--fen", "bad"}, 2, `^$`, "millengine perft: fen field 2 (side to move) is missing"},
		{[]string{"perft", "--variant", "chess"}, 2, `^$`, `millengine perft: --variant "chess": unknown variant (want one of nine-mens-morris, `},
		{[]string{"perft", "--moves", "a7 a7"}, 2, `^$`, "millengine perft: --moves: illegal move a7: "},
		{[]string{"book"}, 2, `^$`, "millengine book: want a command: build, prove, stats, pack or check (see millengine book --help)"},
		{[]string{"book", "frob"}, 2, `^$`, `millengine book: unknown command "frob" (want build, prove, stats, pack or check) (see millengine book --help)`},
		{[]string{"book", "help"}, 0, `^Usage: millengine book <command>`, ""},
		{[]string{"book", "help", "pack"}, 0, `^Usage: millengine book pack IN OUT
`, ""},
		{[]string{"book", "-h", "frob"}, 0, `^Usage: millengine book <command>`, ""},
		{[]string{"perft", "--depth", "2", "--divide"}, 0,
			`(?s)^(x?[a-g][1-7]: 23\n){24}\nNodes searched: 552\nTime: \d+ ms\nNodes/second: \d+\n$`, ""},
		{[]string{"perft", "--depth", "0", "--divide"}, 0, `^\nNodes searched: 1\n`, ""},
		{[]string{"perft", "--depth", "0"}, 0, `^Nodes searched: 1\n`, ""},
		{[]string{"--variant", "lasker-morris", "perft", "--depth", "3"}, 0, `^Nodes searched: 13552\n`, ""},
		{[]string{"--variant", "lasker-morris", "perft", "--variant", "nine-mens-morris", "--depth", "3"}, 0, `^Nodes searched: 12144\n`, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCmd(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if !regexp.MustCompile(tc.stdout).MatchString(stdout) {
				t.Fatalf("stdout %q does not match %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("stderr %q does not contain %q", stderr, tc.stderr)
			}
		})
	}
}

// The uci loop writes protocol lines to stdout and its log to stderr.
func TestUCILogsNeverOnStdout(t *testing.T) {
	input := "uci\nisready\nfrobnicate\nsetoption name Hash value 0\nposition startpos moves zz\ngo depth 1\nquit\n"
	code, stdout, stderr := runCmd(t, input, "--log-level", "debug", "--hash", "1", "--variant", "Morabaraba")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if !regexp.MustCompile(`^(id |option |uciok$|readyok$|info |bestmove )`).MatchString(l) {
			t.Errorf("stdout line %q is not a protocol line", l)
		}
	}
	for _, want := range []string{"option name Hash type spin default 1 ", "option name Variant type combo default morabaraba ",
		"option name PiecesCount type spin default 12 ", "info string error: unknown command 'frobnicate'", "bestmove none"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	for _, want := range []string{"unknown command 'frobnicate'", "option Hash: 0 is out of range", `line=uci`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// --log-file sends the log, as JSON lines, to the file and nothing to stderr.
func TestLogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "engine.log")
	code, stdout, stderr := runCmd(t, "frobnicate\nquit\n", "--log-file", path, "--log-level", "info", "--hash", "1")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != "info string error: unknown command 'frobnicate'\n" {
		t.Fatalf("stdout %q", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", l, err)
		}
		if rec["level"] == "warn" && rec["message"] == "unknown command 'frobnicate'" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the user error is not in the log:\n%s", data)
	}
}

func TestBenchSubcommand(t *testing.T) {
	code, stdout, stderr := runCmd(t, "", "bench", "--depth", "1", "--hash", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?s)^(Position [^\n]*\n)+\nNodes searched: \d+\nTime: \d+ ms\nNodes/second: \d+\n$`).MatchString(stdout) {
		t.Fatalf("bench output:\n%s", stdout)
	}
}

// --log-file takes the log of every command, not only of the protocol loop.
func TestLogFileEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"perft", "--depth", "1"}, {"bench", "--depth", "1"}, {"version"}, {"uci"}} {
		path := filepath.Join(t.TempDir(), "x.log")
		all := append([]string{"--log-file", path, "--log-level", "debug", "--hash", "1"}, args...)
		code, _, stderr := runCmd(t, "quit\n", all...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"message":"start"`) || !strings.Contains(string(data), `"command":"`+args[0]+`"`) {
			t.Fatalf("%v: log %q", args, data)
		}
	}
	code, _, stderr := runCmd(t, "", "--log-file", "/nonexistent/dir/x.log", "perft")
	if code != 2 || !strings.Contains(stderr, "millengine: --log-file: open /nonexistent/dir/x.log") {
		t.Fatalf("unwritable log file: exit %d, stderr %q", code, stderr)
	}
}

// book build says what went wrong once: a book of other rules is refused
// with one "book build:" in front, and the file stays as it was.
func TestBookBuildErrorOnce(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nmm.book")
	if code, _, stderr := runCmd(t, "", "book", "build", "--plies", "1", "--depth", "1", "--out", out); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "--variant", "lasker-morris", "book", "build", "--plies", "1", "--depth", "1", "--out", out)
	want := "book build: " + out + " was built for other rules (nine-mens-morris); choose another --out\n"
	if code != 1 || !strings.HasSuffix(stderr, want) || strings.Count(stderr, "book build:") != 1 {
		t.Fatalf("exit %d, stderr %q; want exit 1 and %q", code, stderr, want)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
		t.Fatalf("the refused build changed %s", out)
	}
}

// book pack writes a book's binary form, which book stats and the Book
// option read as they read its text; book prove refuses it (it writes the
// text), and pack refuses what is not a book.
func TestBookPack(t *testing.T) {
	dir := t.TempDir()
	text, bin := filepath.Join(dir, "nmm.book"), filepath.Join(dir, "nmm.book.bin")
	if code, _, stderr := runCmd(t, "", "book", "build", "--plies", "2", "--depth", "1", "--out", text); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "", "book", "pack", text, bin)
	if want := bin + ": 5 positions (nine-mens-morris) in " + text + "\n"; code != 0 || stdout != want || stderr != "" {
		t.Fatalf("pack: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
	_, textStats, _ := runCmd(t, "", "book", "stats", text)
	code, binStats, stderr := runCmd(t, "", "book", "stats", bin)
	if code != 0 || strings.Replace(binStats, bin, text, 1) != textStats {
		t.Fatalf("stats of the binary form: exit %d %s\n%s\nthe text's:\n%s", code, stderr, binStats, textStats)
	}
	code, _, stderr = runCmd(t, "", "book", "prove", "--dir", dir, bin)
	if want := "book prove: " + bin + " is a book's binary form (book pack): prove its text, then pack it again\n"; code != 1 || stderr != want {
		t.Fatalf("prove of the binary form: exit %d, stderr %q; want %q", code, stderr, want)
	}
	code, _, stderr = runCmd(t, "", "book", "pack", bin+".missing", bin)
	if want := "book pack: book: open " + bin + ".missing: no such file or directory\n"; code != 1 || stderr != want {
		t.Fatalf("pack of nothing: exit %d, stderr %q; want %q", code, stderr, want)
	}
	if code, _, _ := runCmd(t, "", "book", "pack", text); code != 2 {
		t.Fatalf("pack with one file: exit %d, want 2", code)
	}
}

// A command's --help prints its usage once (pflag calls Usage itself).
func TestHelpOnce(t *testing.T) {
	for _, args := range [][]string{{"perft", "--help"}, {"bench", "--help"}, {"egtb", "probe", "--help"}, {"help", "perft"}, {"solve", "--help"}, {"annotate", "--help"}} {
		code, stdout, _ := runCmd(t, "", args...)
		if code != 0 || strings.Count(stdout, "Usage: millengine ") != 1 {
			t.Errorf("%v: exit %d, %d usages:\n%s", args, code, strings.Count(stdout, "Usage: millengine "), stdout)
		}
	}
}
