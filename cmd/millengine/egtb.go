package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

const egtbUsage = `Usage: millengine egtb <command> [flags]

Endgame tables of the moving phase (no pieces in hand), solved by the engine
itself: win, draw or loss with the distance in turns of the side to move.

Commands:
  plan     the sectors in dependency order, what each needs:  egtb plan [--max-pieces N] [--dir D] [--format text|make|slurm]
  build    solve the missing sectors:  egtb build [--max-pieces N | --sector MvO] [--dir D] [--variant V] [--threads T]
  verify   re-check every entry with the engine's rules:  egtb verify [--dir D] [--variant V]
  stats    counts per sector:  egtb stats [--dir D]
  probe    the value of a position and of each action:  egtb probe [--dir D] --fen FEN [--moves M] [--variant V] [--malom DIR]
  games    what the tables say of millmatch's games:  egtb games [--dir D] [--summary] FILE.jsonl ...
  compare  every entry of Malom's sector files against the tables:  egtb compare --malom DIR [--dir D] [--variant V]
  pack     the tables compressed, probed as they are:  egtb pack [--dir D] --out P
  unpack   the plain files back from packed ones:  egtb unpack [--dir P] --out D

Every command and the engine read plain (.egtb) and packed (.egtbz) files alike;
where a directory holds both forms of a table, the plain file is used.

Run "millengine egtb <command> --help" for a command's flags.
`

// egtbCommands are the subcommands of egtb.
var egtbCommands = map[string]func(e *env, args []string) int{
	"plan": egtbPlan, "build": egtbBuild, "verify": egtbVerify, "stats": egtbStats, "probe": egtbProbe, "games": egtbGames,
	"compare": egtbCompare,
}

// runEGTB implements 'millengine egtb …'.
func runEGTB(e *env, args []string) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
		if len(args) > 1 && egtbCommands[args[1]] != nil {
			return egtbCommands[args[1]](e, []string{"--help"})
		}
		fmt.Fprint(e.stdout, egtbUsage)
		return 0
	}
	if len(args) == 0 {
		return e.usageError("egtb", "want a command: plan, build, verify, stats, probe, games, compare, pack or unpack")
	}
	run := egtbCommands[args[0]]
	if run == nil {
		return e.usageError("egtb", fmt.Sprintf("unknown command %q (want plan, build, verify, stats, probe, games, compare, pack or unpack)", args[0]))
	}
	return run(e, args[1:])
}

// egtbFlags is the flag set of an egtb subcommand, with --dir and, if
// variant is not nil, --variant (the global --variant by default).
func (e *env) egtbFlags(name, usage, doc string, dir, variant *string) *pflag.FlagSet {
	fs := e.subFlags("egtb "+name, "egtb "+usage, doc)
	fs.SortFlags = false
	fs.StringVar(dir, "dir", egtb.DefaultDir(), "table directory")
	if variant != nil {
		fs.StringVarP(variant, "variant", "v", e.g.variant, "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	}
	return fs
}

// parseEGTB parses a subcommand's flags; it returns an exit code to stop
// with, or -1 to go on.
func (e *env) parseEGTB(fs *pflag.FlagSet, args []string, dir *string) int {
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	if *dir == "" {
		return e.usageError(fs.Name(), "no default table directory (no user cache directory): give --dir")
	}
	return -1
}

// variantRules returns the rules of a preset.
func variantRules(name string) (rules.Rules, error) {
	p, ok := rules.PresetByName(name)
	if !ok {
		return rules.Rules{}, fmt.Errorf("--variant %q: unknown variant (want one of %s)", name, strings.Join(rules.PresetKeys(), ", "))
	}
	return p.Rules, nil
}

// sizedParams returns the table parameters of a preset for a build of at
// most maxPieces pieces, checked against the preset's range.
func sizedParams(variant string, maxPieces int) (egtb.Params, error) {
	p, err := variantParams(variant)
	if err != nil {
		return p, err
	}
	if maxPieces < 2*p.MinPieces || maxPieces > egtb.MaxPieces {
		return p, fmt.Errorf("--max-pieces %d is out of range %d..%d", maxPieces, 2*p.MinPieces, egtb.MaxPieces)
	}
	return p, nil
}

// gamePieces returns the pieces a side places under a preset, for --game:
// an error if the placing tables do not cover its placing phase.
func gamePieces(variant string) (int, error) {
	r, err := variantRules(variant)
	if err != nil {
		return 0, err
	}
	n, err := egtb.PlacingOf(&r)
	if err != nil {
		return 0, fmt.Errorf("--game: --variant %s: %w", variant, err)
	}
	return n, nil
}

// gameFlag declares --game.
func gameFlag(fs *pflag.FlagSet) *bool {
	return fs.Bool("game", false, "the whole game: the placing phase's sectors (Malom's W_B_WF_BF) too; --max-pieces then counts the pieces on the board and in hand")
}

// planOf returns the plan of a build: the moving phase's, or with pieces >
// 0 the whole game's.
func planOf(p egtb.Params, pieces, maxPieces int) []egtb.Job {
	if pieces > 0 {
		return p.GamePlan(pieces, maxPieces)
	}
	return p.Plan(maxPieces)
}

// sectorSpecs reads --sector's values.
func sectorSpecs(args []string) ([]egtb.SectorSpec, error) {
	var only []egtb.SectorSpec
	for _, a := range args {
		sp, err := egtb.ParseSectorSpec(a)
		if err != nil {
			return nil, fmt.Errorf("--sector: %w", err)
		}
		only = append(only, sp)
	}
	return only, nil
}

// variantParams returns the table parameters of a preset.
func variantParams(name string) (egtb.Params, error) {
	r, err := variantRules(name)
	if err != nil {
		return egtb.Params{}, err
	}
	p, err := egtb.ParamsOf(&r)
	if err != nil {
		return p, fmt.Errorf("--variant %s: %w", name, err)
	}
	return p, nil
}

func egtbPlan(e *env, args []string) int {
	stdout := e.stdout
	var dir, variant string
	fs := e.egtbFlags("plan", "plan [--game] [--max-pieces N] [--dir D] [--variant V] [--format text|make|slurm [--binary PATH] [--threads T]]",
		"Prints the jobs of a build in dependency order: each job is a pair of sectors (MvO with OvM)\n"+
			"solved together, at a level one above the jobs whose tables it reads (its needs), so the jobs\n"+
			"of one level can run at once. Per job: the tables it writes, its slots (a byte each on\n"+
			"disk), about the most memory its solve takes, its needs, and whether it is built in --dir.\n"+
			"--format make prints instead a Makefile that runs each job as 'egtb build --sector' on this\n"+
			"machine (make -j N -f FILE, GNU make 4.3 or later); --format slurm a bash script that submits\n"+
			"each job to Slurm with sbatch, after the jobs of its needs, with its memory and a time limit.\n"+
			"Both skip the jobs whose tables are in --dir, which every job reads and writes (on a cluster\n"+
			"a directory every node sees); the variables at their top override the paths and threads.\n"+
			"--game adds the placing phase's sectors, one job each, after the moving phase's.",
		&dir, &variant)
	maxPieces := fs.IntP("max-pieces", "n", egtb.MaxPieces, "most pieces on the board (both sides; with --game on the board and in hand)")
	game := gameFlag(fs)
	format := fs.String("format", "text", "text: the table of jobs; make: a Makefile; slurm: a Slurm submission script")
	binary := fs.String("binary", "", "make, slurm: millengine on the machines that run the jobs (default: this program's absolute path)")
	threads := fs.IntP("threads", "t", 0, "make, slurm: solver threads of a job, Slurm's --cpus-per-task (default: one per CPU here)")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	p, err := sizedParams(variant, *maxPieces)
	if err != nil {
		return e.usageError("egtb plan", err.Error())
	}
	pieces := 0
	if *game {
		if pieces, err = gamePieces(variant); err != nil {
			return e.usageError("egtb plan", err.Error())
		}
	}
	plan := planOf(p, pieces, *maxPieces)
	switch {
	case *format == "make" || *format == "slurm":
		preset, _ := rules.PresetByName(variant) // the jobs' --variant is its key: nine-mens-morris for "Nine Men's Morris"
		o := egtb.ScriptOptions{Params: p, Variant: preset.Key, MaxPieces: *maxPieces, Binary: *binary, Dir: dir, Threads: *threads, Game: *game}
		if err := egtb.WriteScript(stdout, *format, plan, o); err != nil {
			return e.usageError("egtb plan", err.Error())
		}
		return 0
	case *format != "text":
		return e.usageError("egtb plan", fmt.Sprintf("--format %q: want text, make or slurm", *format))
	case fs.Changed("binary") || fs.Changed("threads"):
		return e.usageError("egtb plan", "--binary and --threads are for --format make or slurm")
	}
	built := egtb.Built(dir, p)
	var slots, peak uint64
	levels, sectors, done := 0, 0, 0
	for _, j := range plan {
		slots += j.Slots
		peak = max(peak, j.Memory())
		levels = max(levels, j.Level+1)
		sectors += len(j.Sectors)
	}
	what := "pieces"
	if *game {
		what = "pieces on the board and in hand, the whole game"
	}
	fmt.Fprintf(stdout, "%s up to %d %s: %d jobs, %d sectors, %d levels, %d slots; the largest job takes about %d MB\n",
		p.Name(), *maxPieces, what, len(plan), sectors, levels, slots, peak>>20)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "level\tjob\tsectors\ttables\tslots\tmemory MB\tneeds\tin "+dir)
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
	tw.Flush()
	fmt.Fprintf(stdout, "%d of %d jobs built in %s\n", done, len(plan), dir)
	return 0
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func egtbBuild(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	var dir, variant string
	fs := e.egtbFlags("build", "build [--game] [--max-pieces N | --sector MvO|W_B_WF_BF ...] [--dir D] [--variant V] [--threads T]",
		"Solves every missing sector with at most N pieces on the board, in dependency order, and\n"+
			"writes one file per sector (atomically: a finished sector is never lost). A pair of sectors\n"+
			"that takes long writes a checkpoint every few minutes, and the next build goes on from it.\n"+
			"--sector solves only the given sectors (each with its partner, OvM), whose needs (egtb plan)\n"+
			"must be there. Prints a line per sector on stdout, progress and the time left on stderr.\n"+
			"Sectors up to 10 pieces get a DTM and a DTZ table, bigger ones a DTZ table (see the README).\n"+
			"--game solves the placing phase's sectors too (a WDL table each: win, draw or loss), after\n"+
			"the moving phase's; --max-pieces then counts the pieces on the board and in hand (18: all).",
		&dir, &variant)
	maxPieces := fs.IntP("max-pieces", "n", egtb.DTMPieces, "most pieces on the board (both sides; 18 is the whole moving phase; with --game on the board and in hand)")
	sectors := fs.StringSlice("sector", nil, "solve only these sectors, MvO or W_B_WF_BF (repeat or comma-separate)")
	game := gameFlag(fs)
	threads := fs.IntP("threads", "t", 0, "solver goroutines (default: one per CPU)")
	every := fs.Duration("checkpoint-every", egtb.DefaultCheckpointEvery, "least time between two checkpoints of a pair being solved (0: none)")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	p, err := sizedParams(variant, *maxPieces)
	if err != nil {
		return e.usageError("egtb build", err.Error())
	}
	if err := checkRange("--threads", *threads, 0, 1024); err != nil {
		return e.usageError("egtb build", err.Error())
	}
	only, err := sectorSpecs(*sectors)
	if err != nil {
		return e.usageError("egtb build", err.Error())
	}
	if len(only) > 0 && !fs.Changed("max-pieces") {
		*maxPieces = egtb.MaxPieces
	}
	for _, s := range only {
		*game = *game || s.Placing()
	}
	pieces := 0
	if *game {
		if pieces, err = gamePieces(variant); err != nil {
			return e.usageError("egtb build", err.Error())
		}
	}
	if *every < 0 {
		return e.usageError("egtb build", fmt.Sprintf("--checkpoint-every %s is negative", *every))
	}
	ckpt := *every
	if ckpt == 0 {
		ckpt = -1
	}
	plan := planOf(p, pieces, *maxPieces)
	if len(only) > 0 {
		var jobs []egtb.Job
		for _, s := range only {
			if j, ok := p.JobOf(s, plan); ok {
				jobs = append(jobs, j)
			}
		}
		plan = jobs
	}
	bar := newProgressBar(stderr, "egtb ", "M/s", 1e6)
	eta := newBuildETA(plan)
	bar.suffix = eta.String
	start := time.Now()
	var size int64
	var n, maxCnt int
	tb, err := egtb.Build(e.ctx, egtb.BuildOptions{
		Dir: dir, Params: p, MaxPieces: *maxPieces, Pieces: pieces, Threads: *threads, Progress: bar.update,
		Warn:            func(s string) { bar.clear(); fmt.Fprintf(stderr, "egtb build: %s\n", s) },
		CheckpointEvery: ckpt, Only: only,
	}, func(r egtb.SectorReport) {
		bar.clear()
		size += r.Size
		if r.Metric != egtb.DTM {
			n++
		}
		maxCnt = max(maxCnt, r.MaxCounter)
		eta.add(r)
		fmt.Fprintln(stdout, sectorLine(r))
	})
	bar.clear()
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb build: %v\n", err)
		var ie *egtb.InterruptedError
		if errors.As(err, &ie) {
			return 130
		}
		return 1
	}
	tb.Close()
	fmt.Fprintf(stdout, "%s: sectors %d, %.1f MB in %s, %s", p.Name(), n, float64(size)/(1<<20), dir, seconds(time.Since(start)))
	if maxCnt > 0 {
		fmt.Fprintf(stdout, " (largest move counter %d of 255)", maxCnt)
	}
	fmt.Fprintln(stdout)
	return 0
}

// sectorLine is build's report line of a sector: its counts (from the DTM
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
		s += fmt.Sprintf(", %s (solved with %s)", seconds(r.Elapsed), r.Partner)
	default:
		s += ", " + seconds(r.Elapsed)
	}
	if r.PeakRSS > 0 {
		s += fmt.Sprintf(", peak %d MB", r.PeakRSS>>20)
	}
	if r.Checkpoints > 0 {
		s += fmt.Sprintf(", %d checkpoints", r.Checkpoints)
	}
	return s
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// paramSets lists the parameter sets with files in dir, or only the
// variant's set when variant is not empty.
func paramSets(dir, variant string) ([]egtb.Params, error) {
	if variant != "" {
		p, err := variantParams(variant)
		if err != nil {
			return nil, err
		}
		return []egtb.Params{p}, nil
	}
	return egtb.ParamSets(dir)
}

func egtbVerify(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	var dir, variant string
	fs := e.egtbFlags("verify", "verify [--dir D] [--variant V] [--sector MvO] [--threads T] [--step N] [--journal F]",
		"Re-checks every entry of every sector against its successors, generated and played by the\n"+
			"engine's own movegen and position code, and the counts against the file headers. Prints\n"+
			"per sector OK or the first mismatches; exits 1 if anything is wrong. Without --variant it\n"+
			"checks every rule set found in the directory. With --journal, each table found OK is\n"+
			"recorded in that file, and the next verify with it skips those (unless rebuilt since);\n"+
			"while a table is checked, the part checked so far is recorded every two minutes, and the\n"+
			"next verify goes on from there: a verify of the whole set, hours long, stopped, goes on\n"+
			"where it was.",
		&dir, &variant)
	fs.Lookup("variant").DefValue = ""
	threads := fs.IntP("threads", "t", 0, "goroutines (default: one per CPU)")
	limit := fs.Int("show", 5, "mismatches to show per sector")
	step := fs.Uint32("step", 1, "check every N-th entry only (a quick sample; 1 checks all)")
	sectorArgs := fs.StringSlice("sector", nil, "check only these sectors, MvO (repeat or comma-separate)")
	journalPath := fs.String("journal", "", "record the tables found OK in this file and skip those it holds")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if !fs.Changed("variant") {
		variant = ""
	}
	sets, err := paramSets(dir, variant)
	if err != nil {
		return e.usageError("egtb verify", err.Error())
	}
	only, err := sectorSpecs(*sectorArgs)
	if err != nil {
		return e.usageError("egtb verify", err.Error())
	}
	bar := newProgressBar(stderr, "egtb ", "M/s", 1e6)
	code := 0
	eta := &verifyETA{}
	bar.suffix = eta.String
	opts := egtb.VerifyOptions{Threads: *threads, Limit: *limit, Step: *step, Planned: eta.planned,
		Progress: func(phase string, done, total uint64) {
			eta.progress(phase, done, total)
			bar.update(phase, done, total)
		}}
	var journal *egtb.Journal
	if *journalPath != "" {
		if *step > 1 {
			return e.usageError("egtb verify", "--journal records full checks only, not --step samples")
		}
		if journal, err = egtb.OpenJournal(*journalPath); err != nil {
			return e.usageError("egtb verify", err.Error())
		}
		defer journal.Close()
		opts.Skip = journal.Has
		opts.Resume = func(r egtb.VerifyReport) (egtb.VerifyPart, bool) {
			part, ok := journal.Resume(r)
			if ok {
				eta.resumed(uint64(part.Upto))
				bar.clear()
				fmt.Fprintf(stderr, "egtb verify %s: going on from slot %d of %d (%.1f %%, checked before: %s)\n",
					r.Label(), part.Upto, r.Spec.Slots(), 100*float64(part.Upto)/float64(r.Spec.Slots()), journal.Path())
			}
			return part, ok
		}
		opts.Checkpoint = func(r egtb.VerifyReport, part egtb.VerifyPart) {
			if err := journal.Checkpoint(r, part); err != nil {
				bar.clear()
				fmt.Fprintf(stderr, "millengine egtb verify: %v\n", err)
			}
		}
	}
	sectors, err := egtb.VerifyDir(e.ctx, dir, sets, only, opts, func(r egtb.VerifyReport) {
		bar.clear()
		eta.finished(r.Spec.Slots(), r.Skipped || r.Missing)
		name := r.Params.Name() + " " + r.Label()
		if journal != nil {
			if err := journal.Add(r); err != nil {
				fmt.Fprintf(stderr, "millengine egtb verify: %v\n", err)
				code = 1
			}
		}
		switch {
		case r.Skipped:
			fmt.Fprintf(stdout, "%s: OK before (%s)\n", name, journal.Path())
		case r.Missing:
			code = 1
			fmt.Fprintf(stdout, "%s: FAILED, no table (millengine egtb build solves it)\n", name)
		case r.OK():
			fmt.Fprintf(stdout, "%s: OK, %d entries, %s\n", name, r.Result.Checked, seconds(r.Elapsed))
		default:
			code = 1
			fmt.Fprintf(stdout, "%s: FAILED, %d of %d entries wrong\n", name, r.Result.Bad, r.Result.Checked)
			for _, m := range r.Result.First {
				fmt.Fprintf(stdout, "  %s\n", m)
			}
			if r.Counted != r.Header {
				fmt.Fprintf(stdout, "  counts %+v differ from the header's %+v\n", r.Counted, r.Header)
			}
		}
	})
	bar.clear()
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb verify: %v\n", err)
		return 1
	}
	if sectors == 0 {
		fmt.Fprintf(stderr, "millengine egtb verify: no tables in %s\n", dir)
		return 1
	}
	return code
}

func egtbStats(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	var dir string
	fs := e.egtbFlags("stats", "stats [--dir D]",
		"Per sector: positions (every placement, no symmetry reduction) and stored positions, slots\n"+
			"and the share used by the index, wins/draws/losses (of every placement, no pending removal),\n"+
			"the longest win and the file size.",
		&dir, nil)
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	sets, err := paramSets(dir, "")
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb stats: %v\n", err)
		return 1
	}
	if len(sets) == 0 {
		fmt.Fprintf(stderr, "millengine egtb stats: no tables in %s\n", dir)
		return 1
	}
	for i, p := range sets {
		tb, err := egtb.OpenChecked(dir, p)
		if err != nil {
			fmt.Fprintf(stderr, "millengine egtb stats: %v\n", err)
			return 1
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s (%s)\n", p.Name(), p)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
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
		tw.Flush()
		tb.Close()
	}
	return 0
}

func egtbProbe(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	var dir, variant string
	fs := e.egtbFlags("probe", "probe [--dir D] --fen FEN [--moves \"M1 M2 …\"] [--variant V] [--metric dtm|dtz] [--malom DIR]",
		"Prints the value of the position for the side to move — 'value: win D', 'loss D', 'draw' or\n"+
			"'unknown <reason>' — then one line per legal action, 'TOKEN: win D' …, for the side to move\n"+
			"before the action, in the order the engine ranks them with the game's history (the moves\n"+
			"played from FEN): a win whose next removal fits the N-move rule first (the shortest), a\n"+
			"draw leaving the opponent the fewest drawing replies, a draw by repetition or the N-move\n"+
			"rule at once, the longest loss. D counts turns of the side to move to the end of the game,\n"+
			"or, marked (dtz), to the next removal (sectors beyond 10 pieces keep only that).\n"+
			"--malom DIR shows Malom's values beside the tables' (its .secval and .sec2 files, Sanmill's\n"+
			"perfect database): 'value: tables V; Malom V [KEYS]' and 'TOKEN: tables V; Malom V [KEYS]',\n"+
			"KEYS Malom's own entry of the position (after the action; after its best removal for a mill),\n"+
			"in the order the engine ranks the actions from both, as go does with UsePerfectDatabase.",
		&dir, &variant)
	fen := fs.String("fen", "", "the position (required)")
	moves := fs.String("moves", "", "moves played from the position, the game's history (repetitions, the N-move counter)")
	metric := fs.String("metric", "dtm", "dtm: the value's distance to the end of the game where the tables keep it; dtz: to the next removal (what the N-move rule counts)")
	malomDir := fs.String("malom", "", "also show the values of Malom's database in this folder")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if *metric != "dtm" && *metric != "dtz" {
		return e.usageError("egtb probe", fmt.Sprintf("--metric %q: want dtm or dtz", *metric))
	}
	if *fen == "" {
		return e.usageError("egtb probe", "--fen is required")
	}
	r, err := variantRules(variant)
	if err != nil {
		return e.usageError("egtb probe", err.Error())
	}
	p, err := position.ParseFEN(&r, *fen)
	if err != nil {
		return e.usageError("egtb probe", err.Error())
	}
	g := position.NewGame(r, p)
	for _, tok := range strings.Fields(*moves) {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return e.usageError("egtb probe", fmt.Sprintf("--moves: %s: %v", tok, err))
		}
		g.Play(m)
	}
	tb, err := egtb.Open(dir, &r)
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb probe: %v\n", err)
		return 1
	}
	defer tb.Close()
	defer func() {
		for _, err := range tb.Damaged() {
			fmt.Fprintf(stderr, "millengine egtb probe: %v\n", err)
		}
	}()
	value := func(a egtb.RootAction) string {
		if *metric == "dtz" {
			a.Entry.Value, a.Entry.Exact = a.Entry.DTZ, false
		}
		return a.String()
	}
	if *malomDir != "" {
		db, err := perfect.Open(*malomDir, &r)
		if err != nil {
			fmt.Fprintf(stderr, "millengine egtb probe: --malom: %v\n", err)
			return 1
		}
		defer db.Close()
		defer func() {
			for _, err := range db.Damaged() {
				fmt.Fprintf(stderr, "millengine egtb probe: %v\n", err)
			}
		}()
		probeBoth(stdout, g, tb, db, value)
		return 0
	}
	if acts, ok := tb.RankRoot(g); ok {
		fmt.Fprintf(stdout, "value: %s\n", value(acts[0]))
		for _, a := range acts {
			fmt.Fprintf(stdout, "%s: %s\n", a.Move, value(a))
		}
		return 0
	}
	fmt.Fprintf(stdout, "value: unknown %s\n", tb.Why(&g.Rules, &g.Pos))
	for _, a := range tb.Actions(&g.Rules, &g.Pos) {
		if a.Known {
			fmt.Fprintf(stdout, "%s: %s\n", a.Move, a.Value)
		} else {
			fmt.Fprintf(stdout, "%s: unknown\n", a.Move)
		}
	}
	return 0
}

// probeBoth prints the values of g's root and of each of its actions by the
// tables and by Malom's database db, side by side and labelled, Malom's with
// its keys, in the order the engine ranks the actions from both
// (perfect.Root, as go with UsePerfectDatabase), or by token when that
// ranking is unknown. value formats a tables' entry.
func probeBoth(w io.Writer, g *position.Game, tb *egtb.Tables, db *perfect.DB, value func(egtb.RootAction) string) {
	r := &g.Rules
	tables := "unknown (" + tb.Why(r, &g.Pos) + ")"
	if en, ok := tb.Lookup(r, &g.Pos); ok {
		tables = value(egtb.RootAction{Entry: en})
	}
	malom := "unknown (" + db.Why(r, &g.Pos) + ")"
	if en, ok := db.Lookup(r, &g.Pos); ok {
		k, _ := db.Keys(r, &g.Pos)
		malom = fmt.Sprintf("%s [%v]", en, k)
	}
	fmt.Fprintf(w, "value: tables %s; Malom %s\n", tables, malom)
	var order []position.Move
	if acts, ok := perfect.NewRoot(tb, db).RankRoot(g); ok {
		for _, a := range acts {
			order = append(order, a.Move)
		}
	} else {
		var ml movegen.MoveList
		movegen.Generate(r, &g.Pos, &ml)
		order = slices.SortedFunc(slices.Values(ml.Slice()), func(a, b position.Move) int { return strings.Compare(a.String(), b.String()) })
	}
	for _, m := range order {
		after := g.Pos
		after.Do(r, m)
		tables := "unknown"
		if en, rule, ok := egtb.ActionEntryWith(tb, g, m); ok {
			tables = value(egtb.RootAction{Entry: en, Rule: rule})
		}
		malom := "unknown (" + db.Why(r, &after) + ")"
		if en, rule, ok := egtb.ActionEntryWith(db, g, m); ok {
			malom = egtb.RootAction{Entry: en, Rule: rule}.String()
			if k, known := db.Keys(r, &after); known && rule == position.NoReason {
				malom += fmt.Sprintf(" [%v]", k)
			}
		}
		fmt.Fprintf(w, "%s: tables %s; Malom %s\n", m, tables, malom)
	}
}
