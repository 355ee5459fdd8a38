package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"unsafe"

	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/position"
)

// table is the solver's transposition table: buckets of four entries, a
// cache line each, indexed by a hash of the exact key. An entry holds the
// key itself (so a position is never answered for another), the proven
// bounds, the best move in the key's orientation and how many placements its
// subtree had left; replacement keeps the entries with the most placements
// left (the largest subtrees). Threads share it without locks: an entry's
// first word is its key XOR its data, so an entry torn by two writers at
// once does not check out and is taken as empty.
type table struct {
	b      []bucket
	mask   uint64
	filled atomic.Uint64
	free   func()
}

const bucketEntries = 4

type bucket [bucketEntries]entry

// entry: check = key ^ data; data = lo+1 (2 bits) | hi+1 (2 bits) << 2 |
// remaining (6 bits) << 4 | move (16 bits) << 16. Both words zero is empty
// (a key always has a piece on the board or in hand, so it is never 0).
type entry struct {
	check, data uint64
}

func newTable(bytes uint64) *table {
	n := uint64(1)
	for n*2*uint64(unsafe.Sizeof(bucket{})) <= bytes {
		n *= 2
	}
	mem, free, _, err := memory.Huge(int(n)*int(unsafe.Sizeof(bucket{})), false)
	var b []bucket
	if err != nil {
		b, free = make([]bucket, n), func() {}
	} else {
		b = unsafe.Slice((*bucket)(unsafe.Pointer(&mem[0])), n)
	}
	return &table{b: b, mask: n - 1, free: free}
}

func hash(k uint64) uint64 {
	k ^= k >> 31
	k *= 0x9e3779b97f4a7c15
	k ^= k >> 29
	return k
}

// load returns entry i's key and data (key 0 when empty).
func (e *entry) load() (key, data uint64) {
	d := atomic.LoadUint64(&e.data)
	c := atomic.LoadUint64(&e.check)
	if d == 0 && c == 0 {
		return 0, 0
	}
	return c ^ d, d
}

func (e *entry) store(key, data uint64) {
	atomic.StoreUint64(&e.data, data)
	atomic.StoreUint64(&e.check, key^data)
}

// get returns the bounds and best move stored for k (Loss, Win and NoMove
// when none).
func (t *table) get(k uint64) (lo, hi Value, best position.Move) {
	bk := &t.b[hash(k)&t.mask]
	for i := range bk {
		if key, d := bk[i].load(); key == k {
			return Value(d&3) - 1, Value(d>>2&3) - 1, position.Move(d >> 16)
		}
	}
	return Loss, Win, position.NoMove
}

// put stores bounds for k, replacing k's entry, an empty one, or the one
// with the fewest placements left if that is fewer than rem.
func (t *table) put(k uint64, lo, hi Value, best position.Move, rem int) {
	bk := &t.b[hash(k)&t.mask]
	d := uint64(lo+1) | uint64(hi+1)<<2 | uint64(rem&63)<<4 | uint64(best)<<16
	victim, vrem, empty := -1, 0, false
	for i := range bk {
		key, data := bk[i].load()
		switch {
		case key == k:
			bk[i].store(k, d)
			return
		case key == 0:
			if !empty {
				victim, empty = i, true
			}
		case !empty && (victim < 0 || int(data>>4&63) < vrem):
			victim, vrem = i, int(data>>4&63)
		}
	}
	if !empty && vrem > rem {
		return
	}
	if empty {
		t.filled.Add(1)
	}
	bk[victim].store(k, d)
}

// The table's file: a header (magic, the rules' tag, the bucket count, the
// entries' CRC-32C), then the buckets as they are in memory (little endian).

const tableMagic = "MILLSOLV"

var errNoFile = errors.New("no table file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (t *table) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&t.b[0])), len(t.b)*int(unsafe.Sizeof(bucket{})))
}

// store writes the table to path atomically. Other threads may be writing
// entries meanwhile: the buckets go out through a buffer, and the checksum
// is of what was written (an entry torn by the copy does not check out and
// reads back as empty).
func (t *table) store(path, tag string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	data := t.bytes()
	hdr := make([]byte, 0, 64+len(tag))
	hdr = append(hdr, tableMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(tag)))
	hdr = append(hdr, tag...)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(t.b)))
	hdr = binary.LittleEndian.AppendUint64(hdr, t.filled.Load())
	// The checksum follows the data, as it is known only once written.
	_, err = f.Write(hdr)
	buf := make([]byte, 1<<20)
	var sum uint32
	for off := 0; err == nil && off < len(data); off += len(buf) {
		n := copy(buf, data[off:])
		sum = crc32.Update(sum, castagnoli, buf[:n])
		_, err = f.Write(buf[:n])
	}
	if err == nil {
		_, err = f.Write(binary.LittleEndian.AppendUint32(nil, sum))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("solve: writing the table %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// load reads a table written for the same rules and size; a missing file is
// errNoFile, anything else that does not match is an error naming the file.
func (t *table) load(path, tag string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return errNoFile
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	bad := func(why string) error { return fmt.Errorf("solve: table file %s: %s", path, why) }
	head := make([]byte, len(tableMagic)+4)
	if _, err := io.ReadFull(r, head); err != nil || string(head[:len(tableMagic)]) != tableMagic {
		return bad("not a solver table")
	}
	n := binary.LittleEndian.Uint32(head[len(tableMagic):])
	if n > 4096 {
		return bad("damaged header")
	}
	got := make([]byte, n+16)
	if _, err := io.ReadFull(r, got); err != nil {
		return bad("truncated header")
	}
	if string(got[:n]) != tag {
		return bad(fmt.Sprintf("written for other rules (%q, these are %q)", got[:n], tag))
	}
	if b := binary.LittleEndian.Uint64(got[n:]); b != uint64(len(t.b)) {
		return bad(fmt.Sprintf("%d buckets, this table has %d: give the same --tt-mb", b, len(t.b)))
	}
	filled := binary.LittleEndian.Uint64(got[n+8:])
	data := t.bytes()
	tail := make([]byte, 4)
	if _, err := io.ReadFull(r, data); err != nil {
		clear(data)
		return bad("truncated")
	}
	if _, err := io.ReadFull(r, tail); err != nil {
		clear(data)
		return bad("truncated")
	}
	if crc32.Checksum(data, castagnoli) != binary.LittleEndian.Uint32(tail) {
		clear(data)
		return bad("checksum mismatch")
	}
	if _, err := r.ReadByte(); err != io.EOF {
		clear(data)
		return bad("too long")
	}
	t.filled.Store(filled)
	return nil
}
