package main

import (
	"bufio"
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
)

func TestServeCommandLine(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string // substring
		stdout string // substring
	}{
		{[]string{"serve", "--help"}, 0, "", "Usage: millengine serve [--addr HOST:PORT] [--engine \"CMD ARGS\"]"},
		{[]string{"help", "serve"}, 0, "", "--addr string     address to listen on (port 0 picks a free port) (default \"127.0.0.1:8080\")"},
		{[]string{"serve", "--bogus"}, 2, "millengine serve: unknown flag: --bogus (see millengine serve --help)", ""},
		{[]string{"serve", "extra"}, 2, `millengine serve: unexpected argument "extra" (see millengine serve --help)`, ""},
		{[]string{"serve", "--engine", "/nonexistent/engine uci"}, 2, `millengine serve: --engine: exec: "/nonexistent/engine": stat /nonexistent/engine: no such file or directory (see millengine serve --help)`, ""},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, 1, "serve: listen tcp: address 99999: invalid port", ""},
		{[]string{"help"}, 0, "", "  serve     a board for people in the browser"},
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

// The real binary serves the page on a free localhost port, says where on
// stderr (stdout stays empty), runs itself as the engine of a tab, and on
// SIGINT stops with every engine.
func TestServeEndToEnd(t *testing.T) {
	cmd := exec.Command(binary(t), "serve", "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var head []string
	var url string
	for url == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended: %q", head)
			}
			head = append(head, l)
			if u, ok := strings.CutPrefix(l, "millengine serve: open "); ok {
				url = u
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no URL on stderr: %q", head)
		}
	}
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
	done := make(chan error, 1)
	go func() {
		for l := range lines {
			head = append(head, l)
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		// Stopped by a signal, like every command: 128 + SIGINT.
		if code := exitCode(t, err); code != 130 {
			t.Fatalf("serve exited with %v; stderr %q", err, head)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
	if head[len(head)-1] != "millengine serve: stopped" || stdout.String() != "" {
		t.Fatalf("stderr %q, stdout %q", head, stdout.String())
	}
	if err := syscall.Kill(int(pid), 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("engine %d still there after serve stopped: %v", int(pid), err)
	}
}
