package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// fenAfter returns the FEN after tokens from the start of Nine Men's Morris,
// computed by the rules package (not by the engine under test).
func fenAfter(t *testing.T, tokens ...string) string {
	t.Helper()
	return testkit.Game(t, rules.Default(), "", tokens...).Pos.FEN()
}

// get asks the server for url; header holds name, value pairs ("Host" sets
// the request's host).
func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	return request(t, "GET", url, nil, header...)
}

// request sends one request and returns the answer and its whole body.
func request(t *testing.T, method, url string, body io.Reader, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// The page and its files are served with their types and a strict CSP; the
// preset table has the eleven presets; anything else is 404; a foreign Host
// is refused when the server is local only.
func TestStaticFiles(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}, LocalOnly: true})
	for _, tc := range []struct {
		path, ctype, contains string
	}{
		{"/", "text/html; charset=utf-8", `<svg id="board"`},
		{"/app.js", "text/javascript; charset=utf-8", "window.millApp"},
		{"/uci.js", "text/javascript; charset=utf-8", "export class UciClient"},
		{"/notation.js", "text/javascript; charset=utf-8", "export function parseBoard"},
		{"/style.css", "text/css; charset=utf-8", "#board"},
		{"/favicon.svg", "image/svg+xml", "<svg"},
	} {
		resp, body := get(t, hs.URL+tc.path)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.ctype || !strings.Contains(body, tc.contains) {
			t.Errorf("GET %s: %d %q, body has %q: %v", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.contains, strings.Contains(body, tc.contains))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: CSP %q", tc.path, csp)
		}
	}
	resp, body := get(t, hs.URL+"/presets.json")
	var tab presetTable
	if err := json.Unmarshal([]byte(body), &tab); err != nil || resp.StatusCode != 200 {
		t.Fatalf("presets.json: %d %v", resp.StatusCode, err)
	}
	if len(tab.Presets) != 11 || tab.Presets[0].Key != "nine-mens-morris" || tab.Presets[3].Key != "morabaraba" ||
		tab.Presets[3].Rules["PiecesCount"] != 12 || tab.Presets[3].Rules["HasDiagonalLines"] != 1 || tab.Presets[0].Rules["MayFly"] != 1 {
		t.Errorf("presets: %+v", tab.Presets)
	}
	if len(tab.Params) != len(rules.Params) || tab.Params[0].Name != "PiecesCount" || !tab.Params[3].Bool {
		t.Errorf("params: %+v", tab.Params)
	}
	for _, p := range []string{"/nope", "/static/app.js", "/index.html/x"} {
		if resp, _ := get(t, hs.URL+p); resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
	if resp, body := get(t, hs.URL+"/", "Host", "evil.example:80"); resp.StatusCode != 403 || !strings.Contains(body, "only to localhost") {
		t.Errorf("foreign Host: %d %q", resp.StatusCode, body)
	}
	if resp, _ := get(t, hs.URL+"/", "Host", "localhost:8080"); resp.StatusCode != 200 {
		t.Errorf("Host localhost: %d", resp.StatusCode)
	}
}

// A page of another origin cannot open the bridge.
func TestForeignOriginRefused(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{"/bin/false"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial from a foreign origin: %v, %v", resp, err)
	}
}

// Two tabs keep separate games: separate engine processes, each with its own
// position.
func TestTwoTabsSeparateGames(t *testing.T) {
	srv, hs := startServer(t, Config{Engine: millengineCmd(t)})
	a, b := dial(t, hs), dial(t, hs)
	pa, pb := a.engineStarted().PID, b.engineStarted().PID
	if pa == pb {
		t.Fatalf("both tabs have engine pid %d", pa)
	}
	if n := srv.Sessions(); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}
	a.send("position startpos moves a7 b4 d7 f4 g7", "d")
	b.send("position startpos moves d6", "d")
	fenA, fenB := fenAfter(t, "a7", "b4", "d7", "f4", "g7"), fenAfter(t, "d6")
	if got := a.untilLine("fen:"); got[len(got)-1] != "fen: "+fenA {
		t.Fatalf("tab A: %q, want fen %s", got[len(got)-1], fenA)
	}
	if got := a.untilLine("legal:"); got[len(got)-1] != "legal: xb4 xf4" {
		t.Fatalf("tab A legal: %q", got)
	}
	if got := b.untilLine("fen:"); got[len(got)-1] != "fen: "+fenB {
		t.Fatalf("tab B: %q, want fen %s", got[len(got)-1], fenB)
	}
	b.untilLine("legal:")
	// A's game is untouched by B's.
	a.send("d")
	if got := a.untilLine("fen:"); got[len(got)-1] != "fen: "+fenA {
		t.Fatalf("tab A after B moved: %q", got[len(got)-1])
	}
	a.untilLine("legal:")
	// Each answers its own search.
	a.send("go depth 3")
	if got := a.untilLine("bestmove"); !slices.Contains([]string{"bestmove xb4", "bestmove xf4"}, got[len(got)-1]) {
		t.Fatalf("tab A's bestmove: %q", got)
	}
}

// Closing a tab in the middle of a search ends its engine process.
func TestTabClosedMidSearchEndsEngine(t *testing.T) {
	srv, hs := startServer(t, Config{Engine: millengineCmd(t)})
	c := dial(t, hs)
	pid := c.engineStarted().PID
	c.send("position startpos", "go infinite")
	c.untilLine("info depth")
	start := time.Now()
	c.conn.CloseNow() // the tab goes without a goodbye
	processGone(t, pid, 15*time.Second)
	t.Logf("engine %d gone %v after the tab", pid, time.Since(start).Round(time.Millisecond))
	deadline := time.Now().Add(10 * time.Second) // a hang guard
	for srv.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions left", srv.Sessions())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An engine that exits is restarted with a notice that says why; the page
// can go on at once with the new process.
func TestCrashingEngineRestarted(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{engineBin(t, "testengine"), "--exit-on", "go"}})
	c := dial(t, hs)
	first := c.engineStarted()
	if first.Restarts != 0 || first.Engine != "testengine" {
		t.Fatalf("start: %+v", first)
	}
	c.send("uci")
	if got := c.untilLine("uciok"); got[0] != fmt.Sprintf("id name testengine pid %d", first.PID) {
		t.Fatalf("uci: %q", got)
	}
	c.send("go depth 1")
	m := c.next()
	if m.T != "engine" || m.State != "exited" ||
		m.Text != `the engine exited (exit status 3; its last words: testengine: exiting on "go" on purpose); restarting it` {
		t.Fatalf("after the crash: %+v", m)
	}
	processGone(t, first.PID, 15*time.Second)
	second := c.engineStarted()
	if second.Restarts != 1 || second.PID == first.PID {
		t.Fatalf("restart: %+v after %+v", second, first)
	}
	c.send("isready", "uci")
	if got := c.untilLine("uciok"); !slices.Equal(got, []string{"readyok", fmt.Sprintf("id name testengine pid %d", second.PID), "uciok"}) {
		t.Fatalf("after the restart: %q", got)
	}
}

// An engine that cannot stay up is restarted MaxRestarts times, then the page
// is told it is given up.
func TestEngineKeepsCrashing(t *testing.T) {
	lim := DefaultLimits
	lim.MaxRestarts = 2
	_, hs := startServer(t, Config{Engine: []string{engineBin(t, "testengine"), "--die-at-start"}, Limits: lim})
	c := dial(t, hs)
	var got []string
	for {
		m := c.next()
		got = append(got, fmt.Sprintf("%s %s %d", m.T, m.State, m.Restarts))
		if m.State == "failed" {
			if !strings.Contains(m.Text, "exit status 4") || !strings.Contains(m.Text, "not restarted again") {
				t.Errorf("failed notice: %q", m.Text)
			}
			break
		}
	}
	want := []string{"engine started 0", "engine exited 0", "engine started 1", "engine exited 0", "engine started 2", "engine failed 0"}
	if !slices.Equal(got, want) {
		t.Fatalf("notices %q, want %q", got, want)
	}
	c.send("isready")
	if m := c.next(); m.T != "error" || m.Text != "isready: the engine is not running" {
		t.Fatalf("a line with no engine: %+v", m)
	}
}

// malformed returns 200 messages the bridge must refuse, with the error
// each must get.
func malformed(lim Limits) (typs []websocket.MessageType, data [][]byte, errs []string) {
	add := func(typ websocket.MessageType, d []byte, e string) {
		typs, data, errs = append(typs, typ), append(data, d), append(errs, e)
	}
	for i := range 50 {
		junk := make([]byte, 1+i*37%300)
		for j := range junk {
			junk[j] = byte(i*31 + j*7)
		}
		add(websocket.MessageBinary, junk, "refused a binary message: send UCI lines as text")
	}
	for i := range 30 {
		n := lim.MaxLineBytes + 1 + i*1000
		add(websocket.MessageText, bytes.Repeat([]byte("d"), n), fmt.Sprintf("refused a line of %d bytes: at most %d", n, lim.MaxLineBytes))
	}
	for i := range 40 {
		b := []byte("position startpos moves a7 ")
		b = append(b, 0xff, 0xfe, byte(0x80+i))
		add(websocket.MessageText, b, "refused a line that is not valid UTF-8")
	}
	unknown := []string{"quit", "bench", "rm", "$(reboot)", "frobnicate", "`id`", "bash", "QUIT", "ugi", "register"}
	for i := range 40 {
		w := unknown[i%len(unknown)]
		add(websocket.MessageText, []byte(w+" -rf / ; isready"), fmt.Sprintf("refused %q: not a UCI command this board sends (want one of uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, d, eval)", w))
	}
	for i := range 20 {
		add(websocket.MessageText, []byte(fmt.Sprintf("isready\nquit %d", i)), "refused a line with control character U+000A: send one UCI line per message")
	}
	for range 10 {
		add(websocket.MessageText, []byte("d\x00"), "refused a line with control character U+0000: send one UCI line per message")
	}
	for range 5 {
		add(websocket.MessageText, []byte("   \t "), "refused an empty line")
	}
	for range 5 {
		add(websocket.MessageText, []byte("go perft 9"), fmt.Sprintf("refused go perft 9: the depth must be 1..%d here", lim.MaxPerftDepth))
	}
	return typs, data, errs
}

// 200 malformed messages get 200 errors, reach neither engine, change
// nothing and crash nothing: the real engine still has its position and
// answers isready; the test engine saw none of them.
func TestMalformedMessages(t *testing.T) {
	typs, data, want := malformed(DefaultLimits)
	if len(data) != 200 {
		t.Fatalf("%d malformed messages, want 200", len(data))
	}
	t.Run("millengine", func(t *testing.T) {
		_, hs := startServer(t, Config{Engine: millengineCmd(t)})
		c := dial(t, hs)
		pid := c.engineStarted().PID
		c.send("position startpos moves a7 b4 d7 f4 g7", "d")
		fen := "fen: " + fenAfter(t, "a7", "b4", "d7", "f4", "g7")
		if got := c.untilLine("fen:"); got[len(got)-1] != fen {
			t.Fatalf("before: %q", got[len(got)-1])
		}
		c.untilLine("legal:")
		for i := range data {
			c.sendRaw(typs[i], data[i])
		}
		for i := range want {
			if m := c.next(); m.T != "error" || m.Text != want[i] {
				t.Fatalf("message %d: got %+v, want error %q", i, m, want[i])
			}
		}
		c.send("isready", "d")
		if got := c.untilLine("readyok"); len(got) != 1 {
			t.Fatalf("lines before readyok: %q", got)
		}
		if got := c.untilLine("fen:"); got[len(got)-1] != fen {
			t.Fatalf("after: %q, want %q", got[len(got)-1], fen)
		}
		if got := c.untilLine("legal:"); got[len(got)-1] != "legal: xb4 xf4" {
			t.Fatalf("after: %q", got)
		}
		processAlive(t, pid)
	})
	t.Run("testengine", func(t *testing.T) {
		_, _, c := testengineTab(t, Limits{})
		c.engineStarted()
		c.send("position startpos")
		for i := range data {
			c.sendRaw(typs[i], data[i])
		}
		c.send("isready")
		var lines []string
		errors := 0
		for !slices.Contains(lines, "readyok") {
			switch m := c.next(); m.T {
			case "line":
				lines = append(lines, m.Line)
			case "error":
				errors++
			default:
				t.Fatalf("unexpected %+v", m)
			}
		}
		if errors != 200 || !slices.Equal(lines, []string{"info string got position startpos", "readyok"}) {
			t.Fatalf("%d errors, engine lines %q", errors, lines)
		}
	})
}

func processAlive(t *testing.T, pid int) {
	t.Helper()
	if err := killZero(pid); err != nil {
		t.Fatalf("engine %d is gone: %v", pid, err)
	}
}

// A page that sends faster than the limit has the excess dropped, every
// dropped message counted in the notices (a burst in one, then at most one
// a second); once it slows down it is served again.
func TestRateLimit(t *testing.T) {
	_, _, c := testengineTab(t, Limits{Rate: 10, Burst: 20})
	c.engineStarted()
	start := time.Now()
	for range 100 {
		c.send("isready")
	}
	elapsed := time.Since(start)
	ready, dropped, notices, queue := readDrops(t, c, 15*time.Second, "10", func(r, d, q int) bool { return r+d+q >= 100 })
	// 20 at once, then 10 a second while the 100 were written.
	maxReady := 20 + int(elapsed.Seconds()*10) + 1
	if ready+dropped != 100 || queue != 0 || ready < 20 || ready > maxReady || notices < 1 || notices > 1+int(elapsed.Seconds())+1 {
		t.Fatalf("sent 100 in %v: %d readyok (want 20..%d) and %d dropped in %d notices", elapsed, ready, maxReady, dropped, notices)
	}
	time.Sleep(200 * time.Millisecond)
	c.send("isready")
	if got := c.untilLine("readyok"); len(got) != 1 {
		t.Fatalf("after slowing down: %q", got)
	}
}

// A message over the WebSocket limit closes that connection (and ends its
// engine); the server goes on serving.
func TestOversizedMessageClosesConnection(t *testing.T) {
	srv, hs, c := testengineTab(t, Limits{MaxMessageBytes: 64 << 10})
	pid := c.engineStarted().PID
	c.sendRaw(websocket.MessageText, bytes.Repeat([]byte("x"), 64<<10+1))
	select {
	case <-c.done:
	case <-time.After(10 * time.Second): // a hang guard
		t.Fatal("connection still open 10 s after the message")
	}
	if st := websocket.CloseStatus(c.err); st != websocket.StatusMessageTooBig {
		t.Fatalf("close status %v (%v), want %v", st, c.err, websocket.StatusMessageTooBig)
	}
	processGone(t, pid, 15*time.Second)
	d := dial(t, hs)
	d.engineStarted()
	d.send("isready")
	d.untilLine("readyok")
	if n := srv.Sessions(); n != 1 {
		t.Fatalf("%d sessions", n)
	}
}

// Tabs beyond MaxSessions are refused before the upgrade.
func TestMaxSessions(t *testing.T) {
	_, hs, c := testengineTab(t, Limits{MaxSessions: 1})
	c.engineStarted()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second tab: %v %v", resp, err)
	}
}

// A missing engine program is reported to the page, not retried.
func TestEngineMissing(t *testing.T) {
	_, hs := startServer(t, Config{Engine: []string{"/nonexistent/engine", "uci"}})
	c := dial(t, hs)
	m := c.next()
	if m.T != "engine" || m.State != "failed" || !strings.HasPrefix(m.Text, `starting the engine "/nonexistent/engine": `) {
		t.Fatalf("%+v", m)
	}
}

// Server.Close ends every session and its engine.
func TestCloseEndsEngines(t *testing.T) {
	srv, hs := startServer(t, Config{Engine: millengineCmd(t)})
	c := dial(t, hs)
	pid := c.engineStarted().PID
	c.send("go infinite")
	c.untilLine("info depth")
	srv.Close()
	processGone(t, pid, 15*time.Second)
	if n := srv.Sessions(); n != 0 {
		t.Fatalf("%d sessions after Close", n)
	}
}

func TestCheckLine(t *testing.T) {
	lim := DefaultLimits
	for _, tc := range []struct {
		in, want, err string
	}{
		{"isready", "isready", ""},
		{"  position startpos moves a7\t", "  position startpos moves a7\t", ""},
		{"SetOption name MultiPV value 3", "SetOption name MultiPV value 3", ""},
		{"go perft 5", "go perft 5", ""},
		{"go perft 6", "", "refused go perft 6: the depth must be 1..5 here"},
		{"go perft", "", "refused go perft: want 'go perft <depth>'"},
		{"go perft x", "", "refused go perft x: the depth must be 1..5 here"},
		{"quit", "", `refused "quit": not a UCI command this board sends (want one of uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, d, eval)`},
		{"d\r", "", "refused a line with control character U+000D: send one UCI line per message"},
		{"d\x7f", "", "refused a line with control character U+007F: send one UCI line per message"},
		{"", "", "refused an empty line"},
	} {
		got, err := checkLine(websocket.MessageText, []byte(tc.in), lim, newDeclTable(), &listedOptions{})
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("checkLine(%q) = %q, %v; want %q, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost:8080": true, "LOCALHOST": true, "127.0.0.1:1": true, "127.9.9.9": true, "[::1]:80": true,
		"evil.example": false, "10.0.0.1:8080": false, "localhost.evil.example": false, "": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v", host, got)
		}
	}
}

// BenchmarkBridgeRoundTrip measures a line from the page to the engine and
// its answer back (isready to readyok through the WebSocket, the bridge and
// the engine's pipes).
func BenchmarkBridgeRoundTrip(b *testing.B) {
	_, hs := startServer(b, Config{Engine: millengineCmd(b), Limits: Limits{Rate: 1e9, Burst: 1e9}})
	c := dial(b, hs)
	c.engineStarted()
	b.ResetTimer()
	for b.Loop() {
		c.send("isready")
		if m := c.next(); m.Line != "readyok" {
			b.Fatalf("%+v", m)
		}
	}
}
