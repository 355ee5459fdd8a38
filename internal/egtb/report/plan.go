// Package report holds what the 'millengine egtb' commands do beyond their
// flags: a build's plan as a table, a build and a verify with their report
// lines and progress, the tables' statistics, a probe's values, what the
// tables say of millmatch's games and a comparison with Malom's database.
// Each writes its report to an io.Writer and returns an error; the command
// maps it to its exit status.
package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/millengine/millengine/internal/egtb"
)

// ErrFailed is returned by a check that ran and found something wrong (a
// table missing or with a wrong entry, an entry that differs from Malom's):
// its report says what.
var ErrFailed = errors.New("egtb: the check found something wrong")

// Plan is the plan of a build: the moving phase's up to maxPieces pieces,
// or, with pieces > 0 (the pieces a side places), the whole game's.
func Plan(p egtb.Params, pieces, maxPieces int) []egtb.Job {
	if pieces > 0 {
		return p.GamePlan(pieces, maxPieces)
	}
	return p.Plan(maxPieces)
}

// PlanOptions say what a plan is of, for WritePlan.
type PlanOptions struct {
	Params    egtb.Params
	MaxPieces int    // the plan's most pieces
	Game      bool   // the plan is the whole game's (MaxPieces counts the pieces in hand too)
	Dir       string // the table directory, where a job's tables are built or missing
}

// WritePlan writes the plan as a table for people: a line with the jobs,
// sectors, levels, slots and the largest job's memory, then per job its
// level, name, sectors, tables, slots, memory, needs and whether it is
// built in o.Dir, and how many jobs are.
func WritePlan(w io.Writer, plan []egtb.Job, o PlanOptions) error {
	built := egtb.Built(o.Dir, o.Params)
	var slots, peak uint64
	levels, sectors, done := 0, 0, 0
	for _, j := range plan {
		slots += j.Slots
		peak = max(peak, j.Memory())
		levels = max(levels, j.Level+1)
		sectors += len(j.Sectors)
	}
	what := "pieces"
	if o.Game {
		what = "pieces on the board and in hand, the whole game"
	}
	fmt.Fprintf(w, "%s up to %d %s: %d jobs, %d sectors, %d levels, %d slots; the largest job takes about %d MB\n",
		o.Params.Name(), o.MaxPieces, what, len(plan), sectors, levels, slots, peak>>20)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "level\tjob\tsectors\ttables\tslots\tmemory MB\tneeds\tin "+o.Dir)
	for _, j := range plan {
		var secs, tables, needs []string
		have := true
		for _, s := range j.Sectors {
			secs = append(secs, s.String())
			for _, m := range j.Metrics {
				have = have && built[egtb.TableSpec{Sector: s, Metric: m}]
			}
		}
		for _, m := range j.Metrics {
			tables = append(tables, m.String())
		}
		for _, s := range j.Needs {
			needs = append(needs, s.String())
		}
		state := "missing"
		if have {
			state = "built"
			done++
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", j.Level, j.Name(), strings.Join(secs, ","), strings.Join(tables, ","),
			j.Slots, j.Memory()>>20, orDash(strings.Join(needs, ",")), state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d of %d jobs built in %s\n", done, len(plan), o.Dir)
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
