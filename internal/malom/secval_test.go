package malom

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const smallSecval = "virt_loss_val: -299\nvirt_win_val: 299\n4\n" +
	"0 1 3 2  -290\n3 3 0 0  0\n3 4 0 0  40\n4 3 0 0  -40\n"

func TestParseSecval(t *testing.T) {
	for _, text := range []string{smallSecval, strings.ReplaceAll(smallSecval, "\n", "\r\n"), "\n" + strings.ReplaceAll(smallSecval, "\n", "\n\n")} {
		s, err := ParseSecval([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if s.VirtLoss != -299 || s.VirtWin != 299 || s.Len() != 4 {
			t.Fatalf("got virt %d/%d, %d sectors", s.VirtLoss, s.VirtWin, s.Len())
		}
		want := []SectorID{{0, 1, 3, 2}, {3, 3, 0, 0}, {3, 4, 0, 0}, {4, 3, 0, 0}}
		if got := s.Sectors(); !reflect.DeepEqual(got, want) {
			t.Errorf("Sectors() = %v, want %v", got, want)
		}
		for id, v := range map[SectorID]int16{{0, 1, 3, 2}: -290, {3, 3, 0, 0}: 0, {3, 4, 0, 0}: 40, {4, 3, 0, 0}: -40} {
			if got, ok := s.Value(id); !ok || got != v {
				t.Errorf("Value(%v) = %d, %t; want %d", id, got, ok, v)
			}
		}
		if _, ok := s.Value(SectorID{9, 9, 0, 0}); ok {
			t.Error("Value of an unlisted sector")
		}
		if id, ok := s.SectorWithValue(40); !ok || id != (SectorID{3, 4, 0, 0}) {
			t.Errorf("SectorWithValue(40) = %v, %t", id, ok)
		}
		if _, ok := s.SectorWithValue(0); ok {
			t.Error("SectorWithValue(0) names a sector")
		}
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != smallSecval {
			t.Errorf("WriteTo wrote %q, want %q", b.String(), smallSecval)
		}
	}
}

func TestParseSecvalErrors(t *testing.T) {
	for _, c := range []struct{ text, err string }{
		{"", "missing the virt_loss_val line"},
		{"virt_loss: -299\n", `line 1: want "virt_loss_val: <value>", got "virt_loss: -299"`},
		{"virt_loss_val: -99999\n", `line 1: virt_loss_val "-99999" is not a 16-bit integer`},
		{"virt_loss_val: -299\n", "missing the virt_win_val line"},
		{"virt_loss_val: -299\nvirt_win_val: 300\n", "line 2: virtual values -299 and 300: want a negative loss value and its negation"},
		{"virt_loss_val: 5\nvirt_win_val: -5\n", "line 2: virtual values 5 and -5: want a negative loss value and its negation"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n", "missing the sector count line"},
		{"virt_loss_val: -299\nvirt_win_val: 299\nmany\n", `line 3: sector count "many" is not a non-negative integer`},
		{"virt_loss_val: -299\nvirt_win_val: 299\n-1\n", `line 3: sector count "-1" is not a non-negative integer`},
		{"virt_loss_val: -299\nvirt_win_val: 299\n9\n", "line 3: sector count 9 but only 4 lines"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n2\n3 3 0 0  0\n\n", "sector count 2 but the file ends after 1 sectors"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n3 3 0  0\n", "line 4: want 5 fields (W B WF BF value), got 4"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n3 x 0 0  0\n", `line 4: piece count "x" is not an integer`},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n3 3 0 0  1e3\n", `line 4: sector value "1e3" is not a 16-bit integer`},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n13 3 0 0  1\n", "line 4: sector 13_3_0_0: counts out of range (0–12, W+B ≤ 24)"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n2\n3 3 0 0  1\n3 3 0 0  2\n", "line 5: sector 3_3_0_0 listed twice"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n3 3 0 0  299\n", "line 4: sector 3_3_0_0: value 299 is not strictly between the virtual values -299 and 299"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n2\n3 3 0 0  7\n3 4 0 0  7\n", "line 5: sector 3_4_0_0: value 7 is also the value of sector 3_3_0_0"},
		{"virt_loss_val: -299\nvirt_win_val: 299\n1\n3 3 0 0  0\nmore\n", `line 5: unexpected "more" after the 1 sectors`},
	} {
		_, err := ParseSecval([]byte(c.text))
		if err == nil || err.Error() != c.err {
			t.Errorf("ParseSecval(%q) error %v, want %q", c.text, err, c.err)
		}
	}
}

func TestReadSecval(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "std.secval")
	if err := os.WriteFile(path, []byte("virt_loss_val: -299\nvirt_win_val: 299\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadSecval(path)
	if want := path + ": sector count 1 but the file ends after 0 sectors"; err == nil || err.Error() != want {
		t.Errorf("ReadSecval error %v, want %q", err, want)
	}
	if _, err := ReadSecval(filepath.Join(dir, "none.secval")); !os.IsNotExist(err) {
		t.Errorf("ReadSecval of a missing file: %v", err)
	}
}

func TestNewSecVals(t *testing.T) {
	s, err := NewSecVals(-5, []SectorID{{3, 3, 0, 0}, {3, 4, 0, 0}}, []int16{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.VirtWin != 5 || s.Len() != 2 {
		t.Errorf("NewSecVals: virt win %d, %d sectors", s.VirtWin, s.Len())
	}
	for _, c := range []struct {
		loss int16
		ids  []SectorID
		vals []int16
		err  string
	}{
		{-5, []SectorID{{3, 3, 0, 0}}, nil, "1 sectors but 0 values"},
		{0, nil, nil, "virtual loss value 0: want a negative number above -32768"},
		{-5, []SectorID{{3, 3, 0, 0}}, []int16{-5}, "sector 3_3_0_0: value -5 is not strictly between the virtual values -5 and 5"},
	} {
		if _, err := NewSecVals(c.loss, c.ids, c.vals); err == nil || err.Error() != c.err {
			t.Errorf("NewSecVals error %v, want %q", err, c.err)
		}
	}
}
