package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"github.com/rs/zerolog"
)

// Message is what the server sends the page, one JSON object per WebSocket
// message.
type Message struct {
	T        string `json:"t"`                  // "line", "engine" or "error"
	Line     string `json:"line,omitempty"`     // t=line: one line the engine wrote
	State    string `json:"state,omitempty"`    // t=engine: started, exited or failed
	Text     string `json:"text,omitempty"`     // t=engine, t=error: for the user
	PID      int    `json:"pid,omitempty"`      // t=engine started: the process id
	Restarts int    `json:"restarts,omitempty"` // t=engine started: restarts so far
	Engine   string `json:"engine,omitempty"`   // t=engine started: the command's name
}

// outQueue is how many messages may wait for the page. Engine lines wait
// for room (the engine then waits too); the bridge's own notices are dropped
// when it is full.
const outQueue = 1024

// session is one tab: its WebSocket and its engine.
type session struct {
	srv  *Server
	id   int64
	conn *websocket.Conn
	log  zerolog.Logger
	lim  Limits
	out  chan Message

	mu  sync.Mutex
	eng *engineProc // nil while the engine is (re)starting or has failed

	bucket tokenBucket
	drops  dropCounter
	listed listedOptions // the options the engine listed in its answer to uci
	idle   *time.Timer   // closes the tab when the page has been silent for IdleTimeout
}

// dropCounter counts the messages the rate limit refuses and tells the page
// how many, every one of them: the first drop of a burst is reported after
// dropGather (so that a burst is one notice), later ones at most once a
// second, and a notice that finds the page's queue full is tried again.
type dropCounter struct {
	mu      sync.Mutex
	pending int         // dropped and not yet reported
	last    time.Time   // when the page was last told
	timer   *time.Timer // the next report, nil when none is due
}

// dropGather is how long the first drop of a burst waits for the others.
const dropGather = 100 * time.Millisecond

// idleCloseCode is the WebSocket close status of a tab closed for silence;
// the page then waits for its user before it connects again.
const idleCloseCode websocket.StatusCode = 4000

func newSession(srv *Server, id int64, conn *websocket.Conn) *session {
	lim := srv.cfg.Limits
	return &session{
		srv: srv, id: id, conn: conn, lim: lim,
		log:    srv.cfg.Log.With().Int64("session", id).Logger(),
		out:    make(chan Message, outQueue),
		bucket: tokenBucket{rate: lim.Rate, burst: float64(lim.Burst), tokens: float64(lim.Burst)},
	}
}

// run serves the tab until it goes or the server closes, then ends the
// engine and waits for it.
func (s *session) run(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s.log.Info().Msg("tab connected")
	if s.lim.IdleTimeout > 0 {
		s.idle = time.AfterFunc(s.lim.IdleTimeout, func() {
			s.log.Info().Dur("after", s.lim.IdleTimeout).Msg("tab idle; closing it")
			// Close sends the close frame and waits for the page's; the
			// read loop then ends, and the engine with it.
			_ = s.conn.Close(idleCloseCode, clip(fmt.Sprintf("no message from the page for %v: the tab was closed to free its engine", s.lim.IdleTimeout), 120))
		})
		defer s.idle.Stop()
	}
	defer s.drops.stop()
	engineDone := make(chan struct{})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writePage(ctx, cancel)
	}()
	go func() {
		defer close(engineDone)
		s.superviseEngine(ctx)
	}()
	s.readPage(ctx)
	cancel()
	<-engineDone
	<-writerDone
	_ = s.conn.Close(websocket.StatusNormalClosure, "")
	s.log.Info().Msg("tab gone; engine ended")
}

// writePage sends queued messages to the page until ctx ends; a failed write
// ends the session.
func (s *session) writePage(ctx context.Context, cancel context.CancelFunc) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-s.out:
			b, err := json.Marshal(m)
			if err != nil {
				continue
			}
			wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
			err = s.conn.Write(wctx, websocket.MessageText, b)
			wcancel()
			if err != nil {
				s.log.Debug().Err(err).Msg("write to page")
				cancel()
				return
			}
		}
	}
}

// notify queues a bridge message for the page, dropping it if the queue is
// full (the page is not reading).
func (s *session) notify(m Message) {
	select {
	case s.out <- m:
	default:
		s.log.Warn().Str("t", m.T).Str("text", m.Text).Msg("page queue full; notice dropped")
	}
}

// readPage reads the page's messages until the connection ends, passing the
// acceptable ones to the engine.
func (s *session) readPage(ctx context.Context) {
	for {
		typ, data, err := s.conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == -1 && ctx.Err() == nil {
				s.log.Debug().Err(err).Msg("read from page")
			}
			return
		}
		if s.idle != nil {
			s.idle.Reset(s.lim.IdleTimeout)
		}
		now := time.Now()
		if !s.bucket.take(now) {
			s.dropped(ctx, now)
			continue
		}
		line, err := checkLine(typ, data, s.lim, s.srv.decls, &s.listed)
		if err != nil {
			s.notify(Message{T: "error", Text: err.Error()})
			continue
		}
		if err := s.toEngine(line); err != nil {
			s.notify(Message{T: "error", Text: fmt.Sprintf("%s: %v", clip(line, 80), err)})
		}
	}
}

// dropped counts one message refused by the rate limit and makes sure the
// page hears of it.
func (s *session) dropped(ctx context.Context, now time.Time) {
	d := &s.drops
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pending++
	if d.timer == nil {
		wait := max(dropGather, d.last.Add(time.Second).Sub(now))
		d.timer = time.AfterFunc(wait, func() { s.reportDrops(ctx) })
	}
}

// reportDrops tells the page how many messages were dropped since the last
// notice. If the page's queue is full it tries again shortly, so that no
// drop goes uncounted; it gives up when the session ends.
func (s *session) reportDrops(ctx context.Context) {
	d := &s.drops
	d.mu.Lock()
	defer d.mu.Unlock()
	d.timer = nil
	if d.pending == 0 || ctx.Err() != nil {
		return
	}
	m := Message{T: "error", Text: fmt.Sprintf("too many messages (more than %g a second): %d dropped", s.lim.Rate, d.pending)}
	select {
	case s.out <- m:
		d.pending, d.last = 0, time.Now()
	default:
		d.timer = time.AfterFunc(dropGather, func() { s.reportDrops(ctx) })
	}
}

// stop cancels a pending report (the session is ending).
func (d *dropCounter) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

// toEngine writes a line to the current engine.
func (s *session) toEngine(line string) error {
	s.mu.Lock()
	eng := s.eng
	s.mu.Unlock()
	if eng == nil {
		return errors.New("the engine is not running")
	}
	s.log.Debug().Str("line", clip(line, 200)).Msg(">> engine")
	return eng.send(line)
}

// superviseEngine runs the engine for the session's life: it forwards its
// output, and restarts it when it exits on its own (at most MaxRestarts times
// within RestartWindow). When ctx ends it quits the engine and waits for it.
func (s *session) superviseEngine(ctx context.Context) {
	argv := s.srv.cfg.Engine
	name := filepath.Base(argv[0])
	var crashes []time.Time
	for restarts := 0; ; restarts++ {
		eng, err := startEngine(argv, s.log)
		if err != nil {
			s.log.Error().Err(err).Msg("engine start")
			s.notify(Message{T: "engine", State: "failed", Text: err.Error()})
			return
		}
		s.log.Info().Int("pid", eng.pid).Int("restarts", restarts).Msg("engine started")
		s.mu.Lock()
		s.eng = eng
		s.mu.Unlock()
		s.notify(Message{T: "engine", State: "started", PID: eng.pid, Restarts: restarts, Engine: name})

		stopWatch := make(chan struct{})
		go func() {
			select {
			case <-ctx.Done():
				eng.quit(s.lim.QuitGrace)
			case <-stopWatch:
			}
		}()
		s.pump(ctx, eng)
		err = eng.wait()
		close(stopWatch)
		s.mu.Lock()
		s.eng = nil
		s.mu.Unlock()
		if ctx.Err() != nil {
			s.log.Info().Int("pid", eng.pid).AnErr("exit", err).Msg("engine ended with the tab")
			return
		}

		why := "exit status 0"
		if err != nil {
			why = err.Error()
		}
		if tail := eng.stderr.Tail(); tail != "" {
			why += "; its last words: " + clip(lastLines(tail, 3), 300)
		}
		s.log.Warn().Int("pid", eng.pid).Str("why", why).Msg("engine exited")
		now := time.Now()
		crashes = append(crashes, now)
		for len(crashes) > 0 && now.Sub(crashes[0]) > s.lim.RestartWindow {
			crashes = crashes[1:]
		}
		if len(crashes) > s.lim.MaxRestarts {
			s.notify(Message{T: "engine", State: "failed", Text: fmt.Sprintf(
				"the engine exited (%s); it exited %d times within %v, so it is not restarted again: reload the page to try again",
				why, len(crashes), s.lim.RestartWindow)})
			<-ctx.Done()
			return
		}
		s.notify(Message{T: "engine", State: "exited", Text: fmt.Sprintf("the engine exited (%s); restarting it", why)})
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(len(crashes)-1) * 200 * time.Millisecond):
		}
	}
}

// pump forwards the engine's stdout lines to the page until stdout ends.
// It goes on reading after ctx ends so that the engine can finish writing
// and exit; the lines are then dropped.
func (s *session) pump(ctx context.Context, eng *engineProc) {
	for {
		line, err := eng.readLine(s.lim.MaxEngineLine)
		if err != nil {
			return
		}
		if ctx.Err() != nil {
			continue
		}
		s.listed.learn(line)
		select {
		case s.out <- Message{T: "line", Line: line}:
		case <-ctx.Done():
		}
	}
}

// allowedCommands are the UCI commands the page may send. Anything else
// (quit included: the engine's life is the server's business) is refused.
var allowedCommands = map[string]bool{
	"uci": true, "isready": true, "ucinewgame": true, "setoption": true,
	"position": true, "go": true, "stop": true, "ponderhit": true, "d": true, "eval": true,
}

// checkLine checks one message from the page and returns the UCI line it
// carries. A message is one line of valid UTF-8 text, without control
// characters (tabs excepted), no longer than MaxLineBytes, starting with an
// allowed command; a setoption must pass checkSetOption (the options the
// server's engine declares, decls, and those the running engine listed).
func checkLine(typ websocket.MessageType, data []byte, lim Limits, decls declTable, listed *listedOptions) (string, error) {
	if typ != websocket.MessageText {
		return "", errors.New("refused a binary message: send UCI lines as text")
	}
	if len(data) > lim.MaxLineBytes {
		return "", fmt.Errorf("refused a line of %d bytes: at most %d", len(data), lim.MaxLineBytes)
	}
	if !utf8.Valid(data) {
		return "", errors.New("refused a line that is not valid UTF-8")
	}
	line := string(data)
	for _, r := range line {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return "", fmt.Errorf("refused a line with control character %U: send one UCI line per message", r)
		}
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", errors.New("refused an empty line")
	}
	cmd := strings.ToLower(fields[0])
	if !allowedCommands[cmd] {
		return "", fmt.Errorf("refused %s: not a UCI command this board sends (want one of uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, d, eval)", strconv.Quote(clip(fields[0], 40)))
	}
	if cmd == "go" && len(fields) >= 2 && strings.EqualFold(fields[1], "perft") {
		if len(fields) != 3 {
			return "", errors.New("refused go perft: want 'go perft <depth>'")
		}
		d, err := strconv.Atoi(fields[2])
		if err != nil || d < 1 || d > lim.MaxPerftDepth {
			return "", fmt.Errorf("refused go perft %s: the depth must be 1..%d here", clip(fields[2], 20), lim.MaxPerftDepth)
		}
	}
	if cmd == "setoption" {
		if err := checkSetOption(fields[1:], lim, decls, listed); err != nil {
			return "", err
		}
	}
	return line, nil
}

// tokenBucket limits a page's message rate.
type tokenBucket struct {
	rate, burst, tokens float64
	last                time.Time
}

func (b *tokenBucket) take(now time.Time) bool {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// clip cuts s to at most n bytes (on a rune boundary), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// lastLines returns the last n lines of s joined by " | ".
func lastLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}
