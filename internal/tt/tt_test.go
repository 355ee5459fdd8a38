package tt

import (
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/position"
)

// newTable returns a table of mb megabytes or fails the test.
func newTable(t testing.TB, mb int) *Table {
	t.Helper()
	tab, err := New(mb)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// Buckets returns the number of buckets.
func (t *Table) Buckets() int { return len(t.buckets) }

func TestBucketIsOneAlignedCacheLine(t *testing.T) {
	if s := unsafe.Sizeof(bucket{}); s != 64 {
		t.Fatalf("bucket is %d bytes, want 64", s)
	}
	tab := newTable(t, 1)
	if a := uintptr(unsafe.Pointer(&tab.buckets[0])) % 64; a != 0 {
		t.Fatalf("buckets start %d bytes into a cache line", a)
	}
	if tab.Buckets() != 1<<20/64 || tab.SizeMB() != 1 {
		t.Fatalf("1 MB table has %d buckets (%d MB)", tab.Buckets(), tab.SizeMB())
	}
	if tab.mask != uint32(tab.Buckets()-1) {
		t.Fatalf("mask %x for %d buckets", tab.mask, tab.Buckets())
	}
}

func TestStoreProbe(t *testing.T) {
	tab := newTable(t, 1)
	m := position.MakeSlide(bitboard.Square(3), bitboard.Square(4))
	tab.Store(0xdeadbeef, uint64(0xdeadbeef), m, -1234, 9, BoundLower)
	e, ok := tab.Probe(0xdeadbeef, uint64(0xdeadbeef))
	if !ok {
		t.Fatal("stored entry not found")
	}
	want := Entry{Move: m, Value: -1234, Depth: 9, Bound: BoundLower}
	if e != want {
		t.Fatalf("got %+v, want %+v", e, want)
	}
	// Same bucket, other key: not found.
	if _, ok := tab.Probe(0xdeadbeef^1<<31, uint64(0xdeadbeef^1<<31)); ok {
		t.Fatal("found an entry for a key never stored")
	}
	// Negative depth (quiescence) and mate values survive packing.
	tab.Store(7, uint64(7), position.NoMove, 29990, -1, BoundExact)
	if e, _ := tab.Probe(7, uint64(7)); e.Value != 29990 || e.Depth != -1 || e.Bound != BoundExact {
		t.Fatalf("got %+v", e)
	}
}

// TestTornEntryIgnored: an entry whose check word comes from another write
// is never returned.
func TestTornEntryIgnored(t *testing.T) {
	tab := newTable(t, 1)
	const a, b = uint32(0x100), uint32(0x200100) // same bucket
	tab.Store(a, uint64(a), position.MakePlace(1), 10, 5, BoundExact)
	bk := &tab.buckets[a&tab.mask]
	var slot int
	for slot = 0; slot < entriesPerBucket; slot++ {
		if bk.w[2*slot].Load()^bk.w[2*slot+1].Load() == uint64(a) {
			break
		}
	}
	// Half of a write for key b lands: the data word only.
	data := pack(position.MakePlace(2), 20, 6, BoundExact, tab.age)
	bk.w[2*slot+1].Store(data)
	if _, ok := tab.Probe(a, uint64(a)); ok {
		t.Fatal("torn entry accepted for the old key")
	}
	if _, ok := tab.Probe(b, uint64(b)); ok {
		t.Fatal("torn entry accepted for the new key")
	}
	bk.w[2*slot].Store(data ^ uint64(b))
	if e, ok := tab.Probe(b, uint64(b)); !ok || e.Value != 20 {
		t.Fatalf("completed entry not found: %+v %v", e, ok)
	}
}

func TestReplacement(t *testing.T) {
	tab := newTable(t, 1)
	stride := uint32(tab.Buckets())
	// Fill one bucket with depths 10, 2, 8, 6; a fifth key replaces depth 2.
	for i, d := range []int8{10, 2, 8, 6} {
		tab.Store(uint32(i)*stride+5, uint64(uint32(i)*stride+5), position.NoMove, int16(i), d, BoundExact)
	}
	tab.Store(4*stride+5, uint64(4*stride+5), position.NoMove, 99, 3, BoundExact)
	if _, ok := tab.Probe(1*stride+5, uint64(1*stride+5)); ok {
		t.Fatal("the shallowest entry survived")
	}
	for _, k := range []uint32{0, 2, 3, 4} {
		if _, ok := tab.Probe(k*stride+5, uint64(k*stride+5)); !ok {
			t.Fatalf("entry %d was replaced", k)
		}
	}
	// Entries of an old search go before deeper current ones.
	tab.NewSearch()
	tab.NewSearch()
	tab.Store(0*stride+5, uint64(0*stride+5), position.NoMove, 0, 10, BoundExact) // refresh key 0
	tab.Store(5*stride+5, uint64(5*stride+5), position.NoMove, 0, 1, BoundExact)
	if _, ok := tab.Probe(0*stride+5, uint64(0*stride+5)); !ok {
		t.Fatal("a current entry was replaced before old ones")
	}
	// The same key keeps its move when the new store has none, and a much
	// shallower bound does not overwrite a deep current entry.
	m := position.MakePlace(9)
	tab.Store(77, uint64(77), m, 1, 12, BoundExact)
	tab.Store(77, uint64(77), position.NoMove, 2, 11, BoundUpper)
	if e, _ := tab.Probe(77, uint64(77)); e.Move != m || e.Value != 2 {
		t.Fatalf("got %+v", e)
	}
	tab.Store(77, uint64(77), position.NoMove, 3, 2, BoundLower)
	if e, _ := tab.Probe(77, uint64(77)); e.Value != 2 {
		t.Fatalf("shallow bound replaced a deep entry: %+v", e)
	}
}

func TestHashFull(t *testing.T) {
	tab := newTable(t, 1)
	if h := tab.HashFull(); h != 0 {
		t.Fatalf("empty table hashfull %d", h)
	}
	for k := uint32(0); k < 125; k++ { // 125 buckets x 4 slots = the 500 first entries half filled
		tab.Store(k, uint64(k), position.NoMove, 1, 1, BoundExact)
		tab.Store(k+uint32(tab.Buckets()), uint64(k+uint32(tab.Buckets())), position.NoMove, 1, 1, BoundExact)
	}
	if h := tab.HashFull(); h != 250 {
		t.Fatalf("hashfull %d, want 250", h)
	}
	tab.NewSearch()
	if h := tab.HashFull(); h != 0 {
		t.Fatalf("hashfull %d after a new search, want 0", h)
	}
	tab.Clear()
	if _, ok := tab.Probe(0, uint64(0)); ok {
		t.Fatal("entry survived Clear")
	}
}

// TestConcurrentAccess: many goroutines store and probe the same buckets;
// under -race this must be clean, and every probe that hits is consistent.
func TestConcurrentAccess(t *testing.T) {
	tab := newTable(t, 1)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20000; i++ {
				k := uint32(i%64) * uint32(tab.Buckets()/64)
				k += uint32(g) << 24
				tab.Store(k, uint64(k), position.MakePlace(bitboard.Square(g)), int16(g), int8(g), BoundExact)
				if e, ok := tab.Probe(k, uint64(k)); ok && (int(e.Move.To()) != int(e.Value) || int(e.Depth) != int(e.Value)) {
					t.Errorf("inconsistent entry %+v", e)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func BenchmarkProbe(b *testing.B) {
	tab := newTable(b, 64)
	for i := 0; i < 1<<20; i++ {
		tab.Store(uint32(i)*2654435761, uint64(uint32(i)*2654435761), position.NoMove, 1, 1, BoundExact)
	}
	b.ResetTimer()
	var hits int
	for i := 0; i < b.N; i++ {
		if _, ok := tab.Probe(uint32(i)*2654435761, uint64(uint32(i)*2654435761)); ok {
			hits++
		}
	}
	_ = hits
}

// A table the machine cannot supply is refused; the table keeps its size and
// its entries.
func TestResizeBeyondMemory(t *testing.T) {
	tab := newTable(t, 1)
	tab.Store(12345, uint64(12345), position.MakePlace(3), 77, 5, BoundExact)
	const huge = 1 << 30 // a petabyte
	err := tab.Resize(huge)
	if err == nil || !strings.HasPrefix(err.Error(), "1073741824 MB is more than the memory available (") {
		t.Fatalf("Resize(%d MB): %v", huge, err)
	}
	if tab.SizeMB() != 1 {
		t.Fatalf("size %d MB after a refused resize", tab.SizeMB())
	}
	if e, ok := tab.Probe(12345, uint64(12345)); !ok || e.Value != 77 {
		t.Fatalf("the entries were lost: %+v %t", e, ok)
	}
	if err := CheckSize(2, 1); err != nil {
		t.Fatalf("CheckSize(2 MB): %v", err)
	}
	if _, err := New(huge); err == nil || tab == nil {
		t.Fatalf("New(%d MB): %v", huge, err)
	}
}

// BenchmarkResizeStall measures how long the rest of the process can be held
// up while a 1 GB table is allocated: a goroutine that allocates and sleeps
// 1 ms in a loop (as the protocol loop and the runtime do) reports its
// longest gap as worst-gap-ms. One b.N step is one resize from 64 MB.
func BenchmarkResizeStall(b *testing.B) {
	var worst time.Duration
	for b.Loop() {
		b.StopTimer()
		t, err := New(64)
		if err != nil {
			b.Fatal(err)
		}
		stop, gap := make(chan struct{}), make(chan time.Duration)
		go func() {
			var w time.Duration
			var keep [][]byte
			last := time.Now()
			for {
				select {
				case <-stop:
					gap <- w
					return
				default:
				}
				keep = append(keep, make([]byte, 64<<10))
				if len(keep) > 256 {
					keep = keep[:0]
				}
				time.Sleep(time.Millisecond)
				now := time.Now()
				w = max(w, now.Sub(last))
				last = now
			}
		}()
		time.Sleep(10 * time.Millisecond)
		b.StartTimer()
		if err := t.Resize(1024); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		close(stop)
		worst = max(worst, <-gap)
		if err := t.Resize(1); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-gap-ms")
}

// Two positions whose keys are equal (all 32 bits, so every bucket bit
// agrees) are told apart by their signatures: the entry of one is never
// the other's.
func TestSameKeyOtherPosition(t *testing.T) {
	tab, _ := New(1)
	const key = 0x12345678
	a, b := uint64(0x0000_0001_0000_0007), uint64(0x0000_0001_0000_000b)
	tab.Store(key, a, position.MakePlace(1), 40, 6, BoundExact)
	if _, ok := tab.Probe(key, b); ok {
		t.Fatal("the entry of another position with the same key was taken")
	}
	tab.Store(key, b, position.MakePlace(2), -40, 6, BoundExact)
	ea, oka := tab.Probe(key, a)
	eb, okb := tab.Probe(key, b)
	if !oka || !okb || ea.Value != 40 || eb.Value != -40 {
		t.Fatalf("a %+v %t, b %+v %t", ea, oka, eb, okb)
	}
}
