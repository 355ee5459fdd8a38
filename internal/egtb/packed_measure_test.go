package egtb

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"hash/crc32"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// TestPackMeasure measures the codecs and block sizes the packed format
// could use, on the table files listed in EGTB_PACK_MEASURE (skipped
// without): for each file, with and without the transform of the unused
// slots, each block size and each codec, the compressed share of the plain
// size, the compression speed and the time to decode one block (the median
// of three passes over the blocks). A sample of blocks spread over each
// file stands for it (EGTB_PACK_SAMPLE bytes of each, 16 MB by default).
// Times are the thread's CPU time (threadCPU), so that a loaded machine's
// waits for a core do not count.
// This is how the format's choice was made (see PackBlockSize,
// PackOptions.Level); the figures go to stdout, one line each.
func TestPackMeasure(t *testing.T) {
	files := strings.Fields(os.Getenv("EGTB_PACK_MEASURE"))
	if len(files) == 0 {
		t.Skip("set EGTB_PACK_MEASURE to table files to measure")
	}
	sample := 16 << 20
	if s := os.Getenv("EGTB_PACK_SAMPLE"); s != "" {
		fmt.Sscan(s, &sample)
	}
	type codec struct {
		name string
		enc  func(dst, src []byte) []byte
		dec  func(dst, src []byte) ([]byte, error)
	}
	var codecs []codec
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.IgnoreChecksum(true))
	if err != nil {
		t.Fatal(err)
	}
	// The levels, and two tries at a faster decode: the fastest level, and
	// literals without entropy coding (fewer tables to build per block).
	for _, v := range []struct {
		lv    zstd.EncoderLevel
		noEnt bool
	}{{zstd.SpeedFastest, false}, {zstd.SpeedDefault, false}, {zstd.SpeedBetterCompression, false}, {zstd.SpeedBestCompression, false}, {zstd.SpeedBetterCompression, true}} {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(v.lv), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false),
			zstd.WithSingleSegment(true), zstd.WithZeroFrames(true), zstd.WithNoEntropyCompression(v.noEnt))
		if err != nil {
			t.Fatal(err)
		}
		name := "zstd-" + v.lv.String()
		if v.noEnt {
			name += "-noentropy"
		}
		codecs = append(codecs, codec{name, func(dst, src []byte) []byte { return enc.EncodeAll(src, dst[:0]) },
			func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst[:0]) }})
	}
	s2dec := func(dst, src []byte) ([]byte, error) { return s2.Decode(dst[:cap(dst)], src) }
	codecs = append(codecs,
		codec{"s2", func(dst, src []byte) []byte { return s2.Encode(dst[:cap(dst)], src) }, s2dec},
		codec{"s2-better", func(dst, src []byte) []byte { return s2.EncodeBetter(dst[:cap(dst)], src) }, s2dec},
	)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, err := parseHeader(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tr := range []bool{false, true} {
			data := slices.Clone(raw[headerSize:])
			if tr {
				transformBlock(h.metric, data, 0)
			}
			for _, bs := range []int{4 << 10, 16 << 10, 64 << 10} {
				codecs := codecs
				if tr && bs <= maxRankedBlock {
					// The ranked codec, its model the file's (as pack builds it):
					// the decode of a whole block, and of one segment.
					bc := &blockCodec{codec: codecRanked, segShift: 8, model: rankedModel(h.metric, raw[headerSize:], bs, PackSegmentSize)}
					dec := func(dst, src []byte) ([]byte, error) {
						return decodeBlock(bc, []uint64{uint64(crc32.Checksum(src, castagnoli)) << 32, uint64(len(src))}, src, 0, bs, dst)
					}
					seg := func(dst, src []byte) ([]byte, error) {
						return decodeSegment(bc, []uint64{0, uint64(len(src))}, src, 0, 5, bs, PackSegmentSize-1, dst[:0], new(ransCursor))
					}
					enc := func(dst, src []byte) []byte { return encodeRanked(bc, dst[:0], src) }
					codecs = append(codecs, codec{"ranked", enc, dec}, codec{"ranked-256", enc, seg})
				}
				nb := (len(data) + bs - 1) / bs
				stride := max(1, nb/max(1, sample/bs))
				var blocks [][]byte
				for b := 0; b < nb; b += stride {
					blocks = append(blocks, data[b*bs:min(len(data), (b+1)*bs)])
				}
				for _, c := range codecs {
					var in, out int
					enc := make([][]byte, len(blocks))
					start := threadCPU()
					for i, b := range blocks {
						enc[i] = c.enc(make([]byte, 0, s2.MaxEncodedLen(bs)), b)
						in += len(b)
						out += min(len(enc[i]), len(b)) // a block is stored raw if that is shorter
					}
					encTime := threadCPU() - start
					var passes []time.Duration
					buf := make([]byte, 0, bs)
					for range 3 {
						start := threadCPU()
						for i, e := range enc {
							if len(e) >= len(blocks[i]) || (c.name == "ranked-256" && len(blocks[i]) < bs) {
								continue // stored raw, or a short last block
							}
							got, err := c.dec(buf, e)
							if err != nil || (len(got) != len(blocks[i]) && c.name != "ranked-256") {
								t.Fatalf("%s %s: block %d does not decode (%v)", f, c.name, i, err)
							}
						}
						passes = append(passes, threadCPU()-start)
					}
					slices.Sort(passes)
					fmt.Printf("measure %-32s transform=%-5t block=%2dK %-12s share %6.2f%%  compress %6.1f MB/s  decode %7.2f µs/block\n",
						filepath.Base(f), tr, bs>>10, c.name, 100*float64(out)/float64(in), float64(in)/encTime.Seconds()/1e6,
						float64(passes[1].Nanoseconds())/1e3/float64(len(enc)))
				}
			}
		}
	}
}
