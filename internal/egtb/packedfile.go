package egtb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/millengine/millengine/internal/memory"
)

// The packed file of one table (".egtbz", beside the plain ".egtb" of the
// same name): the table's blocks of data compressed one by one, so that a
// probe decodes the one block its slot lies in (packed.go), and an index
// of where each block starts. Little endian:
//
//	offset  size        field
//	0       128         the plain file's header, byte for byte (file.go): its
//	                    rules, sector, metric, counts and the CRC-32C of the
//	                    plain data, which unpack gives back
//	128     8           magic "MILLPACK"
//	136     2           packed format version (1)
//	138     1           codec (1: each block a zstd frame, 2: an S2 block, 3:
//	                    each block ranked, below; a block stored as long as
//	                    its data is kept raw)
//	139     1           transform (1: unused slots hold the value before them)
//	140     4           block size: bytes of plain data a block holds (a power
//	                    of two, 4 KB to 1 MB; the last block holds the rest)
//	144     8           blocks
//	152     8           bytes of compressed data (the blocks' sum)
//	160     4           CRC-32C of the index
//	164     1           ranked (codec 3): log2 of the segment size, else 0
//	165     3           reserved (0)
//	168     4           ranked: the model's size in bytes, else 0
//	172     4           ranked: the model's CRC-32C, else 0
//	176     12          reserved (0)
//	188     4           CRC-32C of bytes 128–187
//	192     8·(blocks+1) the index's offsets: block i is the bytes
//	                    [offset i, offset i+1) of the compressed data
//	…       4·blocks    the index's CRC-32C of each block: of its data as
//	                    decoded (after the transform) for codecs 1 and 2,
//	                    of its bytes as stored for codec 3; checked when it
//	                    is decoded
//	…                   ranked: the model (rans.go's marshal)
//	…                   the compressed data
//
// A ranked block (codec 3) is cut into segments of the segment size (256
// bytes of plain data), each coded on its own (rans.go) so that a probe
// decodes one segment: the block holds the offsets of its segments but the
// first (2 bytes each, from the block's start, after these offsets), then
// the segments' codes. Its checksum is of its stored bytes, so that a
// probe checks what it reads without decoding the rest of the block.
//
// The transform: a slot that no position uses (index.go: a symmetric
// duplicate) holds 0xFF in a plain DTM or DTZ table and code 3 in a WDL
// table, which breaks the runs of values the compressor would find; the
// packed data holds there the value of the slot before it (draw for the
// first), and likewise the two-bit codes past a WDL table's last slot.
// Probes never read an unused slot (a position's slot is its canonical
// form's), and the sector's symmetries say which slots are unused, so
// unpack (restoreUnused) gives back the plain data byte for byte; pack
// checks that it does before it writes a block.

const (
	packedExtension = ".egtbz"
	packedMagic     = "MILLPACK"
	packedVersion   = 1
	packedHeader    = 64                        // the packed part of the header
	packedDataStart = headerSize + packedHeader // where the index starts
	codecZstd       = 1
	codecS2         = 2
	codecRanked     = 3
	transformUnused = 1
	minBlockSize    = 4 << 10
	maxBlockSize    = 1 << 20
	maxModelSize    = 2 + 256 + rModels*(2+3*256)
	maxRankedBlock  = 64 << 10 // a ranked block's segment offsets are 16 bits
)

// PackSegmentSize is the segment size of the ranked codec: the plain bytes
// a probe that misses the block cache decodes at most (as far as the byte it
// asks for). Measured (BenchmarkProbeForms on the moving phase's 11- and
// 12-piece tables, 2026-11-28): such a probe takes 2.2–2.6 µs, against
// 12–17 µs for zstd's 4 KB blocks and 0.74–0.96 µs for the plain file, and
// the tables pack to 18.3 % of their plain size (zstd's 15.7 %).
const PackSegmentSize = 256

// PackBlockSize is the block size egtb pack writes: the bytes of plain data
// a block holds. Measured (TestPackMeasure; zstd "better", the transform):
// the moving phase's tables up to 12 pieces come to 13.4% of their plain
// size in 4 KB blocks, 12.0% in 16 KB; a 6v7 DTZ table to 22.4%, 20.2% and
// 19.2% in 4, 16 and 64 KB, a 4 KB block decoding in 20 µs of CPU, 16 KB in
// 56 µs, 64 KB in 180 µs. What a probe that misses the block cache pays is
// the decode of its block, and the sizes fit their aims with 4 KB blocks (the
// page the kernel reads anyway).
const PackBlockSize = 4 << 10

// packedHdr is the decoded packed part of a packed file's header.
type packedHdr struct {
	codec     byte
	blockSize uint32
	blocks    uint64
	dataBytes uint64 // compressed data
	indexCRC  uint32
	segShift  uint8  // ranked: log2 of the segment size
	modelLen  uint32 // ranked: the model's bytes
	modelCRC  uint32
}

// indexSize is the size in bytes of the index of a file of n blocks.
func indexSize(n uint64) uint64 { return 8*(n+1) + 4*n }

func (p *packedHdr) encode() []byte {
	buf := make([]byte, packedHeader)
	copy(buf, packedMagic)
	le := binary.LittleEndian
	le.PutUint16(buf[8:], packedVersion)
	buf[10], buf[11] = p.codec, transformUnused
	le.PutUint32(buf[12:], p.blockSize)
	le.PutUint64(buf[16:], p.blocks)
	le.PutUint64(buf[24:], p.dataBytes)
	le.PutUint32(buf[32:], p.indexCRC)
	buf[36] = p.segShift
	le.PutUint32(buf[40:], p.modelLen)
	le.PutUint32(buf[44:], p.modelCRC)
	le.PutUint32(buf[60:], crc32.Checksum(buf[:60], castagnoli))
	return buf
}

// parsePackedHeader decodes and checks the packed part of a header (buf
// from offset 128) against the table's data size.
func parsePackedHeader(buf []byte, dataSize uint64) (packedHdr, error) {
	var p packedHdr
	if len(buf) < packedHeader {
		return p, fmt.Errorf("truncated: shorter than the %d-byte header of a packed file", packedDataStart)
	}
	if string(buf[:8]) != packedMagic {
		return p, fmt.Errorf("bad packed magic %q (want %q): not a packed endgame table", buf[:8], packedMagic)
	}
	le := binary.LittleEndian
	if got, want := le.Uint32(buf[60:]), crc32.Checksum(buf[:60], castagnoli); got != want {
		return p, fmt.Errorf("packed header checksum mismatch (stored %08x, computed %08x)", got, want)
	}
	if v := le.Uint16(buf[8:]); v != packedVersion {
		return p, fmt.Errorf("packed format version %d (this build reads %d)", v, packedVersion)
	}
	if buf[10] < codecZstd || buf[10] > codecRanked || buf[11] != transformUnused {
		return p, fmt.Errorf("codec %d, transform %d (this build reads codecs %d to %d, transform %d)", buf[10], buf[11], codecZstd, codecRanked, transformUnused)
	}
	p.codec = buf[10]
	p.segShift = buf[36]
	p.modelLen, p.modelCRC = le.Uint32(buf[40:]), le.Uint32(buf[44:])
	for i := 36; i < 60; i++ {
		if buf[i] != 0 && (p.codec != codecRanked || i >= 48 || (i > 36 && i < 40)) {
			return p, fmt.Errorf("reserved packed header byte %d is %d, want 0", headerSize+i, buf[i])
		}
	}
	p.blockSize = le.Uint32(buf[12:])
	p.blocks = le.Uint64(buf[16:])
	p.dataBytes = le.Uint64(buf[24:])
	p.indexCRC = le.Uint32(buf[32:])
	if p.blockSize < minBlockSize || p.blockSize > maxBlockSize || bits.OnesCount32(p.blockSize) != 1 {
		return p, fmt.Errorf("block size %d (a power of two from %d to %d)", p.blockSize, minBlockSize, maxBlockSize)
	}
	if want := (dataSize + uint64(p.blockSize) - 1) / uint64(p.blockSize); p.blocks != want {
		return p, fmt.Errorf("%d blocks, want %d for %d bytes of data in blocks of %d", p.blocks, want, dataSize, p.blockSize)
	}
	if p.dataBytes > dataSize || p.dataBytes >= 1<<32 {
		return p, fmt.Errorf("%d bytes of compressed data for %d of data", p.dataBytes, dataSize)
	}
	if p.codec == codecRanked {
		if p.blockSize > maxRankedBlock {
			return p, fmt.Errorf("ranked blocks of %d bytes (at most %d)", p.blockSize, maxRankedBlock)
		}
		if p.segShift < 8 || 1<<p.segShift > p.blockSize {
			return p, fmt.Errorf("ranked segments of 2^%d bytes (256 bytes to the block size %d)", p.segShift, p.blockSize)
		}
		if p.modelLen < 2+256 || p.modelLen > maxModelSize {
			return p, fmt.Errorf("a ranked model of %d bytes (%d to %d)", p.modelLen, 2+256, maxModelSize)
		}
	}
	return p, nil
}

// packedSize is the size of a packed file with this header.
func (p *packedHdr) fileSize() uint64 {
	return packedDataStart + indexSize(p.blocks) + uint64(p.modelLen) + p.dataBytes
}

// packedIndex is a packed file's index and compressed data, as mapped.
type packedIndex struct {
	offsets []byte // blocks+1 little-endian uint64
	crcs    []byte // blocks little-endian uint32
	model   []byte // ranked: the model as stored
	data    []byte // the compressed data
}

// splitPacked cuts a packed file (whose headers have been checked and whose
// size is hdr's) into its index and data.
func splitPacked(buf []byte, p *packedHdr) packedIndex {
	n := p.blocks
	at := uint64(packedDataStart)
	return packedIndex{
		offsets: buf[at : at+8*(n+1)],
		crcs:    buf[at+8*(n+1) : at+indexSize(n)],
		model:   buf[at+indexSize(n) : at+indexSize(n)+uint64(p.modelLen)],
		data:    buf[at+indexSize(n)+uint64(p.modelLen):],
	}
}

// load checks the index against its checksum and the data (offsets from 0
// to the data's size, none decreasing, no block longer than a block of
// plain data stored raw) and returns it as the probes read it, in memory:
// entry i holds where block i starts in the compressed data (the low 32
// bits: the data of a table is less than 4 GB, its slots fewer than 2³²)
// and the checksum of its decoded data (the high 32), entry blocks where
// the last block ends. Kept in memory (8 bytes a block of 4 KB, 0.2% of the
// plain size), it costs a probe that misses the block cache no read of the
// disk but the block's own.
func (x *packedIndex) load(p *packedHdr) ([]uint64, error) {
	if c := crc32.Update(crc32.Checksum(x.offsets, castagnoli), castagnoli, x.crcs); c != p.indexCRC {
		return nil, fmt.Errorf("index checksum mismatch (stored %08x, computed %08x)", p.indexCRC, c)
	}
	le := binary.LittleEndian
	prev := le.Uint64(x.offsets)
	if prev != 0 {
		return nil, fmt.Errorf("index: block 0 starts at %d, want 0", prev)
	}
	ix := make([]uint64, p.blocks+1)
	for i := uint64(1); i <= p.blocks; i++ {
		o := le.Uint64(x.offsets[8*i:])
		if o < prev || o-prev > uint64(p.blockSize) {
			return nil, fmt.Errorf("index: block %d spans %d to %d", i-1, prev, o)
		}
		ix[i-1] = prev | uint64(le.Uint32(x.crcs[4*(i-1):]))<<32
		prev = o
	}
	if prev != uint64(len(x.data)) {
		return nil, fmt.Errorf("index: the blocks end at %d, the data at %d", prev, len(x.data))
	}
	ix[p.blocks] = prev
	return ix, nil
}

// blockLen is the plain length of block i of a table of dataSize bytes.
func blockLen(i uint32, blockSize uint32, dataSize uint64) int {
	lo := uint64(i) * uint64(blockSize)
	return int(min(uint64(blockSize), dataSize-lo))
}

var (
	zstdDecOnce sync.Once
	zstdDec     *zstd.Decoder
)

// decoder is the zstd decoder every packed table shares: safe for
// concurrent DecodeAll, it never decodes more than a block (a damaged
// frame cannot ask for more memory).
func decoder() *zstd.Decoder {
	zstdDecOnce.Do(func() {
		var err error
		zstdDec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxBlockSize),
			zstd.WithDecoderMaxWindow(maxBlockSize), zstd.IgnoreChecksum(true), zstd.WithDecoderLowmem(true))
		if err != nil {
			panic("egtb: zstd decoder: " + err.Error())
		}
	})
	return zstdDec
}

// blockCodec is what decoding a table's blocks needs: the codec and, for
// the ranked one, the table's model and segment size (packedHdr.blockCodec).
type blockCodec struct {
	codec    byte
	model    *ransModel
	segShift uint8
}

// blockCodec is the codec of the header's table, given its ranked model
// (nil for the other codecs).
func (p *packedHdr) blockCodec(m *ransModel) blockCodec {
	return blockCodec{codec: p.codec, model: m, segShift: p.segShift}
}

// unitShift is log2 of what a probe decodes and the block cache holds: a
// ranked block's segment, or a whole block for the other codecs.
func (p *packedHdr) unitShift() uint8 {
	if p.codec == codecRanked {
		return p.segShift
	}
	return uint8(bits.TrailingZeros32(p.blockSize))
}

// decodeBlock decodes block i of the compressed data (n bytes of data when
// decoded) by its index ix (packedIndex.load) into dst's space and checks
// it against its checksum; it allocates nothing when dst has room for the
// block.
func decodeBlock(c *blockCodec, ix []uint64, data []byte, i uint32, n int, dst []byte) ([]byte, error) {
	src, want := data[uint32(ix[i]):uint32(ix[i+1])], uint32(ix[i]>>32)
	if c.codec == codecRanked {
		if err := checkRanked(ix, data, i); err != nil {
			return dst[:0], err
		}
		if cap(dst) < n {
			dst = make([]byte, 0, n)
		}
		dst = dst[:n]
		for lo := 0; lo < n; lo += 1 << c.segShift {
			var cur ransCursor
			hi := min(n, lo+1<<c.segShift)
			if _, err := decodeSegment(c, ix, data, i, lo>>c.segShift, n, hi-lo-1, dst[lo:lo], &cur); err != nil {
				return dst[:0], err
			}
		}
		return dst, nil
	}
	var out []byte
	var err error
	switch {
	case len(src) == n:
		out = append(dst[:0], src...)
	case c.codec == codecS2:
		if m, err := s2.DecodedLen(src); err != nil || m != n {
			return dst[:0], fmt.Errorf("cannot be decoded (S2 length %d, %v; want %d)", m, err, n)
		}
		if cap(dst) < n {
			dst = make([]byte, 0, n)
		}
		if out, err = s2.Decode(dst[:n], src); err != nil {
			return dst[:0], fmt.Errorf("cannot be decoded (%v)", err)
		}
	default:
		if out, err = decoder().DecodeAll(src, dst[:0]); err != nil {
			return dst[:0], fmt.Errorf("cannot be decoded (%v)", err)
		}
	}
	if len(out) != n {
		return out[:0], fmt.Errorf("decodes to %d bytes, want %d", len(out), n)
	}
	if c := crc32.Checksum(out, castagnoli); c != want {
		return out[:0], fmt.Errorf("checksum mismatch (stored %08x, computed %08x)", want, c)
	}
	return out, nil
}

// checkRanked checks ranked block i's stored bytes against their checksum.
func checkRanked(ix []uint64, data []byte, i uint32) error {
	src, want := data[uint32(ix[i]):uint32(ix[i+1])], uint32(ix[i]>>32)
	if got := crc32.Checksum(src, castagnoli); got != want {
		return fmt.Errorf("checksum mismatch (stored %08x, computed %08x)", want, got)
	}
	return nil
}

// decodeSegment decodes segment k of ranked block i (n bytes of data when
// decoded) as far as byte upto into dst's space: on from the len(dst)
// bytes decoded before with c (from the start if dst is empty); checkRanked
// is the caller's. It allocates nothing when dst has room for a segment.
func decodeSegment(b *blockCodec, ix []uint64, data []byte, i uint32, k, n, upto int, dst []byte, c *ransCursor) ([]byte, error) {
	src := data[uint32(ix[i]):uint32(ix[i+1])]
	lo := k << b.segShift
	hi := min(n, lo+1<<b.segShift)
	if len(src) == n {
		return append(dst[:0], src[lo:hi]...), nil
	}
	nseg := (n + 1<<b.segShift - 1) >> b.segShift
	prefetchSegment(src, k, nseg)
	code, err := segmentCode(src, k, nseg)
	if err != nil {
		return dst[:0], err
	}
	if cap(dst) < hi-lo {
		dst = make([]byte, 0, 1<<b.segShift)
	}
	out, err := b.model.decodeMore(c, dst, code, min(upto+1, hi-lo), hi-lo)
	if err != nil {
		return dst[:0], fmt.Errorf("segment %d %v", k, err)
	}
	return out, nil
}

// prefetchSegment starts loading the lines where segment k of a ranked
// block's stored bytes (nseg segments) likely lies, had every segment the
// same length, so that they come in while the segments' offsets are read
// (two misses at once instead of one after the other).
func prefetchSegment(src []byte, k, nseg int) {
	head := 2 * (nseg - 1)
	if len(src) <= head {
		return
	}
	at := head + k*(len(src)-head)/nseg
	memory.Prefetch(uintptr(unsafe.Pointer(&src[at])))
	memory.Prefetch(uintptr(unsafe.Pointer(&src[min(at+64, len(src)-1)])))
}

// segmentCode is the code of segment k of a ranked block's stored bytes
// (nseg segments): from the end of the offsets, or segment k's offset, to
// the next segment's or the block's end.
func segmentCode(src []byte, k, nseg int) ([]byte, error) {
	at := func(j int) int { // where segment j starts
		if j == 0 {
			return 2 * (nseg - 1)
		}
		if j == nseg {
			return len(src)
		}
		return int(binary.LittleEndian.Uint16(src[2*(j-1):]))
	}
	if len(src) < 2*(nseg-1) {
		return nil, errors.New("is shorter than its segments' offsets")
	}
	lo, hi := at(k), at(k+1)
	if lo > hi || hi > len(src) || lo < 2*(nseg-1) {
		return nil, fmt.Errorf("segment %d spans %d to %d of %d bytes", k, lo, hi, len(src))
	}
	return src[lo:hi], nil
}

// transformBlock rewrites the unused slots of a block of plain data (data
// bytes from byte lo of the table) in place: each holds the value of the
// slot before it; prev is the value of the slot before the block, and the
// value of its last slot is returned.
func transformBlock(m Metric, data []byte, prev byte) byte {
	if m != WDL {
		for i, b := range data {
			if b == unused {
				data[i] = prev
			} else {
				prev = b
			}
		}
		return prev
	}
	for i, b := range data {
		var o byte
		for q := 0; q < 8; q += 2 {
			c := b >> q & 3
			if c == codeUnused {
				c = prev
			}
			prev = c
			o |= c << q
		}
		data[i] = o
	}
	return prev
}

// restoreUnused gives a block of transformed data (the table's bytes from
// byte lo on) back its plain form: 0xFF (or code 3) in every unused slot of
// the sector, and code 3 past a WDL table's last slot.
func restoreUnused(sec *sector, m Metric, lo uint64, data []byte) {
	if m != WDL {
		sec.unusedIn(uint32(lo), uint32(lo)+uint32(len(data)), func(i uint32) { data[i-uint32(lo)] = unused })
		return
	}
	first := lo * 4
	end := min(first+uint64(len(data))*4, uint64(sec.size))
	if first < end {
		sec.unusedIn(uint32(first), uint32(end), func(i uint32) {
			k := i - uint32(first)
			data[k>>2] |= codeUnused << ((k & 3) * 2)
		})
	}
	for k := max(end, first); k < first+uint64(len(data))*4; k++ {
		j := k - first
		data[j>>2] |= codeUnused << ((j & 3) * 2)
	}
}

// unusedIn calls f with every unused slot in [lo, hi), in order. Only the
// mover's sets with a symmetry have unused slots (index.go), a few in a
// hundred; their rows are walked a set of the other side at a time.
func (s *sector) unusedIn(lo, hi uint32, f func(i uint32)) {
	for i := lo; i < hi; {
		ci := i / s.others
		rowEnd := min((ci+1)*s.others, hi)
		mover := s.movers().sets[ci]
		if uint16(s.movers().info[colex(mover)]) == 1 || s.o == 0 {
			i = rowEnd
			continue
		}
		c := unrankColex(i%s.others, s.o, 24-s.m)
		for ; i < rowEnd; i++ {
			if !s.used(mover, deposit(c, mover)) {
				f(i)
			}
			x := c & -c
			y := c + x
			c = ((y^c)>>2)/x | y
		}
	}
}

// checkRestores reports whether restoring the transformed block gives back
// the plain block (pack's check that unpack will give back the file).
func checkRestores(sec *sector, m Metric, lo uint64, plain, transformed, scratch []byte) bool {
	scratch = append(scratch[:0], transformed...)
	restoreUnused(sec, m, lo, scratch)
	return bytes.Equal(scratch, plain)
}

// isPackedName reports whether a file name is a packed table's.
func isPackedName(name string) bool {
	return len(name) > len(packedExtension) && name[len(name)-len(packedExtension):] == packedExtension
}

// plainName is the plain file name of a packed table's file name.
func plainName(name string) string { return name[:len(name)-len(packedExtension)] + fileExtension }

// packedName is the packed file name of a plain table's file name.
func packedName(name string) string { return name[:len(name)-len(fileExtension)] + packedExtension }
