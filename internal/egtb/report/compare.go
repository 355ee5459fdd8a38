package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/rules"
)

// malomVariants maps a rule preset's key to Malom's database of it.
var malomVariants = map[string]malom.Variant{
	"nine-mens-morris": malom.Standard,
	"morabaraba":       malom.Morabaraba,
	"lasker-morris":    malom.Lasker,
}

// MalomVariant returns Malom's database of the rule preset key, if Malom
// solved it.
func MalomVariant(key string) (malom.Variant, bool) {
	v, ok := malomVariants[key]
	return v, ok
}

// CompareOptions say what Compare compares.
type CompareOptions struct {
	Dir  string            // the tables' directory, tb's
	Only []egtb.SectorSpec // if not empty, only these sectors
	Show int               // differences shown per sector
	// Warn, if set, receives the errors that do not stop the comparison:
	// a sector file that cannot be read.
	Warn func(error)
	// Children, if set with Rules, checks each sector the tables do not
	// hold against Malom's own values one ply down (egtb.ResultByChildren):
	// every entry whose children all lie in sectors present is compared
	// with the best of them, found with the engine's move generator under
	// Rules. Children is Malom's database behind egtb.Source (package
	// perfect).
	Children egtb.Source
	Rules    *rules.Rules
}

// Compare compares every entry of the sector files of Malom's database db
// with the tables tb (win, draw or loss for the side to move) and writes a
// line per sector — its entries, those compared (both hold the position),
// equal and different, and the first differences as FENs, or that the
// tables lack it — then the totals. It returns ErrFailed when an entry
// differs or cannot be read, and an error when db has no sector files to
// compare.
func Compare(w io.Writer, db *malom.DB, tb *egtb.Tables, o CompareOptions) error {
	warn := o.Warn
	if warn == nil {
		warn = func(error) {}
	}
	mv := db.Variant()
	var ids []malom.SectorID
	for _, id := range db.SecVals().Sectors() {
		s := egtb.SectorSpec{M: id.W, O: id.B, MF: id.WF, OF: id.BF}
		if db.Has(id) && (len(o.Only) == 0 || slices.Contains(o.Only, s)) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return fmt.Errorf("no sector files of %s in %s", mv.Prefix, db.Dir())
	}
	var tot malom.CompareReport
	failed := false
	for _, id := range ids {
		s := egtb.SectorSpec{M: id.W, O: id.B, MF: id.WF, OF: id.BF}
		name := filepath.Base(mv.SectorName(id))
		ours, against, lacking := tb.Result, "", "not in the tables"
		if !tb.Has(s) {
			if o.Children == nil || o.Rules == nil {
				fmt.Fprintf(w, "%s: skipped, sector %s is not in %s\n", name, s, o.Dir)
				continue
			}
			ours = func(mover, other bb.Bitboard, mf, of int) (int8, bool) {
				return egtb.ResultByChildren(o.Children, o.Rules, mover, other, mf, of)
			}
			against, lacking = " (not in the tables: against Malom's values one ply down)", "with a child in a sector not present"
		}
		sec, err := db.Sector(id)
		if err != nil {
			warn(err)
			failed = true
			continue
		}
		r := malom.CompareSector(sec, ours)
		fmt.Fprintf(w, "%s: %d entries, %d compared%s, %d equal, %d different", name, r.Entries, r.Compared, against, r.Equal, r.Different)
		if r.Skipped > 0 {
			fmt.Fprintf(w, ", %d %s", r.Skipped, lacking)
		}
		if r.Broken > 0 {
			fmt.Fprintf(w, ", %d unreadable (%v)", r.Broken, r.Err)
		}
		fmt.Fprintln(w)
		for i, d := range r.First {
			if i >= o.Show {
				break
			}
			fmt.Fprintf(w, "  %s: Malom %s, ours %s\n", d.FEN(), d.Malom.WDL, d.Ours)
		}
		if r.Different > 0 || r.Broken > 0 {
			failed = true
		}
		tot.Entries += r.Entries
		tot.Compared += r.Compared
		tot.Equal += r.Equal
		tot.Different += r.Different
	}
	if _, err := fmt.Fprintf(w, "total: %d entries, %d compared, %d equal, %d different\n", tot.Entries, tot.Compared, tot.Equal, tot.Different); err != nil {
		return err
	}
	if failed {
		return ErrFailed
	}
	return nil
}
