package uci

import (
	"context"
	"time"
)

// job is a long command that runs off the loop like a search (bench, go
// perft): the loop keeps answering isready while it runs, and stop, quit, the
// end of input or a signal end it, after which it writes what it has done so
// far. At most one search or job runs at a time.
type job struct {
	id     int
	name   string
	cancel context.CancelFunc
	start  time.Time
}

// startJob runs fn on its own goroutine. fn writes its output through emit
// (the loop prints it, in order) and must return soon after ctx ends.
func (s *session) startJob(name string, fn func(ctx context.Context, emit func(string))) {
	ctx, cancel := context.WithCancel(context.Background())
	s.runID++
	j := &job{id: s.runID, name: name, cancel: cancel, start: time.Now()}
	s.job = j
	send := s.sender()
	s.log.Debug().Int("job", j.id).Str("name", name).Msg("job started")
	go func() {
		defer cancel()
		fn(ctx, func(l string) { send(event{id: j.id, line: &l}) })
		send(event{id: j.id, end: true})
	}()
}

// handleJobEvent prints a line of the running job, or ends it.
func (s *session) handleJobEvent(ev event) {
	j := s.job
	if j == nil || ev.id != j.id {
		s.log.Debug().Int("job", ev.id).Msg("event of an abandoned job dropped")
		return
	}
	if ev.end {
		s.log.Debug().Int("job", j.id).Str("name", j.name).Dur("elapsed", time.Since(j.start)).Msg("job ended")
		s.job = nil
		return
	}
	s.printf("%s", *ev.line)
}

// stopJob asks the running job to end; its last lines follow.
func (s *session) stopJob() {
	if s.job != nil {
		s.job.cancel()
	}
}

// stopJobAndWait ends the running job and waits (at most wait) for its last
// lines, writing them.
func (s *session) stopJobAndWait(wait time.Duration) {
	j := s.job
	if j == nil {
		return
	}
	j.cancel()
	if !s.handleEventsUntil(wait, func() bool { return s.job != j }) {
		s.log.Error().Int("job", j.id).Str("name", j.name).Dur("waited", wait).Msg("job did not stop; abandoning it")
		s.job = nil
	}
}

// busy reports whether a search or a job runs.
func (s *session) busy() bool { return s.run != nil || s.job != nil }

// stopAll ends whatever runs (a search or a job) and waits for it at most
// wait: a new go, bench or go perft starts only after the old one answered.
func (s *session) stopAll(wait time.Duration) {
	s.stopAndWait(wait)
	s.stopJobAndWait(wait)
}
