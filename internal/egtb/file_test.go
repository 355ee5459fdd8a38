package egtb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// file3v3 returns the bytes of the shared standard 3v3 file.
func file3v3(t testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join(sharedDir(t), FileName(Standard, SectorSpec{M: 3, O: 3})))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resign recomputes the header checksum after a header edit.
func resign(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[124:], crc32.Checksum(b[:124], castagnoli))
	return b
}

// OpenChecked refuses every kind of damage with an error that names the file
// and the fault; Open leaves the damaged file out with the same error in
// Damaged (a damaged data byte at the sector's first use), and never uses
// it.
func TestOpenRefusesDamagedFiles(t *testing.T) {
	good := file3v3(t)
	name := FileName(Standard, SectorSpec{M: 3, O: 3})
	diag := Params{Diagonal: true, Fly: 3, MinPieces: 3}
	tests := []struct {
		name   string
		file   string // the file name (default: the standard 3v3)
		edit   func([]byte) []byte
		reason string
	}{
		{"flipped data byte", "", func(b []byte) []byte { b[headerSize+1000] ^= 0x04; return b }, "data checksum mismatch"},
		{"flipped header byte", "", func(b []byte) []byte { b[40] ^= 0x01; return b }, "header checksum mismatch"},
		{"truncated data", "", func(b []byte) []byte { return b[:len(b)-1] }, "truncated: 210267 bytes, want 210268"},
		{"extra byte", "", func(b []byte) []byte { return append(b, 0) }, "too long"},
		{"truncated header", "", func(b []byte) []byte { return b[:100] }, "truncated: 100 bytes, shorter than the 128-byte header"},
		{"empty", "", func(b []byte) []byte { return nil }, "truncated: 0 bytes"},
		{"wrong magic", "", func(b []byte) []byte { copy(b, "MILLEGTC"); return b }, "bad magic"},
		{"future version", "", func(b []byte) []byte { b[8] = 2; return resign(b) }, "format version 2"},
		{"other index scheme", "", func(b []byte) []byte { b[10] = 7; return resign(b) }, "index scheme 7"},
		{"wrong entry count", "", func(b []byte) []byte { b[32]++; return resign(b) }, "entry count 210141, want 210140"},
		{"wrong used count", "", func(b []byte) []byte { b[40]++; return resign(b) }, "used slots 169627, the data has 169626"},
		{"other rules", "", func(b []byte) []byte { b[16] = 1; return resign(b) }, "solved under other rules (diag-fly3-min3), its name says plain-fly3-min3"},
		{"renamed to other rules", FileName(diag, SectorSpec{M: 3, O: 3}), nil, "solved under other rules (plain-fly3-min3), its name says diag-fly3-min3"},
		{"renamed to other sector", FileName(Standard, SectorSpec{M: 4, O: 4}), nil, "holds sector 3v3, its name says 4v4"},
		{"stalemate action", "", func(b []byte) []byte { b[22] = 2; return resign(b) }, "StalemateAction 2"},
		{"reserved byte", "", func(b []byte) []byte { b[100] = 1; return resign(b) }, "reserved header byte 100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b := good
			if tc.edit != nil {
				b = tc.edit(bytes.Clone(good))
			}
			fn := name
			if tc.file != "" {
				fn = tc.file
			}
			path := filepath.Join(dir, fn)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			p, spec, _ := ParseFileName(fn)
			check := func(err error) {
				t.Helper()
				var fe *FileError
				if !errors.As(err, &fe) || !errors.Is(err, ErrDamaged) || fe.Path != path {
					t.Fatalf("error %v (%T), want a FileError for %s", err, err, path)
				}
				if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.reason) {
					t.Fatalf("error %q does not name %s and %q", err, path, tc.reason)
				}
			}
			tb, err := OpenChecked(dir, p)
			if err == nil {
				tb.Close()
				t.Fatalf("OpenChecked opened a damaged file")
			}
			check(err)
			// Open through the rules leaves it out and says why.
			r := p.Rules()
			tb, err = Open(dir, &r)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer tb.Close()
			if d := tb.Damaged(); len(d) == 0 {
				// A damaged data byte: found at the sector's first use.
				if _, ok := tb.ProbeSets(0b111, 0b111<<8); ok {
					t.Fatalf("a damaged sector %s answered", spec)
				}
			}
			if d := tb.Damaged(); len(d) != 1 {
				t.Fatalf("Damaged %v, want the file", d)
			} else {
				check(d[0])
			}
			if len(tb.Sectors()) != 0 {
				t.Fatalf("sectors %v of a damaged file", tb.Sectors())
			}
		})
	}
	// The good file opens; a missing directory or an empty one is no error.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), good, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenParams(dir, Standard)
	if err != nil || !tb.Has(SectorSpec{M: 3, O: 3}) || len(tb.Sectors()) != 1 {
		t.Fatalf("the good file: %v", err)
	}
	tb.Close()
	for _, d := range []string{filepath.Join(dir, "missing"), t.TempDir()} {
		tb, err := OpenParams(d, Standard)
		if err != nil || len(tb.Sectors()) != 0 {
			t.Fatalf("%s: %v", d, err)
		}
	}
}

// Probing under rules whose parameters differ from the tables' gives
// unknown, and Why says why.
func TestProbeOtherRules(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName(Standard, SectorSpec{M: 3, O: 3})), file3v3(t), 0o644); err != nil {
		t.Fatal(err)
	}
	std := rules.Default()
	tb, err := Open(dir, &std)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	fen := "O*O*****/@@@*****/O******* w m s 3 0 3 0 0 0 0 0 0 0 0 0 40"
	for _, tc := range []struct {
		variant string
		edit    func(*rules.Rules)
		ok      bool
		why     string
	}{
		{"nine-mens-morris", nil, true, ""},
		{"lasker-morris", nil, true, ""}, // same moving phase
		{"nine-mens-morris", func(r *rules.Rules) { r.NMoveRule = 50 }, true, ""},
		{"twelve-mens-morris", nil, false, "the tables were opened for plain-fly3-min3, these rules need diag-fly3-min3"},
		{"cheng-san-qi", nil, false, "these rules need plain-nofly-min3"},
		{"russian-mill", nil, false, "OneTimeUseMill depends on the game's history"},
		{"zhi-qi", nil, false, "StalemateAction 2"},
		{"nine-mens-morris", func(r *rules.Rules) { r.MayRemoveFromMillsAlways = true }, false, "plain-fly3-min3-anymill"},
	} {
		pr, _ := rules.PresetByName(tc.variant)
		r := pr.Rules
		if tc.edit != nil {
			tc.edit(&r)
		}
		p := testkit.Position(t, &r, fen)
		_, ok := tb.Probe(&r, &p)
		why := tb.Why(&r, &p)
		if ok != tc.ok || !strings.Contains(why, tc.why) || (tc.ok && why != "") {
			t.Errorf("%s: ok %t, why %q; want %t, %q", tc.variant, ok, why, tc.ok, tc.why)
		}
	}
	// Tables opened for rules that are not covered know nothing and say why.
	zq, _ := rules.PresetByName("zhi-qi")
	none, err := Open(dir, &zq.Rules)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := position.ParseFEN(&std, fen)
	if _, ok := none.Probe(&std, &p); ok || !strings.Contains(none.Why(&std, &p), "not covered") {
		t.Errorf("tables for zhi-qi: %q", none.Why(&std, &p))
	}
}

// FuzzOpen feeds damaged files to the header parser and the file check:
// they never panic, and whatever they accept re-encodes to the same header.
func FuzzOpen(f *testing.F) {
	good := file3v3(f)
	f.Add(good[:headerSize], uint16(0), byte(0))
	f.Add(good[:headerSize], uint16(40), byte(1))
	f.Add(resign(func() []byte { b := bytes.Clone(good[:headerSize]); b[24] = 7; b[25] = 3; return b }()), uint16(0), byte(0))
	f.Add(resign(func() []byte { b := bytes.Clone(good[:headerSize]); b[18] = 4; return b }()), uint16(0), byte(0))
	f.Add(resign(func() []byte { b := bytes.Clone(good[:headerSize]); b[19] = 9; return b }()), uint16(0), byte(0))
	f.Add([]byte("MILLEGTB"), uint16(3), byte(0xFF))
	f.Add([]byte{}, uint16(0), byte(0))
	f.Fuzz(func(t *testing.T, hdr []byte, pos uint16, flip byte) {
		if len(hdr) > 4*headerSize {
			return
		}
		hdr = bytes.Clone(hdr)
		if len(hdr) > 0 {
			hdr[int(pos)%len(hdr)] ^= flip
		}
		h, err := parseHeader(hdr)
		if err != nil {
			if len(hdr) >= headerSize && bytes.Equal(hdr[:headerSize], good[:headerSize]) {
				t.Fatalf("the good header was refused: %v", err)
			}
			return
		}
		if again := h.encode(); !bytes.Equal(again, hdr[:headerSize]) {
			t.Fatalf("accepted header re-encodes differently:\n%x\n%x", hdr[:headerSize], again)
		}
		// A whole file made of this header and the good data, checked as the
		// standard 3v3 file: accepted only if every field but the counts kept
		// for information (56–91) is the good file's.
		file := append(bytes.Clone(hdr[:headerSize]), good[headerSize:]...)
		if _, err := checkFile("fuzz.egtb", file, Standard, SectorSpec{M: 3, O: 3}, DTM, true); err == nil && !bytes.Equal(file[:56], good[:56]) {
			t.Fatalf("accepted a file that is not the good one:\n%x", file[:headerSize])
		}
	})
}

// Open reads no data (an engine must not read gigabytes to start): a small
// table damaged in its data is found at its first use and left out, the
// others still answer, and Damaged says why; a large one is not checked
// there at all. OpenChecked (stats), VerifyDir (at a table's first use) and
// Build check the data too.
func TestOpenChecksDataAtFirstUse(t *testing.T) {
	dir := t.TempDir()
	copyShared(t, dir)
	path := filepath.Join(dir, FileName(Standard, SectorSpec{M: 3, O: 3}))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-5] ^= 2
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mover, other := bb.Bitboard(0b111), bb.Bitboard(0b111<<8)
	tb, err := OpenParams(dir, Standard)
	if err != nil || !tb.Has(SectorSpec{M: 3, O: 3}) || len(tb.Damaged()) != 0 {
		t.Fatalf("Open: %v, damaged %v", err, tb.Damaged())
	}
	if v, ok := tb.ProbeSets(mover, other); ok {
		t.Fatalf("a damaged 3v3 answered %v", v)
	}
	if d := tb.Damaged(); len(d) != 1 || !strings.Contains(d[0].Error(), path+": data checksum mismatch") ||
		!strings.HasSuffix(d[0].Error(), "; this sector is not used") {
		t.Fatalf("Damaged %v", d)
	}
	tb.Close()

	old := lazyCheckBytes
	lazyCheckBytes = 1000 // 3v3 counts as large
	defer func() { lazyCheckBytes = old }()
	tb, err = OpenParams(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.ProbeSets(mover, other); !ok || len(tb.Damaged()) != 0 {
		t.Fatalf("a large table is not checked at its first use: %t, %v", ok, tb.Damaged())
	}
	tb.Close()
	if _, err := OpenChecked(dir, Standard); err == nil || !strings.Contains(err.Error(), "data checksum mismatch") {
		t.Fatalf("OpenChecked: %v", err)
	}
}

// egtb verify reads the tables it checks and those they lead to, not the
// whole set (14 GB for the whole game): a placing table damaged in its data
// does not stop a verify of 3v3, which never reads it, and stops one of its
// own sector with the file named.
func TestVerifyReadsOnlyItsTables(t *testing.T) {
	src := gameTables(t).Dir()
	dir := t.TempDir()
	placing := SectorSpec{M: 2, O: 3, MF: 1, OF: 0}
	for _, name := range []string{FileName(Standard, SectorSpec{M: 3, O: 3}), fileName(Standard, SectorSpec{M: 3, O: 3}, DTZ), fileName(Standard, placing, WDL)} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err == nil {
			if strings.Contains(name, "2_3_1_0") {
				b[len(b)-3] ^= 4
			}
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	verify := func(s SectorSpec) ([]string, error) {
		var got []string
		_, err := VerifyDir(context.Background(), dir, []Params{Standard}, []SectorSpec{s}, VerifyOptions{Threads: 2, Step: 7, Limit: 1}, func(r VerifyReport) {
			got = append(got, fmt.Sprintf("%s ok=%t", r.Label(), r.OK()))
		})
		return got, err
	}
	got, err := verify(SectorSpec{M: 3, O: 3})
	if err != nil || fmt.Sprint(got) != "[3v3 ok=true 3v3 dtz ok=true]" {
		t.Fatalf("verify 3v3: %v, %v", got, err)
	}
	path := filepath.Join(dir, fileName(Standard, placing, WDL))
	got, err = verify(placing)
	if len(got) != 0 || err == nil || !strings.Contains(err.Error(), path+": data checksum mismatch") {
		t.Fatalf("verify %s: %v, %v; want the data checksum mismatch of %s", placing, got, err, path)
	}
	// verify's tables read a plain table from a copy in huge pages (the
	// same bytes as the file), freed when they close; the engine's from
	// the file's mapping.
	for _, c := range []struct {
		mode   openMode
		copied bool
	}{{openOnUse, true}, {openLazy, false}} {
		if avail, ok := memory.Available(); c.copied && (!ok || avail < 2<<30) {
			continue // toHugePages keeps the mapping when memory is short
		}
		tb, err := openParams(dir, Standard, c.mode)
		if err != nil {
			t.Fatal(err)
		}
		x := tb.lookup(3, 3)
		raw, _ := os.ReadFile(filepath.Join(dir, FileName(Standard, SectorSpec{M: 3, O: 3})))
		if x == nil || (x.freeCopy != nil) != c.copied || !bytes.Equal(x.data, raw[headerSize:]) {
			t.Errorf("mode %d: table %v, copied %t, want %t", c.mode, x != nil, x != nil && x.freeCopy != nil, c.copied)
		}
		tb.Close()
		if x != nil && (x.freeCopy != nil || x.data != nil && c.copied) {
			t.Errorf("mode %d: the copy is kept after Close", c.mode)
		}
	}
}

// A damaged header costs only its own sector: Open leaves it out and says
// why, and the other sectors are used.
func TestOpenLeavesOutDamagedFile(t *testing.T) {
	tb0 := gameTables(t)
	dir := t.TempDir()
	for _, s := range []SectorSpec{{M: 3, O: 3}, {M: 2, O: 3, MF: 1, OF: 0}} {
		metric := DTM
		if s.Placing() {
			metric = WDL
		}
		name := fileName(Standard, s, metric)
		b, err := os.ReadFile(filepath.Join(tb0.Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		if s.Placing() {
			b = b[:len(b)-1] // truncated
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tb, err := OpenParams(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	d := tb.Damaged()
	if len(d) != 1 || !strings.Contains(d[0].Error(), "plain-fly3-min3-2_3_1_0.egtb: truncated") {
		t.Fatalf("Damaged %v", d)
	}
	if got := fmt.Sprint(tb.Sectors()); got != "[3v3]" {
		t.Errorf("sectors %s, want [3v3]", got)
	}
}

// A large table damaged in its data passes Build's open (by header) but not
// the check before a job reads it: Build removes it, solves it again first,
// and the job then runs on the good table.
func TestBuildDamagedNeed(t *testing.T) {
	p := Params{MinPieces: 3}
	ref := t.TempDir()
	buildTest(t, ref, p, 7)
	dir := t.TempDir()
	name := fileName(p, SectorSpec{M: 3, O: 3}, DTM)
	good, err := os.ReadFile(filepath.Join(ref, name))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(good)
	bad[len(bad)-3] ^= 8
	for _, f := range []struct {
		name string
		b    []byte
	}{{name, bad}, {fileName(p, SectorSpec{M: 3, O: 3}, DTZ), nil}} {
		b := f.b
		if b == nil {
			if b, err = os.ReadFile(filepath.Join(ref, f.name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := buildCheckBytes
	buildCheckBytes = 1000 // every table counts as large
	defer func() { buildCheckBytes = old }()
	var notes []string
	tb, err := Build(context.Background(), BuildOptions{Dir: dir, Params: p, MaxPieces: 7, Threads: 2, CheckpointEvery: -1,
		Warn: func(s string) { notes = append(notes, s) }}, func(SectorReport) {})
	if err != nil {
		t.Fatal(err)
	}
	tb.Close()
	if len(notes) != 1 || !strings.Contains(notes[0], name+": data checksum mismatch") || !strings.HasSuffix(notes[0], "; removed, solving it again") {
		t.Fatalf("notes %q", notes)
	}
	for _, s := range []SectorSpec{{M: 3, O: 3}, {M: 3, O: 4}, {M: 4, O: 3}} {
		for _, m := range []Metric{DTM, DTZ} {
			got, err1 := os.ReadFile(filepath.Join(dir, fileName(p, s, m)))
			want, err2 := os.ReadFile(filepath.Join(ref, fileName(p, s, m)))
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s %s: differs from the reference (%v %v)", s, m, err1, err2)
			}
		}
	}
}

// A WDL table's used slots are its two-bit entries other than codeUnused,
// whatever the data's length (usedSlots counts 32 at a time).
func TestUsedSlotsWDL(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 1000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		if n == 1000 {
			data[500], data[999] = 0xFF, 0xFF
		}
		var want uint64
		for _, b := range data {
			for k := 0; k < 8; k += 2 {
				if b>>k&3 != codeUnused {
					want++
				}
			}
		}
		if got := usedSlots(WDL, data, 4*uint64(n)); got != want {
			t.Errorf("%d bytes: %d used, want %d", n, got, want)
		}
	}
}

// BenchmarkCheckData times what a table's first use reads: the data
// checksum and the count of used slots of a 64 MB WDL table.
func BenchmarkCheckData(b *testing.B) {
	data := make([]byte, 64<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	b.Run("used", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			usedSlots(WDL, data, 4*uint64(len(data)))
		}
	})
	b.Run("crc", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			crc32.Checksum(data, castagnoli)
		}
	})
}
