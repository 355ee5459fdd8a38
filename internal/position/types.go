// Package position is the full game state of a mill variant: the board as
// bitboards, pieces in hand, side to move, phase and action, pending removals,
// marked pieces, the last-mill squares and used mills, the counters, a 32-bit
// Zobrist key kept up to date incrementally, the game result, FEN in and out,
// and (in Game) the history that repetition and the N-move rules need.
//
// A Position is a small value without pointers: copy it to keep a state, and
// call Do on the copy (copy-make). Every method that applies rules takes the
// *rules.Rules explicitly, so one Position type serves every variant.
package position

import (
	"fmt"
	"strings"

	"github.com/millengine/millengine/internal/bitboard"
)

// Color is a side: White moves first.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Phase is the stage of the game for the side to move.
type Phase uint8

// Phases. The phase follows the side to move: placing while it has pieces in
// hand, moving once it has none.
const (
	Placing  Phase = 0
	Moving   Phase = 1
	GameOver Phase = 2
)

// String returns "placing", "moving" or "gameover".
func (p Phase) String() string {
	switch p {
	case Placing:
		return "placing"
	case Moving:
		return "moving"
	}
	return "gameover"
}

// Action is what the side to move does next.
type Action uint8

// Actions.
const (
	Place  Action = 0 // place a piece from hand (or, in Lasker, slide)
	Select Action = 1 // slide or fly a piece
	Remove Action = 2 // remove a piece after a mill (or by a special rule)
)

// String returns "place", "select" or "remove".
func (a Action) String() string {
	switch a {
	case Place:
		return "place"
	case Select:
		return "select"
	}
	return "remove"
}

// Result is the outcome of a finished game.
type Result uint8

// Results.
const (
	Ongoing   Result = 0
	WhiteWins Result = 1
	BlackWins Result = 2
	Draw      Result = 3
)

// String returns "ongoing", "white wins", "black wins" or "draw".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "white wins"
	case BlackWins:
		return "black wins"
	case Draw:
		return "draw"
	}
	return "ongoing"
}

// Winner returns the result in which c wins.
func Winner(c Color) Result { return Result(c) + 1 }

// Reason says why a game ended.
type Reason uint8

// Reasons a game ends.
const (
	NoReason            Reason = iota
	FewerPieces                // a side has fewer than PiecesAtLeastCount pieces
	NoLegalMove                // the side to move is blocked (StalemateAction 0)
	BoardFull                  // the board filled up while placing (BoardFullAction 0 or 4)
	StalemateDraw              // the side to move is blocked (StalemateAction 4)
	ThreefoldRepetition        // the same position a third time
	NMoveRule                  // NMoveRule plies without removal
	EndgameNMoveRule           // EndgameNMoveRule plies without removal with three pieces
	UnknownReason              // read from a FEN that says the game is over
)

// String describes the reason in a few words.
func (r Reason) String() string {
	switch r {
	case FewerPieces:
		return "fewer than the minimum pieces"
	case NoLegalMove:
		return "no legal move"
	case BoardFull:
		return "board full"
	case StalemateDraw:
		return "stalemate"
	case ThreefoldRepetition:
		return "threefold repetition"
	case NMoveRule:
		return "N-move rule"
	case EndgameNMoveRule:
		return "endgame N-move rule"
	case UnknownReason:
		return "game over"
	}
	return "none"
}

// MoveKind tells what a move does.
type MoveKind uint8

// Move kinds; the zero Move is NoMove.
const (
	KindPlace  MoveKind = 1
	KindSlide  MoveKind = 2 // a slide or a fly
	KindRemove MoveKind = 3
)

// Move is one atomic action: kind in bits 10–11, from in bits 5–9, to in bits
// 0–4. Place and Remove have from = 0.
type Move uint16

// NoMove is the absence of a move.
const NoMove Move = 0

// MakePlace returns the action of placing a piece on s.
func MakePlace(s bitboard.Square) Move { return Move(KindPlace)<<10 | Move(s) }

// MakeSlide returns the action of sliding or flying a piece from one point to another.
func MakeSlide(from, to bitboard.Square) Move {
	return Move(KindSlide)<<10 | Move(from)<<5 | Move(to)
}

// MakeRemove returns the action of removing the piece on s.
func MakeRemove(s bitboard.Square) Move { return Move(KindRemove)<<10 | Move(s) }

// Kind returns the kind of the move.
func (m Move) Kind() MoveKind { return MoveKind(m >> 10) }

// From returns the origin of a slide.
func (m Move) From() bitboard.Square { return bitboard.Square(m >> 5 & 31) }

// To returns the destination of a place or slide, or the point of a removal.
func (m Move) To() bitboard.Square { return bitboard.Square(m & 31) }

// String returns the move token: "d6", "d6-d5" or "xb4".
func (m Move) String() string {
	switch m.Kind() {
	case KindPlace:
		return m.To().String()
	case KindSlide:
		return m.From().String() + "-" + m.To().String()
	case KindRemove:
		return "x" + m.To().String()
	}
	return "none"
}

// JoinMoves returns the tokens of ms separated by spaces: "d6 f4 xb4".
func JoinMoves(ms []Move) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// ParseMove reads a move token without looking at any position: "d6",
// "d6-d5" or "xb4" (any case). Whether it is legal is movegen's business.
func ParseMove(tok string) (Move, error) {
	switch {
	case len(tok) == 3 && (tok[0] == 'x' || tok[0] == 'X'):
		s, err := bitboard.ParseSquare(tok[1:])
		if err != nil {
			return NoMove, fmt.Errorf("move %q: %w", tok, err)
		}
		return MakeRemove(s), nil
	case len(tok) == 5 && tok[2] == '-':
		from, err := bitboard.ParseSquare(tok[:2])
		if err != nil {
			return NoMove, fmt.Errorf("move %q: %w", tok, err)
		}
		to, err := bitboard.ParseSquare(tok[3:])
		if err != nil {
			return NoMove, fmt.Errorf("move %q: %w", tok, err)
		}
		if from == to {
			return NoMove, fmt.Errorf("move %q: origin and destination are the same point", tok)
		}
		return MakeSlide(from, to), nil
	case len(tok) == 2:
		s, err := bitboard.ParseSquare(tok)
		if err != nil {
			return NoMove, fmt.Errorf("move %q: %w", tok, err)
		}
		return MakePlace(s), nil
	}
	return NoMove, fmt.Errorf("move %q: want a point (d6), a slide (d6-d5) or a removal (xb4)", tok)
}
