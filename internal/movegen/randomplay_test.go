package movegen_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// The random-play tests play games of uniformly random legal actions and
// check the whole rules core after every action. TestRandomPlay cycles
// through the eleven presets; TestRandomPlayRandomRules draws every rule
// parameter at random within its range for each game. 'go test' plays each
// for its time budget (at least one game per preset); RANDOMPLAY_GAMES=n
// plays exactly n games in each. RANDOMPLAY_SEED changes the seed; a failure
// prints the seed, the game number, the rules and the moves so far.
const (
	randomPlayBudget      = 1000 * time.Millisecond
	randomRulesPlayBudget = 500 * time.Millisecond
	randomPlaySeed        = 0x6d696c6c
)

// randomPlayStats is what one preset's games did, for the log.
type randomPlayStats struct {
	games, plies, maxPlies int
	results                map[string]int
	features               map[string]int
}

func newStats(n int) []randomPlayStats {
	stats := make([]randomPlayStats, n)
	for i := range stats {
		stats[i].results = map[string]int{}
		stats[i].features = map[string]int{}
	}
	return stats
}

// randomPlayConfig reads the seed and the number of games (-1: play for
// the time budget) from the environment.
func randomPlayConfig(t *testing.T) (seed uint64, games int) {
	seed = randomPlaySeed
	if s := os.Getenv("RANDOMPLAY_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("RANDOMPLAY_SEED=%q: %v", s, err)
		}
		seed = v
	}
	games = -1
	if s := os.Getenv("RANDOMPLAY_GAMES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("RANDOMPLAY_GAMES=%q: want a positive integer", s)
		}
		games = v
	}
	return seed, games
}

// more reports whether game n is to be played.
func more(n, games int, start time.Time, budget time.Duration) bool {
	if games >= 0 {
		return n < games
	}
	if testing.Short() {
		budget /= 5
	}
	return n < len(rules.Presets) || time.Since(start) < budget
}

func TestRandomPlay(t *testing.T) {
	seed, games := randomPlayConfig(t)
	stats := newStats(len(rules.Presets))
	start := time.Now()
	n := 0
	for ; more(n, games, start, randomPlayBudget); n++ {
		k := n % len(rules.Presets)
		playRandomGame(t, rules.Presets[k].Key, rules.Presets[k].Rules, seed, n, &stats[k])
	}
	t.Logf("seed %#x: %d games in %v", seed, n, time.Since(start).Round(time.Millisecond))
	for k, s := range stats {
		if s.games == 0 {
			continue
		}
		t.Logf("%-18s %5d games, %6.1f plies/game (max %d): %s", rules.Presets[k].Key, s.games,
			float64(s.plies)/float64(s.games), s.maxPlies, formatTally(s.results))
		t.Logf("%-18s features: %s", "", formatTally(s.features))
	}
}

// TestRandomPlayRandomRules plays under rule sets drawn at random, so that
// the options no preset uses (StalemateAction 1, 3, 4, 5, BoardFullAction 3,
// MillFormationActionInPlacingPhase 2 and 3, RestrictRepeatedMillsFormation,
// StopPlacingWhenTwoEmptySquares, the N-move limits, …) are played too.
func TestRandomPlayRandomRules(t *testing.T) {
	seed, games := randomPlayConfig(t)
	stats := newStats(1)
	start := time.Now()
	n := 0
	for ; more(n, games, start, randomRulesPlayBudget); n++ {
		rng := rand.New(rand.NewPCG(seed^0x72756c6573, uint64(n)))
		r := randomRules(rng)
		def := rules.Default()
		name := "rules{" + strings.Join(r.Diff(&def), " ") + "}"
		playRandomGame(t, name, r, seed, n, &stats[0])
	}
	s := stats[0]
	t.Logf("seed %#x: %d games in %v, %.1f plies/game (max %d)", seed, n, time.Since(start).Round(time.Millisecond),
		float64(s.plies)/float64(max(s.games, 1)), s.maxPlies)
	t.Logf("results: %s", formatTally(s.results))
	t.Logf("features: %s", formatTally(s.features))
}

// randomRules draws every parameter uniformly within its range.
func randomRules(rng *rand.Rand) rules.Rules {
	r := rules.Default()
	for i := range rules.Params {
		p := &rules.Params[i]
		if err := p.Set(&r, strconv.Itoa(p.Min+rng.IntN(p.Max-p.Min+1))); err != nil {
			panic(err)
		}
	}
	return r
}

func formatTally(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// plyCap bounds the length of any game: there are at most 2·PiecesCount
// placements and 2·PiecesCount removals, and between two of them at most
// NMoveRule slides before the N-move rule ends the game.
func plyCap(r *rules.Rules) int {
	nonSlides := 4 * r.PiecesCount
	return nonSlides + (nonSlides+1)*r.NMoveRule
}

func playRandomGame(t *testing.T, name string, r rules.Rules, seed uint64, n int, st *randomPlayStats) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	g := position.NewGame(r, position.New(&r))
	var tokens []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s game %d (seed %#x; replay with RANDOMPLAY_SEED=%d RANDOMPLAY_GAMES=%d -run '^%s$'), after %d actions\nmoves: %s\nfen: %s\n%s",
			name, n, seed, seed, n+1, t.Name(), len(tokens), strings.Join(tokens, " "), g.Pos.FEN(), fmt.Sprintf(format, args...))
	}
	limit := plyCap(&g.Rules)
	for ply := 0; ; ply++ {
		checkPosition(&g.Rules, &g.Pos, fail)
		if g.Pos.IsOver() {
			break
		}
		if ply >= limit {
			fail("no result after %d plies", ply)
		}
		var ml movegen.MoveList
		movegen.Generate(&g.Rules, &g.Pos, &ml)
		m := ml.Moves[rng.IntN(ml.N)]

		// Copy-make: the kept copy is untouched, and replaying the move on it
		// gives the same child.
		saved := g.Pos
		before := g.Pos
		child := before
		child.Do(&g.Rules, m)
		again := before
		again.Do(&g.Rules, m)
		if before != saved {
			fail("Do on a copy changed the original")
		}
		if child != again {
			fail("%s played twice from the same position gives different children:\n%+v\n%+v", m, child, again)
		}
		countFeatures(&g.Rules, &before, m, st.features)

		childKey := child.Key()
		g.Play(m)
		tokens = append(tokens, m.String())
		if g.Pos != child {
			// Only Game's draw rules may differ from Do.
			res, why := g.Pos.Result()
			if child.IsOver() || res != position.Draw ||
				(why != position.ThreefoldRepetition && why != position.NMoveRule && why != position.EndgameNMoveRule) {
				fail("Game.Play differs from Do: %s (%s)", res, why)
			}
			child.SetGameOver(res, why)
			if g.Pos != child {
				fail("Game.Play differs from Do beyond the draw")
			}
		}
		checkTransition(&g.Rules, &before, m, &g.Pos, fail)
		checkDrawRules(&g.Rules, g, m, childKey, fail)
	}
	res, why := g.Pos.Result()
	checkEnd(&g.Rules, g, fail)
	st.games++
	st.plies += len(tokens)
	st.maxPlies = max(st.maxPlies, len(tokens))
	st.results[fmt.Sprintf("%s by %s", res, why)]++
}

// checkPosition checks everything that holds of a single position.
func checkPosition(r *rules.Rules, p *position.Position, fail func(string, ...any)) {
	if k, c := p.Key(), p.ComputeKey(); k != c {
		fail("incremental key %08x, from scratch %08x", k, c)
	}

	// Pieces: disjoint, within the counts, never negative.
	w, b, x := p.Pieces(position.White), p.Pieces(position.Black), p.Marked()
	if w&b != 0 || (w|b)&x != 0 || (w|b|x)&^bb.Full != 0 {
		fail("overlapping sets: white %#x black %#x marked %#x", w, b, x)
	}
	// Marks last until both hands are empty and nothing is pending.
	placingOver := p.InHand(position.White) == 0 && p.InHand(position.Black) == 0 &&
		p.PendingRemovals(position.White) == 0 && p.PendingRemovals(position.Black) == 0
	if x != 0 && (r.MillFormationActionInPlacingPhase != rules.MillMarkAndDelay || placingOver && !p.IsOver()) {
		fail("marked points %#x outside the placing phase of MillFormationActionInPlacingPhase 4", x)
	}
	for c := position.White; c <= position.Black; c++ {
		on, hand := p.OnBoard(c), p.InHand(c)
		if on != p.Pieces(c).Count() || hand < 0 || on+hand > r.PiecesCount {
			fail("%s has %d on board and %d in hand", c, on, hand)
		}
		if !p.IsOver() && on+hand < r.PiecesAtLeastCount {
			fail("%s has %d pieces and the game goes on", c, on+hand)
		}
		if pr := p.PendingRemovals(c); pr < -r.PiecesCount || pr > r.PiecesCount ||
			(pr < 0 && r.MillFormationActionInPlacingPhase != rules.MillRemovalByMillCountsLate) {
			fail("%s has %d removals pending", c, pr)
		}
	}
	if p.NMoveCounter() > r.NMoveRule {
		fail("N-move counter %d is past NMoveRule %d", p.NMoveCounter(), r.NMoveRule)
	}

	// Phase and action agree with the counts.
	us := p.SideToMove()
	if !p.IsOver() {
		switch p.Action() {
		case position.Remove:
			if p.PendingRemovals(us) == 0 {
				fail("action remove with nothing pending")
			}
		case position.Place:
			if p.Phase() != position.Placing || p.InHand(us) == 0 || p.PendingRemovals(us) != 0 {
				fail("action place in phase %s with %d in hand", p.Phase(), p.InHand(us))
			}
		case position.Select:
			if p.Phase() != position.Moving || p.InHand(us) != 0 || p.PendingRemovals(us) != 0 {
				fail("action select in phase %s with %d in hand", p.Phase(), p.InHand(us))
			}
		}
	}

	// FEN out, in, out. A game drawn by repetition cannot be told from its
	// position string (the history is not in it): that string is refused.
	fen := p.FEN()
	q, err := position.ParseFEN(r, fen)
	pr, pw := p.Result()
	switch {
	case pw == position.ThreefoldRepetition:
		if err == nil || !strings.Contains(err.Error(), "the game is not over by any rule the position shows") {
			fail("a repetition draw's FEN %q: error %v", fen, err)
		}
	case err != nil:
		fail("ParseFEN(FEN()): %v", err)
	default:
		if got := q.FEN(); got != fen {
			fail("FEN round trip:\n out %q\n in  %q", fen, got)
		}
		if q.Key() != p.Key() || q.IsOver() != p.IsOver() {
			fail("the parsed position has key %08x over %t", q.Key(), q.IsOver())
		}
		if qr, qw := q.Result(); qr != pr || qw != pw {
			fail("parsed result %s (%s), played %s (%s)", qr, qw, pr, pw)
		}
	}

	// Move generation.
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	if c := movegen.Count(r, p); c != ml.N {
		fail("Count %d, Generate %d", c, ml.N)
	}
	if p.IsOver() {
		if ml.N != 0 {
			fail("a finished game has %d actions", ml.N)
		}
		return
	}
	if ml.N == 0 {
		fail("no legal action in an unfinished game")
	}
	var ql movegen.MoveList
	movegen.Generate(r, &q, &ql)
	if ql != ml {
		fail("the parsed position generates other actions")
	}
	seen := map[position.Move]bool{}
	for _, m := range ml.Slice() {
		if seen[m] {
			fail("%s generated twice", m)
		}
		seen[m] = true
		if (m.Kind() == position.KindRemove) != (p.Action() == position.Remove) {
			fail("%s generated for action %s", m, p.Action())
		}
		if !movegen.IsLegal(r, p, m) {
			fail("generated %s is not legal", m)
		}
		back, err := movegen.ParseLegal(r, p, m.String())
		if err != nil || back != m {
			fail("ParseLegal(%q) = %v, %v", m.String(), back, err)
		}
		checkMoveShape(r, p, m, fail)
	}
}

// checkMoveShape checks one generated action against the rules directly.
func checkMoveShape(r *rules.Rules, p *position.Position, m position.Move, fail func(string, ...any)) {
	us := p.SideToMove()
	t := r.Topology()
	switch m.Kind() {
	case position.KindPlace:
		if !p.Empty().Has(m.To()) || p.InHand(us) == 0 {
			fail("%s: placing on an occupied point or from an empty hand", m)
		}
	case position.KindSlide:
		if !p.Pieces(us).Has(m.From()) || !p.Empty().Has(m.To()) {
			fail("%s: slide of a missing piece or onto an occupied point", m)
		}
		fly := r.MayFly && p.InHand(us) == 0 && p.OnBoard(us) <= r.FlyPieceCount
		if !fly && !t.Adjacent[m.From()].Has(m.To()) {
			fail("%s: jump without the right to fly", m)
		}
		if p.Phase() == position.Placing && !r.MayMoveInPlacingPhase {
			fail("%s: slide while placing", m)
		}
	case position.KindRemove:
		victim := us.Opponent()
		if p.PendingRemovals(us) < 0 {
			victim = us
		}
		if !p.Pieces(victim).Has(m.To()) {
			fail("%s: no %s piece there", m, victim)
		}
		if !r.MayRemoveFromMillsAlways && !p.IsStalemateRemoval(r) {
			inMill := t.InMills(p.Pieces(victim))
			if inMill.Has(m.To()) && inMill != p.Pieces(victim) {
				fail("%s: removes a piece in a mill while others are free", m)
			}
		}
	default:
		fail("move %d of no kind", m)
	}
}

// checkTransition checks what one action changed.
func checkTransition(r *rules.Rules, before *position.Position, m position.Move, after *position.Position, fail func(string, ...any)) {
	us := before.SideToMove()
	them := us.Opponent()
	if after.Ply() != before.Ply()+1 {
		fail("ply %d after %d", after.Ply(), before.Ply())
	}
	total := func(p *position.Position, c position.Color) int { return p.OnBoard(c) + p.InHand(c) }
	for c := position.White; c <= position.Black; c++ {
		if after.InHand(c) > before.InHand(c) {
			fail("%s's hand grew from %d to %d", c, before.InHand(c), after.InHand(c))
		}
		if total(after, c) > total(before, c) {
			fail("%s's pieces grew from %d to %d", c, total(before, c), total(after, c))
		}
	}
	mine := func(p *position.Position, c position.Color) uint32 { return uint32(p.Pieces(c)) }
	switch m.Kind() {
	case position.KindPlace:
		// StopPlacingWhenTwoEmptySquares empties both hands (marked points are
		// not empty: count before the end of placing clears them).
		stop := r.StopPlacingWhenTwoEmptySquares && r.PiecesCount == 12 && before.Empty().Count()-1 <= 2 &&
			after.InHand(us) == 0 && after.InHand(them) == 0
		if mine(after, us) != mine(before, us)|1<<m.To() || (after.InHand(us) != before.InHand(us)-1 && !stop) {
			fail("%s did not put one piece from hand on %s", m, m.To())
		}
		if mine(after, them) != mine(before, them) {
			fail("%s changed the opponent's pieces", m)
		}
		if lost := before.InHand(them) - after.InHand(them); lost != 0 && !stop {
			mfa := r.MillFormationActionInPlacingPhase
			if mfa != rules.MillRemoveFromHandThenThem && mfa != rules.MillRemoveFromHandThenUs {
				fail("%s took %d pieces from the opponent's hand", m, lost)
			}
			if mills := r.Topology().MillsAt(m.To(), before.Pieces(us)); lost > 1 && !r.MayRemoveMultiple || lost > mills {
				fail("%s took %d pieces from the opponent's hand for %d mills", m, lost, mills)
			}
		}
		if after.NMoveCounter() != 0 {
			fail("N-move counter %d after a placement", after.NMoveCounter())
		}
	case position.KindSlide:
		if mine(after, us) != mine(before, us)&^(1<<m.From())|1<<m.To() {
			fail("%s did not move one piece", m)
		}
		if mine(after, them) != mine(before, them) || after.Marked() != before.Marked() {
			fail("%s changed other pieces", m)
		}
		if after.InHand(us) != before.InHand(us) || after.InHand(them) != before.InHand(them) {
			fail("%s changed the hands", m)
		}
		if after.NMoveCounter() != before.NMoveCounter()+1 {
			fail("N-move counter %d after %d and a slide", after.NMoveCounter(), before.NMoveCounter())
		}
	case position.KindRemove:
		victim := them
		if before.PendingRemovals(us) < 0 {
			victim = us
		}
		if mine(after, victim) != mine(before, victim)&^(1<<m.To()) || mine(after, victim.Opponent()) != mine(before, victim.Opponent()) {
			fail("%s did not take exactly one %s piece", m, victim)
		}
		if after.InHand(us) != before.InHand(us) || after.InHand(them) != before.InHand(them) {
			fail("%s changed the hands", m)
		}
		marked := r.MillFormationActionInPlacingPhase == rules.MillMarkAndDelay && before.Phase() == position.Placing
		if marked && !after.Marked().Has(m.To()) && after.Marked() != 0 {
			fail("%s did not mark %s", m, m.To())
		}
		if !marked && after.Marked()&^before.Marked() != 0 {
			fail("%s marked a point", m)
		}
		if after.NMoveCounter() != 0 {
			fail("N-move counter %d after a removal", after.NMoveCounter())
		}
	}
	// Marked points are only added by removals, and all go when placing ends.
	if added := after.Marked() &^ before.Marked(); added != 0 && m.Kind() != position.KindRemove {
		fail("%s marked %#x", m, added)
	}
	if gone := before.Marked() &^ after.Marked(); gone != 0 && after.Marked() != 0 {
		fail("%s cleared only some marks", m)
	}
}

// checkDrawRules checks that the draw rules fired exactly when due.
// key is the position's key as Do left it, before a draw changed its phase.
func checkDrawRules(r *rules.Rules, g *position.Game, m position.Move, key uint32, fail func(string, ...any)) {
	keys := g.RepetitionKeys()
	if m.Kind() != position.KindSlide {
		if len(keys) != 0 {
			fail("%d repetition keys after %s", len(keys), m)
		}
		return
	}
	if len(keys) != g.Pos.NMoveCounter() {
		fail("%d repetition keys, N-move counter %d", len(keys), g.Pos.NMoveCounter())
	}
	if keys[len(keys)-1] != key {
		fail("the last repetition key is not the position's")
	}
	res, why := g.Pos.Result()
	if res != position.Ongoing && why != position.ThreefoldRepetition && why != position.NMoveRule && why != position.EndgameNMoveRule {
		return // decided by Do
	}
	seen := 0
	for _, k := range keys {
		if k == key {
			seen++
		}
	}
	n := g.Pos.NMoveCounter()
	endgame := r.EndgameNMoveRule < r.NMoveRule && g.Pos.InHand(position.White) == 0 && g.Pos.InHand(position.Black) == 0 &&
		(g.Pos.OnBoard(position.White) == 3 || g.Pos.OnBoard(position.Black) == 3)
	var want position.Reason
	switch {
	case n >= r.NMoveRule:
		want = position.NMoveRule
	case endgame && n >= r.EndgameNMoveRule:
		want = position.EndgameNMoveRule
	case r.ThreefoldRepetitionRule && seen >= 3:
		want = position.ThreefoldRepetition
	}
	if why != want {
		fail("draw reason %s, want %s (N-move counter %d, seen %d times)", why, want, n, seen)
	}
	if want == position.ThreefoldRepetition && seen != 3 {
		fail("a position was seen %d times before the draw", seen)
	}
}

// checkEnd checks that a finished game ended for the reason it gives.
func checkEnd(r *rules.Rules, g *position.Game, fail func(string, ...any)) {
	p := &g.Pos
	res, why := p.Result()
	us := p.SideToMove()
	total := func(c position.Color) int { return p.OnBoard(c) + p.InHand(c) }
	switch why {
	case position.FewerPieces:
		loser := position.White
		if res == position.WhiteWins {
			loser = position.Black
		}
		// The winner is short too only if the last action emptied both hands
		// (StopPlacingWhenTwoEmptySquares); the side that did not act lost.
		last := g.Moves[len(g.Moves)-1]
		if res == position.Draw || total(loser) >= r.PiecesAtLeastCount ||
			total(loser.Opponent()) < r.PiecesAtLeastCount && last.Kind() != position.KindPlace {
			fail("%s by fewer pieces with %d and %d", res, total(position.White), total(position.Black))
		}
	case position.NoLegalMove:
		if res != position.Winner(us.Opponent()) || r.StalemateAction != rules.StalemateLose ||
			p.InHand(us) != 0 || !p.AllSurrounded(r, us) {
			fail("%s by no legal move for %s", res, us)
		}
	case position.BoardFull:
		if p.OnBoard(position.White)+p.OnBoard(position.Black) != bb.NumSquares ||
			!(r.BoardFullAction == rules.BoardFullFirstLoses && res == position.BlackWins ||
				r.BoardFullAction == rules.BoardFullDraw && res == position.Draw) {
			fail("%s by a full board", res)
		}
	case position.ThreefoldRepetition, position.NMoveRule, position.EndgameNMoveRule:
		if res != position.Draw || g.Moves[len(g.Moves)-1].Kind() != position.KindSlide {
			fail("%s by %s", res, why)
		}
	case position.StalemateDraw:
		if res != position.Draw || (r.StalemateAction != rules.StalemateDraw && r.StalemateAction != rules.StalematePass) {
			fail("%s by stalemate", res)
		}
	default:
		fail("the game ended with %s (%s)", res, why)
	}
}

// countFeatures tallies which rule features a game used, so that the log
// shows the random games reach them.
func countFeatures(r *rules.Rules, p *position.Position, m position.Move, f map[string]int) {
	us := p.SideToMove()
	switch m.Kind() {
	case position.KindPlace:
		f["place"]++
	case position.KindSlide:
		switch {
		case p.Phase() == position.Placing:
			f["slide-while-placing"]++
		case !r.Topology().Adjacent[m.From()].Has(m.To()):
			f["fly"]++
		default:
			f["slide"]++
		}
	case position.KindRemove:
		switch {
		case p.PendingRemovals(us) < 0:
			f["remove-own"]++
		case p.StalemateRemoving() || p.IsStalemateRemoval(r):
			f["stalemate-remove"]++
		case r.MillFormationActionInPlacingPhase == rules.MillMarkAndDelay && p.Phase() == position.Placing:
			f["mark"]++
		default:
			f["remove"]++
		}
	}
	child := *p
	child.Do(r, m)
	if child.InHand(us.Opponent()) < p.InHand(us.Opponent()) {
		f["remove-from-hand"]++
	}
	if p.Marked() != 0 && child.Marked() == 0 {
		f["marks-cleared"]++
	}
	if m.Kind() == position.KindPlace && child.OnBoard(position.White)+child.OnBoard(position.Black) == bb.NumSquares {
		f["board-full"]++
	}
	if child.PendingRemovals(us.Opponent()) > p.PendingRemovals(us.Opponent()) && child.PendingRemovals(us) > 0 {
		f["both-remove"]++
	}
}
