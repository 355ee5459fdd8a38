package egtb

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// A plan can be run by other tools than Build: WriteMakefile renders it as a
// Makefile (every job of a level at once on one machine, make -j N), and
// WriteSlurm as a script that submits each job to a Slurm cluster, after
// the jobs it needs. Both run each job as
//
//	millengine egtb build --sector MvO --dir DIR --max-pieces N --threads T --variant V
//
// and both skip a job whose tables are all in DIR: a finished table is never
// rewritten, so whether it is there is all that counts.

// ScriptOptions say how the jobs of a rendered plan run.
type ScriptOptions struct {
	Params    Params // the rule parameters of the plan
	Variant   string // the rule preset each job is built with (--variant), one of Params
	MaxPieces int    // the plan's --max-pieces, given to every job so that it finds itself in the plan
	Binary    string // millengine as the machines that run the jobs see it: an absolute path
	Dir       string // the table directory every job reads and writes: an absolute path
	Threads   int    // solver threads of a job (--threads; Slurm's --cpus-per-task)
	Game      bool   // the plan is the whole game's (GamePlan): the jobs build with --game
}

// WriteScript writes plan as format "make" (WriteMakefile) or "slurm"
// (WriteSlurm), with the options left out filled in for the machine it runs
// on: an empty Binary is this program, a relative Dir is made absolute, 0
// Threads is one per CPU here.
func WriteScript(w io.Writer, format string, plan []Job, o ScriptOptions) error {
	write := map[string]func(io.Writer, []Job, ScriptOptions) error{"make": WriteMakefile, "slurm": WriteSlurm}[format]
	if write == nil {
		return fmt.Errorf("egtb: script format %q: want make or slurm", format)
	}
	if o.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("egtb: cannot find this program to run the jobs (%w): give its path", err)
		}
		o.Binary = exe
	}
	var err error
	if o.Binary, err = filepath.Abs(o.Binary); err != nil {
		return err
	}
	if o.Dir, err = filepath.Abs(o.Dir); err != nil {
		return err
	}
	if o.Threads == 0 {
		o.Threads = runtime.NumCPU()
	}
	return write(w, plan, o)
}

// safePath is what a path in a script may hold: make cannot quote a space, a
// colon, '%', '#', '$', '~' or a wildcard in a target, and Slurm reads '%' in
// --output as a pattern, so the paths stay plain. The environment can still
// give other paths to the Slurm script (it quotes them).
var safePath = regexp.MustCompile(`^/[A-Za-z0-9._+,@/-]*$`)

// safeWord is what a preset name may hold: it goes into a recipe unquoted.
var safeWord = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// check reports the first option a script cannot be written with.
func (o ScriptOptions) check() error {
	switch {
	case !o.Params.valid():
		return fmt.Errorf("egtb: invalid parameters %+v", o.Params)
	case o.MaxPieces < 2*o.Params.MinPieces || o.MaxPieces > MaxPieces:
		return fmt.Errorf("egtb: --max-pieces %d is out of range %d..%d", o.MaxPieces, 2*o.Params.MinPieces, MaxPieces)
	case o.Threads < 1 || o.Threads > 1024:
		return fmt.Errorf("egtb: %d threads a job: want 1..1024", o.Threads)
	case !safeWord.MatchString(o.Variant):
		return fmt.Errorf("egtb: variant %q: want a preset name (lower-case letters, digits, '-')", o.Variant)
	}
	for _, p := range []struct{ what, path string }{{"millengine binary", o.Binary}, {"table directory", o.Dir}} {
		if !filepath.IsAbs(p.path) {
			return fmt.Errorf("egtb: the %s %q is not an absolute path (the jobs run elsewhere)", p.what, p.path)
		}
		if !safePath.MatchString(p.path) {
			return fmt.Errorf("egtb: the %s %q has characters make or Slurm cannot take (use letters, digits and . _ + , @ / -)", p.what, p.path)
		}
	}
	return nil
}

// Tables lists the file names of the tables job j writes, in the order it
// writes them: each metric of j.Metrics for each sector of the pair.
func (j Job) Tables(p Params) []string {
	var out []string
	for _, m := range j.Metrics {
		for _, s := range j.Sectors {
			out = append(out, fileName(p, s, m))
		}
	}
	return out
}

// Inputs lists the file names of the tables job j reads, one per need: the
// DTM table of each need when j solves DTM tables (its DTM solve reads them;
// its DTZ solve then takes any table of a need), else the DTZ table, the
// table a need beyond DTMPieces has.
//
// A placing sector's job reads the WDL tables of its placing needs and the
// DTZ tables of its moving ones.
func (j Job) Inputs(p Params) []string {
	m := j.Metrics[0]
	var out []string
	for _, s := range j.Needs {
		switch {
		case m == WDL && !s.Placing():
			out = append(out, fileName(p, s, DTZ))
		case m == WDL:
			out = append(out, fileName(p, s, WDL))
		default:
			out = append(out, fileName(p, s, m))
		}
	}
	return out
}

// The solver speeds behind the time limits, measured with 2 threads on the
// 2-core development machine: slots a second of one solve (one metric). A
// pair where a side flies has many more moves a position, so it is slower.
// The limit allows timeFactor times the time at these speeds, and never
// less than minTimeLimit (a small job still has to start, read its needs
// and write its tables on a busy shared file system).
const (
	solveSlotsPerSecond    = 1.1e6
	flyingSlotsPerSecond   = 0.6e6
	placingSlotsPerSecond  = 4e6 // a placing sector's one pass
	timeFactor             = 4
	minTimeLimit           = 10 * time.Minute
	memoryMargin           = 512 << 20 // the Go runtime, the binary, the smaller sectors' mappings
	memoryMarginPercentage = 25        // the garbage collector's slack on the solver's own allocations
)

// TimeLimit is a generous bound on the wall time of job j solved with
// threads threads, in whole minutes (Slurm's --time): its slots once per
// metric at the measured speeds (no credit for more than 2 threads, half
// the speed with one), times 4, at least 10 minutes. Too short a limit kills
// the job (a rerun goes on from its checkpoint); too long only makes it
// harder for the scheduler to fit it in.
func (j Job) TimeLimit(p Params, threads int) time.Duration {
	rate := solveSlotsPerSecond
	switch {
	case j.Metrics[0] == WDL:
		rate = placingSlotsPerSecond
	case p.flies(j.Sectors[0].M): // the first sector has the smaller side
		rate = flyingSlotsPerSecond
	}
	rate *= float64(min(max(threads, 1), 2)) / 2
	sec := float64(j.Slots) * float64(len(j.Metrics)) / rate * timeFactor
	return max(time.Duration(math.Ceil(sec/60))*time.Minute, minTimeLimit)
}

// MemoryLimit is the memory to reserve for job j, in bytes rounded up to a
// MiB (Slurm's --mem): Memory plus a quarter and 512 MiB.
func (j Job) MemoryLimit() uint64 {
	m := j.Memory()
	m += m*memoryMarginPercentage/100 + memoryMargin
	return (m + 1<<20 - 1) &^ (1<<20 - 1)
}

// slurmTime writes d as Slurm's time format: hours:minutes:seconds, with
// days- in front from a day on.
func slurmTime(d time.Duration) string {
	s := int64(d / time.Second)
	days, h, m, sec := s/86400, s/3600%24, s/60%60, s%60
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, sec)
	}
	return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
}

// summary is the first comment line of a script: the set, its size and the
// largest job's memory.
func summary(plan []Job, o ScriptOptions) string {
	sectors, levels := 0, 0
	var peak uint64
	for _, j := range plan {
		sectors += len(j.Sectors)
		levels = max(levels, j.Level+1)
		peak = max(peak, j.Memory())
	}
	return fmt.Sprintf("Endgame tables %s up to %d pieces (variant %s): %d jobs, %d sectors, %d levels;\n# the largest job takes about %d MB.",
		o.Params.Name(), o.MaxPieces, o.Variant, len(plan), sectors, levels, peak>>20)
}

// jobComment describes job j above its rule or line.
func jobComment(j Job) string {
	var secs, metrics, needs []string
	for _, s := range j.Sectors {
		secs = append(secs, s.String())
	}
	for _, m := range j.Metrics {
		metrics = append(metrics, m.String())
	}
	for _, s := range j.Needs {
		needs = append(needs, s.String())
	}
	return fmt.Sprintf("# level %d: %s, %s, %d slots, about %d MB; needs %s", j.Level, strings.Join(secs, " with "),
		strings.Join(metrics, " and "), j.Slots, j.Memory()>>20, orNone(strings.Join(needs, " ")))
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// buildArgs are the arguments of a job's egtb build after the binary, with
// dir and threads as given (make variables or shell words).
func buildArgs(j Job, o ScriptOptions, dir, threads string) string {
	game := ""
	if o.Game {
		game = " --game"
	}
	return fmt.Sprintf("egtb build%s --sector %s --dir %s --max-pieces %d --threads %s --variant %s", game, j.Name(), dir, o.MaxPieces, threads, o.Variant)
}

const makeHead = `# Written by millengine egtb plan --format make. Run it with GNU make 4.3 or later:
#
#   make -j N -f THIS_FILE [MILLENGINE=PATH] [DIR=PATH] [THREADS=T]
#
# builds the tables that are not in DIR, up to N jobs at once (each with
# THREADS solver threads and about the memory its comment gives), and skips
# the tables that are there. A job stopped midway goes on from its checkpoint
# the next time.
#
# A rule per job: its targets are the tables it writes, grouped (&:) so that
# make runs the job once for all of them, and again while any is missing
# (egtb build skips those that are there). The tables themselves are the
# targets rather than a stamp file, which would still say "done" after a table
# was deleted. The prerequisites, the tables of the job's needs, are
# order-only (after |): a table is never rewritten, so only whether it exists
# matters, and a need's file newer than the job's (rebuilt after a deletion, or
# clocks that differ on a shared file system) must not rerun a job that has
# nothing left to do.
`

// WriteMakefile writes plan as a GNU Makefile (make 4.3 or later, for its
// grouped targets): one rule per job, its tables the targets, its needs'
// tables order-only prerequisites, and all, the default goal, every table.
// make -j N -f FILE then builds the set on one machine, N jobs at a time,
// and skips the tables there are.
func WriteMakefile(w io.Writer, plan []Job, o ScriptOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n%s\n", summary(plan, o), makeHead)
	fmt.Fprintf(&b, "MILLENGINE ?= %s\nDIR ?= %s\nTHREADS ?= %d\n\n", o.Binary, o.Dir, o.Threads)
	b.WriteString("ifeq ($(filter grouped-target,$(.FEATURES)),)\n" +
		"$(error this Makefile needs GNU make 4.3 or later, for its grouped targets (a b &: c))\n" +
		"endif\n\n")
	b.WriteString("TABLES =")
	for _, j := range plan {
		for _, f := range j.Tables(o.Params) {
			b.WriteString(" \\\n\t$(DIR)/" + f)
		}
	}
	b.WriteString("\n\n.PHONY: all\nall: $(TABLES)\n")
	for _, j := range plan {
		fmt.Fprintf(&b, "\n%s\n", jobComment(j))
		for _, f := range j.Tables(o.Params) {
			b.WriteString("$(DIR)/" + f + " ")
		}
		b.WriteString("&:")
		if in := j.Inputs(o.Params); len(in) > 0 {
			b.WriteString(" |")
			for _, f := range in {
				b.WriteString(" $(DIR)/" + f)
			}
		}
		fmt.Fprintf(&b, "\n\t$(MILLENGINE) %s\n", buildArgs(j, o, "$(DIR)", "$(THREADS)"))
	}
	b.WriteString("\n# The tables are written atomically: make, interrupted, must not delete\n" +
		"# those a job finished before it was stopped.\n.PRECIOUS: $(TABLES)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

const slurmHead = `# Written by millengine egtb plan --format slurm. Run it with bash where sbatch
# works:
#
#   [MILLENGINE=PATH] [DIR=PATH] [THREADS=T] [SBATCH_ARGS=...] bash THIS_FILE
#
# It submits one Slurm job per job of the plan whose tables are not all in
# DIR (checked now, by name), with --dependency=afterok on the jobs of its
# needs that this run submitted or found still queued, and prints each job's
# id or why it was skipped. DIR must be a directory every node sees (NFS, a
# parallel file system), MILLENGINE the same millengine build on every node.
# After a failure (the job's output is in LOGDIR; the jobs waiting for it are
# cancelled, --kill-on-invalid-dep) run it again: it skips the jobs whose
# tables are built, and a job stopped midway goes on from its checkpoint.
#
# Variables, each taken from the environment if set there:
#   MILLENGINE   millengine on the nodes
#   DIR          the shared table directory
#   THREADS      solver threads of a job, its --cpus-per-task
#   LOGDIR       the jobs' output, one file egtb-MvO-JOBID.out each
#   SBATCH       the command that submits a job (split at spaces)
#   SBATCH_ARGS  more sbatch arguments for every job, split at spaces (a
#                partition, an account); they come last, so they override
#                the --time and --mem below
#   SQUEUE       lists this user's queued jobs (split at spaces), so that a
#                rerun does not submit again a job still queued or running
#                from an earlier run; empty: do not look
set -euo pipefail
`

// slurmBody is the script's code between its variables and its jobs: job
// submits one job, the queue is read once before.
const slurmBody = `
declare -A jobid=()   # job → the Slurm job that builds it: submitted now or still queued
declare -A queued=()  # job → its Slurm job still queued or running from an earlier run
submitted=() skipped=() waiting=()

mkdir -p "$DIR" "$LOGDIR"
if [[ -n $SQUEUE ]]; then
	list=$($SQUEUE --noheader --user="$(id -un)" --states=PENDING,RUNNING,CONFIGURING,SUSPENDED --format='%i %j %k') ||
		{ echo "$SQUEUE failed: is Slurm there? (SQUEUE= not to look at the queue)" >&2; exit 1; }
	while read -r id name comment; do
		if [[ $name == egtb-* && $comment == "egtb $DIR" ]]; then
			queued[${name#egtb-}]=$id
		fi
	done <<<"$list"
fi

# job NAME MEMORY TIME AFTER TABLES submits the job NAME (egtb build --sector
# NAME) unless all its TABLES (file names in DIR) are there or it is still
# queued, after those of the jobs AFTER (the jobs of its needs) that this run
# submitted or found queued: the others are built.
job() {
	local name=$1 mem=$2 limit=$3 needs=$4 tables=$5 t n cmd out built=1
	local -a after=()
	for t in $tables; do
		[[ -e $DIR/$t ]] || built=0
	done
	if ((built)); then
		skipped+=("$name")
		echo "egtb-$name: built, skipped"
		return
	fi
	if [[ -n ${queued[$name]:-} ]]; then
		jobid[$name]=${queued[$name]}
		waiting+=("${queued[$name]}")
		echo "egtb-$name: job ${queued[$name]}, still queued from an earlier run"
		return
	fi
	for n in $needs; do
		if [[ -n ${jobid[$n]:-} ]]; then
			after+=("${jobid[$n]}")
		fi
	done
	cmd=$(printf ' %q' "$MILLENGINE" egtb build --sector "$name" --dir "$DIR" --max-pieces "$MAX_PIECES" --threads "$THREADS" --variant "$VARIANT")
	local dep=${after[*]}
	if ! out=$($SBATCH --parsable --job-name="egtb-$name" --comment="egtb $DIR" --chdir="$DIR" \
		--cpus-per-task="$THREADS" --mem="$mem" --time="$limit" --output="$LOGDIR/egtb-$name-%j.out" \
		--kill-on-invalid-dep=yes ${dep:+"--dependency=afterok:${dep// /:}"} $SBATCH_ARGS <<EOF
#!/bin/bash
echo "egtb-$name: Slurm job \$SLURM_JOB_ID on \$(hostname), \$(date '+%F %T')"
exec$cmd
EOF
	); then
		echo "egtb-$name: $SBATCH failed; submitted before it: ${submitted[*]:--} (run this again: it waits for those)" >&2
		exit 1
	fi
	jobid[$name]=${out%%;*}
	submitted+=("${jobid[$name]}")
	echo "egtb-$name: job ${jobid[$name]}${dep:+ after $dep}"
}
`

const slurmTail = `
echo "submitted ${#submitted[@]}: ${submitted[*]:--}"
echo "skipped ${#skipped[@]} built: ${skipped[*]:--}"
if ((${#waiting[@]})); then
	echo "still queued ${#waiting[@]}: ${waiting[*]}"
fi
`

// neededJobs lists the names of the jobs of plan that write the tables job
// j needs, each once, in the order of j.Needs (4v5 needs 4v4 and 3v5, the
// sector of job 3v5).
func neededJobs(j Job, p Params, plan []Job) []string {
	var out []string
	for _, s := range j.Needs {
		n, ok := p.JobOf(s, plan)
		if ok && !slices.Contains(out, n.Name()) {
			out = append(out, n.Name())
		}
	}
	return out
}

// WriteSlurm writes plan as a bash script that submits each job to Slurm
// with sbatch (see slurmHead for what it does and the variables it takes):
// a job per line, with its --mem (MemoryLimit), --time (TimeLimit), needs
// and tables.
func WriteSlurm(w io.Writer, plan []Job, o ScriptOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/usr/bin/env bash\n# %s\n%s\n", summary(plan, o), slurmHead)
	fmt.Fprintf(&b, "MILLENGINE=${MILLENGINE:-%s}\nDIR=${DIR:-%s}\nTHREADS=${THREADS:-%d}\nLOGDIR=${LOGDIR:-$DIR/slurm-logs}\n"+
		"SBATCH=${SBATCH:-sbatch}\nSBATCH_ARGS=${SBATCH_ARGS:-}\nSQUEUE=${SQUEUE-squeue}\nMAX_PIECES=%d\nVARIANT=%s\n",
		o.Binary, o.Dir, o.Threads, o.MaxPieces, o.Variant)
	b.WriteString(slurmBody)
	for _, j := range plan {
		fmt.Fprintf(&b, "\n%s\njob %s %dM %s '%s' '%s'\n", jobComment(j), j.Name(), j.MemoryLimit()>>20,
			slurmTime(j.TimeLimit(o.Params, o.Threads)), strings.Join(neededJobs(j, o.Params, plan), " "), strings.Join(j.Tables(o.Params), " "))
	}
	b.WriteString(slurmTail)
	_, err := io.WriteString(w, b.String())
	return err
}
