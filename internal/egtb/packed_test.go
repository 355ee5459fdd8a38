package egtb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/millengine/millengine/internal/rules"
)

var (
	packOnce sync.Once
	packDir  string
	packErr  error
)

// needsSevenPieces skips a test that reads the game's tables of 7 pieces
// (3v4, 4v3 and the 16 placing sectors) where the run builds them to 6 only:
// under the race detector, where 3v4 and 4v3 take minutes. make test runs
// these tests again without it.
func needsSevenPieces(t *testing.T) {
	t.Helper()
	if gamePieces < 7 {
		t.Skip("reads the tables of 7 pieces, which the run under the race detector does not build (make test runs it without)")
	}
}

// packedGame packs the game's tables up to 7 pieces (gameTables: 3v3, 3v4
// and 4v3 with their DTM and DTZ tables, 16 placing sectors) once for the
// run, in 4 KB blocks, and returns the plain and the packed directories.
func packedGame(t *testing.T) (plain, packed string) {
	t.Helper()
	plain = gameTables(t).Dir()
	packOnce.Do(func() {
		if packDir, packErr = os.MkdirTemp("", "egtb-packed"); packErr != nil {
			return
		}
		packErr = PackDir(context.Background(), plain, packDir, PackOptions{Threads: 2}, func(PackReport) {})
	})
	if packErr != nil {
		t.Fatal(packErr)
	}
	return plain, packDir
}

// tablesOf lists every table of a Tables with its sector and metric.
func tablesOf(tb *Tables) map[string]*table {
	out := map[string]*table{}
	for _, s := range tb.Sectors() {
		for _, m := range []Metric{DTM, DTZ, WDL} {
			if (m == WDL) != s.Placing() {
				continue
			}
			if x := *tb.slotOf(s, m); x != nil {
				out[fileName(tb.params, s, m)] = x
			}
		}
	}
	return out
}

// Every file packs and unpacks to itself, byte for byte; a second pack or
// unpack keeps the files there.
func TestPackUnpackRoundTrip(t *testing.T) {
	needsSevenPieces(t)
	plain, packed := packedGame(t)
	back := t.TempDir()
	var reps []PackReport
	if err := UnpackDir(context.Background(), packed, back, func(r PackReport) { reps = append(reps, r) }); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(plain, "*.egtb"))
	if len(files) != 22 || len(reps) != 22 {
		t.Fatalf("%d plain files, %d unpacked, want 22 (3 sectors' DTM and DTZ, 16 placing)", len(files), len(reps))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(back, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: unpacked differs (%v)", filepath.Base(f), err)
		}
		if _, err := os.Stat(filepath.Join(packed, packedName(filepath.Base(f)))); err != nil {
			t.Error(err)
		}
	}
	reps = nil
	if err := PackDir(context.Background(), plain, packed, PackOptions{}, func(r PackReport) { reps = append(reps, r) }); err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if !r.Existing {
			t.Errorf("%s packed again", r.Dst)
		}
	}
	// The 3v3 DTM table: 210140 slots in 52 blocks of 4 KB.
	pk := packedTable(t, packed, SectorSpec{M: 3, O: 3}, DTM)
	if pk.hdr.blocks != 52 || pk.hdr.blockSize != 4096 {
		t.Errorf("3v3: %d blocks of %d", pk.hdr.blocks, pk.hdr.blockSize)
	}
}

// packedTable opens one packed table of dir with its Tables.
func packedTable(t *testing.T, dir string, s SectorSpec, m Metric) *packed {
	t.Helper()
	tb, err := OpenParams(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	x := *tb.slotOf(s, m)
	if x == nil || x.pk == nil || x.usable() == nil {
		t.Fatalf("%s %s: no packed table in %s", s, m, dir)
	}
	return x.pk
}

// Every used slot of every packed table answers what the plain table holds,
// through a cache of a few blocks (evictions at every turn), and the
// probes of whole positions agree.
func TestPackedProbesEveryEntry(t *testing.T) {
	needsSevenPieces(t)
	plainDir, packedDir := packedGame(t)
	old := PackedCacheBytes
	PackedCacheBytes = 8 * PackSegmentSize // two sets of four ways of ranked segments
	defer func() { PackedCacheBytes = old }()
	pl, err := OpenParams(plainDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	pk, err := OpenParams(packedDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer pk.Close()
	if c := pk.caches[8]; len(pk.caches) != 1 || c == nil || len(c.sets) != 2 {
		t.Fatalf("caches %v", pk.caches)
	}
	plainTabs, packedTabs := tablesOf(pl), tablesOf(pk)
	if len(plainTabs) != 22 || len(packedTabs) != 22 {
		t.Fatalf("%d plain tables, %d packed", len(plainTabs), len(packedTabs))
	}
	checked := 0
	for name, a := range plainTabs {
		b := packedTabs[name]
		if b == nil || b.pk == nil || b.usable() == nil {
			t.Fatalf("%s: not packed", name)
		}
		sec := a.sec
		for i := uint32(0); i < sec.size; i++ {
			mover, other := sec.decode(i)
			if !sec.used(mover, other) {
				continue
			}
			checked++
			if a.hdr.metric == WDL {
				x, _ := a.code(i)
				y, ok := b.code(i)
				if !ok || x != y {
					t.Fatalf("%s slot %d: packed %d %t, plain %d", name, i, y, ok, x)
				}
				continue
			}
			x, _ := a.get(mover, other)
			y, ok := b.get(mover, other)
			if !ok || x != y {
				t.Fatalf("%s slot %d: packed %s %t, plain %s", name, i, y, ok, x)
			}
		}
	}
	if checked < 1_000_000 {
		t.Errorf("%d entries checked", checked)
	}
	if d := pk.Damaged(); len(d) != 0 {
		t.Errorf("damaged %v", d)
	}
	r := rules.Default()
	for _, p := range randomPositions(t, 300) {
		x, ok1 := pl.Lookup(&r, &p)
		y, ok2 := pk.Lookup(&r, &p)
		if x != y || ok1 != ok2 || !ok1 {
			t.Errorf("%s: packed %+v %t, plain %+v %t", p.FEN(), y, ok2, x, ok1)
		}
	}
	if !strings.Contains(pk.Coverage(), "and 16 of 449 placing sectors") {
		t.Errorf("coverage %q", pk.Coverage())
	}
}

// A probe that hits the cache allocates nothing; probes from several
// goroutines at once (each missing and evicting) all answer right.
func TestPackedProbeAllocsAndConcurrency(t *testing.T) {
	_, packedDir := packedGame(t)
	old := PackedCacheBytes
	PackedCacheBytes = 16 * PackBlockSize
	defer func() { PackedCacheBytes = old }()
	plain := sharedTables(t)
	pk, err := OpenParams(packedDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer pk.Close()
	r := rules.Default()
	ps := randomPositions(t, 200)
	want := make([]Value, len(ps))
	for i := range ps {
		want[i], _ = plain.Probe(&r, &ps[i])
	}
	for i := range 10 {
		pk.Probe(&r, &ps[i])
		if a := testing.AllocsPerRun(50, func() { pk.Probe(&r, &ps[i]) }); a != 0 {
			t.Errorf("%s: %.1f allocations per probe", ps[i].FEN(), a)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 2000 {
				i := (k*7 + g*13) % len(ps)
				if v, ok := pk.Probe(&r, &ps[i]); !ok || v != want[i] {
					t.Errorf("concurrent probe of %s: %s %t, want %s", ps[i].FEN(), v, ok, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// copyDir copies the files of src into a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// damageBlock edits a packed file in dir: edit gets the file, the offset of
// block blk's compressed bytes and of its checksum in the index.
func damageBlock(t *testing.T, path string, blk uint64, edit func(b []byte, data, crc int)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := binary.LittleEndian.Uint64(b[headerSize+16:])
	idx := packedDataStart
	model := int(binary.LittleEndian.Uint32(b[headerSize+40:])) // the ranked codec's
	data := idx + int(indexSize(blocks)) + model + int(binary.LittleEndian.Uint64(b[idx+8*int(blk):]))
	edit(b, data, idx+8*int(blocks+1)+4*int(blk))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// reindex recomputes a packed file's index checksum and header checksum.
func reindex(b []byte) {
	ph := b[headerSize:packedDataStart]
	n := binary.LittleEndian.Uint64(ph[16:])
	idx := b[packedDataStart : packedDataStart+int(indexSize(n))]
	binary.LittleEndian.PutUint32(ph[32:], crc32.Checksum(idx, castagnoli))
	binary.LittleEndian.PutUint32(ph[60:], crc32.Checksum(ph[:60], castagnoli))
}

// A damaged block is refused with an error naming the file and the block:
// its positions are unknown, the table's other blocks answer, Damaged lists
// it once; OpenChecked (stats) refuses the file, and unpack too.
func TestPackedDamagedBlock(t *testing.T) {
	plainDir, packedDir := packedGame(t)
	dir := copyDir(t, packedDir)
	s := SectorSpec{M: 3, O: 3}
	path := filepath.Join(dir, packedName(FileName(Standard, s)))
	const blk = 17 // slots 69632–73727
	var stored, computed uint32
	damageBlock(t, path, blk, func(b []byte, data, crc int) {
		stored = binary.LittleEndian.Uint32(b[crc:])
		computed = stored // the ranked codec's checksum is of the block as stored
		stored ^= 0x00100000
		binary.LittleEndian.PutUint32(b[crc:], stored)
		reindex(b)
	})
	pl, err := OpenParams(plainDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	tb, err := OpenParams(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	plainTab, packedTab := *pl.slotOf(s, DTM), *tb.slotOf(s, DTM)
	var inBlock, outside int
	for i := uint32(0); i < packedTab.sec.size; i++ {
		mover, other := packedTab.sec.decode(i)
		if !packedTab.sec.used(mover, other) {
			continue
		}
		v, ok := packedTab.usable().get(mover, other)
		want, _ := plainTab.get(mover, other)
		switch {
		case i/4096 == blk && ok:
			t.Fatalf("slot %d of the damaged block answered %s", i, v)
		case i/4096 == blk:
			inBlock++
		case !ok || v != want:
			t.Fatalf("slot %d: %s %t, want %s", i, v, ok, want)
		default:
			outside++
		}
	}
	if inBlock == 0 || outside < 150_000 {
		t.Errorf("%d positions in the block, %d outside", inBlock, outside)
	}
	want := fmt.Sprintf("endgame table %s: block 17 of 52 (slots 69632–73727): checksum mismatch (stored %08x, computed %08x); "+
		"its positions are unknown, the table's other blocks are used", path, stored, computed)
	d := tb.Damaged()
	if len(d) != 1 || d[0].Error() != want {
		t.Fatalf("Damaged %q,\nwant %q", d, want)
	}
	var fe *FileError
	if !errors.As(d[0], &fe) || fe.Path != path || !errors.Is(d[0], ErrDamaged) {
		t.Errorf("not a *FileError of %s: %#v", path, d[0])
	}
	if !tb.Has(s) {
		t.Error("the sector is gone")
	}
	wantFile := fmt.Sprintf("endgame table %s: block 17 of 52 (slots 69632–73727): checksum mismatch (stored %08x, computed %08x)", path, stored, computed)
	if _, err := OpenChecked(dir, Standard); err == nil || err.Error() != wantFile {
		t.Errorf("OpenChecked: %v,\nwant %s", err, wantFile)
	}
	if err := UnpackFile(path, filepath.Join(t.TempDir(), "x.egtb")); err == nil || err.Error() != wantFile {
		t.Errorf("unpack: %v", err)
	}
}

// Compressed bytes damaged: the block does not decode, or decodes to data
// its checksum refuses; either way only that block is lost. A WDL table's
// damaged block names the slots it holds (four a byte).
func TestPackedDamagedData(t *testing.T) {
	needsSevenPieces(t)
	_, packedDir := packedGame(t)
	dir := copyDir(t, packedDir)
	for _, c := range []struct {
		s      SectorSpec
		m      Metric
		blk    uint64
		prefix string
	}{
		{SectorSpec{M: 3, O: 4}, DTZ, 3, "block 3 of 231 (slots 12288–16383): "},
		{SectorSpec{M: 3, O: 3, MF: 1, OF: 0}, WDL, 2, "block 2 of 13 (slots 32768–49151): "},
	} {
		path := filepath.Join(dir, packedName(fileName(Standard, c.s, c.m)))
		damageBlock(t, path, c.blk, func(b []byte, data, crc int) { b[data+5] ^= 0x5A })
		tb, err := OpenParams(dir, Standard)
		if err != nil {
			t.Fatal(err)
		}
		x := *tb.slotOf(c.s, c.m)
		sec := x.sec
		lo := uint32(c.blk) * 4096
		if c.m == WDL {
			lo *= 4
		}
		for i := lo; i < min(sec.size, lo+4096); i++ {
			mover, other := sec.decode(i)
			if !sec.used(mover, other) {
				continue
			}
			var ok bool
			if c.m == WDL {
				_, ok = x.usable().code(i)
			} else {
				_, ok = x.usable().get(mover, other)
			}
			if ok {
				t.Errorf("%s: slot %d of the damaged block answered", c.s, i)
			}
			break
		}
		d := tb.Damaged()
		if len(d) != 1 || !strings.HasPrefix(d[0].Error(), "endgame table "+path+": "+c.prefix) ||
			!(strings.Contains(d[0].Error(), "cannot be decoded") || strings.Contains(d[0].Error(), "checksum mismatch") || strings.Contains(d[0].Error(), "decodes to")) {
			t.Errorf("Damaged %q", d)
		}
		tb.Close()
	}
}

// The index and headers are checked: at the table's first use (the engine
// reads no data at open), or at open for OpenChecked.
func TestPackedDamagedIndex(t *testing.T) {
	_, packedDir := packedGame(t)
	s := SectorSpec{M: 3, O: 3}
	name := packedName(FileName(Standard, s))
	for _, c := range []struct {
		what   string
		edit   func(b []byte) []byte
		atOpen bool
		reason string
	}{
		{"index checksum", func(b []byte) []byte { b[packedDataStart+20] ^= 1; return b }, false, "index checksum mismatch (stored"},
		{"offsets out of order", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[packedDataStart+16:], 1<<40)
			reindex(b)
			return b
		}, false, "index: block 1 spans"},
		{"packed header", func(b []byte) []byte { b[headerSize+20] ^= 1; return b }, true, "packed header checksum mismatch"},
		{"packed magic", func(b []byte) []byte { copy(b[headerSize:], "MILLPACX"); return b }, true, `bad packed magic "MILLPACX"`},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, true, "truncated: "},
		{"plain header", func(b []byte) []byte { b[40] ^= 1; return b }, true, "header checksum mismatch"},
	} {
		dir := t.TempDir()
		b, err := os.ReadFile(filepath.Join(packedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, c.edit(b), 0o644); err != nil {
			t.Fatal(err)
		}
		tb, err := OpenParams(dir, Standard)
		if err != nil {
			t.Fatal(err)
		}
		if d := tb.Damaged(); c.atOpen != (len(d) == 1) {
			t.Errorf("%s: damaged at open %q", c.what, d)
		}
		if v, ok := tb.ProbeSets(0b111, 0b111<<8); ok {
			t.Errorf("%s: probed %s", c.what, v)
		}
		if d := tb.Damaged(); len(d) != 1 || !strings.Contains(d[0].Error(), path+": "+c.reason) {
			t.Errorf("%s: Damaged %q", c.what, d)
		}
		tb.Close()
		if _, err := OpenChecked(dir, Standard); err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: OpenChecked %v", c.what, err)
		}
	}
}

// A directory may hold both forms of a table: the plain file is used, and
// Coverage says the packed one was left out.
func TestPackedBesidePlain(t *testing.T) {
	_, packedDir := packedGame(t)
	dir := t.TempDir()
	copyShared(t, dir)
	name := packedName(FileName(Standard, SectorSpec{M: 3, O: 3}))
	b, err := os.ReadFile(filepath.Join(packedDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := OpenParams(dir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	x := *tb.slotOf(SectorSpec{M: 3, O: 3}, DTM)
	if x.pk != nil || !strings.HasSuffix(x.path, ".egtb") {
		t.Errorf("the packed file is used: %s", x.path)
	}
	if c := tb.Coverage(); !strings.HasSuffix(c, "(1 packed file left out beside the plain file of the same table, which is used)") {
		t.Errorf("coverage %q", c)
	}
}

// Verify passes on the packed tables (OpenChecked decodes each whole, its
// unused slots given back, so that the check "a slot is unused exactly when
// it holds 0xFF (code 3)" reads what the plain file holds), with the
// header's counts.
func TestPackedVerify(t *testing.T) {
	needsSevenPieces(t)
	plainDir, packedDir := packedGame(t)
	var n int
	var bad []string
	j, err := OpenJournal(filepath.Join(t.TempDir(), "verify.journal"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	_, err = VerifyDir(context.Background(), packedDir, []Params{Standard}, nil, VerifyOptions{Threads: 2, Limit: 3}, func(r VerifyReport) {
		n++
		if !r.OK() {
			bad = append(bad, fmt.Sprintf("%s %s: %+v", r.Spec, r.Metric, r.Result))
		}
		if err := j.Add(r); err != nil {
			t.Error(err)
		}
	})
	if err != nil || n != 22 || len(bad) > 0 {
		t.Fatalf("verify: %v, %d tables, bad %v", err, n, bad)
	}
	// By the journal: the plain set and the packed one are the same data,
	// each table read (a packed one decoded) and skipped; a copy with a
	// damaged table is refused, not skipped.
	damagedPacked := copyDir(t, packedDir)
	damageBlock(t, filepath.Join(damagedPacked, packedName(FileName(Standard, SectorSpec{M: 3, O: 4}))), 3, func(b []byte, data, crc int) { b[data+5] ^= 0x5A })
	damagedPlain := copyDir(t, plainDir)
	plain4v3 := filepath.Join(damagedPlain, FileName(Standard, SectorSpec{M: 4, O: 3}))
	raw, err := os.ReadFile(plain4v3)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-100] ^= 0x01
	if err := os.WriteFile(plain4v3, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, fails string }{
		{packedDir, ""}, {plainDir, ""},
		{damagedPacked, packedName(FileName(Standard, SectorSpec{M: 3, O: 4})) + ": block 3 of "},
		{damagedPlain, FileName(Standard, SectorSpec{M: 4, O: 3}) + ": data checksum mismatch"},
	} {
		skipped := 0
		_, err := VerifyDir(context.Background(), c.dir, []Params{Standard}, nil, VerifyOptions{Threads: 2, Skip: j.Has}, func(r VerifyReport) {
			if r.Skipped {
				skipped++
			} else {
				t.Errorf("%s %s: checked, not skipped", r.Spec, r.Metric)
			}
		})
		switch {
		case c.fails == "" && (err != nil || skipped != 22):
			t.Errorf("%s by the journal: %v, %d skipped", c.dir, err, skipped)
		case c.fails != "" && (err == nil || !strings.Contains(err.Error(), c.fails)):
			t.Errorf("%s by the journal: %v, want %q", c.dir, err, c.fails)
		}
	}
	tb, err := OpenChecked(packedDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pl := gameTables(t)
	for _, s := range tb.Sectors() {
		for _, m := range verifyMetrics(s) {
			a, b := tb.SectorStatsOf(s, m), pl.SectorStatsOf(s, m)
			info, _ := tb.InfoOf(s, m)
			if a != b || !strings.HasSuffix(info.Path, packedExtension) {
				t.Errorf("%s %s: stats %+v, plain %+v (%s)", s, m, a, b, info.Path)
			}
		}
	}
}

// FuzzOpenPacked feeds damaged packed files to the parser, the index check
// and the decoding of every block: they never panic, and whatever they
// accept decodes to the plain data.
func FuzzOpenPacked(f *testing.F) {
	plain := file3v3(f)
	dir := f.TempDir()
	src := filepath.Join(dir, FileName(Standard, SectorSpec{M: 3, O: 3}))
	if err := os.WriteFile(src, plain, 0o644); err != nil {
		f.Fatal(err)
	}
	dst := filepath.Join(dir, packedName(filepath.Base(src)))
	if _, err := PackFile(src, dst, PackOptions{Threads: 1, BlockSize: 64 << 10}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(dst)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := PackFile(src, dst, PackOptions{Threads: 1, BlockSize: 16 << 10, Codec: "s2"}); err != nil {
		f.Fatal(err)
	}
	goodS2, err := os.ReadFile(dst)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), byte(0), uint32(0))
	f.Add(uint32(headerSize+12), byte(1), uint32(0))
	f.Add(uint32(packedDataStart+9), byte(0x80), uint32(0))
	f.Add(uint32(packedDataStart+100), byte(3), uint32(10))
	f.Add(uint32(len(good)-3), byte(0xFF), uint32(0))
	f.Fuzz(func(t *testing.T, pos uint32, flip byte, cut uint32) {
		b := bytes.Clone(good)
		if cut%8 >= 4 {
			b = bytes.Clone(goodS2)
		}
		b[int(pos)%len(b)] ^= flip
		if cut%4 == 1 {
			b = b[:len(b)-int(cut)%len(b)]
		}
		if at := int(pos) % len(b); flip != 0 && cut%4 == 2 && at >= packedDataStart {
			reindex(b) // damage to the index or data that the index's checksum does not catch
		}
		pk, err := openPackedFile("fuzz.egtbz", b, Standard, SectorSpec{M: 3, O: 3}, DTM)
		if err != nil {
			return
		}
		if err := pk.checkIndex(); err != nil {
			return
		}
		if err := pk.check(); err != nil {
			return
		}
		var got []byte
		if err := pk.scan(func(lo uint64, p []byte) { got = append(got, p...) }); err != nil || !bytes.Equal(got, plain[headerSize:]) {
			t.Fatalf("accepted a file that does not decode to the plain data (%v)", err)
		}
	})
}

// Build reads the tables it needs in their packed form: 3v4 and 4v3 solved
// from a packed 3v3 are the plain build's, byte for byte.
func TestBuildFromPackedNeeds(t *testing.T) {
	needsSevenPieces(t)
	plainDir, packedDir := packedGame(t)
	dir := t.TempDir()
	for _, m := range []Metric{DTM, DTZ} {
		name := packedName(fileName(Standard, SectorSpec{M: 3, O: 3}, m))
		b, err := os.ReadFile(filepath.Join(packedDir, name))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var built []string
	tb, err := Build(context.Background(), BuildOptions{Dir: dir, Params: Standard, MaxPieces: 7, Threads: 2, CheckpointEvery: -1},
		func(r SectorReport) {
			if !r.Existing {
				built = append(built, r.Spec.String()+" "+r.Metric.String())
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	tb.Close()
	if got := strings.Join(built, ", "); got != "3v4 dtm, 4v3 dtm, 3v4 dtz, 4v3 dtz" {
		t.Errorf("built %s", got)
	}
	for _, s := range []SectorSpec{{M: 3, O: 4}, {M: 4, O: 3}} {
		for _, m := range []Metric{DTM, DTZ} {
			got, err1 := os.ReadFile(filepath.Join(dir, fileName(Standard, s, m)))
			want, err2 := os.ReadFile(filepath.Join(plainDir, fileName(Standard, s, m)))
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s %s: differs from the plain build (%v %v)", s, m, err1, err2)
			}
		}
	}
}

// Every codec packs, probes and unpacks alike: S2 and zstd against the
// default, ranked (segments of 256 bytes); an unknown codec is refused.
func TestPackCodecs(t *testing.T) {
	needsSevenPieces(t)
	plain, _ := packedGame(t)
	pl := packedTable(t, packDir, SectorSpec{M: 3, O: 4}, DTZ)
	if pl.hdr.codec != codecRanked || pl.hdr.segShift != 8 || pl.model.scale != packScale {
		t.Fatalf("the default codec %d, segments of 2^%d, model scale %d", pl.hdr.codec, pl.hdr.segShift, pl.model.scale)
	}
	for _, c := range []struct {
		name  string
		codec byte
	}{{"s2", codecS2}, {"zstd", codecZstd}} {
		dir, back := t.TempDir(), t.TempDir()
		if err := PackDir(context.Background(), plain, dir, PackOptions{Threads: 2, Codec: c.name}, func(PackReport) {}); err != nil {
			t.Fatal(err)
		}
		if err := UnpackDir(context.Background(), dir, back, func(PackReport) {}); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(plain, "*.egtb"))
		for _, f := range files {
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join(back, filepath.Base(f)))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s %s: unpacked differs (%v)", c.name, filepath.Base(f), err)
			}
		}
		pk := packedTable(t, dir, SectorSpec{M: 3, O: 4}, DTZ)
		if pk.hdr.codec != c.codec {
			t.Fatalf("%s: codec %d", c.name, pk.hdr.codec)
		}
		sec := pk.sec
		for i := uint32(0); i < sec.size; i += 7 {
			if mover, other := sec.decode(i); sec.used(mover, other) {
				a, ok1 := pk.byteAt(uint64(i))
				b, ok2 := pl.byteAt(uint64(i))
				if a != b || !ok1 || !ok2 {
					t.Fatalf("slot %d: %s %d %t, ranked %d %t", i, c.name, a, ok1, b, ok2)
				}
			}
		}
	}
	if _, err := PackFile(filepath.Join(plain, fileName(Standard, SectorSpec{M: 3, O: 4}, DTZ)), filepath.Join(t.TempDir(), "x.egtbz"), PackOptions{Codec: "lz4"}); err == nil || err.Error() != `egtb pack: codec "lz4" (ranked, zstd or s2)` {
		t.Errorf("codec lz4: %v", err)
	}
}
