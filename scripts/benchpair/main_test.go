package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Fatalf("median of 3 1 2 = %v", m)
	}
	if m := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Fatalf("median of 4 1 2 3 = %v", m)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--pairs", "0"}, {"--pairs", "101"}, {"--nope"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || out.Len() != 0 || !strings.HasPrefix(errb.String(), "") || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and an error", args, code, out.String(), errb.String())
		}
	}
}
