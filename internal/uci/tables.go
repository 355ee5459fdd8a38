package uci

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
)

// The endgame tables (EGTBPath) are opened for the current rules: when the
// option is set, at start-up, and again when the rules change. They are
// read-only and shared with the search. A damaged file is refused with an
// error line and the tables are not used; rules the tables do not cover are
// said once, at the next go, and the tables are not probed under them.

// emptyString is how a GUI writes an empty string option's value.
const emptyString = "<empty>"

// openTables (re)opens the tables of s.tablesDir for the current rules and
// hands them to the engine. It returns an error for a damaged table file.
func (s *session) openTables() error {
	if s.tables != nil {
		s.tables.Close()
		s.tables = nil
	}
	s.tablesNote, s.tablesNoted = "", false
	defer func() { s.engine.SetTables(s.tables) }()
	if s.tablesDir == "" {
		return nil
	}
	if _, err := os.Stat(s.tablesDir); errors.Is(err, os.ErrNotExist) {
		s.tablesNote = fmt.Sprintf("egtb: no tables in %s (build them with: millengine egtb build)", s.tablesDir)
		s.log.Info().Str("dir", s.tablesDir).Msg("no endgame tables")
		return nil
	}
	if _, err := egtb.ParamsOf(&s.rules); err != nil {
		s.tablesNote = fmt.Sprintf("egtb: the tables are not used under these rules (%v)", err)
		return nil
	}
	t, err := egtb.Open(s.tablesDir, &s.rules)
	if err != nil {
		return err
	}
	s.tables = t
	if !t.Covers(&s.rules) {
		s.tablesNote = fmt.Sprintf("egtb: %s holds no tables for these rules (%s)", s.tablesDir, t.Params().Name())
	}
	s.log.Info().Str("dir", s.tablesDir).Int("sectors", len(t.Sectors())).Msg("endgame tables opened")
	return nil
}

// setTablesDir is the EGTBPath option: the new directory's tables replace
// the old ones; a damaged file leaves no tables in use.
func (s *session) setTablesDir(value string) error {
	dir := strings.TrimSpace(value)
	if dir == emptyString {
		dir = ""
	}
	s.tablesDir = dir
	if err := s.openTables(); err != nil {
		return fmt.Errorf("option EGTBPath: %w; the tables are not used", err)
	}
	return nil
}

// tablesAtGo writes, at the start of a search, what the tables say of the
// root by the engine's policy (egtb.Tables.RankRoot, with the game's
// history): its value and each action's, best first, in one line a GUI can
// show per move — "info string egtb <V> moves <token> <V> …" (V: win N, loss
// N, win N dtz, loss N dtz, draw, draw repetition, draw nmove). Once per
// opening of the tables it says what they hold (or why they are not used).
func (s *session) tablesAtGo(g *position.Game) {
	if s.tables == nil || !s.tables.Covers(&g.Rules) {
		if s.tablesNote != "" && !s.tablesNoted {
			s.tablesNoted = true
			s.printf("info string %s", s.tablesNote)
		}
		return
	}
	if !s.tablesNoted {
		s.tablesNoted = true
		s.printf("info string egtb: %s", s.tables.Coverage())
	}
	acts, ok := s.tables.RankRoot(g)
	if !ok {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "info string egtb %s moves", acts[0].Token())
	for _, a := range acts {
		fmt.Fprintf(&b, " %s %s", a.Move, a.Token())
	}
	s.printf("%s", b.String())
}
