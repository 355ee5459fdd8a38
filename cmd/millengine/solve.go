package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/solve"
)

// runSolve implements 'millengine solve': the proven value of a placing-phase
// position and of each of its actions, by a search whose leaves are the
// endgame tables.
func runSolve(e *env, args []string) int {
	fs := e.subFlags("solve", `solve [--fen F | --moves "t1 t2 …"] [--keep | --plies N] [--dir D] [--tt-mb N] [--tt-file F] [--variant V]`,
		"Proves the value of a position of the placing phase (the start position by default) for the\n"+
			"side to move, and of each legal action: a search of the remaining placements whose leaves\n"+
			"are the endgame tables of the whole moving phase (egtb build --max-pieces 18; the sectors\n"+
			"where placing can end must be there). Prints 'value: win|draw|loss', one line per action,\n"+
			"then the time and nodes. With --keep, instead of each action's value, the actions that keep\n"+
			"the position's value (a cheaper, one-sided proof each); with --plies N, that for every\n"+
			"position after fewer than N actions (once per class of symmetric positions), one line each,\n"+
			"then a count by ply. Progress on stderr. With --tt-file the proof's table is written there\n"+
			"every --save-every and read back by the next run, which then goes on where it was.")
	variant := fs.StringP("variant", "v", e.g.variant, "rule preset: "+strings.Join(rules.PresetKeys(), ", "))
	dir := fs.String("dir", e.g.egtbPath, "endgame table directory")
	fen := fs.String("fen", "", "the position (default: the start position)")
	moves := fs.String("moves", "", "tokens to play first, such as \"a7 b4 d7\"")
	ttMB := fs.Int("tt-mb", 2048, "the proof's transposition table in MB")
	threads := fs.IntP("threads", "t", 2, "goroutines (the root's actions are shared out among them)")
	ttFile := fs.String("tt-file", "", "keep the proof's table in this file between runs")
	every := fs.Duration("save-every", 10*time.Minute, "how often the table is written to --tt-file")
	keep := fs.Bool("keep", false, "print the actions that keep the value, not each action's value")
	plies := fs.Int("plies", 0, "prove every position after fewer than N actions (implies --keep)")
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	if err := checkRange("--tt-mb", *ttMB, 1, 1<<20); err != nil {
		return e.usageError("solve", err.Error())
	}
	if err := checkRange("--threads", *threads, 1, 256); err != nil {
		return e.usageError("solve", err.Error())
	}
	if err := checkRange("--plies", *plies, 0, 18); err != nil {
		return e.usageError("solve", err.Error())
	}
	preset, ok := rules.PresetByName(*variant)
	if !ok {
		return e.usageError("solve", fmt.Sprintf("unknown variant %q (want one of %s)", *variant, strings.Join(rules.PresetKeys(), ", ")))
	}
	r := preset.Rules
	if err := solve.Supported(&r); err != nil {
		return e.usageError("solve", fmt.Sprintf("--variant %s: %v", *variant, err))
	}
	p := position.New(&r)
	if *fen != "" {
		var err error
		if p, err = position.ParseFEN(&r, *fen); err != nil {
			return e.usageError("solve", err.Error())
		}
	}
	for _, tok := range strings.Fields(*moves) {
		m, err := movegen.ParseLegal(&r, &p, tok)
		if err != nil {
			return e.usageError("solve", "--moves: "+err.Error())
		}
		p.Do(&r, m)
	}
	if p.IsOver() {
		return e.usageError("solve", "the game is over")
	}
	tb, err := egtb.Open(*dir, &r)
	if err != nil {
		return e.fail("solve", err)
	}
	defer tb.Close()
	o := solve.RunOptions{Options: solve.Options{TableMB: *ttMB, File: *ttFile, SaveEach: *every, Threads: *threads}, Keep: *keep, Plies: *plies}
	err = solve.Run(e.ctx, e.stdout, e.stderr, r, tb, &p, o)
	if err == nil {
		return 0
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok { // a proof's error and the table's
		errs = j.Unwrap()
	}
	code := 1
	for _, err := range errs {
		fmt.Fprintf(e.stderr, "millengine solve: %v\n", err)
		if errors.Is(err, solve.ErrStopped) {
			code = 130 // the table file, if any, keeps the work
		}
	}
	return code
}
