package egtb

import (
	"fmt"
	"hash/crc32"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/millengine/millengine/internal/memory"
)

// Probing packed tables (the format is packedfile.go's).
//
// A probe of a packed table finds the block its slot lies in and reads the
// slot from the block decoded, which a cache of decoded blocks shared by
// the Tables' packed tables (blockCache) usually holds: a hit costs a lock
// of one of its sets and a look at four keys, and allocates nothing; a miss
// decodes the block (10–20 µs for 4 KB of zstd) into the least recently
// used of the set's buffers, its checksum checked, or for the ranked codec
// the slot's segment as far as the slot (1–2 µs). A block found
// damaged answers no probe again (its positions are unknown), is listed by
// Tables.Damaged once, and costs only itself: the table's other blocks
// answer.
//
// The commands that read whole tables (verify, stats, a build's needs)
// decode a packed table whole instead (packed.materialise), its checksums
// and the plain file's data checksum checked as a plain table's are: they
// read every slot, or read them at random many times over. verify keeps
// each table it has read decoded until it closes the tables (up to the
// plain size of the set: a small machine verifies a large set a few
// sectors at a time, --sector); stats decodes one at a time.

// PackedCacheBytes is the memory of decoded blocks each Tables keeps for its
// packed tables (32 MB: 8192 blocks of 4 KB, or 131072 ranked segments of
// 256 bytes; a set holding both codecs has a cache of each), taken when
// Open first meets a packed table, its buffers as blocks are first decoded.
// A search probes positions near one another (the other side's moves stay
// in the block of the mover's set), so that most probes hit a block decoded
// a moment before.
var PackedCacheBytes = 32 << 20

// cacheWays is the associativity of the block cache: a block may sit in any
// of the four ways of the set its key picks.
const cacheWays = 4

// blockCache is the cache of decoded blocks of one Tables' packed tables,
// safe for concurrent use: each set has its own lock, held for a look-up
// (and for the decode of a block it misses).
type blockCache struct {
	sets  []cacheSet
	shift uint // 64 − log2(len(sets)): a key's set is its hash's top bits
}

type cacheSet struct {
	mu   sync.Mutex
	tick uint64 // the set's clock: a way's last use
	ways [cacheWays]cacheWay
	_    [16]byte // to 192 bytes, three cache lines
}

type cacheWay struct {
	key  uint64 // table id << 32 | unit + 1; 0: empty
	last uint64
	buf  []byte     // the decoded unit (a ranked segment: as far as it was decoded)
	cur  ransCursor // a ranked segment's decoder, where it stopped
}

// newBlockCache returns a cache of about bytes of blocks of blockSize.
func newBlockCache(bytes, blockSize int) *blockCache {
	sets := max(1, bytes/blockSize/cacheWays)
	lg := bits.Len(uint(sets)) - 1 // a power of two, rounded down
	return &blockCache{sets: make([]cacheSet, 1<<lg), shift: uint(64 - lg)}
}

// packed is an opened packed table: its mapped index and compressed data,
// the cache it probes through, the blocks found damaged and, once the
// table is read whole, its plain data.
type packed struct {
	id  uint32 // the cache's key of the table
	hdr packedHdr
	idx packedIndex // as mapped
	// ix is the index in memory (packedIndex.load), loaded at the table's
	// first use by checkIndex, once (ixOnce), or ixErr says why not.
	ix        []uint64
	ixOnce    sync.Once
	ixErr     error
	model     *ransModel // ranked: the table's model, parsed with the index
	shift     uint8      // log2 of the block size
	dataSize  uint64     // bytes of plain data
	cache     *blockCache
	bad       []atomic.Uint64 // a bit per block found damaged
	checked   []atomic.Uint64 // ranked: a bit per block whose checksum a probe has checked
	path      string
	sec       *sector
	metric    Metric
	plainHdr  header
	noteBlock func(error) // hears of a damaged block (Tables.noteDamaged)
	// wholeOnProbe: the first probe decodes the table whole (materialise),
	// for the Tables of the commands that read whole tables (OpenChecked,
	// and verify's openOnUse: verify probes every table many times over, at
	// random).
	wholeOnProbe bool

	// whole is the plain data once the table has been decoded whole
	// (materialise), wholeOnce guards that, wholeErr says why it failed,
	// freeWhole releases its memory.
	whole      atomic.Pointer[[]byte]
	wholeOnce  sync.Once
	wholeErr   error
	wholeNoted atomic.Bool
	freeWhole  func()
}

// byteAt returns byte i of the table's plain data (without the unused
// slots' 0xFF: see the transform), and false when its block is damaged.
func (p *packed) byteAt(i uint64) (byte, bool) {
	if w := p.whole.Load(); w != nil {
		return (*w)[i], true
	}
	if p.wholeOnProbe {
		w, err := p.materialise()
		if err != nil {
			p.noteOnce(err)
			return 0, false
		}
		return w[i], true
	}
	return p.cache.byteAt(p, i)
}

// byteAt is the probe through the cache: byte i of table p's plain data,
// from the unit that holds it (a block, or a ranked block's segment:
// packedHdr.unitShift).
func (c *blockCache) byteAt(p *packed, i uint64) (byte, bool) {
	unit := p.hdr.unitShift()
	u, off := uint32(i>>unit), uint32(i)&(1<<unit-1)
	blk := u >> (p.shift - unit)
	if int(blk) < len(p.ix) {
		// A miss reads the block's index entry: it comes in while the
		// cache's set is looked at (a set among thousands, itself a miss).
		memory.Prefetch(uintptr(unsafe.Pointer(&p.ix[blk])))
	}
	key := uint64(p.id)<<32 | uint64(u) + 1
	set := &c.sets[(key*0x9E3779B97F4A7C15)>>c.shift]
	set.mu.Lock()
	victim := &set.ways[0]
	for w := range set.ways {
		way := &set.ways[w]
		if way.key == key {
			if int(off) < len(way.buf) {
				set.tick++
				way.last = set.tick
				v := way.buf[off]
				set.mu.Unlock()
				return v, true
			}
			victim = way // a ranked segment decoded as far as a byte before off: on from there
			break
		}
		if way.last < victim.last {
			victim = way
		}
	}
	if p.isBad(blk) {
		set.mu.Unlock()
		return 0, false
	}
	n := blockLen(blk, 1<<p.shift, p.dataSize)
	more := victim.key == key
	victim.key = 0
	var buf []byte
	var err error
	bc := p.hdr.blockCodec(p.model)
	if unit == p.shift {
		if cap(victim.buf) < n {
			victim.buf = make([]byte, 0, 1<<p.shift)
		}
		buf, err = decodeBlock(&bc, p.ix, p.idx.data, blk, n, victim.buf)
	} else if err = p.checkBlock(blk); err == nil {
		// A ranked segment, decoded as far as off (on from where it
		// stopped, if it is this way's): the code is read in order, and
		// the bytes after off may never be asked for.
		if !more {
			victim.buf = victim.buf[:0]
		}
		buf, err = decodeSegment(&bc, p.ix, p.idx.data, blk, int(u&(1<<(p.shift-unit)-1)), n, int(off), victim.buf, &victim.cur)
	}
	victim.buf = buf
	if err != nil {
		set.mu.Unlock()
		p.damaged(blk, err)
		return 0, false
	}
	set.tick++
	victim.key, victim.last = key, set.tick
	v := buf[off]
	set.mu.Unlock()
	return v, true
}

// checkBlock checks a ranked block's stored bytes against their checksum
// the first time a probe reads it (the table's checked bits remember it).
func (p *packed) checkBlock(blk uint32) error {
	if p.checked[blk/64].Load()&(1<<(blk%64)) != 0 {
		return nil
	}
	if err := checkRanked(p.ix, p.idx.data, blk); err != nil {
		return err
	}
	p.checked[blk/64].Or(1 << (blk % 64))
	return nil
}

// isBad reports whether block blk was found damaged.
func (p *packed) isBad(blk uint32) bool { return p.bad[blk/64].Load()&(1<<(blk%64)) != 0 }

// damaged marks block blk damaged and, the first time, reports it.
func (p *packed) damaged(blk uint32, err error) {
	if old := p.bad[blk/64].Or(1 << (blk % 64)); old&(1<<(blk%64)) != 0 {
		return
	}
	if p.noteBlock != nil {
		p.noteBlock(fmt.Errorf("%w; its positions are unknown, the table's other blocks are used", p.blockError(blk, err)))
	}
}

// blockError is the *FileError of a damaged block: the file, the block and
// the slots it holds, and the fault.
func (p *packed) blockError(blk uint32, err error) *FileError {
	lo := uint64(blk) << p.shift
	hi := lo + uint64(blockLen(blk, 1<<p.shift, p.dataSize))
	if p.metric == WDL {
		lo, hi = lo*4, min(hi*4, uint64(p.sec.size))
	}
	return &FileError{p.path, fmt.Sprintf("block %d of %d (slots %d–%d): %v", blk, p.hdr.blocks, lo, hi-1, err)}
}

// scan decodes every block in order, checks it, gives it back its plain
// form (restoreUnused) and hands it to f with its offset in the data; it
// stops at the first damaged block.
func (p *packed) scan(f func(lo uint64, plain []byte)) error {
	if err := p.checkIndex(); err != nil {
		return err
	}
	buf := make([]byte, 0, 1<<p.shift)
	bc := p.hdr.blockCodec(p.model)
	for blk := uint32(0); uint64(blk) < p.hdr.blocks; blk++ {
		n := blockLen(blk, 1<<p.shift, p.dataSize)
		var err error
		if buf, err = decodeBlock(&bc, p.ix, p.idx.data, blk, n, buf); err != nil {
			return p.blockError(blk, err)
		}
		lo := uint64(blk) << p.shift
		restoreUnused(p.sec, p.metric, lo, buf)
		f(lo, buf)
	}
	return nil
}

// check decodes the whole table without keeping it, checking every block
// and then the plain data as checkData does (checksum, used slots).
func (p *packed) check() error {
	var crc uint32
	var used uint64
	err := p.scan(func(lo uint64, plain []byte) {
		crc = crc32.Update(crc, castagnoli, plain)
		used += usedSlots(p.metric, plain, uint64(len(plain)))
	})
	switch {
	case err != nil:
		return err
	case crc != p.plainHdr.crc:
		return &FileError{p.path, fmt.Sprintf("data checksum mismatch (stored %08x, computed %08x)", p.plainHdr.crc, crc)}
	case used != p.plainHdr.stored:
		return &FileError{p.path, fmt.Sprintf("used slots %d, the data has %d", p.plainHdr.stored, used)}
	}
	return nil
}

// materialise decodes the table whole into memory, once, checked as check
// does, and returns its plain data: what the readers of whole tables use,
// and the probes too from then on.
func (p *packed) materialise() ([]byte, error) {
	p.wholeOnce.Do(func() {
		mem, free, _, err := memory.Huge(int(p.dataSize), false)
		if err != nil {
			p.wholeErr = &FileError{p.path, fmt.Sprintf("cannot decode it whole: %v", err)}
			return
		}
		if err := p.scan(func(lo uint64, plain []byte) { copy(mem[lo:], plain) }); err != nil {
			free()
			p.wholeErr = err
			return
		}
		if err := checkData(p.path, &p.plainHdr, mem); err != nil {
			free()
			p.wholeErr = err
			return
		}
		p.freeWhole = free
		p.whole.Store(&mem)
	})
	if w := p.whole.Load(); w != nil {
		return *w, nil
	}
	return nil, p.wholeErr
}

// release frees the table's whole plain data, if it was decoded; the table
// must not be used afterwards.
func (p *packed) release() {
	if p.freeWhole != nil {
		p.whole.Store(nil)
		p.freeWhole()
		p.freeWhole = nil
	}
}

// openPacked checks a packed file's headers and size against what its name
// promises and returns its table. Its index is checked at the table's first
// use, or now for the Tables that check whole files (OpenChecked, which
// also decodes every block now and checks the plain data, without keeping
// it) or that trust theirs (Build, which decodes a table whole before a job
// reads it).
func (t *Tables) openPacked(path string, buf []byte, s SectorSpec, metric Metric) (*table, error) {
	pk, err := openPackedFile(path, buf, t.params, s, metric)
	if err != nil {
		return nil, err
	}
	unit := pk.hdr.unitShift()
	c := t.caches[unit]
	if c == nil {
		if t.caches == nil {
			t.caches = map[uint8]*blockCache{}
		}
		c = newBlockCache(PackedCacheBytes, 1<<unit)
		t.caches[unit] = c
	}
	t.packedIDs++
	pk.id, pk.cache, pk.noteBlock, pk.wholeOnProbe = t.packedIDs, c, t.noteDamaged, t.mode == openChecked || t.mode == openOnUse
	if t.mode == openChecked || t.mode == openTrusted {
		if err := pk.checkIndex(); err != nil {
			return nil, err
		}
	}
	if t.mode == openChecked {
		if err := pk.check(); err != nil {
			return nil, err
		}
	}
	tb := &table{sec: pk.sec, hdr: pk.plainHdr, pk: pk}
	if t.mode == openTrusted {
		tb.state.Store(1)
	}
	return tb, nil
}

// openPackedFile checks a mapped packed file's headers and size against
// what its name promises (parameters, sector, metric) and returns it, its
// index not checked yet and no cache.
func openPackedFile(path string, buf []byte, p Params, s SectorSpec, metric Metric) (*packed, error) {
	h, err := checkNamedHeader(path, buf, p, s, metric)
	if err != nil {
		return nil, err
	}
	dataSize := h.metric.dataSize(h.slots)
	ph, err := parsePackedHeader(buf[min(len(buf), headerSize):], dataSize)
	if err != nil {
		return nil, &FileError{path, err.Error()}
	}
	if want := ph.fileSize(); uint64(len(buf)) != want {
		what := "truncated"
		if uint64(len(buf)) > want {
			what = "too long"
		}
		return nil, &FileError{path, fmt.Sprintf("%s: %d bytes, want %d", what, len(buf), want)}
	}
	sec := newSector(s.M, s.O)
	return &packed{hdr: ph, idx: splitPacked(buf, &ph), shift: uint8(bits.TrailingZeros32(ph.blockSize)), dataSize: dataSize, bad: make([]atomic.Uint64, (ph.blocks+63)/64), checked: make([]atomic.Uint64, (ph.blocks+63)/64), path: path, sec: sec,
		metric: metric, plainHdr: h}, nil
}

// checkIndex checks the table's index and loads it (packedIndex.load),
// once; it returns the failure as a *FileError.
func (p *packed) checkIndex() error {
	p.ixOnce.Do(func() {
		var err error
		if p.ix, err = p.idx.load(&p.hdr); err != nil {
			p.ixErr = &FileError{p.path, err.Error()}
			return
		}
		if p.hdr.codec == codecRanked {
			if c := crc32.Checksum(p.idx.model, castagnoli); c != p.hdr.modelCRC {
				p.ixErr = &FileError{p.path, fmt.Sprintf("model checksum mismatch (stored %08x, computed %08x)", p.hdr.modelCRC, c)}
				return
			}
			if p.model, err = parseRansModel(p.idx.model); err != nil {
				p.ixErr = &FileError{p.path, err.Error()}
			}
		}
	})
	return p.ixErr
}

// noteOnce reports the failure to decode the table whole, once.
func (p *packed) noteOnce(err error) {
	if p.noteBlock != nil && p.wholeNoted.CompareAndSwap(false, true) {
		p.noteBlock(err)
	}
}

// withAll calls f with the table's whole plain data: a plain table's
// mapping, a packed table's decoded whole if it is, else decoded into
// memory freed when f returns (checked as materialise checks it).
func (t *table) withAll(f func(data []byte)) error {
	if t.pk == nil {
		f(t.data)
		return nil
	}
	p := t.pk
	if w := p.whole.Load(); w != nil {
		f(*w)
		return nil
	}
	mem, free, _, err := memory.Huge(int(p.dataSize), false)
	if err != nil {
		return &FileError{p.path, fmt.Sprintf("cannot decode it whole: %v", err)}
	}
	defer free()
	if err := p.scan(func(lo uint64, plain []byte) { copy(mem[lo:], plain) }); err != nil {
		return err
	}
	if err := checkData(p.path, &p.plainHdr, mem); err != nil {
		return err
	}
	f(mem)
	return nil
}
