package malom

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// SecVals is the content of a .secval file: the value of every sector and
// the virtual values of a won and a lost game. An entry's key1 is relative
// to its sector's value (see Eval.Abs). The text format, one item a line
// (blank lines ignored, LF or CRLF):
//
//	virt_loss_val: <L>
//	virt_win_val: <−L>
//	<n>
//	<W> <B> <WF> <BF> <value>     (n lines)
//
// Non-zero sector values are unique and lie strictly between the virtual
// values, so an absolute value names a result or a sector. A SecVals is
// immutable after parsing and safe for concurrent use.
type SecVals struct {
	VirtLoss, VirtWin int16
	ids               []SectorID // in file order
	vals              map[SectorID]int16
	byVal             map[int16]SectorID // the sectors with a non-zero value
}

// Value returns the value of a sector and whether the file lists it.
func (s *SecVals) Value(id SectorID) (int16, bool) {
	v, ok := s.vals[id]
	return v, ok
}

// Sectors returns the listed sectors in file order.
func (s *SecVals) Sectors() []SectorID { return slices.Clone(s.ids) }

// Len returns the number of sectors listed.
func (s *SecVals) Len() int { return len(s.ids) }

// NewSecVals makes a SecVals from a virtual loss value and sector values
// (for writing a file), with the checks ParseSecval makes.
func NewSecVals(virtLoss int16, ids []SectorID, values []int16) (*SecVals, error) {
	if len(ids) != len(values) {
		return nil, fmt.Errorf("%d sectors but %d values", len(ids), len(values))
	}
	if virtLoss >= 0 || virtLoss == math.MinInt16 {
		return nil, fmt.Errorf("virtual loss value %d: want a negative number above %d", virtLoss, math.MinInt16)
	}
	s := &SecVals{VirtLoss: virtLoss, VirtWin: -virtLoss, vals: make(map[SectorID]int16, len(ids)), byVal: make(map[int16]SectorID, len(ids))}
	for i, id := range ids {
		if err := s.add(id, values[i]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add records one sector, checking it.
func (s *SecVals) add(id SectorID, v int16) error {
	if !id.Valid() {
		return fmt.Errorf("sector %v: counts out of range (0–%d, W+B ≤ 24)", id, MaxPieces)
	}
	if _, dup := s.vals[id]; dup {
		return fmt.Errorf("sector %v listed twice", id)
	}
	if v <= s.VirtLoss || v >= s.VirtWin {
		return fmt.Errorf("sector %v: value %d is not strictly between the virtual values %d and %d", id, v, s.VirtLoss, s.VirtWin)
	}
	if v != 0 {
		if o, dup := s.byVal[v]; dup {
			return fmt.Errorf("sector %v: value %d is also the value of sector %v", id, v, o)
		}
		s.byVal[v] = id
	}
	s.ids = append(s.ids, id)
	s.vals[id] = v
	return nil
}

// ParseSecval parses the content of a .secval file. Errors name the line.
func ParseSecval(data []byte) (*SecVals, error) {
	lines := strings.Split(string(data), "\n")
	no := 0 // number of the line last returned
	next := func() (string, bool) {
		for no < len(lines) {
			l := strings.TrimSpace(lines[no])
			no++
			if l != "" {
				return l, true
			}
		}
		return "", false
	}
	header := func(key string) (int16, error) {
		l, ok := next()
		if !ok {
			return 0, fmt.Errorf("missing the %s line", key)
		}
		rest, ok := strings.CutPrefix(l, key+":")
		if !ok {
			return 0, fmt.Errorf("line %d: want %q, got %q", no, key+": <value>", l)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 16)
		if err != nil {
			return 0, fmt.Errorf("line %d: %s %q is not a 16-bit integer", no, key, strings.TrimSpace(rest))
		}
		return int16(v), nil
	}
	loss, err := header("virt_loss_val")
	if err != nil {
		return nil, err
	}
	win, err := header("virt_win_val")
	if err != nil {
		return nil, err
	}
	if win != -loss || loss >= 0 {
		return nil, fmt.Errorf("line %d: virtual values %d and %d: want a negative loss value and its negation", no, loss, win)
	}
	l, ok := next()
	if !ok {
		return nil, fmt.Errorf("missing the sector count line")
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("line %d: sector count %q is not a non-negative integer", no, l)
	}
	if n > len(lines) {
		return nil, fmt.Errorf("line %d: sector count %d but only %d lines", no, n, len(lines))
	}
	s := &SecVals{VirtLoss: loss, VirtWin: win, vals: make(map[SectorID]int16, n), byVal: make(map[int16]SectorID, n)}
	for i := range n {
		l, ok := next()
		if !ok {
			return nil, fmt.Errorf("sector count %d but the file ends after %d sectors", n, i)
		}
		f := strings.Fields(l)
		if len(f) != 5 {
			return nil, fmt.Errorf("line %d: want 5 fields (W B WF BF value), got %d", no, len(f))
		}
		var c [4]int
		for j := range c {
			if c[j], err = strconv.Atoi(f[j]); err != nil {
				return nil, fmt.Errorf("line %d: piece count %q is not an integer", no, f[j])
			}
		}
		v, err := strconv.ParseInt(f[4], 10, 16)
		if err != nil {
			return nil, fmt.Errorf("line %d: sector value %q is not a 16-bit integer", no, f[4])
		}
		if err := s.add(SectorID{c[0], c[1], c[2], c[3]}, int16(v)); err != nil {
			return nil, fmt.Errorf("line %d: %w", no, err)
		}
	}
	if l, ok := next(); ok {
		return nil, fmt.Errorf("line %d: unexpected %q after the %d sectors", no, l, n)
	}
	return s, nil
}

// ReadSecval reads and parses a .secval file; errors name the file.
func ReadSecval(path string) (*SecVals, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSecval(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// WriteTo writes the file in Malom's text format (LF line ends), the sectors
// in the order they were given.
func (s *SecVals) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "virt_loss_val: %d\nvirt_win_val: %d\n%d\n", s.VirtLoss, s.VirtWin, len(s.ids))
	for _, id := range s.ids {
		fmt.Fprintf(&b, "%d %d %d %d  %d\n", id.W, id.B, id.WF, id.BF, s.vals[id])
	}
	return b.WriteTo(w)
}

// SectorWithValue returns the sector whose value is v (non-zero), e.g. to
// name the sector a draw's absolute value points to.
func (s *SecVals) SectorWithValue(v int) (SectorID, bool) {
	if v == 0 || v < math.MinInt16 || v > math.MaxInt16 {
		return SectorID{}, false
	}
	id, ok := s.byVal[int16(v)]
	return id, ok
}
