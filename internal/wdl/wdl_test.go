package wdl

import "testing"

func TestStringParse(t *testing.T) {
	for v, want := range map[Value]string{Win: "win", Draw: "draw", Loss: "loss", 3: "Value(3)"} {
		if got := v.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int8(v), got, want)
		}
		got, ok := Parse(want)
		if wantOK := v >= Loss && v <= Win; ok != wantOK || (ok && got != v) {
			t.Errorf("Parse(%q) = %v, %v; want %v, %v", want, got, ok, v, wantOK)
		}
	}
	if -Win != Loss || -Draw != Draw || !(Win > Draw && Draw > Loss) {
		t.Error("the values are not ordered for the side to move with -v for the other side")
	}
}
