package egtb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/millengine/millengine/internal/memory"
)

// PackOptions tune PackDir and PackFile.
type PackOptions struct {
	// Threads compress blocks at once (≤ 0: one per CPU).
	Threads int
	// BlockSize is the plain bytes a block holds (0: PackBlockSize).
	BlockSize int
	// Codec is how blocks are compressed: "ranked" (the default: rans.go,
	// a probe decodes a segment of 256 bytes), "zstd" (each block a zstd
	// frame, 5–20 % smaller, a probe decodes 4 KB) or "s2"
	// (klauspost/compress/s2, "better": blocks 1.5–1.8 times zstd's).
	Codec string
	// Level is zstd's level (0: zstd.SpeedBetterCompression). Measured on
	// the moving phase's DTZ tables up to 12 pieces in 4 KB blocks: the
	// default level comes to 14.4% of the plain size, the better one to
	// 13.4% at half the speed (30–150 MB/s a thread), the best to about
	// 12.5% at a quarter of that; the three decode alike. A table is packed
	// once.
	Level zstd.EncoderLevel
}

// PackReport is what PackDir did with one table.
type PackReport struct {
	Src, Dst          string
	PlainBytes, Bytes int64 // the plain file's size and the packed file's
	Blocks            uint64
	Existing          bool // the packed file was there already, of the same table
	Elapsed           time.Duration
}

// PackDir writes the packed form of every plain table file in src (any
// rules) into dst, each file atomically; a packed file already in dst whose
// header is the plain file's is kept (a stopped pack goes on). It stops at
// the first table it cannot pack (a damaged plain file among them: pack
// checks the data of each first).
func PackDir(ctx context.Context, src, dst string, o PackOptions, report func(PackReport)) error {
	return convertDir(ctx, src, dst, true, o, report)
}

// convertDir is PackDir (pack) and UnpackDir (!pack): every table file of
// the other form in src is written in this one into dst, unless dst holds
// that table already, and reported.
func convertDir(ctx context.Context, src, dst string, pack bool, o PackOptions, report func(PackReport)) error {
	files, err := sectorFiles(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	n := 0
	for _, f := range files {
		if f.packed == pack {
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return err
		}
		r := PackReport{Src: f.path}
		plain, packed := f.path, f.path
		if pack {
			r.Dst = filepath.Join(dst, packedName(filepath.Base(f.path)))
			packed = r.Dst
			r.Existing, _ = samePackedTable(f.path, r.Dst)
		} else {
			r.Dst = filepath.Join(dst, plainName(filepath.Base(f.path)))
			plain = r.Dst
			r.Existing = samePlainTable(f.path, r.Dst)
		}
		if !r.Existing {
			start := time.Now()
			if pack {
				r.Blocks, err = PackFile(f.path, r.Dst, o)
			} else {
				err = UnpackFile(f.path, r.Dst)
			}
			if err != nil {
				return err
			}
			r.Elapsed = time.Since(start)
		}
		r.PlainBytes, r.Bytes = fileSize(plain), fileSize(packed)
		report(r)
	}
	if n == 0 {
		if pack {
			return fmt.Errorf("egtb pack: no plain table files in %s", src)
		}
		return fmt.Errorf("egtb unpack: no packed table files in %s", src)
	}
	return nil
}

// samePlainTable reports whether the plain file holds the packed file's
// table: the same plain header, and the size it gives.
func samePlainTable(packed, plain string) bool {
	a, err := readPrefix(packed, headerSize)
	if err != nil {
		return false
	}
	b, err := readPrefix(plain, headerSize)
	if err != nil || !bytes.Equal(a, b) {
		return false
	}
	h, err := parseHeader(a)
	return err == nil && uint64(fileSize(plain)) == headerSize+h.metric.dataSize(h.slots)
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// samePackedTable reports whether the packed file holds the plain file's
// table: the same plain header, and sound headers and size.
func samePackedTable(plain, packed string) (bool, error) {
	a, err := readPrefix(plain, headerSize)
	if err != nil {
		return false, err
	}
	b, err := readPrefix(packed, packedDataStart)
	if err != nil || !bytes.Equal(a, b[:headerSize]) {
		return false, err
	}
	h, err := parseHeader(a)
	if err != nil {
		return false, err
	}
	ph, err := parsePackedHeader(b[headerSize:], h.metric.dataSize(h.slots))
	return err == nil && uint64(fileSize(packed)) == ph.fileSize(), err
}

func readPrefix(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	_, err = io.ReadFull(f, buf)
	return buf, err
}

// PackFile writes the packed form of the plain table file src to dst
// (packedfile.go), atomically, and returns its number of blocks. It checks
// the plain file whole first (header, size, data checksum, used slots), and
// each block as it goes: the transformed block restores to the plain one,
// and its compressed form decodes to it.
func PackFile(src, dst string, o PackOptions) (blocks uint64, err error) {
	p, s, metric, ok := parseFileName(filepath.Base(src))
	if !ok || isPackedName(src) {
		return 0, fmt.Errorf("egtb pack: %s is not the name of a plain table file", src)
	}
	buf, unmap, err := memory.MapFile(src)
	if err != nil {
		return 0, &FileError{src, err.Error()}
	}
	defer unmap()
	if _, err := checkFile(src, buf, p, s, metric, true); err != nil {
		return 0, err
	}
	bs := o.BlockSize
	if bs == 0 {
		bs = PackBlockSize
	}
	if bs < minBlockSize || bs > maxBlockSize || bits.OnesCount(uint(bs)) != 1 {
		return 0, fmt.Errorf("egtb pack: block size %d (a power of two from %d to %d)", bs, minBlockSize, maxBlockSize)
	}
	codec, err := codecNamed(o.Codec)
	if err != nil {
		return 0, err
	}
	if codec == codecRanked && bs > maxRankedBlock {
		return 0, fmt.Errorf("egtb pack: block size %d: the ranked codec's blocks hold at most %d bytes", bs, maxRankedBlock)
	}
	level := o.Level
	if level == 0 {
		level = zstd.SpeedBetterCompression
	}
	threads := o.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(threads),
		zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithZeroFrames(true))
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	data := buf[headerSize:]
	ph := packedHdr{codec: codec, blockSize: uint32(bs), blocks: (uint64(len(data)) + uint64(bs) - 1) / uint64(bs)}
	sec := newSector(s.M, s.O)
	var rm *ransModel
	var model []byte
	if codec == codecRanked {
		rm = rankedModel(metric, data, bs, PackSegmentSize)
		model = rm.marshal()
		ph.segShift, ph.modelLen, ph.modelCRC = uint8(bits.TrailingZeros(PackSegmentSize)), uint32(len(model)), crc32.Checksum(model, castagnoli)
	}
	bc := ph.blockCodec(rm)

	err = writeAtomic(dst, func(f *os.File) error {
		// The headers and the index go before the data: their room first.
		start := int64(packedDataStart) + int64(indexSize(ph.blocks))
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			return err
		}
		if _, err := f.Write(model); err != nil {
			return err
		}
		offsets := make([]byte, 8*(ph.blocks+1))
		crcs := make([]byte, 4*ph.blocks)
		// Blocks are compressed a batch at a time, a share of it per thread,
		// and written in order.
		const perThread = 256
		batch := uint64(threads * perThread)
		out := make([][]byte, batch)
		var at uint64
		for lo := uint64(0); lo < ph.blocks; lo += batch {
			hi := min(lo+batch, ph.blocks)
			var wg sync.WaitGroup
			var failed atomic.Pointer[error]
			for w := range threads {
				a, b := lo+uint64(w)*perThread, min(lo+uint64(w+1)*perThread, hi)
				if a >= b {
					break
				}
				wg.Go(func() {
					var plainCopy, scratch []byte
					for blk := a; blk < b; blk++ {
						e, crc, err := packBlock(enc, &bc, sec, metric, data, blk, bs, &plainCopy, &scratch, out[blk-lo][:0])
						if err != nil {
							err = &FileError{src, fmt.Sprintf("block %d: %v", blk, err)}
							failed.CompareAndSwap(nil, &err)
							return
						}
						out[blk-lo] = e
						binary.LittleEndian.PutUint32(crcs[4*blk:], crc)
					}
				})
			}
			wg.Wait()
			if e := failed.Load(); e != nil {
				return *e
			}
			for blk := lo; blk < hi; blk++ {
				binary.LittleEndian.PutUint64(offsets[8*blk:], at)
				if _, err := f.Write(out[blk-lo]); err != nil {
					return err
				}
				at += uint64(len(out[blk-lo]))
			}
		}
		binary.LittleEndian.PutUint64(offsets[8*ph.blocks:], at)
		ph.dataBytes = at
		ph.indexCRC = crc32.Update(crc32.Checksum(offsets, castagnoli), castagnoli, crcs)
		head := append(bytes.Clone(buf[:headerSize]), ph.encode()...)
		head = append(append(head, offsets...), crcs...)
		_, err := f.WriteAt(head, 0)
		return err
	})
	if err != nil {
		return 0, err
	}
	return ph.blocks, nil
}

// packBlock transforms and compresses block blk of the plain data into dst
// and returns it with its checksum (of the transformed block, or for the
// ranked codec of the bytes stored): the block itself when compression does
// not make it shorter. It checks that the transformed block restores to the
// plain one and that the compressed one decodes to the transformed one.
func packBlock(enc *zstd.Encoder, bc *blockCodec, sec *sector, m Metric, data []byte, blk uint64, bs int, plainCopy, scratch *[]byte, dst []byte) ([]byte, uint32, error) {
	lo := blk * uint64(bs)
	plain := data[lo:min(lo+uint64(bs), uint64(len(data)))]
	t := append((*plainCopy)[:0], plain...)
	*plainCopy = t
	transformBlock(m, t, valueBefore(m, data, lo))
	if !checkRestores(sec, m, lo, plain, t, *scratch) {
		return nil, 0, errors.New("its unused slots are not the sector's (0xFF or code 3 exactly where no position is)")
	}
	crc := crc32.Checksum(t, castagnoli)
	var e []byte
	switch bc.codec {
	case codecS2:
		e = s2.EncodeBetter(dst[:cap(dst)], t)
	case codecRanked:
		e = encodeRanked(bc, dst, t)
	default:
		e = enc.EncodeAll(t, dst)
	}
	if len(e) >= len(t) {
		e = append(e[:0], t...)
	}
	if bc.codec == codecRanked {
		crc = crc32.Checksum(e, castagnoli)
	}
	got, err := decodeBlock(bc, []uint64{uint64(crc) << 32, uint64(len(e))}, e, 0, len(t), (*scratch)[:0])
	*scratch = got
	if err != nil || !bytes.Equal(got, t) {
		return nil, 0, fmt.Errorf("the compressed block does not decode to the block (%v)", err)
	}
	return e, crc, nil
}

// valueBefore is the value the transform gives the slot before byte lo of
// the data: the last used slot's (draw if none).
func valueBefore(m Metric, data []byte, lo uint64) byte {
	for i := lo; i > 0; i-- {
		b := data[i-1]
		if m != WDL {
			if b != unused {
				return b
			}
			continue
		}
		for q := 6; q >= 0; q -= 2 {
			if c := b >> q & 3; c != codeUnused {
				return c
			}
		}
	}
	return 0
}

// UnpackDir writes the plain form of every packed table file in src into
// dst, each file atomically, byte for byte the file that was packed: the
// plain header as it was, and the data whose checksum it holds. A plain
// file already in dst with that header is kept.
func UnpackDir(ctx context.Context, src, dst string, report func(PackReport)) error {
	return convertDir(ctx, src, dst, false, PackOptions{}, report)
}

// UnpackFile writes the plain table file of the packed file src to dst,
// atomically: every block decoded and checked, the unused slots given back
// (restoreUnused), and the data checked against the plain header's checksum
// and used count before the file is renamed into place.
func UnpackFile(src, dst string) (err error) {
	p, s, metric, ok := parseFileName(filepath.Base(src))
	if !ok || !isPackedName(src) {
		return fmt.Errorf("egtb unpack: %s is not the name of a packed table file", src)
	}
	buf, unmap, err := memory.MapFile(src)
	if err != nil {
		return &FileError{src, err.Error()}
	}
	defer unmap()
	pk, err := openPackedFile(src, buf, p, s, metric)
	if err != nil {
		return err
	}
	if err := pk.checkIndex(); err != nil {
		return err
	}
	return writeAtomic(dst, func(f *os.File) error {
		if _, err := f.Write(buf[:headerSize]); err != nil {
			return err
		}
		var crc uint32
		var used uint64
		var werr error
		if err := pk.scan(func(lo uint64, plain []byte) {
			crc = crc32.Update(crc, castagnoli, plain)
			used += usedSlots(metric, plain, uint64(len(plain)))
			if werr == nil {
				_, werr = f.Write(plain)
			}
		}); err != nil {
			return err
		}
		if werr != nil {
			return werr
		}
		if crc != pk.plainHdr.crc || used != pk.plainHdr.stored {
			return &FileError{src, fmt.Sprintf("the unpacked data has checksum %08x and %d used slots, the header %08x and %d", crc, used, pk.plainHdr.crc, pk.plainHdr.stored)}
		}
		return nil
	})
}

// codecNamed is the codec of PackOptions.Codec's name.
func codecNamed(name string) (byte, error) {
	switch name {
	case "", "ranked":
		return codecRanked, nil
	case "zstd":
		return codecZstd, nil
	case "s2":
		return codecS2, nil
	}
	return 0, fmt.Errorf("egtb pack: codec %q (ranked, zstd or s2)", name)
}

// rankedModel is the ranked codec's model of a table's data in blocks of
// bs bytes and segments of seg: the data transformed as packBlock does it,
// counted a segment at a time.
func rankedModel(m Metric, data []byte, bs, seg int) *ransModel {
	var c ransCounts
	t := make([]byte, bs)
	for lo := 0; lo < len(data); lo += bs {
		b := t[:copy(t, data[lo:min(lo+bs, len(data))])]
		transformBlock(m, b, valueBefore(m, data, uint64(lo)))
		for s := 0; s < len(b); s += seg {
			c.add(b[s:min(s+seg, len(b))])
		}
	}
	return newRansModel(&c, packScale, rModels)
}

// encodeRanked appends the ranked code of the transformed block t to dst:
// its segments' offsets, then each segment's code (packedfile.go). A code
// longer than the 16-bit offsets reach is left to be stored raw (it is
// longer than the block).
func encodeRanked(bc *blockCodec, dst, t []byte) []byte {
	seg := 1 << bc.segShift
	nseg := (len(t) + seg - 1) / seg
	at := len(dst)
	dst = append(dst, make([]byte, 2*(nseg-1))...)
	for k := range nseg {
		if k > 0 {
			if len(dst)-at >= len(t) {
				return dst // no shorter than the block: stored raw
			}
			binary.LittleEndian.PutUint16(dst[at+2*(k-1):], uint16(len(dst)-at))
		}
		dst = bc.model.encode(dst, t[k*seg:min((k+1)*seg, len(t))])
	}
	return dst
}
