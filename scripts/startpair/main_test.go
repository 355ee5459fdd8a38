package main

import (
	"bytes"
	"os"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--pairs", "0"}, {"--pairs", "1001"}, {"--nope"}, {"--uci-only", "--go", "go movetime 10"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and an error", args, code, out.String(), errb.String())
		}
	}
}

// statusKB reads this process's own resident memory (at least a
// megabyte); a field it does not find, or a process that is not, reads 0.
func TestStatusKB(t *testing.T) {
	if kb := statusKB(os.Getpid(), "VmRSS:"); kb < 1024 {
		t.Fatalf("VmRSS %v kB", kb)
	}
	if kb := statusKB(os.Getpid(), "NoSuchField:"); kb != 0 {
		t.Fatalf("a missing field: %v", kb)
	}
	if kb := statusKB(0, "VmRSS:"); kb != 0 {
		t.Fatalf("pid 0: %v", kb)
	}
}
