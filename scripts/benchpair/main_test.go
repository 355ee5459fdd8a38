package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--pairs", "0"}, {"--pairs", "101"}, {"--nope"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || out.Len() != 0 || !strings.HasPrefix(errb.String(), "") || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and an error", args, code, out.String(), errb.String())
		}
	}
}
