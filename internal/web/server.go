// Package web serves the browser board of `millengine serve`: one embedded
// page and a WebSocket bridge between that page and a UCI engine running as a
// child process, one engine process per connected tab.
//
// The bridge passes lines only. The page sends one UCI command per text
// message; the bridge checks it (size, UTF-8, no control characters, a known
// UCI command) and writes it to the engine's stdin. Every line the engine
// writes on stdout goes back to the page as {"t":"line","line":…}. The bridge
// also reports the engine's life ({"t":"engine",…}: started, exited,
// restarted, failed) and its own refusals ({"t":"error","text":…}). An engine
// that exits while its tab is open is restarted; the page then sets it up
// again. The engine is never run through a shell.
//
// A tab may set only what a player should (options.go): the rules, the
// time, the search's playing options, a Hash up to the server's cap; never
// a path or any other string option. A tab that sends nothing for
// IdleTimeout is closed, so that abandoned tabs do not hold the session
// slots.
//
// Beside the bridge the server answers a small JSON API (api.go): records
// are read (/api/import) and written (/api/export) by the record package,
// and games are graded by the review package with one in-process engine
// (/api/review), so that the page parses and writes no game records itself.
//
// On loopback the server answers only to loopback Host names (a guard
// against DNS rebinding). Listening beyond it, it wants a secret token with
// every request but the page's static files (Config.Token).
package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/rules"
)

//go:embed static
var staticFiles embed.FS

// Limits bound what one tab may ask of the server.
type Limits struct {
	MaxLineBytes    int           // longest UCI line the page may send
	MaxMessageBytes int64         // longest WebSocket message read; longer ones close the connection
	MaxEngineLine   int           // engine output lines are cut to this many bytes
	Rate            float64       // messages per second a tab may send, on average
	Burst           int           // messages a tab may send at once
	MaxSessions     int           // tabs connected at once
	MaxRestarts     int           // engine restarts allowed within RestartWindow
	RestartWindow   time.Duration // the window MaxRestarts counts in
	QuitGrace       time.Duration // how long an engine gets to exit after quit before it is killed
	MaxPerftDepth   int           // deepest "go perft" passed on
	MaxHashMB       int           // largest Hash a tab may set, in MB
	// IdleTimeout closes a tab that has sent no message for this long (its
	// engine ends with it), so that abandoned tabs cannot keep others out;
	// negative: never.
	IdleTimeout    time.Duration
	MaxImportBytes int64 // largest record /api/import and /api/review read
	MaxReviewPlies int   // longest game (engine actions) /api/review grades
}

// DefaultLimits are the limits of `millengine serve`.
var DefaultLimits = Limits{
	MaxLineBytes:    16 << 10,
	MaxMessageBytes: 1 << 20,
	MaxEngineLine:   64 << 10,
	Rate:            200,
	Burst:           400,
	MaxSessions:     16,
	MaxRestarts:     5,
	RestartWindow:   time.Minute,
	QuitGrace:       2 * time.Second,
	MaxPerftDepth:   5,
	MaxHashMB:       256,
	IdleTimeout:     30 * time.Minute,
	MaxImportBytes:  1 << 20,
	MaxReviewPlies:  400,
}

// Config configures a Server.
type Config struct {
	Engine []string       // the engine's command and arguments (no shell)
	Log    zerolog.Logger // the server's log; never stdout
	Limits Limits         // zero fields take DefaultLimits' values
	// LocalOnly makes the server refuse requests whose Host is not a loopback
	// name (a guard against DNS rebinding when it listens on localhost).
	LocalOnly bool
	// Token, when not empty, is the secret every request must carry (the
	// query parameter token or the header X-Millengine-Token), the page's
	// static files excepted: a server that listens beyond loopback would
	// otherwise start engines for anyone on the network. The page takes it
	// from its own URL and sends it with its API requests and WebSocket.
	Token string
	// EGTBPath is the endgame tables' directory that reviews use ("": none).
	EGTBPath string
	// Now is the clock of exported records' Date tag; nil means time.Now.
	Now func() time.Time
}

// Server is the HTTP handler of the board and the bridge. Close ends every
// session and its engine.
type Server struct {
	cfg    Config
	mux    *http.ServeMux
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	sessions map[int64]*session
	wg       sync.WaitGroup
	nextID   atomic.Int64

	decls   declTable     // the options a tab may know of (options.go)
	reviews chan struct{} // one review at a time: a slot, taken without waiting
	rev     reviewer      // the reviews' engine and tables, owned by the slot's holder
}

// New returns a server that runs cfg.Engine for every tab.
func New(cfg Config) (*Server, error) {
	if len(cfg.Engine) == 0 || cfg.Engine[0] == "" {
		return nil, errors.New("web: no engine command")
	}
	cfg.Limits = cfg.Limits.withDefaults()
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), sessions: map[int64]*session{},
		decls: newDeclTable(), reviews: make(chan struct{}, 1)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(sub)
	s.mux.HandleFunc("GET /ws", s.serveWS)
	s.mux.HandleFunc("GET /presets.json", s.servePresets)
	s.mux.HandleFunc("GET /options.json", s.serveOptions)
	s.mux.HandleFunc("POST /api/import", s.serveImport)
	s.mux.HandleFunc("POST /api/review", s.serveReview)
	s.mux.HandleFunc("POST /api/export", s.serveExport)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, files) })
	for _, name := range publicPaths {
		s.mux.HandleFunc("GET "+name, func(w http.ResponseWriter, r *http.Request) { s.serveFile(w, r, files) })
	}
	return s, nil
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.MaxLineBytes, d.MaxLineBytes)
	pick(&l.MaxEngineLine, d.MaxEngineLine)
	pick(&l.Burst, d.Burst)
	pick(&l.MaxSessions, d.MaxSessions)
	pick(&l.MaxRestarts, d.MaxRestarts)
	pick(&l.MaxPerftDepth, d.MaxPerftDepth)
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = d.MaxMessageBytes
	}
	if l.Rate <= 0 {
		l.Rate = d.Rate
	}
	if l.RestartWindow <= 0 {
		l.RestartWindow = d.RestartWindow
	}
	if l.QuitGrace <= 0 {
		l.QuitGrace = d.QuitGrace
	}
	pick(&l.MaxHashMB, d.MaxHashMB)
	pick(&l.MaxReviewPlies, d.MaxReviewPlies)
	if l.IdleTimeout == 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	if l.MaxImportBytes <= 0 {
		l.MaxImportBytes = d.MaxImportBytes
	}
	return l
}

// ServeHTTP serves the page, its files, the option and preset tables, the
// API and the bridge.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.LocalOnly && !loopbackHost(r.Host) {
		http.Error(w, "this server answers only to localhost", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'")
	if s.cfg.Token != "" && !publicFiles[r.URL.Path] && !s.tokenOK(r) {
		const msg = "this server wants its token: open the URL that millengine serve printed (it ends in ?token=…)"
		if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasSuffix(r.URL.Path, ".json") {
			writeError(w, http.StatusForbidden, msg)
		} else {
			http.Error(w, msg, http.StatusForbidden)
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

// publicPaths are the page's files besides the page itself: its script
// modules (app.js and the modules it imports), style and icon. They are
// served without the token: they hold no secret and start nothing, and a
// module's import cannot carry the token (the page itself wants it, so
// that a bad link says so at once). A module the page imports must be
// listed here; nothing else of the static directory is served.
var publicPaths = []string{
	"/app.js", "/game.js", "/state.js", "/engine.js", "/board.js", "/clock.js", "/analysis.js", "/hint.js",
	"/review.js", "/records.js", "/movelist.js", "/status.js", "/options.js", "/rules.js", "/levels.js",
	"/notices.js", "/api.js", "/uci.js", "/notation.js", "/style.css", "/favicon.svg",
}

// publicFiles is publicPaths as a set, for the token check.
var publicFiles = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range publicPaths {
		m[p] = true
	}
	return m
}()

// tokenOK reports whether the request carries the server's token, in the
// query (the page's URL, the WebSocket's) or in the X-Millengine-Token header
// (the page's API requests).
func (s *Server) tokenOK(r *http.Request) bool {
	got := r.Header.Get("X-Millengine-Token")
	if got == "" {
		got = r.URL.Query().Get("token")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) == 1
}

// loopbackHost reports whether a Host header names this machine's loopback.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, files http.Handler) {
	w.Header().Set("Cache-Control", "no-cache")
	files.ServeHTTP(w, r)
}

// presetTable is /presets.json: the rule parameters and the presets' values,
// so that the page can name the variants and show their rules.
type presetTable struct {
	Params  []paramJSON  `json:"params"`
	Presets []presetJSON `json:"presets"`
}

type paramJSON struct {
	Name    string `json:"name"`
	Bool    bool   `json:"bool"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
	Comment string `json:"comment"`
}

type presetJSON struct {
	Key   string         `json:"key"`
	Name  string         `json:"name"`
	Rules map[string]int `json:"rules"`
}

// Presets returns the table /presets.json serves.
func presets() presetTable {
	var t presetTable
	for _, p := range rules.Params {
		t.Params = append(t.Params, paramJSON{Name: p.Name, Bool: p.Bool, Min: p.Min, Max: p.Max, Comment: p.Comment})
	}
	for _, pr := range rules.Presets {
		m := map[string]int{}
		for i := range rules.Params {
			m[rules.Params[i].Name] = rules.Params[i].Get(&pr.Rules)
		}
		t.Presets = append(t.Presets, presetJSON{Key: pr.Key, Name: pr.Name, Rules: m})
	}
	return t
}

func (s *Server) servePresets(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_ = json.NewEncoder(w).Encode(presets())
}

// serveWS upgrades to a WebSocket and runs one session until the tab goes.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	id := s.nextID.Add(1)
	s.mu.Lock()
	switch {
	case s.ctx.Err() != nil:
		s.mu.Unlock()
		http.Error(w, "server is shutting down", http.StatusServiceUnavailable)
		return
	case len(s.sessions) >= s.cfg.Limits.MaxSessions:
		s.mu.Unlock()
		http.Error(w, fmt.Sprintf("too many tabs (at most %d at once)", s.cfg.Limits.MaxSessions), http.StatusServiceUnavailable)
		return
	}
	s.sessions[id] = nil // the slot is taken before the upgrade
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, id)
		s.mu.Unlock()
		s.wg.Done()
	}()
	// Accept checks that the Origin is this host: another site's page in the
	// same browser cannot drive the engine.
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.cfg.Log.Debug().Err(err).Msg("websocket accept")
		return
	}
	conn.SetReadLimit(s.cfg.Limits.MaxMessageBytes)
	sess := newSession(s, id, conn)
	s.mu.Lock()
	s.sessions[id] = sess
	s.mu.Unlock()
	sess.run(s.ctx)
}

// Sessions returns how many tabs are connected.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Close ends every session (each engine gets quit, then is killed after the
// grace time) and waits for them.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
	// A review still running stops at its next search (its context is the
	// server's too); the slot's holder closes the tables when it is done.
	s.reviews <- struct{}{}
	s.rev.close()
	<-s.reviews
}
