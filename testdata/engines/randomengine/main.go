// Command randomengine is a tiny mill UCI engine for millmatch's tests: it
// plays a random legal action (or, with --greedy, closes mills and avoids
// giving them), and can be told to misbehave after a number of answers:
// crash, hang, send an illegal token, answer "bestmove none" or
// "bestmove draw", or answer in Sanmill's "info score N bestmove M" shape;
// it can refuse an option with an "info string error" line, and exit right
// after its answer to uci or when a given command arrives.
//
// It speaks enough UCI for a match: uci/uciok, isready/readyok, ucinewgame,
// setoption (Variant and the rule options), position startpos|fen … moves …,
// go … → bestmove, stop, quit.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/uci"
)

type engine struct {
	out  *bufio.Writer
	rng  *rand.Rand
	r    rules.Rules
	pos  position.Position
	gos  int  // go commands answered so far by this process
	hung bool // stopped answering go

	greedy, sanmill, noVariant, note                          bool
	crashAfter, hangAfter, illegalAfter, noneAfter, drawAfter int
	delay                                                     time.Duration
	depth                                                     int
	nps                                                       int64
	name                                                      string
	refuse                                                    string
	exitAfterUCI                                              bool
	exitOn                                                    string
}

func main() {
	e := &engine{out: bufio.NewWriter(os.Stdout), r: rules.Default()}
	fs := pflag.NewFlagSet("randomengine", pflag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "random seed")
	fs.BoolVar(&e.greedy, "greedy", false, "close mills when possible, avoid allowing them")
	fs.BoolVar(&e.sanmill, "sanmill-style", false, "answer 'info score N bestmove M' instead of 'bestmove M'")
	fs.BoolVar(&e.note, "note", false, "send 'info string chose M among N' before each answer")
	fs.BoolVar(&e.noVariant, "no-variant", false, "do not declare the Variant option (only the rule options)")
	fs.IntVar(&e.crashAfter, "crash-after", -1, "exit without answering after N answers")
	fs.IntVar(&e.hangAfter, "hang-after", -1, "stop answering go after N answers")
	fs.IntVar(&e.illegalAfter, "illegal-after", -1, "send an illegal token after N answers")
	fs.IntVar(&e.noneAfter, "none-after", -1, "answer 'bestmove none' after N answers")
	fs.IntVar(&e.drawAfter, "draw-after", -1, "answer 'bestmove draw' after N answers")
	fs.DurationVar(&e.delay, "delay", 0, "think this long before each answer")
	fs.IntVar(&e.depth, "depth", 3, "depth to report in info lines (0: no info line)")
	fs.Int64Var(&e.nps, "nps", 100000, "nodes per second to report")
	fs.StringVar(&e.name, "name", "randomengine", "id name")
	fs.StringVar(&e.refuse, "refuse", "", `answer "info string error" to every setoption of this option`)
	fs.BoolVar(&e.exitAfterUCI, "exit-after-uci", false, "exit with status 5 right after the answer to uci")
	fs.StringVar(&e.exitOn, "exit-on", "", "exit with status 5 when this command arrives (ucinewgame, position, go, …)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	e.rng = rand.New(rand.NewPCG(*seed, 7))
	e.pos = position.New(&e.r)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if !e.command(strings.Fields(sc.Text())) {
			break
		}
		_ = e.out.Flush()
	}
	_ = e.out.Flush()
}

func (e *engine) printf(format string, args ...any) { fmt.Fprintf(e.out, format+"\n", args...) }

// command handles one line and reports whether to go on.
func (e *engine) command(f []string) bool {
	if len(f) == 0 {
		return true
	}
	if f[0] == e.exitOn {
		_ = e.out.Flush()
		os.Exit(5)
	}
	switch f[0] {
	case "uci":
		e.printf("id name %s", e.name)
		e.printf("id author millmatch tests")
		e.printf("option name Hash type spin default 16 min 1 max 1024")
		e.printf("option name Ponder type check default false")
		e.printf("option name Style type combo default solid var solid var risky var all in")
		e.printf("option name Clear Hash type button")
		e.printf("option name Book File type string default <empty>")
		if !e.noVariant {
			e.printf("option name Variant type combo default nine-mens-morris var %s", strings.Join(rules.PresetKeys(), " var "))
		}
		def := rules.Default()
		for i := range rules.Params {
			for _, l := range uci.RuleOptionLines(&rules.Params[i], &def) {
				e.printf("%s", l)
			}
		}
		e.printf("uciok")
		if e.exitAfterUCI {
			_ = e.out.Flush()
			os.Exit(5)
		}
	case "isready":
		e.printf("readyok")
	case "ucinewgame":
		e.pos = position.New(&e.r)
	case "setoption":
		e.setoption(f[1:])
	case "position":
		e.position(f[1:])
	case "go":
		e.goCmd()
	case "quit":
		return false
	case "stop":
	default:
		e.printf("info string error: unknown command '%s'", f[0])
	}
	return true
}

func (e *engine) setoption(f []string) {
	if len(f) < 2 || f[0] != "name" {
		e.printf("info string error: setoption: want 'name <N> [value <V>]'")
		return
	}
	var name, value []string
	i := 1
	for ; i < len(f) && f[i] != "value"; i++ {
		name = append(name, f[i])
	}
	if i < len(f) {
		value = f[i+1:]
	}
	n, v := strings.Join(name, " "), strings.Join(value, " ")
	if e.refuse != "" && strings.EqualFold(n, e.refuse) {
		e.printf("info string error: option %s: refused by the test engine", n)
		return
	}
	if strings.EqualFold(n, "Variant") {
		p, ok := rules.PresetByName(v)
		if !ok {
			e.printf("info string error: unknown variant '%s'", v)
			return
		}
		e.r = p.Rules
		e.pos = position.New(&e.r)
		return
	}
	if par, ok := rules.Lookup(n); ok {
		if err := par.Set(&e.r, v); err != nil {
			e.printf("info string error: %v", err)
			return
		}
		e.pos = position.New(&e.r)
	}
}

func (e *engine) position(f []string) {
	if len(f) == 0 {
		e.printf("info string error: position: want startpos or fen")
		return
	}
	var p position.Position
	i := 1
	switch f[0] {
	case "startpos":
		p = position.New(&e.r)
	case "fen":
		for i < len(f) && f[i] != "moves" {
			i++
		}
		var err error
		if p, err = position.ParseFEN(&e.r, strings.Join(f[1:i], " ")); err != nil {
			e.printf("info string error: %v", err)
			return
		}
	default:
		e.printf("info string error: position: want startpos or fen")
		return
	}
	if i < len(f) && f[i] == "moves" {
		for _, tok := range f[i+1:] {
			m, err := movegen.ParseLegal(&e.r, &p, tok)
			if err != nil {
				e.printf("info string error: %v", err)
				return
			}
			p.Do(&e.r, m)
		}
	}
	e.pos = p
}

func (e *engine) goCmd() {
	if e.hung {
		return
	}
	n := e.gos
	switch {
	case e.crashAfter >= 0 && n >= e.crashAfter:
		_ = e.out.Flush()
		os.Exit(3)
	case e.hangAfter >= 0 && n >= e.hangAfter:
		e.hung = true
		return
	}
	if e.delay > 0 {
		time.Sleep(e.delay)
	}
	e.gos++
	var ml movegen.MoveList
	movegen.Generate(&e.r, &e.pos, &ml)
	tok := "none"
	switch {
	case e.illegalAfter >= 0 && n >= e.illegalAfter:
		tok = e.illegal()
	case e.noneAfter >= 0 && n >= e.noneAfter:
	case e.drawAfter >= 0 && n >= e.drawAfter:
		tok = "draw"
	case ml.N > 0:
		tok = e.choose(ml.Slice()).String()
	}
	if e.depth > 0 {
		e.printf("info depth %d seldepth %d score cp 0 nodes %d nps %d time 1 pv %s", e.depth, e.depth, e.nps/1000, e.nps, tok)
	}
	if e.note {
		e.printf("info string chose %s among %d", tok, ml.N)
	}
	if e.sanmill {
		e.printf("info score 0 bestmove %s", tok)
	} else {
		e.printf("bestmove %s", tok)
	}
}

// illegal returns a well-formed token that is not legal here.
func (e *engine) illegal() string {
	for s := bitboard.Square(0); s < bitboard.NumSquares; s++ {
		for _, tok := range []string{"x" + s.String(), s.String()} {
			if _, err := movegen.ParseLegal(&e.r, &e.pos, tok); err != nil {
				return tok
			}
		}
	}
	return "zz"
}

func (e *engine) choose(ms []position.Move) position.Move {
	if !e.greedy {
		return ms[e.rng.IntN(len(ms))]
	}
	us := e.pos.SideToMove()
	best, bestScore := ms[0], -1<<30
	for _, m := range ms {
		c := e.pos
		c.Do(&e.r, m)
		score := e.rng.IntN(3)
		if res, _ := c.Result(); c.IsOver() && res == position.Winner(us) {
			score += 1000
		}
		if c.Action() == position.Remove && c.SideToMove() == us {
			score += 100
		}
		if c.SideToMove() != us && !c.IsOver() {
			var reply movegen.MoveList
			movegen.Generate(&e.r, &c, &reply)
			for _, r := range reply.Slice() {
				cc := c
				cc.Do(&e.r, r)
				if cc.Action() == position.Remove && cc.SideToMove() != us {
					score -= 30
				}
			}
		}
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}
