package malom

import (
	"encoding/binary"
	"fmt"
	"io"
)

// EncodeSector returns a sector file with header h and one entry per slot,
// in slot order, in Malom's format. A key2 that does not fit its field, or
// that equals the escape mark, goes to the escape table (in slot order); a
// key1 that does not fit its field is an error. It is the inverse of
// reading: ParseSector gives back h and the entries exactly. It exists for
// tests and tools; Malom's data is never written here.
func EncodeSector(h Header, entries []Raw) ([]byte, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	b1, b2 := h.key1Bits(), h.key2Bits()
	min1, max1 := int32(-1)<<(b1-1), int32(1)<<(b1-1)-1
	mark, max2 := int32(-1)<<(b2-1), int32(1)<<(b2-1)-1
	out := make([]byte, HeaderSize, HeaderSize+len(entries)*h.EntrySize+4)
	binary.LittleEndian.PutUint32(out[0:], uint32(h.Version))
	binary.LittleEndian.PutUint32(out[4:], uint32(h.EntrySize))
	binary.LittleEndian.PutUint32(out[8:], uint32(h.Key2Offset))
	if h.StoneDiff {
		out[12] = 1
	}
	var esc []escape
	for slot, r := range entries {
		k1, k2 := int32(r.Key1), r.Key2
		if k1 < min1 || k1 > max1 {
			return nil, fmt.Errorf("slot %d: key1 %d does not fit %d bits", slot, k1, b1)
		}
		if k2 <= mark || k2 > max2 {
			esc = append(esc, escape{int32(slot), k2})
			k2 = mark
		}
		v := uint32(k1)&(1<<b1-1) | (uint32(k2)&(1<<b2-1))<<b1
		for j := range h.EntrySize {
			out = append(out, byte(v>>(8*j)))
		}
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(esc)))
	for _, e := range esc {
		out = binary.LittleEndian.AppendUint32(out, uint32(e.slot))
		out = binary.LittleEndian.AppendUint32(out, uint32(e.key2))
	}
	return out, nil
}

// WriteSector writes EncodeSector's file to w.
func WriteSector(w io.Writer, h Header, entries []Raw) error {
	b, err := EncodeSector(h, entries)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
