package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/progress"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/review"
	"github.com/millengine/millengine/internal/search"
)

// runAnnotate implements 'millengine annotate': every game of a PGN file
// (or PlayOK list, or FEN) reviewed by the engine and written back with its
// grades as NAGs and comments, and a summary per side.
func runAnnotate(e *env, args []string) int {
	fs := e.subFlags("annotate", "annotate [--movetime MS | --depth D] [--dir D] [--out FILE] GAMES.pgn",
		"Reviews every game of a file in Sanmill's PGN dialect (or PlayOK's numbered notation): each\n"+
			"position is searched once; each move gets the engine's choice and score and a grade —\n"+
			"best, good, inaccuracy (?!), mistake (?), blunder (??) — from the change of the exact value\n"+
			"where the endgame tables or a proof know it (a move from a draw to a loss is a blunder\n"+
			"whatever the scores say), otherwise from the drop of the expected score. Writes the games\n"+
			"back as PGN with those NAGs and comments and, first in each game, a summary per side\n"+
			"(accuracy, inaccuracies, mistakes, blunders, the first move that changed the value).\n"+
			"Progress and the summaries on stderr.")
	movetime := fs.Int("movetime", 200, "milliseconds per position")
	depth := fs.Int("depth", 0, "search each position to this depth instead of for a time")
	dir := fs.String("dir", e.g.egtbPath, "endgame table directory (\"\": none)")
	out := fs.StringP("out", "o", "", "write the annotated games here (default: stdout)")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return e.usageError("annotate", "want one file of games")
	}
	if err := checkRange("--movetime", *movetime, 1, 3_600_000); err != nil {
		return e.usageError("annotate", err.Error())
	}
	if err := checkRange("--depth", *depth, 0, search.MaxPly-1); err != nil {
		return e.usageError("annotate", err.Error())
	}
	src, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine annotate: %v\n", err)
		return 1
	}
	games, err := record.Import(src)
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine annotate: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	lim := search.Limits{MoveTime: time.Duration(*movetime) * time.Millisecond}
	if *depth > 0 {
		lim = search.Limits{Depth: *depth}
	}
	eng := search.New(e.g.hashMB)
	o := eng.Options()
	o.Threads, o.AnalyseMode = e.g.threads, true
	eng.SetOptions(o)
	w := e.stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(e.stderr, "millengine annotate: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	var tables *egtb.Tables
	var tablesRules string
	defer func() { tables.Close() }()
	start := time.Now()
	bar := progress.NewBar(e.stderr, "annotate ", "positions/s", 1)
	for gi := range games {
		g := &games[gi]
		rp, err := record.Replay(g, nil)
		if err != nil {
			fmt.Fprintf(e.stderr, "millengine annotate: %v\n", err)
			return 1
		}
		if *dir != "" && (tables == nil || tablesRules != rp.Variant) {
			tables.Close()
			if tables, err = egtb.Open(*dir, &rp.Rules); err != nil {
				fmt.Fprintf(e.stderr, "millengine annotate: %v\n", err)
				return 1
			}
			tablesRules = rp.Variant
			eng.SetTables(tables)
		}
		phase := fmt.Sprintf("game %d of %d", gi+1, len(games))
		moves, sums, err := review.Analyse(e.ctx, eng, rp.Game, review.Options{Limits: lim, Tables: tables,
			Progress: func(done, total int) { bar.Update(phase, uint64(done), uint64(total)) }})
		bar.Clear()
		if err != nil {
			fmt.Fprintf(e.stderr, "millengine annotate: interrupted: %v\n", err)
			return 130
		}
		annotateRecord(g, rp, moves, sums)
		for c, name := range []string{"White", "Black"} {
			who, _ := g.Tag(name)
			fmt.Fprintf(e.stderr, "game %d %s (%s): %s\n", gi+1, strings.ToLower(name), who, sums[c])
		}
		if err := record.Write(w, *g); err != nil {
			fmt.Fprintf(e.stderr, "millengine annotate: %v\n", err)
			return 1
		}
		if gi < len(games)-1 {
			io.WriteString(w, "\n")
		}
	}
	fmt.Fprintf(e.stderr, "annotate: %d games in %s\n", len(games), time.Since(start).Round(time.Millisecond))
	return 0
}

// annotateRecord writes the grades into the record: each turn gets the NAG
// of its worst action and a comment with the engine's choice and both
// scores when it was an
// inaccuracy or worse or changed the exact value; the main line opens
// with the summary of each side.
func annotateRecord(g *record.Game, rp *record.Replayed, moves []review.Move, sums [2]review.Summary) {
	g.Line.Comments = append(g.Line.Comments, "White: "+sums[0].String(), "Black: "+sums[1].String())
	first := 0
	for k := range g.Moves {
		t := &g.Moves[k]
		end := rp.TurnEnd[k]
		worst := review.Best
		var notes []string
		for _, m := range moves[first:end] {
			worst = max(worst, m.Grade)
			switch {
			case m.Was != review.Unknown && m.Is != m.Was:
				notes = append(notes, fmt.Sprintf("%s: %s → %s; best %s", m.Played, m.Was, m.Is, m.Best))
			case m.Grade >= review.Inaccuracy:
				notes = append(notes, fmt.Sprintf("%s %s (%s), best %s (%s)", m.Grade, m.Played, scoreText(m.After), m.Best, scoreText(m.Before)))
			}
		}
		first = end
		if nag := worst.NAG(); nag != 0 {
			t.NAGs = append(t.NAGs, nag)
		}
		if len(notes) > 0 {
			t.Comments = append(t.Comments, strings.Join(notes, "; "))
		}
	}
}

// scoreText is a score for people: "+0.35" pieces, "#3" a win in 3 turns,
// "#-3", "TB win", "TB loss".
func scoreText(s int) string {
	switch {
	case s > search.ValueMateBand:
		return fmt.Sprintf("#%d", (search.ValueMate-s+1)/2)
	case s < -search.ValueMateBand:
		return fmt.Sprintf("#-%d", (search.ValueMate+s+1)/2)
	case s > search.ValueTBBand:
		return "TB win"
	case s < -search.ValueTBBand:
		return "TB loss"
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}
