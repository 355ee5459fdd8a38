package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/testkit"
)

// probe3v3 is the exact output of 'egtb probe' for White to move with a7 d7
// a1 against c5 e3 f2: two flies close a mill at once (win 1), the rest are
// ordered from the shortest win to the longest loss, ties by token.
const probe3v3 = `value: win 1
a1-g7: win 1
d7-a4: win 1
a1-a4: win 2
a1-d5: win 2
a1-d6: win 2
d7-d1: win 2
d7-g1: win 2
d7-g7: win 2
a1-b4: win 3
a1-b6: win 3
a1-c4: win 3
a1-d1: win 3
a1-f6: win 3
a1-g1: win 3
a7-d1: win 3
a7-d5: win 3
a7-g1: win 3
a7-g7: win 3
d7-d2: win 3
d7-d3: win 3
d7-d5: win 3
d7-d6: win 3
d7-g4: win 3
a1-b2: win 4
a1-d2: win 4
a1-d3: win 4
d7-b2: win 4
d7-b4: win 4
d7-b6: win 4
d7-c3: win 4
d7-c4: win 4
d7-e4: win 4
d7-e5: win 4
d7-f4: win 4
d7-f6: win 4
a7-a4: win 6
a1-f4: win 7
a1-g4: win 7
a1-c3: win 10
a1-e4: win 10
a1-e5: win 10
a7-d6: loss 7
a7-b2: loss 2
a7-b4: loss 2
a7-b6: loss 2
a7-c3: loss 2
a7-c4: loss 2
a7-d2: loss 2
a7-d3: loss 2
a7-e4: loss 2
a7-e5: loss 2
a7-f4: loss 2
a7-f6: loss 2
a7-g4: loss 2
`

const fen3v3 = "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"

func TestEGTBCommands(t *testing.T) {
	testkit.NotUnderRace(t, "builds and verifies 3v3, minutes under the race detector (the solver's concurrency is raced in internal/egtb)")
	dir := t.TempDir()
	step := "1"
	peak := `(, peak \d+ MB)?; init \d+\.\d s, \d+ plies \d+\.\d s: [0-9.]+ M cells scanned, [0-9.]+ M resolved, [0-9.]+ M updates` // the peak where the kernel tells it
	journal := filepath.Join(t.TempDir(), "verify.journal")
	path3v3 := filepath.Join(dir, "plain-fly3-min3-3v3.egtb")
	steps := []struct {
		name   string
		args   []string
		code   int
		stdout string // regexp the whole stdout must match
		stderr string // substring of stderr
	}{
		{"build", []string{"egtb", "build", "--dir", dir, "--max-pieces", "6"}, 0,
			`^3v3: positions 2691920, wins 2232160, draws 4112, losses 455648, longest win 13, \d+\.\d s` + peak + `\n` +
				`3v3 dtz: longest win 13, longest loss 13 turns to a removal, \d+\.\d s` + peak + `\n` +
				`plain-fly3-min3: sectors 1, 0\.4 MB in ` + regexp.QuoteMeta(dir) + `, \d+\.\d s \(largest move counter \d+ of 255\)\n$`, ""},
		{"build again", []string{"egtb", "build", "--dir", dir, "--max-pieces", "6"}, 0,
			`^3v3: positions 2691920, wins 2232160, draws 4112, losses 455648, longest win 13, already built\n3v3 dtz: longest win 13, longest loss 13 turns to a removal, already built\n`, ""},
		{"probe", []string{"egtb", "probe", "--dir", dir, "--fen", fen3v3}, 0, "^" + regexp.QuoteMeta(probe3v3) + "$", ""},
		{"probe pending removal", []string{"egtb", "probe", "--dir", dir, "--fen", "***@@@**/*****@**/OO*****O w m r 3 0 4 0 1 0 0 0 0 0 0 0 1"}, 0,
			"^value: loss 2\nxb2: loss 2\n$", ""},
		{"probe other rules", []string{"--variant", "twelve-mens-morris", "egtb", "probe", "--dir", dir, "--fen", fen3v3}, 0,
			`^value: unknown sector 3v3 is not built \(diag-fly3-min3-3v3-dtz\.egtb in .*\)\n` +
				`a1-g7: win 1\nd7-a4: win 1\n(\S+: unknown\n){52}$`, ""}, // a mill that leaves two pieces needs no table
		{"probe placing", []string{"egtb", "probe", "--dir", dir, "--fen", "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"}, 0,
			`^value: unknown placing sector 0_0_9_9 is not built \(plain-fly3-min3-0_0_9_9\.egtb in .*\)\n(\w\d: unknown\n){24}$`, ""},
		{"probe placing, Lasker", []string{"--variant", "lasker-morris", "egtb", "probe", "--dir", dir, "--fen", "********/********/******** w p p 0 10 0 10 0 0 0 0 0 0 0 0 1"}, 0,
			`^value: unknown pieces in hand: placing phase not covered by the tables: PiecesCount 10 \(at most 9\)\n(\w\d: unknown\n){24}$`, ""},
		{"stats", []string{"egtb", "stats", "--dir", dir}, 0,
			`(?s)^plain-fly3-min3 \(HasDiagonalLines=false MayFly=true flyPieceCount=3 PiecesAtLeastCount=3 .*\n` +
				` +sector +positions +stored +slots +used +wins +draws +losses +longest win +bytes\n` +
				` +3v3 +2691920 +169626 +210140 +0\.807 +2232160 +4112 +455648 +13 +210268\n +3v3 dtz +13 +210268\n +total .* 420536\n$`, ""},
		{"verify", []string{"egtb", "verify", "--dir", dir, "--step", step}, 0, `^plain-fly3-min3 3v3: OK, \d+ entries, \d+\.\d s\nplain-fly3-min3 3v3 dtz: OK, \d+ entries, \d+\.\d s\n$`, ""},
		{"verify a sector", []string{"egtb", "verify", "--dir", dir, "--step", step, "--sector", "3v3"}, 0, `^plain-fly3-min3 3v3: OK, \d+ entries, \d+\.\d s\nplain-fly3-min3 3v3 dtz: OK, \d+ entries, \d+\.\d s\n$`, ""},
		{"verify no such sector", []string{"egtb", "verify", "--dir", dir, "--sector", "4v4"}, 1, `^$`, "millengine egtb verify: no tables in"},
		{"verify journal", []string{"egtb", "verify", "--dir", dir, "--journal", journal}, 0, `^plain-fly3-min3 3v3: OK, \d+ entries, \d+\.\d s\nplain-fly3-min3 3v3 dtz: OK, \d+ entries, \d+\.\d s\n$`, ""},
		{"verify journal again", []string{"egtb", "verify", "--dir", dir, "--journal", journal}, 0,
			`^plain-fly3-min3 3v3: OK before \(` + regexp.QuoteMeta(journal) + `\), the same data\nplain-fly3-min3 3v3 dtz: OK before \(` + regexp.QuoteMeta(journal) + `\), the same data\n$`, ""},
		{"verify known", []string{"egtb", "verify", "--dir", dir, "--known"}, 0,
			`^plain-fly3-min3 3v3: OK before \(` + regexp.QuoteMeta(egtb.RecordName) + `\), the same data\nplain-fly3-min3 3v3 dtz: OK before \(` + regexp.QuoteMeta(egtb.RecordName) + `\), the same data\n$`, ""},
		{"verify known sample", []string{"egtb", "verify", "--dir", dir, "--known", "--step", "41"}, 2, `^$`, "--known skips full checks only, not --step samples"},
		{"verify journal sample", []string{"egtb", "verify", "--dir", dir, "--journal", journal, "--step", "41"}, 2, `^$`, "--journal records full checks only, not --step samples"},
		{"verify journal foreign", []string{"egtb", "verify", "--dir", dir, "--journal", path3v3}, 2, `^$`, "not a journal of egtb verify (its first line is not"},
		{"plan", []string{"egtb", "plan", "--dir", dir, "--max-pieces", "7"}, 0,
			`^plain-fly3-min3 up to 7 pieces: 2 jobs, 3 sectors, 2 levels, 2018750 slots; the largest job takes about 8 MB\n` +
				`level  job  sectors  tables   slots    memory MB  needs  in ` + regexp.QuoteMeta(dir) + `\n` +
				`0      3v3  3v3      dtm,dtz  210140   1          -      built\n` +
				`1      3v4  3v4,4v3  dtm,dtz  1808610  8          3v3    missing\n` +
				`1 of 2 jobs built in ` + regexp.QuoteMeta(dir) + `\n$`, ""},
		{"plan make", []string{"egtb", "plan", "--dir", dir, "--max-pieces", "7", "--format", "make", "--binary", "/opt/me/millengine", "--threads", "3"}, 0,
			`(?s)^# Endgame tables plain-fly3-min3 up to 7 pieces \(variant nine-mens-morris\): 2 jobs, 3 sectors, 2 levels;\n.*` +
				`\nMILLENGINE \?= /opt/me/millengine\nDIR \?= ` + regexp.QuoteMeta(dir) + `\nTHREADS \?= 3\n.*` +
				`\n\$\(DIR\)/plain-fly3-min3-3v3\.egtb \$\(DIR\)/plain-fly3-min3-3v3-dtz\.egtb &:\n` +
				`\t\$\(MILLENGINE\) egtb build --sector 3v3 --dir \$\(DIR\) --max-pieces 7 --threads \$\(THREADS\) --variant nine-mens-morris\n.*` +
				`\n\$\(DIR\)/plain-fly3-min3-3v4\.egtb \$\(DIR\)/plain-fly3-min3-4v3\.egtb \$\(DIR\)/plain-fly3-min3-3v4-dtz\.egtb \$\(DIR\)/plain-fly3-min3-4v3-dtz\.egtb &: \| \$\(DIR\)/plain-fly3-min3-3v3\.egtb\n` +
				`\t\$\(MILLENGINE\) egtb build --sector 3v4 --dir \$\(DIR\) --max-pieces 7 --threads \$\(THREADS\) --variant nine-mens-morris\n.*\.PRECIOUS: \$\(TABLES\)\n$`, ""},
		{"plan slurm", []string{"egtb", "plan", "--dir", dir, "--max-pieces", "7", "--format", "slurm", "--variant", "nine-mens-morris"}, 0,
			`(?s)^#!/usr/bin/env bash\n# Endgame tables plain-fly3-min3 up to 7 pieces \(variant nine-mens-morris\): 2 jobs, 3 sectors, 2 levels;\n.*` +
				`\nMILLENGINE=\$\{MILLENGINE:-/[^ }]+\}\nDIR=\$\{DIR:-` + regexp.QuoteMeta(dir) + `\}\nTHREADS=\$\{THREADS:-[1-9]\d*\}\n.*\nMAX_PIECES=7\nVARIANT=nine-mens-morris\n.*` +
				`\njob 3v3 514M 0:10:00 '' 'plain-fly3-min3-3v3\.egtb plain-fly3-min3-3v3-dtz\.egtb'\n.*` +
				`\njob 3v4 524M 0:10:00 '3v3' 'plain-fly3-min3-3v4\.egtb plain-fly3-min3-4v3\.egtb plain-fly3-min3-3v4-dtz\.egtb plain-fly3-min3-4v3-dtz\.egtb'\n.*\n$`, ""},
		{"plan slurm preset name", []string{"egtb", "plan", "--dir", dir, "--max-pieces", "6", "--format", "slurm", "--variant", "Nine Men's Morris"}, 0,
			`(?s)\nVARIANT=nine-mens-morris\n`, ""},
		{"plan bad format", []string{"egtb", "plan", "--dir", dir, "--format", "html"}, 2, `^$`, `millengine egtb plan: --format "html": want text, make or slurm`},
		{"plan text threads", []string{"egtb", "plan", "--dir", dir, "--threads", "2"}, 2, `^$`, "millengine egtb plan: --binary and --threads are for --format make or slurm"},
		{"plan make bad dir", []string{"egtb", "plan", "--dir", "/my tables", "--format", "make"}, 2, `^$`, `egtb plan: egtb: the table directory "/my tables" has characters make or Slurm cannot take`},
		{"plan slurm bad threads", []string{"egtb", "plan", "--dir", dir, "--format", "slurm", "--threads", "-1"}, 2, `^$`, "egtb plan: egtb: -1 threads a job: want 1..1024"},
		{"help", []string{"egtb", "build", "--help"}, 0, `^Usage: millengine egtb build `, ""},
		{"help egtb probe", []string{"help", "egtb"}, 0, `^Usage: millengine egtb <command>`, ""},
		{"egtb help probe", []string{"egtb", "help", "probe"}, 0, `^Usage: millengine egtb probe `, ""},
		{"usage", []string{"egtb"}, 2, `^$`, "millengine egtb: want a command: plan, build, verify, stats, probe, games, compare, pack or unpack (see millengine egtb --help)"},
		{"unknown", []string{"egtb", "frob"}, 2, `^$`, `millengine egtb: unknown command "frob" (want plan, build, verify, stats, probe, games, compare, pack or unpack) (see millengine egtb --help)`},
		{"bad flag", []string{"egtb", "stats", "--frob"}, 2, `^$`, `millengine egtb stats: unknown flag: --frob (see millengine egtb stats --help)`},
		{"no fen", []string{"egtb", "probe", "--dir", dir}, 2, `^$`, "--fen is required"},
		{"bad fen", []string{"egtb", "probe", "--dir", dir, "--fen", "x"}, 2, `^$`, "fen field 2"},
		{"max pieces", []string{"egtb", "build", "--dir", dir, "--max-pieces", "19"}, 2, `^$`, "--max-pieces 19 is out of range 6..18"},
		{"bad sector", []string{"egtb", "build", "--dir", dir, "--sector", "9v10"}, 2, `^$`, `--sector: sector "9v10": want MvO`},
		{"sector needs", []string{"egtb", "build", "--dir", dir, "--sector", "4v5"}, 1, `^$`, "millengine egtb build: egtb: sector 4v5 needs plain-fly3-min3-4v4.egtb, plain-fly3-min3-3v5.egtb in"},
		{"not covered", []string{"egtb", "build", "--dir", dir, "--variant", "russian-mill"}, 2, `^$`, "--variant russian-mill: rules not covered by the endgame tables: OneTimeUseMill"},
		{"no tables", []string{"egtb", "verify", "--dir", filepath.Join(dir, "none")}, 1, `^$`, "no tables in"},
	}
	for _, tc := range steps {
		code, stdout, stderr := runCmd(t, "", tc.args...)
		if code != tc.code {
			t.Fatalf("%s: exit %d, want %d; stderr %q", tc.name, code, tc.code, stderr)
		}
		if !regexp.MustCompile(tc.stdout).MatchString(stdout) {
			t.Fatalf("%s: stdout\n%s\ndoes not match %q", tc.name, stdout, tc.stdout)
		}
		if !strings.Contains(stderr, tc.stderr) {
			t.Fatalf("%s: stderr %q does not contain %q", tc.name, stderr, tc.stderr)
		}
	}
	// A damaged file is refused by the commands that read whole tables,
	// naming the file; probe answers from the sector's other table (its
	// DTZ table) and says which file it left out.
	path := filepath.Join(dir, "plain-fly3-min3-3v3.egtb")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-7] ^= 1
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"egtb", "verify", "--dir", dir},
		{"egtb", "stats", "--dir", dir},
	} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, path+": data checksum mismatch") {
			t.Errorf("%v on a damaged file: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	code, stdout, stderr := runCmd(t, "", "egtb", "probe", "--dir", dir, "--fen", fen3v3)
	if code != 0 || !strings.HasPrefix(stdout, "value: win 1\n") || !strings.Contains(stdout, "\na1-a4: win 2 (dtz)\n") ||
		!strings.Contains(stderr, path+": data checksum mismatch") || !strings.HasSuffix(stderr, "; this sector is not used\n") {
		t.Errorf("probe on a damaged DTM table: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The build solves it again.
	code, stdout, stderr = runCmd(t, "", "egtb", "build", "--dir", dir, "--max-pieces", "6")
	if code != 0 || !strings.Contains(stderr, "data checksum mismatch") || !strings.Contains(stderr, "; solving it again") || strings.HasPrefix(stdout, "3v3: positions 2691920, wins 2232160, draws 4112, losses 455648, longest win 13, already built") {
		t.Errorf("build over a damaged file: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// Beyond 10 pieces a sector has only its DTZ table; egtb stats then gives
// the sector's counts from that table's header (the build's, which verify
// checks against the data) and no longest win of its own, instead of a row
// of zeros.
func TestEGTBStatsDTZOnly(t *testing.T) {
	src := egtbtest.Small(t, 7)
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(src, "plain-fly3-min3-3v3-dtz.egtb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain-fly3-min3-3v3-dtz.egtb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "egtb", "stats", "--dir", dir)
	want := `(?s)^plain-fly3-min3 \(.*\)\n +sector +positions .*\n` +
		` +3v3 +2691920 +169626 +210140 +0\.807 +2232160 +4112 +455648 +- +0\n +3v3 dtz +13 +210268\n` +
		` +total +2691920 +169626 +210140 +0\.807 +2232160 +4112 +455648 +- +210268\n$`
	if code != 0 || !regexp.MustCompile(want).MatchString(stdout) {
		t.Fatalf("exit %d, stdout\n%s\ndoes not match %q (stderr %s)", code, stdout, want, stderr)
	}
}
