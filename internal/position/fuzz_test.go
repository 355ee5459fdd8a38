package position_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// fenSeeds are valid position strings of several variants; fuzzing starts from
// them and from broken copies of them.
var fenSeeds = []string{
	fenStart, fenAfterA7G7, fenPlacedDone, fenBlackRm,
	"********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
	"@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 -1 -1 -1 -1 0 4 11 ids:nodes",
	"@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 18 26 8 15 0 3 12",
	"@@*****@/O*******/OO*****O w m s 4 0 3 0 0 0 0 0 0 0 9439544818968593152 5 30",
	"@@*****@/O*******/OO*****O w m s 4 0 3 0 0 0 -1 -1 -1 -1 36873221949096067 5 30 ids:nodes",
	"X*******/O*O*****/@@****** b p p 2 10 2 9 0 0 0 0 0 0 0 0 3",
	"OO@@OO@@/OO@@OO@@/OO@@OO@@ w p r 12 0 12 0 -1 -1 0 0 0 0 0 0 13",
	"OOO@@@O@/@@O@OO@O/@@@O@OOO w m r 12 0 12 0 1 0 0 0 0 0 0 0 21 stalemate-removing",
	"OO@@OOO@/@@@OO@@O/O@OO@@@O b o p 12 0 12 0 0 0 0 0 0 0 0 0 12",
	"OO@@OOO@/@@@OO@@O/O@OO@@@O w m r 12 0 12 0 1 1 0 0 0 0 0 0 13",
	"O*O*****/@@@*****/O******* w o r 3 0 3 0 1 0 0 0 0 0 0 0 40",
	"********/*******@/@O@O@O@O w m r 4 0 5 0 1 0 0 0 0 0 0 1 31 stalemate-removing",
	"********/**@*@*@*/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 99 60",
	"*O******/********/@**@**O* w m s 2 0 2 0 0 0 0 0 0 0 0 0 50",
	"********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1 both-stalemate-removing",
	// Found by fuzzing: accepted, then their children's FENs were rejected.
	"OOO@@@O@/@@O@OO@O/@@@O@OOO w m r 12 0 12 0 1 10 0 0 0 0 0 0 21 stalemate-removing",
	"********/*******@/@O@O@O@O w r r 4 0 5 0 1 0 0 0 0 0 0 0 0 stalemate-removing",
}

// fenMutations are broken versions of the seeds.
func fenMutations(fen string) []string {
	f := strings.Fields(fen)
	out := []string{
		strings.Join(f[:len(f)-1], " "),
		fen + " ids:nodes",
		fen + " x",
		strings.Replace(fen, "*", "?", 1),
		strings.Replace(fen, "/", "", 1),
		strings.Replace(fen, " w ", " b ", 1),
		strings.Replace(fen, " b ", " w ", 1),
		strings.Replace(fen, " 0 ", " -1 ", 1),
		strings.Replace(fen, " 0 ", " 99999999999999999999 ", 1),
		strings.ToUpper(fen),
		strings.ReplaceAll(fen, " ", "  "),
	}
	for i := 1; i < len(f); i++ {
		g := append([]string(nil), f...)
		g[i] = "1" + g[i]
		out = append(out, strings.Join(g, " "))
	}
	return out
}

var fenErrRE = regexp.MustCompile(`^fen(: | field (\d+) \(([a-z0-9 ]+)\) )`)

var fenFieldNames = []string{"", "board", "side to move", "phase", "action",
	"white on board", "white in hand", "black on board", "black in hand",
	"white removals", "black removals",
	"white mill from", "white mill to", "black mill from", "black mill to",
	"used mills", "rule50", "fullmove"}

// FuzzParseFEN feeds arbitrary strings to ParseFEN under every preset. It
// must not panic; an error names the field at fault; an accepted string
// prints to a FEN that reads back to itself with the same key, and every
// action of the position can be played without breaking the key or the FEN.
func FuzzParseFEN(f *testing.F) {
	for _, s := range fenSeeds {
		f.Add(s)
		for _, m := range fenMutations(s) {
			f.Add(m)
		}
	}
	f.Add("")
	f.Add(" ")
	f.Add("********/********/********")
	f.Add("startpos")
	f.Fuzz(func(t *testing.T, s string) {
		for i := range rules.Presets {
			r := &rules.Presets[i].Rules
			p, err := position.ParseFEN(r, s)
			if err != nil {
				checkFENError(t, err)
				continue
			}
			checkParsedFEN(t, rules.Presets[i].Key, r, &p, s)
		}
	})
}

func checkFENError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	m := fenErrRE.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("error %q does not start with \"fen: \" or \"fen field N (name) \"", msg)
	}
	if m[2] != "" {
		n, _ := strconv.Atoi(m[2])
		if n < 1 || n >= len(fenFieldNames) || fenFieldNames[n] != m[3] {
			t.Fatalf("error %q: field %s is not called %q", msg, m[2], m[3])
		}
	}
}

func checkParsedFEN(t *testing.T, variant string, r *rules.Rules, p *position.Position, in string) {
	t.Helper()
	fen := p.FEN()
	q, err := position.ParseFEN(r, fen)
	if err != nil {
		t.Fatalf("%s: %q was accepted, its FEN %q is not: %v", variant, in, fen, err)
	}
	if got := q.FEN(); got != fen {
		t.Fatalf("%s: %q: FEN %q reads back as %q", variant, in, fen, got)
	}
	if p.Key() != p.ComputeKey() || q.Key() != p.Key() {
		t.Fatalf("%s: %q: keys %08x %08x %08x", variant, in, p.Key(), p.ComputeKey(), q.Key())
	}
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	if n := movegen.Count(r, p); n != ml.N {
		t.Fatalf("%s: %q: Count %d, Generate %d", variant, fen, n, ml.N)
	}
	if p.IsOver() && ml.N != 0 {
		t.Fatalf("%s: %q: a finished game has %d actions", variant, fen, ml.N)
	}
	for _, m := range ml.Slice() {
		c := *p
		c.Do(r, m)
		if c.Key() != c.ComputeKey() {
			t.Fatalf("%s: %q, %s: key %08x, from scratch %08x", variant, fen, m, c.Key(), c.ComputeKey())
		}
		cf := c.FEN()
		d, err := position.ParseFEN(r, cf)
		if err != nil {
			t.Fatalf("%s: %q, %s: the child's FEN %q is rejected: %v", variant, fen, m, cf, err)
		}
		if why := c.NMoveDraw(r); why != position.NoReason && !c.IsOver() {
			// Do applies no draw rule (Game does); the string alone says the
			// counter has reached the rule, so it reads back as that draw.
			if res, got := d.Result(); res != position.Draw || got != why {
				t.Fatalf("%s: %q, %s: the child's FEN %q at the N-move rule reads back as %s (%s)", variant, fen, m, cf, res, got)
			}
			continue
		}
		if d.FEN() != cf || d.Key() != c.Key() {
			t.Fatalf("%s: %q, %s: the child's FEN %q reads back as %q", variant, fen, m, cf, d.FEN())
		}
	}
}

// FuzzParseMove feeds arbitrary tokens to ParseMove: no panic; an error
// names the token; an accepted token prints back to itself, up to case.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"d6", "D6", "a1", "g7", "d6-d5", "D6-D5", "c3-g7", "xb4", "XB4", "Xd5",
		"", "x", "d", "d4", "h1", "a0", "a8", "xd4", "xx4", "d6-", "-d5", "d6-d6",
		"d6xd5", "d6-d5-d4", "d6 d5", "d6–d5", "é6", "x\xffa", "\x00\x00", "a7-d4", "b7-d7",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		m, err := position.ParseMove(tok)
		if err != nil {
			if m != position.NoMove {
				t.Fatalf("ParseMove(%q) = %v with error %v", tok, m, err)
			}
			if !strings.HasPrefix(err.Error(), "move "+strconv.Quote(tok)+": ") {
				t.Fatalf("ParseMove(%q): error %q does not name the token", tok, err)
			}
			return
		}
		s := m.String()
		if !strings.EqualFold(s, tok) || s != strings.ToLower(s) {
			t.Fatalf("ParseMove(%q) = %s", tok, s)
		}
		back, err := position.ParseMove(s)
		if err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %v, ParseMove(%q) = %v, %v", tok, m, s, back, err)
		}
		if m.Kind() < position.KindPlace || m.Kind() > position.KindRemove || m.To() >= 24 ||
			(m.Kind() == position.KindSlide && (m.From() >= 24 || m.From() == m.To())) ||
			(m.Kind() != position.KindSlide && m.From() != 0) {
			t.Fatalf("ParseMove(%q) = %#x: malformed move", tok, uint16(m))
		}
	})
}
