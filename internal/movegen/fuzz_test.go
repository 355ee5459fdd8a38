package movegen_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// legalFuzzPositions are the positions FuzzParseLegal tries tokens against:
// placing, removing, moving, flying, Lasker, the repeated-mill restriction,
// a stalemate removal and a finished game.
var legalFuzzPositions = []struct {
	variant string
	fen     string
}{
	{"nine-mens-morris", "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"},
	{"nine-mens-morris", "********/**@***@*/OO*****O w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"},
	{"nine-mens-morris", "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"},
	{"nine-mens-morris", "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11"},
	{"nine-mens-morris", "********/**@*@*@*/O*****OO b m s 3 0 3 0 0 0 0 0 0 0 0 9 60"},
	{"lasker-morris", "********/**@***@*/OO*****O b p p 3 7 2 8 0 0 0 0 0 0 0 0 3"},
	{"restrict", "@*O****@/**O**@**/OO**@**O w m s 5 0 4 0 0 0 26 25 0 0 0 2 30"},
	{"zhi-qi", "********/*******@/@O@O@O@O w m r 4 0 5 0 1 0 0 0 0 0 0 1 31 stalemate-removing"},
	{"nine-mens-morris", "O*O*****/@@@*****/@******* w m s 2 0 4 0 0 0 0 0 0 0 0 0 40"},
}

func legalFuzzRules(t testing.TB, variant string) rules.Rules {
	if variant == "restrict" {
		r := rules.Default()
		r.RestrictRepeatedMillsFormation = true
		return r
	}
	p, ok := rules.PresetByName(variant)
	if !ok {
		t.Fatalf("no preset %q", variant)
	}
	return p.Rules
}

// FuzzParseLegal feeds arbitrary tokens to ParseLegal against the positions
// above: no panic; a syntax error is ParseMove's, naming the token; any
// other error says "illegal move" and gives a specific reason; success means
// the move is generated and reads back from its own token.
func FuzzParseLegal(f *testing.F) {
	for i := range legalFuzzPositions {
		for _, tok := range []string{
			"a7", "d6", "D6", "d4", "xb4", "xa7", "XG7", "xd5", "xd6", "d6-d5", "g7-g4", "g4-g7", "g7-g1",
			"a7-d7", "c3-g7", "b4-c4", "e4-e5", "", "x", "h9", "d6-d6", "a1-a1", "zz-zz", "xx1", "d7 ",
		} {
			f.Add(tok, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, tok string, idx uint8) {
		pos := legalFuzzPositions[int(idx)%len(legalFuzzPositions)]
		r := legalFuzzRules(t, pos.variant)
		p, err := position.ParseFEN(&r, pos.fen)
		if err != nil {
			t.Fatalf("%s: %v", pos.fen, err)
		}
		saved := p
		m, err := movegen.ParseLegal(&r, &p, tok)
		if p != saved {
			t.Fatalf("ParseLegal changed the position")
		}
		syn, synErr := position.ParseMove(tok)
		if synErr != nil {
			if err == nil || err.Error() != synErr.Error() || m != position.NoMove {
				t.Fatalf("ParseLegal(%q) = %v, %v; ParseMove says %v", tok, m, err, synErr)
			}
			if !strings.Contains(err.Error(), strconv.Quote(tok)) {
				t.Fatalf("error %q does not name the token %q", err, tok)
			}
			return
		}
		var ml movegen.MoveList
		movegen.Generate(&r, &p, &ml)
		if err != nil {
			msg := err.Error()
			prefix := "illegal move " + syn.String() + ": "
			if m != position.NoMove || !strings.HasPrefix(msg, prefix) {
				t.Fatalf("ParseLegal(%q) error %q, want it to start with %q", tok, msg, prefix)
			}
			if strings.HasSuffix(msg, "not a legal action here") {
				t.Fatalf("ParseLegal(%q) in %s: no specific reason: %q", tok, pos.fen, msg)
			}
			if ml.Contains(syn) {
				t.Fatalf("ParseLegal(%q) rejects a generated move: %q", tok, msg)
			}
			return
		}
		if m != syn || !ml.Contains(m) || !strings.EqualFold(m.String(), tok) {
			t.Fatalf("ParseLegal(%q) = %s, generated %t", tok, m, ml.Contains(m))
		}
	})
}
