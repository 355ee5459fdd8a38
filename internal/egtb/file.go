package egtb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// The file of one sector (little endian, 128-byte header, then one value byte
// per slot in slot order):
//
//	offset size  field
//	0      8     magic "MILLEGTB"
//	8      2     format version (1)
//	10     2     index scheme (1: canonical mover's set rank · C(24−m, o) + colex rank of the other's set)
//	12     2     header size (128)
//	14     2     reserved (0)
//	16     1     HasDiagonalLines (0/1)
//	17     1     MayFly (0/1)
//	18     1     flyPieceCount (0 when nobody flies)
//	19     1     PiecesAtLeastCount
//	20     1     MayRemoveFromMillsAlways (0/1)
//	21     1     MayRemoveMultiple (0/1)
//	22     1     StalemateAction (0)
//	23     1     metric: 0 distance to the end (DTM), 1 distance to zeroing (DTZ), 2 win/draw/loss (WDL)
//	24     1     m: pieces of the side to move on the board
//	25     1     o: pieces of the other side on the board
//	26     1     mf: pieces of the side to move in hand (WDL tables of the placing phase; else 0)
//	27     1     of: pieces of the other side in hand (likewise)
//	28     4     reserved (0)
//	32     8     slots (the entry count)
//	40     8     used slots
//	48     4     CRC-32C (Castagnoli) of the data
//	52     4     reserved (0)
//	56     8×4   positions, wins, draws, losses (raw, weighted by orbit size)
//	88     2     longest win (turns)
//	90     2     longest loss (turns)
//	92     32    reserved (0)
//	124    4     CRC-32C of bytes 0–123
//
// Values: 0 draw, 2d win d, 2d+1 loss d, 0xFF an unused slot. A DTZ file
// counts the turns to the next removal (or the end of the game) instead of
// the turns to the end, on the same slots, with the same win/draw/loss.
//
// A WDL file (the placing phase's sectors, see placing.go) holds two bits a
// slot, four slots a byte from the lowest bits up: 0 draw, 1 win, 2 loss, 3
// an unused slot (and the bits past the last slot). The placing phase is
// acyclic and every placement resets the N-move counter, so the result is
// all a placing position needs; the distances live in the moving phase's
// tables that its games lead to.

const (
	fileMagic     = "MILLEGTB"
	fileVersion   = 1
	indexScheme   = 1
	headerSize    = 128
	fileExtension = ".egtb"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Metric is what the distances of a table count.
type Metric uint8

// Metrics.
const (
	// DTM counts the turns to the end of the game: the winner takes the
	// shortest way, the loser the longest.
	DTM Metric = 0
	// DTZ counts the turns to the next removal (a capture, which resets the
	// N-move counter) or the end of the game, under the same roles. A win
	// can be converted under the N-move rule when its zeroing distance fits
	// what the counter leaves.
	DTZ Metric = 1
	// WDL keeps the result only (win, draw or loss), two bits a slot: the
	// tables of the placing phase.
	WDL Metric = 2
)

// String returns "dtm", "dtz" or "wdl".
func (m Metric) String() string {
	switch m {
	case DTZ:
		return "dtz"
	case WDL:
		return "wdl"
	}
	return "dtm"
}

// dataSize is the size in bytes of the data of a table of the metric with
// the given number of slots.
func (m Metric) dataSize(slots uint64) uint64 {
	if m == WDL {
		return (slots + 3) / 4
	}
	return slots
}

// header is the decoded header of a sector file.
type header struct {
	params Params
	metric Metric
	m, o   int
	mf, of int // pieces in hand (placing sectors)
	slots  uint64
	stored uint64
	crc    uint32
	stats  SolveStats
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (h *header) encode() []byte {
	buf := make([]byte, headerSize)
	copy(buf, fileMagic)
	le := binary.LittleEndian
	le.PutUint16(buf[8:], fileVersion)
	le.PutUint16(buf[10:], indexScheme)
	le.PutUint16(buf[12:], headerSize)
	p := h.params
	buf[16], buf[17], buf[18], buf[19] = b2u(p.Diagonal), b2u(p.Fly > 0), byte(p.Fly), byte(p.MinPieces)
	buf[20], buf[21], buf[22], buf[23] = b2u(p.RemoveFromMills), b2u(p.RemoveMultiple), 0, byte(h.metric)
	buf[24], buf[25], buf[26], buf[27] = byte(h.m), byte(h.o), byte(h.mf), byte(h.of)
	le.PutUint64(buf[32:], h.slots)
	le.PutUint64(buf[40:], h.stored)
	le.PutUint32(buf[48:], h.crc)
	le.PutUint64(buf[56:], h.stats.Positions)
	le.PutUint64(buf[64:], h.stats.Wins)
	le.PutUint64(buf[72:], h.stats.Draws)
	le.PutUint64(buf[80:], h.stats.Losses)
	le.PutUint16(buf[88:], uint16(h.stats.LongestWin))
	le.PutUint16(buf[90:], uint16(h.stats.LongestLoss))
	le.PutUint32(buf[124:], crc32.Checksum(buf[:124], castagnoli))
	return buf
}

// parseHeader decodes and checks a header on its own (not against a file
// name or the data).
func parseHeader(buf []byte) (header, error) {
	var h header
	if len(buf) < headerSize {
		return h, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(buf), headerSize)
	}
	if string(buf[:8]) != fileMagic {
		return h, fmt.Errorf("bad magic %q (want %q): not an endgame table file", buf[:8], fileMagic)
	}
	le := binary.LittleEndian
	if got, want := le.Uint32(buf[124:]), crc32.Checksum(buf[:124], castagnoli); got != want {
		return h, fmt.Errorf("header checksum mismatch (stored %08x, computed %08x)", got, want)
	}
	if v := le.Uint16(buf[8:]); v != fileVersion {
		return h, fmt.Errorf("format version %d (this build reads %d)", v, fileVersion)
	}
	if v := le.Uint16(buf[10:]); v != indexScheme {
		return h, fmt.Errorf("index scheme %d (this build uses %d)", v, indexScheme)
	}
	if v := le.Uint16(buf[12:]); v != headerSize {
		return h, fmt.Errorf("header size %d (want %d)", v, headerSize)
	}
	for _, r := range [][2]int{{14, 16}, {28, 32}, {52, 56}, {92, 124}} {
		for i := r[0]; i < r[1]; i++ {
			if buf[i] != 0 {
				return h, fmt.Errorf("reserved header byte %d is %d, want 0", i, buf[i])
			}
		}
	}
	for _, i := range []int{16, 17, 20, 21} {
		if buf[i] > 1 {
			return h, fmt.Errorf("header byte %d is %d, want 0 or 1", i, buf[i])
		}
	}
	if buf[23] > byte(WDL) {
		return h, fmt.Errorf("metric %d (0 dtm, 1 dtz, 2 wdl)", buf[23])
	}
	if buf[22] != 0 {
		return h, fmt.Errorf("StalemateAction %d: only 0 is supported", buf[22])
	}
	h.params = Params{Diagonal: buf[16] == 1, Fly: int(buf[18]), MinPieces: int(buf[19]),
		RemoveFromMills: buf[20] == 1, RemoveMultiple: buf[21] == 1}
	if (buf[17] == 1) != (h.params.Fly > 0) || !h.params.valid() {
		return h, fmt.Errorf("invalid rule parameters (MayFly %d, flyPieceCount %d, PiecesAtLeastCount %d)", buf[17], buf[18], buf[19])
	}
	h.metric = Metric(buf[23])
	h.m, h.o, h.mf, h.of = int(buf[24]), int(buf[25]), int(buf[26]), int(buf[27])
	switch spec := h.spec(); {
	case h.metric == WDL:
		if !h.params.validPlacing(spec) {
			return h, fmt.Errorf("invalid placing sector %s", spec.Malom())
		}
	case spec.Placing():
		return h, fmt.Errorf("a %s table of placing sector %s (placing sectors have WDL tables)", h.metric, spec.Malom())
	case h.m < h.params.MinPieces || h.o < h.params.MinPieces || h.m > maxSetSize || h.o > maxSetSize || h.m+h.o > MaxPieces:
		return h, fmt.Errorf("invalid sector %dv%d", h.m, h.o)
	}
	h.slots = le.Uint64(buf[32:])
	h.stored = le.Uint64(buf[40:])
	h.crc = le.Uint32(buf[48:])
	h.stats = SolveStats{
		Positions: le.Uint64(buf[56:]), Wins: le.Uint64(buf[64:]), Draws: le.Uint64(buf[72:]), Losses: le.Uint64(buf[80:]),
		LongestWin: int(le.Uint16(buf[88:])), LongestLoss: int(le.Uint16(buf[90:])),
		Stored: h.stored, Slots: h.slots,
	}
	if want := uint64(newSector(h.m, h.o).size); h.slots != want {
		return h, fmt.Errorf("entry count %d, want %d for sector %s", h.slots, want, h.spec())
	}
	if h.stored > h.slots {
		return h, fmt.Errorf("used slots %d exceed the entry count %d", h.stored, h.slots)
	}
	return h, nil
}

// spec is the sector the header names.
func (h *header) spec() SectorSpec { return SectorSpec{M: h.m, O: h.o, MF: h.mf, OF: h.of} }

// FileName returns the file name of a sector's DTM table:
// "plain-fly3-min3-3v4.egtb".
func FileName(p Params, s SectorSpec) string { return fileName(p, s, DTM) }

// fileName returns the file name of a sector's table of the metric: the DTZ
// table is "plain-fly3-min3-3v4-dtz.egtb", a placing sector's (WDL) table
// "plain-fly3-min3-8_8_1_1.egtb".
func fileName(p Params, s SectorSpec, m Metric) string {
	if m == WDL {
		return fmt.Sprintf("%s-%s%s", p.Name(), s.Malom(), fileExtension)
	}
	suffix := ""
	if m == DTZ {
		suffix = "-dtz"
	}
	return fmt.Sprintf("%s-%dv%d%s%s", p.Name(), s.M, s.O, suffix, fileExtension)
}

var fileNameRE = regexp.MustCompile(`^(plain|diag)-(nofly|fly[34])-min([345])((?:-anymill)?)((?:-multi)?)-(?:(\d+)v(\d+)((?:-dtz)?)|(\d)_(\d)_(\d)_(\d))\.egtbz?$`)

// ParseFileName reads a sector file's name (plain, or packed: ".egtbz")
// back into its parameters and sector (of either metric).
func ParseFileName(name string) (Params, SectorSpec, bool) {
	p, s, _, ok := parseFileName(name)
	return p, s, ok
}

// parseFileName is ParseFileName with the metric; a packed file's name
// (isPackedName) reads as its plain file's.
func parseFileName(name string) (Params, SectorSpec, Metric, bool) {
	f := fileNameRE.FindStringSubmatch(name)
	if f == nil {
		return Params{}, SectorSpec{}, 0, false
	}
	p := Params{Diagonal: f[1] == "diag", RemoveFromMills: f[4] != "", RemoveMultiple: f[5] != ""}
	if f[2] != "nofly" {
		p.Fly = int(f[2][3] - '0')
	}
	p.MinPieces = int(f[3][0] - '0')
	if !p.valid() || p.Name()+"-" != name[:len(p.Name())+1] {
		return Params{}, SectorSpec{}, 0, false
	}
	if f[9] != "" {
		n := func(i int) int { return int(f[i][0] - '0') }
		s := SectorSpec{M: n(9), O: n(10), MF: n(11), OF: n(12)}
		if !p.validPlacing(s) {
			return Params{}, SectorSpec{}, 0, false
		}
		return p, s, WDL, true
	}
	m, _ := strconv.Atoi(f[6])
	o, _ := strconv.Atoi(f[7])
	metric := DTM
	if f[8] != "" {
		metric = DTZ
	}
	return p, SectorSpec{M: m, O: o}, metric, true
}

// writeSector writes a sector's data to path atomically: a temporary file in
// the same directory, synced, then renamed over path.
func writeSector(path string, p Params, metric Metric, spec SectorSpec, sec *sector, data []byte, st SolveStats) error {
	h := header{params: p, metric: metric, m: sec.m, o: sec.o, mf: spec.MF, of: spec.OF, slots: uint64(sec.size), stored: st.Stored,
		crc: crc32.Checksum(data, castagnoli), stats: st}
	return writeAtomic(path, func(f *os.File) error {
		if _, err := f.Write(h.encode()); err != nil {
			return err
		}
		_, err := f.Write(data)
		return err
	})
}

// writeAtomic writes path through a temporary file in the same directory:
// write fills it, then it is synced, closed and renamed over path, and the
// directory synced, so that a reader sees the old file or the whole new one
// and a stopped run leaves at most a stale .tmp file. On an error the
// temporary file is removed and path is untouched.
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// FileError is a sector file that cannot be used, and why.
type FileError struct {
	Path   string
	Reason string
}

func (e *FileError) Error() string { return fmt.Sprintf("endgame table %s: %s", e.Path, e.Reason) }

// errDamaged is matched by errors.Is for every FileError.
var errDamaged = errors.New("damaged endgame table")

// Is makes errors.Is(err, ErrDamaged) true for a FileError.
func (e *FileError) Is(target error) bool { return target == errDamaged }

// ErrDamaged is the error every refused file matches (errors.Is).
var ErrDamaged = errDamaged

// lazyCheckBytes is the largest table whose data checksum is checked when
// the table is first used (a few milliseconds): Open reads no data, so that
// an engine with the whole game installed (14 GB) answers at once, and a
// table damaged in its data costs only itself. Bigger tables are checked by
// the commands that read whole tables (verify, stats, build) and by
// OpenChecked; reading a gigabyte at a table's first probe in a game under
// a clock would cost seconds.
var lazyCheckBytes = 64 << 20

// checkFile checks a sector file (header, size and, when all is set, the
// data checksum) against the parameters, sector and metric its name
// promises. It returns the header.
func checkFile(path string, buf []byte, p Params, s SectorSpec, metric Metric, all bool) (header, error) {
	h, err := checkNamedHeader(path, buf, p, s, metric)
	if err != nil {
		return h, err
	}
	if want := uint64(headerSize) + h.metric.dataSize(h.slots); uint64(len(buf)) != want {
		what := "truncated"
		if uint64(len(buf)) > want {
			what = "too long"
		}
		return h, &FileError{path, fmt.Sprintf("%s: %d bytes, want %d", what, len(buf), want)}
	}
	if !all {
		return h, nil
	}
	return h, checkData(path, &h, buf[headerSize:])
}

// checkNamedHeader decodes a file's header (plain or packed) and checks it
// against the parameters, sector and metric its name promises.
func checkNamedHeader(path string, buf []byte, p Params, s SectorSpec, metric Metric) (header, error) {
	h, err := parseHeader(buf)
	if err != nil {
		return h, &FileError{path, err.Error()}
	}
	if h.metric != metric {
		return h, &FileError{path, fmt.Sprintf("holds a %s table, its name says %s", h.metric, metric)}
	}
	if h.params != p {
		return h, &FileError{path, fmt.Sprintf("solved under other rules (%s), its name says %s", h.params.Name(), p.Name())}
	}
	if h.spec() != s {
		return h, &FileError{path, fmt.Sprintf("holds sector %s, its name says %s", h.spec(), s)}
	}
	return h, nil
}

// checkData checks a table's data against its header: the checksum and the
// count of used slots.
func checkData(path string, h *header, data []byte) error {
	if c := crc32.Checksum(data, castagnoli); c != h.crc {
		return &FileError{path, fmt.Sprintf("data checksum mismatch (stored %08x, computed %08x)", h.crc, c)}
	}
	if n := usedSlots(h.metric, data, h.slots); n != h.stored {
		return &FileError{path, fmt.Sprintf("used slots %d, the data has %d", h.stored, n)}
	}
	return nil
}

// usedSlots counts the slots of a table's data that hold a value. A WDL
// table's unused entries are the two-bit codes with both bits set
// (codeUnused), counted 32 at a time: a table's first use and every open of
// egtb stats count them (BenchmarkCheckData, 64 MB: 97 ms a byte at a time, 23 ms so; the checksum 20 ms).
func usedSlots(m Metric, data []byte, slots uint64) uint64 {
	if m != WDL {
		return slots - uint64(bytes.Count(data, []byte{unused}))
	}
	var unusedN uint64
	words := len(data) &^ 7
	for i := 0; i < words; i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		unusedN += uint64(bits.OnesCount64(w & (w >> 1) & 0x5555555555555555))
	}
	for _, b := range data[words:] {
		unusedN += uint64(4 - usedInByte[b])
	}
	return 4*uint64(len(data)) - unusedN
}

// usedInByte[b] is the number of the four 2-bit entries of b that are not
// codeUnused.
var usedInByte = func() (t [256]uint8) {
	for b := range t {
		for k := 0; k < 8; k += 2 {
			if b>>k&3 != codeUnused {
				t[b]++
			}
		}
	}
	return t
}()
