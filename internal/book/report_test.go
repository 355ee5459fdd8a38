package book

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A book's coverage: per ply its positions, depths, actions and proofs.
func TestWriteStats(t *testing.T) {
	b, err := Read(strings.NewReader(smallText), false)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteStats(&out, "small.book", b); err != nil {
		t.Fatal(err)
	}
	want := "small.book: custom, 3 positions\n" +
		"  ply positions   depth     min     max  actions  proven\n" +
		"    0         1    14.0      14      14      2.0       1\n" +
		"    1         1     3.0       3       3      2.0       0\n" +
		"    5         1    12.0      12      12      1.0       1\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// book prove's progress line gives the rate of this run and the time left.
func TestProveProgress(t *testing.T) {
	for _, tc := range []struct {
		proven, total, now int
		elapsed            time.Duration
		want               string
	}{
		{0, 4980, 0, time.Minute, ""},
		{1212, 4980, 101, 394 * time.Second, "1212/4980 proven, 3.9 s a position this run, about 4h05m left; "},
		{4980, 4980, 3, 3 * time.Second, "4980/4980 proven, 1.0 s a position this run, about 0h00m left; "},
	} {
		if got := proveProgress(tc.proven, tc.total, tc.now, tc.elapsed); got != tc.want {
			t.Errorf("proveProgress(%d, %d, %d, %s) = %q, want %q", tc.proven, tc.total, tc.now, tc.elapsed, got, tc.want)
		}
	}
}
