package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/testkit"
)

// egtb pack writes the packed files, which probe, stats and verify read as
// the plain ones; egtb unpack gives the plain files back byte for byte.
func TestEGTBPackUnpack(t *testing.T) {
	// Small's directory may hold more sectors (other tests build 7 pieces
	// there): the 3v3 files alone.
	src := t.TempDir()
	for _, name := range []string{"plain-fly3-min3-3v3.egtb", "plain-fly3-min3-3v3-dtz.egtb"} {
		b, err := os.ReadFile(filepath.Join(egtbtest.Small(t, 6), name))
		if err == nil {
			err = os.WriteFile(filepath.Join(src, name), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	packed := filepath.Join(t.TempDir(), "packed")
	back := t.TempDir()
	step := "1"
	if testkit.Race {
		step = "41"
	}
	steps := []struct {
		name   string
		args   []string
		code   int
		stdout string // regexp the whole stdout must match
		stderr string // substring of stderr
	}{
		{"pack", []string{"egtb", "pack", "--dir", src, "--out", packed, "--threads", "2"}, 0,
			`^` + regexp.QuoteMeta(packed) + `/plain-fly3-min3-3v3-dtz\.egtbz: 210268 → \d+ bytes \(\d+\.\d%\), \d+\.\d s\n` +
				regexp.QuoteMeta(packed) + `/plain-fly3-min3-3v3\.egtbz: 210268 → \d+ bytes \(\d+\.\d%\), \d+\.\d s\n` +
				`packed 420536 → \d+ bytes \(\d+\.\d%\) in ` + regexp.QuoteMeta(packed) + `\n$`, ""},
		{"pack again", []string{"egtb", "pack", "--dir", src, "--out", packed}, 0, `(?s)^.*-dtz\.egtbz: 210268 → \d+ bytes \(\d+\.\d%\), there already\n.*there already\n`, ""},
		{"probe", []string{"egtb", "probe", "--dir", packed, "--fen", fen3v3}, 0, "^" + regexp.QuoteMeta(probe3v3) + "$", ""},
		{"stats", []string{"egtb", "stats", "--dir", packed}, 0,
			`(?s)^plain-fly3-min3 \(.*\n +3v3 +2691920 +169626 +210140 +0\.807 +2232160 +4112 +455648 +13 +\d+\n +3v3 dtz +13 +\d+\n`, ""},
		{"verify", []string{"egtb", "verify", "--dir", packed, "--step", step}, 0, `^plain-fly3-min3 3v3: OK, \d+ entries, \d+\.\d s\nplain-fly3-min3 3v3 dtz: OK, \d+ entries, \d+\.\d s\n$`, ""},
		{"unpack", []string{"egtb", "unpack", "--dir", packed, "--out", back}, 0,
			`^` + regexp.QuoteMeta(back) + `/plain-fly3-min3-3v3-dtz\.egtb: 210268 bytes, \d+\.\d s\n.*\nunpacked 420536 bytes into ` + regexp.QuoteMeta(back) + `\n$`, ""},
		{"pack no out", []string{"egtb", "pack", "--dir", src}, 2, `^$`, "millengine egtb pack: want --out, the directory of the packed files"},
		{"unpack nothing", []string{"egtb", "unpack", "--dir", src, "--out", back}, 1, `^$`, "millengine egtb unpack: egtb unpack: no packed table files in " + src},
	}
	for _, s := range steps {
		code, stdout, stderr := runCmd(t, "", s.args...)
		if code != s.code || !regexp.MustCompile(s.stdout).MatchString(stdout) || !bytes.Contains([]byte(stderr), []byte(s.stderr)) {
			t.Fatalf("%s: exit %d (want %d)\nstdout:\n%s\nwant %q\nstderr:\n%s", s.name, code, s.code, stdout, s.stdout, stderr)
		}
	}
	for _, name := range []string{"plain-fly3-min3-3v3.egtb", "plain-fly3-min3-3v3-dtz.egtb"} {
		a, err1 := os.ReadFile(filepath.Join(src, name))
		b, err2 := os.ReadFile(filepath.Join(back, name))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: unpacked differs (%v, %v)", name, err1, err2)
		}
	}
}
