package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
)

// PGN returns the game as a record in Sanmill's PGN dialect (internal/record):
// its tokens replayed from the opening's position, the seven standard tags
// (Event "millmatch", Date of day, Round the game's number, the engines, the
// Result the referee gave, which may come from a draw rule, an adjudication
// or a fault the position does not show), Variant, PlyCount, FEN and SetUp
// for an opening from a position string, and millmatch's own tags:
// TimeControl, Termination (the reason), Opening (the opening's tokens).
func (r GameRecord) PGN(date time.Time) (record.Game, error) {
	preset, ok := rules.PresetByName(r.Variant)
	if !ok {
		return record.Game{}, fmt.Errorf("game %d: unknown variant %q", r.Game, r.Variant)
	}
	rl := preset.Rules
	start := position.New(&rl)
	if r.OpeningFEN != "" {
		var err error
		if start, err = position.ParseFEN(&rl, r.OpeningFEN); err != nil {
			return record.Game{}, fmt.Errorf("game %d: opening: %w", r.Game, err)
		}
	}
	g := position.NewGame(rl, start)
	for i, tok := range append(append([]string(nil), r.Opening...), r.Moves...) {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return record.Game{}, fmt.Errorf("game %d, ply %d: %w", r.Game, i+1, err)
		}
		g.Play(m)
	}
	rec, err := record.FromEngine(g)
	if err != nil {
		return record.Game{}, fmt.Errorf("game %d: %w", r.Game, err)
	}
	rec.SetTag("Event", "millmatch")
	rec.SetTag("Date", date.Format("2006.01.02"))
	rec.SetTag("Round", strconv.Itoa(r.Game))
	rec.SetTag("White", r.White)
	rec.SetTag("Black", r.Black)
	rec.SetTag("Result", r.Result)
	rec.Result = r.Result
	rec.SetTag("TimeControl", r.TimeControl)
	rec.SetTag("Termination", r.Reason)
	if len(r.Opening) > 0 {
		rec.SetTag("Opening", strings.Join(r.Opening, " "))
	}
	return rec, nil
}
