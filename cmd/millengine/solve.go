package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/progress"
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
		fmt.Fprintf(e.stderr, "millengine solve: %v\n", err)
		return 1
	}
	defer tb.Close()
	bar := progress.NewBar(e.stderr, "solve ", "", 1)
	s, err := solve.New(r, tb, solve.Options{TableMB: *ttMB, File: *ttFile, SaveEach: *every, Threads: *threads,
		Progress: func(st solve.Stats, what string) {
			if what != "" {
				bar.Clear()
				fmt.Fprintf(e.stderr, "solve: %s (%s)\n", what, statsLine(st))
				return
			}
			bar.Draw(statsLine(st))
		}})
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine solve: %v\n", err)
		return 1
	}
	if *plies > 0 {
		code := solveTree(e, s, &p, *plies, bar, *ttFile)
		return saveTable(e, s, code)
	}
	var (
		v    solve.Value
		acts []solve.ActionValue
		kept []position.Move
	)
	if *keep {
		v, kept, err = s.Keeping(e.ctx, &p)
	} else {
		v, acts, err = s.Actions(e.ctx, &p)
	}
	bar.Clear()
	st := s.Stats()
	if code, ok := solveFailed(e, err, st, *ttFile); !ok {
		return saveTable(e, s, code)
	}
	if code := saveTable(e, s, 0); code != 0 {
		return code
	}
	fmt.Fprintf(e.stdout, "value: %s\n", v)
	if *keep {
		fmt.Fprintf(e.stdout, "keep: %d of %d: %s\n", len(kept), movegen.Count(&r, &p), position.JoinMoves(kept))
	}
	for _, a := range acts {
		fmt.Fprintf(e.stdout, "%s: %s\n", a.Move, a.Value)
	}
	fmt.Fprintf(e.stdout, "Time: %d ms\nNodes: %d\nTable leaves: %d\n", st.Elapsed.Milliseconds(), st.Nodes, st.Leaves)
	return 0
}

// saveTable writes the proofs' table to its file, if one was given, and
// returns code, or 1 when the table cannot be written.
func saveTable(e *env, s *solve.Solver, code int) int {
	if err := s.Save(); err != nil {
		fmt.Fprintf(e.stderr, "millengine solve: saving the table: %v\n", err)
		return max(code, 1)
	}
	return code
}

// solveFailed prints why a proof did not finish, if it did not, and the
// exit code: 130 for an interrupt (the table file, if any, keeps the work).
func solveFailed(e *env, err error, st solve.Stats, ttFile string) (int, bool) {
	if errors.Is(err, solve.ErrStopped) {
		fmt.Fprintf(e.stderr, "millengine solve: interrupted after %s", statsLine(st))
		if ttFile != "" {
			fmt.Fprintf(e.stderr, "; the table is in %s: the same command goes on", ttFile)
		}
		fmt.Fprintln(e.stderr)
		return 130, false
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine solve: %v\n", err)
		return 1, false
	}
	return 0, true
}

// solveTree proves every position after fewer than plies actions from p,
// once per class of symmetric positions: one line each, "ply <n> <line>:
// <value>, keep <k> of <m>: <actions>", then per ply the positions, their
// values and how many actions keep them.
func solveTree(e *env, s *solve.Solver, p *position.Position, plies int, bar *progress.Bar, ttFile string) int {
	type count struct{ positions, win, draw, loss, keep, legal int }
	byPly := make([]count, plies)
	start := time.Now()
	var nodes uint64
	code, ok := 0, true
	solve.Tree(s.Rules(), p, plies, func(line []position.Move, q *position.Position) bool {
		v, kept, err := s.Keeping(e.ctx, q)
		bar.Clear()
		st := s.Stats()
		nodes += st.Nodes
		if code, ok = solveFailed(e, err, st, ttFile); !ok {
			return false
		}
		n := movegen.Count(s.Rules(), q)
		name := position.JoinMoves(line)
		if name == "" {
			name = "(root)"
		}
		fmt.Fprintf(e.stdout, "ply %d %s: %s, keep %d of %d: %s (%d ms)\n", len(line), name, v, len(kept), n, position.JoinMoves(kept), st.Elapsed.Milliseconds())
		c := &byPly[len(line)]
		c.positions++
		c.keep += len(kept)
		c.legal += n
		switch v {
		case solve.Win:
			c.win++
		case solve.Draw:
			c.draw++
		default:
			c.loss++
		}
		return true
	})
	if !ok {
		return code
	}
	for i, c := range byPly {
		fmt.Fprintf(e.stdout, "ply %d: %d positions (win %d, draw %d, loss %d), %d of %d actions keep the value\n",
			i, c.positions, c.win, c.draw, c.loss, c.keep, c.legal)
	}
	fmt.Fprintf(e.stdout, "Time: %d ms\nNodes: %d\n", time.Since(start).Milliseconds(), nodes)
	return 0
}

// statsLine is a proof's counters in one line.
func statsLine(st solve.Stats) string {
	nps := float64(st.Nodes) / max(st.Elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("%s, %d nodes (%.0f k/s), %d table leaves, %d entries", st.Elapsed.Round(time.Second), st.Nodes, nps/1e3, st.Leaves, st.TTFilled)
}
