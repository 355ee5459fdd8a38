package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/report"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

const egtbUsage = `Usage: millengine egtb <command> [flags]

Endgame tables solved by the engine itself: for the moving phase (no pieces in
hand) win, draw or loss with the distance in turns of the side to move; with
--game also the placing phase's sectors (Malom's W_B_WF_BF), win, draw or loss.

Commands:
  plan     the sectors in dependency order, what each needs:  egtb plan [--game] [--max-pieces N] [--dir D] [--format text|make|slurm]
  build    solve the missing sectors:  egtb build [--game] [--max-pieces N | --sector MvO|W_B_WF_BF] [--dir D] [--variant V] [--threads T]
  verify   re-check every entry with the engine's rules:  egtb verify [--dir D] [--variant V] [--sector S]
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

// egtbCommands are the subcommands of egtb, in the order of egtbUsage.
var egtbCommands = []subcommand{
	{"plan", egtbPlan}, {"build", egtbBuild}, {"verify", egtbVerify}, {"stats", egtbStats}, {"probe", egtbProbe}, {"games", egtbGames},
	{"compare", egtbCompare}, {"pack", egtbPack}, {"unpack", egtbUnpack},
}

// runEGTB implements 'millengine egtb …'.
func runEGTB(e *env, args []string) int {
	return e.runGroup("egtb", egtbUsage, egtbCommands, args)
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
	plan := report.Plan(p, pieces, *maxPieces)
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
	o := report.PlanOptions{Params: p, MaxPieces: *maxPieces, Game: *game, Dir: dir}
	if err := report.WritePlan(stdout, plan, o); err != nil {
		return e.fail("egtb plan", err)
	}
	return 0
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
			"Sectors up to 10 pieces get a DTM and a DTZ table, bigger ones a DTZ table (docs/tables.md).\n"+
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
	err = report.Build(e.ctx, stdout, stderr, egtb.BuildOptions{
		Dir: dir, Params: p, MaxPieces: *maxPieces, Pieces: pieces, Threads: *threads, CheckpointEvery: ckpt, Only: only,
	})
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb build: %v\n", err)
		var ie *egtb.InterruptedError
		if errors.As(err, &ie) {
			return 130
		}
		return 1
	}
	return 0
}

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
	fs := e.egtbFlags("verify", "verify [--dir D] [--variant V] [--sector MvO|W_B_WF_BF] [--threads T] [--step N] [--journal F] [--known]",
		"Re-checks every entry of every sector against its successors, generated and played by the\n"+
			"engine's own movegen and position code, and the counts against the file headers. Prints\n"+
			"per sector OK or the first mismatches; exits 1 if anything is wrong. Without --variant it\n"+
			"checks every rule set found in the directory. With --journal, each table found OK is\n"+
			"recorded in that file, and the next verify with it skips those (unless rebuilt since);\n"+
			"while a table is checked, the part checked so far is recorded every two minutes, and the\n"+
			"next verify goes on from there: a verify of the whole set, hours long, stopped, goes on\n"+
			"where it was. With --known, the tables whose data is that of a table verified entry by\n"+
			"entry before (the record built into the engine) are OK at once, once read.",
		&dir, &variant)
	fs.Lookup("variant").DefValue = ""
	threads := fs.IntP("threads", "t", 0, "goroutines (default: one per CPU)")
	limit := fs.Int("show", 5, "mismatches to show per sector")
	step := fs.Uint32("step", 1, "check every N-th entry only (a quick sample; 1 checks all)")
	sectorArgs := fs.StringSlice("sector", nil, "check only these sectors, MvO or W_B_WF_BF (repeat or comma-separate)")
	journalPath := fs.String("journal", "", "record the tables found OK in this file and skip those it holds")
	known := fs.Bool("known", false, "skip the tables whose data the built-in record of verified tables holds")
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
	o := report.VerifyOptions{Dir: dir, Sets: sets, Only: only, Threads: *threads, Limit: *limit, Step: *step, Warn: e.warn("egtb verify")}
	if *journalPath != "" {
		if *step > 1 {
			return e.usageError("egtb verify", "--journal records full checks only, not --step samples")
		}
		if o.Journal, err = egtb.OpenJournal(*journalPath); err != nil {
			return e.usageError("egtb verify", err.Error())
		}
		defer o.Journal.Close()
	}
	if *known {
		if *step > 1 {
			return e.usageError("egtb verify", "--known skips full checks only, not --step samples")
		}
		o.Known = egtb.Record()
	}
	return e.reported("egtb verify", report.Verify(e.ctx, stdout, stderr, o))
}

func egtbStats(e *env, args []string) int {
	stdout := e.stdout
	var dir string
	fs := e.egtbFlags("stats", "stats [--dir D]",
		"Per sector: positions (every placement, no symmetry reduction) and stored positions, slots\n"+
			"and the share used by the index, wins/draws/losses (of every placement, no pending removal),\n"+
			"the longest win and the file size.",
		&dir, nil)
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if err := report.WriteStats(stdout, dir); err != nil {
		return e.fail("egtb stats", err)
	}
	return 0
}

func egtbProbe(e *env, args []string) int {
	stdout := e.stdout
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
		return e.fail("egtb probe", err)
	}
	defer tb.Close()
	defer e.warnAll("egtb probe", tb.Damaged)
	var db *perfect.DB
	if *malomDir != "" {
		if db, err = perfect.Open(*malomDir, &r); err != nil {
			return e.fail("egtb probe", fmt.Errorf("--malom: %w", err))
		}
		defer db.Close()
		defer e.warnAll("egtb probe", db.Damaged)
	}
	if err := report.Probe(stdout, g, tb, db, *metric == "dtz"); err != nil {
		return e.fail("egtb probe", err)
	}
	return 0
}
