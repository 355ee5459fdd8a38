package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/millengine/millengine/internal/testkit"
	"github.com/rs/zerolog"
)

// The tests drive real engine processes: millengine itself and a tiny test
// engine, both built once (without -race: they are the children, and the
// race detector watches the server). Run with supervisorEnv set, the test
// binary is instead the supervisor of the browser the browser tests share
// (chrome_test.go).
func TestMain(m *testing.M) {
	if os.Getenv(supervisorEnv) != "" {
		os.Exit(superviseBrowser(os.Args[1:]))
	}
	testkit.Main(m)
}

// engineBin returns the path of a built test binary ("millengine" or
// "testengine").
func engineBin(t testing.TB, name string) string {
	t.Helper()
	pkg := map[string]string{"millengine": "./cmd/millengine", "testengine": "./internal/web/testdata/testengine"}[name]
	return testkit.Binary(t, pkg, "web-test")
}

// millengineCmd is the engine command of the tests: millengine's uci loop
// with a small table.
func millengineCmd(t testing.TB) []string {
	return []string{engineBin(t, "millengine"), "--hash", "8", "uci"}
}

// recordingEngine is millengineCmd behind tee, which writes every line the
// engine reads to the file it returns too: what the engine received, past
// the bridge (which refuses some lines), rather than what the page sent.
// The process the server starts is the shell: its pid is not the engine's.
func recordingEngine(t testing.TB) ([]string, string) {
	path := filepath.Join(t.TempDir(), "engine-stdin")
	return append([]string{"/bin/sh", "-c", `tee -a "$0" | "$@"`, path}, millengineCmd(t)...), path
}

// receivedSetoptions returns the setoption lines the engine read, from a
// recordingEngine's file.
func receivedSetoptions(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "setoption ") {
			out = append(out, l)
		}
	}
	return out
}

// startServer serves cfg on a loopback test server.
func startServer(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	cfg.Log = zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return srv, hs
}

// client is a test tab: a WebSocket to the bridge.
type client struct {
	t    testing.TB
	conn *websocket.Conn
	msgs chan Message
	done chan struct{}
	err  error
}

func dial(t testing.TB, hs *httptest.Server) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	conn.SetReadLimit(4 << 20)
	c := &client{t: t, conn: conn, msgs: make(chan Message, 4096), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer close(c.msgs)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				c.err = err
				return
			}
			var m Message
			if err := json.Unmarshal(data, &m); err != nil {
				c.err = fmt.Errorf("bad message %q: %w", data, err)
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { conn.CloseNow() })
	return c
}

// send writes text messages.
func (c *client) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		c.sendRaw(websocket.MessageText, []byte(l))
	}
}

func (c *client) sendRaw(typ websocket.MessageType, data []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, typ, data); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next returns the next message.
func (c *client) next() Message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatalf("connection ended: %v", c.err)
		}
		return m
	case <-time.After(15 * time.Second):
		c.t.Fatal("no message within 15s")
	}
	return Message{}
}

// engineStarted waits for the engine's start notice and returns it.
func (c *client) engineStarted() Message {
	c.t.Helper()
	m := c.next()
	if m.T != "engine" || m.State != "started" || m.PID <= 0 {
		c.t.Fatalf("first message %+v, want the engine's start", m)
	}
	return m
}

// untilLine reads messages until an engine line starting with prefix and
// returns the engine lines read (that one last). Other messages fail the test.
func (c *client) untilLine(prefix string) []string {
	c.t.Helper()
	var lines []string
	for {
		m := c.next()
		if m.T != "line" {
			c.t.Fatalf("waiting for %q: unexpected %+v after %q", prefix, m, lines)
		}
		lines = append(lines, m.Line)
		if strings.HasPrefix(m.Line, prefix) {
			return lines
		}
	}
}

// processGone waits until no process has the pid (the server has reaped it).
func processGone(t testing.TB, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still exists after %v (kill 0: %v)", pid, within, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killZero reports whether the process exists (signal 0).
func killZero(pid int) error { return syscall.Kill(pid, 0) }
