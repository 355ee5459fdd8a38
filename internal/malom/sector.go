package malom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
)

const (
	// HeaderSize is the size of a sector file's header.
	HeaderSize = 64
	// FormatVersion is the only format version there is (".sec2").
	FormatVersion = 2
	// headerUsed is the part of the header with fields; the rest is zero.
	headerUsed = 13
	escapeSize = 8
)

// Header is the header of a sector file.
type Header struct {
	Version   int32 // FormatVersion
	EntrySize int   // bytes per entry, 1–4
	// Key2Offset is the bit where key2 starts: key1 takes the bits below
	// (12 in Malom's std files, 14 in mora and lask), key2 the rest.
	Key2Offset int
	// StoneDiff marks a database whose sector values are stone differences
	// instead of .secval values; Malom never shipped one and this package
	// refuses them.
	StoneDiff bool
}

// StandardHeader is the header of Malom's std files.
var StandardHeader = Header{Version: FormatVersion, EntrySize: 3, Key2Offset: 12}

// WideHeader is the header of Malom's mora and lask files (wider key1 for
// their larger sector values).
var WideHeader = Header{Version: FormatVersion, EntrySize: 3, Key2Offset: 14}

// key1Bits and key2Bits are the widths of the two fields.
func (h Header) key1Bits() int { return h.Key2Offset }
func (h Header) key2Bits() int { return 8*h.EntrySize - h.Key2Offset }

// check reports what is wrong with the fields of h.
func (h Header) check() error {
	switch {
	case h.Version != FormatVersion:
		return fmt.Errorf("format version %d (want %d)", h.Version, FormatVersion)
	case h.EntrySize < 1 || h.EntrySize > 4:
		return fmt.Errorf("entry size %d bytes (want 1–4)", h.EntrySize)
	case h.key1Bits() < 1 || h.key1Bits() > 16 || h.key2Bits() < 1 || h.key2Bits() > 16:
		return fmt.Errorf("key2 offset %d in a %d-byte entry (want both keys 1–16 bits wide)", h.Key2Offset, h.EntrySize)
	}
	return nil
}

// parseHeader reads the header fields from the first HeaderSize bytes.
func parseHeader(b []byte) (Header, error) {
	h := Header{
		Version:    int32(binary.LittleEndian.Uint32(b[0:])),
		EntrySize:  int(int32(binary.LittleEndian.Uint32(b[4:]))),
		Key2Offset: int(int32(binary.LittleEndian.Uint32(b[8:]))),
	}
	if err := h.check(); err != nil {
		return h, err
	}
	switch b[12] {
	case 0:
	case 1:
		h.StoneDiff = true
	default:
		return h, fmt.Errorf("stone-difference flag %d (want 0 or 1)", b[12])
	}
	for i := headerUsed; i < HeaderSize; i++ {
		if b[i] != 0 {
			return h, fmt.Errorf("reserved header byte %d is %d (want 0)", i, b[i])
		}
	}
	return h, nil
}

// escape is an entry of the escape table: the key2 of a slot whose field
// holds the escape mark.
type escape struct {
	slot, key2 int32
}

// Sector is one opened sector file: its entries in place (memory-mapped when
// opened from a file), its index and what decoding needs. Reading does not
// allocate (errors aside); a Sector is safe for concurrent use until Close.
type Sector struct {
	name    string // the file, for errors
	id      SectorID
	variant Variant
	hdr     Header
	index   *Index
	vals    *SecVals
	value   int // the sector's value

	entries []byte   // n·EntrySize bytes
	escapes []escape // sorted by slot
	n       int

	key1Bits, key2Bits uint
	entryBits          uint
	mark               int32 // the key2 field value that means "escaped"

	release func() error
}

// OpenSector maps the sector file at path and checks it. v, id and vals say
// what the file must be: the variant, its sector (which gives the number of
// entries), and the variant's sector values. The file is refused with an
// error naming it when it is truncated, too long, or its header or escape
// table is wrong; entries are checked as they are read (see Check for all at
// once).
func OpenSector(path string, v Variant, id SectorID, vals *SecVals) (*Sector, error) {
	data, release, err := memory.MapFile(path)
	if err != nil {
		return nil, err
	}
	s, err := newSector(data, path, v, id, vals)
	if err != nil {
		release()
		return nil, err
	}
	s.release = release
	return s, nil
}

// ParseSector checks a whole sector file held in memory, as OpenSector
// does; name is used in errors. The Sector refers to data.
func ParseSector(data []byte, name string, v Variant, id SectorID, vals *SecVals) (*Sector, error) {
	return newSector(data, name, v, id, vals)
}

func newSector(data []byte, name string, v Variant, id SectorID, vals *SecVals) (*Sector, error) {
	s, err := parseSector(data, name, v, id, vals)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

func parseSector(data []byte, name string, v Variant, id SectorID, vals *SecVals) (*Sector, error) {
	if !id.Valid() || id.W+id.WF > v.Pieces || id.B+id.BF > v.Pieces {
		return nil, fmt.Errorf("sector %v is not a sector of %s (%d pieces a side)", id, v.Prefix, v.Pieces)
	}
	value, ok := vals.Value(id)
	if !ok {
		return nil, fmt.Errorf("sector %v is not listed in the sector values", id)
	}
	if len(data) < HeaderSize {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(data), HeaderSize)
	}
	h, err := parseHeader(data[:HeaderSize])
	if err != nil {
		return nil, err
	}
	if h.StoneDiff {
		return nil, errors.New("stone-difference sector values are not supported")
	}
	// Malom requires twice the loss value, with a margin of 5, to fit key1,
	// so that any difference of two sector values does.
	if 2*int(vals.VirtLoss)-5 <= -(1 << (h.key1Bits() - 1)) {
		return nil, fmt.Errorf("the virtual values ±%d do not fit the %d-bit key1", vals.VirtWin, h.key1Bits())
	}
	x, err := NewIndex(id.W, id.B)
	if err != nil {
		return nil, err
	}
	n := x.Len()
	body := HeaderSize + n*h.EntrySize
	if len(data) < body+4 {
		return nil, fmt.Errorf("truncated: %d bytes, want at least %d for %d entries of %d bytes and the escape count", len(data), body+4, n, h.EntrySize)
	}
	k := int32(binary.LittleEndian.Uint32(data[body:]))
	if k < 0 || int64(k) > int64(n) {
		return nil, fmt.Errorf("escape count %d (want 0–%d)", k, n)
	}
	if want := body + 4 + escapeSize*int(k); len(data) != want {
		return nil, fmt.Errorf("size %d bytes, want %d for %d entries of %d bytes and %d escapes", len(data), want, n, h.EntrySize, k)
	}
	s := &Sector{
		name: name, id: id, variant: v, hdr: h, index: x, vals: vals, value: int(value),
		entries:  data[HeaderSize:body],
		n:        n,
		key1Bits: uint(h.key1Bits()), key2Bits: uint(h.key2Bits()), entryBits: uint(8 * h.EntrySize),
		mark: -1 << (h.key2Bits() - 1),
	}
	s.escapes = make([]escape, k)
	sorted := true
	for i := range s.escapes {
		e := data[body+4+escapeSize*i:]
		s.escapes[i] = escape{int32(binary.LittleEndian.Uint32(e)), int32(binary.LittleEndian.Uint32(e[4:]))}
		if sl := s.escapes[i].slot; sl < 0 || int(sl) >= n {
			return nil, fmt.Errorf("escape %d is for slot %d, outside the %d entries", i, sl, n)
		}
		if i > 0 && s.escapes[i].slot <= s.escapes[i-1].slot {
			sorted = false
		}
	}
	if !sorted {
		sort.Slice(s.escapes, func(i, j int) bool { return s.escapes[i].slot < s.escapes[j].slot })
	}
	for i, e := range s.escapes {
		if i > 0 && e.slot == s.escapes[i-1].slot {
			return nil, fmt.Errorf("two escapes for slot %d", e.slot)
		}
		if _, f2 := s.fields(int(e.slot)); f2 != s.mark {
			return nil, fmt.Errorf("escape for slot %d, whose entry holds key2 %d itself", e.slot, f2)
		}
	}
	return s, nil
}

// Close releases the file. The Sector must not be used afterwards.
func (s *Sector) Close() error {
	if s == nil || s.release == nil {
		return nil
	}
	r := s.release
	s.release, s.entries = nil, nil
	return r()
}

// ID returns the sector.
func (s *Sector) ID() SectorID { return s.id }

// Variant returns the variant of the sector.
func (s *Sector) Variant() Variant { return s.variant }

// Name returns the file name the sector was opened with.
func (s *Sector) Name() string { return s.name }

// Header returns the file header.
func (s *Sector) Header() Header { return s.hdr }

// Index returns the sector's index.
func (s *Sector) Index() *Index { return s.index }

// Len returns the number of entries (slots).
func (s *Sector) Len() int { return s.n }

// Value returns the sector's value from the .secval file.
func (s *Sector) Value() int { return s.value }

// Escapes returns the number of entries in the escape table.
func (s *Sector) Escapes() int { return len(s.escapes) }

// fields returns the two sign-extended fields of slot's entry.
func (s *Sector) fields(slot int) (key1, key2 int32) {
	es := s.hdr.EntrySize
	b := s.entries[slot*es : slot*es+es]
	var v uint32
	for j, c := range b {
		v |= uint32(c) << (8 * j)
	}
	key1 = int32(v<<(32-s.key1Bits)) >> (32 - s.key1Bits)
	key2 = int32(v<<(32-s.entryBits)) >> (32 - s.key2Bits)
	return key1, key2
}

// escaped returns the escape table's key2 for slot.
func (s *Sector) escaped(slot int) (int32, bool) {
	lo, hi := 0, len(s.escapes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(s.escapes[m].slot) < slot {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.escapes) && int(s.escapes[lo].slot) == slot {
		return s.escapes[lo].key2, true
	}
	return 0, false
}

// Raw returns the entry of slot as stored (a redirect is not followed).
func (s *Sector) Raw(slot int) (Raw, error) {
	if slot < 0 || slot >= s.n {
		return Raw{}, fmt.Errorf("%s: slot %d outside the %d entries", s.name, slot, s.n)
	}
	k1, k2 := s.fields(slot)
	if k2 == s.mark {
		var ok bool
		if k2, ok = s.escaped(slot); !ok {
			return Raw{}, fmt.Errorf("%s: slot %d: key2 is escaped but the escape table has no entry for it", s.name, slot)
		}
	}
	return Raw{Key1: int16(k1), Key2: k2}, nil
}

// follow reads the entry of the Malom-numbered position (seed, black), which
// is stored in slot, following a redirect.
func (s *Sector) follow(slot int, seed, black uint32) (Eval, error) {
	r, err := s.Raw(slot)
	if err != nil {
		return Eval{}, err
	}
	switch r.Kind() {
	case KindRedirect:
		op := r.Symmetry()
		if Transform(op, seed) != seed {
			return Eval{}, fmt.Errorf("%s: slot %d: redirect by symmetry %d moves the white pieces", s.name, slot, op)
		}
		orbit := slot / s.index.blacks
		to := s.index.slotOf(orbit, seed, Transform(op, black))
		if r, err = s.Raw(to); err != nil {
			return Eval{}, err
		}
		if k := r.Kind(); k == KindRedirect || k == KindBad {
			return Eval{}, fmt.Errorf("%s: slot %d redirects to slot %d, which holds a %v", s.name, slot, to, k)
		}
		slot = to
	case KindBad:
		return Eval{}, fmt.Errorf("%s: slot %d: key2 %d is neither a count nor a redirect", s.name, slot, r.Key2)
	}
	return decode(r, slot, s.value, s.vals), nil
}

// Eval returns the value of the position stored in slot, following a
// redirect.
func (s *Sector) Eval(slot int) (Eval, error) {
	if slot < 0 || slot >= s.n {
		return Eval{}, fmt.Errorf("%s: slot %d outside the %d entries", s.name, slot, s.n)
	}
	w, b := s.index.board(slot)
	return s.follow(slot, w, b)
}

// Probe returns the value of the position in which the side to move holds
// mover and the other side other (with the sector's pieces in hand), as
// Malom's reader finds it: the slot Locate gives, then its redirect. It does
// not allocate unless it fails.
func (s *Sector) Probe(mover, other bb.Bitboard) (Eval, error) {
	if mover.Count() != s.id.W || other.Count() != s.id.B || mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return Eval{}, fmt.Errorf("%s: the position (%d and %d pieces) is not in sector %v", s.name, mover.Count(), other.Count(), s.id)
	}
	slot, seed, black := s.index.locate(ToMalom(mover), ToMalom(other))
	return s.follow(slot, seed, black)
}

// Position returns the position stored in slot (see Index.Position).
func (s *Sector) Position(slot int) (mover, other bb.Bitboard) { return s.index.Position(slot) }

// Stats counts a sector's entries by kind and its positions by result (a
// redirect counts with the result it leads to).
type Stats struct {
	Entries, Values, Counts, Redirects int
	Wins, Draws, Losses                int
	MaxKey2                            int32 // the largest key2 of a win or loss
}

// Check reads every entry and reports the first that is wrong: a missing
// escape, a bad redirect, or an absolute value outside the virtual values
// that names no sector. It returns the counts.
func (s *Sector) Check() (Stats, error) {
	st := Stats{Entries: s.n}
	for slot := range s.n {
		r, err := s.Raw(slot)
		if err != nil {
			return st, err
		}
		switch r.Kind() {
		case KindValue:
			st.Values++
		case KindCount:
			st.Counts++
		case KindRedirect:
			st.Redirects++
		}
		e, err := s.Eval(slot)
		if err != nil {
			return st, err
		}
		switch e.WDL {
		case Win:
			st.Wins++
		case Loss:
			st.Losses++
		default:
			st.Draws++
			if e.Abs != 0 && e.Abs != s.value {
				if _, ok := s.vals.SectorWithValue(e.Abs); !ok {
					return st, fmt.Errorf("%s: slot %d: absolute value %d is no result and no sector's value", s.name, slot, e.Abs)
				}
			}
		}
		if e.WDL != Draw {
			st.MaxKey2 = max(st.MaxKey2, e.Raw.Key2)
		}
	}
	return st, nil
}
