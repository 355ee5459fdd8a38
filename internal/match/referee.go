package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Player is one side of a game as the referee sees it. *Process is the real
// one; tests may script their own.
type Player interface {
	// NewGame prepares the engine for a new game (ucinewgame, isready).
	NewGame(ctx context.Context) error
	// Go sends the position and go lines and returns the answer, or an
	// *EngineError when the engine crashed or did not answer within deadline.
	Go(ctx context.Context, positionCmd, goCmd string, deadline time.Duration) (Answer, error)
}

// Termination says how a game ended.
type Termination string

// Terminations. Every game ends with one of them; the first two are the
// ordinary ends, the rest blame the engine that loses.
const (
	TermRule         Termination = "rule"             // a win, or a draw by threefold repetition, N-move rule, stalemate or full board
	TermAdjudication Termination = "adjudication"     // a draw: the ply cap was reached, or the endgame tables know the position drawn
	TermDrawClaim    Termination = "draw-claim"       // an engine's `bestmove draw` that a draw rule supports
	TermCrash        Termination = "crash"            // the engine process died
	TermTimeout      Termination = "timeout"          // no answer within the move time plus the margin
	TermTimeForfeit  Termination = "time-forfeit"     // the clock ran out (plus the margin)
	TermIllegal      Termination = "illegal-move"     // a token the referee rejected
	TermForfeit      Termination = "forfeit"          // `bestmove none` while a legal action exists
	TermFalseClaim   Termination = "false-draw-claim" // `bestmove draw` when no draw rule holds
	TermStartFailure Termination = "start-failure"    // the engine could not be (re)started
	TermAborted      Termination = "aborted"          // the match was stopped during the game; not counted
)

// GameConfig is what one game is played under.
type GameConfig struct {
	Rules    rules.Rules
	Opening  Opening
	TC       TimeControl
	Margin   time.Duration // how late an answer may be before it counts as a hang / a loss on time
	MaxPlies int           // adjudicate a draw once the game has this many actions (opening included); 0: no cap
	Names    [2]string     // engine labels for the reasons ("white (name) crashed"); optional
	// Tables adjudicate a draw as soon as the game reaches a position they
	// know to be drawn (perfect play from there, as cutechess-cli's -tb
	// does with Syzygy); nil: never. Only draws: the tables do not count the
	// N-move rule, so a won position is played out (the engines with tables
	// play it at once), and a drawn one cannot turn into a win by any rule.
	Tables *egtb.Tables
}

// Outcome is the result of one game with everything the reports need.
type Outcome struct {
	Result      position.Result // Ongoing only when aborted
	Termination Termination
	Reason      string   // human-readable detail
	Faulty      int      // side (0 white, 1 black) whose process must be restarted, or -1
	Moves       []string // the engines' tokens after the opening
	Notes       []string // each move's info strings, joined by " | " ("" for none)
	Plies       int      // all actions of the game, opening included
	FinalFEN    string
	Sides       [2]SideStats
}

// SideStats is what one side spent and reported in a game.
type SideStats struct {
	Actions  int           // answers given (a removal is its own action)
	Time     time.Duration // thinking time, all actions
	DepthSum int64         // sum of the last reported depth per action that had one
	DepthN   int
	NPSSum   float64 // sum of the last reported nodes/second per action that had one
	NPSN     int
}

// isCrash reports whether err is a crash fault: the engine's process ended
// or closed a pipe.
func isCrash(err error) bool {
	var ee *EngineError
	return errors.As(err, &ee) && ee.Kind == FaultCrash
}

// faultDetail returns an engine error's message without the engine's name
// and the kind of fault, for a reason that names the engine already.
func faultDetail(err error) string {
	if ee := (*EngineError)(nil); errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return err.Error()
}

// PositionCommand returns the "position …" line for a start FEN ("" for
// startpos) and the tokens played from it.
func PositionCommand(fen string, moves []string) string {
	var b strings.Builder
	if fen == "" {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen ")
		b.WriteString(fen)
	}
	if len(moves) > 0 {
		b.WriteString(" moves ")
		b.WriteString(strings.Join(moves, " "))
	}
	return b.String()
}

// PlayGame referees one game between players[0] (white) and players[1]
// (black). The game is kept in a position.Game: every token is checked with
// movegen.ParseLegal and applied with Game.Play, which ends the game by the
// rules (wins, threefold repetition, N-move rules). After a mill-closing
// action the side to move stays the same, so the same engine is asked again
// with a position that includes the mill-closing token.
//
// Answers that lose the game: a crash, no answer in time, an illegal token,
// `bestmove none` while a legal action exists, and `bestmove draw` when no
// draw rule holds (a draw claim is accepted only if position.DrawByRule
// agrees; since the referee applies those rules after every action itself, a
// claim in a game that is still running is in practice always false).
func PlayGame(ctx context.Context, cfg GameConfig, players [2]Player) Outcome {
	out := Outcome{Faulty: -1}
	g, err := cfg.Opening.Game(cfg.Rules)
	if err != nil {
		out.Termination, out.Reason = TermAborted, err.Error()
		return out
	}
	tokens := append([]string(nil), cfg.Opening.Moves...)
	finish := func(res position.Result, term Termination, reason string) Outcome {
		out.Result, out.Termination, out.Reason = res, term, reason
		out.Moves = append([]string(nil), tokens[len(cfg.Opening.Moves):]...)
		out.Plies = len(g.Moves)
		out.FinalFEN = g.Pos.FEN()
		return out
	}
	lose := func(side position.Color, term Termination, faulty bool, format string, args ...any) Outcome {
		if faulty {
			out.Faulty = int(side)
		}
		who := side.String()
		if cfg.Names[side] != "" {
			who += " (" + cfg.Names[side] + ")"
		}
		return finish(position.Winner(side.Opponent()), term, who+" "+fmt.Sprintf(format, args...))
	}
	for side := position.White; side <= position.Black; side++ {
		if err := players[side].NewGame(ctx); err != nil {
			if ctx.Err() != nil {
				return finish(position.Ongoing, TermAborted, "match stopped")
			}
			if isCrash(err) {
				return lose(side, TermCrash, true, "crashed: %s", faultDetail(err))
			}
			return lose(side, TermStartFailure, true, "failed to start a game: %s", faultDetail(err))
		}
	}
	clock := NewClock(cfg.TC, cfg.Margin)
	var ml movegen.MoveList
	for {
		if g.Pos.IsOver() {
			res, why := g.Pos.Result()
			return finish(res, TermRule, why.String())
		}
		if cfg.MaxPlies > 0 && len(g.Moves) >= cfg.MaxPlies {
			return finish(position.Draw, TermAdjudication, fmt.Sprintf("draw by adjudication after %d plies", len(g.Moves)))
		}
		if e, known := cfg.Tables.Lookup(&g.Rules, &g.Pos); known && e.Value.IsDraw() {
			return finish(position.Draw, TermAdjudication, "draw by the endgame tables")
		}
		movegen.Generate(&g.Rules, &g.Pos, &ml)
		if ml.N == 0 {
			// The rules code always ends a game without actions; this is a guard.
			return finish(position.Draw, TermAdjudication, "no legal action although the game is not over")
		}
		side := g.Pos.SideToMove()
		deadline := clock.Deadline(int(side))
		ans, err := players[side].Go(ctx, PositionCommand(cfg.Opening.FEN, tokens), clock.GoCommand(), deadline)
		st := &out.Sides[side]
		st.Time += ans.Elapsed
		if err != nil {
			if ctx.Err() != nil {
				return finish(position.Ongoing, TermAborted, "match stopped")
			}
			var ee *EngineError
			switch {
			case errors.As(err, &ee) && ee.Kind == FaultTimeout && cfg.TC.IsClock():
				return lose(side, TermTimeForfeit, true, "lost on time: no answer within %v (clock %v + margin %v)",
					deadline, clock.Remaining(int(side)), cfg.Margin)
			case errors.As(err, &ee) && ee.Kind == FaultTimeout:
				return lose(side, TermTimeout, true, "did not answer within %v (%v + margin %v)",
					deadline, cfg.TC, cfg.Margin)
			case errors.As(err, &ee) && ee.Kind == FaultCrash:
				return lose(side, TermCrash, true, "crashed: %v", ee.Err)
			default:
				return lose(side, TermCrash, true, "failed: %s", faultDetail(err))
			}
		}
		st.Actions++
		if ans.Depth > 0 {
			st.DepthSum += int64(ans.Depth)
			st.DepthN++
		}
		if ans.NPS > 0 {
			st.NPSSum += float64(ans.NPS)
			st.NPSN++
		}
		left := clock.Remaining(int(side))
		if !clock.Spend(int(side), ans.Elapsed) {
			if cfg.TC.IsClock() {
				return lose(side, TermTimeForfeit, false, "lost on time: answered after %v with %v on the clock (margin %v)",
					ans.Elapsed.Round(time.Millisecond), left, cfg.Margin)
			}
			return lose(side, TermTimeout, false, "answered after %v (%v + margin %v)",
				ans.Elapsed.Round(time.Millisecond), cfg.TC, cfg.Margin)
		}
		switch strings.ToLower(ans.Move) {
		case "none", "(none)", "0000":
			return lose(side, TermForfeit, false, "answered bestmove %s although it has %d legal actions", ans.Move, ml.N)
		case "draw":
			if res, why := position.DrawByRule(&g.Rules, &g.Pos, g.RepetitionKeys()); res == position.Draw {
				return finish(position.Draw, TermDrawClaim, side.String()+" claimed a draw by "+why.String())
			}
			return lose(side, TermFalseClaim, false, "claimed a draw (bestmove draw) that no draw rule supports")
		case "":
			return lose(side, TermIllegal, true, "sent bestmove without a token")
		}
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, ans.Move)
		if err != nil {
			return lose(side, TermIllegal, true, "sent an illegal token: %v", err)
		}
		g.Play(m)
		tokens = append(tokens, m.String())
		out.Notes = append(out.Notes, strings.Join(ans.Notes, " | "))
	}
}
