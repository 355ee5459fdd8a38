// Command pgncheck checks a millmatch run's PGN against its JSON lines: every
// game of the PGN file, read by internal/record and replayed by the engine,
// must give the same action tokens, the same result and the same final
// position as the game of the same number in the JSON lines, and writing the
// games read and reading them back must give equal games. It prints the
// counts and exits 1 at the first difference, naming the game.
//
//	go run ./scripts/pgncheck RUN.jsonl RUN.pgn
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/record"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: pgncheck RUN.jsonl RUN.pgn")
		return 2
	}
	if err := check(args[0], args[1], stdout); err != nil {
		fmt.Fprintf(stderr, "pgncheck: %v\n", err)
		return 1
	}
	return 0
}

// check compares the two files and prints what it compared.
func check(jsonPath, pgnPath string, out io.Writer) error {
	recs, err := match.ReadRecordFile(jsonPath)
	if err != nil {
		return err
	}
	byGame := map[int]match.GameRecord{}
	for _, r := range recs {
		byGame[r.Game] = r
	}
	src, err := os.ReadFile(pgnPath)
	if err != nil {
		return err
	}
	games, err := record.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", pgnPath, err)
	}
	if len(games) != len(recs) {
		return fmt.Errorf("%d games in %s, %d in %s", len(games), pgnPath, len(recs), jsonPath)
	}
	plies := 0
	for i := range games {
		g := &games[i]
		round, _ := g.Tag("Round")
		n, err := strconv.Atoi(round)
		if err != nil {
			return fmt.Errorf("PGN game %d: Round %q is not a game number", i+1, round)
		}
		r, ok := byGame[n]
		if !ok {
			return fmt.Errorf("PGN game %d: game %d is not in %s", i+1, n, jsonPath)
		}
		if err := same(g, r); err != nil {
			return fmt.Errorf("game %d: %w", n, err)
		}
		plies += len(r.Opening) + len(r.Moves)
	}
	written, err := record.Marshal(games...)
	if err != nil {
		return fmt.Errorf("writing the games back: %w", err)
	}
	back, err := record.Parse(written)
	if err != nil {
		return fmt.Errorf("reading the games written back: %w", err)
	}
	for i := range games {
		if !games[i].Equal(&back[i]) {
			return fmt.Errorf("PGN game %d differs once written and read back", i+1)
		}
	}
	fmt.Fprintf(out, "%d games, %d actions: tokens, results and final positions identical; PGN read, written and read back: %d of %d games equal\n",
		len(games), plies, len(games), len(games))
	return nil
}

// same compares one PGN game, replayed, with its JSON record.
func same(g *record.Game, r match.GameRecord) error {
	rep, err := record.Replay(g, nil)
	if err != nil {
		return err
	}
	var got []string
	for _, m := range rep.Game.Moves {
		got = append(got, m.String())
	}
	want := append(slices.Clone(r.Opening), r.Moves...)
	if !slices.Equal(got, want) {
		return fmt.Errorf("tokens differ:\nPGN  %v\nJSON %v", got, want)
	}
	if g.Result != r.Result {
		return fmt.Errorf("result %q in the PGN, %q in the JSON", g.Result, r.Result)
	}
	if fen := rep.Game.Pos.FEN(); fen != r.FinalFEN {
		return fmt.Errorf("final position %q in the PGN, %q in the JSON", fen, r.FinalFEN)
	}
	return nil
}
