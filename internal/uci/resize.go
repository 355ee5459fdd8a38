package uci

import (
	"strings"
	"time"
)

// resize is a change of the Hash option in progress. A large table takes
// seconds to allocate and populate, so it is done on its own goroutine: the
// loop keeps reading, quit and the end of input end the session at once, and
// every other line waits, in order, until the table is ready (isready is then
// answered as soon as the memory is there, never later).
type resize struct {
	mb, oldMB int
	start     time.Time
}

// startResize sets the table to mb megabytes on another goroutine.
func (s *session) startResize(mb int) {
	s.resizing = &resize{mb: mb, oldMB: s.hashMB, start: time.Now()}
	s.hashMB = mb
	eng, done, closed := s.engine, s.resized, s.closed
	go func() {
		err := eng.SetHash(mb)
		select {
		case done <- err:
		case <-closed:
		}
	}()
}

// resizeDone ends the resize (an error keeps the old size and is reported),
// then runs the lines that waited. It reports whether one of them ended the
// session.
func (s *session) resizeDone(err error) (quit bool) {
	r := s.resizing
	s.resizing = nil
	took := time.Since(r.start)
	if err != nil {
		s.hashMB = r.oldMB
		s.log.Warn().Int("mb", r.mb).Dur("took", took).Err(err).Msg("hash table not resized")
		s.printf("info string error: option Hash: %s; the table stays at %d MB", err, r.oldMB)
	} else {
		s.log.Info().Int("mb", r.mb).Dur("took", took).Msg("hash table allocated")
	}
	return s.runQueued()
}

// waiting reports whether input lines wait: while the table is allocated
// or the tables opened.
func (s *session) waiting() bool {
	return s.resizing != nil || (s.setup != nil && !s.setup.started.IsZero())
}

// runQueued runs the lines that waited, in order, until one starts another
// wait. It reports whether one of them ended the session.
func (s *session) runQueued() (quit bool) {
	for len(s.queued) > 0 && !s.waiting() {
		l := s.queued[0]
		s.queued = s.queued[1:]
		if s.handleLine(l) {
			return true
		}
	}
	return false
}

// answersAtOnce reports whether a line is answered while the table is
// allocated or the tables opened: uci (and ugi), which lists the options
// and touches neither.
func answersAtOnce(l inputLine) bool {
	f := strings.Fields(l.text)
	return len(f) > 0 && (strings.EqualFold(f[0], "uci") || strings.EqualFold(f[0], "ugi"))
}

// isQuit reports whether the line is the quit command.
func isQuit(l inputLine) bool {
	f := strings.Fields(l.text)
	return len(f) > 0 && strings.EqualFold(f[0], "quit")
}
