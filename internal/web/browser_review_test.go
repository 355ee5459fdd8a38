package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
)

// The browser tests of game records, reviews, hints, export, the engine
// options and what a tab may ask: each runs alone (go test -run
// '^TestBrowserReview$' ./internal/web) on its own server and in its own
// browser context of the shared browser, and keeps its screenshots in
// $MILLWEB_ARTIFACTS (default: a temporary directory).

// boardTab starts a browser test (browserTest), a server with cfg
// (loopback only) and a tab on its page, loaded.
func boardTab(t *testing.T, cfg Config, query string) (*Server, *tab) {
	t.Helper()
	browserTest(t)
	cfg.LocalOnly = true
	srv, hs := startServer(t, cfg)
	b := newTab(t, hs.URL+"/"+query)
	b.load()
	return srv, b
}

// engineTab is boardTab on millengine, its limit set to a search of depth
// plies.
func engineTab(t *testing.T, depth string) *tab {
	t.Helper()
	_, b := boardTab(t, Config{Engine: millengineCmd(t)}, "")
	b.searchDepth(depth)
	return b
}

// searchDepth sets the page's limit of the engine to a search of depth
// plies.
func (b *tab) searchDepth(depth string) {
	b.t.Helper()
	b.choose("limit", "depth")
	b.choose("depth", depth)
}

// paste pastes a record into the page's import box and loads it.
func (b *tab) paste(text string) {
	b.t.Helper()
	js, err := json.Marshal(text)
	if err != nil {
		b.t.Fatal(err)
	}
	b.js(`document.getElementById('import-text').value = ` + string(js))
	b.clickID("import")
}

// importedGame returns a record's first game, read (as the page's import
// reads it) and replayed here by the record package.
func importedGame(t *testing.T, text string) *position.Game {
	t.Helper()
	games, err := record.Import([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	rp, err := record.Replay(&games[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	return rp.Game
}

// replayed returns the engine tokens of a record's first game
// (importedGame).
func replayed(t *testing.T, text string) []string {
	t.Helper()
	out := []string{}
	for _, m := range importedGame(t, text).Moves {
		out = append(out, m.String())
	}
	return out
}

// key presses a key on the page.
func (b *tab) key(k string) {
	b.t.Helper()
	b.do(chromedp.KeyEvent(k))
}

// TestBrowserImport pastes a bad record (the reader's error is shown, the
// game kept), then a good one (the first of two games: its moves, with the
// engine playing neither side), steps through it with the keys, the buttons
// and the move list (one entry per turn, the current one marked), and opens
// a PlayOK list and a FEN from files.
func TestBrowserImport(t *testing.T) {
	b := engineTab(t, "1")
	b.click("d6")
	before := b.waitFor("the engine's answer", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })

	b.paste("[Event \"x\"]\n\n1. a7 a7 *")
	b.waitNotice("The game could not be read: game 1, ply 2 (line 3, column 7): illegal move a7: a7 is not empty")
	if s := b.snap(); !slices.Equal(s.Moves, before.Moves) || s.FEN != before.FEN {
		t.Fatalf("a bad record changed the game: %+v", s)
	}

	want := replayed(t, shortPGN)
	b.paste(shortPGN + "\n" + shortPGN)
	s := b.waitFor("the game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, want) })
	if s.Cursor != 0 || s.Variant != "nine-mens-morris" || eval[string](b, `document.getElementById('mode').value`) != "hvh" {
		t.Fatalf("loaded: %+v", s)
	}
	b.waitNotice("Game loaded (the first of 2 games): Ann – Bob, 5 turns, *.")
	gm := newGame(t, rules.Default(), "")
	turns := eval[[]string](b, `[...document.querySelectorAll('#movelist .turn')].map(e => e.textContent)`)
	if !slices.Equal(turns, []string{"a7", "b4", "d7", "f4", "g7xf4"}) {
		t.Fatalf("move list %q", turns)
	}
	current := func() string {
		return eval[string](b, `(document.querySelector('#movelist .turn.current') || {textContent: ''}).textContent`)
	}
	// The keys.
	b.key(kb.ArrowRight)
	b.key(kb.ArrowRight)
	s = b.waitFor("two forward", func(s snapshot) bool { return s.Settled && s.Cursor == 2 })
	gm.check(s)
	if c := current(); c != "b4" {
		t.Fatalf("current turn %q after two actions", c)
	}
	b.key(kb.End)
	s = b.waitFor("the end", func(s snapshot) bool { return s.Settled && s.Cursor == 6 })
	gm.check(s)
	b.key(kb.ArrowLeft) // between g7 and its removal: the turn is still g7xf4
	s = b.waitFor("one back", func(s snapshot) bool { return s.Settled && s.Cursor == 5 })
	gm.check(s)
	if c := current(); c != "g7xf4" || s.Action != "remove" {
		t.Fatalf("current turn %q, action %s", c, s.Action)
	}
	b.key(kb.Home)
	s = b.waitFor("the start", func(s snapshot) bool { return s.Settled && s.Cursor == 0 })
	if c := current(); c != "" {
		t.Fatalf("current turn %q at the start", c)
	}
	// The move list and the buttons.
	b.js(`document.querySelectorAll('#notices .notice button').forEach(e => e.click())`)
	b.do(chromedp.Click(chromedp.CSS(`#movelist [data-turn="3"]`)))
	s = b.waitFor("the fourth turn", func(s snapshot) bool { return s.Settled && s.Cursor == 4 })
	gm.check(s)
	b.clickID("forward")
	s = b.waitFor("forward", func(s snapshot) bool { return s.Settled && s.Cursor == 5 })
	gm.check(s)
	b.screenshot("import-step")
	b.clickID("first")
	b.waitFor("first", func(s snapshot) bool { return s.Settled && s.Cursor == 0 })
	b.clickID("last")
	s = b.waitFor("last", func(s snapshot) bool { return s.Settled && s.Cursor == 6 })
	if s.Thinking || s.Searches != 0 {
		t.Fatalf("the engine plays in a loaded game: %+v", s)
	}

	// Files: a PlayOK list, then a bare FEN under the current variant.
	dir := t.TempDir()
	const playok = "1. 1 2 2. 3 4 3. 5 6 *"
	path := filepath.Join(dir, "playok.txt")
	if err := os.WriteFile(path, []byte(playok), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
	wantOK := replayed(t, playok)
	s = b.waitFor("the PlayOK game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, wantOK) })
	gm.check(s)
	b.choose("variant", "morabaraba")
	b.waitFor("Morabaraba", func(s snapshot) bool { return s.Settled && s.Variant == "morabaraba" })
	const fen = "O*******/********/******** b p p 1 11 0 12 0 0 0 0 0 0 0 0 1"
	path = filepath.Join(dir, "position.txt")
	if err := os.WriteFile(path, []byte(fen+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{path}))
	s = b.waitFor("the position", func(s snapshot) bool { return s.Settled && s.FEN == fen })
	if s.Variant != "morabaraba" || len(s.Moves) != 0 || s.Side != "black" {
		t.Fatalf("the FEN under Morabaraba: %+v", s)
	}
}

// TestBrowserReview reviews a table position's blunder (exact values on the
// chart, the ?? in the move list, the summary) and a short game with a tiny
// time per position, jumps from the review's rows, and cancels a long
// review.
func TestBrowserReview(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	srv, b := boardTab(t, Config{Engine: millengineCmd(t), EGTBPath: dir}, "")
	start := time.Now()
	const tablePGN = "[FEN \"***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1\"]\n[SetUp \"1\"]\n\n1. a7-b2 *"
	b.paste(tablePGN)
	b.waitFor("the table game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, []string{"a7-b2"}) })
	b.choose("review-ms", "50")
	b.clickID("review")
	s := b.waitFor("the review", func(s snapshot) bool { return s.Reviewed == 1 && s.Review == nil })
	if !slices.Equal(s.Grades, []string{"blunder"}) {
		t.Fatalf("grades %q", s.Grades)
	}
	if got := eval[[]string](b, `[...document.querySelectorAll('#review-chart circle.exact')].map(c => c.dataset.exact)`); !slices.Equal(got, []string{"win", "loss"}) {
		t.Fatalf("exact marks %q", got)
	}
	if got := eval[string](b, `document.querySelector('#movelist [data-turn="0"]').textContent`); got != "a7-b2??" {
		t.Fatalf("move list entry %q", got)
	}
	if got := b.text("review-summary"); !strings.HasPrefix(got, "White: accuracy 0.0 %, inaccuracies 0, mistakes 0, blunders 1; the value changed at ply 1, a7-b2 (win → loss)") {
		t.Fatalf("summary %q", got)
	}
	row := eval[[]string](b, `[...document.querySelector('#review-moves tr').cells].map(c => c.textContent)`)
	if !slices.Equal(row[:5], []string{"1", "W", "a7-b2??", "blunder", "best a1-g7"}) {
		t.Fatalf("review row %q", row)
	}
	b.screenshot("review-tables")

	want := replayed(t, shortPGN)
	b.paste(shortPGN)
	b.waitFor("the short game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, want) && s.Reviewed == 0 })
	b.clickID("review")
	s = b.waitFor("the review", func(s snapshot) bool { return s.Reviewed == 6 && s.Review == nil })
	if len(s.Grades) != 6 {
		t.Fatalf("grades %q", s.Grades)
	}
	if n := eval[int](b, `document.querySelectorAll('#review-moves tr').length`); n != 6 {
		t.Fatalf("%d review rows", n)
	}
	if p := eval[string](b, `document.getElementById('review-chart').dataset.points`); p != "7" {
		t.Fatalf("%s points on the chart", p)
	}
	b.do(chromedp.Click(chromedp.CSS(`#review-moves tr[data-ply="3"]`)))
	s = b.waitFor("the third move", func(s snapshot) bool { return s.Settled && s.Cursor == 3 })
	newGame(t, rules.Default(), "").check(s)
	if cur := eval[string](b, `document.querySelector('#review-moves tr.current').dataset.ply`); cur != "3" {
		t.Fatalf("current row %s", cur)
	}
	// A click on the chart goes to the position under it.
	at := eval[[]float64](b, `(() => { const r = document.getElementById('review-chart').getBoundingClientRect();
		return [r.left + r.width * (4 + 150) / 308, r.top + r.height / 2]; })()`)
	b.clickID("first")
	b.waitFor("the start", func(s snapshot) bool { return s.Settled && s.Cursor == 0 })
	b.do(chromedp.MouseClickXY(at[0], at[1]))
	b.waitFor("the chart's middle", func(s snapshot) bool { return s.Settled && s.Cursor == 3 })
	b.screenshot("review")
	t.Logf("two reviews in %v", time.Since(start).Round(time.Millisecond))

	// A long review, cancelled after its first positions.
	long := longGame(t, 40)
	b.paste(long)
	b.waitFor("the long game", func(s snapshot) bool { return s.Settled && len(s.Moves) >= 40 })
	b.choose("review-ms", "500")
	b.clickID("review")
	b.waitFor("the review's progress", func(s snapshot) bool { return s.Review != nil && s.Review.Done >= 1 })
	b.screenshot("review-progress")
	b.clickID("review-cancel")
	b.waitNotice("The review was cancelled.")
	s = b.waitFor("no review", func(s snapshot) bool { return s.Review == nil })
	if s.Reviewed != 0 {
		t.Fatalf("a cancelled review shows %d moves", s.Reviewed)
	}
	// The server stops at once; the deadline is a hang guard.
	t0 := time.Now()
	deadline := t0.Add(10 * time.Second)
	for len(srv.reviews) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the server still reviews 10 s after the cancel")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("the review slot was free %v after the page's cancel", time.Since(t0).Round(time.Millisecond))
}

// TestBrowserHint asks for a hint in a pasted position: the engine's best
// action is legal and marked on the board; playing it clears the mark.
func TestBrowserHint(t *testing.T) {
	_, b := boardTab(t, Config{Engine: millengineCmd(t)}, "")
	const fen = "*@*@@@*@/*****O**/O******O w p p 3 2 5 2 0 0 0 0 0 0 0 0 15"
	b.do(chromedp.SetValue(chromedp.CSS("#fen"), fen))
	b.clickID("load-fen")
	b.waitFor("the position", func(s snapshot) bool { return s.Settled && s.FEN == fen })
	t0 := time.Now()
	b.clickID("hint")
	s := b.waitFor("the hint", func(s snapshot) bool { return s.Hint != nil && s.Settled })
	t.Logf("hint %s in %v", *s.Hint, time.Since(t0).Round(time.Millisecond))
	tok := *s.Hint
	if !slices.Contains(s.Legal, tok) || len(s.Moves) != 0 {
		t.Fatalf("hint %q, legal %q", tok, s.Legal)
	}
	marked := eval[[]string](b, `[...document.querySelectorAll('#marks .hint')].map(e => e.dataset.hint)`)
	var want []string
	if from, to, ok := strings.Cut(tok, "-"); ok {
		want = []string{from, to}
	} else {
		want = []string{strings.TrimPrefix(tok, "x")}
	}
	if !slices.Equal(marked, want) || eval[string](b, `document.getElementById('board').dataset.hint`) != tok {
		t.Fatalf("hint %s marked at %q", tok, marked)
	}
	b.screenshot("hint")
	b.click(strings.TrimPrefix(tok, "x"))
	s = b.waitFor("the hint played", func(s snapshot) bool { return s.Settled && len(s.Moves) >= 1 && s.Side == "white" })
	if s.Moves[0] != tok || s.Hint != nil || eval[int](b, `document.querySelectorAll('#marks .hint').length`) != 0 {
		t.Fatalf("after the hint: %+v", s)
	}
}

// TestBrowserExport downloads the game as PGN (the server writes it): a
// played game with the players' names, then a loaded one with its record's.
func TestBrowserExport(t *testing.T) {
	_, b := boardTab(t, Config{Engine: millengineCmd(t)}, "")
	dl := t.TempDir()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	c := chromedp.FromContext(b.ctx)
	if _, err := cdp.Call(ctx, c.Browser, cdpbrowser.SetDownloadBehavior,
		cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow,
			BrowserContextID: c.BrowserContextID, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	download := func() string {
		t.Helper()
		// Each download is taken out of the directory once read: two in the
		// same second have the same name.
		b.clickID("export-pgn")
		deadline := time.Now().Add(10 * time.Second)
		for {
			files, _ := filepath.Glob(filepath.Join(dl, "*.pgn"))
			if len(files) == 1 {
				f := files[0]
				text, err := os.ReadFile(f)
				if err == nil && len(text) > 0 && strings.HasSuffix(string(text), "\n") {
					if err := os.WriteFile(filepath.Join(b.shots, "export-"+filepath.Base(f)), text, 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Remove(f); err != nil {
						t.Fatal(err)
					}
					return string(text)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no download; notices %q", b.notices())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	b.searchDepth("1")
	b.click("d6")
	s := b.waitFor("the engine's answer", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	text := download()
	g := checkRecord(t, text, "", s.Moves)
	for name, want := range map[string]string{"Event": "millengine board game", "White": "Human", "Black": "millengine web-test",
		"Result": "*", "Variant": "Nine Men's Morris", "Round": "-"} {
		if v, _ := g.Tag(name); v != want {
			t.Errorf("tag %s %q, want %q", name, v, want)
		}
	}
	if shown := eval[string](b, `document.getElementById('moves-text').value`); shown != text {
		t.Fatalf("the page shows\n%s\nthe download is\n%s", shown, text)
	}
	b.screenshot("export")

	b.paste(shortPGN)
	want := replayed(t, shortPGN)
	b.waitFor("the loaded game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, want) })
	g = checkRecord(t, download(), "", want)
	for name, want := range map[string]string{"Event": "Club", "White": "Ann", "Black": "Bob"} {
		if v, _ := g.Tag(name); v != want {
			t.Errorf("tag %s %q, want %q", name, v, want)
		}
	}
}

// TestBrowserOptions: the page learns the options from the server. The rule
// options are the rules, each once under its own name (no PieceCount beside
// PiecesCount); the engine's own options (Contempt, UCI_AnalyseMode,
// BookVariety, Threads, Hash up to the server's cap) are apart, paths not
// shown; changing one keeps the game in progress. Before, Contempt and its
// like were rule options and changing one started a new game. The engine's
// levels are offered by name in the Level select (not UCI_LimitStrength and
// UCI_Elo apart); choosing one gives the engine exactly the setoptions of
// the level, read from what the engine received.
func TestBrowserOptions(t *testing.T) {
	lim := DefaultLimits
	lim.MaxHashMB = 64
	engine, received := recordingEngine(t)
	_, b := boardTab(t, Config{Engine: engine, Limits: lim}, "")
	ruleNames := eval[[]string](b, `[...document.querySelectorAll('#rule-options input')].map(e => e.dataset.option)`)
	var want []string
	for _, p := range rules.Params {
		want = append(want, p.Name)
	}
	if !slices.Equal(ruleNames, want) {
		t.Fatalf("rule options %q, want %q", ruleNames, want)
	}
	engineNames := eval[[]string](b, `[...document.querySelectorAll('#engine-options [data-engine-option]')].map(e => e.dataset.engineOption)`)
	for _, n := range []string{"Hash", "Threads", "Contempt", "UCI_AnalyseMode", "BookVariety", "Clear Hash", "SkillLevel"} {
		if !slices.Contains(engineNames, n) {
			t.Errorf("engine options %q lack %s", engineNames, n)
		}
	}
	for _, n := range []string{"Book", "EGTBPath", "PieceCount", "FlyPieceCount", "Variant", "MultiPV", "PiecesCount",
		"UCI_LimitStrength", "UCI_Elo"} {
		if slices.Contains(engineNames, n) {
			t.Errorf("engine options %q show %s", engineNames, n)
		}
	}
	if max := eval[string](b, `document.querySelector('[data-engine-option="Hash"]').max`); max != "64" {
		t.Errorf("Hash input max %s, want the server's 64", max)
	}
	b.searchDepth("1")
	b.click("d6")
	before := b.waitFor("a game in progress", func(s snapshot) bool { return s.Settled && len(s.Moves) == 2 })
	b.js(`document.getElementById('engine-box').open = true`)
	for _, tc := range []struct{ name, set, line string }{
		{"Contempt", `e.value = '30'`, "> setoption name Contempt value 30"},
		{"Threads", `e.value = '2'`, "> setoption name Threads value 2"},
		{"UCI_AnalyseMode", `e.checked = true`, "> setoption name UCI_AnalyseMode value true"},
		{"Hash", `e.value = '32'`, "> setoption name Hash value 32"},
	} {
		b.js(fmt.Sprintf(`(() => { const e = document.querySelector('[data-engine-option=%q]'); %s; e.dispatchEvent(new Event('change')); })()`, tc.name, tc.set))
		s := b.waitFor(tc.name, func(s snapshot) bool { return s.Settled && strings.Contains(b.logTail(40), tc.line) })
		if !slices.Equal(s.Moves, before.Moves) || s.FEN != before.FEN || s.Variant != "nine-mens-morris" {
			t.Fatalf("after %s the game is %q (%s), was %q", tc.name, s.Moves, s.Variant, before.Moves)
		}
	}
	// The levels, by name and Elo, full strength (the engine's default)
	// last and chosen.
	levels := eval[[]string](b, `[...document.querySelectorAll('#level option')].map(e => e.value + '=' + e.textContent)`)
	if want := []string{"beginner=beginner (430)", "novice=novice (510)", "casual=casual (760)", "club=club (910)",
		"strong club=strong club (1080)", "expert=expert (1200)", "master=master (1390)",
		"full strength=full strength (1620)"}; !slices.Equal(levels, want) {
		t.Fatalf("Level select %q, want %q", levels, want)
	}
	level := func() string { return eval[string](b, `document.getElementById('level').value`) }
	if v := level(); v != "full strength" || eval[bool](b, `document.getElementById('lbl-level').hidden`) {
		t.Fatalf("Level select at %q (or hidden), want full strength shown", v)
	}
	for _, tc := range []struct {
		level string
		lines []string // the setoptions the engine receives for it
	}{
		{"club", []string{"setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 910"}},
		{"full strength", []string{"setoption name UCI_LimitStrength value false"}},
	} {
		n := len(receivedSetoptions(t, received))
		b.choose("level", tc.level)
		s := b.waitFor(tc.level, func(s snapshot) bool { return s.Settled && len(receivedSetoptions(t, received)) >= n+len(tc.lines) })
		time.Sleep(100 * time.Millisecond) // nothing more comes
		if got := receivedSetoptions(t, received)[n:]; !slices.Equal(got, tc.lines) {
			t.Fatalf("level %s: the engine received %q, want %q", tc.level, got, tc.lines)
		}
		if v := level(); v != tc.level {
			t.Fatalf("Level select at %q after choosing %s", v, tc.level)
		}
		if !slices.Equal(s.Moves, before.Moves) || s.FEN != before.FEN {
			t.Fatalf("after level %s the game is %q, was %q", tc.level, s.Moves, before.Moves)
		}
	}
	// Everything the page set, as the engine received it.
	if got, want := receivedSetoptions(t, received), []string{
		"setoption name Contempt value 30", "setoption name Threads value 2", "setoption name UCI_AnalyseMode value true",
		"setoption name Hash value 32", "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 910",
		"setoption name UCI_LimitStrength value false",
	}; !slices.Equal(got, want) {
		t.Fatalf("the engine received %q, want %q", got, want)
	}
	if n := b.notices(); len(n) != 0 {
		t.Fatalf("notices %q", n)
	}
	b.screenshot("options")
	// The game goes on.
	b.click(before.Legal[0])
	s := b.waitFor("the engine's answer", func(s snapshot) bool { return s.Settled && len(s.Moves) == 4 })
	newGame(t, rules.Default(), "").check(s)
	if !slices.Equal(s.Moves[:2], before.Moves) {
		t.Fatalf("moves %q", s.Moves)
	}
}

// TestBrowserIdle: the server closes a silent tab; the page says so and
// connects again only when its person acts. The server waits five seconds
// (the other browser tests run meanwhile). Less is not enough on a loaded
// machine: with one second, tabs were closed while their engine started or
// listed its options, before the page could answer (the page speaks once
// its engine has); the page then says so all the same, and the person acts
// again.
func TestBrowserIdle(t *testing.T) {
	browserTest(t)
	lim := DefaultLimits
	lim.IdleTimeout = 5 * time.Second
	srv, hs := startServer(t, Config{Engine: millengineCmd(t), Limits: lim, LocalOnly: true})
	b := newTab(t, hs.URL+"/")
	b.do(chromedp.Navigate(b.url))
	const closed = "The server closed this tab's engine: no message from the page for 5s: the tab was closed to free its engine. Click or press a key to reconnect."
	t.Logf("notice: %s", b.waitNotice(closed))
	// The server ends the tab's session (its engine may take a moment to
	// quit: the deadline is a hang guard); then nothing comes back while
	// nobody acts.
	for end := time.Now().Add(10 * time.Second); srv.Sessions() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d sessions 10 s after the idle close", srv.Sessions())
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if k := srv.Sessions(); k != 0 || b.snap().Ready {
		t.Fatalf("%d sessions while nobody acts", k)
	}
	b.screenshot("idle")
	// The person acts: the page connects again and its engine is ready (or
	// the tab is closed again before, and the person acts again).
	deadline := time.Now().Add(20 * time.Second) // a hang guard
	for attempt := 1; ; attempt++ {
		b.js(`document.querySelectorAll('#notices .notice button').forEach(e => e.click())`)
		b.do(chromedp.Click(chromedp.CSS("header h1")))
		for {
			if s := b.snap(); s.Ready && s.Settled {
				return
			}
			if slices.Contains(b.notices(), closed) {
				t.Logf("closed again before its engine was ready (attempt %d): the person acts again", attempt)
				break
			}
			if time.Now().After(deadline) {
				b.screenshot("failure")
				t.Fatalf("the page did not connect again: notices %q\nlog tail:\n%s", b.notices(), b.logTail(30))
			}
			time.Sleep(15 * time.Millisecond)
		}
	}
}

// TestBrowserToken: beyond loopback the page takes the token from its URL
// and sends it with its API requests and its WebSocket.
func TestBrowserToken(t *testing.T) {
	const tok = "c0ffeec0ffeec0ffeec0ffeec0ffee00"
	_, b := boardTab(t, Config{Engine: millengineCmd(t), Token: tok}, "?token="+tok)
	if n := eval[int](b, `document.querySelectorAll('#rule-options input').length`); n != len(rules.Params) {
		t.Fatalf("%d rule options", n)
	}
	b.paste(shortPGN)
	want := replayed(t, shortPGN)
	b.waitFor("the loaded game", func(s snapshot) bool { return s.Settled && slices.Equal(s.Moves, want) })
}
