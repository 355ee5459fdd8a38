package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/millengine/millengine/internal/testkit"
)

func TestServeCommandLine(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string // substring
		stdout string // substring
	}{
		{[]string{"serve", "--help"}, 0, "", "Usage: millengine serve [--addr HOST:PORT] [--engine \"CMD ARGS\"]"},
		{[]string{"help", "serve"}, 0, "", "--addr string             address to listen on (port 0 picks a free port) (default \"127.0.0.1:8080\")"},
		{[]string{"serve", "--bogus"}, 2, "millengine serve: unknown flag: --bogus (see millengine serve --help)", ""},
		{[]string{"serve", "extra"}, 2, `millengine serve: unexpected argument "extra" (see millengine serve --help)`, ""},
		{[]string{"serve", "--engine", "/nonexistent/engine uci"}, 2, `millengine serve: --engine: exec: "/nonexistent/engine": stat /nonexistent/engine: no such file or directory (see millengine serve --help)`, ""},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, 1, "serve: listen tcp: address 99999: invalid port", ""},
		{[]string{"help"}, 0, "", "  serve     a board for people in the browser"},
		{[]string{"serve", "--help"}, 0, "", "--max-hash int            the largest Hash (MB) a tab may set (default 256)"},
		{[]string{"serve", "--help"}, 0, "", "--idle-timeout duration   close a tab that sends nothing for this long (0: never) (default 30m0s)"},
		{[]string{"serve", "--max-hash", "0"}, 2, "millengine serve: --max-hash 0 is out of range 1..65536 (see millengine serve --help)", ""},
		{[]string{"serve", "--idle-timeout", "10ms"}, 2, "millengine serve: --idle-timeout 10ms: want 0 (never) or at least 1s (see millengine serve --help)", ""},
		{[]string{"--hash", "512", "serve"}, 2, "millengine serve: --hash 512 is above --max-hash 256: every tab's engine would start above the cap (see millengine serve --help)", ""},
	}
	for _, tc := range tests {
		code, stdout, stderr := runCmd(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) || !strings.Contains(stdout, tc.stdout) {
			t.Errorf("%q: code %d, stderr %q, stdout %q; want %d, %q and %q", tc.args, code, stderr, stdout, tc.code, tc.stderr, tc.stdout)
		}
		if tc.stdout == "" && stdout != "" {
			t.Errorf("%q wrote to stdout: %q", tc.args, stdout)
		}
	}
}

// startServe starts millengine serve on addr, its stdout written to
// stdout, and reads its start-up lines on stderr up to the one that gives
// the page's URL: it returns the process, those lines, the URL and the
// rest of stderr. The process is killed at the end of the test.
func startServe(t *testing.T, addr string, stdout io.Writer) (*exec.Cmd, []string, string, *testkit.Lines) {
	t.Helper()
	cmd := exec.Command(binary(t), "serve", "--addr", addr)
	cmd.Stdout = stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	lines := testkit.NewLines(t, stderr)
	head := lines.Until("millengine serve: open ")
	return cmd, head, strings.TrimPrefix(head[len(head)-1], "millengine serve: open "), lines
}

// The real binary serves the page on a free localhost port, says where on
// stderr (stdout stays empty), runs itself as the engine of a tab, and on
// SIGINT stops with every engine.
func TestServeEndToEnd(t *testing.T) {
	var stdout strings.Builder
	cmd, head, url, stderr := startServe(t, "127.0.0.1:0", &stdout)
	if len(head) != 3 || !regexp.MustCompile(`^millengine serve: listening on 127\.0\.0\.1:\d+ \(this machine only\)$`).MatchString(head[0]) ||
		!regexp.MustCompile(`^millengine serve: engine: /\S+/millengine --hash 16 --threads 1 --variant nine-mens-morris --egtb-path \S* --book \S+ --log-level warn uci$`).MatchString(head[1]) ||
		!regexp.MustCompile(`^http://127\.0\.0\.1:\d+/$`).MatchString(url) {
		t.Fatalf("start-up lines %q", head)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<svg id="board"`) {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func() map[string]any {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := read()
	pid, _ := m["pid"].(float64)
	if m["t"] != "engine" || m["state"] != "started" || m["engine"] != "millengine" || pid <= 0 {
		t.Fatalf("first message %v", m)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte("uci")); err != nil {
		t.Fatal(err)
	}
	if m := read(); m["t"] != "line" || m["line"] != "id name millengine e2e-test" {
		t.Fatalf("answer to uci: %v", m)
	}

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	head = append(head, stderr.Rest()...) // to its end: serve has stopped
	// Stopped by a signal, like every command: 128 + SIGINT.
	if err := cmd.Wait(); exitCode(t, err) != 130 {
		t.Fatalf("serve exited with %v; stderr %q", err, head)
	}
	if head[len(head)-1] != "millengine serve: stopped" || stdout.String() != "" {
		t.Fatalf("stderr %q, stdout %q", head, stdout.String())
	}
	if err := syscall.Kill(int(pid), 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("engine %d still there after serve stopped: %v", int(pid), err)
	}
}

// Listening beyond loopback, serve prints a URL with a secret token, and
// the server answers only requests that carry it (the page's static files
// excepted).
func TestServeToken(t *testing.T) {
	_, head, url, _ := startServe(t, "0.0.0.0:0", nil)
	m := regexp.MustCompile(`^http://localhost:(\d+)/\?token=([0-9a-f]{32})$`).FindStringSubmatch(url)
	if m == nil || !strings.HasSuffix(head[0], "(reachable from other machines)") {
		t.Fatalf("start-up lines %q", head)
	}
	base, token := "http://127.0.0.1:"+m[1], m[2]
	for _, tc := range []struct {
		path string
		code int
	}{{"/?token=" + token, 200}, {"/", 403}, {"/?token=" + strings.Repeat("0", 32), 403}, {"/app.js", 200},
		{"/options.json", 403}, {"/options.json?token=" + token, 200}} {
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("GET %s: %d, want %d", tc.path, resp.StatusCode, tc.code)
		}
	}
}
