package search

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
)

// The winning chances of a drawn root.
//
// Nine Men's Morris is a draw, so against a strong opponent everything beyond
// 50 % comes from the opponent's mistakes, and what decides the score is
// which of the actions that keep the draw the engine plays. Where the tables
// (or Malom's databases) know the root, every action's value is exact and
// the engine plays only those that keep it; the policy picks among them:
//
//   - PolicySearch: the search chooses among the drawing actions, with its
//     evaluation and Contempt, without the tables below the root (to them
//     every one is a draw): the positions it likes are those where the
//     opponent has problems to solve. With DrawnTrades (by default) each
//     piece removed below the root counts for the root's side, so it
//     prefers lines that trade to lines that block: the blocked draws are
//     the ones Sanmill C++ did not lose. With FlyingPressure (1 by
//     default) it chooses, where a side flies, among the actions that pass
//     PolicyPressure's filter (with PressureDepth, counting only the losses
//     far enough away not to be seen).
//   - PolicyReplies: the drawing action that leaves the opponent the fewest
//     replies that keep the draw (egtb.RankRoot's order), answered at once.
//   - PolicySectors: Malom's idea, where the game leads: the drawing action
//     whose position belongs to the sector whose positions are, on
//     average, worst for the side to move (wins minus losses over positions,
//     from the tables' counts), answered at once.
//   - PolicyModel: a model of the fallible opponent, a depth-limited
//     searcher: for each drawing action, the opponent's replies are scored
//     by a search of ModelDepth plies without the tables (what such an
//     opponent sees), the opponent is taken to play each reply with a
//     chance that grows with its score (a softmax of temperature
//     ModelTemperature centipawns), and the tables say which replies lose.
//     An action back to a position the opponent has answered before sets
//     no trap (a searcher answers a position it has seen the same way; in
//     the records the model's favourite traps, refused once, were offered
//     again until the game was drawn by repetition, 6 of its 7 draws in one
//     match against Sanmill Rust). The action whose chance of a losing
//     reply is highest is played; when no action sets a trap of at least
//     ModelMinChance, the search chooses as with PolicySearch.
//   - PolicyMixed: PolicySearch while placing, PolicyModel once moving. In
//     the records against Sanmill C++ (seed 2020, scripts/oppmodel) the
//     search's choices led it into more losing placements (34 in 323
//     placing turns with a losing action, two matches) than the model's (6
//     in 201), and once the pieces moved it erred no less often under the
//     model (21 in 896 such turns against 15 in 779).
//   - PolicyPressure: the search chooses, as with PolicySearch, but only
//     among the drawing actions that leave the opponent a share of losing
//     replies of at least PressureShare percent, when there are such
//     actions (all of them otherwise). In the records against Sanmill C++
//     (search policy, five matches) it lost in 14–22 % of the placing turns
//     where at least 60 % of its actions lost and in 3–8 % of the others;
//     the search alone left it such a turn in about half its placing turns.
//     In games (docs/strength.md, "The pressure policy") it raised that
//     share but won no more drawn openings than the search.
//
// None ever gives the value away: every one chooses among the actions that
// keep it.
//
// A lost root in the placing phase is the same question turned around: the
// tables hold its result only, no distance to order the losing actions by,
// so under PolicySearch and PolicyModel the search chooses among them as at a
// drawn root (without the tables below), the loss whose win its evaluation
// finds hardest for the opponent; a fallible winner may still let it go.
// Where the tables hold a distance (the moving phase) the longest loss is
// played, as the tables rank it.

// Policy is how the engine chooses among the actions that keep a drawn
// root's value.
type Policy uint8

// Policies.
const (
	PolicySearch Policy = iota
	PolicyReplies
	PolicySectors
	PolicyModel
	PolicyMixed
	PolicyPressure
)

var policyNames = [...]string{"search", "replies", "sectors", "model", "mixed", "pressure"}

// String returns the policy's option value: "search", "replies", "sectors",
// "model", "mixed" or "pressure".
func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy(%d)", p)
}

// PolicyNames lists the policies' option values.
func PolicyNames() []string { return policyNames[:] }

// ParsePolicy reads a policy's option value.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if strings.EqualFold(s, n) {
			return Policy(i), nil
		}
	}
	return PolicySearch, fmt.Errorf("policy %q: want %s", s, strings.Join(policyNames[:], ", "))
}

// The opponent model's defaults and bounds.
const (
	DefaultModelDepth       = 3
	DefaultModelTemperature = 60 // centipawns
	DefaultModelMinChance   = 2  // percent; below it the search chooses
	MaxModelDepth           = 12
	MaxModelTemperature     = 1000
	DefaultPressureShare    = 60 // percent of the opponent's actions that lose
	// DefaultDrawnTrades is what a piece removed below a drawn root is
	// worth to the root's side (centipawns; Options.DrawnTrades). With it
	// millengine won 62 of 70 drawn openings against Sanmill C++ on two
	// seeds where every policy before it won 46–53 (docs/strength.md,
	// "A deeper model, and trades").
	DefaultDrawnTrades = 30
	// DefaultFlyingPressure and DefaultPressureDepth narrow the search's
	// choice at a drawn root where a side flies to the drawing actions that
	// leave the opponent at least one reply losing 20 plies or more from the
	// end, when some do and some do not (Options.FlyingPressure and
	// PressureDepth): a searcher of a second does not see that far, and
	// such turns were the ones Sanmill C++ lost. With them millengine won
	// 66 of 68 drawn openings against Sanmill Rust on two seeds where the
	// trades alone won 55, and against Sanmill C++ 93 of 106 on three
	// seeds, the trades 92 (docs/strength.md, "Against a flyer").
	DefaultFlyingPressure = 1
	DefaultPressureDepth  = 20
	// DefaultDrawnFlying is what it costs the root's side, at a drawn
	// root, that its opponent flies while it does not (Options.DrawnFlying).
	// With it millengine won 167 of 174 drawn openings over five matches
	// against Sanmill C++ and Rust, and lost none of them, where the
	// defaults before it won 159 (docs/strength.md, "Which flying endgame").
	DefaultDrawnFlying = 300
)

// drawPolicy is the policy a search uses: TableWinningChances is the old
// name of PolicyReplies.
func (o *Options) drawPolicy() Policy {
	if o.TableWinningChances {
		return PolicyReplies
	}
	return o.Policy
}

// at returns the policy that applies at a root in phase ph: PolicyMixed is
// PolicySearch while placing and PolicyModel once moving; the others are
// themselves.
func (p Policy) at(ph position.Phase) Policy {
	if p != PolicyMixed {
		return p
	}
	if ph == position.Moving {
		return PolicyModel
	}
	return PolicySearch
}

// trap is one drawing action valued by the opponent model: the chance that
// the opponent's reply loses.
type trap struct {
	move   position.Move
	chance float64
}

// modelTraps values every drawing action of acts at g by the opponent
// model, as valueAfter counts them. It stops early, with ok false, when the
// budget runs out or the search is stopped.
func (e *Engine) modelTraps(g *position.Game, src egtb.Source, acts []egtb.RootAction, budget time.Duration) ([]trap, bool) {
	o := e.Options()
	start := time.Now()
	seen := g.RepetitionKeys()
	var out []trap
	for _, a := range acts {
		if a.Class != egtb.DrawPlays {
			continue
		}
		if e.stop.Load() || time.Since(start) > budget {
			return out, false
		}
		chance := valueAfter(src, g, seen, a.Move, func(h *position.Game) float64 { return e.replyLoses(h, src, o) })
		out = append(out, trap{move: a.Move, chance: chance})
	}
	return out, true
}

// pressureFilter applies PolicyPressure at a drawn root: it keeps, of the
// drawing actions of acts, those after which at least PressureShare
// percent of the opponent's actions lose (as valueAfter counts them; with
// depth above 0 only the losses at least depth plies from the end count,
// see PressureDepth), and the other classes as they are. When no drawing
// action reaches the share, or all do, acts is returned as it is. The note
// says what was kept.
func pressureFilter(src egtb.Source, g *position.Game, acts []egtb.RootAction, share, depth int) ([]egtb.RootAction, string) {
	shares := make([]float64, len(acts))
	reach := make([]bool, len(acts))
	seen := g.RepetitionKeys()
	kept := 0
	drawn := 0
	for i, a := range acts {
		if a.Class != egtb.DrawPlays {
			continue
		}
		drawn++
		shares[i] = valueAfter(src, g, seen, a.Move, func(h *position.Game) float64 { return losingShare(src, h, depth) })
		if reach[i] = shares[i]*100 >= float64(share); reach[i] {
			kept++
		}
	}
	if drawn < 2 {
		return acts, ""
	}
	var b strings.Builder
	b.WriteString("policy pressure: share of losing replies")
	if depth > 0 {
		fmt.Fprintf(&b, " at least %d plies from the end", depth)
	}
	for i, a := range acts {
		if a.Class == egtb.DrawPlays {
			fmt.Fprintf(&b, " %s %.2f", a.Move, shares[i])
		}
	}
	if kept == 0 || kept == drawn {
		fmt.Fprintf(&b, "; %d of %d reach %d %%, the search chooses among all", kept, drawn, share)
		return acts, b.String()
	}
	fmt.Fprintf(&b, "; the search chooses among the %d of %d that reach %d %%", kept, drawn, share)
	out := make([]egtb.RootAction, 0, len(acts))
	for i, a := range acts {
		if a.Class != egtb.DrawPlays || reach[i] {
			out = append(out, a)
		}
	}
	return out, b.String()
}

// pressureAt says whether pressureFilter narrows the drawing actions of a
// drawn root g under pol, the policy at its phase, with which least share
// and the prefix of its note: PressureShare under PolicyPressure,
// FlyingPressure under PolicySearch where a side flies.
func (o *Options) pressureAt(pol Policy, g *position.Game) (share int, prefix string, ok bool) {
	switch {
	case pol == PolicyPressure:
		return o.PressureShare, "", true
	case pol == PolicySearch && o.FlyingPressure > 0 && flies(g):
		return o.FlyingPressure, "flying: ", true
	}
	return 0, "", false
}

// flies reports whether a side of g's position flies (FlyingPressure's
// endgame).
func flies(g *position.Game) bool {
	return g.Pos.CanFly(&g.Rules, position.White) || g.Pos.CanFly(&g.Rules, position.Black)
}

// losingShare is the share of the actions of the side to move at h that
// lose for certain (the game's history and the N-move rule counted) at
// least depth plies from the end (by the tables' distance: to the end of
// the game where a sector keeps it, else to the next removal).
func losingShare(src egtb.Source, h *position.Game, depth int) float64 {
	acts, ok := egtb.RankRootWith(src, h)
	if !ok || len(acts) == 0 {
		return 0
	}
	n := 0
	for _, a := range acts {
		if a.Class == egtb.LossCertain && a.Entry.Value.Plies() >= depth {
			n++
		}
	}
	return float64(n) / float64(len(acts))
}

// valueAfter values the drawing action m of g, for the policies that look
// at the opponent's reply, by value of the position the opponent then moves
// in. A mill takes the best of the removals that keep the draw. A slide
// back to a position in seen (g's history) is worth 0: the opponent has
// answered that position before and kept the draw, a searcher answers a
// position it has seen the same way, and going back to it only brings the
// game nearer to a draw by repetition.
func valueAfter(src egtb.Source, g *position.Game, seen []uint32, m position.Move, value func(*position.Game) float64) float64 {
	h := g.Clone()
	h.Play(m)
	switch {
	case m.Kind() == position.KindSlide && slices.Contains(seen, h.Pos.Key()):
		return 0
	case h.Pos.SideToMove() == g.Pos.SideToMove():
		best := 0.0
		for _, r := range removalsKeeping(src, h) {
			k := h.Clone()
			k.Play(r)
			best = max(best, value(k))
		}
		return best
	}
	return value(h)
}

// removalsKeeping lists the removals of h (a removal pending after a mill)
// that keep the draw.
func removalsKeeping(src egtb.Source, h *position.Game) []position.Move {
	acts, ok := egtb.RankRootWith(src, h)
	if !ok {
		return nil
	}
	var out []position.Move
	for _, a := range acts {
		if a.Class == egtb.DrawPlays {
			out = append(out, a.Move)
		}
	}
	return out
}

// replyLoses is the opponent model's chance that the side to move at h (the
// opponent, in a drawn position) plays a reply that loses.
func (e *Engine) replyLoses(h *position.Game, src egtb.Source, o Options) float64 {
	acts, ok := egtb.RankRootWith(src, h)
	if !ok {
		return 0
	}
	losing := map[position.Move]bool{}
	for _, a := range acts {
		if a.Entry.Value.IsLoss() {
			losing[a.Move] = true
		}
	}
	if len(losing) == 0 {
		return 0
	}
	scores := e.replyScores(h, max(o.ModelDepth, 1), nil)
	if len(scores) == 0 {
		return 0
	}
	top := math.Inf(-1)
	for _, rm := range scores {
		top = max(top, float64(rm.score))
	}
	t := float64(max(o.ModelTemperature, 1))
	var sum, lose float64
	for _, rm := range scores {
		w := math.Exp((float64(rm.score) - top) / t)
		sum += w
		if losing[rm.move] {
			lose += w
		}
	}
	return lose / sum
}

// replyScores scores every action of h's position (those of only, if not
// empty) by a search of depth plies on the main worker alone, without the
// tables, each action a line of its own (MultiPV): what a searcher that
// looks that far sees of them.
func (e *Engine) replyScores(h *position.Game, depth int, only []position.Move) []rootMove {
	moves := rootMoves(h, only)
	if len(moves) == 0 {
		return nil
	}
	s := e.newRun(h, Limits{Depth: depth}, nil, len(moves), nil)
	s.opts.MultiPV, s.opts.Threads = len(moves), 1
	s.maxDepth = depth
	e.startWorkers(s, h, e.orderRootMoves(s, h, moves))
	w := s.workers[0]
	w.iterate()
	return slices.Clone(w.rootMoves)
}

// sectorOrder puts the drawing actions of acts in the order of
// PolicySectors: the one whose position's sector is worst on average for
// the side to move there first. Other classes keep their place.
func sectorOrder(t *egtb.Tables, g *position.Game, acts []egtb.RootAction) []egtb.RootAction {
	out := slices.Clone(acts)
	value := func(a egtb.RootAction) float64 {
		h := g.Clone()
		h.Play(a.Move)
		v, ok := t.SectorBalance(&h.Rules, &h.Pos)
		if !ok {
			return 0
		}
		if h.Pos.SideToMove() == g.Pos.SideToMove() {
			return v // our own removal is pending: the balance is ours
		}
		return -v
	}
	vals := make(map[position.Move]float64, len(out))
	for _, a := range out {
		vals[a.Move] = value(a)
	}
	slices.SortStableFunc(out, func(a, b egtb.RootAction) int {
		if a.Class != b.Class || a.Class != egtb.DrawPlays {
			return int(a.Class) - int(b.Class)
		}
		switch va, vb := vals[a.Move], vals[b.Move]; {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
	return out
}

// modelOrder applies PolicyModel at a drawn root: it values the drawing
// actions by the opponent model, within a third of the move's time, and
// returns acts with the drawing action that sets the likeliest trap first,
// and the note that says so. It reports false (the search then chooses)
// when no action sets a trap of at least ModelMinChance or the time ran out;
// the note then says why.
func (e *Engine) modelOrder(g *position.Game, lim Limits, src egtb.Source, acts []egtb.RootAction) ([]egtb.RootAction, string, bool) {
	o := e.Options()
	soft, _ := timeBudget(&lim, g.Pos.SideToMove(), o.MoveOverhead)
	budget := soft / 3
	if lim.Depth > 0 || lim.Nodes > 0 || lim.Infinite || soft <= 0 {
		budget = time.Hour // fixed-depth, node-bound and analysis searches take the model whole
	}
	drawn := 0
	for _, a := range acts {
		if a.Class == egtb.DrawPlays {
			drawn++
		}
	}
	if drawn < 2 {
		return nil, "", false // nothing to choose
	}
	start := time.Now()
	traps, ok := e.modelTraps(g, src, acts, budget)
	if !ok {
		return nil, fmt.Sprintf("policy model: out of time after %d ms; the search chooses", time.Since(start).Milliseconds()), false
	}
	best := -1
	for i, t := range traps {
		if best < 0 || t.chance > traps[best].chance {
			best = i
		}
	}
	var b strings.Builder
	b.WriteString("policy model: chance of a losing reply")
	for _, t := range traps {
		fmt.Fprintf(&b, " %s %.3f", t.move, t.chance)
	}
	fmt.Fprintf(&b, " (%d ms)", time.Since(start).Milliseconds())
	if best < 0 || traps[best].chance*100 < float64(o.ModelMinChance) {
		b.WriteString("; no trap, the search chooses")
		return nil, b.String(), false
	}
	fmt.Fprintf(&b, "; plays %s", traps[best].move)
	out := slices.Clone(acts)
	i := slices.IndexFunc(out, func(a egtb.RootAction) bool { return a.Move == traps[best].move })
	chosen := out[i]
	copy(out[1:i+1], out[:i])
	out[0] = chosen
	return out, b.String(), true
}

// ActionScore is a root action with the score a search gave it.
type ActionScore struct {
	Move  position.Move
	Score int
}

// ScoreActions scores every action of g's position by a search of depth
// plies without the tables, each action a line of its own, as the opponent
// model sees them (scripts/oppmodel fits the model to real opponents' moves
// with it). It takes the engine as Search does.
func (e *Engine) ScoreActions(g *position.Game, depth int) []ActionScore {
	e.running.Lock()
	defer e.running.Unlock()
	e.arm(false)
	e.clock.start()
	var out []ActionScore
	for _, rm := range e.replyScores(g, depth, nil) {
		out = append(out, ActionScore{Move: rm.move, Score: rm.score})
	}
	return out
}
