package book

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
)

// The binary form of a book (MarshalBinary, ReadBinary) is what the engine
// probes in place: the shipped book is embedded in it and answers at once,
// with no parsing at start-up (the text took half a second and 80 MB to
// read into maps). The text stays the source of truth — book build and book
// prove write it, and it diffs — and make book-pack (go generate) derives
// the binary form from it.
//
// All numbers are little-endian:
//
//	header   "millbook" | version u32 = 1 | n u32 (positions) | R u32 (record bytes)
//	         | len(preset) u16 | len(diff) u16 | preset | diff | zeros to a multiple of 8
//	keys     n × u64: the positions' keys (key), strictly increasing
//	offsets  (n+1) × u32: record i is records[offsets[i]:offsets[i+1]]; offsets[n] = R
//	records  one a position, in the order of the keys:
//	         depth u8 (1..255) | actions u8 (1..255) | flags u8 | kept u8
//	         | [rule50 u16, fullmove u32: when flags has packedCounters]
//	         | actions × (move u16, score i16), best first
//	         | kept × move u16 (the proof's kept actions)
//
// flags holds the proof's value in bits 0-1 (0: none, 1 loss, 2 draw, 3
// win; kept is 0 without a proof and at least 1 with one) and
// packedCounters in bit 2. A key identifies a position exactly (it is not a
// hash: no two positions share one), and the FEN a book writes for it is
// the key's position with the move counters of the line it came from; those
// are stored only where they are not the ones its ply gives (rule50 0 and
// the full-move number of the ply, as every position reached from the start
// by placements has), so that the binary form writes back the very text it
// was made from.
//
// The form is canonical: a file ReadBinary accepts is the one MarshalBinary
// writes for the book it holds, byte for byte.

// packedMagic starts every binary book; a text book starts with "#".
const packedMagic = "millbook"

// packedVersion is the version of the layout above.
const packedVersion = 1

// packedHeader is the fixed part of the header, before the rules strings.
const packedHeader = 24

// Flags of a record.
const (
	packedProofMask = 3
	packedCounters  = 4
)

// packed is a book in its binary form, read in place: its keys, offsets and
// records are slices of the file's bytes, decoded only by a probe.
type packed struct {
	n       int
	keys    string // n × u64
	offsets string // (n+1) × u32
	records string
}

func le16(s string, i int) uint16 {
	return uint16(s[i]) | uint16(s[i+1])<<8
}

func le32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func le64(s string, i int) uint64 {
	return uint64(le32(s, i)) | uint64(le32(s, i+4))<<32
}

// key returns the i-th key.
func (pk *packed) key(i int) uint64 { return le64(pk.keys, 8*i) }

// record returns the bytes of the i-th record.
func (pk *packed) record(i int) string {
	return pk.records[le32(pk.offsets, 4*i):le32(pk.offsets, 4*i+4)]
}

// find returns the index of the key k, or false.
func (pk *packed) find(k uint64) (int, bool) {
	lo, hi := 0, pk.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if pk.key(mid) < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < pk.n && pk.key(lo) == k
}

// entry decodes the i-th record with its actions mapped by y (bb.Identity:
// the stored, canonical orientation). It allocates what it returns only.
func (pk *packed) entry(i int, y bb.Symmetry) Entry {
	rec := pk.record(i)
	nAct, flags, nKeep := int(rec[1]), rec[2], int(rec[3])
	at := 4
	if flags&packedCounters != 0 {
		at += 6
	}
	e := Entry{Depth: int(rec[0]), Actions: make([]Action, nAct)}
	for j := range e.Actions {
		m := position.Move(le16(rec, at)).Transform(y)
		e.Actions[j] = Action{Move: m, Score: int(int16(le16(rec, at+2)))}
		at += 4
	}
	if v := flags & packedProofMask; v != 0 {
		e.Proof = &Proof{Value: solve.Value(int(v) - 2), Keep: make([]position.Move, nKeep)}
		for j := range e.Proof.Keep {
			e.Proof.Keep[j] = position.Move(le16(rec, at)).Transform(y)
			at += 2
		}
	}
	return e
}

// counters returns the move counters of the i-th record's FEN: stored, or
// those of the key's ply.
func (pk *packed) counters(i int, pieces int) (rule50, fullmove int) {
	rec := pk.record(i)
	if rec[2]&packedCounters != 0 {
		return int(le16(rec, 4)), int(le32(rec, 6))
	}
	return 0, plyFullMove(pk.key(i), pieces)
}

// plyFullMove is the FEN's full-move number of the position of key k
// reached from the start under rules with pieces pieces per side: one more
// than the number of actions played by the side that moved first and is
// not to move now, as position.Position.FullMove counts them.
func plyFullMove(k uint64, pieces int) int {
	side := int(k >> 48 & 1)
	return 1 + (ply(k, pieces)-side)/2
}

// keyFEN writes the FEN of the position of key k with the given counters:
// the one a book line holds for it (no marked points, mills or other state
// a key cannot hold).
func keyFEN(k uint64, rule50, fullmove int) string {
	white, black := bb.Bitboard(k&(1<<24-1)), bb.Bitboard(k>>24&(1<<24-1))
	buf := position.AppendBoard(make([]byte, 0, 96), white, black, 0)
	buf = append(buf, ' ', "wb"[k>>48&1], ' ', "pmo?"[k>>51&3], ' ', "psr?"[k>>49&3])
	num := func(n int) { buf = strconv.AppendInt(append(buf, ' '), int64(n), 10) }
	num(white.Count())
	num(int(k >> 53 & 15))
	num(black.Count())
	num(int(k >> 57 & 15))
	num(int(k >> 61 & 1))
	num(int(k >> 62 & 1))
	buf = append(buf, " 0 0 0 0 0"...) // the last-mill squares and the used mills
	num(rule50)
	num(fullmove)
	return string(buf)
}

// MarshalBinary writes b in its binary form (see the layout above). It
// fails for a book the form cannot hold: an entry without actions, with
// more than 255 actions or kept actions, or with a depth outside 1..255 or
// a score outside -32000..32000 (none of which a book file can hold either),
// or with move counters beyond the form's range.
func (b *Book) MarshalBinary() ([]byte, error) {
	items, err := b.packedItems()
	if err != nil {
		return nil, err
	}
	diff := diffText(&b.Rules)
	if len(b.Preset) > 0xffff || len(diff) > 0xffff || len(items) > 1<<28 {
		return nil, errors.New("book: too large for the binary form")
	}
	var recs []byte
	offsets := make([]uint32, 0, len(items)+1)
	for _, it := range items {
		e := it.e
		bad := func(format string, args ...any) error {
			return fmt.Errorf("book: %s: "+format+": the binary form cannot hold it", append([]any{keyFEN(it.key, it.rule50, it.fullmove)}, args...)...)
		}
		if len(e.Actions) < 1 || len(e.Actions) > 255 || e.Depth < 1 || e.Depth > 255 {
			return nil, bad("%d actions at depth %d", len(e.Actions), e.Depth)
		}
		var flags byte
		kept := 0
		if e.Proof != nil {
			flags = byte(e.Proof.Value + 2)
			kept = len(e.Proof.Keep)
			if kept < 1 || kept > 255 || e.Proof.Value < solve.Loss || e.Proof.Value > solve.Win {
				return nil, bad("proven %s, kept by %d actions", e.Proof.Value, kept)
			}
		}
		own := it.rule50 != 0 || it.fullmove != plyFullMove(it.key, b.Rules.PiecesCount)
		if own {
			flags |= packedCounters
		}
		offsets = append(offsets, uint32(len(recs)))
		recs = append(recs, byte(e.Depth), byte(len(e.Actions)), flags, byte(kept))
		if own {
			recs = binary.LittleEndian.AppendUint16(recs, uint16(it.rule50))
			recs = binary.LittleEndian.AppendUint32(recs, uint32(it.fullmove))
		}
		for _, a := range e.Actions {
			if a.Score < -32000 || a.Score > 32000 {
				return nil, bad("score %d of %s", a.Score, a.Move)
			}
			recs = binary.LittleEndian.AppendUint16(recs, uint16(a.Move))
			recs = binary.LittleEndian.AppendUint16(recs, uint16(int16(a.Score)))
		}
		if e.Proof != nil {
			for _, m := range e.Proof.Keep {
				recs = binary.LittleEndian.AppendUint16(recs, uint16(m))
			}
		}
		if len(recs) > 1<<31 {
			return nil, errors.New("book: too large for the binary form")
		}
	}
	offsets = append(offsets, uint32(len(recs)))
	head := (packedHeader + len(b.Preset) + len(diff) + 7) &^ 7
	out := make([]byte, 0, head+8*len(items)+4*len(offsets)+len(recs))
	out = append(out, packedMagic...)
	out = binary.LittleEndian.AppendUint32(out, packedVersion)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(items)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(recs)))
	out = binary.LittleEndian.AppendUint16(out, uint16(len(b.Preset)))
	out = binary.LittleEndian.AppendUint16(out, uint16(len(diff)))
	out = append(out, b.Preset...)
	out = append(out, diff...)
	out = append(out, make([]byte, head-len(out))...)
	for _, it := range items {
		out = binary.LittleEndian.AppendUint64(out, it.key)
	}
	for _, o := range offsets {
		out = binary.LittleEndian.AppendUint32(out, o)
	}
	return append(out, recs...), nil
}

// packedItem is a position as the binary form holds it: its key, its entry
// (in the canonical orientation) and the move counters of its FEN.
type packedItem struct {
	key              uint64
	e                Entry
	rule50, fullmove int
}

// packedItems returns b's positions in increasing order of key.
func (b *Book) packedItems() ([]packedItem, error) {
	n := b.Rules.PiecesCount
	if pk := b.packed; pk != nil {
		items := make([]packedItem, pk.n)
		for i := range items {
			r50, fm := pk.counters(i, n)
			items[i] = packedItem{pk.key(i), pk.entry(i, bb.Identity), r50, fm}
		}
		return items, nil
	}
	items := make([]packedItem, 0, len(b.entries))
	for k, e := range b.entries {
		// The counters are the FEN's last two fields; the rest of it is
		// the key's (key refuses what a FEN would hold besides).
		fen := b.fens[k]
		f := strings.Fields(fen)
		r50, err1 := strconv.Atoi(f[len(f)-2])
		fm, err2 := strconv.Atoi(f[len(f)-1])
		if err1 != nil || err2 != nil || r50 > 0xffff || fm > 1<<24 || keyFEN(k, r50, fm) != fen {
			return nil, fmt.Errorf("book: %s: the binary form cannot hold this FEN", fen)
		}
		items = append(items, packedItem{k, e, r50, fm})
	}
	slices.SortFunc(items, func(x, y packedItem) int { return cmp.Compare(x.key, y.key) })
	return items, nil
}

// IsBinary reports whether data starts as a book in the binary form does.
func IsBinary(data []byte) bool { return strings.HasPrefix(string(data), packedMagic) }

// ReadBinary reads a book in the binary form and checks all of it as Read
// checks a book file: the layout, every position (canonical, one a key,
// keys increasing) and every action legal in its position, listed once,
// best first, with its score in range. A damaged book is refused with the
// position at fault, never half used. The book keeps its own copy of data.
func ReadBinary(data []byte) (*Book, error) {
	b, err := openPacked(string(data))
	if err != nil {
		return nil, err
	}
	if err := b.checkPacked(); err != nil {
		return nil, err
	}
	return b, nil
}

// openPacked reads the header of a book in the binary form and checks its
// layout (the sizes of its parts), not its records: data is used in place,
// and must not change. The shipped book is opened so, its records checked
// by the tests against the text they are made from.
func openPacked(data string) (*Book, error) {
	bad := func(format string, args ...any) (*Book, error) {
		return nil, fmt.Errorf("book: binary form: "+format, args...)
	}
	if !strings.HasPrefix(data, packedMagic) {
		return bad("no %q header", packedMagic)
	}
	if len(data) < packedHeader {
		return bad("%d bytes, cut within the header (%d bytes)", len(data), packedHeader)
	}
	if v := le32(data, 8); v != packedVersion {
		return bad("version %d, want %d", v, packedVersion)
	}
	n, nrec := uint64(le32(data, 12)), uint64(le32(data, 16))
	lp, ld := int(le16(data, 20)), int(le16(data, 22))
	head := (packedHeader + lp + ld + 7) &^ 7
	if want := uint64(head) + 8*n + 4*(n+1) + nrec; uint64(len(data)) != want {
		return bad("%d bytes, want %d for %d positions and %d record bytes", len(data), want, n, nrec)
	}
	if strings.Trim(data[packedHeader+lp+ld:head], "\x00") != "" {
		return bad("the header's padding is not zeros")
	}
	preset, diff := data[packedHeader:packedHeader+lp], data[packedHeader+lp:packedHeader+lp+ld]
	r, err := parseDiff(diff)
	if err != nil {
		return bad("%v", err)
	}
	if diffText(&r) != diff {
		return bad("diff %q is not as a book writes it", trim(diff))
	}
	keys := head + 8*int(n)
	offsets := keys + 4*(int(n)+1)
	b := &Book{Rules: r, Preset: preset, packed: &packed{n: int(n),
		keys: data[head:keys], offsets: data[keys:offsets], records: data[offsets:]}}
	return b, nil
}

// checkPacked checks every record of a book in the binary form (see
// ReadBinary).
func (b *Book) checkPacked() error {
	pk := b.packed
	r := &b.Rules
	if le32(pk.offsets, 0) != 0 || int(le32(pk.offsets, 4*pk.n)) != len(pk.records) {
		return errors.New("book: binary form: the offsets do not span the records")
	}
	var legal movegen.MoveList
	for i := range pk.n {
		k := pk.key(i)
		if i > 0 && pk.key(i-1) >= k {
			return fmt.Errorf("book: binary form: position %d: keys not increasing", i)
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("book: binary form: position %d (%#x): "+format, append([]any{i, k}, args...)...)
		}
		lo, hi := le32(pk.offsets, 4*i), le32(pk.offsets, 4*i+4)
		if hi < lo || int(hi) > len(pk.records) || hi-lo < 4 {
			return bad("record offsets %d..%d out of order", lo, hi)
		}
		rec := pk.records[lo:hi]
		nAct, flags, nKeep := int(rec[1]), rec[2], int(rec[3])
		size := 4 + 4*nAct + 2*nKeep
		if flags&packedCounters != 0 {
			size += 6
		}
		switch {
		case flags&^(packedProofMask|packedCounters) != 0:
			return bad("unknown flags %#x", flags)
		case rec[0] == 0 || nAct == 0:
			return bad("depth %d, %d actions: want 1..255 of each", rec[0], nAct)
		case (flags&packedProofMask == 0) != (nKeep == 0):
			return bad("%d kept actions for proof code %d", nKeep, flags&packedProofMask)
		case len(rec) != size:
			return bad("a record of %d bytes, want %d", len(rec), size)
		}
		// The key must be a position a book holds, in its canonical image.
		white, black := bb.Bitboard(k&(1<<24-1)), bb.Bitboard(k>>24&(1<<24-1))
		if k>>63 != 0 || k>>49&3 == 3 || k>>51&3 > uint64(position.Moving) || white&black != 0 {
			return bad("not a position's key")
		}
		rule50, fullmove := pk.counters(i, r.PiecesCount)
		if flags&packedCounters != 0 && rule50 == 0 && fullmove == plyFullMove(k, r.PiecesCount) {
			return bad("move counters stored that the ply gives")
		}
		fen := keyFEN(k, rule50, fullmove)
		p, err := position.ParseFEN(r, fen)
		if err != nil {
			return bad("%v", err)
		}
		if got, ok := key(&p); !ok || got != k || bb.Canonical(white, black) != bb.Identity || p.FEN() != fen {
			return bad("%s is not a position the book can hold in its canonical image", fen)
		}
		movegen.Generate(r, &p, &legal)
		e := pk.entry(i, bb.Identity)
		for j, a := range e.Actions {
			if !legal.Contains(a.Move) {
				return bad("%s: action %#x is not legal", fen, uint16(a.Move))
			}
			if a.Score < -32000 || a.Score > 32000 {
				return bad("%s: score %d of %s: want -32000..32000", fen, a.Score, a.Move)
			}
			if j > 0 && (a.Score > e.Actions[j-1].Score || slices.ContainsFunc(e.Actions[:j], func(x Action) bool { return x.Move == a.Move })) {
				return bad("%s: %s %d: actions must be listed once each, best first", fen, a.Move, a.Score)
			}
		}
		if e.Proof != nil {
			for j, m := range e.Proof.Keep {
				if !legal.Contains(m) || slices.Contains(e.Proof.Keep[:j], m) {
					return bad("%s: kept action %#x is illegal or kept twice", fen, uint16(m))
				}
			}
		}
	}
	return nil
}

// diffText is the "# diff:" value of a book for the rules r.
func diffText(r *rules.Rules) string {
	def := rules.Default()
	if diff := strings.Join(r.Diff(&def), " "); diff != "" {
		return diff
	}
	return "(none)"
}

// Binary reports whether b is read in place from its binary form.
func (b *Book) Binary() bool { return b.packed != nil }

// SaveBinary writes b's binary form to path through a temporary file and a
// rename, so the file is never half written.
func (b *Book) SaveBinary(path string) error {
	data, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("book: %w", err)
	}
	return nil
}

// fenOf returns the canonical FEN the book holds for the key k, or false.
func (b *Book) fenOf(k uint64) (string, bool) {
	if pk := b.packed; pk != nil {
		i, ok := pk.find(k)
		if !ok {
			return "", false
		}
		r50, fm := pk.counters(i, b.Rules.PiecesCount)
		return keyFEN(k, r50, fm), true
	}
	fen, ok := b.fens[k]
	return fen, ok
}

// thaw turns a book in the binary form into one held in maps, which Put
// and Prove change; a book held in maps is left alone.
func (b *Book) thaw() {
	pk := b.packed
	if pk == nil {
		return
	}
	b.entries = make(map[uint64]Entry, pk.n)
	b.fens = make(map[uint64]string, pk.n)
	for i := range pk.n {
		k := pk.key(i)
		r50, fm := pk.counters(i, b.Rules.PiecesCount)
		b.entries[k] = pk.entry(i, bb.Identity)
		b.fens[k] = keyFEN(k, r50, fm)
	}
	b.packed = nil
}
