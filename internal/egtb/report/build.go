package report

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/progress"
)

// Build runs egtb.Build with o (its Progress and Warn are Build's own): a
// line per sector on stdout as it is solved or found built (sectorLine),
// then a line with the sectors, their size, the time and the largest move
// counter; the progress, the time the whole build has left and Build's
// warnings on stderr. Its error is egtb.Build's, an *egtb.InterruptedError
// when ctx ended the build.
func Build(ctx context.Context, stdout, stderr io.Writer, o egtb.BuildOptions) error {
	plan := Plan(o.Params, o.Pieces, o.MaxPieces)
	if len(o.Only) > 0 {
		var jobs []egtb.Job
		for _, s := range o.Only {
			if j, ok := o.Params.JobOf(s, plan); ok {
				jobs = append(jobs, j)
			}
		}
		plan = jobs
	}
	bar := progress.NewBar(stderr, "egtb ", "M/s", 1e6)
	eta := progress.NewBuildETA(plan)
	bar.Suffix = eta.String
	o.Progress = bar.Update
	o.Warn = func(s string) { bar.Clear(); fmt.Fprintf(stderr, "egtb build: %s\n", s) }
	start := time.Now()
	var size int64
	var n, maxCnt int
	tb, err := egtb.Build(ctx, o, func(r egtb.SectorReport) {
		bar.Clear()
		size += r.Size
		if r.Metric != egtb.DTM {
			n++
		}
		maxCnt = max(maxCnt, r.MaxCounter)
		eta.Add(r)
		fmt.Fprintln(stdout, sectorLine(r))
	})
	bar.Clear()
	if err != nil {
		return err
	}
	tb.Close()
	fmt.Fprintf(stdout, "%s: sectors %d, %.1f MB in %s, %s", o.Params.Name(), n, float64(size)/(1<<20), o.Dir, progress.Seconds(time.Since(start)))
	if maxCnt > 0 {
		fmt.Fprintf(stdout, " (largest move counter %d of 255)", maxCnt)
	}
	_, err = fmt.Fprintln(stdout)
	return err
}

// sectorLine is Build's report line of a sector: its counts (from the DTM
// table, or from the DTZ table of a sector that has no DTM table), or, for
// the DTZ table of a sector that has both, the longest distances to a
// removal; then the time, the pair it was solved with and the peak memory.
func sectorLine(r egtb.SectorReport) string {
	st := r.Stats
	s := fmt.Sprintf("%s: positions %d, wins %d, draws %d, losses %d, longest win %d", r.Spec, st.Positions, st.Wins, st.Draws, st.Losses, st.LongestWin)
	switch {
	case r.Metric == egtb.WDL:
		s = fmt.Sprintf("%s: positions %d, wins %d, draws %d, losses %d", r.Spec, st.Positions, st.Wins, st.Draws, st.Losses)
	case r.Metric == egtb.DTZ && r.Spec.M+r.Spec.O <= egtb.DTMPieces:
		// Same positions and results as the line before; the distances are
		// to the next removal.
		s = fmt.Sprintf("%s dtz: longest win %d, longest loss %d turns to a removal", r.Spec, st.LongestWin, st.LongestLoss)
	case r.Metric == egtb.DTZ:
		s = fmt.Sprintf("%s dtz: positions %d, wins %d, draws %d, losses %d, longest win %d, longest loss %d turns to a removal",
			r.Spec, st.Positions, st.Wins, st.Draws, st.Losses, st.LongestWin, st.LongestLoss)
	}
	switch {
	case r.Existing:
		return s + ", already built"
	case r.Partner != r.Spec:
		s += fmt.Sprintf(", %s (solved with %s)", progress.Seconds(r.Elapsed), r.Partner)
	default:
		s += ", " + progress.Seconds(r.Elapsed)
	}
	if r.PeakRSS > 0 {
		s += fmt.Sprintf(", peak %d MB", r.PeakRSS>>20)
	}
	if r.Checkpoints > 0 {
		s += fmt.Sprintf(", %d checkpoints", r.Checkpoints)
	}
	if w := r.Work; w.Init > 0 || w.Plies > 0 {
		// Where the pair's time went, for docs/tables.md's "What bounds
		// the solver".
		s += fmt.Sprintf("; init %s, %d plies %s: %.1f M cells scanned, %.1f M resolved, %.1f M updates",
			progress.Seconds(w.Init), w.Plies, progress.Seconds(w.Retro), float64(w.Scanned)/1e6, float64(w.Resolved)/1e6, float64(w.Updates)/1e6)
	}
	return s
}
