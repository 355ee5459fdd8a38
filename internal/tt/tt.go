// Package tt is the transposition table shared by all search threads: a
// power-of-two array of 64-byte buckets (one cache line each), indexed by the
// 32-bit Zobrist key, read and written without locks.
//
// Each bucket holds four entries of two 64-bit words: the data word (move,
// value, depth, bound, age) and a check word, data XOR the position's
// 64-bit signature (position.Signature: the whole position where the rules
// keep nothing else). The 32-bit key picks the bucket; a reader accepts an
// entry only if check XOR data gives back the signature, so the entry of
// another position — one whose key agrees in the bits that picked the
// bucket, which at 256 MB is all but about ten of them — or a torn one
// whose two words come from two different writes, is ignored. Words are loaded and stored with sync/atomic,
// which on amd64 are plain loads and exchanges, so the race detector sees no
// data race with several threads.
package tt

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/position"
)

// Bound says how a value relates to the true score: the table stores it
// with each entry and the search reports it with each score.
type Bound uint8

// Bounds.
const (
	BoundNone  Bound = 0
	BoundUpper Bound = 1 // value is an upper bound (fail low)
	BoundLower Bound = 2 // value is a lower bound (fail high)
	BoundExact Bound = 3
)

const (
	entriesPerBucket = 4
	bucketBytes      = 64
	ageBits          = 6
	ageMask          = 1<<ageBits - 1
)

// bucket is one cache line: four entries of (check, data).
type bucket struct {
	w [2 * entriesPerBucket]atomic.Uint64
}

// Entry is a decoded table entry.
type Entry struct {
	Move  position.Move
	Value int16
	Depth int8
	Bound Bound
}

// Table is a transposition table. The zero value is unusable; use New.
type Table struct {
	buckets []bucket
	free    func() // releases the buckets' memory
	mask    uint32
	age     uint8
}

// New returns a table of about mb megabytes (rounded down to a power of two
// number of buckets, at least one). If that much memory cannot be had it
// returns the smallest table and the error; callers that take the size from
// a user check it first (Resize, or CheckSize).
func New(mb int) (*Table, error) {
	t := &Table{}
	err := t.Resize(mb)
	if err != nil {
		err = errors.Join(err, t.Resize(1))
	}
	runtime.SetFinalizer(t, func(t *Table) { t.free() })
	return t, err
}

// reserveBytes is memory left to the rest of the system when a table is
// sized: a table that takes the last of it would get the process killed.
const reserveBytes = 256 << 20

// bucketsFor returns the number of buckets of a table of about mb megabytes.
func bucketsFor(mb int) int {
	n := uint64(max(mb, 1)) << 20 / bucketBytes
	p := uint64(1)
	for p*2 <= n && p*2 <= 1<<31 {
		p *= 2
	}
	return int(p)
}

// CheckSize reports an error if a table of mb megabytes is more than the
// memory the process can get, counting the memory a table of currentMB
// megabytes would give back.
func CheckSize(mb, currentMB int) error {
	need := uint64(bucketsFor(mb)) * bucketBytes
	avail, ok := memory.Available()
	if !ok {
		return nil
	}
	avail += uint64(max(currentMB, 0)) << 20
	if avail < reserveBytes || need > avail-reserveBytes {
		free := uint64(0)
		if avail > reserveBytes {
			free = avail - reserveBytes
		}
		return fmt.Errorf("%d MB is more than the memory available (%d MB)", mb, free>>20)
	}
	return nil
}

// Resize reallocates the table for mb megabytes; the content is lost. If the
// memory cannot be had the table keeps its size (and loses its content) and
// Resize returns why. Call it while no search runs.
func (t *Table) Resize(mb int) error {
	p := bucketsFor(mb)
	if t.free != nil && len(t.buckets) == p {
		t.Clear()
		return nil
	}
	oldN := len(t.buckets)
	if err := CheckSize(mb, t.SizeMB()); err != nil {
		return err
	}
	if t.free != nil {
		t.buckets = nil
		t.free()
		t.free = nil
	}
	err := t.alloc(p)
	if err != nil && oldN > 0 {
		// Take the old size back: its memory was just given back.
		if err2 := t.alloc(oldN); err2 != nil {
			return errors.Join(err, t.alloc(1))
		}
	}
	return err
}

// alloc gives the table n fresh buckets.
func (t *Table) alloc(n int) error {
	b, free, populated, err := allocBuckets(n)
	if err != nil {
		return fmt.Errorf("%d MB could not be allocated: %w", n*bucketBytes>>20, err)
	}
	t.buckets, t.free = b, free
	t.mask = uint32(n - 1)
	t.age = 0
	if !populated {
		// Touch every page now: fresh memory is faulted in (and, with huge
		// pages, compacted) on first write, which would otherwise stall the
		// first search by up to tens of milliseconds.
		t.Clear()
	}
	return nil
}

// SizeMB returns the table size in megabytes.
func (t *Table) SizeMB() int { return len(t.buckets) * bucketBytes >> 20 }

// Clear empties the table. Call it while no search runs: it writes without
// atomics, which is what makes it fast.
func (t *Table) Clear() {
	// A large table is cleared by one goroutine per CPU: the first clear of
	// fresh memory is bound by page faults, which the kernel serves in
	// parallel.
	const chunk = 32 << 20 / bucketBytes
	n := len(t.buckets)
	parts := min(runtime.NumCPU(), (n+chunk-1)/chunk)
	if parts <= 1 {
		clear(t.buckets)
	} else {
		var wg sync.WaitGroup
		for i := range parts {
			lo, hi := n*i/parts, n*(i+1)/parts
			wg.Go(func() { clear(t.buckets[lo:hi]) })
		}
		wg.Wait()
	}
	t.age = 0
}

// NewSearch starts a new generation: entries of older searches become the
// first to be replaced.
func (t *Table) NewSearch() { t.age = (t.age + 1) & ageMask }

// pack builds the data word of an entry: move in bits 0–15, value 16–31,
// depth 48–55, bound 56–57, age 58–63 (bits 32–47 are unused).
func pack(m position.Move, value int16, depth int8, b Bound, age uint8) uint64 {
	return uint64(m) | uint64(uint16(value))<<16 |
		uint64(uint8(depth))<<48 | uint64(b)<<56 | uint64(age&ageMask)<<58
}

func unpack(d uint64) Entry {
	return Entry{
		Move:  position.Move(d),
		Value: int16(d >> 16),
		Depth: int8(d >> 48),
		Bound: Bound(d >> 56 & 3),
	}
}

func dataAge(d uint64) uint8 { return uint8(d>>58) & ageMask }

// Prefetch starts loading the bucket of key into cache so that it is there
// when the key is probed; it does not wait for the load.
func (t *Table) Prefetch(key uint32) {
	memory.Prefetch(uintptr(unsafe.Pointer(&t.buckets[key&t.mask])))
}

// Probe looks up the position of key and sig (its Key and Signature). It
// reports whether a valid entry was found.
func (t *Table) Probe(key uint32, sig uint64) (Entry, bool) {
	b := &t.buckets[key&t.mask]
	for i := 0; i < entriesPerBucket; i++ {
		check := b.w[2*i].Load()
		data := b.w[2*i+1].Load()
		if check^data == sig && data != 0 {
			return unpack(data), true
		}
	}
	return Entry{}, false
}

// Store writes an entry for the position of key and sig. The slot is the
// position's own entry if present, else the entry whose depth, reduced by
// its age, is the smallest. An existing entry of the same position keeps its
// move when the new one has none, and is not overwritten by a much shallower
// non-exact result.
func (t *Table) Store(key uint32, sig uint64, m position.Move, value int16, depth int8, b Bound) {
	bk := &t.buckets[key&t.mask]
	slot := -1
	worst := 1 << 30
	for i := 0; i < entriesPerBucket; i++ {
		check := bk.w[2*i].Load()
		data := bk.w[2*i+1].Load()
		if check^data == sig && data != 0 {
			old := unpack(data)
			if m == position.NoMove {
				m = old.Move
			}
			if b != BoundExact && int(depth)+3 < int(old.Depth) && dataAge(data) == t.age {
				return
			}
			slot = i
			break
		}
		if data == 0 {
			slot, worst = i, -1<<30
			continue
		}
		// Older generations and shallower entries go first.
		ageDiff := int((t.age - dataAge(data)) & ageMask)
		score := int(int8(data>>48)) - 8*ageDiff
		if score < worst {
			slot, worst = i, score
		}
	}
	data := pack(m, value, depth, b, t.age)
	bk.w[2*slot+1].Store(data)
	bk.w[2*slot].Store(data ^ sig)
}

// HashFull returns how many of the first thousand entries hold results of
// the current search, in permille.
func (t *Table) HashFull() int {
	n, used := 0, 0
	for i := 0; i < len(t.buckets) && n < 1000; i++ {
		for j := 0; j < entriesPerBucket && n < 1000; j++ {
			data := t.buckets[i].w[2*j+1].Load()
			if data != 0 && dataAge(data) == t.age {
				used++
			}
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return used * 1000 / n
}

// bucketSize is checked at compile time: a bucket must be one cache line.
var _ [bucketBytes - int(unsafe.Sizeof(bucket{}))]struct{}
var _ [int(unsafe.Sizeof(bucket{})) - bucketBytes]struct{}
