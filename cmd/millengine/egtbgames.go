package main

import (
	"github.com/millengine/millengine/internal/egtb/report"
)

// egtbGames implements 'millengine egtb games': what the tables say of the
// games of a millmatch file — the value when placing ends and every action
// that changed it — and, per engine, the games lost from positions the
// tables call a draw or a win, the draws the opponent gave away, the draws
// kept through placing by whether a piece was removed while placing, and
// the draws not won by their ending.
func egtbGames(e *env, args []string) int {
	var dir string
	fs := e.egtbFlags("games", "games [--dir D] FILE.jsonl ...",
		"Replays the games of millmatch's JSON-lines files and says what the tables say: per game the\n"+
			"value for White at the first position the tables know (the end of placing, or later when\n"+
			"placing ends in a sector not built) and each action\n"+
			"that changed the value by the tables (a win given away, a draw lost), with its ply; values\n"+
			"are under the N-move rule (a win whose next removal the rule's count cannot reach is a draw;\n"+
			"the placing tables hold no distance, so the rule is read from the moving phase on, and a win\n"+
			"it turns into a draw there is said, counted as a draw and charged to no action); then\n"+
			"per engine: games lost from a position the tables call a draw or a win for it, games won\n"+
			"from a drawn position (the opponent erred), and where the tables did not reach; the drawn\n"+
			"games whose placing kept the draw, with a removal while placing or none, and how many it\n"+
			"won; and its drawn games not won, by how they ended (repetition, the N-move rule, ...).",
		&dir, nil)
	quiet := fs.Bool("summary", false, "print the summary only")
	if code, ok := e.parse(fs, args, true); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usageError("egtb games", "want a millmatch JSON-lines file")
	}
	if err := report.Games(e.stdout, report.GamesOptions{Dir: dir, Files: fs.Args(), Summary: *quiet}); err != nil {
		return e.fail("egtb games", err)
	}
	return 0
}
