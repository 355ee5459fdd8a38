// Command egtb-schedule predicts the wall time of building the endgame
// tables of a plan (egtb plan) on k machines from the wall time of each job:
// the longest dependency path, which no number of machines beats, and a list
// schedule in which each machine, when free, takes the first job of the plan
// whose needs are all built, as Slurm runs the jobs of 'egtb plan --format
// slurm' (one job a machine). It is a planning aid, not part of the engine.
//
//	go run ./scripts/egtb-schedule [--max-pieces 18] [--times FILE] [--rate 1e6] [--machines 1,4,16]
//
// The times come from a file of "job<TAB>seconds[<TAB>note]" lines (# starts
// a comment), times.tsv beside this file by default; a job not in it is
// estimated from its slots at --rate slots a second and marked "estimate".
package main

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/egtb"
)

//go:embed times.tsv
var defaultTimes string

// task is one job of the plan with its time and the jobs it waits for.
type task struct {
	name     string
	level    int
	slots    uint64
	secs     float64
	estimate bool  // secs comes from the slots, not from a measurement
	after    []int // the indices of the jobs that build its needs
}

// readTimes reads the seconds of each job from lines "job<TAB>seconds[<TAB>note]".
func readTimes(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: %q: want job<TAB>seconds", n, line)
		}
		if _, err := egtb.ParseSectorSpec(f[0]); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		s, err := strconv.ParseFloat(f[1], 64)
		if err != nil || s < 0 {
			return nil, fmt.Errorf("line %d: seconds %q: want a number ≥ 0", n, f[1])
		}
		if _, dup := out[f[0]]; dup {
			return nil, fmt.Errorf("line %d: job %s given twice", n, f[0])
		}
		out[f[0]] = s
	}
	return out, sc.Err()
}

// tasks turns the plan into tasks with the given times, estimating the
// others at rate slots a second (once per metric). A time for a job that is
// not in the plan is an error: a typo would else go unnoticed.
func tasks(p egtb.Params, plan []egtb.Job, times map[string]float64, rate float64) ([]task, error) {
	index := map[string]int{}
	var out []task
	for i, j := range plan {
		t := task{name: j.Name(), level: j.Level, slots: j.Slots}
		if s, ok := times[j.Name()]; ok {
			t.secs = s
		} else {
			t.secs, t.estimate = float64(j.Slots)*float64(len(j.Metrics))/rate, true
		}
		for _, s := range j.Needs {
			n, _ := p.JobOf(s, plan)
			k := index[n.Name()]
			if len(t.after) == 0 || t.after[len(t.after)-1] != k {
				t.after = append(t.after, k)
			}
		}
		index[j.Name()] = i
		out = append(out, t)
	}
	for name := range times {
		if _, ok := index[name]; !ok {
			return nil, fmt.Errorf("a time for %s, which is no job of the plan (a job is named by its first sector, M ≤ O)", name)
		}
	}
	return out, nil
}

// longestPath returns the length in seconds of the longest chain of jobs,
// each waiting for the one before, and the chain.
func longestPath(ts []task) (float64, []int) {
	end := make([]float64, len(ts))
	prev := make([]int, len(ts))
	best := -1
	for i, t := range ts {
		prev[i] = -1
		for _, k := range t.after {
			if prev[i] < 0 || end[k] > end[prev[i]] {
				prev[i] = k
			}
		}
		end[i] = t.secs
		if prev[i] >= 0 {
			end[i] += end[prev[i]]
		}
		if best < 0 || end[i] > end[best] {
			best = i
		}
	}
	var path []int
	for i := best; i >= 0; i = prev[i] {
		path = append([]int{i}, path...)
	}
	return end[best], path
}

// schedule returns the wall time of the list schedule on machines machines:
// whenever a machine is free it takes the first job, in plan order, whose
// needs are built; with none ready it waits for the next job to end.
func schedule(ts []task, machines int) float64 {
	free := make([]float64, machines) // when each machine is free
	end := make([]float64, len(ts))
	started := make([]bool, len(ts))
	last := 0.0
	for range ts {
		m := 0
		for i := range free {
			if free[i] < free[m] {
				m = i
			}
		}
		now := free[m]
		for {
			next, pick := -1.0, -1
			for i, t := range ts {
				if started[i] {
					if end[i] > now && (next < 0 || end[i] < next) {
						next = end[i]
					}
					continue
				}
				ready := true
				for _, k := range t.after {
					ready = ready && started[k] && end[k] <= now
				}
				if ready && pick < 0 {
					pick = i
				}
			}
			if pick >= 0 {
				started[pick], end[pick] = true, now+ts[pick].secs
				free[m] = end[pick]
				last = max(last, end[pick])
				break
			}
			now = next // a job runs whose end frees a need: the plan is in dependency order
		}
	}
	return last
}

// report writes the jobs, the longest path and the predictions.
func report(w io.Writer, ts []task, machines []int, rate float64) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "level\tjob\tslots\tseconds\tnote")
	sum, est := 0.0, 0
	for _, t := range ts {
		note := ""
		if t.estimate {
			note, est = "estimate", est+1
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.0f\t%s\n", t.level, t.name, t.slots, t.secs, note)
		sum += t.secs
	}
	tw.Flush()
	crit, path := longestPath(ts)
	var names []string
	for _, i := range path {
		names = append(names, ts[i].name)
	}
	fmt.Fprintf(w, "%d jobs, %d estimated at %.2f M slots/s; all jobs one after another %.0f s (%.2f h)\n", len(ts), est, rate/1e6, sum, sum/3600)
	fmt.Fprintf(w, "longest dependency path, %d jobs, %.0f s (%.2f h): %s\n", len(path), crit, crit/3600, strings.Join(names, " → "))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "machines\twall s\twall h\tspeed-up\tof the path bound\t")
	for _, m := range machines {
		wall := schedule(ts, m)
		fmt.Fprintf(tw, "%d\t%.0f\t%.2f\t%.2f\t%.0f %%\t\n", m, wall, wall/3600, sum/wall, 100*crit/wall)
	}
	tw.Flush()
}

func main() {
	fs := pflag.NewFlagSet("egtb-schedule", pflag.ContinueOnError)
	maxPieces := fs.IntP("max-pieces", "n", egtb.MaxPieces, "the plan's most pieces on the board")
	timesFile := fs.String("times", "", "job times, job<TAB>seconds lines (default: times.tsv beside this program's source)")
	rate := fs.Float64("rate", 1e6, "slots a second of the jobs not in the times (once per metric)")
	machines := fs.IntSlice("machines", []int{1, 4, 16}, "machine counts to predict")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == pflag.ErrHelp {
			return
		}
		fmt.Fprintln(os.Stderr, "egtb-schedule:", err)
		os.Exit(2)
	}
	if err := run(os.Stdout, *maxPieces, *timesFile, *rate, *machines); err != nil {
		fmt.Fprintln(os.Stderr, "egtb-schedule:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, maxPieces int, timesFile string, rate float64, machines []int) error {
	if maxPieces < 6 || maxPieces > egtb.MaxPieces {
		return fmt.Errorf("--max-pieces %d is out of range 6..%d", maxPieces, egtb.MaxPieces)
	}
	if rate <= 0 {
		return fmt.Errorf("--rate %g: want slots a second > 0", rate)
	}
	for _, m := range machines {
		if m < 1 {
			return fmt.Errorf("--machines: %d machines", m)
		}
	}
	var src io.Reader = strings.NewReader(defaultTimes)
	if timesFile != "" {
		f, err := os.Open(timesFile)
		if err != nil {
			return err
		}
		defer f.Close()
		src = f
	}
	times, err := readTimes(src)
	if err != nil {
		return fmt.Errorf("times: %w", err)
	}
	plan := egtb.Standard.Plan(maxPieces)
	for name := range times {
		if s, _ := egtb.ParseSectorSpec(name); s.M+s.O > maxPieces {
			delete(times, name) // beyond this plan: the times are of the whole set
		}
	}
	ts, err := tasks(egtb.Standard, plan, times, rate)
	if err != nil {
		return err
	}
	report(w, ts, machines, rate)
	return nil
}
