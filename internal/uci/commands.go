package uci

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/millengine/millengine/internal/engine"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// handleLine runs one input line and reports whether the session must end.
func (s *session) handleLine(l inputLine) (quit bool) {
	if l.tooLong {
		s.userError("", fmt.Errorf("input line of %d bytes is longer than %d bytes; ignored", l.size, MaxLineBytes))
		return false
	}
	fields := strings.Fields(l.text)
	if len(fields) == 0 {
		return false
	}
	s.log.Debug().Str("line", clip(l.text, 200)).Msg("<<")
	cmd, args := strings.ToLower(fields[0]), fields[1:]
	var err error
	switch cmd {
	case "uci", "ugi":
		s.ugi = cmd == "ugi"
		for _, line := range s.uciLines(cmd + "ok") {
			s.printf("%s", line)
		}
	case "isready":
		s.printf("readyok")
	case "ucinewgame", "uginewgame":
		err = s.cmdNewGame(args)
	case "query":
		err = s.cmdQuery(args)
	case "setoption":
		err = s.cmdSetOption(args)
	case "position":
		err = s.cmdPosition(args)
	case "go":
		err = s.cmdGo(args)
	case "stop":
		s.cmdStop()
	case "ponderhit":
		s.cmdPonderHit()
	case "quit":
		return true
	case "d":
		s.cmdDisplay()
	case "eval":
		s.cmdEval()
	case "bench":
		err = s.cmdBench(args)
	case "debug":
		err = s.cmdDebug(args)
	case "register":
		// Nothing to register: every feature is free.
	default:
		err = fmt.Errorf("unknown command %s", quote(fields[0]))
	}
	if err != nil {
		s.userError(l.text, err)
	}
	return false
}

// cmdQuery answers UGI's queries about the current position: gameover,
// p1turn (player 1 is the side that moves first, White; a removal keeps the
// turn) and result.
func (s *session) cmdQuery(args []string) error {
	if len(args) != 1 {
		return errors.New("query: want 'query gameover', 'query p1turn' or 'query result'")
	}
	p := &s.game.Pos
	yes := func(b bool) string {
		if b {
			return "true"
		}
		return "false"
	}
	switch strings.ToLower(args[0]) {
	case "gameover":
		s.printf("response %s", yes(p.IsOver()))
	case "p1turn":
		s.printf("response %s", yes(p.SideToMove() == position.White))
	case "result":
		answer := "none"
		switch res, _ := p.Result(); res {
		case position.WhiteWins:
			answer = "p1win"
		case position.BlackWins:
			answer = "p2win"
		case position.Draw:
			answer = "draw"
		}
		s.printf("response %s", answer)
	default:
		return fmt.Errorf("query: unknown query %s (want gameover, p1turn or result)", quote(args[0]))
	}
	return nil
}

// cmdDebug accepts "debug on|off": the engine's diagnostics go to its log
// (--log-level), so the switch changes nothing on the wire.
func (s *session) cmdDebug(args []string) error {
	if len(args) != 1 || (!strings.EqualFold(args[0], "on") && !strings.EqualFold(args[0], "off")) {
		return errors.New("debug: want 'debug on' or 'debug off'")
	}
	s.log.Info().Str("debug", strings.ToLower(args[0])).Msg("debug mode")
	return nil
}

// errBusy is the error of a command refused while a search or a job runs.
func (s *session) errBusy(cmd string) error {
	what := "a search is"
	if s.job != nil {
		what = s.job.name + " is"
	}
	return fmt.Errorf("%s: %s running; send stop first", cmd, what)
}

// cmdNewGame clears the hash table and search state.
func (s *session) cmdNewGame(args []string) error {
	if s.busy() {
		return s.errBusy("ucinewgame")
	}
	if len(args) > 0 {
		return fmt.Errorf("ucinewgame: unexpected argument %s", quote(args[0]))
	}
	s.engine.NewGame()
	return nil
}

// cmdPosition sets the game from "startpos" or "fen <fen>" and the tokens
// after "moves". The command is checked whole first: on any error the old
// game stays, and go refuses to search until a position is accepted.
func (s *session) cmdPosition(args []string) error {
	g, err := s.parsePosition(args)
	if err != nil {
		s.valid = false
		return err
	}
	s.game, s.valid = g, true
	return nil
}

func (s *session) parsePosition(args []string) (*position.Game, error) {
	if len(args) == 0 {
		return nil, errors.New("position: want 'startpos' or 'fen <fen>', then optionally 'moves <tokens>'")
	}
	var (
		start position.Position
		rest  []string
	)
	switch strings.ToLower(args[0]) {
	case "startpos":
		start, rest = position.New(&s.rules), args[1:]
	case "fen":
		end := 1
		for end < len(args) && !strings.EqualFold(args[end], "moves") {
			end++
		}
		if end == 1 {
			return nil, errors.New("position fen: missing position string")
		}
		p, err := position.ParseFEN(&s.rules, strings.Join(args[1:end], " "))
		if err != nil {
			return nil, fmt.Errorf("position fen: %w", err)
		}
		start, rest = p, args[end:]
	default:
		return nil, fmt.Errorf("position: want 'startpos' or 'fen', got %s", quote(args[0]))
	}
	if len(rest) > 0 {
		if !strings.EqualFold(rest[0], "moves") {
			return nil, fmt.Errorf("position: unexpected %s (want 'moves')", quote(rest[0]))
		}
		rest = rest[1:]
	}
	g := position.NewGame(s.rules, start)
	for i, tok := range rest {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return nil, fmt.Errorf("position: move %d of %d: %w", i+1, len(rest), err)
		}
		g.Play(m)
	}
	return g, nil
}

// legalMoves returns the legal actions of p.
func legalMoves(g *position.Game) []position.Move {
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	return append([]position.Move(nil), ml.Slice()...)
}

// sortedTokens returns the tokens of moves sorted.
func sortedTokens(moves []position.Move) []string {
	toks := make([]string, len(moves))
	for i, m := range moves {
		toks[i] = m.String()
	}
	sort.Strings(toks)
	return toks
}

// cmdDisplay prints the board and the state of the current position: fen,
// key, side, phase, action, hands, pending removals, the result ("ongoing",
// or the winner and the reason: a GUI shows the end of a game from it) and
// the legal actions sorted.
func (s *session) cmdDisplay() {
	g := s.game
	p := &g.Pos
	for _, l := range boardPicture(&g.Rules, p) {
		s.printf("%s", l)
	}
	s.printf("fen: %s", p.FEN())
	s.printf("key: %08x", p.Key())
	s.printf("side: %s", p.SideToMove())
	s.printf("phase: %s", p.Phase())
	s.printf("action: %s", p.Action())
	s.printf("pieces in hand: white %d black %d", p.InHand(position.White), p.InHand(position.Black))
	s.printf("pending removals: white %d black %d", p.PendingRemovals(position.White), p.PendingRemovals(position.Black))
	if res, why := p.Result(); p.IsOver() {
		s.printf("result: %s (%s)", res, why)
	} else {
		s.printf("result: ongoing")
	}
	s.printf("%s", strings.TrimRight("legal: "+strings.Join(sortedTokens(legalMoves(g)), " "), " "))
	if e, ok := s.engine.BookEntry(g); ok {
		s.printf("book: %s", engine.BookLine(e))
	}
}

// cmdEval prints the evaluation terms (each side from its own view) and the
// total from the side to move's view.
func (s *session) cmdEval() {
	g := s.game
	terms, total := eval.Trace(&g.Rules, &g.Pos)
	s.printf("%-20s %7s %7s %7s", "term", "white", "black", "diff")
	for _, t := range terms {
		s.printf("%-20s %7d %7d %7d", clip(t.Name, 20), t.White, t.Black, t.White-t.Black)
	}
	s.printf("total: %d (%s to move)", total, g.Pos.SideToMove())
}

// maxDepth returns the deepest depth allowed for perft or bench.
func (s *session) maxDepth(ceiling int) int {
	if s.cfg.MaxDepth > 0 && s.cfg.MaxDepth < ceiling {
		return s.cfg.MaxDepth
	}
	return ceiling
}

// depthArg parses a depth argument of cmd in 1..hi.
func depthArg(cmd, tok string, hi int) (int, error) {
	d, err := strconv.Atoi(tok)
	if err != nil {
		return 0, fmt.Errorf("%s: depth %s is not an integer", cmd, quote(tok))
	}
	if d < 1 || d > hi {
		return 0, fmt.Errorf("%s: depth %d is out of range 1..%d", cmd, d, hi)
	}
	return d, nil
}

// cmdPerft runs "go perft <d>" as a job: the count under each legal action
// in token order as it is known, a blank line and the total. stop ends it
// with the counts finished so far (and says so).
func (s *session) cmdPerft(args []string) error {
	if len(args) != 1 {
		return errors.New("go perft: want 'go perft <depth>'")
	}
	d, err := depthArg("go perft", args[0], s.maxDepth(movegen.MaxPerftDepth))
	if err != nil {
		return err
	}
	if !s.valid {
		return errNoPosition
	}
	s.stopAll(goWait)
	r, p := s.game.Rules, s.game.Pos
	s.startJob("go perft", func(ctx context.Context, emit func(string)) {
		var stop atomic.Bool
		defer context.AfterFunc(ctx, func() { stop.Store(true) })()
		var total uint64
		n, complete := movegen.DivideEach(&r, &p, d, &stop, func(e movegen.DivideEntry) {
			emit(fmt.Sprintf("%s: %d", e.Move, e.Nodes))
			total += e.Nodes
		})
		if !complete {
			emit(fmt.Sprintf("info string go perft stopped after %d of %d actions", n, movegen.Count(&r, &p)))
		}
		emit("")
		emit(fmt.Sprintf("Nodes searched: %d", total))
	})
	return nil
}

// cmdBench runs search.Bench with the current Threads and Hash as a job; stop
// ends it with a partial summary.
func (s *session) cmdBench(args []string) error {
	if s.run != nil {
		return s.errBusy("bench")
	}
	cfg := search.BenchConfig{Threads: s.sopts.Threads, HashMB: s.hashMB, Score: ScoreString}
	switch {
	case len(args) > 1:
		return errors.New("bench: want 'bench [depth]'")
	case len(args) == 1:
		d, err := depthArg("bench", args[0], s.maxDepth(search.MaxPly-1))
		if err != nil {
			return err
		}
		cfg.Depth = d
	default:
		cfg.Depth = s.maxDepth(search.DefaultBenchDepth)
	}
	s.stopAll(goWait)
	bench := s.cfg.Bench
	s.startJob("bench", func(ctx context.Context, emit func(string)) {
		lw := &lineWriter{emit: emit}
		_, err := bench(ctx, cfg, lw)
		lw.Flush()
		if err != nil {
			emit(fmt.Sprintf("info string error: bench: %v", err))
		}
	})
	return nil
}
