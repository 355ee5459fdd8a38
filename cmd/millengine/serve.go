package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/web"
)

// runServe implements 'millengine serve'.
func runServe(e *env, args []string) int {
	fs := e.subFlags("serve", `serve [--addr HOST:PORT] [--engine "CMD ARGS"]`,
		"Serves a board for people in the browser: open the URL it prints. Every tab plays against\n"+
			"its own engine process, a child of the server: millengine itself (its \"uci\" command)\n"+
			"unless --engine names another mill UCI engine. The page speaks UCI to the engine through\n"+
			"a WebSocket; the server passes lines only. It listens on localhost unless --addr says\n"+
			"otherwise. The address and the URL to open go to stderr with the log; stdout is not\n"+
			"used. Ctrl-C stops it and every engine.")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	engine := fs.String("engine", "", "the engine command and its arguments, split on spaces (default: this millengine's uci command)")
	fs.SortFlags = false
	if code, ok := e.parse(fs, args, false); !ok {
		return code
	}
	stderr, log := e.stderr, e.log
	argv, err := engineCommand(e.g, *engine)
	if err != nil {
		return e.usageError("serve", err.Error())
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	tcp := ln.Addr().(*net.TCPAddr)
	srv, err := web.New(web.Config{Engine: argv, Log: log, LocalOnly: tcp.IP.IsLoopback()})
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
