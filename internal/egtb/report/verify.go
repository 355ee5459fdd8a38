package report

import (
	"context"
	"fmt"
	"io"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/progress"
)

// VerifyOptions say what Verify checks and how.
type VerifyOptions struct {
	Dir     string
	Sets    []egtb.Params     // the parameter sets whose tables are checked
	Only    []egtb.SectorSpec // if not empty, only these sectors
	Threads int               // goroutines (≤ 0: one per CPU)
	Limit   int               // mismatches shown per table
	Step    uint32            // check every Step-th entry only (0 or 1: all)
	// Journal, if not nil, records the tables found OK, which a verify
	// with it skips, and the part of a table checked so far, which it goes
	// on from.
	Journal *egtb.Journal
	// Known, if not nil, is a journal to read only (egtb.Record: the tables
	// verified entry by entry before, anywhere): the tables it holds with
	// the checksum they have are skipped, and a table it has a part of goes
	// on from there, as with Journal.
	Known *egtb.Journal
	// Warn, if set, receives the errors that do not stop the verify: a
	// journal that cannot be written.
	Warn func(error)
}

// Verify re-checks the tables of o.Sets in o.Dir (egtb.VerifyDir): a line
// per table on stdout, OK (with its entries and time, or "OK before ...,
// the same data" when the journal holds it and its data was read unchanged) or FAILED with the first mismatches; the progress,
// the time the whole verify has left and where a table's check goes on
// from on stderr. It returns ErrFailed when a table is missing or wrong or
// the journal could not record one, and an error when the verify could not
// run or found no tables.
func Verify(ctx context.Context, stdout, stderr io.Writer, o VerifyOptions) error {
	warn := o.Warn
	if warn == nil {
		warn = func(error) {}
	}
	bar := progress.NewBar(stderr, "egtb ", "M/s", 1e6)
	eta := &progress.VerifyETA{}
	bar.Suffix = eta.String
	opts := egtb.VerifyOptions{Threads: o.Threads, Limit: o.Limit, Step: o.Step, Planned: eta.Planned,
		Progress: func(phase string, done, total uint64) {
			eta.Progress(phase, done, total)
			bar.Update(phase, done, total)
		}}
	journal := o.Journal
	var sources []*egtb.Journal // what a table is skipped or resumed by
	for _, j := range []*egtb.Journal{o.Known, journal} {
		if j != nil {
			sources = append(sources, j)
		}
	}
	// holder is the first source that holds r's table as OK with its data.
	holder := func(r egtb.VerifyReport) *egtb.Journal {
		for _, j := range sources {
			if j.Has(r) {
				return j
			}
		}
		return nil
	}
	if len(sources) > 0 {
		opts.Skip = func(r egtb.VerifyReport) bool { return holder(r) != nil }
		opts.Resume = func(r egtb.VerifyReport) (egtb.VerifyPart, bool) {
			var part egtb.VerifyPart
			var from *egtb.Journal
			for _, j := range sources {
				if p, ok := j.Resume(r); ok && (from == nil || p.Upto > part.Upto) {
					part, from = p, j
				}
			}
			if from != nil {
				eta.Resumed(uint64(part.Upto))
				bar.Clear()
				fmt.Fprintf(stderr, "egtb verify %s: going on from slot %d of %d (%.1f %%, checked before: %s)\n",
					r.Label(), part.Upto, r.Spec.Slots(), 100*float64(part.Upto)/float64(r.Spec.Slots()), from.Path())
			}
			return part, from != nil
		}
	}
	if journal != nil {
		opts.Checkpoint = func(r egtb.VerifyReport, part egtb.VerifyPart) {
			if err := journal.Checkpoint(r, part); err != nil {
				bar.Clear()
				warn(err)
			}
		}
	}
	failed := false
	sectors, err := egtb.VerifyDir(ctx, o.Dir, o.Sets, o.Only, opts, func(r egtb.VerifyReport) {
		bar.Clear()
		eta.Finished(r.Spec.Slots(), r.Skipped || r.Missing)
		name := r.Params.Name() + " " + r.Label()
		if journal != nil {
			if err := journal.Add(r); err != nil {
				warn(err)
				failed = true
			}
		}
		switch {
		case r.Skipped:
			fmt.Fprintf(stdout, "%s: OK before (%s), the same data\n", name, holder(r).Path())
		case r.Missing:
			failed = true
			fmt.Fprintf(stdout, "%s: FAILED, no table (millengine egtb build solves it)\n", name)
		case r.OK():
			fmt.Fprintf(stdout, "%s: OK, %d entries, %s\n", name, r.Result.Checked, progress.Seconds(r.Elapsed))
		default:
			failed = true
			fmt.Fprintf(stdout, "%s: FAILED, %d of %d entries wrong\n", name, r.Result.Bad, r.Result.Checked)
			for _, m := range r.Result.First {
				fmt.Fprintf(stdout, "  %s\n", m)
			}
			if r.Counted != r.Header {
				fmt.Fprintf(stdout, "  counts %+v differ from the header's %+v\n", r.Counted, r.Header)
			}
		}
	})
	bar.Clear()
	switch {
	case err != nil:
		return err
	case sectors == 0:
		return fmt.Errorf("no tables in %s", o.Dir)
	case failed:
		return ErrFailed
	}
	return nil
}
