package uci

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/search"
)

// runSession runs a session of the real searcher (Hash 16) and the tables
// of dir on the input lines, which end at once, and returns the session
// after its end with its output.
func runSession(t *testing.T, dir string, in ...string) (*session, []string) {
	t.Helper()
	cfg, err := Config{Version: "test", HashMB: 16, EGTBPath: dir}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := newWriter(&out, cfg.Log)
	s := newSession(cfg, w)
	t.Cleanup(s.engine.Close)
	lines := make(chan inputLine, len(in))
	for _, l := range in {
		lines <- inputLine{text: l}
	}
	close(lines)
	if err := s.loop(context.Background(), lines); err != nil {
		t.Fatal(err)
	}
	w.close()
	return s, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// A session that only lists the options (uci, quit: a GUI reading them)
// allocates no hash table and opens no tables: the searcher keeps the 1 MB
// table it starts with. The first other command sizes the table to Hash and
// opens the tables off the loop, and the lines wait for it in order, also
// when the input ends or quit comes right after them; isready answers once
// it is done.
func TestStartUpWaitsForItsFirstNeed(t *testing.T) {
	dir := smallTables(t)
	s, out := runSession(t, dir, "uci", "quit")
	if mb := s.engine.Searcher.(*search.Engine).HashMB(); mb != 1 || s.engine.Tables() != nil || s.setup == nil || out[len(out)-1] != "uciok" {
		t.Fatalf("after uci and quit: hash %d MB, tables %p, set-up %+v, output ending %q", mb, s.engine.Tables(), s.setup, out[len(out)-1])
	}
	// A script: the input ends, or quit comes, while the lines wait.
	for _, end := range [][]string{nil, {"quit"}} {
		s, out = runSession(t, dir, append([]string{"uci", "isready", "position startpos", "go depth 1"}, end...)...)
		if mb := s.engine.Searcher.(*search.Engine).HashMB(); mb != 16 || s.engine.Tables() == nil || s.setup != nil {
			t.Fatalf("%q: after isready: hash %d MB, tables %p, set-up %+v", end, mb, s.engine.Tables(), s.setup)
		}
		i := slices.Index(out, "uciok")
		if i < 0 || i+2 >= len(out) || out[i+1] != "readyok" || !strings.HasPrefix(out[i+2], "info string egtb: ") || !strings.HasPrefix(out[len(out)-1], "bestmove ") {
			t.Fatalf("%q: output %q", end, out)
		}
	}
}
