package report

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/millengine/millengine/internal/egtb"
)

// WriteStats writes, for each parameter set with tables in dir, a table of
// its sectors: positions (every placement, no symmetry reduction) and
// stored positions, slots and the share used by the index, wins, draws and
// losses, the longest win and the file size, a DTZ table's longest win and
// size below its sector, and the totals. It returns an error when dir holds
// no tables or a table cannot be read.
func WriteStats(w io.Writer, dir string) error {
	sets, err := egtb.ParamSets(dir)
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		return fmt.Errorf("no tables in %s", dir)
	}
	for i, p := range sets {
		tb, err := egtb.OpenChecked(dir, p)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s)\n", p.Name(), p)
		err = writeSetStats(w, tb)
		tb.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// writeSetStats writes the table of the sectors of tb.
func writeSetStats(w io.Writer, tb *egtb.Tables) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "sector\tpositions\tstored\tslots\tused\twins\tdraws\tlosses\tlongest win\tbytes\t")
	var tot egtb.SolveStats
	var size int64
	anyDTM := false
	for _, s := range tb.Sectors() {
		st := tb.SectorStats(s)
		info, dtm := tb.Info(s)
		longest := strconv.Itoa(st.LongestWin)
		z, dtz := tb.InfoOf(s, egtb.DTZ)
		if s.Placing() {
			// A placing sector keeps the result only.
			info, _ = tb.InfoOf(s, egtb.WDL)
			st, longest = info.Header, "-"
		} else if !dtm && dtz {
			// Beyond DTMPieces only the DTZ table is kept: its header's
			// counts (which verify checks against its data) are the
			// sector's; its distances are to the next removal, not the
			// end, so the sector has no longest win of its own.
			st, longest = z.Header, "-"
			st.LongestWin = 0
		} else {
			anyDTM = true
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3f\t%d\t%d\t%d\t%s\t%d\t\n", s, st.Positions, st.Stored, st.Slots,
			float64(st.Stored)/float64(max(st.Slots, 1)), st.Wins, st.Draws, st.Losses, longest, info.Size)
		if dtz {
			// The same positions and results; the distances are to the
			// next removal.
			fmt.Fprintf(tw, "%s dtz\t\t\t\t\t\t\t\t%d\t%d\t\n", s, z.Header.LongestWin, z.Size)
			size += z.Size
		}
		tot.Positions += st.Positions
		tot.Stored += st.Stored
		tot.Slots += st.Slots
		tot.Wins += st.Wins
		tot.Draws += st.Draws
		tot.Losses += st.Losses
		tot.LongestWin = max(tot.LongestWin, st.LongestWin)
		size += info.Size
	}
	if tot.Slots > 0 {
		longest := "-"
		if anyDTM {
			longest = strconv.Itoa(tot.LongestWin)
		}
		fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%.3f\t%d\t%d\t%d\t%s\t%d\t\n", tot.Positions, tot.Stored, tot.Slots,
			float64(tot.Stored)/float64(tot.Slots), tot.Wins, tot.Draws, tot.Losses, longest, size)
	}
	return tw.Flush()
}
