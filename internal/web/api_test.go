package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/egtb/egtbtest"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/review"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/testkit"
)

// post sends body to the server and returns the answer's status, type and
// body.
func post(t *testing.T, url, ctype, body string, header ...string) (int, string, string) {
	t.Helper()
	resp, b := request(t, "POST", url, strings.NewReader(body), append([]string{"Content-Type", ctype}, header...)...)
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// The rules of Nine Men's Morris as the API writes them.
const nmmRules = `{"BoardFullAction":0,"EndgameNMoveRule":100,"HasDiagonalLines":0,"IsDefenderMoveFirst":0,"MayFly":1,` +
	`"MayMoveInPlacingPhase":0,"MayRemoveFromMillsAlways":0,"MayRemoveMultiple":0,"MillFormationActionInPlacingPhase":0,` +
	`"NMoveRule":100,"OneTimeUseMill":0,"PiecesAtLeastCount":3,"PiecesCount":9,"RestrictRepeatedMillsFormation":0,` +
	`"StalemateAction":0,"StopPlacingWhenTwoEmptySquares":0,"ThreefoldRepetitionRule":1,"flyPieceCount":3}`

// A short game in Sanmill's PGN: a mill and its removal in the fifth turn.
const shortPGN = "[Event \"Club\"]\r\n[White \"Ann\"]\r\n[Black \"Bob\"]\r\n[Result \"*\"]\r\n\r\n1. a7 b4 2. d7 f4 3. g7xf4 *\n"

// /api/import answers the first game replayed: its tags, rules, start, the
// engine's moves with removals apart, who played each and where each turn
// ends; PlayOK lists, FENs and a variant for untagged records too.
func TestImport(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}})
	for _, tc := range []struct{ name, query, body, want string }{
		{"pgn", "", shortPGN + "\n" + shortPGN,
			`{"games":2,"tags":[{"name":"Event","value":"Club"},{"name":"White","value":"Ann"},{"name":"Black","value":"Bob"},{"name":"Result","value":"*"}],` +
				`"variant":"nine-mens-morris","rules":` + nmmRules + `,"startFen":"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1","setUp":false,` +
				`"moves":["a7","b4","d7","f4","g7","xf4"],"sides":["white","black","white","black","white","white"],"turnEnd":[1,2,3,4,6],"result":"*",` +
				`"fen":"********/******@*/OO*****O b p p 3 6 1 7 0 0 0 0 0 0 0 0 3"}`},
		{"playok", "", "1. 1 2 1-0",
			`{"games":1,"tags":[],"variant":"nine-mens-morris","rules":` + nmmRules + `,"startFen":"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1","setUp":false,` +
				`"moves":["a7","d7"],"sides":["white","black"],"turnEnd":[1,2],"result":"1-0","fen":"********/********/@******O w p p 1 8 1 8 0 0 0 0 0 0 0 0 2"}`},
		{"fen with a variant", "?variant=morabaraba", "O*******/********/******** b p p 1 11 0 12 0 0 0 0 0 0 0 0 1",
			`{"games":1,"tags":[{"name":"FEN","value":"O*******/********/******** b p p 1 11 0 12 0 0 0 0 0 0 0 0 1"},{"name":"SetUp","value":"1"}],` +
				`"variant":"morabaraba","rules":` + strings.NewReplacer(`"HasDiagonalLines":0`, `"HasDiagonalLines":1`, `"MayRemoveMultiple":0`, `"MayRemoveMultiple":1`, `"PiecesCount":9`, `"PiecesCount":12`).Replace(nmmRules) +
				`,"startFen":"O*******/********/******** b p p 1 11 0 12 0 0 0 0 0 0 0 0 1","setUp":true,"moves":[],"sides":[],"turnEnd":[],"result":"*",` +
				`"fen":"O*******/********/******** b p p 1 11 0 12 0 0 0 0 0 0 0 0 1"}`},
	} {
		code, ctype, body := post(t, hs.URL+"/api/import"+tc.query, "text/plain", tc.body)
		if code != 200 || ctype != "application/json" || body != tc.want+"\n" {
			t.Errorf("%s: %d %s\n%s\nwant\n%s", tc.name, code, ctype, body, tc.want)
		}
	}
}

// Bad records get 400 and the reader's own message (game, ply, line and
// column); a record over the size cap gets 413.
func TestImportErrors(t *testing.T) {
	lim := DefaultLimits
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}, Limits: lim})
	for _, tc := range []struct{ query, body, want string }{
		{"", "1. a7 a7 *", "game 1, ply 2 (line 1, column 7): illegal move a7: a7 is not empty"},
		{"", "[Event \"x\"]\n\n1. a7 b4\n2. d9 *", `game 1, ply 3 (line 4, column 4): bad move token "d9": d9 is not a point of the board`},
		{"", shortPGN + "\n[Event \"y\"]\n\n1. a7 d9 *", `game 2, ply 2 (line 10, column 7): bad move token "d9": d9 is not a point of the board`},
		{"", "[Variant \"Custom\"]\n\n1. a7 *", `game 1: variant "Custom" does not say which rules: give them to Replay`},
		{"", "  \n ", "no record: paste a game in PGN, a PlayOK move list or a FEN"},
		{"", "1. a7 \xff *", "the record is not UTF-8 text"},
		{"?variant=chess", "1. a7 *", `unknown variant "chess" (want one of nine-mens-morris, twelve-mens-morris, dooz, morabaraba, russian-mill, lasker-morris, cheng-san-qi, da-san-qi, zhi-qi, el-filja, experimental)`},
	} {
		for _, path := range []string{"/api/import", "/api/review"} {
			code, ctype, body := post(t, hs.URL+path+tc.query, "text/plain", tc.body)
			want, _ := json.Marshal(map[string]string{"error": tc.want})
			if code != 400 || ctype != "application/json" || body != string(want)+"\n" {
				t.Errorf("%s %q: %d %s %s, want 400 %s", path, tc.body, code, ctype, body, want)
			}
		}
	}
	big := "1. a7 *" + strings.Repeat(" ", int(lim.MaxImportBytes))
	for _, path := range []string{"/api/import", "/api/review"} {
		code, _, body := post(t, hs.URL+path, "text/plain", big)
		if code != 413 || body != `{"error":"the record is larger than 1048576 bytes"}`+"\n" {
			t.Errorf("%s of %d bytes: %d %s", path, len(big), code, body)
		}
		// Just under the cap is read.
		if code, _, body := post(t, hs.URL+"/api/import", "text/plain", big[:lim.MaxImportBytes]); code != 200 {
			t.Errorf("import of %d bytes: %d %s", lim.MaxImportBytes, code, body)
		}
	}
	for _, tc := range []struct{ query, want string }{
		{"?movetime=20", `movetime "20": want 50 to 500 ms a position`},
		{"?movetime=501", `movetime "501": want 50 to 500 ms a position`},
		{"?depth=9", `depth "9": want 1 to 8`},
		{"?depth=2&movetime=100", "give movetime or depth, not both"},
	} {
		code, _, body := post(t, hs.URL+"/api/review"+tc.query, "text/plain", shortPGN)
		want, _ := json.Marshal(map[string]string{"error": tc.want})
		if code != 400 || body != string(want)+"\n" {
			t.Errorf("review%s: %d %s", tc.query, code, body)
		}
	}
	if code, _, body := post(t, hs.URL+"/api/review", "text/plain", "[FEN \"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1\"]\n[SetUp \"1\"]\n\n*"); code != 400 || body != `{"error":"the game has no moves to review"}`+"\n" {
		t.Errorf("review of no moves: %d %s", code, body)
	}
	lim.MaxReviewPlies = 5
	_, hs2 := startServer(t, Config{Engine: []string{"/bin/false"}, Limits: lim})
	if code, _, body := post(t, hs2.URL+"/api/review", "text/plain", shortPGN); code != 400 || body != `{"error":"the game has 6 actions; a review takes at most 5"}`+"\n" {
		t.Errorf("review over the length cap: %d %s", code, body)
	}
}

// readReview reads a review's NDJSON answer: its progress lines and its last
// line.
func readReview(t *testing.T, body string) (progress []reviewLine, last reviewLine) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var l reviewLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if l.T == "progress" {
			progress = append(progress, l)
		} else {
			last = l
		}
	}
	return progress, last
}

// /api/review streams a progress line per position, then every move graded
// by review.Analyse as the command line grades it (the same engine settings
// give the same grades), the expected score of every position for White,
// and each side's summary.
func TestReview(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}})
	code, ctype, body := post(t, hs.URL+"/api/review?depth=3", "text/plain", shortPGN)
	if code != 200 || ctype != "application/x-ndjson" {
		t.Fatalf("%d %s %s", code, ctype, body)
	}
	progress, last := readReview(t, body)
	var done []int
	for _, p := range progress {
		if p.Total != 7 || p.Done == nil {
			t.Fatalf("progress %+v", p)
		}
		done = append(done, *p.Done)
	}
	if !slices.Equal(done, []int{0, 1, 2, 3, 4, 5, 6, 7}) || last.T != "review" || last.Review == nil {
		t.Fatalf("progress %v, last line %+v", done, last)
	}
	// The same review, made here with the review package.
	g := importedGame(t, shortPGN)
	e := search.New(16)
	o := e.Options()
	o.Threads, o.AnalyseMode = 1, true
	e.SetOptions(o)
	moves, sums, err := review.Analyse(context.Background(), e, g, review.Options{Limits: search.Limits{Depth: 3}})
	if err != nil {
		t.Fatal(err)
	}
	got := last.Review
	if len(got.Moves) != 6 || len(got.Values) != 7 || got.Tables || got.Limit != "depth 3" {
		t.Fatalf("review %+v", got)
	}
	glyphs := map[review.Grade]string{review.Inaccuracy: "?!", review.Mistake: "?", review.Blunder: "??"}
	for i, m := range moves {
		want := moveJSON{Ply: i, Side: m.Mover.String(), Played: m.Played.String(), Best: m.Best.String(), Before: m.Before, After: m.After,
			Was: m.Was.String(), Is: m.Is.String(), Grade: m.Grade.String(), NAG: m.Grade.NAG(), Glyph: glyphs[m.Grade], Loss: round4(m.Loss)}
		if got.Moves[i] != want {
			t.Errorf("move %d: %+v, want %+v", i, got.Moves[i], want)
		}
		w, d, _ := search.WDL(m.Before)
		exp := (float64(w) + float64(d)/2) / 1000
		if m.Mover == position.Black {
			exp = 1 - exp
		}
		if got.Values[i].White != round4(exp) || got.Values[i].Exact != "" {
			t.Errorf("value %d: %+v, want %v", i, got.Values[i], round4(exp))
		}
	}
	if s := got.Summary[0]; s.Moves != 4 || s.Text != sums[0].String() || s.FirstChange != nil {
		t.Errorf("White's summary %+v, want %q", s, sums[0])
	}
	if s := got.Summary[1]; s.Moves != 2 || s.Text != sums[1].String() {
		t.Errorf("Black's summary %+v, want %q", s, sums[1])
	}
}

// With endgame tables the review knows exact values: a move from a won
// position to a lost one is a blunder, its glyph ??, the first change of
// White's value, and the chart's values say win then loss for White.
func TestReviewWithTables(t *testing.T) {
	dir := egtbtest.Small(t, 7)
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}, EGTBPath: dir})
	const pgn = "[FEN \"***@***@/***@****/O****O*O w m s 3 0 3 0 0 0 0 0 0 0 0 0 1\"]\n[SetUp \"1\"]\n\n1. a7-b2 *"
	code, _, body := post(t, hs.URL+"/api/review?movetime=50", "text/plain", pgn)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	_, last := readReview(t, body)
	rv := last.Review
	if rv == nil || !rv.Tables || len(rv.Moves) != 1 {
		t.Fatalf("%s", body)
	}
	m := rv.Moves[0]
	if m.Played != "a7-b2" || m.Best != "a1-g7" || m.Was != "win" || m.Is != "loss" || m.Grade != "blunder" || m.NAG != 4 || m.Glyph != "??" {
		t.Errorf("a7-b2: %+v", m)
	}
	if rv.Values[0] != (valueJSON{White: 1, Exact: "win"}) || rv.Values[1] != (valueJSON{White: 0, Exact: "loss"}) {
		t.Errorf("values %+v", rv.Values)
	}
	if fc := rv.Summary[0].FirstChange; fc == nil || *fc != 0 || rv.Summary[0].Blunders != 1 {
		t.Errorf("White's summary %+v", rv.Summary[0])
	}
}

// One review at a time: another meanwhile gets 503 and a clear error, and
// the server is as it was (the next review runs). A review whose request
// goes away stops at once and frees the slot.
func TestReviewBusyAndCancel(t *testing.T) {
	srv, hs := startServer(t, Config{Engine: []string{"/bin/false"}})
	srv.reviews <- struct{}{} // a review runs
	code, _, body := post(t, hs.URL+"/api/review", "text/plain", shortPGN)
	if code != 503 || body != `{"error":"the server is reviewing another game (one review at a time): try again when it is done"}`+"\n" {
		t.Fatalf("a second review: %d %s", code, body)
	}
	<-srv.reviews
	if code, _, body := post(t, hs.URL+"/api/review?depth=1", "text/plain", shortPGN); code != 200 || !strings.Contains(body, `"t":"review"`) {
		t.Fatalf("after the first: %d %s", code, body)
	}

	// A long review (at least 41 positions at 500 ms: 20 s), cancelled
	// after its first search.
	long := longGame(t, 40)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/api/review?movetime=500", strings.NewReader(long))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("long review: %d %s", resp.StatusCode, b)
	}
	rd := bufio.NewReader(resp.Body)
	for range 2 { // progress 0, then the first position searched
		if _, err := rd.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	resp.Body.Close()
	start := time.Now()
	for {
		code, _, body := post(t, hs.URL+"/api/review?depth=1", "text/plain", shortPGN)
		if code == 200 {
			break
		}
		// A hang guard: a slot that is never freed answers 503 for ever.
		if code != 503 || time.Since(start) > 20*time.Second {
			t.Fatalf("after the cancel: %d %s (%v)", code, body, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the slot was freed %v after the cancel", time.Since(start))
}

// /api/export writes the page's game as PGN with its tags, the FEN and
// SetUp of a set-up start, a result decided off the board, as a download;
// bad games get 400 and nothing else.
func TestExport(t *testing.T) {
	now := time.Date(2026, 1, 27, 15, 4, 5, 0, time.UTC)
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}, Now: func() time.Time { return now }})
	req, _ := http.NewRequest("POST", hs.URL+"/api/export", strings.NewReader(`{"variant":"nine-mens-morris","moves":["a7","b4","d7","f4","g7","xf4"],"white":"Human","black":"millengine web-test"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "[Event \"millengine board game\"]\n[Site \"millengine\"]\n[Date \"2026.01.27\"]\n[Round \"-\"]\n[White \"Human\"]\n[Black \"millengine web-test\"]\n" +
		"[Result \"*\"]\n[Variant \"Nine Men's Morris\"]\n[PlyCount \"6\"]\n\n1. a7 b4 2. d7 f4 3. g7xf4 *\n"
	if resp.StatusCode != 200 || string(b) != want || resp.Header.Get("Content-Type") != "application/vnd.chess-pgn; charset=utf-8" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="millengine-20260127-150405.pgn"` {
		t.Fatalf("export: %d %v\n%s", resp.StatusCode, resp.Header, b)
	}
	// It reads back as the same game.
	games, err := record.Parse(b)
	if err != nil || len(games) != 1 || len(games[0].Moves) != 5 {
		t.Fatalf("read back: %v %+v", err, games)
	}

	// A set-up position, custom rules, a loss on time.
	const fen = "@*O@@OO*/O@@OO@@O/**O*O@@* w m s 9 0 9 0 0 0 0 0 0 0 0 0 10"
	r := rules.Default()
	start, err := position.ParseFEN(&r, fen)
	if err != nil {
		t.Fatal(err)
	}
	tok := legalTokens(position.NewGame(r, start))[0]
	code, _, body := post(t, hs.URL+"/api/export", "application/json",
		`{"variant":"","rules":{"NMoveRule":50},"startFen":"`+fen+`","moves":["`+tok+`"],"result":"1-0","event":"Blitz","round":"3"}`)
	want = "[Event \"Blitz\"]\n[Site \"millengine\"]\n[Date \"2026.01.27\"]\n[Round \"3\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n" +
		"[Variant \"Custom\"]\n[PlyCount \"1\"]\n[FEN \"" + fen + "\"]\n[SetUp \"1\"]\n\n1. " + tok + " 1-0\n"
	if code != 200 || body != want {
		t.Fatalf("set-up export: %d\n%s\nwant\n%s", code, body, want)
	}

	for _, tc := range []struct{ body, err string }{
		{`{"moves":["a7","a7"]}`, `move 2 "a7": ` + illegal(t, "a7", "a7")},
		{`{"variant":"chess"}`, `unknown variant "chess" (want one of nine-mens-morris, twelve-mens-morris, dooz, morabaraba, russian-mill, lasker-morris, cheng-san-qi, da-san-qi, zhi-qi, el-filja, experimental)`},
		{`{"rules":{"PiecesCount":30}}`, "option PiecesCount: 30 is out of range 9..12"},
		{`{"rules":{"Speed":1}}`, `unknown rule "Speed"`},
		{`{"startFen":"nonsense"}`, "startFen: " + fenError(t, "nonsense")},
		{`{"moves":[],"result":"2-0"}`, `result "2-0": want 1-0, 0-1, 1/2-1/2 or *`},
		{`{"white":"a\nb"}`, "tag White: at most 200 bytes of text on one line"},
		{`{"colour":"white"}`, `the game is not the JSON this wants: json: unknown field "colour"`},
		{`[1,2]`, "the game is not the JSON this wants: json: cannot unmarshal array into Go value of type web.exportRequest"},
	} {
		code, _, body := post(t, hs.URL+"/api/export", "application/json", tc.body)
		want, _ := json.Marshal(map[string]string{"error": tc.err})
		if code != 400 || body != string(want)+"\n" {
			t.Errorf("%s: %d %s, want %s", tc.body, code, body, want)
		}
	}
	if code, _, body := post(t, hs.URL+"/api/export", "application/json", `{"white":"`+strings.Repeat("x", maxExportBytes)+`"}`); code != 413 ||
		body != `{"error":"the game is larger than 262144 bytes"}`+"\n" {
		t.Errorf("a large game: %d %s", code, body)
	}
}

// illegal returns the engine's error for a token after the moves before.
func illegal(t *testing.T, tok string, before ...string) string {
	t.Helper()
	g := testkit.Game(t, rules.Default(), "", before...)
	_, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
	if err == nil {
		t.Fatalf("%s is legal", tok)
	}
	return err.Error()
}

// fenError returns the engine's error for a bad FEN.
func fenError(t *testing.T, fen string) string {
	t.Helper()
	r := rules.Default()
	_, err := position.ParseFEN(&r, fen)
	if err == nil {
		t.Fatalf("%s is a good FEN", fen)
	}
	return err.Error()
}

// longGame returns a game of at least n engine moves as PGN, its moves the
// legal ones in turn (the i-th move the (i*7)-th legal action, wrapping),
// made here with the rules package and written by the record package.
func longGame(t *testing.T, n int) string {
	t.Helper()
	r := rules.Default()
	g := position.NewGame(r, position.New(&r))
	for i := 0; len(g.Moves) < n; i++ {
		toks := legalTokens(g)
		if g.Pos.IsOver() || len(toks) == 0 {
			t.Fatalf("the game ended after %d moves", len(g.Moves))
		}
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, toks[(i*7)%len(toks)])
		if err != nil {
			t.Fatal(err)
		}
		g.Play(m)
	}
	rec, err := record.FromEngine(g)
	if err != nil {
		t.Fatal(err)
	}
	b, err := record.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
