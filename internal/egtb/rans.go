package egtb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The ranked codec (codec 3 of the packed format): each segment of a block
// is coded by a range asymmetric numeral system (rANS: a 32-bit state,
// renormalised 16 bits at a time) under an order-1 model of the table's
// bytes, one model for the whole table: the probability of a byte depends
// on the byte before it (a segment's first byte follows a 0). Measured on
// the tables before it was written (an order-1 entropy count over whole
// files, 2026-11-28): 30.0 % of 5_5_1_0, 22.6 % of a 6v7 DTZ table, 5.2 %
// of 4_6_1_0, where zstd reaches 32.6 %, 22.4 % and 6.4 % in 4 KB blocks.
// A coder whose model is the table's carries no tables in its blocks, so a
// segment of 256 bytes decodes in a microsecond or two where a zstd frame
// of 4 KB takes 10–20 µs, most of it spent building the frame's own
// tables: a probe that misses the block cache pays that decode.
//
// The model: the rModels−1 most frequent predecessor bytes have a table of
// frequencies of their own, the rest share one; each table sums to
// 1<<ransScale, every byte that occurs after its predecessors at least 1.
// The model is built from the whole table's counts (pack's first pass), so
// every byte the coder meets has a frequency.

const (
	ransL     = 1 << 16 // the state's lower bound: the state is in [ransL, ransL<<16)
	rModels   = 8       // at most so many frequency tables (3 bits of a slot's entry)
	ransScale = 10      // the frequencies sum to at most 1<<ransScale (10 bits)
	// packScale is the scale egtb pack gives its models: 9 bits keep the
	// decoder's table at 16 KB (8 tables of 512 slots), which stays in a
	// core's caches between probes better than 10 bits' 32 KB, for files
	// a few per cent larger (measured in docs/tables.md, "Scale 9 and two
	// prefetches"). The decoder takes any scale up to ransScale.
	packScale = 9
)

// ransModel is a table's order-1 model, as it is stored and as the coder
// uses it.
type ransModel struct {
	scale uint8
	ctxOf [256]uint8    // the table that codes the byte after byte b
	freq  [][256]uint16 // per table, each byte's frequency (0: never follows)
	start [][256]uint16 // per table, the sum of the frequencies of the bytes before
	// dec is the decoder's table, slot j of table k at k<<scale + j: the
	// frequency of the byte it stands for (bits 0–10), j minus the byte's
	// start (11–20), the table of the byte after it (21–23) and the byte
	// (24–31), so that a step of the decoder is one load from a table of
	// 32 KB at most, which stays in the core's caches.
	dec []uint32
}

// ransCounts counts the bytes of a table's data by the byte before them,
// as the coder sees them (a segment's first byte follows a 0).
type ransCounts [256][256]uint64

// add counts a segment.
func (c *ransCounts) add(seg []byte) {
	prev := byte(0)
	for _, b := range seg {
		c[prev][b]++
		prev = b
	}
}

// newRansModel builds the model of the counts: the tables−1 most frequent
// predecessors their own table, the rest one table shared.
func newRansModel(c *ransCounts, scale uint8, tables int) *ransModel {
	type row struct {
		b   int
		sum uint64
	}
	var rows []row
	for b := range c {
		var s uint64
		for _, n := range c[b] {
			s += n
		}
		if s > 0 {
			rows = append(rows, row{b, s})
		}
	}
	slices.SortFunc(rows, func(x, y row) int {
		if x.sum != y.sum {
			if x.sum > y.sum {
				return -1
			}
			return 1
		}
		return x.b - y.b
	})
	m := &ransModel{scale: scale}
	own := len(rows)
	if own > tables {
		own = tables - 1
	}
	var counts [][256]uint64
	for i, r := range rows {
		k := min(i, own)
		if k == len(counts) {
			counts = append(counts, [256]uint64{})
		}
		m.ctxOf[r.b] = uint8(k)
		for s, n := range c[r.b] {
			counts[k][s] += n
		}
	}
	if len(counts) == 0 { // no data: one table, all zeros
		counts = append(counts, [256]uint64{})
		counts[0][0] = 1
	}
	for k := range counts {
		var f [256]uint16
		normalise(&counts[k], &f, scale)
		m.freq = append(m.freq, f)
	}
	m.finish()
	return m
}

// normalise scales counts to frequencies summing to 1<<scale, every count
// above 0 at least 1.
func normalise(c *[256]uint64, f *[256]uint16, scale uint8) {
	var total uint64
	for _, n := range c {
		total += n
	}
	M := uint64(1) << scale
	sum := uint64(0)
	big := -1
	for s, n := range c {
		if n == 0 {
			f[s] = 0
			continue
		}
		v := max(1, n*M/total)
		f[s] = uint16(v)
		sum += v
		if big < 0 || f[s] > f[big] {
			big = s
		}
	}
	// Give or take the difference from the largest frequencies, keeping each
	// at least 1 (there are at most 256 symbols, so at most 255 too many).
	for sum > M {
		best := -1
		for s := range f {
			if f[s] > 1 && (best < 0 || f[s] > f[best]) {
				best = s
			}
		}
		f[best]--
		sum--
	}
	f[big] += uint16(M - sum)
}

// finish derives the coder's tables from the frequencies.
func (m *ransModel) finish() {
	M := 1 << m.scale
	m.start = make([][256]uint16, len(m.freq))
	m.dec = make([]uint32, len(m.freq)*M)
	for k := range m.freq {
		at := 0
		for s := range 256 {
			f := int(m.freq[k][s])
			m.start[k][s] = uint16(at)
			for j := range f {
				m.dec[k*M+at+j] = uint32(f) | uint32(j)<<11 | uint32(m.ctxOf[s])<<21 | uint32(s)<<24
			}
			at += f
		}
	}
}

// encode appends the segment's code to dst: the final state (4 bytes, big
// endian), then the 16-bit words the coder put out (big endian), in the
// order the decoder reads them. Every byte of src must have a frequency in
// its table (the model was built from counts that include it).
func (m *ransModel) encode(dst, src []byte) []byte {
	at := len(dst)
	x := uint32(ransL)
	for i := len(src) - 1; i >= 0; i-- {
		prev := byte(0)
		if i > 0 {
			prev = src[i-1]
		}
		k := m.ctxOf[prev]
		f, st := uint32(m.freq[k][src[i]]), uint32(m.start[k][src[i]])
		if uint64(x) >= uint64((ransL>>m.scale)<<16)*uint64(f) {
			dst = append(dst, byte(x), byte(x>>8)) // reversed below
			x >>= 16
		}
		x = (x/f)<<m.scale + x%f + st
	}
	dst = append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	slices.Reverse(dst[at:])
	return dst
}

var errRans = errors.New("the ranked code does not decode")

// ransCursor is where the decoder of a segment stands: its state, the next
// byte of the code it reads and the table of the next byte, so that a
// segment decoded part of the way is decoded further without starting over.
type ransCursor struct {
	x, p, base uint32
}

// decodeMore decodes src, a segment's code, further: dst holds its first
// len(dst) bytes, decoded before with c (the start, if dst is empty), and
// gets the bytes up to n; c is left after them. seg is the segment's
// length when decoded. A code that runs out is refused, and so, when the
// segment is decoded whole, is one that ends with bytes left or in a state
// other than the encoder's start.
func (m *ransModel) decodeMore(c *ransCursor, dst, src []byte, n, seg int) ([]byte, error) {
	if len(src) < 4 || len(src)%2 != 0 {
		return dst[:0], errRans
	}
	from := len(dst)
	x, p, base := c.x, int(c.p), c.base
	shift := m.scale
	if from == 0 {
		if x = binary.BigEndian.Uint32(src); x < ransL {
			return dst[:0], errRans
		}
		p, base = 4, uint32(m.ctxOf[0])<<shift
	}
	mask := uint32(1)<<shift - 1
	dec := m.dec
	dst = dst[:n]
	for i := from; i < n; i++ {
		e := dec[base+x&mask]
		dst[i] = byte(e >> 24)
		x = (e&0x7FF)*(x>>shift) + (e >> 11 & 0x3FF)
		base = (e >> 21 & 7) << shift
		if x < ransL {
			if p+2 > len(src) {
				return dst[:0], errRans
			}
			x = x<<16 | uint32(src[p])<<8 | uint32(src[p+1])
			p += 2
		}
	}
	if n == seg && (x != ransL || p != len(src)) {
		return dst[:0], errRans
	}
	*c = ransCursor{x, uint32(p), base}
	return dst, nil
}

// marshal is the model as it is stored: the scale, the number of tables,
// each byte's table and each table's frequencies (the number of bytes
// with one, then byte and frequency, little endian).
func (m *ransModel) marshal() []byte {
	b := []byte{m.scale, byte(len(m.freq))}
	b = append(b, m.ctxOf[:]...)
	for k := range m.freq {
		n := 0
		for _, f := range m.freq[k] {
			if f > 0 {
				n++
			}
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(n))
		for s, f := range m.freq[k] {
			if f > 0 {
				b = append(b, byte(s))
				b = binary.LittleEndian.AppendUint16(b, f)
			}
		}
	}
	return b
}

// parseRansModel reads a stored model, checking it: a scale the coder
// takes, every table's frequencies summing to 1<<scale, every byte's table
// one that exists.
func parseRansModel(b []byte) (*ransModel, error) {
	if len(b) < 2+256 {
		return nil, fmt.Errorf("model: %d bytes, too short", len(b))
	}
	m := &ransModel{scale: b[0]}
	if m.scale < 4 || m.scale > ransScale {
		return nil, fmt.Errorf("model: scale %d (4 to %d)", m.scale, ransScale)
	}
	k := int(b[1])
	if k == 0 || k > rModels {
		return nil, fmt.Errorf("model: %d tables (1 to %d)", k, rModels)
	}
	copy(m.ctxOf[:], b[2:])
	for _, c := range m.ctxOf {
		if int(c) >= k {
			return nil, fmt.Errorf("model: table %d of %d", c, k)
		}
	}
	b = b[2+256:]
	M := 1 << m.scale
	for range k {
		if len(b) < 2 {
			return nil, errors.New("model: truncated")
		}
		n := int(binary.LittleEndian.Uint16(b))
		b = b[2:]
		if n == 0 || n > 256 || len(b) < 3*n {
			return nil, fmt.Errorf("model: a table of %d bytes", n)
		}
		var f [256]uint16
		sum := 0
		for i := range n {
			s, v := b[3*i], binary.LittleEndian.Uint16(b[3*i+1:])
			if v == 0 || f[s] != 0 {
				return nil, fmt.Errorf("model: byte %d given frequency %d twice or zero", s, v)
			}
			f[s] = v
			sum += int(v)
		}
		if sum != M {
			return nil, fmt.Errorf("model: frequencies sum to %d, want %d", sum, M)
		}
		m.freq = append(m.freq, f)
		b = b[3*n:]
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("model: %d bytes left over", len(b))
	}
	m.finish()
	return m, nil
}
