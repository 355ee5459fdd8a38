package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
	"github.com/millengine/millengine/internal/uci"
)

// What a tab may ask of the server (the "house and speed" issue, item 6).
// Each test here fails on the bridge as it was before: it passed every
// setoption on, took any Hash, kept silent tabs forever and reported one
// dropped line per second however many were dropped.

// A path option sent over the WebSocket is refused by the bridge and never
// reaches the engine: before, "setoption name Book value /etc/passwd" came
// back with the file's first line in the engine's error.
func TestSetOptionPathRefused(t *testing.T) {
	_, hs := startServer(t, Config{Engine: millengineCmd(t)})
	c := dial(t, hs)
	c.engineStarted()
	for _, tc := range []struct{ line, name string }{
		{"setoption name Book value /etc/passwd", "Book"},
		{"SETOPTION NAME book VALUE /etc/passwd", "book"},
		{"setoption name EGTBPath value /etc", "EGTBPath"},
		{"setoption name EGTB Path value /etc", "EGTB Path"},
		{"setoption name egtbpath", "egtbpath"},
	} {
		c.send(tc.line)
		want := fmt.Sprintf("refused setoption %q: a string option (a file or directory on the server) cannot be set from the page", tc.name)
		if m := c.next(); m.T != "error" || m.Text != want {
			t.Fatalf("%q: got %+v, want error %q", tc.line, m, want)
		}
	}
	// Nothing reached the engine: its next line answers the isready.
	c.send("isready")
	if got := c.untilLine("readyok"); len(got) != 1 {
		t.Fatalf("the engine wrote %q before readyok", got)
	}
	// What a player may set passes, the rules included, under an alias too.
	c.send("setoption name Contempt value 20", "setoption name PieceCount value 12", "position startpos", "d", "isready")
	got := c.untilLine("readyok")
	if !slices.Contains(got, "pieces in hand: white 12 black 12") || slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "error") }) {
		t.Fatalf("after Contempt and PieceCount: %q", got)
	}
}

// A Hash above the server's cap is refused by the bridge, with the cap in
// the error; one within it is passed on. Before, a tab could ask 65536 MB
// of each of 16 engines.
func TestHashCapped(t *testing.T) {
	_, _, c := testengineTab(t, Limits{MaxHashMB: 64})
	c.engineStarted()
	for _, tc := range []struct{ line, err string }{
		{"setoption name Hash value 65536", "refused setoption Hash 65536: this server allows a tab at most 64 MB"},
		{"setoption name hash value 65", "refused setoption Hash 65: this server allows a tab at most 64 MB"},
		{"setoption name Hash value 64abc", `refused setoption Hash "64abc": want a whole number of MB from 1 to 64`},
		{"setoption name Hash value 0", `refused setoption Hash "0": want a whole number of MB from 1 to 64`},
		{"setoption name Hash", `refused setoption Hash "": want a whole number of MB from 1 to 64`},
	} {
		c.send(tc.line)
		if m := c.next(); m.T != "error" || m.Text != tc.err {
			t.Fatalf("%q: got %+v, want error %q", tc.line, m, tc.err)
		}
	}
	c.send("setoption name Hash value 64")
	if got := c.untilLine("info string got"); !slices.Equal(got, []string{"info string got setoption name Hash value 64"}) {
		t.Fatalf("Hash 64: %q", got)
	}
}

// The bridge's setoption policy: options neither declared by the server's
// engine nor listed by the running one are refused, and a string option the
// running engine lists is refused like the declared ones.
func TestCheckSetOption(t *testing.T) {
	lim := DefaultLimits
	decls := newDeclTable()
	var listed listedOptions
	listed.learn("option name Log File type string default <empty>")
	listed.learn("option name Style type spin default 1 min 0 max 3")
	listed.learn("id name other engine")
	for _, tc := range []struct{ line, err string }{
		{"setoption name Style value 2", ""},
		{"setoption name MultiPV value 3", ""},
		{"setoption name Clear Hash", ""},
		{"setoption name Variant value morabaraba", ""},
		{"setoption name FlyPieceCount value 4", ""},
		{"setoption name Log File value /tmp/x", `refused setoption "Log File": a string option (a file or directory on the server) cannot be set from the page`},
		{"setoption name logfile value /tmp/x", `refused setoption "logfile": a string option (a file or directory on the server) cannot be set from the page`},
		{"setoption name Frobnicate value 1", `refused setoption "Frobnicate": not an option of this engine (the page may set only the options the engine lists in its answer to uci)`},
		{"setoption Book value x", "refused setoption: want 'setoption name <name> [value <value>]'"},
		{"setoption name value 3", "refused setoption: want 'setoption name <name> [value <value>]'"},
		{"setoption", "refused setoption: want 'setoption name <name> [value <value>]'"},
	} {
		_, err := checkLine(websocket.MessageText, []byte(tc.line), lim, decls, &listed)
		if got := fmt.Sprint(err); (err == nil) != (tc.err == "") || err != nil && got != tc.err {
			t.Errorf("%q: %v, want %q", tc.line, err, tc.err)
		}
	}
}

// A tab that sends nothing for IdleTimeout is closed with its own status and
// a reason, its engine ends and its slot is free; a tab that keeps talking
// stays. Before, a silent tab held its slot (and engine) forever.
func TestIdleTabClosed(t *testing.T) {
	srv, _, c := testengineTab(t, Limits{IdleTimeout: 400 * time.Millisecond})
	pid := c.engineStarted().PID
	for range 5 { // 750 ms of talk, never 400 ms of silence
		time.Sleep(150 * time.Millisecond)
		c.send("isready")
		if got := c.untilLine("readyok"); len(got) != 1 {
			t.Fatalf("isready: %q", got)
		}
	}
	start := time.Now()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second): // a hang guard
		t.Fatal("an idle tab is still open after 10 s")
	}
	var ce websocket.CloseError
	if !errors.As(c.err, &ce) || ce.Code != idleCloseCode ||
		ce.Reason != "no message from the page for 400ms: the tab was closed to free its engine" {
		t.Fatalf("closed with %v", c.err)
	}
	if el := time.Since(start); el < 250*time.Millisecond {
		t.Fatalf("closed %v after the last message, before the timeout", el)
	}
	processGone(t, pid, 15*time.Second)
	deadline := time.Now().Add(10 * time.Second) // a hang guard
	for srv.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions after the idle close", srv.Sessions())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readDrops reads messages for the given time and counts readyok lines, the
// messages the rate limit reports dropped (the sum of the notices' counts),
// the notices, and the lines the engine's full queue dropped.
func readDrops(t *testing.T, c *client, within time.Duration, rate string, done func(ready, dropped, queue int) bool) (ready, dropped, notices, queue int) {
	t.Helper()
	prefix := "too many messages (more than " + rate + " a second): "
	timeout := time.After(within)
	for !done(ready, dropped, queue) {
		select {
		case m := <-c.msgs:
			switch {
			case m.T == "line" && m.Line == "readyok":
				ready++
			case m.T == "error" && strings.HasPrefix(m.Text, prefix):
				var n int
				if _, err := fmt.Sscanf(strings.TrimPrefix(m.Text, prefix), "%d dropped", &n); err != nil || n < 1 {
					t.Fatalf("notice %q", m.Text)
				}
				dropped += n
				notices++
			case m.T == "error" && strings.HasSuffix(m.Text, "the engine is not reading its input; line dropped"):
				queue++
			default:
				t.Fatalf("unexpected %+v", m)
			}
		case <-timeout:
			return
		}
	}
	return
}

// 1000 isready in a burst: every one is answered or counted as dropped, to
// the line. Before, the notice said "1 dropped" and the rest went unsaid.
func TestRateLimitCountsEveryDrop(t *testing.T) {
	_, _, c := testengineTab(t, Limits{})
	c.engineStarted()
	for range 1000 {
		c.send("isready")
	}
	ready, dropped, notices, queue := readDrops(t, c, 15*time.Second, "200", func(r, d, q int) bool { return r+d+q >= 1000 })
	t.Logf("1000 sent: %d answered, %d dropped by the rate limit in %d notices, %d by the engine's queue", ready, dropped, notices, queue)
	if ready+dropped+queue != 1000 || dropped == 0 || ready+queue < DefaultLimits.Burst {
		t.Fatalf("1000 sent: %d answered + %d dropped (%d notices) + %d queue drops != 1000", ready, dropped, notices, queue)
	}
	// Nothing more is reported: the counts were exact.
	if r2, d2, _, q2 := readDrops(t, c, 1500*time.Millisecond, "200", func(int, int, int) bool { return false }); r2+d2+q2 != 0 {
		t.Fatalf("after the count: %d more answers, %d more drops, %d queue drops", r2, d2, q2)
	}
}

// options.json declares what the server's engine lists in its answer to uci
// (the same names, types and order), which are rules, and the rule each
// alias names; Hash's maximum is the server's cap.
func TestOptionsJSON(t *testing.T) {
	lim := DefaultLimits
	lim.MaxHashMB = 128
	srv, hs := startServer(t, Config{Engine: millengineCmd(t), Limits: lim})
	resp, body := get(t, hs.URL+"/options.json")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("options.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	tab := srv.options()
	if tab.MaxHashMB != 128 || !strings.Contains(body, `{"name":"Hash","type":"spin","kind":"engine","default":"16","min":1,"max":128,"settable":true}`) ||
		!strings.Contains(body, `{"name":"PieceCount","type":"spin","kind":"rule","aliasOf":"PiecesCount","default":"9","min":9,"max":12,"settable":true,"comment":"pieces per side"}`) ||
		!strings.Contains(body, `{"name":"Book","type":"string","kind":"engine","default":"","min":0,"max":0,"settable":false}`) {
		t.Fatalf("options.json: %s", body)
	}
	var rulesSeen []string
	kinds := map[string]string{}
	for _, o := range tab.Options {
		kinds[o.Name] = o.Kind
		if o.Kind == "rule" && o.AliasOf == "" {
			rulesSeen = append(rulesSeen, o.Name)
		}
	}
	var want []string
	for _, p := range rules.Params {
		want = append(want, p.Name)
	}
	if !slices.Equal(rulesSeen, want) {
		t.Fatalf("rules %q, want %q", rulesSeen, want)
	}
	for name, kind := range map[string]string{"Contempt": "engine", "UCI_AnalyseMode": "engine", "BookVariety": "engine",
		"Threads": "engine", "FlyPieceCount": "rule", "MayFly": "rule"} {
		if kinds[name] != kind {
			t.Errorf("%s is %q, want %q", name, kinds[name], kind)
		}
	}
	// The engine itself lists the same options, in the same order.
	c := dial(t, hs)
	c.engineStarted()
	c.send("uci")
	var listed []string
	for _, l := range c.untilLine("uciok") {
		if rest, ok := strings.CutPrefix(l, "option name "); ok {
			name, after, _ := strings.Cut(rest, " type ")
			typ, _, _ := strings.Cut(after, " ")
			listed = append(listed, name+" "+typ)
		}
	}
	var declared []string
	for _, d := range uci.Declarations() {
		declared = append(declared, d.Name+" "+d.Type)
	}
	if !slices.Equal(listed, declared) {
		t.Fatalf("the engine lists\n%q\nthe declarations say\n%q", listed, declared)
	}
}

// options.json names the engine's levels for people, from the weakest, full
// strength last (the page's Level select), because the server's engine
// declares UCI_LimitStrength and UCI_Elo (uci.Declarations: the testengine
// the tab runs does not matter); without either there are none.
func TestOptionsJSONLevels(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{engineBin(t, "testengine")}})
	_, body := get(t, hs.URL+"/options.json")
	const want = `"levels":[{"name":"beginner","elo":430},{"name":"novice","elo":510},{"name":"casual","elo":760},` +
		`{"name":"club","elo":910},{"name":"strong club","elo":1080},{"name":"expert","elo":1200},` +
		`{"name":"master","elo":1390},{"name":"full strength","elo":1620}]}` + "\n"
	if !strings.HasSuffix(body, want) {
		t.Fatalf("options.json ends %q, want %q", body[max(0, len(body)-len(want)):], want)
	}
	var tab struct {
		Levels []levelJSON `json:"levels"`
	}
	if err := json.Unmarshal([]byte(body), &tab); err != nil || len(tab.Levels) != len(search.Levels)+1 {
		t.Fatalf("options.json levels %+v (%v), want the %d of search.Levels and full strength", tab.Levels, err, len(search.Levels))
	}
	for _, drop := range []string{"UCI_LimitStrength", "UCI_Elo"} {
		d := newDeclTable()
		delete(d.byName, rules.Normalize(drop))
		if l := d.levels(); l != nil {
			t.Errorf("without %s: levels %+v, want none", drop, l)
		}
		if b, err := json.Marshal(optionTable{Levels: d.levels()}); err != nil || strings.Contains(string(b), "levels") {
			t.Errorf("without %s: %s (%v), want no levels key", drop, b, err)
		}
	}
}

// Beyond loopback every request but the page's static files wants the
// token, in the query or the header; the WebSocket too.
func TestToken(t *testing.T) {
	const tok = "0123456789abcdef0123456789abcdef"
	_, hs := startServer(t, Config{Engine: []string{engineBin(t, "testengine")}, Token: tok})
	for _, tc := range []struct {
		path   string
		header []string
		code   int
		body   string
	}{
		{"/", nil, 403, "this server wants its token: open the URL that millengine serve printed (it ends in ?token=…)\n"},
		{"/?token=wrong", nil, 403, ""},
		{"/?token=" + tok, nil, 200, ""},
		{"/app.js", nil, 200, ""},
		{"/uci.js", nil, 200, ""},
		{"/notation.js", nil, 200, ""},
		{"/notation.js?token=wrong", nil, 200, ""},
		{"/style.css", nil, 200, ""},
		{"/favicon.svg", nil, 200, ""},
		{"/options.json", nil, 403, `{"error":"this server wants its token: open the URL that millengine serve printed (it ends in ?token=…)"}` + "\n"},
		{"/presets.json", []string{"X-Millengine-Token", tok}, 200, ""},
		{"/options.json", []string{"X-Millengine-Token", tok + "x"}, 403, ""},
		{"/ws", nil, 403, ""},
	} {
		resp, body := get(t, hs.URL+tc.path, tc.header...)
		if resp.StatusCode != tc.code || tc.body != "" && body != tc.body {
			t.Errorf("GET %s %q: %d %q, want %d %q", tc.path, tc.header, resp.StatusCode, body, tc.code, tc.body)
		}
	}
	resp, err := http.Post(hs.URL+"/api/import", "text/plain", strings.NewReader("1. a7 *"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("import without the token: %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws"
	if _, resp, err := websocket.Dial(ctx, ws, nil); err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("WebSocket without the token: %v %v", resp, err)
	}
	conn, _, err := websocket.Dial(ctx, ws+"?token="+tok, nil)
	if err != nil {
		t.Fatalf("WebSocket with the token: %v", err)
	}
	conn.CloseNow()
}
