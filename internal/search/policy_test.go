package search

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/eval"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

func TestParsePolicy(t *testing.T) {
	for i, n := range PolicyNames() {
		if p, err := ParsePolicy(strings.ToUpper(n)); err != nil || p != Policy(i) || p.String() != n {
			t.Errorf("%s: %v %v", n, p, err)
		}
	}
	if _, err := ParsePolicy("greedy"); err == nil || err.Error() != `policy "greedy": want search, replies, sectors, model, mixed, pressure` {
		t.Errorf("greedy: %v", err)
	}
	o := DefaultOptions()
	if o.drawPolicy() != PolicySearch {
		t.Errorf("default policy %s", o.drawPolicy())
	}
	o.TableWinningChances = true
	if o.drawPolicy() != PolicyReplies {
		t.Errorf("TableWinningChances: %s", o.drawPolicy())
	}
}

// policyRoot searches a drawn placing root of the game's tables up to 7
// pieces (a draw that many of White's placements keep, some replies to
// which lose) under a policy, and returns the result, the policy's note and
// the root's drawing actions.
func policyRoot(t *testing.T, p Policy) (Result, string, map[position.Move]bool) {
	t.Helper()
	return policyRootWith(t, p, nil)
}

// gameRoot opens the game's tables up to 7 pieces (closed when the test
// ends) and returns them with a game at fen under the default rules.
func gameRoot(t *testing.T, fen string) (*egtb.Tables, *position.Game) {
	t.Helper()
	r := rules.Default()
	tb, err := egtb.Open(egtbtest.Game(t, 7), &r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	pos, err := position.ParseFEN(&r, fen)
	if err != nil {
		t.Fatal(err)
	}
	return tb, position.NewGame(r, pos)
}

// searchNote searches g to depth 3 with the tables tb and the engine's
// options changed by set, and returns the result and the last note that
// starts with prefix ("" when none does).
func searchNote(tb *egtb.Tables, g *position.Game, set func(*Options), prefix string) (Result, string) {
	e := New(8)
	e.SetTables(tb)
	o := e.Options()
	set(&o)
	e.SetOptions(o)
	var note string
	res := e.Search(g, Limits{Depth: 3}, func(in Info) {
		if strings.HasPrefix(in.Note, prefix) {
			note = in.Note
		}
	})
	return res, note
}

// policyRootWith is policyRoot with the engine's other options set by set
// (nil: the defaults).
func policyRootWith(t *testing.T, p Policy, set func(*Options)) (Result, string, map[position.Move]bool) {
	t.Helper()
	tb, g := gameRoot(t, "******@*/*@*****O/*****@*O w p p 2 1 3 1 0 0 0 0 0 0 0 0 1")
	acts, ok := tb.RankRoot(g)
	if !ok || acts[0].Class != egtb.DrawPlays {
		t.Fatalf("the root is not a draw the tables know: %v", acts)
	}
	drawn := map[position.Move]bool{}
	for _, a := range acts {
		if a.Class == egtb.DrawPlays {
			drawn[a.Move] = true
		}
	}
	res, note := searchNote(tb, g, func(o *Options) {
		o.Policy = p
		if set != nil {
			set(o)
		}
	}, "policy ")
	if !drawn[res.BestMove] || res.Outcome != OutcomeDraw {
		t.Fatalf("policy %s played %s (outcome %v): not a drawing action of %v", p, res.BestMove, res.Outcome, drawn)
	}
	return res, note, drawn
}

// The model values every drawing action by the chance that the opponent's
// reply loses and plays the one with the highest; the note lists them all.
func TestPolicyModelPlaysTheLikeliestTrap(t *testing.T) {
	res, note, drawn := policyRoot(t, PolicyModel)
	m := regexp.MustCompile(`^policy model: chance of a losing reply((?: [a-g][1-7] [01]\.\d{3})+) \(\d+ ms\); plays ([a-g][1-7])$`).FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("note %q", note)
	}
	f := strings.Fields(m[1])
	best := -1.0
	for i := 0; i < len(f); i += 2 {
		c, _ := strconv.ParseFloat(f[i+1], 64)
		best = max(best, c)
		if mv, err := position.ParseMove(f[i]); err != nil || !drawn[mv] {
			t.Errorf("%s is not a drawing action", f[i])
		}
	}
	if len(f)/2 != len(drawn) || m[2] != res.BestMove.String() || !strings.Contains(m[1], " "+m[2]+" "+strconv.FormatFloat(best, 'f', 3, 64)) || best*100 < DefaultModelMinChance {
		t.Errorf("note %q, played %s: want every one of the %d drawing actions and the highest chance played", note, res.BestMove, len(drawn))
	}
	if res.Source != FromTables || res.Nodes != 0 {
		t.Errorf("source %v, nodes %d: want an answer at once from the tables", res.Source, res.Nodes)
	}
}

// ModelMinChance is the least chance, in percent, for which the model
// decides: above the best trap's chance the model lists the same chances and
// the search chooses.
func TestPolicyModelMinChance(t *testing.T) {
	_, note, _ := policyRoot(t, PolicyModel)
	chances, _, ok := strings.Cut(strings.TrimPrefix(note, "policy model: chance of a losing reply"), " (")
	if !ok {
		t.Fatalf("note %q", note)
	}
	best := 0.0
	f := strings.Fields(chances)
	for i := 1; i < len(f); i += 2 {
		c, _ := strconv.ParseFloat(f[i], 64)
		best = max(best, c)
	}
	above := int(best*100) + 1
	res, note2, _ := policyRootWith(t, PolicyModel, func(o *Options) { o.ModelMinChance = above })
	if !strings.HasPrefix(note2, "policy model: chance of a losing reply"+chances+" (") || !strings.HasSuffix(note2, "; no trap, the search chooses") || res.Nodes == 0 {
		t.Errorf("ModelMinChance %d: note %q, %d nodes; want the chances%s and a search", above, note2, res.Nodes, chances)
	}
}

// drawnSearchNote is the search policy's note at a drawn root with n
// drawing actions, ending with tail (what the options add).
func drawnSearchNote(n int, tail string) string {
	return "policy search: the search chooses among the " + strconv.Itoa(n) + " drawing actions" + tail
}

// removalNote and flyingNote are what the default DrawnTrades and
// DrawnFlying add to the search policy's note; defaultTail is both.
var (
	removalNote = ", a removal worth " + strconv.Itoa(DefaultDrawnTrades)
	flyingNote  = ", the opponent flying -" + strconv.Itoa(DefaultDrawnFlying)
	defaultTail = removalNote + flyingNote
)

// The search policy (the default) searches among the drawing actions, and
// says so.
func TestPolicySearchSearches(t *testing.T) {
	res, note, drawn := policyRoot(t, PolicySearch)
	if want := drawnSearchNote(len(drawn), defaultTail); note != want || res.Nodes == 0 {
		t.Errorf("note %q, %d nodes: want a search and %q", note, res.Nodes, want)
	}
}

// With DrawnContempt the search scores a draw below a drawn root by it, not
// by Contempt (every action it chooses among keeps the draw), says so, and
// still reports the root's draw.
func TestPolicySearchDrawnContempt(t *testing.T) {
	res, note, drawn := policyRootWith(t, PolicySearch, func(o *Options) { o.DrawnContempt = 60 })
	want := drawnSearchNote(len(drawn), ", a draw scored -60"+defaultTail)
	if note != want || res.Score != ValueDraw || res.Outcome != OutcomeDraw {
		t.Errorf("note %q, score %d, outcome %v: want %q and the draw", note, res.Score, res.Outcome, want)
	}
}

// With DrawnTrades the search at a drawn root says what a removal is worth,
// and still reports the root's draw; 0 turns the trades off and the note
// says nothing of them. DrawnFlying's cost is said the same way.
func TestPolicySearchDrawnTrades(t *testing.T) {
	res, note, drawn := policyRootWith(t, PolicySearch, func(o *Options) { o.DrawnTrades = 45 })
	want := drawnSearchNote(len(drawn), ", a removal worth 45"+flyingNote)
	if note != want || res.Score != ValueDraw || res.Outcome != OutcomeDraw {
		t.Errorf("note %q, score %d, outcome %v: want %q and the draw", note, res.Score, res.Outcome, want)
	}
	if _, note, _ := policyRootWith(t, PolicySearch, func(o *Options) { o.DrawnTrades = 0 }); note != drawnSearchNote(len(drawn), flyingNote) {
		t.Errorf("DrawnTrades 0: note %q", note)
	}
	if _, note, _ := policyRootWith(t, PolicySearch, func(o *Options) { o.DrawnFlying = 200 }); note != drawnSearchNote(len(drawn), removalNote+", the opponent flying -200") {
		t.Errorf("DrawnFlying 200: note %q", note)
	}
	if _, note, _ := policyRootWith(t, PolicySearch, func(o *Options) { o.DrawnFlying = 0 }); note != drawnSearchNote(len(drawn), removalNote) {
		t.Errorf("DrawnFlying 0: note %q", note)
	}
}

// The trades' bonus: each piece removed since the root, by either side, is
// worth per to the root's side and as much less to its opponent; the worker
// adds it to every evaluation.
func TestTradesBonus(t *testing.T) {
	r := testkit.Rules(t, "nine-mens-morris")
	p := testkit.Position(t, &r, "@@@@**O*/*O*O@@O*/*OO***@* w p p 6 2 7 2 0 0 0 0 0 0 0 0 8")
	tr := trades{per: 30, side: position.White, material: material(&p) + 3}
	if m := material(&p); m != 6+2+7+2 {
		t.Errorf("material %d, want 17", m)
	}
	if b := tr.bonus(&p); b != 90 {
		t.Errorf("White to move, 3 removed: bonus %d, want 90", b)
	}
	tr.side = position.Black
	if b := tr.bonus(&p); b != -90 {
		t.Errorf("the root's opponent to move: bonus %d, want -90", b)
	}
	if d := tradesEval(&r, p, tr); d != -90 {
		t.Errorf("evaluate with the trades: %+d, want -90", d)
	}
}

// tradesEval is what the trades tr change in a worker's evaluation of p.
func tradesEval(r *rules.Rules, p position.Position, tr trades) int {
	w := etcWorker(r, p)
	w.params, w.evals = &eval.DefaultParams, new(eval.Cache)
	plain := w.evaluate(&p)
	w.trades = tr
	return w.evaluate(&p) - plain
}

// DrawnFlying: where the root side's opponent flies (nothing in hand, at
// most flyAt pieces) and the root side does not, the root side loses fly,
// and its opponent to move gains as much; where the opponent does not fly,
// or both do, nothing changes. The worker adds it where the trades are off.
func TestTradesFlying(t *testing.T) {
	r := testkit.Rules(t, "nine-mens-morris")
	p := testkit.Position(t, &r, "@*O*****/O***@O@*/******O* w m s 4 0 3 0 0 0 0 0 0 0 0 10 76") // Black flies
	tr := trades{fly: 300, flyAt: 3, side: position.White, material: material(&p)}
	if b := tr.bonus(&p); b != -300 {
		t.Errorf("White's opponent flies, White to move: %d, want -300", b)
	}
	q := testkit.Position(t, &r, "@*O*****/O***@O@*/******O* b m s 4 0 3 0 0 0 0 0 0 0 0 10 76")
	if b := tr.bonus(&q); b != 300 {
		t.Errorf("White's opponent flies, Black to move: %d, want 300", b)
	}
	tr.side = position.Black
	if b := tr.bonus(&p); b != 0 {
		t.Errorf("the root side flies: %d, want 0", b)
	}
	tr.side, tr.flyAt = position.White, 2
	if b := tr.bonus(&p); b != 0 {
		t.Errorf("three pieces with flyAt 2: %d, want 0", b)
	}
	tr.flyAt = 3
	if d := tradesEval(&r, p, tr); d != -300 {
		t.Errorf("evaluate with DrawnFlying: %+d, want -300", d)
	}
	both := testkit.Position(t, &r, "@*O*****/O***@*@*/******O* w m s 3 0 3 0 0 0 0 0 0 0 0 10 76")
	if b := tr.bonus(&both); b != 0 {
		t.Errorf("both fly: %d, want 0", b)
	}
}

// DrawnFlying is on at a drawn root until the N-move rule has fewer than
// flyingBudget plies left, and off under rules without flying.
func TestFlyingCost(t *testing.T) {
	r := testkit.Rules(t, "nine-mens-morris")
	o := DefaultOptions()
	o.DrawnFlying = 300
	for _, c := range []struct {
		fen     string
		fly, at int
	}{
		{"@*O*****/O***@O@*/******O@ w m s 4 0 4 0 0 0 0 0 0 0 0 70 76", 300, 3},
		{"@*O*****/O***@O@*/******O@ w m s 4 0 4 0 0 0 0 0 0 0 0 71 76", 0, 0},
		{"@*O*****/O***@O@*/******O@ w m s 4 0 4 0 0 0 0 0 0 0 0 99 76", 0, 0},
	} {
		g := position.NewGame(r, testkit.Position(t, &r, c.fen))
		if fly, at := flyingCost(&o, g); fly != c.fly || at != c.at {
			t.Errorf("%s (budget %d): %d at %d, want %d at %d", c.fen, g.Pos.NMoveBudget(&r), fly, at, c.fly, c.at)
		}
	}
	g := position.NewGame(r, testkit.Position(t, &r, "@*O*****/O***@O@*/******O@ w m s 4 0 4 0 0 0 0 0 0 0 0 10 76"))
	g.Rules.MayFly = false
	if fly, _ := flyingCost(&o, g); fly != 0 {
		t.Errorf("without flying: %d, want 0", fly)
	}
	o.DrawnFlying = 0
	g.Rules.MayFly = true
	if fly, _ := flyingCost(&o, g); fly != 0 {
		t.Errorf("DrawnFlying 0: %d, want 0", fly)
	}
}

// The sectors policy answers at once with a drawing action (its order is
// checked by TestSectorOrder).
func TestPolicySectorsAnswers(t *testing.T) {
	res, _, _ := policyRoot(t, PolicySectors)
	if res.Source != FromTables || res.Nodes != 0 {
		t.Errorf("source %v, nodes %d", res.Source, res.Nodes)
	}
}

// The sectors policy orders the drawing actions by the balance of the
// sector each leads to, worst for the opponent first, and leaves the other
// classes where they were. (Up to 7 pieces a mill always wins, so every
// drawing action of this root leads to the same sector: the order keeps
// RankRoot's among equals.)
func TestSectorOrder(t *testing.T) {
	r := rules.Default()
	tb, err := egtb.Open(egtbtest.Game(t, 7), &r)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pos, _ := position.ParseFEN(&r, "O***@***/@*******/**O****@ w p p 2 1 3 1 0 0 0 0 0 0 0 0 1")
	g := position.NewGame(r, pos)
	acts, _ := tb.RankRoot(g)
	out := sectorOrder(tb, g, acts)
	if len(out) != len(acts) {
		t.Fatalf("%d actions, want %d", len(out), len(acts))
	}
	prev := 2.0
	for i, a := range out {
		if a.Class != acts[i].Class {
			t.Fatalf("action %d: class %s, was %s", i, a.Class, acts[i].Class)
		}
		if a.Class != egtb.DrawPlays {
			continue
		}
		h := g.Clone()
		h.Play(a.Move)
		v, ok := tb.SectorBalance(&h.Rules, &h.Pos)
		if !ok {
			t.Fatalf("%s: no sector balance", a.Move)
		}
		if h.Pos.SideToMove() != g.Pos.SideToMove() {
			v = -v
		}
		if v > prev {
			t.Errorf("%s: balance %.4f after %.4f", a.Move, v, prev)
		}
		if v == prev && a.Move != acts[i].Move {
			t.Errorf("action %d: %s, RankRoot's %s, among equal balances", i, a.Move, acts[i].Move)
		}
		prev = v
	}
}

// A lost placing root, whose entries hold the result only (no distance to
// order the losses by): under the search policy the search chooses among
// the losing actions and reports the proven loss; under the replies policy
// the tables answer at once.
func TestPolicySearchLostPlacingRoot(t *testing.T) {
	tb, g := gameRoot(t, "********/********/******** w p p 0 4 0 3 0 0 0 0 0 0 0 0 1")
	for _, s := range strings.Fields("d6 d1 b4 a1 b6") {
		m, err := position.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	acts, ok := tb.RankRoot(g)
	if !ok || len(acts) != 19 || acts[0].Class != egtb.LossCertain || !acts[0].Entry.ResultOnly || acts[18].Class != egtb.LossCertain {
		t.Fatalf("the root is not a placing loss of 19 actions the tables know: %v", acts)
	}
	for _, p := range []Policy{PolicySearch, PolicyReplies} {
		res, note := searchNote(tb, g, func(o *Options) { o.Policy = p }, "policy ")
		if res.Outcome != OutcomeLoss || res.Score > -ValueTBBand || !movegen.IsLegal(&g.Rules, &g.Pos, res.BestMove) {
			t.Errorf("policy %s: %s, score %d, outcome %v: want a legal action and the proven loss", p, res.BestMove, res.Score, res.Outcome)
		}
		switch p {
		case PolicySearch:
			if want := "policy search: the search chooses among the 19 losing actions"; note != want || res.Nodes == 0 || res.Source != FromTables {
				t.Errorf("note %q, %d nodes, source %v: want a search and %q", note, res.Nodes, res.Source, want)
			}
		case PolicyReplies:
			if note != "" || res.Nodes != 0 || res.BestMove != acts[0].Move {
				t.Errorf("note %q, %d nodes, %s: want the tables' first action %s at once", note, res.Nodes, res.BestMove, acts[0].Move)
			}
		}
	}
}

// The mixed policy lets the search choose while placing and the model once
// the pieces move.
func TestPolicyMixed(t *testing.T) {
	_, note, drawn := policyRoot(t, PolicyMixed)
	if want := drawnSearchNote(len(drawn), defaultTail); note != want {
		t.Errorf("placing: note %q, want %q", note, want)
	}
	tb, g := gameRoot(t, "O*@*****/@*O***@O/*****O** b m s 4 0 3 0 0 0 0 0 0 0 0 10 60")
	acts, ok := tb.RankRoot(g)
	if !ok || acts[0].Class != egtb.DrawPlays || acts[1].Class != egtb.DrawPlays {
		t.Fatalf("the root is not a draw of several drawing actions the tables know: %v", acts)
	}
	res, note := searchNote(tb, g, func(o *Options) { o.Policy = PolicyMixed }, "policy ")
	if !strings.HasPrefix(note, "policy model: chance of a losing reply") || res.Outcome != OutcomeDraw {
		t.Errorf("moving: note %q, outcome %v: want the model's note and the draw", note, res.Outcome)
	}
}

// An action back to a position the opponent has answered before sets no
// trap: after the model's favourite slide, a reply, the slide back and the
// reply back, the same slide is valued 0.
func TestPolicyModelSeenPositionSetsNoTrap(t *testing.T) {
	tb, g := gameRoot(t, "O*@*****/@*O***@O/*****O** b m s 4 0 3 0 0 0 0 0 0 0 0 10 60")
	e := New(8)
	e.SetTables(tb)
	o := e.Options()
	o.Policy = PolicyModel
	e.SetOptions(o)
	model := func(g *position.Game) (Result, string) {
		var note string
		res := e.Search(g, Limits{Depth: 3}, func(in Info) {
			if strings.HasPrefix(in.Note, "policy model") {
				note = in.Note
			}
		})
		return res, note
	}
	res, note := model(g)
	x := res.BestMove
	if !strings.HasSuffix(note, "; plays "+x.String()) || x.Kind() != position.KindSlide {
		t.Fatalf("note %q: want a slide set as a trap", note)
	}
	back := func(m position.Move) position.Move { return position.MakeSlide(m.To(), m.From()) }
	drawn := func(g *position.Game) bool {
		acts, ok := tb.RankRoot(g)
		return ok && !g.Pos.IsOver() && acts[0].Class == egtb.DrawPlays
	}
	var ml movegen.MoveList
	h := g.Clone()
	h.Play(x)
	movegen.Generate(&h.Rules, &h.Pos, &ml)
	var found *position.Game
	for _, y := range ml.Slice() {
		k := h.Clone()
		ok := y.Kind() == position.KindSlide && drawn(k)
		for _, m := range []position.Move{y, back(x), back(y)} {
			if !ok || !movegen.IsLegal(&k.Rules, &k.Pos, m) {
				ok = false
				break
			}
			k.Play(m)
			ok = !k.Pos.IsOver()
		}
		if ok && drawn(k) && k.Pos.Key() == g.Pos.Key() {
			found = k
			break
		}
	}
	if found == nil {
		t.Fatalf("no reply to %s that both sides can take back", x)
	}
	_, note = model(found)
	if !strings.Contains(note, " "+x.String()+" 0.000") || strings.HasSuffix(note, "; plays "+x.String()) {
		t.Errorf("note %q after %v: want %s valued 0 and not played", note, found.Moves, x)
	}
}

// The pressure policy lets the search choose among the drawing actions that
// leave the opponent at least PressureShare percent of losing replies: the
// note gives each drawing action's share, as the tables count it, and the
// action played is one of those that reach it. PressureDepth 0: every
// losing reply counts.
func TestPolicyPressure(t *testing.T) {
	res, note, drawn := policyRootWith(t, PolicyPressure, func(o *Options) { o.PressureDepth = 0 })
	tb, g := gameRoot(t, "******@*/*@*****O/*****@*O w p p 2 1 3 1 0 0 0 0 0 0 0 0 1")
	m := regexp.MustCompile(`^policy search: the search chooses among the (\d+) drawing actions` + regexp.QuoteMeta(defaultTail) + `$`).FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("note %q: want the search's", note)
	}
	_, pressure := searchNote(tb, g, func(o *Options) { o.Policy, o.PressureDepth = PolicyPressure, 0 }, "policy pressure")
	reach := map[position.Move]bool{}
	var want strings.Builder
	want.WriteString("policy pressure: share of losing replies")
	acts, _ := tb.RankRoot(g)
	for _, a := range acts {
		if a.Class != egtb.DrawPlays {
			continue
		}
		h := g.Clone()
		h.Play(a.Move)
		replies, ok := tb.RankRoot(h)
		if !ok || h.Pos.SideToMove() == g.Pos.SideToMove() {
			t.Fatalf("%s: a mill or a position the tables do not know", a.Move)
		}
		lose := 0
		for _, r := range replies {
			if r.Class == egtb.LossCertain {
				lose++
			}
		}
		share := float64(lose) / float64(len(replies))
		fmt.Fprintf(&want, " %s %.2f", a.Move, share)
		if share >= 0.6 {
			reach[a.Move] = true
		}
	}
	if len(reach) == 0 || len(reach) == len(drawn) {
		t.Fatalf("%d of %d drawing actions reach 60 %%: the root does not test the filter", len(reach), len(drawn))
	}
	fmt.Fprintf(&want, "; the search chooses among the %d of %d that reach 60 %%", len(reach), len(drawn))
	if pressure != want.String() || m[1] != strconv.Itoa(len(reach)) || !reach[res.BestMove] {
		t.Errorf("note %q\nwant %q\nsearch note %q, played %s: want one of %v", pressure, want.String(), note, res.BestMove, reach)
	}
}

// FlyingPressure narrows the search's choice at a drawn root where a side
// flies to the drawing actions that leave the opponent at least its share
// of losing replies; at 0, or where nobody flies, it does nothing.
func TestFlyingPressure(t *testing.T) {
	tb, g := gameRoot(t, "@*O*****/O***@O@*/******O* w m s 4 0 3 0 0 0 0 0 0 0 0 10 76")
	if !flies(g) {
		t.Fatal("Black has three pieces: it flies")
	}
	const want = "flying: policy pressure: share of losing replies d6-b6 0.33 a4-a1 0.00 a4-a7 0.00 d6-d7 0.00 d6-f6 0.00 e4-e3 0.00 e4-e5 0.00 e4-f4 0.00; the search chooses among the 1 of 8 that reach 30 %"
	for _, share := range []int{30, 0} {
		res, note := searchNote(tb, g, func(o *Options) { o.FlyingPressure, o.PressureDepth = share, 0 }, "flying")
		switch {
		case share > 0 && (note != want || res.BestMove.String() != "d6-b6"):
			t.Errorf("FlyingPressure %d: note %q, played %s\nwant %q and d6-b6", share, note, res.BestMove, want)
		case share == 0 && note != "":
			t.Errorf("FlyingPressure 0: note %q, want none", note)
		}
	}
	// The placing root of policyRoot: nobody flies.
	tb, g = gameRoot(t, "******@*/*@*****O/*****@*O w p p 2 1 3 1 0 0 0 0 0 0 0 0 1")
	if _, note := searchNote(tb, g, func(o *Options) { o.FlyingPressure = 30 }, "flying"); note != "" {
		t.Errorf("a placing root: note %q", note)
	}
}

// PressureDepth counts only the replies that lose far enough from the end
// for a searcher not to see them. At this 4-against-3 root b2-d2 and e3-d3
// leave Black 48 losing replies of 51, every one of them a mill at once
// (2 plies): FlyingPressure 40 keeps those two. Counting only the losses at
// least 6 plies away, b2-b4 alone leaves one, and FlyingPressure 1 keeps it.
// The engine's defaults (FlyingPressure 1, PressureDepth 20) keep it too:
// that reply loses at least 20 plies from the end.
func TestPressureDepth(t *testing.T) {
	tb, g := gameRoot(t, "*O*O**@@/*****O**/***@O*** w m s 4 0 3 0 0 0 0 0 0 0 0 10 76")
	for _, c := range []struct {
		share, depth int
		want, move   string
	}{
		{40, 0, "flying: policy pressure: share of losing replies b2-d2 0.94 e3-d3 0.94 b2-b4 0.02 d1-d2 0.02 e3-e4 0.02 e5-e4 0.02; the search chooses among the 2 of 6 that reach 40 %", "e3-d3"},
		{1, 6, "flying: policy pressure: share of losing replies at least 6 plies from the end b2-d2 0.00 e3-d3 0.00 b2-b4 0.02 d1-d2 0.00 e3-e4 0.00 e5-e4 0.00; the search chooses among the 1 of 6 that reach 1 %", "b2-b4"},
	} {
		res, note := searchNote(tb, g, func(o *Options) { o.FlyingPressure, o.PressureDepth = c.share, c.depth }, "flying")
		if note != c.want || res.BestMove.String() != c.move {
			t.Errorf("FlyingPressure %d, PressureDepth %d: note %q, played %s\nwant %q and %s", c.share, c.depth, note, res.BestMove, c.want, c.move)
		}
	}
	const want = "flying: policy pressure: share of losing replies at least 20 plies from the end b2-d2 0.00 e3-d3 0.00 b2-b4 0.02 d1-d2 0.00 e3-e4 0.00 e5-e4 0.00; the search chooses among the 1 of 6 that reach 1 %"
	if res, note := searchNote(tb, g, func(*Options) {}, "flying"); note != want || res.BestMove.String() != "b2-b4" {
		t.Errorf("the defaults: note %q, played %s\nwant %q and b2-b4", note, res.BestMove, want)
	}
}
