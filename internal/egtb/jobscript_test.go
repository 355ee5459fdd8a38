package egtb

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scriptOpts are the options of the scripts the tests render.
func scriptOpts(dir string) ScriptOptions {
	return ScriptOptions{Params: Standard, Variant: "nine-mens-morris", MaxPieces: 8,
		Binary: "/opt/millengine/bin/millengine", Dir: dir, Threads: 2}
}

// render writes plan with write and returns the text.
func render(t *testing.T, write func(*strings.Builder) error) string {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// makefile8 is the Makefile of the tables up to 8 pieces from its variables
// on (the header comment before them is checked on its own).
const makefile8 = `MILLENGINE ?= /opt/millengine/bin/millengine
DIR ?= /srv/egtb
THREADS ?= 2

ifeq ($(filter grouped-target,$(.FEATURES)),)
$(error this Makefile needs GNU make 4.3 or later, for its grouped targets (a b &: c))
endif

TABLES = \
	$(DIR)/plain-fly3-min3-3v3.egtb \
	$(DIR)/plain-fly3-min3-3v3-dtz.egtb \
	$(DIR)/plain-fly3-min3-3v4.egtb \
	$(DIR)/plain-fly3-min3-4v3.egtb \
	$(DIR)/plain-fly3-min3-3v4-dtz.egtb \
	$(DIR)/plain-fly3-min3-4v3-dtz.egtb \
	$(DIR)/plain-fly3-min3-3v5.egtb \
	$(DIR)/plain-fly3-min3-5v3.egtb \
	$(DIR)/plain-fly3-min3-3v5-dtz.egtb \
	$(DIR)/plain-fly3-min3-5v3-dtz.egtb \
	$(DIR)/plain-fly3-min3-4v4.egtb \
	$(DIR)/plain-fly3-min3-4v4-dtz.egtb

.PHONY: all
all: $(TABLES)

# level 0: 3v3, dtm and dtz, 210140 slots, about 1 MB; needs none
$(DIR)/plain-fly3-min3-3v3.egtb $(DIR)/plain-fly3-min3-3v3-dtz.egtb &:
	$(MILLENGINE) egtb build --sector 3v3 --dir $(DIR) --max-pieces 8 --threads $(THREADS) --variant nine-mens-morris

# level 1: 3v4 with 4v3, dtm and dtz, 1808610 slots, about 8 MB; needs 3v3
$(DIR)/plain-fly3-min3-3v4.egtb $(DIR)/plain-fly3-min3-4v3.egtb $(DIR)/plain-fly3-min3-3v4-dtz.egtb $(DIR)/plain-fly3-min3-4v3-dtz.egtb &: | $(DIR)/plain-fly3-min3-3v3.egtb
	$(MILLENGINE) egtb build --sector 3v4 --dir $(DIR) --max-pieces 8 --threads $(THREADS) --variant nine-mens-morris

# level 2: 3v5 with 5v3, dtm and dtz, 5957412 slots, about 29 MB; needs 4v3
$(DIR)/plain-fly3-min3-3v5.egtb $(DIR)/plain-fly3-min3-5v3.egtb $(DIR)/plain-fly3-min3-3v5-dtz.egtb $(DIR)/plain-fly3-min3-5v3-dtz.egtb &: | $(DIR)/plain-fly3-min3-4v3.egtb
	$(MILLENGINE) egtb build --sector 3v5 --dir $(DIR) --max-pieces 8 --threads $(THREADS) --variant nine-mens-morris

# level 2: 4v4, dtm and dtz, 3667665 slots, about 18 MB; needs 3v4
$(DIR)/plain-fly3-min3-4v4.egtb $(DIR)/plain-fly3-min3-4v4-dtz.egtb &: | $(DIR)/plain-fly3-min3-3v4.egtb
	$(MILLENGINE) egtb build --sector 4v4 --dir $(DIR) --max-pieces 8 --threads $(THREADS) --variant nine-mens-morris

# The tables are written atomically: make, interrupted, must not delete
# those a job finished before it was stopped.
.PRECIOUS: $(TABLES)
`

// The Makefile of the tables up to 8 pieces, rule by rule: the tables of a
// job are its grouped targets, its needs' DTM tables its order-only
// prerequisites, its recipe the job's egtb build. Beyond 10 pieces a job
// writes and needs DTZ tables only.
func TestWriteMakefile(t *testing.T) {
	mk := render(t, func(b *strings.Builder) error { return WriteMakefile(b, Standard.Plan(8), scriptOpts("/srv/egtb")) })
	head, body, ok := strings.Cut(mk, "\n\nMILLENGINE ?=")
	if !ok {
		t.Fatalf("no MILLENGINE variable:\n%s", mk)
	}
	if want := "# Endgame tables plain-fly3-min3 up to 8 pieces (variant nine-mens-morris): 4 jobs, 6 sectors, 3 levels;\n# the largest job takes about 29 MB.\n# Written by millengine egtb plan --format make."; !strings.HasPrefix(head, want) {
		t.Errorf("header\n%s\ndoes not start with\n%s", head, want)
	}
	if got := "MILLENGINE ?=" + body; got != makefile8 {
		t.Errorf("Makefile\n%s\nwant\n%s", got, makefile8)
	}
	// 5v6 (11 pieces): DTZ only, its needs' DTZ tables.
	o := scriptOpts("/srv/egtb")
	o.MaxPieces = 11
	mk = render(t, func(b *strings.Builder) error { return WriteMakefile(b, Standard.Plan(11), o) })
	want := "# level 5: 5v6 with 6v5, dtz, 151959192 slots, about 783 MB; needs 5v5 4v6\n" +
		"$(DIR)/plain-fly3-min3-5v6-dtz.egtb $(DIR)/plain-fly3-min3-6v5-dtz.egtb &: | $(DIR)/plain-fly3-min3-5v5-dtz.egtb $(DIR)/plain-fly3-min3-4v6-dtz.egtb\n" +
		"\t$(MILLENGINE) egtb build --sector 5v6 --dir $(DIR) --max-pieces 11 --threads $(THREADS) --variant nine-mens-morris\n"
	if !strings.Contains(mk, want) {
		t.Errorf("the 11-piece Makefile has no rule\n%s", want)
	}
}

// writeScript writes an executable shell script into dir.
func writeScript(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// touch creates empty files: a table's name is all a script checks.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cleanEnv is the environment without make's variables, so that a test run
// under make (make test) does not hand its jobserver to the make it runs.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains([]string{"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES", "GNUMAKEFLAGS", "DIR", "MILLENGINE", "THREADS",
			"LOGDIR", "SBATCH", "SBATCH_ARGS", "SQUEUE"}, k) {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// The generated Makefile run by make with a fake millengine that creates
// the files of its pair (and logs its arguments): a fresh directory gets
// every job once, needs first; a second run does nothing; a missing table
// reruns its job only; a need newer than a job's tables reruns nothing.
func TestMakefileRuns(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "tables")
	log := filepath.Join(tmp, "log")
	fake := writeScript(t, tmp, "millengine", `#!/bin/sh
# egtb build --sector MvO --dir D ...: the tables of MvO and OvM, both metrics.
echo "$*" >> `+log+`
s=$4 d=$6
m=${s%v*} o=${s#*v}
mkdir -p "$d"
for f in $m"v"$o $o"v"$m $m"v"$o-dtz $o"v"$m-dtz; do
	[ -e "$d/plain-fly3-min3-$f.egtb" ] || : > "$d/plain-fly3-min3-$f.egtb"
done
`)
	o := scriptOpts(dir)
	o.Binary = fake
	mk := filepath.Join(tmp, "plan.mk")
	if err := os.WriteFile(mk, []byte(render(t, func(b *strings.Builder) error { return WriteMakefile(b, Standard.Plan(8), o) })), 0o644); err != nil {
		t.Fatal(err)
	}
	runMake := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("make", append([]string{"-f", mk}, args...)...)
		cmd.Env = cleanEnv()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	jobs := func() []string {
		t.Helper()
		b, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	line := func(s string) string {
		return "egtb build --sector " + s + " --dir " + dir + " --max-pieces 8 --threads 2 --variant nine-mens-morris"
	}

	runMake("-j2")
	got := jobs()
	if len(got) != 4 || got[0] != line("3v3") || got[1] != line("3v4") ||
		!(got[2] == line("3v5") && got[3] == line("4v4") || got[2] == line("4v4") && got[3] == line("3v5")) {
		t.Fatalf("fresh directory: jobs run\n%s", strings.Join(got, "\n"))
	}
	if out := runMake("-j2"); !strings.Contains(out, "Nothing to be done for 'all'") || len(jobs()) != 4 {
		t.Errorf("second run: %q, %d jobs in all", out, len(jobs()))
	}
	// A table of 3v5 gone: only its job runs again.
	if err := os.Remove(filepath.Join(dir, "plain-fly3-min3-5v3-dtz.egtb")); err != nil {
		t.Fatal(err)
	}
	runMake("-j2")
	if got := jobs(); len(got) != 5 || got[4] != line("3v5") {
		t.Errorf("after removing a table of 3v5: jobs run\n%s", strings.Join(got, "\n"))
	}
	// Needs newer than the tables that read them: nothing to do.
	future := time.Now().Add(time.Hour)
	for _, n := range []string{"3v3", "3v4", "4v3"} {
		if err := os.Chtimes(filepath.Join(dir, "plain-fly3-min3-"+n+".egtb"), future, future); err != nil {
			t.Fatal(err)
		}
	}
	if out := runMake(); !strings.Contains(out, "Nothing to be done for 'all'") || len(jobs()) != 5 {
		t.Errorf("needs newer than the tables: %q, %d jobs in all", out, len(jobs()))
	}
	// A need gone with the job that reads it: the need's job first.
	for _, n := range []string{"4v3", "3v5"} {
		if err := os.Remove(filepath.Join(dir, "plain-fly3-min3-"+n+".egtb")); err != nil {
			t.Fatal(err)
		}
	}
	runMake("-j2")
	if got := jobs(); len(got) != 7 || got[5] != line("3v4") || got[6] != line("3v5") {
		t.Errorf("after removing 4v3 and 3v5: jobs run\n%s", strings.Join(got, "\n"))
	}
}

// The job lines of the Slurm script up to 8 pieces: memory, time limit,
// the jobs it waits for and the tables it writes.
const slurmJobs8 = `job 3v3 514M 0:10:00 '' 'plain-fly3-min3-3v3.egtb plain-fly3-min3-3v3-dtz.egtb'
job 3v4 524M 0:10:00 '3v3' 'plain-fly3-min3-3v4.egtb plain-fly3-min3-4v3.egtb plain-fly3-min3-3v4-dtz.egtb plain-fly3-min3-4v3-dtz.egtb'
job 3v5 549M 0:10:00 '3v4' 'plain-fly3-min3-3v5.egtb plain-fly3-min3-5v3.egtb plain-fly3-min3-3v5-dtz.egtb plain-fly3-min3-5v3-dtz.egtb'
job 4v4 535M 0:10:00 '3v4' 'plain-fly3-min3-4v4.egtb plain-fly3-min3-4v4-dtz.egtb'
`

// slurmRun is one run of a Slurm script against a fake sbatch and squeue.
type slurmRun struct {
	code   int
	stdout string
	stderr string
	sbatch []string // the fake sbatch's argument lists, one a line, %q-quoted
	jobs   []string // the job scripts it read on stdin
	fake   string   // the fake sbatch's path
}

// runSlurm runs the script at path with a fake sbatch that logs its
// arguments and stdin and answers ids from 101 on ("101;cluster", as
// --parsable does on a multi-cluster setup), failing from the failAt-th
// submission on if failAt > 0, and with a fake squeue that prints queue.
func runSlurm(t *testing.T, path, dir, queue string, failAt int) slurmRun {
	t.Helper()
	tmp := t.TempDir()
	log := filepath.Join(tmp, "sbatch.log")
	sbatch := writeScript(t, tmp, "sbatch", `#!/bin/bash
n=$(cat `+log+`.n 2>/dev/null || echo 100); n=$((n+1)); echo $n > `+log+`.n
if ((`+strconv.Itoa(failAt)+` > 0 && n - 100 >= `+strconv.Itoa(failAt)+`)); then echo "sbatch: error: no" >&2; exit 1; fi
echo "sbatch$(printf ' %q' "$@")" >> `+log+`
cat > `+log+`.$n
echo "$n;cluster"
`)
	squeue := writeScript(t, tmp, "squeue", "#!/bin/sh\necho \"$*\" > "+filepath.Join(tmp, "squeue.args")+"\nprintf '%s' '"+queue+"'\n")
	cmd := exec.Command("bash", path)
	cmd.Env = cleanEnv("DIR="+dir, "SBATCH="+sbatch, "SQUEUE="+squeue)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := slurmRun{fake: sbatch}
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		r.code = ee.ExitCode()
	}
	r.stdout, r.stderr = out.String(), errb.String()
	if b, err := os.ReadFile(log); err == nil {
		r.sbatch = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	for i := 101; ; i++ {
		b, err := os.ReadFile(log + "." + strconv.Itoa(i))
		if err != nil {
			break
		}
		r.jobs = append(r.jobs, string(b))
	}
	if b, err := os.ReadFile(filepath.Join(tmp, "squeue.args")); err != nil || string(b) != "--noheader --user="+currentUser(t)+" --states=PENDING,RUNNING,CONFIGURING,SUSPENDED --format=%i %j %k\n" {
		t.Errorf("squeue arguments %q, %v", b, err)
	}
	return r
}

// currentUser is id -un, as the script asks squeue for.
func currentUser(t *testing.T) string {
	out, err := exec.Command("id", "-un").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// The Slurm script up to 8 pieces, run with a fake sbatch: in a fresh
// directory it submits the 4 jobs, each after the job of its need, with
// its name, memory, time limit and log file, and each job runs the job's
// egtb build; where 3v3 and 3v4 are built it submits the other two with no
// dependency; a job of an earlier run still queued for the same directory is
// waited for, not submitted again; a failed sbatch stops it, naming what it
// had submitted.
func TestWriteSlurm(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "tables")
	sh := render(t, func(b *strings.Builder) error { return WriteSlurm(b, Standard.Plan(8), scriptOpts(dir)) })
	if want := "#!/usr/bin/env bash\n# Endgame tables plain-fly3-min3 up to 8 pieces (variant nine-mens-morris): 4 jobs, 6 sectors, 3 levels;\n"; !strings.HasPrefix(sh, want) {
		t.Errorf("script starts\n%.200s\nwant\n%s", sh, want)
	}
	vars := "\nMILLENGINE=${MILLENGINE:-/opt/millengine/bin/millengine}\nDIR=${DIR:-" + dir + "}\nTHREADS=${THREADS:-2}\n" +
		"LOGDIR=${LOGDIR:-$DIR/slurm-logs}\nSBATCH=${SBATCH:-sbatch}\nSBATCH_ARGS=${SBATCH_ARGS:-}\nSQUEUE=${SQUEUE-squeue}\nMAX_PIECES=8\nVARIANT=nine-mens-morris\n"
	if !strings.Contains(sh, vars) {
		t.Errorf("script has no variables\n%s", vars)
	}
	var jobLines strings.Builder
	for _, l := range strings.Split(sh, "\n") {
		if strings.HasPrefix(l, "job ") {
			jobLines.WriteString(l + "\n")
		}
	}
	if jobLines.String() != slurmJobs8 {
		t.Errorf("job lines\n%s\nwant\n%s", jobLines.String(), slurmJobs8)
	}
	path := filepath.Join(tmp, "plan.sh")
	if err := os.WriteFile(path, []byte(sh), 0o644); err != nil {
		t.Fatal(err)
	}
	sb := func(name, mem, dep string) string {
		s := "sbatch --parsable --job-name=egtb-" + name + ` --comment=egtb\ ` + dir + " --chdir=" + dir +
			" --cpus-per-task=2 --mem=" + mem + " --time=0:10:00 --output=" + dir + "/slurm-logs/egtb-" + name + "-%j.out --kill-on-invalid-dep=yes"
		if dep != "" {
			s += " --dependency=afterok:" + dep
		}
		return s
	}
	check := func(what string, r slurmRun, code int, stdout string, sbatch ...string) {
		t.Helper()
		if r.code != code || r.stdout != stdout {
			t.Errorf("%s: exit %d, stdout\n%s\nstderr %s\nwant exit %d, stdout\n%s", what, r.code, r.stdout, r.stderr, code, stdout)
		}
		if strings.Join(r.sbatch, "\n") != strings.Join(sbatch, "\n") {
			t.Errorf("%s: sbatch calls\n%s\nwant\n%s", what, strings.Join(r.sbatch, "\n"), strings.Join(sbatch, "\n"))
		}
	}

	r := runSlurm(t, path, dir, "", 0)
	check("fresh directory", r, 0, "egtb-3v3: job 101\negtb-3v4: job 102 after 101\negtb-3v5: job 103 after 102\negtb-4v4: job 104 after 102\n"+
		"submitted 4: 101 102 103 104\nskipped 0 built: -\n",
		sb("3v3", "514M", ""), sb("3v4", "524M", "101"), sb("3v5", "549M", "102"), sb("4v4", "535M", "102"))
	if len(r.jobs) != 4 || r.jobs[2] != "#!/bin/bash\necho \"egtb-3v5: Slurm job $SLURM_JOB_ID on $(hostname), $(date '+%F %T')\"\n"+
		"exec /opt/millengine/bin/millengine egtb build --sector 3v5 --dir "+dir+" --max-pieces 8 --threads 2 --variant nine-mens-morris\n" {
		t.Errorf("job scripts %q", r.jobs)
	}
	if st, err := os.Stat(filepath.Join(dir, "slurm-logs")); err != nil || !st.IsDir() {
		t.Errorf("no log directory: %v", err)
	}

	// 3v3 and 3v4 built, 3v5 half built (its DTM tables, not its DTZ tables).
	touch(t, dir, "plain-fly3-min3-3v3.egtb", "plain-fly3-min3-3v3-dtz.egtb", "plain-fly3-min3-3v4.egtb", "plain-fly3-min3-4v3.egtb",
		"plain-fly3-min3-3v4-dtz.egtb", "plain-fly3-min3-4v3-dtz.egtb", "plain-fly3-min3-3v5.egtb", "plain-fly3-min3-5v3.egtb")
	r = runSlurm(t, path, dir, "", 0)
	check("3v3 and 3v4 built", r, 0, "egtb-3v3: built, skipped\negtb-3v4: built, skipped\negtb-3v5: job 101\negtb-4v4: job 102\n"+
		"submitted 2: 101 102\nskipped 2 built: 3v3 3v4\n",
		sb("3v5", "549M", ""), sb("4v4", "535M", ""))

	// 3v4 still queued from an earlier run (3v4's tables gone again), a job
	// of the same name for another directory, a job of another name.
	for _, n := range []string{"3v4", "4v3", "3v4-dtz", "4v3-dtz"} {
		if err := os.Remove(filepath.Join(dir, "plain-fly3-min3-"+n+".egtb")); err != nil {
			t.Fatal(err)
		}
	}
	queue := "555 egtb-3v4 egtb " + dir + "\n556 egtb-3v5 egtb /elsewhere\n557 other egtb " + dir + "\n"
	r = runSlurm(t, path, dir, queue, 0)
	check("3v4 queued", r, 0, "egtb-3v3: built, skipped\negtb-3v4: job 555, still queued from an earlier run\negtb-3v5: job 101 after 555\negtb-4v4: job 102 after 555\n"+
		"submitted 2: 101 102\nskipped 1 built: 3v3\nstill queued 1: 555\n",
		sb("3v5", "549M", "555"), sb("4v4", "535M", "555"))

	// sbatch fails at the second job.
	r = runSlurm(t, path, dir, "", 2)
	check("sbatch fails", r, 1, "egtb-3v3: built, skipped\negtb-3v4: job 101\n", sb("3v4", "524M", ""))
	if want := "sbatch: error: no\negtb-3v5: " + r.fake + " failed; submitted before it: 101 (run this again: it waits for those)\n"; r.stderr != want {
		t.Errorf("sbatch fails: stderr %q, want %q", r.stderr, want)
	}

	// Up to 9 pieces 4v5 waits for two jobs, 4v4 and 3v5, in that order.
	o := scriptOpts(dir)
	o.MaxPieces = 9
	sh = render(t, func(b *strings.Builder) error { return WriteSlurm(b, Standard.Plan(9), o) })
	if err := os.WriteFile(path, []byte(sh), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	r = runSlurm(t, path, dir, "", 0)
	if len(r.sbatch) != 6 || r.sbatch[5] != sb("4v5", "656M", "104:103") || !strings.Contains(r.stdout, "egtb-4v5: job 106 after 104 103\n") {
		t.Errorf("up to 9 pieces: sbatch calls\n%s\nstdout\n%s", strings.Join(r.sbatch, "\n"), r.stdout)
	}
}

// Options a script cannot be written with are refused, saying why.
func TestScriptOptionsErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(*ScriptOptions)
		want string
	}{
		{func(o *ScriptOptions) { o.Dir = "tables" }, `egtb: the table directory "tables" is not an absolute path (the jobs run elsewhere)`},
		{func(o *ScriptOptions) { o.Binary = "" }, `egtb: the millengine binary "" is not an absolute path (the jobs run elsewhere)`},
		{func(o *ScriptOptions) { o.Dir = "/my tables" }, `egtb: the table directory "/my tables" has characters make or Slurm cannot take (use letters, digits and . _ + , @ / -)`},
		{func(o *ScriptOptions) { o.Dir = "/t%j" }, `egtb: the table directory "/t%j" has characters make or Slurm cannot take`},
		{func(o *ScriptOptions) { o.Binary = "/bin/$(rm)" }, `egtb: the millengine binary "/bin/$(rm)" has characters`},
		{func(o *ScriptOptions) { o.Threads = 0 }, "egtb: 0 threads a job: want 1..1024"},
		{func(o *ScriptOptions) { o.MaxPieces = 19 }, "egtb: --max-pieces 19 is out of range 6..18"},
		{func(o *ScriptOptions) { o.Variant = "nine men" }, `egtb: variant "nine men": want a preset name`},
		{func(o *ScriptOptions) { o.Params.MinPieces = 2 }, "egtb: invalid parameters"},
	} {
		o := scriptOpts("/srv/egtb")
		c.edit(&o)
		for _, write := range []func(*strings.Builder) error{
			func(b *strings.Builder) error { return WriteMakefile(b, Standard.Plan(8), o) },
			func(b *strings.Builder) error { return WriteSlurm(b, Standard.Plan(8), o) },
		} {
			var b strings.Builder
			if err := write(&b); err == nil || !strings.HasPrefix(err.Error(), c.want) || b.Len() != 0 {
				t.Errorf("%+v: error %v, wrote %d bytes; want %q", o, err, b.Len(), c.want)
			}
		}
	}
}

// Time limits and memory of the Slurm jobs: 10 minutes at least, four times
// the slots (once per metric) at 1.1 M slots/s, 0.6 M where a side of three
// flies, half that with one thread; the memory a quarter and 512 MiB above
// Memory.
func TestJobLimits(t *testing.T) {
	plan := Standard.Plan(MaxPieces)
	for _, c := range []struct {
		job     string
		threads int
		time    string
		memory  string
	}{
		{"3v3", 2, "0:10:00", "514M"},
		{"3v9", 2, "0:10:00", "1045M"},  // 84151340 slots at 0.6 M/s: 561 s · 4 = 9.35 min
		{"3v9", 1, "0:19:00", "1045M"},  // half the speed: 18.7 min
		{"4v9", 2, "0:15:00", "2102M"},  // 240276920 slots at 1.1 M/s: 218 s · 4 = 14.6 min
		{"4v9", 16, "0:15:00", "2102M"}, // no credit beyond 2 threads
		{"8v9", 2, "1:05:00", "8250M"},  // 1069628560 slots: 972 s · 4 = 64.8 min; 6190 MiB · 1.25 + 512
		{"7v8", 2, "1:06:00", "7896M"},
	} {
		s, _ := ParseSectorSpec(c.job)
		j, ok := Standard.JobOf(s, plan)
		if !ok {
			t.Fatal(c.job)
		}
		if got := slurmTime(j.TimeLimit(Standard, c.threads)); got != c.time {
			t.Errorf("%s, %d threads: time %s, want %s", c.job, c.threads, got, c.time)
		}
		if got := strconv.Itoa(int(j.MemoryLimit()>>20)) + "M"; got != c.memory || j.MemoryLimit()%(1<<20) != 0 {
			t.Errorf("%s: memory %s (%d bytes), want %s", c.job, got, j.MemoryLimit(), c.memory)
		}
	}
	for d, want := range map[time.Duration]string{10 * time.Minute: "0:10:00", 25*time.Hour + 90*time.Second: "1-01:01:30", 99 * time.Hour: "4-03:00:00"} {
		if got := slurmTime(d); got != want {
			t.Errorf("slurmTime(%s) = %s, want %s", d, got, want)
		}
	}
	if !regexp.MustCompile(`^plain-fly3-min3-8v9-dtz\.egtb plain-fly3-min3-9v8-dtz\.egtb$`).MatchString(strings.Join(plan[26].Tables(Standard), " ")) ||
		strings.Join(plan[26].Inputs(Standard), " ") != "plain-fly3-min3-8v8-dtz.egtb plain-fly3-min3-7v9-dtz.egtb" {
		t.Errorf("8v9: tables %v, inputs %v", plan[26].Tables(Standard), plan[26].Inputs(Standard))
	}
}
