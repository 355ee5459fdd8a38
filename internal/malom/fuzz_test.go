package malom

import (
	"bytes"
	"slices"
	"testing"
)

func FuzzParseSecval(f *testing.F) {
	f.Add([]byte(smallSecval))
	f.Add([]byte("virt_loss_val: -704\r\nvirt_win_val: 704\r\n1\r\n0 0 12 12  686\r\n"))
	f.Add([]byte("virt_loss_val: -1\nvirt_win_val: 1\n0\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSecval(data)
		if err != nil {
			return
		}
		// What parses writes back to a file that parses to the same.
		var b bytes.Buffer
		if _, err := s.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		s2, err := ParseSecval(b.Bytes())
		if err != nil {
			t.Fatalf("written file does not parse: %v\n%s", err, b.Bytes())
		}
		if s2.VirtLoss != s.VirtLoss || s2.VirtWin != s.VirtWin || !slices.Equal(s2.Sectors(), s.Sectors()) {
			t.Fatalf("round trip changed the file:\n%s", b.Bytes())
		}
		for _, id := range s.Sectors() {
			v1, _ := s.Value(id)
			if v2, ok := s2.Value(id); !ok || v2 != v1 {
				t.Fatalf("sector %v: %d, then %d", id, v1, v2)
			}
		}
	})
}

// FuzzParseSector feeds arbitrary bytes as the files of three small
// sectors: what opens must read every entry without panicking.
func FuzzParseSector(f *testing.F) {
	ids := []SectorID{{0, 0, 9, 9}, {0, 1, 9, 8}, {1, 2, 8, 7}}
	vals, err := NewSecVals(-299, ids, []int16{21, -18, 51})
	if err != nil {
		f.Fatal(err)
	}
	for _, id := range ids {
		x, _ := NewIndex(id.W, id.B)
		v, _ := vals.Value(id)
		es := make([]Raw, x.Len())
		for slot := range es {
			if target, op := canonical(x, slot); target != slot {
				es[slot] = Redirect(op)
			} else {
				es[slot] = synthValue(slot, int(v))
			}
		}
		data, err := EncodeSector(StandardHeader, es)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)-1])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, id := range ids {
			s, err := ParseSector(data, "f.sec2", Standard, id, vals)
			if err != nil {
				continue
			}
			st, err := s.Check()
			if err == nil && st.Entries != s.Len() {
				t.Fatalf("Check counted %d entries of %d", st.Entries, s.Len())
			}
			for slot := range s.Len() {
				r, rerr := s.Raw(slot)
				e, eerr := s.Eval(slot)
				if rerr == nil && r.Kind() == KindValue && (eerr != nil || e.Raw != r) {
					t.Fatalf("slot %d holds %+v but evaluates to %+v, %v", slot, r, e, eerr)
				}
				m, o := s.Position(slot)
				p, perr := s.Probe(m, o)
				if (perr == nil) != (eerr == nil) || p != e {
					t.Fatalf("slot %d: Probe %+v, %v; Eval %+v, %v", slot, p, perr, e, eerr)
				}
			}
		}
	})
}
