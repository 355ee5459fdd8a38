package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/web"
)

const serveUsage = `Usage: millengine serve [--addr HOST:PORT] [--engine "CMD ARGS"]

Serves a board for people in the browser: open the URL it prints. Every tab
plays against its own engine process, a child of the server: millengine itself
(its "uci" command) unless --engine names another mill UCI engine. The page
speaks UCI to the engine through a WebSocket; the server passes lines only.

It listens on localhost unless --addr says otherwise. The address and the URL
to open go to stderr with the log; stdout is not used. Ctrl-C stops it and
every engine.

Flags:
`

// runServe implements 'millengine serve'.
func runServe(g *globals, args []string, stderr io.Writer) int {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	engine := fs.String("engine", "", "the engine command and its arguments, split on spaces (default: this millengine's uci command)")
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprint(stderr, serveUsage)
		fmt.Fprint(stderr, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "serve: %v (see millengine serve --help)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	argv, err := engineCommand(g, *engine)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 2
	}
	log, closeLog, err := newLogger(g, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "millengine: %v\n", err)
		return 2
	}
	defer closeLog()

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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
	return 0
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
		"--variant", g.variant, "--log-level", g.logLevel, "uci"}, nil
}
