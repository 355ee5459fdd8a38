package record

import (
	"fmt"
	"strconv"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Replayed is a record's main line played through the engine.
type Replayed struct {
	// Rules are the rules the moves were checked with.
	Rules rules.Rules
	// Variant is the key of the preset the rules came from, "" when the
	// caller gave them.
	Variant string
	// Game holds the start position, the engine moves (a removal is a move
	// of its own), the final position and the repetition history.
	Game *position.Game
	// Positions[i] is the position after Game.Moves[i].
	Positions []position.Position
	// TurnEnd[k] is the number of engine moves played once the main line's
	// turn k is done; Positions[TurnEnd[k]-1] is the position after it
	// (Game.Start when TurnEnd[k] is 0).
	TurnEnd []int
}

// Replay plays the game's main line with the engine and checks every move
// with movegen: from the [FEN] tag's position or the start position, under r,
// or when r is nil under the preset its [Variant] tag names (Game.Preset).
// An illegal move is an *Error naming the game, the ply and the move
// token's place. A pass ("p") is legal where the engine has skipped the turn
// of a blocked side: the side to move is the one that made the turn before.
// The result is not compared with the engine's: a game may end by
// resignation or time.
func Replay(g *Game, r *rules.Rules) (*Replayed, error) {
	fail := func(ply int, p Pos, err error, format string, args ...any) error {
		return &Error{Game: g.Number, Ply: ply, Pos: p, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	out := &Replayed{}
	if r != nil {
		out.Rules = *r
	} else {
		p, err := g.Preset()
		if err != nil {
			return nil, fail(0, Pos{}, err, "%v", err)
		}
		out.Rules, out.Variant = p.Rules, p.Key
	}
	ru := &out.Rules
	if err := ru.Validate(); err != nil {
		return nil, fail(0, Pos{}, err, "rules: %v", err)
	}
	start := position.New(ru)
	if v, ok := g.Tag("FEN"); ok {
		fen, err := EngineFEN(v)
		if err != nil {
			return nil, fail(0, Pos{}, err, "FEN tag: %v", err)
		}
		if start, err = position.ParseFEN(ru, fen); err != nil {
			return nil, fail(0, Pos{}, err, "FEN tag: %v", err)
		}
	}
	pg := position.NewGame(*ru, start)
	out.Game = pg
	var prev position.Color // the side that made the turn before
	havePrev := false
	for k := range g.Moves {
		t := &g.Moves[k]
		ply := k + 1
		if err := t.validate(); err != nil {
			return nil, fail(ply, t.Pos, err, "%v", err)
		}
		if t.Pass {
			us := pg.Pos.SideToMove()
			switch {
			case pg.Pos.IsOver():
				return nil, fail(ply, t.Pos, nil, "illegal pass: the game is over")
			case !havePrev:
				return nil, fail(ply, t.Pos, nil, "illegal pass: no turn before it")
			case us != prev:
				return nil, fail(ply, t.Pos, nil, "illegal pass: %s moved last and %s is to move", prev, us)
			}
			prev = us.Opponent()
			out.TurnEnd = append(out.TurnEnd, len(pg.Moves))
			continue
		}
		mover := pg.Pos.SideToMove()
		acts := t.Actions()
		for _, m := range acts {
			if !movegen.IsLegal(ru, &pg.Pos, m) {
				_, err := movegen.ParseLegal(ru, &pg.Pos, m.String())
				if len(acts) > 1 {
					return nil, fail(ply, t.Pos, err, "%v (in %q)", err, t.String())
				}
				return nil, fail(ply, t.Pos, err, "%v", err)
			}
			pg.Play(m)
			out.Positions = append(out.Positions, pg.Pos)
		}
		prev, havePrev = mover, true
		out.TurnEnd = append(out.TurnEnd, len(pg.Moves))
	}
	return out, nil
}

// EngineFEN turns a position string from Sanmill into one position.ParseFEN
// reads: Sanmill's extension tokens "s:1" and "s:2" become
// "stalemate-removing" and "both-stalemate-removing", its "p:N" (a preferred
// removal target for intervention captures, a hint) is dropped, and the
// capture fields "c:", "i:" and "l:" are refused (the engine has no custodian,
// intervention or leap captures). The 17 fields and "ids:nodes" pass as they
// are.
func EngineFEN(fen string) (string, error) {
	f := strings.Fields(fen)
	if len(f) <= 17 {
		return strings.Join(f, " "), nil
	}
	out := f[:17:17]
	for _, e := range f[17:] {
		switch {
		case e == "s:1":
			out = append(out, "stalemate-removing")
		case e == "s:2":
			out = append(out, "both-stalemate-removing")
		case strings.HasPrefix(e, "p:"):
		case strings.HasPrefix(e, "c:"), strings.HasPrefix(e, "i:"), strings.HasPrefix(e, "l:"):
			return "", fmt.Errorf("capture field %q: the engine has no custodian, intervention or leap captures", e)
		default:
			out = append(out, e)
		}
	}
	return strings.Join(out, " "), nil
}

// Turns groups engine moves (removals as moves of their own) into turns: a
// placement or slide with the removals the same side makes right after it;
// a removal by the other side (a blocked side's removal, both sides removing)
// starts a removal-only turn. It plays the moves from start under r and
// refuses an illegal one. It writes no passes, as Sanmill does not.
func Turns(r *rules.Rules, start position.Position, moves []position.Move) ([]Turn, error) {
	pg := position.NewGame(*r, start)
	var out []Turn
	var side position.Color // the side of the last turn
	for i, m := range moves {
		if !movegen.IsLegal(r, &pg.Pos, m) {
			_, err := movegen.ParseLegal(r, &pg.Pos, m.String())
			return nil, fmt.Errorf("record: move %d: %w", i+1, err)
		}
		us := pg.Pos.SideToMove()
		switch {
		case m.Kind() != position.KindRemove:
			out = append(out, Turn{Move: m})
		case len(out) > 0 && side == us:
			t := &out[len(out)-1]
			t.Removals = append(t.Removals, m.To())
		default:
			out = append(out, Turn{Removals: []bb.Square{m.To()}})
		}
		side = us
		pg.Play(m)
	}
	return out, nil
}

// FromEngine makes a record of an engine game, with Sanmill's tags: the seven
// standard ones ("?" where unknown, the Result from the final position),
// Variant (VariantName of the preset whose rules the game has, "Custom" for
// others), PlyCount (engine moves, removals included) and, when the game
// does not start from the start position, FEN and SetUp.
func FromEngine(g *position.Game) (Game, error) {
	turns, err := Turns(&g.Rules, g.Start, g.Moves)
	if err != nil {
		return Game{}, err
	}
	res, _ := g.Pos.Result()
	rec := Game{Result: ResultToken(res)}
	rec.Moves = turns
	for _, name := range sevenTags {
		v := "?"
		switch name {
		case "Date":
			v = "????.??.??"
		case "Result":
			v = rec.Result
		}
		rec.Tags = append(rec.Tags, Tag{name, v})
	}
	variant := "Custom"
	for _, p := range rules.Presets {
		if p.Rules == g.Rules {
			variant = VariantName(p.Key)
			break
		}
	}
	rec.SetTag("Variant", variant)
	rec.SetTag("PlyCount", strconv.Itoa(len(g.Moves)))
	std := position.New(&g.Rules)
	if fen := g.Start.FEN(); fen != std.FEN() {
		rec.SetTag("FEN", fen)
		rec.SetTag("SetUp", "1")
	}
	return rec, nil
}

// ResultToken is the game termination marker of a result in PGN (and in
// millmatch's records): "1-0", "0-1", "1/2-1/2", or "*" for a game not over.
func ResultToken(r position.Result) string {
	switch r {
	case position.WhiteWins:
		return "1-0"
	case position.BlackWins:
		return "0-1"
	case position.Draw:
		return "1/2-1/2"
	}
	return "*"
}
