package position_test

import (
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// presetRules returns the rules of a preset by key.
func presetRules(t testing.TB, key string) rules.Rules {
	t.Helper()
	p, ok := rules.PresetByName(key)
	if !ok {
		t.Fatalf("no preset %q", key)
	}
	return p.Rules
}

// play applies space-separated tokens to p, each checked for legality, and
// checks the key after every action.
func play(t testing.TB, r *rules.Rules, p *position.Position, tokens string) {
	t.Helper()
	for i, tok := range strings.Fields(tokens) {
		m, err := movegen.ParseLegal(r, p, tok)
		if err != nil {
			t.Fatalf("token %d (%s): %v; fen %s", i+1, tok, err, p.FEN())
		}
		p.Do(r, m)
		if p.Key() != p.ComputeKey() {
			t.Fatalf("after %s: key %08x, from scratch %08x", tok, p.Key(), p.ComputeKey())
		}
	}
}

// playGame applies tokens through Game.Play, so that the draw rules apply.
func playGame(t testing.TB, g *position.Game, tokens string) {
	t.Helper()
	for i, tok := range strings.Fields(tokens) {
		if g.Pos.IsOver() {
			res, why := g.Pos.Result()
			t.Fatalf("token %d (%s): the game is already over (%s, %s)", i+1, tok, res, why)
		}
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			t.Fatalf("token %d (%s): %v; fen %s", i+1, tok, err, g.Pos.FEN())
		}
		g.Play(m)
	}
}

// mustParse parses a FEN that the test expects to be valid.
func mustParse(t testing.TB, r *rules.Rules, fen string) position.Position {
	t.Helper()
	p, err := position.ParseFEN(r, fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// labelsOrder is the ring order of rules.md §1, as FEN board strings list it.
var labelsOrder = []string{
	"d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5",
	"d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
	"d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
}

// boardString writes the FEN board field for the given white and black points.
func boardString(t testing.TB, white, black string) string {
	t.Helper()
	cells := []byte(strings.Repeat("*", 24))
	idx := map[string]int{}
	for i, l := range labelsOrder {
		idx[l] = i
	}
	for c, list := range []string{white, black} {
		for _, l := range strings.Fields(list) {
			i, ok := idx[l]
			if !ok || cells[i] != '*' {
				t.Fatalf("bad or repeated point %q", l)
			}
			cells[i] = "O@"[c]
		}
	}
	return string(cells[:8]) + "/" + string(cells[8:16]) + "/" + string(cells[16:])
}
