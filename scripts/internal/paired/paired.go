// Package paired is what the scripts that time two builds of the engine
// against each other share (benchpair, startpair, ttd): how they parse their
// flags, how they start an engine with pipes, and how they sum up paired
// runs, the median and the new/previous ratios.
package paired

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"

	"github.com/spf13/pflag"
)

// ParseFlags parses a script's flags into fs (made with ContinueOnError,
// its output stderr). It returns the exit code and false when the script
// should not run: 0 after --help (pflag has printed the usage), 2 on a bad
// flag, said on stderr as "NAME: error".
func ParseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0, false
		}
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return 2, false
	}
	return 0, true
}

// Start starts cmd with a pipe to its standard input and one from its
// standard output.
func Start(cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

// Median returns the median of v, the mean of the middle two for an even
// count; v is left as it is.
func Median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Ratios sums up paired runs, cur[i] against prev[i]: "new/previous M
// [LO..HI]", the median of the ratios cur[i]/prev[i] and their range.
func Ratios(prev, cur []float64) string {
	r := make([]float64, len(prev))
	for i := range prev {
		r[i] = cur[i] / prev[i]
	}
	return fmt.Sprintf("new/previous %.3f [%.3f..%.3f]", Median(r), slices.Min(r), slices.Max(r))
}

// GeoMean sums up paired runs given as the logarithms of their ratios: the
// geometric mean of the ratios and two standard errors either side of it
// (the mean's interval taken in logarithms). It needs two ratios or more.
func GeoMean(logs []float64) (mean, lo, hi float64) {
	k := float64(len(logs))
	var sum, sq float64
	for _, x := range logs {
		sum += x
	}
	m := sum / k
	for _, x := range logs {
		sq += (x - m) * (x - m)
	}
	se := math.Sqrt(sq / (k - 1) / k)
	return math.Exp(m), math.Exp(m - 2*se), math.Exp(m + 2*se)
}
