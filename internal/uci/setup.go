package uci

import (
	"strings"
	"time"

	"github.com/millengine/millengine/internal/engine"
)

// setup is the start-up's slow work, done on its own goroutine when the
// session first needs it, so that uci is answered at once and a session
// that only reads the options (a GUI starts an engine to list them, and a
// tournament manager one per game) never does it: the hash table allocated
// and populated to the Hash it starts with (16 MB take a few milliseconds,
// a gigabyte about a second) and the endgame tables opened (those up to 10
// pieces are read whole for their checksums, about 0.3 s). It starts at
// the first line other than uci (or ugi) and quit; that line and those
// after it wait, in order, as during a Hash change, quit excepted: isready
// is answered once the work is done, which is the protocol's point for a
// GUI to wait out set-up.
type setup struct {
	hashMB, startMB int    // the table's size to be, and at start
	dir             string // the tables' directory; "" for none
	started         time.Time
}

// setupResult is the end of the start-up's work.
type setupResult struct {
	hashErr error // the table could not be sized: it keeps its start size
	tables  engine.OpenedTables
}

// planSetup records the start-up's work: sizing the searcher's table from
// startMB to hashMB and opening the tables of dir; with neither to do there
// is none.
func (s *session) planSetup(hashMB, startMB int, dir string) {
	if hashMB != startMB || dir != "" {
		s.setup = &setup{hashMB: hashMB, startMB: startMB, dir: dir}
	}
}

// needsSetup reports whether l starts the start-up's work: any command
// but uci, ugi and quit.
func needsSetup(l inputLine) bool {
	return !l.tooLong && strings.TrimSpace(l.text) != "" && !answersAtOnce(l) && !isQuit(l)
}

// startSetup starts the planned work on another goroutine.
func (s *session) startSetup() {
	st := s.setup
	st.started = time.Now()
	eng, r, log, done, closed := s.engine, s.rules, s.log, s.setupDone, s.closed
	go func() {
		// The loop touches neither the searcher nor the tables until it
		// has the result: every line that would waits for it.
		var res setupResult
		if st.hashMB != st.startMB {
			res.hashErr = eng.SetHash(st.hashMB)
		}
		res.tables = engine.OpenTables(st.dir, &r, log)
		select {
		case done <- res:
		case <-closed:
			res.tables.Close()
		}
	}()
}

// finishSetup takes the start-up's work into use (a table that could not
// be sized keeps its start size; tables that could not be opened are said
// at the next go), then runs the lines that waited. It reports whether one
// of them ended the session.
func (s *session) finishSetup(res setupResult) (quit bool) {
	took := time.Since(s.setup.started)
	s.setup = nil
	if res.hashErr != nil {
		s.hashMB = 1
		s.log.Warn().Int("mb", s.cfg.HashMB).Err(res.hashErr).Msg("hash table not allocated")
		s.printf("info string error: option Hash: %s; the table stays at 1 MB", res.hashErr)
	}
	if err := s.engine.UseTables(res.tables); err != nil {
		s.engine.NoteTablesError(err) // said at the first go
	}
	s.log.Info().Dur("took", took).Msg("start-up done")
	return s.runQueued()
}
