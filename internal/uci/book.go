package uci

import (
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

// The opening book (Book, BookVariety) is the engine's (engine.Engine.AtGo):
// at a go that plays a move a position the book holds is answered at once,
// and every go in a book position first says what the book holds in one
// line a GUI can show: "info string book depth <D> moves <token> <score> …"
// (with "proven <value> keep <token> …" where the book holds a proven
// value, which the engine's answer then keeps).

// notesAtGo prints what the engine says of the root before a go and, when
// the book answers the go, its answer. It reports whether the book answered;
// when not, req's searchmoves may have been limited to the actions that keep
// the book's proven value.
func (s *session) notesAtGo(g *position.Game, req *goRequest) bool {
	notes, a, ok := s.engine.AtGo(g, &req.lim, s.sopts.MultiPV)
	for _, n := range notes {
		s.printf("info string %s", n)
	}
	if !ok {
		return false
	}
	if a.Score > -search.ValueMateBand && a.Score < search.ValueMateBand {
		s.printf("info depth %d score cp %d nodes 0 nps 0 time 0 pv %s", a.Depth, a.Score, a.Move)
	}
	if a.Proven {
		s.printf("info string book move %s, keeps the proven %s", a.Move, a.Value)
	} else {
		s.printf("info string book move %s", a.Move)
	}
	s.printf("bestmove %s", a.Move)
	return true
}
