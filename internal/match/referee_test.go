package match

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// scripted is a Player that answers from a list and records what it was sent.
type scripted struct {
	answers   []Answer
	positions []string
	gos       []string
	err       error // returned once the answers run out
}

func (s *scripted) NewGame(context.Context) error { return nil }

func (s *scripted) Go(_ context.Context, pos, goCmd string, _ time.Duration) (Answer, error) {
	s.positions = append(s.positions, pos)
	s.gos = append(s.gos, goCmd)
	if len(s.answers) == 0 {
		if s.err != nil {
			return Answer{Elapsed: time.Millisecond}, s.err
		}
		return Answer{Move: "none"}, nil
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	if a.Elapsed == 0 {
		a.Elapsed = time.Millisecond
	}
	return a, nil
}

func moves(toks ...string) []Answer {
	out := make([]Answer, len(toks))
	for i, t := range toks {
		out[i] = Answer{Move: t, Depth: 4, NPS: 1000}
	}
	return out
}

func movetimeConfig(op Opening) GameConfig {
	return GameConfig{Rules: rules.Default(), Opening: op, TC: TimeControl{MoveTime: 100 * time.Millisecond}, Margin: 50 * time.Millisecond}
}

// The removal after a mill is asked from the same engine with a second go
// whose position includes the mill-closing token.
func TestRefereeRemovalIsSecondGo(t *testing.T) {
	white := &scripted{answers: moves("a7", "d7", "g7", "xb4", "illegal!")}
	black := &scripted{answers: moves("b4", "f4", "a1")}
	o := PlayGame(context.Background(), movetimeConfig(Opening{}), [2]Player{white, black})
	wantWhite := []string{
		"position startpos",
		"position startpos moves a7 b4",
		"position startpos moves a7 b4 d7 f4",
		"position startpos moves a7 b4 d7 f4 g7", // the same side, again: remove
		"position startpos moves a7 b4 d7 f4 g7 xb4 a1",
	}
	if strings.Join(white.positions, "|") != strings.Join(wantWhite, "|") {
		t.Errorf("white was sent\n%s\nwant\n%s", strings.Join(white.positions, "\n"), strings.Join(wantWhite, "\n"))
	}
	if got := black.positions[2]; got != "position startpos moves a7 b4 d7 f4 g7 xb4" {
		t.Errorf("black's third position %q", got)
	}
	if o.Termination != TermIllegal || o.Result != position.BlackWins || o.Faulty != 0 {
		t.Errorf("outcome %+v: want white to lose by an illegal token", o)
	}
	if got := strings.Join(o.Moves, " "); got != "a7 b4 d7 f4 g7 xb4 a1" {
		t.Errorf("moves %q", got)
	}
	if o.Sides[0].Actions != 5 || o.Sides[0].DepthN != 5 || o.Sides[0].NPSSum != 5000 {
		t.Errorf("white's stats %+v", o.Sides[0])
	}
}

func TestRefereeForfeitsAndClaims(t *testing.T) {
	cases := []struct {
		name   string
		white  []Answer
		black  []Answer
		term   Termination
		result position.Result
		faulty int
	}{
		{"bestmove none", moves("a7", "none"), moves("b4"), TermForfeit, position.BlackWins, -1},
		{"bestmove (none) from black", moves("a7"), moves("(none)"), TermForfeit, position.WhiteWins, -1},
		{"false draw claim", moves("a7"), moves("draw"), TermFalseClaim, position.WhiteWins, -1},
		{"empty bestmove", moves(""), nil, TermIllegal, position.BlackWins, 0},
		{"occupied point", moves("a7", "b4"), moves("b4"), TermIllegal, position.BlackWins, 0},
		{"slide while placing", moves("a7"), moves("a7-a4"), TermIllegal, position.WhiteWins, 1},
		{"late answer", []Answer{{Move: "a7", Elapsed: 200 * time.Millisecond}}, nil, TermTimeout, position.BlackWins, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := PlayGame(context.Background(), movetimeConfig(Opening{}), [2]Player{&scripted{answers: c.white}, &scripted{answers: c.black}})
			if o.Termination != c.term || o.Result != c.result || o.Faulty != c.faulty || o.Reason == "" {
				t.Errorf("outcome %v %v faulty %d (%s), want %v %v faulty %d", o.Termination, o.Result, o.Faulty, o.Reason, c.term, c.result, c.faulty)
			}
		})
	}
}

func TestRefereeEngineErrors(t *testing.T) {
	crash := &EngineError{Engine: "x", Kind: FaultCrash, Err: errors.New("the engine exited (exit status 1) before its bestmove")}
	hang := &EngineError{Engine: "x", Kind: FaultTimeout, Err: errors.New("no bestmove in time")}
	clock := GameConfig{Rules: rules.Default(), TC: TimeControl{Base: time.Second}, Margin: 10 * time.Millisecond}
	cases := []struct {
		cfg  GameConfig
		err  error
		term Termination
	}{
		{movetimeConfig(Opening{}), crash, TermCrash},
		{movetimeConfig(Opening{}), hang, TermTimeout},
		{clock, hang, TermTimeForfeit},
	}
	for _, c := range cases {
		o := PlayGame(context.Background(), c.cfg, [2]Player{&scripted{answers: moves("a7")}, &scripted{err: c.err}})
		if o.Termination != c.term || o.Result != position.WhiteWins || o.Faulty != 1 {
			t.Errorf("%v: outcome %v %v faulty %d, want %v, white wins, black faulty", c.err, o.Termination, o.Result, o.Faulty, c.term)
		}
	}
	// A cancelled match aborts the game: no result, nobody to blame.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := PlayGame(ctx, movetimeConfig(Opening{}), [2]Player{&scripted{err: context.Canceled}, &scripted{}})
	if o.Termination != TermAborted || o.Result != position.Ongoing || o.Faulty != -1 {
		t.Errorf("cancelled: %+v", o)
	}
}

func TestRefereeClockAndCap(t *testing.T) {
	// Each action costs 400 ms of a 1 s clock with no increment: white's
	// third action (its clock at 200 ms) overruns the 50 ms margin.
	slow := func(toks ...string) []Answer {
		a := moves(toks...)
		for i := range a {
			a[i].Elapsed = 400 * time.Millisecond
		}
		return a
	}
	cfg := GameConfig{Rules: rules.Default(), TC: TimeControl{Base: time.Second}, Margin: 50 * time.Millisecond}
	white := &scripted{answers: slow("a7", "d7", "g1")}
	o := PlayGame(context.Background(), cfg, [2]Player{white, &scripted{answers: moves("b4", "f4", "a1")}})
	if o.Termination != TermTimeForfeit || o.Result != position.BlackWins {
		t.Errorf("outcome %v %v (%s), want a time forfeit by white", o.Termination, o.Result, o.Reason)
	}
	if white.gos[1] != "go wtime 600 btime 999 winc 0 binc 0" {
		t.Errorf("second go %q", white.gos[1])
	}
	if o.Sides[0].Time != 1200*time.Millisecond {
		t.Errorf("white used %v, want 1.2s", o.Sides[0].Time)
	}

	// The ply cap adjudicates a draw; it counts the opening.
	cfg = movetimeConfig(Opening{Moves: []string{"a7", "b4"}})
	cfg.MaxPlies = 4
	o = PlayGame(context.Background(), cfg, [2]Player{&scripted{answers: moves("d7")}, &scripted{answers: moves("f4")}})
	if o.Termination != TermAdjudication || o.Result != position.Draw || o.Plies != 4 || len(o.Moves) != 2 {
		t.Errorf("cap: %+v", o)
	}
}

// endgameFEN: white d7 a7 g4 (outer), d2 b2 (middle); black d5 e5 e4 (inner,
// three pieces, flying); white to move in the moving phase.
const endgameFEN = "@@@*****/****OO**/O*O****O w m s 5 0 3 0 0 0 0 0 0 0 0 0 30"

func TestRefereeEndsByRule(t *testing.T) {
	// g4-g7 closes a7-d7-g7; the removal leaves black with two pieces.
	white := &scripted{answers: moves("g4-g7", "xd5")}
	o := PlayGame(context.Background(), movetimeConfig(Opening{FEN: endgameFEN}), [2]Player{white, &scripted{}})
	if o.Termination != TermRule || o.Result != position.WhiteWins || o.Reason != position.FewerPieces.String() {
		t.Errorf("outcome %v %v (%s), want white to win by the rules", o.Termination, o.Result, o.Reason)
	}
	if got := white.positions[1]; got != "position fen "+endgameFEN+" moves g4-g7" {
		t.Errorf("removal asked with %q", got)
	}

	// Shuttling: the board after white's first slide comes back a third time
	// on the 9th slide, a draw by threefold repetition that Game.Play applies.
	white = &scripted{answers: moves("b2-b4", "b4-b2", "b2-b4", "b4-b2", "b2-b4")}
	black := &scripted{answers: moves("e4-e3", "e3-e4", "e4-e3", "e3-e4")}
	o = PlayGame(context.Background(), movetimeConfig(Opening{FEN: endgameFEN}), [2]Player{white, black})
	if o.Termination != TermRule || o.Result != position.Draw || o.Reason != position.ThreefoldRepetition.String() || o.Plies != 9 {
		t.Errorf("outcome %v %v (%s) after %d plies, want a threefold repetition draw after 9", o.Termination, o.Result, o.Reason, o.Plies)
	}
}

// With endgame tables the referee adjudicates a draw as soon as the game
// reaches a position they know to be drawn, before asking for an action;
// a won position is played out (the tables do not count the N-move rule).
func TestRefereeTableAdjudication(t *testing.T) {
	tb := egtbtest.Open(t, 7)
	const drawn = "@****O**/**@@**O*/**OO**** w m s 4 0 3 0 0 0 0 0 0 0 0 0 1" // 4v3, a table draw
	cfg := movetimeConfig(Opening{FEN: drawn})
	cfg.Tables = tb
	white, black := &scripted{}, &scripted{}
	o := PlayGame(context.Background(), cfg, [2]Player{white, black})
	if o.Termination != TermAdjudication || o.Result != position.Draw || o.Reason != "draw by the endgame tables" || o.Plies != 0 || len(white.gos) != 0 {
		t.Errorf("drawn start: %+v, white asked %d times", o, len(white.gos))
	}
	// Without the tables the same position is played: white is asked.
	o = PlayGame(context.Background(), movetimeConfig(Opening{FEN: drawn}), [2]Player{white, black})
	if len(white.gos) != 1 || o.Termination != TermForfeit {
		t.Errorf("without tables: %+v, white asked %d times", o, len(white.gos))
	}
	// A table win (a mill in one by flying) is played out to the rules' end.
	cfg = movetimeConfig(Opening{FEN: "***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"})
	cfg.Tables = tb
	o = PlayGame(context.Background(), cfg, [2]Player{&scripted{answers: moves("a1-g7", "xe3")}, &scripted{}})
	if o.Termination != TermRule || o.Result != position.WhiteWins || o.Plies != 2 {
		t.Errorf("won start: %+v", o)
	}
}
