package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/uci"
	"github.com/millengine/millengine/internal/web"
)

// runServe implements 'millengine serve'.
func runServe(e *env, args []string) int {
	fs := e.subFlags("serve", `serve [--addr HOST:PORT] [--engine "CMD ARGS"] [--max-hash MB] [--idle-timeout D]`,
		"Serves a board for people in the browser: open the URL it prints. Every tab plays against\n"+
			"its own engine process, a child of the server: millengine itself (its \"uci\" command)\n"+
			"unless --engine names another mill UCI engine. The page speaks UCI to the engine through\n"+
			"a WebSocket; the server passes lines only, and only what a player may set (no path\n"+
			"options, no Hash above --max-hash). The page also imports, exports and reviews games\n"+
			"through the server, which reviews with its own engine (one review at a time) and the\n"+
			"endgame tables of --egtb-path. It listens on localhost unless --addr says otherwise;\n"+
			"beyond localhost every request wants a secret token, which the printed URL carries.\n"+
			"The address and the URL to open go to stderr with the log; stdout is not used. Ctrl-C\n"+
			"stops it and every engine.")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	engine := fs.String("engine", "", "the engine command and its arguments, split on spaces (default: this millengine's uci command)")
	maxHash := fs.Int("max-hash", web.DefaultLimits.MaxHashMB, "the largest Hash (MB) a tab may set")
	idle := fs.Duration("idle-timeout", web.DefaultLimits.IdleTimeout, "close a tab that sends nothing for this long (0: never)")
	fs.SortFlags = false
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	stderr, log := e.stderr, e.log
	argv, err := engineCommand(e.g, *engine)
	if err != nil {
		return e.usageError("serve", err.Error())
	}
	if err := checkRange("--max-hash", *maxHash, 1, uci.DefaultMaxHashMB); err != nil {
		return e.usageError("serve", err.Error())
	}
	if *idle < 0 || (*idle > 0 && *idle < time.Second) {
		return e.usageError("serve", fmt.Sprintf("--idle-timeout %v: want 0 (never) or at least 1s", *idle))
	}
	if *engine == "" && e.g.hashMB > *maxHash {
		return e.usageError("serve", fmt.Sprintf("--hash %d is above --max-hash %d: every tab's engine would start above the cap", e.g.hashMB, *maxHash))
	}
	lim := web.DefaultLimits
	lim.MaxHashMB, lim.IdleTimeout = *maxHash, *idle
	if *idle == 0 {
		lim.IdleTimeout = -1
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	tcp := ln.Addr().(*net.TCPAddr)
	cfg := web.Config{Engine: argv, Log: log, Limits: lim, LocalOnly: tcp.IP.IsLoopback(), EGTBPath: e.g.egtbPath}
	if !tcp.IP.IsLoopback() {
		// Anyone who can reach the port could start engines: the URL
		// printed below carries a secret the server wants with every request.
		if cfg.Token, err = newToken(); err != nil {
			ln.Close()
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
	}
	srv, err := web.New(cfg)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	host := tcp.IP.String()
	switch {
	case tcp.IP.IsLoopback() && tcp.IP.To4() != nil:
		host = "127.0.0.1"
	case tcp.IP.IsUnspecified():
		host = "localhost"
	}
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port)) + "/"
	if cfg.Token != "" {
		url += "?token=" + cfg.Token
	}
	if tcp.IP.IsLoopback() {
		fmt.Fprintf(stderr, "millengine serve: listening on %s (this machine only)\n", ln.Addr())
	} else {
		fmt.Fprintf(stderr, "millengine serve: listening on %s (reachable from other machines)\n", ln.Addr())
	}
	fmt.Fprintf(stderr, "millengine serve: engine: %s\n", strings.Join(argv, " "))
	fmt.Fprintf(stderr, "millengine serve: open %s\n", url)

	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	ctx := e.ctx
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		srv.Close()
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	log.Info().Msg("shutting down")
	srv.Close() // ends the WebSocket sessions and their engines
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	fmt.Fprintln(stderr, "millengine serve: stopped")
	return 130 // ended by a signal: main reports 128 + its number
}

// newToken returns a random secret of 128 bits in hex, for the URL of a
// server that listens beyond loopback.
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the access token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// engineCommand returns the engine's argv: --engine split on spaces (its
// program must exist), or this executable's uci command with the global
// engine flags.
func engineCommand(g *globals, engine string) ([]string, error) {
	if strings.TrimSpace(engine) != "" {
		argv := strings.Fields(engine)
		path, err := exec.LookPath(argv[0])
		if err != nil {
			return nil, fmt.Errorf("--engine: %w", err)
		}
		argv[0] = path
		return argv, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program to run as the engine (%w); give --engine", err)
	}
	return []string{exe, "--hash", strconv.Itoa(g.hashMB), "--threads", strconv.Itoa(g.threads),
		"--variant", g.variant, "--egtb-path", g.egtbPath, "--book", g.book, "--log-level", g.logLevel, "uci"}, nil
}
