package paired

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// Ratios gives the median and range of cur[i]/prev[i], pair by pair.
func TestRatios(t *testing.T) {
	got := Ratios([]float64{100, 200, 400}, []float64{90, 220, 300})
	if want := "new/previous 0.900 [0.750..1.100]"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

// Median takes the middle value, or the mean of the middle two, and leaves
// its argument as it was.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 2, 3}, 2.5},
		{[]float64{7}, 7},
	} {
		in := slices.Clone(c.v)
		if m := Median(c.v); m != c.want || !slices.Equal(c.v, in) {
			t.Errorf("median of %v = %v (argument now %v), want %v", in, m, c.v, c.want)
		}
	}
}

// GeoMean: ratios 0.5, 0.5, 1, 1 have the geometric mean 0.707 and, two
// standard errors of the logarithms either side, 0.474 and 1.055.
func TestGeoMean(t *testing.T) {
	half := math.Log(0.5)
	mean, lo, hi := GeoMean([]float64{half, half, 0, 0})
	if got := fmt.Sprintf("%.3f %.3f %.3f", mean, lo, hi); got != "0.707 0.474 1.055" {
		t.Fatalf("GeoMean = %s, want 0.707 0.474 1.055", got)
	}
}

// ParseFlags runs the script on good flags, ends it with 0 after --help and
// with 2 and "NAME: error" after a bad flag.
func TestParseFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		ok     bool
		stderr string
	}{
		{[]string{"--pairs", "3"}, 0, true, ""},
		{[]string{"--help"}, 0, false, "Usage of name:\n      --pairs int   runs (default 5)\n"},
		{[]string{"--nope"}, 2, false, "name: unknown flag: --nope\n"},
	} {
		var stderr bytes.Buffer
		fs := pflag.NewFlagSet("name", pflag.ContinueOnError)
		fs.SetOutput(&stderr)
		pairs := fs.Int("pairs", 5, "runs")
		code, ok := ParseFlags(fs, c.args, &stderr)
		if code != c.code || ok != c.ok || stderr.String() != c.stderr {
			t.Errorf("%q: %d %v, stderr %q; want %d %v, %q", c.args, code, ok, stderr.String(), c.code, c.ok, c.stderr)
		}
		if c.ok && *pairs != 3 {
			t.Errorf("%q: --pairs %d", c.args, *pairs)
		}
	}
}

// Start gives the pipes of a running process: what is written to its input
// comes back from its output (cat).
func TestStart(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat on this machine")
	}
	cmd := exec.Command(cat)
	in, out, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(in, "uci")
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "uci\n" {
		t.Fatalf("%q %v", line, err)
	}
	in.Close()
	if _, err := io.ReadAll(out); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Start(exec.Command("/nonexistent/engine")); err == nil {
		t.Fatal("a missing program started")
	}
}
