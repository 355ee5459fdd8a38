package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// The browser tests drive Debian's chromium, headless, through the DevTools
// protocol: one browser that they share (chrome_test.go), a browser context,
// window and server of its own for each test, which sets up its own game;
// they run in parallel with each other. They find it at $CHROME_PATH
// or /usr/bin/chromium. Without a browser they skip, unless
// MILLWEB_REQUIRE_BROWSER is set (make test sets it): then they fail.
// Screenshots go to $MILLWEB_ARTIFACTS (default: a temporary directory).

// artifactDir is where a test's screenshots and downloads go: a directory
// named after the test in $MILLWEB_ARTIFACTS (the tests run in parallel),
// else a temporary one.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("MILLWEB_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, t.Name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// snapshot is what millApp.snapshot() returns.
type snapshot struct {
	FEN      string         `json:"fen"`
	Side     string         `json:"side"`
	Phase    string         `json:"phase"`
	Action   string         `json:"action"`
	Result   string         `json:"result"`
	Legal    []string       `json:"legal"`
	Hand     map[string]int `json:"hand"`
	Moves    []string       `json:"moves"`
	Cursor   int            `json:"cursor"`
	Thinking bool           `json:"thinking"`
	Ready    bool           `json:"ready"`
	Variant  string         `json:"variant"`
	Preview  *string        `json:"preview"`
	Searches int            `json:"searches"`
	Settled  bool           `json:"settled"`
	Hint     *string        `json:"hint"`
	Hinting  bool           `json:"hinting"`
	Reviewed int            `json:"reviewed"`
	Grades   []string       `json:"grades"`
	Rules    map[string]int `json:"rules"`
	Review   *struct {
		Done  int `json:"done"`
		Total int `json:"total"`
	} `json:"reviewing"`
	Analysis struct {
		On    bool `json:"on"`
		Depth int  `json:"depth"`
		Lines []struct {
			Score string   `json:"score"`
			PV    []string `json:"pv"`
		} `json:"lines"`
	} `json:"analysis"`
}

// tab is a browser tab on the board.
type tab struct {
	t     *testing.T
	ctx   context.Context
	url   string
	pts   map[string][2]float64 // the screen centre of each point
	shots string
}

func (b *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

func eval[T any](b *tab, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("evaluate %q: %v", js, err)
	}
	return v
}

func (b *tab) js(js string) {
	b.t.Helper()
	eval[chromedp.Void](b, js)
}

func (b *tab) snap() snapshot { return eval[snapshot](b, `millApp.snapshot()`) }

// waitFor polls the page's state until cond holds.
func (b *tab) waitFor(what string, cond func(s snapshot) bool) snapshot {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := b.snap()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			b.screenshot("failure")
			b.t.Fatalf("waiting for %s: state %+v\nlog tail:\n%s", what, s, b.logTail(30))
		}
		time.Sleep(15 * time.Millisecond)
	}
}

func (b *tab) logTail(n int) string {
	return eval[string](b, fmt.Sprintf(`millApp.log(%d)`, n))
}

func (b *tab) text(id string) string {
	return eval[string](b, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// load opens the page and waits for the engine's first position.
func (b *tab) load() {
	b.t.Helper()
	b.do(chromedp.Navigate(b.url))
	b.waitFor("the board", func(s snapshot) bool { return s.Ready && s.Settled && s.FEN != "" })
	b.points()
}

// points measures where each point of the board is on the screen.
func (b *tab) points() {
	b.pts = eval[map[string][2]float64](b, `(() => { const o = {};
		for (const e of document.querySelectorAll('#hits [data-point]')) {
			const r = e.getBoundingClientRect(); o[e.dataset.point] = [r.x + r.width / 2, r.y + r.height / 2];
		}
		return o; })()`)
	if len(b.pts) != 24 {
		b.t.Fatalf("%d points on the board", len(b.pts))
	}
}

// at returns where a point of the board is on the screen now.
func (b *tab) at(p string) [2]float64 {
	b.t.Helper()
	return eval[[2]float64](b, fmt.Sprintf(`(() => {
		const e = document.querySelector('#hits [data-point=%q]');
		let r = e.getBoundingClientRect();
		if (r.top < 0 || r.bottom > innerHeight) { e.scrollIntoView({block: 'center'}); r = e.getBoundingClientRect(); }
		return [r.x + r.width / 2, r.y + r.height / 2]; })()`, p))
}

// click clicks a point of the board with the mouse.
func (b *tab) click(p string) {
	b.t.Helper()
	if _, ok := b.pts[p]; !ok {
		b.t.Fatalf("no point %q", p)
	}
	xy := b.at(p)
	b.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

// drag drags with the mouse from one point to another.
func (b *tab) drag(from, to string) {
	b.t.Helper()
	a, z := b.at(from), b.at(to)
	held := func(p *input.DispatchMouseEventParams) { p.Button, p.Buttons = input.MouseButtonLeft, 1 }
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, a[0], a[1], held, chromedp.ClickCount(1))}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, a[0]+(z[0]-a[0])*f, a[1]+(z[1]-a[1])*f, held))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, z[0], z[1], held, chromedp.ClickCount(1)))
	b.do(steps...)
}

func (b *tab) clickID(id string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS("#" + id)))
}

// choose sets a select or input to a value and fires its change event, as
// a person's choice does.
func (b *tab) choose(id, value string) {
	b.t.Helper()
	b.js(fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event('change')); })()`, id, value))
}

func (b *tab) screenshot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}

// notices returns the texts of the notices shown.
func (b *tab) notices() []string {
	return eval[[]string](b, `[...document.querySelectorAll('#notices .notice .text')].map(e => e.textContent)`)
}

func (b *tab) waitNotice(prefix string) string {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for {
		for _, n := range b.notices() {
			if strings.HasPrefix(n, prefix) {
				return n
			}
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no notice %q; notices %q", prefix, b.notices())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ---------------------------------------------------------------- the game

// game is the test's own copy of the game, kept with the rules package, to
// check every position the page shows and to choose the human's actions.
type game struct {
	t     *testing.T
	r     rules.Rules
	start position.Position
	g     *position.Game
}

func newGame(t *testing.T, r rules.Rules, fen string) *game {
	t.Helper()
	start := position.New(&r)
	if fen != "" {
		var err error
		if start, err = position.ParseFEN(&r, fen); err != nil {
			t.Fatal(err)
		}
	}
	return &game{t: t, r: r, start: start, g: position.NewGame(r, start)}
}

// replay returns the game after tokens from the start.
func (gm *game) replay(tokens []string) *position.Game {
	gm.t.Helper()
	g := position.NewGame(gm.r, gm.start)
	testkit.Play(gm.t, g, tokens...)
	return g
}

func legalTokens(g *position.Game) []string {
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	var toks []string
	for _, m := range ml.Slice() {
		toks = append(toks, m.String())
	}
	sort.Strings(toks)
	return toks
}

func resultString(p *position.Position) string {
	if !p.IsOver() {
		return "ongoing"
	}
	res, why := p.Result()
	return fmt.Sprintf("%s (%s)", res, why)
}

// check compares the page's state with the game after its moves.
func (gm *game) check(s snapshot) *position.Game {
	gm.t.Helper()
	g := gm.replay(s.Moves[:s.Cursor])
	if s.FEN != g.Pos.FEN() {
		gm.t.Fatalf("after %q the page shows %s, want %s", s.Moves[:s.Cursor], s.FEN, g.Pos.FEN())
	}
	if want := legalTokens(g); !slices.Equal(s.Legal, want) && !(len(s.Legal) == 0 && len(want) == 0) {
		gm.t.Fatalf("legal actions %q, want %q", s.Legal, want)
	}
	if want := resultString(&g.Pos); s.Result != want {
		gm.t.Fatalf("result %q, want %q", s.Result, want)
	}
	return g
}

// humanPolicy chooses White's action: while placing it builds toward a mill
// until it has closed one, then blocks Black's mills and keeps room to move;
// once moving it gives Black mills (keeping a way out), so that White soon
// flies and the game ends. Ties go to the first token in sorted order, so the
// game is the same every run.
func humanPolicy(g *position.Game, millsClosed int) string {
	p := &g.Pos
	toks := legalTokens(g)
	if p.Action() == position.Remove {
		return toks[0]
	}
	type cand struct {
		tok                  string
		closes, safe         bool
		threats, twos, worst int
		room                 int  // empty points next to White's pieces
		far                  bool // a fly to a point that is not a neighbour
	}
	placing := p.InHand(position.White) > 0
	// Give Black mills while White has pieces to spare: after its own mill
	// while placing, and always once moving.
	give := !placing || (millsClosed > 0 && p.OnBoard(position.White)+p.InHand(position.White) > 4)
	better := func(a, b *cand) bool {
		switch {
		case millsClosed == 0 && a.closes != b.closes:
			return a.closes
		case a.safe != b.safe:
			return a.safe
		case !placing && (a.worst >= 2) != (b.worst >= 2):
			return a.worst >= 2
		case placing && millsClosed == 0 && a.twos != b.twos:
			return a.twos > b.twos
		case a.threats != b.threats:
			return (a.threats > b.threats) == give
		}
		if a.far != b.far {
			return a.far
		}
		if a.room != b.room {
			return a.room > b.room
		}
		return a.worst > b.worst
	}
	var best *cand
	for _, tok := range toks {
		m, _ := movegen.ParseLegal(&g.Rules, p, tok)
		q := *p
		q.Do(&g.Rules, m)
		c := &cand{tok: tok, closes: q.PendingRemovals(position.White) > 0, worst: 99, safe: true}
		c.far = m.Kind() == position.KindSlide && g.Rules.Topology().Adjacent[m.From()]&(1<<m.To()) == 0
		if !c.closes && !q.IsOver() {
			c.worst = worstMobility(&g.Rules, &q)
			c.safe = c.worst > 0
			c.threats = millThreats(&g.Rules, &q)
			c.twos = openTwos(&g.Rules, &q, position.White)
			c.room = room(&g.Rules, &q, position.White)
		}
		if best == nil || better(c, best) {
			best = c
		}
	}
	return best.tok
}

// worstMobility returns the fewest legal actions White has after any reply
// of Black in q (with its removals); 99 when a reply ends the game other than
// by blocking White.
func worstMobility(r *rules.Rules, q *position.Position) int {
	var ml movegen.MoveList
	movegen.Generate(r, q, &ml)
	worst := 99
	for _, m := range ml.Slice() {
		x := *q
		x.Do(r, m)
		switch _, why := x.Result(); {
		case x.SideToMove() == position.Black && !x.IsOver():
			worst = min(worst, worstMobility(r, &x))
		case x.IsOver() && why == position.NoLegalMove:
			return 0
		case !x.IsOver():
			worst = min(worst, movegen.Count(r, &x))
		}
	}
	return worst
}

// room counts the empty points next to c's pieces.
func room(r *rules.Rules, q *position.Position, c position.Color) int {
	t := r.Topology()
	var near bitboard.Bitboard
	for s := range t.Adjacent {
		if q.Pieces(c)&(1<<s) != 0 {
			near |= t.Adjacent[s]
		}
	}
	return (near & q.Empty()).Count()
}

// millThreats counts the actions of the side to move in q that close a mill.
func millThreats(r *rules.Rules, q *position.Position) int {
	var ml movegen.MoveList
	movegen.Generate(r, q, &ml)
	n := 0
	side := q.SideToMove()
	for _, m := range ml.Slice() {
		x := *q
		x.Do(r, m)
		if x.PendingRemovals(side) > 0 {
			n++
		}
	}
	return n
}

// openTwos counts the mills c could close with one more piece on an empty
// point.
func openTwos(r *rules.Rules, q *position.Position, c position.Color) int {
	n := 0
	for _, line := range r.Topology().Lines {
		own := (q.Pieces(c) & line).Count()
		empty := (q.Empty() & line).Count()
		if own == 2 && empty == 1 {
			n++
		}
	}
	return n
}

// exportText has the page export its game (Copy PGN) and returns the PGN
// it shows.
func (b *tab) exportText() string {
	b.t.Helper()
	b.js(`document.getElementById('moves-text').value = ''`)
	b.clickID("copy-pgn")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if text := eval[string](b, `document.getElementById('moves-text').value`); strings.HasPrefix(text, "[Event ") {
			return text
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no PGN shown; notices %q", b.notices())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkRecord reads a PGN the page exported with the record package and
// checks its tags and that it replays to the moves (from fen, if not "").
func checkRecord(t *testing.T, text, fen string, moves []string) *record.Game {
	t.Helper()
	games, err := record.Parse([]byte(text))
	if err != nil || len(games) != 1 {
		t.Fatalf("the exported PGN does not read back (%v):\n%s", err, text)
	}
	g := &games[0]
	for name, want := range map[string]string{"Site": "millengine", "Date": time.Now().Format("2006.01.02"), "PlyCount": fmt.Sprint(len(moves))} {
		if v, _ := g.Tag(name); v != want {
			t.Errorf("tag %s %q, want %q", name, v, want)
		}
	}
	f, hasFEN := g.Tag("FEN")
	if su, _ := g.Tag("SetUp"); hasFEN != (fen != "") || f != fen || hasFEN && su != "1" {
		t.Errorf("FEN %q SetUp %q, want FEN %q", f, su, fen)
	}
	rp, err := record.Replay(g, nil)
	if err != nil {
		t.Fatalf("the exported game does not replay: %v", err)
	}
	var got []string
	for _, m := range rp.Game.Moves {
		got = append(got, m.String())
	}
	if !slices.Equal(got, moves) {
		t.Fatalf("the exported game has %q, the page %q", got, moves)
	}
	return g
}

// gameFEN is a position late in the placing phase: White has an open two to
// close and two pieces in hand, Black threatens two mills. A game from it
// goes on through a mill and its removal (White's first turn is g7xc5),
// slides and flying to a rules ending in some twenty actions.
const gameFEN = "*@*@@@*@/*****O**/O******O w p p 3 2 5 2 0 0 0 0 0 0 0 0 15"

// movingFEN is a position of the moving phase, White to move.
const movingFEN = "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"

// loadFEN pastes a FEN in the page's field, loads it and waits for it.
func (b *tab) loadFEN(fen string) snapshot {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.CSS("#fen"), fen))
	b.clickID("load-fen")
	return b.waitFor("the pasted position", func(s snapshot) bool { return s.Settled && s.FEN == fen })
}

// act plays an action token by the mouse: a click on the point to place on
// or to remove from; for a slide or a fly, clicks on its two points or,
// with drag, a drag from one to the other.
func (b *tab) act(m position.Move, tok string, drag bool) {
	b.t.Helper()
	switch m.Kind() {
	case position.KindPlace:
		b.click(tok)
	case position.KindRemove:
		b.click(tok[1:])
	case position.KindSlide:
		from, to, _ := strings.Cut(tok, "-")
		if drag {
			b.drag(from, to)
		} else {
			b.click(from)
			b.click(to)
		}
	}
}

// answered waits until the page has played after the first n tokens and it
// is White's turn again (or the game is over); it checks that the page
// played tok, White's action, first.
func (b *tab) answered(n int, tok string) snapshot {
	b.t.Helper()
	s := b.waitFor(fmt.Sprintf("the answer to %s", tok), func(s snapshot) bool {
		return len(s.Moves) > n && s.Settled && (s.Side == "white" || s.Result != "ongoing")
	})
	if s.Moves[n] != tok {
		b.t.Fatalf("clicked %s, the page played %q", tok, s.Moves[n:])
	}
	return s
}

// TestBrowserLoad loads the page five times and logs how long the page and
// the board (the engine started, uci, the first position shown) took; the
// board shows the start of Nine Men's Morris and the engine's name and pid.
func TestBrowserLoad(t *testing.T) {
	_, b := boardTab(t, Config{Engine: millengineCmd(t)}, "")
	var loads, readies []float64
	for range 5 {
		b.load()
		nav := eval[map[string]float64](b, `(() => { const n = performance.getEntriesByType('navigation')[0];
			return {load: n.loadEventEnd, dom: n.domContentLoadedEventEnd, ready: millStats.ready}; })()`)
		loads, readies = append(loads, nav["load"]), append(readies, nav["ready"])
	}
	slices.Sort(loads)
	slices.Sort(readies)
	t.Logf("page load (navigation start to load event) over 5 loads: min %.0f ms, median %.0f ms, max %.0f ms", loads[0], loads[2], loads[4])
	t.Logf("board ready (engine started, uci, first position shown): min %.0f ms, median %.0f ms, max %.0f ms", readies[0], readies[2], readies[4])
	s := b.snap()
	if s.FEN != "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1" || s.Variant != "nine-mens-morris" || len(s.Legal) != 24 {
		t.Fatalf("start: %+v", s)
	}
	if got := b.text("engine-name"); !strings.HasPrefix(got, "millengine web-test · pid ") {
		t.Fatalf("engine name %q", got)
	}
	// The tab is the size of the shared browser's windows.
	if w := eval[int](b, `innerWidth`); w != 1280 {
		t.Fatalf("the tab is %d px wide, want 1280", w)
	}
}

// TestBrowserGame plays a whole game against the engine by the mouse, from
// gameFEN: placing, a mill and its removal, sliding by a drag and by
// clicks, flying, to a rules ending; then takes back from the end. Every
// position the page shows is checked against the rules package. The
// latencies from a click to the engine's answer are logged.
func TestBrowserGame(t *testing.T) {
	b := engineTab(t, "2")
	gm := newGame(t, rules.Default(), gameFEN)
	s := b.loadFEN(gameFEN)
	var (
		millsClosed, places, slides, flies, farFlies, removals, drags int
		shot                                                          = map[string]bool{}
	)
	for ply := 0; s.Result == "ongoing"; ply++ {
		if ply > 400 {
			t.Fatalf("no result after %d human actions: %q", ply, s.Moves)
		}
		g := gm.check(s)
		if s.Side != "white" {
			t.Fatalf("the page waits with %s to move: %+v", s.Side, s)
		}
		p := &g.Pos
		flying := p.InHand(position.White) == 0 && p.OnBoard(position.White) <= g.Rules.FlyPieceCount && p.Action() != position.Remove
		switch {
		case p.Action() == position.Place && !shot["placing"]:
			b.screenshot("1-placing")
			shot["placing"] = true
		case p.Action() == position.Remove && !shot["removal"]:
			b.screenshot("2-mill-removal")
			shot["removal"] = true
		case p.Phase() == position.Moving && !flying && !shot["moving"]:
			b.screenshot("3-moving")
			shot["moving"] = true
		case flying && !shot["flying"]:
			b.screenshot("4-flying")
			shot["flying"] = true
		}
		tok := humanPolicy(g, millsClosed)
		n := len(s.Moves)
		m, _ := movegen.ParseLegal(&g.Rules, p, tok)
		drag := false
		switch m.Kind() {
		case position.KindPlace:
			places++
		case position.KindRemove:
			removals++
		case position.KindSlide:
			if flying {
				flies++
				if g.Rules.Topology().Adjacent[m.From()]&(1<<m.To()) == 0 {
					farFlies++
				}
			} else {
				slides++
				drag = drags == 0
			}
		}
		if drag {
			drags++
		}
		b.act(m, tok, drag)
		q := *p
		q.Do(&g.Rules, m)
		if q.PendingRemovals(position.White) > 0 {
			millsClosed++
		}
		s = b.answered(n, tok)
	}
	g := gm.check(s)
	final := s
	b.screenshot("5-game-over")
	want := resultString(&g.Pos)
	if got := b.text("result"); got != "Game over: "+want {
		t.Fatalf("result shown %q, want %q", got, "Game over: "+want)
	}
	t.Logf("%d plies: %s; White placed %d, closed %d mills, removed %d, slid %d (%d by drag), flew %d (%d to a far point): %s",
		len(s.Moves), want, places, millsClosed, removals, slides, drags, flies, farFlies, strings.Join(s.Moves, " "))
	if places < 2 || millsClosed < 1 || removals < 1 || slides < 2 || drags != 1 || farFlies < 1 {
		t.Fatalf("the game did not show every kind of action: %d places, %d mills, %d removals, %d slides, %d flies", places, millsClosed, removals, slides, flies)
	}
	logLatency(t, b)

	// Take back undoes the engine's last turn and White's before it; the
	// result goes.
	sides := sidesOf(gm, final.Moves)
	keep := len(final.Moves)
	for keep > 0 && sides[keep-1] == position.Black {
		keep--
	}
	for keep > 0 && sides[keep-1] == position.White && strings.HasPrefix(final.Moves[keep-1], "x") {
		keep--
	}
	keep-- // White's action itself
	b.clickID("takeback")
	s = b.waitFor("the take back", func(s snapshot) bool { return s.Settled && len(s.Moves) == keep })
	if !slices.Equal(s.Moves, final.Moves[:keep]) || s.Side != "white" || s.Result != "ongoing" {
		t.Fatalf("after take back: %d moves, side %s, result %s", len(s.Moves), s.Side, s.Result)
	}
	gm.check(s)
	if got := b.text("result"); got != "" {
		t.Fatalf("result still shown: %q", got)
	}
}

// logLatency logs the figures the page keeps of the times from a click to
// the engine's answer and to the board showing it, less the engine's own
// search time. They are figures, not pass marks.
func logLatency(t *testing.T, b *tab) {
	t.Helper()
	lat := eval[[]map[string]float64](b, `millStats.moves.map(m => ({ms: m.ms, shown: m.shownMs, engine: m.engineMs}))`)
	if len(lat) == 0 {
		t.Fatal("no latency figures: the page recorded no answer to a click")
	}
	var answer, shown []float64
	for _, l := range lat {
		answer = append(answer, l["ms"]-l["engine"])
		shown = append(shown, l["shown"]-l["engine"])
	}
	for _, f := range []struct {
		what string
		d    []float64
	}{{"bestmove received", answer}, {"engine's action shown on the board", shown}} {
		slices.Sort(f.d)
		t.Logf("click to %s, less the engine's search time, over %d answers: min %.1f ms, median %.1f ms, max %.1f ms",
			f.what, len(f.d), f.d[0], f.d[len(f.d)/2], f.d[len(f.d)-1])
	}
}

// TestBrowserNavigation plays three turns from gameFEN, then steps through
// the game with the buttons and the move list (one entry per turn, the
// current one marked), exports it (its FEN, SetUp and moves, written by the
// server) and flips the board round and back.
func TestBrowserNavigation(t *testing.T) {
	b := engineTab(t, "1")
	gm := newGame(t, rules.Default(), gameFEN)
	s := b.loadFEN(gameFEN)
	millsClosed := 0
	for range 3 {
		g := gm.check(s)
		tok := humanPolicy(g, millsClosed)
		m, _ := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		q := g.Pos
		q.Do(&g.Rules, m)
		if q.PendingRemovals(position.White) > 0 {
			millsClosed++
		}
		n := len(s.Moves)
		b.act(m, tok, false)
		if s = b.answered(n, tok); s.Result != "ongoing" {
			t.Fatalf("the game ended early: %q", s.Moves)
		}
	}
	gm.check(s)
	played := len(s.Moves)
	b.clickID("first")
	s = b.waitFor("the first position", func(s snapshot) bool { return s.Settled && s.Cursor == 0 })
	gm.check(s)
	b.clickID("forward")
	b.clickID("forward")
	s = b.waitFor("two forward", func(s snapshot) bool { return s.Settled && s.Cursor == 2 })
	gm.check(s)
	b.clickID("back")
	s = b.waitFor("one back", func(s snapshot) bool { return s.Settled && s.Cursor == 1 })
	gm.check(s)
	// A click on the fourth turn of the list goes to its end and marks it.
	end := eval[int](b, `Number(document.querySelector('#movelist [data-turn="3"]').dataset.ply)`)
	b.do(chromedp.Click(chromedp.CSS(`#movelist [data-turn="3"]`)))
	s = b.waitFor("the 4th turn", func(s snapshot) bool { return s.Settled && s.Cursor == end })
	gm.check(s)
	if cur := eval[string](b, `document.querySelector('#movelist .turn.current').dataset.turn`); cur != "3" || end < 4 {
		t.Fatalf("current turn in the list: %s (its end %d)", cur, end)
	}
	if s.Thinking || s.Searches != 0 {
		t.Fatalf("the engine moves while the game is browsed: %+v", s)
	}
	b.clickID("last")
	s = b.waitFor("the last position", func(s snapshot) bool { return s.Settled && s.Cursor == played })
	gm.check(s)
	// The game as PGN, written by the server: its FEN, SetUp and moves.
	text := b.exportText()
	checkRecord(t, text, gameFEN, s.Moves)
	if !strings.Contains(text, "\n1. g7xc5 ") {
		t.Fatalf("PGN %q", text)
	}
	// Flip turns the board round; flip back.
	a7 := eval[string](b, `document.querySelector('#hits [data-point="a7"]').getAttribute('cx')`)
	b.clickID("flip")
	b.points()
	flipped := eval[string](b, `document.querySelector('#hits [data-point="a7"]').getAttribute('cx')`)
	if a7 != "0" || flipped != "6" {
		t.Fatalf("a7 at x %s, flipped %s", a7, flipped)
	}
	b.clickID("flip")
	b.points()
	if x := eval[string](b, `document.querySelector('#hits [data-point="a7"]').getAttribute('cx')`); x != "0" {
		t.Fatalf("a7 at x %s after flipping back", x)
	}
}

// TestBrowserVariant changes the variant (Morabaraba: twelve pieces, the
// diagonals, a game against the engine) and one rule option (ten pieces:
// custom rules; an out-of-range value refused by the page), then goes back
// to Nine Men's Morris.
func TestBrowserVariant(t *testing.T) {
	b := engineTab(t, "1")
	b.choose("variant", "morabaraba")
	s := b.waitFor("Morabaraba", func(s snapshot) bool { return s.Settled && s.Variant == "morabaraba" && len(s.Moves) == 0 })
	if s.FEN != "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1" || s.Hand["white"] != 12 || s.Hand["black"] != 12 {
		t.Fatalf("Morabaraba start: %+v", s)
	}
	if n := eval[int](b, `document.querySelectorAll('#lines line').length`); n != 20 {
		t.Fatalf("%d lines drawn, want 20 with the diagonals", n)
	}
	if c := b.text("hand-white"); !strings.Contains(c, "12 in hand") {
		t.Fatalf("hand %q", c)
	}
	mora, _ := rules.PresetByName("morabaraba")
	mg := newGame(t, mora.Rules, "")
	b.click("a7")
	s = b.waitFor("the engine's answer in Morabaraba", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	mg.check(s)
	b.screenshot("6-morabaraba")
	// A single rule option: ten pieces; the variant becomes custom.
	b.js(`document.getElementById('advanced').open = true`)
	b.js(`(() => { const e = document.querySelector('#rule-options input[data-option="PiecesCount"]'); e.value = '10'; e.dispatchEvent(new Event('change')); })()`)
	s = b.waitFor("PiecesCount 10", func(s snapshot) bool { return s.Settled && s.Variant == "" && len(s.Moves) == 0 })
	if s.FEN != "********/********/******** w p p 0 10 0 10 0 0 0 0 0 0 0 0 1" {
		t.Fatalf("PiecesCount 10: %s", s.FEN)
	}
	// An out-of-range value is refused by the page and changes nothing.
	b.js(`(() => { const e = document.querySelector('#rule-options input[data-option="PiecesCount"]'); e.value = '13'; e.dispatchEvent(new Event('change')); })()`)
	b.waitNotice("PiecesCount: 13 is not a whole number in 9..12")
	if v := eval[string](b, `document.querySelector('#rule-options input[data-option="PiecesCount"]').value`); v != "10" {
		t.Fatalf("PiecesCount input %q after a refused value", v)
	}
	b.choose("variant", "nine-mens-morris")
	s = b.waitFor("Nine Men's Morris", func(s snapshot) bool { return s.Settled && s.Variant == "nine-mens-morris" && len(s.Moves) == 0 })
	if s.FEN != "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1" {
		t.Fatalf("back to nine men's morris: %s", s.FEN)
	}
	if n := eval[int](b, `document.querySelectorAll('#lines line').length`); n != 16 {
		t.Fatalf("%d lines drawn, want 16", n)
	}
}

// TestBrowserFEN pastes a bad FEN (refused with the engine's message, the
// game kept), then a position of the moving phase, plays in it and exports
// the game with its FEN.
func TestBrowserFEN(t *testing.T) {
	b := engineTab(t, "1")
	b.click("d6")
	before := b.waitFor("a game to keep", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	b.do(chromedp.SetValue(chromedp.CSS("#fen"), "O@O*****/nonsense w m s"))
	b.clickID("load-fen")
	n := b.waitNotice("That FEN was refused: error: position fen: ")
	t.Logf("notice: %s", n)
	s := b.waitFor("the old game", func(s snapshot) bool { return s.Settled })
	if s.FEN != before.FEN || !slices.Equal(s.Moves, before.Moves) {
		t.Fatalf("a bad FEN changed the game: %+v, was %+v", s, before)
	}
	s = b.loadFEN(movingFEN)
	fg := newGame(t, rules.Default(), movingFEN)
	fg.check(s)
	if s.Phase != "moving" || s.Side != "white" || len(s.Moves) != 0 {
		t.Fatalf("pasted: %+v", s)
	}
	if v := eval[string](b, `document.getElementById('fen').value`); v != movingFEN {
		t.Fatalf("FEN field %q", v)
	}
	// The exported game of a set-up position carries its FEN.
	tok := legalTokens(fg.replay(nil))[0]
	from, to, _ := strings.Cut(tok, "-")
	b.click(from)
	b.click(to)
	s = b.waitFor("the engine's answer", func(s snapshot) bool { return s.Settled && len(s.Moves) >= 2 && s.Side == "white" })
	fg.check(s)
	checkRecord(t, b.exportText(), movingFEN, s.Moves)
}

// TestBrowserEngineCrash kills the tab's engine in a game from a FEN: the
// page says so, the server starts another engine, the page sets it up
// again (the variant and the level chosen) and the game is the same and
// goes on.
func TestBrowserEngineCrash(t *testing.T) {
	b := engineTab(t, "1")
	b.choose("level", "casual")
	b.waitFor("the level", func(s snapshot) bool {
		return s.Settled && strings.Contains(b.logTail(40), "> setoption name UCI_Elo value 760")
	})
	fg := newGame(t, rules.Default(), movingFEN)
	s := b.loadFEN(movingFEN)
	from, to, _ := strings.Cut(s.Legal[0], "-")
	b.click(from)
	b.click(to)
	before := b.waitFor("the engine's answer", func(s snapshot) bool { return s.Settled && len(s.Moves) >= 2 && s.Side == "white" })
	fg.check(before)
	name := b.text("engine-name")
	var pid int
	if _, err := fmt.Sscanf(name[strings.LastIndex(name, "pid "):], "pid %d", &pid); err != nil {
		t.Fatalf("engine name %q: %v", name, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	b.waitNotice("the engine exited (signal: killed")
	b.waitNotice("The engine was restarted (restart 1).")
	s = b.waitFor("the game after the restart", func(s snapshot) bool {
		return s.Ready && s.Settled && !strings.HasSuffix(b.text("engine-name"), fmt.Sprintf("pid %d", pid))
	})
	if s.FEN != before.FEN || !slices.Equal(s.Moves, before.Moves) {
		t.Fatalf("after the restart: %s %q, was %s %q", s.FEN, s.Moves, before.FEN, before.Moves)
	}
	fg.check(s)
	// The new engine was given the tab's variant and level, and the Level
	// select shows it.
	var restored []string
	for _, l := range strings.Split(b.logTail(400), "\n") {
		if strings.HasPrefix(l, "engine started") {
			restored = nil
		} else if strings.HasPrefix(l, "> setoption ") {
			restored = append(restored, l)
		}
	}
	if want := []string{"> setoption name Variant value nine-mens-morris", "> setoption name UCI_LimitStrength value true",
		"> setoption name UCI_Elo value 760"}; !slices.Equal(restored, want) {
		t.Fatalf("the new engine was sent %q, want %q", restored, want)
	}
	if v := eval[string](b, `document.getElementById('level').value`); v != "casual" {
		t.Fatalf("Level select at %q after the restart, want casual", v)
	}
	b.js(`document.querySelectorAll('#notices .notice button').forEach(e => e.click())`)
	// The new engine plays on.
	n := len(s.Moves)
	tok := s.Legal[0]
	m, err := movegen.ParseLegal(&fg.r, &fg.replay(s.Moves).Pos, tok)
	if err != nil {
		t.Fatal(err)
	}
	b.act(m, tok, false)
	fg.check(b.answered(n, tok))
}

// TestBrowserModes plays human against human (an illegal click changes
// nothing), Black against the engine (the board turned round), engine
// against engine (at the pace of a person, and stopped), and White on a
// clock (White's runs while White thinks; the engine gets the clocks).
func TestBrowserModes(t *testing.T) {
	b := engineTab(t, "1")
	b.choose("mode", "hvh")
	b.clickID("newgame")
	b.waitFor("a new game", func(s snapshot) bool { return s.Settled && len(s.Moves) == 0 })
	b.click("d6")
	b.waitFor("d6", func(s snapshot) bool { return s.Settled && len(s.Moves) == 1 })
	b.click("f4")
	s := b.waitFor("f4", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	if !slices.Equal(s.Moves, []string{"d6", "f4"}) || s.Searches != 0 {
		t.Fatalf("human vs human: %+v", s)
	}
	// A click that is not legal changes nothing.
	b.click("d6")
	time.Sleep(100 * time.Millisecond)
	if s := b.snap(); len(s.Moves) != 2 {
		t.Fatalf("an illegal click played: %q", s.Moves)
	}
	// You play Black: the engine opens as White and the board turns round.
	b.choose("mode", "evh")
	b.clickID("newgame")
	s = b.waitFor("the engine's first action", func(s snapshot) bool { return s.Settled && len(s.Moves) == 1 && s.Side == "black" })
	newGame(t, rules.Default(), "").check(s)
	if x := eval[string](b, `document.querySelector('#hits [data-point="a7"]').getAttribute('cx')`); x != "6" {
		t.Fatalf("board not turned for Black: a7 at x %s", x)
	}
	b.click(s.Legal[0])
	s = b.waitFor("the engine's second action", func(s snapshot) bool { return s.Settled && len(s.Moves) == 3 && s.Side == "black" })
	newGame(t, rules.Default(), "").check(s)
	// Engine against engine, at a pace a person can follow: at least 250 ms
	// an action (a lower bound).
	b.choose("mode", "hvh")
	b.choose("mode", "eve")
	t0 := time.Now()
	b.waitFor("engine vs engine", func(s snapshot) bool { return len(s.Moves) >= 8 })
	if el := time.Since(t0); el < 4*250*time.Millisecond {
		t.Fatalf("5 engine actions in %v: faster than the pace of 250 ms", el)
	}
	b.choose("mode", "hvh")
	s = b.waitFor("the engines to stop", func(s snapshot) bool { return s.Settled && s.Searches == 0 })
	time.Sleep(150 * time.Millisecond)
	if s2 := b.snap(); len(s2.Moves) != len(s.Moves) {
		t.Fatalf("the engines went on: %d then %d moves", len(s.Moves), len(s2.Moves))
	}
	gm := newGame(t, rules.Default(), "")
	gm.check(s)
	// A clock: White's runs while White thinks.
	b.choose("mode", "hve")
	b.choose("limit", "clock")
	b.choose("clock-base", "1")
	b.choose("clock-inc", "0")
	b.clickID("newgame")
	b.waitFor("a new game", func(s snapshot) bool { return s.Settled && len(s.Moves) == 0 })
	c1 := b.text("clock-white")
	time.Sleep(1200 * time.Millisecond)
	c2 := b.text("clock-white")
	if c1 == c2 || !strings.HasPrefix(c2, "White 0:5") || b.text("clock-black") != "Black 1:00" {
		t.Fatalf("clocks: white %q then %q, black %q", c1, c2, b.text("clock-black"))
	}
	b.click("a1")
	s = b.waitFor("the engine's answer on the clock", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	if !strings.Contains(b.logTail(60), "> go wtime ") {
		t.Fatalf("no clock go in the log:\n%s", b.logTail(8))
	}
	gm.check(s)
}

// TestBrowserAnalysis analyses a position of the moving phase: one line,
// then three (MultiPV), each line's item kept as the search deepens, a
// line previewed on the board; table values, book moves, mate scores and an
// engine error fed to the page as engine lines; stop.
func TestBrowserAnalysis(t *testing.T) {
	_, b := boardTab(t, Config{Engine: millengineCmd(t)}, "")
	b.loadFEN(movingFEN)
	fg := newGame(t, rules.Default(), movingFEN)
	b.clickID("analyse")
	s := b.waitFor("depth 6", func(s snapshot) bool { return s.Analysis.On && s.Analysis.Depth >= 6 && len(s.Analysis.Lines) == 1 })
	checkPVs(t, fg, s)
	b.choose("multipv", "3")
	s = b.waitFor("three lines", func(s snapshot) bool { return s.Analysis.Depth >= 4 && len(s.Analysis.Lines) == 3 })
	checkPVs(t, fg, s)
	if n := eval[int](b, `document.querySelectorAll('#pvs li').length`); n != 3 {
		t.Fatalf("%d lines shown", n)
	}
	// A line keeps its item while the engine deepens it: an item rebuilt
	// on each info line can vanish between a click's press and release
	// (and did, under load, between this test's query and its click).
	b.js(`document.querySelector('#pvs li[data-k="1"]').dataset.mark = 'kept'`)
	d0 := s.Analysis.Depth
	s = b.waitFor("a deeper search", func(s snapshot) bool { return s.Analysis.Depth > d0 && len(s.Analysis.Lines) == 3 })
	if m := eval[string](b, `document.querySelector('#pvs li[data-k="1"]').dataset.mark || 'replaced'`); m != "kept" {
		t.Fatalf("the second line's item was %s as the search went from depth %d to %d", m, d0, s.Analysis.Depth)
	}
	if d := b.text("an-depth"); !strings.HasPrefix(d, fmt.Sprint(s.Analysis.Depth)) && d == "–" {
		t.Fatalf("depth shown %q", d)
	}
	b.screenshot("7-analysis")
	// Preview the second line.
	pv := s.Analysis.Lines[1].PV
	b.do(chromedp.Click(chromedp.CSS(`#pvs li[data-k="1"]`)))
	s = b.waitFor("the preview", func(s snapshot) bool { return s.Preview != nil })
	want := fg.replay(nil)
	for _, tok := range pv {
		m, err := movegen.ParseLegal(&want.Rules, &want.Pos, tok)
		if err != nil {
			t.Fatalf("pv %q: %v", pv, err)
		}
		want.Play(m)
	}
	// The line may have changed between the snapshot and the click.
	shown := eval[string](b, `document.getElementById('board').dataset.fen`)
	if *s.Preview != shown || (*s.Preview != want.Pos.FEN() && !strings.Contains(b.logTail(400), strings.Join(pv, " "))) {
		t.Fatalf("preview shows %s (board %s), want %s", *s.Preview, shown, want.Pos.FEN())
	}
	b.clickID("preview-exit")
	s = b.waitFor("the end of the preview", func(s snapshot) bool { return s.Preview == nil })
	if got := eval[string](b, `document.getElementById('board').dataset.fen`); got != movingFEN {
		t.Fatalf("board after the preview: %s", got)
	}
	// Table values, when the engine gives them, are shown per move.
	b.js(`millApp.engineLine('info string egtb win 3 moves a1-d1 win 3 g7-g4 draw c3-d3 loss 2')`)
	rows := eval[[][]string](b, `[...document.querySelectorAll('#egtb-moves tr')].map(tr => [...tr.cells].map(c => c.textContent))`)
	if !slices.EqualFunc(rows, [][]string{{"a1-d1", "win in 3"}, {"g7-g4", "draw"}, {"c3-d3", "loss in 2"}}, slices.Equal) ||
		b.text("egtb-root") != "(win in 3)" || eval[bool](b, `document.getElementById('egtb').hidden`) {
		t.Fatalf("table rows %q, root %q", rows, b.text("egtb-root"))
	}
	b.js(`millApp.engineLine('info string egtb win moves a1-d1')`)
	b.waitNotice("Could not read the engine's table line (bad count after win)")
	if !eval[bool](b, `document.getElementById('egtb').hidden`) {
		t.Fatal("a bad table line left the table shown")
	}
	// The opening book's actions, when the engine gives them, likewise.
	b.js(`millApp.engineLine('info string book depth 14 moves d6 12 f4 9 b4 -3')`)
	rows = eval[[][]string](b, `[...document.querySelectorAll('#book-moves tr')].map(tr => [...tr.cells].map(c => c.textContent))`)
	if !slices.EqualFunc(rows, [][]string{{"d6", "+0.12"}, {"f4", "+0.09"}, {"b4", "-0.03"}}, slices.Equal) ||
		b.text("book-depth") != "(depth 14)" || eval[bool](b, `document.getElementById('book').hidden`) {
		t.Fatalf("book rows %q, depth %q", rows, b.text("book-depth"))
	}
	// A proven book position: its value beside the depth, a book action
	// that gives it up marked as a loss.
	b.js(`millApp.engineLine('info string book depth 14 moves d6 12 f4 9 proven draw keep d6 b4')`)
	rows = eval[[][]string](b, `[...document.querySelectorAll('#book-moves tr')].map(tr => [...tr.cells].map(c => c.textContent + '/' + c.className))`)
	if !slices.EqualFunc(rows, [][]string{{"d6/", "+0.12/"}, {"f4/", "+0.09/loss"}}, slices.Equal) || b.text("book-depth") != "(depth 14, proven draw)" {
		t.Fatalf("proven book rows %q, depth %q", rows, b.text("book-depth"))
	}
	b.js(`millApp.engineLine('info string book depth 14 moves d6')`)
	b.waitNotice("Could not read the engine's book line (bad score after d6)")
	if !eval[bool](b, `document.getElementById('book').hidden`) {
		t.Fatal("a bad book line left the book shown")
	}
	// Mate scores read as a win or a loss in so many turns of the side to
	// move (White here); the bar shows them from White's side.
	for _, tc := range []struct{ score, text, bar string }{{"mate 3", "win in 3", "mate 3"}, {"mate -2", "loss in 2", "mate -2"}, {"cp -137", "-1.37", "-137"}} {
		got := eval[[]string](b, fmt.Sprintf(`(() => {
			millApp.engineLine('info depth 40 seldepth 40 multipv 1 score %s nodes 5 nps 5 hashfull 5 time 5 pv c4-c5');
			return [document.getElementById('an-score').textContent, document.getElementById('evalbar').dataset.score,
				document.querySelector('#pvs li[data-k="0"] .score').textContent]; })()`, tc.score))
		if !slices.Equal(got, []string{tc.text, tc.bar, tc.text}) {
			t.Fatalf("score %s shown as %q, want %q, bar %q", tc.score, got, tc.text, tc.bar)
		}
	}
	// An error the engine reports out of the blue is shown, not swallowed.
	b.js(`millApp.engineLine('info string error: the tables are damaged')`)
	b.waitNotice("Engine: error: the tables are damaged")
	// Stop: the engine answers the stop and the figures stay still.
	b.clickID("analyse")
	s = b.waitFor("the analysis to stop", func(s snapshot) bool { return !s.Analysis.On && s.Searches == 0 && s.Settled })
	depth := s.Analysis.Depth
	time.Sleep(300 * time.Millisecond)
	if s2 := b.snap(); s2.Analysis.Depth != depth || s2.Searches != 0 {
		t.Fatalf("the analysis went on after stop: depth %d then %d", depth, s2.Analysis.Depth)
	}
	tail := b.logTail(400)
	i := strings.LastIndex(tail, "> stop")
	if i < 0 || !strings.Contains(tail[i:], "bestmove ") {
		t.Fatalf("no stop and bestmove in the log:\n%s", tail)
	}
	if got := b.text("an-score"); got == "–" {
		t.Fatal("no score shown")
	}
}

// TestBrowserPhone shows the board on a phone's screen (390 px wide): it
// fits, and a move by taps is played.
func TestBrowserPhone(t *testing.T) {
	b := engineTab(t, "1")
	s := b.loadFEN(movingFEN)
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.js(`window.scrollTo(0, 0)`)
	r := eval[[]float64](b, `(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.left, r.right, r.width]; })()`)
	if r[0] < 0 || r[1] > 390 || r[2] < 300 {
		t.Fatalf("board at %v on a 390 px wide screen", r)
	}
	b.screenshot("8-phone")
	fg := newGame(t, rules.Default(), movingFEN)
	fg.check(s)
	from, to, _ := strings.Cut(s.Legal[0], "-")
	b.click(from)
	b.click(to)
	s = b.waitFor("a move on the phone", func(s snapshot) bool { return s.Settled && len(s.Moves) >= 2 && s.Side == "white" })
	if s.Moves[0] != from+"-"+to {
		t.Fatalf("played %q, want %s-%s", s.Moves, from, to)
	}
	fg.check(s)
}

// sidesOf returns the side that played each token.
func sidesOf(gm *game, moves []string) []position.Color {
	g := position.NewGame(gm.r, gm.start)
	var sides []position.Color
	for _, tok := range moves {
		sides = append(sides, g.Pos.SideToMove())
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			gm.t.Fatal(err)
		}
		g.Play(m)
	}
	return sides
}

// checkPVs checks that every line shown is legal from the position and has
// a score in the page's words.
func checkPVs(t *testing.T, gm *game, s snapshot) {
	t.Helper()
	for k, l := range s.Analysis.Lines {
		g := gm.replay(nil)
		if len(l.PV) == 0 {
			t.Fatalf("line %d has no moves", k+1)
		}
		for _, tok := range l.PV {
			m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
			if err != nil {
				t.Fatalf("line %d %q: %v", k+1, l.PV, err)
			}
			g.Play(m)
		}
		if l.Score == "–" || !(strings.HasPrefix(l.Score, "+") || strings.HasPrefix(l.Score, "-") || l.Score == "0.00" ||
			strings.HasPrefix(l.Score, "win in ") || strings.HasPrefix(l.Score, "loss in ")) {
			t.Fatalf("line %d score %q", k+1, l.Score)
		}
	}
}
