package egtb

import (
	"fmt"
	"slices"
	"strings"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// The engine's policy for a game whose position the tables know: which
// actions it may play, and what the position is worth. It is the one place
// that decides; the search keeps only the actions it marks Best (and breaks
// ties among them), go reports its value and its line, and egtb probe prints
// it. The tables ignore the game's history; the policy does not:
//
//   - an action that ends the game by a rule that needs the history — the
//     third repetition of a position, the N-move counter reaching its limit —
//     is the draw (or the win) that it is, whatever the tables say of the
//     position it reaches;
//   - a win counts only if its next removal comes before the N-move counter
//     runs out (the DTZ distance fits what the counter leaves); a win that
//     does not fit is kept above the draws (the opponent must still defend
//     precisely), a loss whose winner does not fit is a loss the rule may
//     save;
//   - among wins that fit, the shortest: by the distance to the end where
//     every such action has it, else by the distance to the next removal;
//   - among draws, the one that leaves the opponent the fewest replies that
//     keep the draw (the most ways to go wrong), and a draw that ends the
//     game at once comes last: against a weaker opponent a drawn game can
//     still be won;
//   - among losses, the one whose next removal (the opponent's) is furthest
//     away, then the longest; a placing position's losses hold no distance,
//     and there the engine's search chooses among them (search.Policy).

// RootClass orders the kinds of root actions, best first.
type RootClass uint8

// Root classes.
const (
	WinFits     RootClass = iota // a win whose next removal comes before the N-move rule
	WinTooLong                   // a win the N-move rule may turn into a draw
	DrawPlays                    // a draw that goes on
	DrawNow                      // a draw by a rule at once (repetition, N-move)
	LossSaved                    // a loss the N-move rule may save: the winner's removal does not fit
	LossCertain                  // a loss
)

var classNames = [...]string{"win", "win beyond the N-move rule", "draw", "draw at once", "loss the N-move rule may save", "loss"}

// String names the class.
func (c RootClass) String() string { return classNames[c] }

// RootAction is a legal action of a game's position, valued by the tables and
// the game's history, for the side that takes it.
type RootAction struct {
	Move  position.Move
	Entry Entry           // the action's value; its distance as Entry says
	Rule  position.Reason // the game ends by this rule after the action (NoReason: it does not, or by the board alone)
	Class RootClass
	// Replies, for a draw that goes on, counts the opponent's replies that
	// keep the draw, and Blunders those that lose; -1 when not counted.
	Replies, Blunders int
	Best              bool // among the actions the engine may choose
}

// String is the action's value as the policy sees it: "win 5", "win 5 (dtz)"
// (the distance is to the next removal), "draw", "draw (threefold
// repetition)", "loss 3", with the class where it is not plain.
func (a RootAction) String() string {
	s := a.Entry.String()
	switch {
	case a.Rule != position.NoReason:
		s = fmt.Sprintf("draw (%s)", a.Rule)
	case a.Class == WinTooLong || a.Class == LossSaved:
		s += " (" + a.Class.String() + ")"
	}
	if a.Class == DrawPlays && a.Replies >= 0 {
		s += fmt.Sprintf(", %d drawing replies, %d losing", a.Replies, a.Blunders)
	}
	return s
}

// Token is the action's value in the words of the protocol's "info string
// egtb" line: "win N", "loss N" (N turns to the end of the game), "win N dtz",
// "loss N dtz" (N turns to the next removal), "draw", or "draw repetition" /
// "draw nmove" for a draw by a rule at once.
func (a RootAction) Token() string {
	v := a.Entry.Value
	switch {
	case a.Rule == position.ThreefoldRepetition:
		return "draw repetition"
	case a.Rule != position.NoReason:
		return "draw nmove"
	case v.IsDraw():
		return "draw"
	case a.Entry.ResultOnly:
		return resultOnly(v)
	case !a.Entry.Exact:
		return v.String() + " dtz"
	}
	return v.String()
}

// String is "win 5", "win 5 (dtz)" (a distance to the next removal), "win"
// (a placing position's: the result only) or "draw".
func (e Entry) String() string {
	switch {
	case e.ResultOnly:
		return resultOnly(e.Value)
	case !e.Exact && !e.Value.IsDraw():
		return e.Value.String() + " (dtz)"
	}
	return e.Value.String()
}

// resultOnly is "win", "loss" or "draw".
func resultOnly(v Value) string {
	switch {
	case v.IsWin():
		return "win"
	case v.IsLoss():
		return "loss"
	}
	return "draw"
}

// Source is what the policy reads: the value of a position for its side to
// move under the rules r, and whether the source knows it (Tables.Lookup's
// contract: positions with a removal pending included, their value that of
// the best removal, the removal completing the turn). The engine's own
// tables are one; another solution plugs in behind an adapter (Malom's
// databases, internal/perfect), so that go, egtb probe, annotate and the
// board rank a root in one place, RankRootWith, whatever knows its values.
type Source interface {
	Lookup(r *rules.Rules, p *position.Position) (Entry, bool)
}

// history is a position with the keys the repetition rule counts.
type history struct {
	pos  position.Position
	keys []uint32
}

// play returns the position after m with the draw rules that need the
// history applied, as position.Game.Play does.
func (h history) play(r *rules.Rules, m position.Move) history {
	c := history{pos: h.pos}
	c.pos.Do(r, m)
	if m.Kind() != position.KindSlide {
		return c
	}
	c.keys = append(append(make([]uint32, 0, len(h.keys)+1), h.keys...), c.pos.Key())
	if !c.pos.IsOver() {
		if res, why := position.DrawByRule(r, &c.pos, c.keys); res == position.Draw {
			c.pos.SetGameOver(position.Draw, why)
		}
	}
	return c
}

// actionEntry values the action m of h for its side to move: the game's end
// by the rules, else the source's entry of the position it leads to, turned
// when the turn passes. It reports the rule that ended the game in a draw.
func actionEntry(t Source, r *rules.Rules, h history, m position.Move) (Entry, position.Reason, history, bool) {
	us := h.pos.SideToMove()
	c := h.play(r, m)
	if c.pos.IsOver() {
		switch res, why := c.pos.Result(); res {
		case position.Winner(us):
			return Entry{Value: Win(1), DTZ: Win(1), Exact: true}, position.NoReason, c, true
		case position.Draw:
			return Entry{Exact: true}, why, c, true
		}
		return Entry{Value: Loss(0), DTZ: Loss(0), Exact: true}, position.NoReason, c, true
	}
	e, ok := t.Lookup(r, &c.pos)
	if !ok {
		return Entry{}, position.NoReason, c, false
	}
	switch {
	case c.pos.SideToMove() == us:
		// A mill closed: the removal still to come completes the turn.
	case m.Kind() == position.KindRemove:
		e.Value = e.Value.Parent()
		e.DTZ = removingTurn(e.Value)
	default:
		e.Value, e.DTZ = e.Value.Parent(), e.DTZ.Parent()
	}
	return e, position.NoReason, c, true
}

// ActionEntryWith values the action m of g's position for its side to move
// with the values of s and the game's history, as RankRootWith values each
// action (an action that ends the game by a rule is what the rule makes
// it): what shows one source's value of an action beside another's. It
// reports the rule that ended the game in a draw, and false when s does not
// know the position m leads to.
func ActionEntryWith(s Source, g *position.Game, m position.Move) (Entry, position.Reason, bool) {
	e, rule, _, ok := actionEntry(s, &g.Rules, history{pos: g.Pos, keys: g.RepetitionKeys()}, m)
	return e, rule, ok
}

// ResultByChildren is the win, draw or loss (1, 0, −1) of a position of a
// sector for its side to move — mover's pieces and moverHand in hand against
// other's and otherHand, no removal pending, the counters at zero, as a
// sector's slot is — found one ply down: the best of its actions, each
// valued with s as ActionEntryWith values it. It is how a solution that no
// table of ours holds (Malom's Morabaraba, say) is checked against itself
// with the engine's own rules code: each entry must be what its children
// make it. It reports false when s lacks a position an action leads to, or
// the position is not one of a sector (the mover places while the other
// still has pieces in hand, or it has no action).
func ResultByChildren(s Source, r *rules.Rules, mover, other bb.Bitboard, moverHand, otherHand int) (int8, bool) {
	var p position.Position
	switch {
	case moverHand > 0:
		p = position.NewPlacing(mover, other, moverHand, otherHand, position.White)
	case otherHand == 0:
		p = position.NewMoving(r, mover, other, position.White)
	default:
		return 0, false
	}
	if p.IsOver() {
		return 0, false
	}
	var ml movegen.MoveList
	movegen.Generate(r, &p, &ml)
	h := history{pos: p}
	best, found := Value(0), false
	for _, m := range ml.Slice() {
		e, _, _, ok := actionEntry(s, r, h, m)
		if !ok {
			return 0, false
		}
		if !found || e.Value.Better(best) {
			best, found = e.Value, true
		}
	}
	if !found {
		return 0, false
	}
	return int8(best.WDL()), true
}

// RankRoot ranks every legal action of g's position by the policy above, best
// first, and marks the actions the engine may choose. It reports false when
// the tables do not know the position or one of its actions.
func (t *Tables) RankRoot(g *position.Game) ([]RootAction, bool) { return RankRootWith(t, g) }

// RankRootWith is RankRoot with the values of s: the one ranking of a root,
// whatever source knows its values.
func RankRootWith(s Source, g *position.Game) ([]RootAction, bool) {
	return rankRoot(s, &g.Rules, history{pos: g.Pos, keys: g.RepetitionKeys()}, true)
}

// rankRoot is RankRootWith from a history; replies says whether to count
// the opponent's drawing replies of the drawn actions.
func rankRoot(t Source, r *rules.Rules, h history, replies bool) ([]RootAction, bool) {
	if _, ok := t.Lookup(r, &h.pos); !ok {
		return nil, false
	}
	var ml movegen.MoveList
	movegen.Generate(r, &h.pos, &ml)
	budget := h.pos.NMoveBudget(r)
	out := make([]RootAction, 0, ml.N)
	for _, m := range ml.Slice() {
		e, rule, after, ok := actionEntry(t, r, h, m)
		if !ok {
			return nil, false
		}
		a := RootAction{Move: m, Entry: e, Rule: rule, Replies: -1, Blunders: -1}
		switch v := e.Value; {
		case v.IsWin() && e.FitsRule(budget):
			a.Class = WinFits
		case v.IsWin():
			a.Class = WinTooLong
		case v.IsDraw() && after.pos.IsOver():
			a.Class = DrawNow
		case v.IsDraw():
			a.Class = DrawPlays
			if replies {
				a.Replies, a.Blunders = drawingReplies(t, r, after, after.pos.SideToMove() == h.pos.SideToMove())
			}
		case e.FitsRule(budget):
			a.Class = LossCertain
		default:
			a.Class = LossSaved
		}
		out = append(out, a)
	}
	exact := true // every fitting win knows its distance to the end
	for _, a := range out {
		exact = exact && (a.Class != WinFits || a.Entry.Exact)
	}
	cmp := func(a, b RootAction) int {
		if a.Class != b.Class {
			return int(a.Class) - int(b.Class)
		}
		switch a.Class {
		case WinFits:
			if exact {
				return a.Entry.Value.Distance() - b.Entry.Value.Distance()
			}
			return a.Entry.DTZ.Distance() - b.Entry.DTZ.Distance()
		case WinTooLong:
			return a.Entry.DTZ.Distance() - b.Entry.DTZ.Distance()
		case DrawPlays:
			if a.Replies != b.Replies {
				return a.Replies - b.Replies
			}
			return b.Blunders - a.Blunders
		case LossSaved, LossCertain:
			if d := b.Entry.DTZ.Distance() - a.Entry.DTZ.Distance(); d != 0 {
				return d
			}
			if a.Entry.Exact && b.Entry.Exact {
				return b.Entry.Value.Distance() - a.Entry.Value.Distance()
			}
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b RootAction) int {
		if c := cmp(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.Move.String(), b.Move.String())
	})
	for i := range out {
		out[i].Best = cmp(out[i], out[0]) == 0
	}
	return out, true
}

// drawingReplies counts, for a drawn action that led to h, the replies of the
// opponent that keep the draw for it and those that lose. When the side that
// acted still has its removal to make (own), it counts after the removal
// that leaves the fewest drawing replies.
func drawingReplies(t Source, r *rules.Rules, h history, own bool) (draws, losses int) {
	acts, ok := rankRoot(t, r, h, false)
	if !ok {
		return -1, -1
	}
	if own {
		draws, losses = -1, -1
		for _, a := range acts {
			if a.Class != DrawPlays {
				continue
			}
			d, l := drawingReplies(t, r, h.play(r, a.Move), false)
			if d >= 0 && (draws < 0 || d < draws || d == draws && l > losses) {
				draws, losses = d, l
			}
		}
		return draws, losses
	}
	for _, a := range acts {
		switch {
		case a.Entry.Value.IsDraw():
			draws++
		case a.Entry.Value.IsLoss():
			losses++
		}
	}
	return draws, losses
}

// PlayLine plays the policy from g's position for at most maxPlies actions:
// at every turn the first action RankRoot ranks (the game's history kept as
// it grows), until the game ends or leaves the tables. It is the principal
// variation of a table position.
func (t *Tables) PlayLine(g *position.Game, maxPlies int) []position.Move {
	return PlayLineUntil(t, g, maxPlies, nil)
}

// PlayLineUntil is PlayLine with the values of t that also ends the line
// when stop (if not nil), asked before each action, says so: each action
// ranks every reply, a probe each, and a line through tables whose pages
// are not in memory reads the disk at every probe (seconds for 40 plies),
// so that an engine under a clock cuts its principal variation short
// instead of its time.
func PlayLineUntil(t Source, g *position.Game, maxPlies int, stop func() bool) []position.Move {
	r := &g.Rules
	h := history{pos: g.Pos, keys: g.RepetitionKeys()}
	var line []position.Move
	for len(line) < maxPlies && !h.pos.IsOver() && (stop == nil || !stop()) {
		acts, ok := rankRoot(t, r, h, true)
		if !ok || len(acts) == 0 {
			break
		}
		line = append(line, acts[0].Move)
		h = h.play(r, acts[0].Move)
	}
	return line
}
