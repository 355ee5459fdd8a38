// Package progress reports the progress of long work on one line of stderr
// — an endgame table build or verify, a book build, check or proof, a
// solver's proof — and estimates the time such work has left.
//
// A Bar draws the line: rewritten in place on a terminal, else a line every
// few seconds. BuildETA and VerifyETA estimate the time a table build or a
// verify of many tables has left, for the Bar's Suffix.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/millengine/millengine/internal/cli"
)

// Bar draws the progress of long work on one line of w: rewritten in place
// on a terminal, else a line every few seconds. It is safe for concurrent
// use.
type Bar struct {
	w      io.Writer
	prefix string  // "egtb ", "book "
	unit   string  // of the rate: "M/s"
	scale  float64 // the rate is divided by it
	term   bool
	// Suffix, if set before the first Update, is appended to every line
	// Update draws (a whole run's estimate, such as BuildETA.String).
	Suffix   func() string
	mu       sync.Mutex
	phase    string
	start    time.Time // of the phase
	base     uint64    // done at the phase's first update (a resumed check starts past 0)
	last     time.Time // last drawn
	width    int
	interval time.Duration
}

// NewBar returns a bar on w whose lines start with prefix and give the rate
// of the work divided by scale, in unit ("M/s" with a scale of 1e6).
func NewBar(w io.Writer, prefix, unit string, scale float64) *Bar {
	b := &Bar{w: w, prefix: prefix, unit: unit, scale: scale, term: cli.IsTerminal(w), interval: 5 * time.Second}
	if b.term {
		b.interval = 100 * time.Millisecond
	}
	return b
}

// Update takes the count of a phase of the work (an egtb.Progress and a
// book build's Progress): it draws the share done, the rate and the time
// the phase has left, at most every interval.
func (b *Bar) Update(phase string, done, total uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if phase != b.phase {
		b.phase, b.start, b.base = phase, now, done
	}
	if now.Sub(b.last) < b.interval {
		return
	}
	b.last = now
	s := b.prefix + phase
	if total > 0 {
		el := now.Sub(b.start).Seconds()
		s += fmt.Sprintf(" %5.1f%%", 100*float64(done)/float64(total))
		if el > 0.05 && done > b.base {
			rate := float64(done-b.base) / el
			eta := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
			s += fmt.Sprintf("  %.2f %s  ETA %s", rate/b.scale, b.unit, eta)
		}
	}
	if b.Suffix != nil {
		s += b.Suffix()
	}
	b.draw(s)
}

// Draw draws s as the line, whatever the interval: the work's own summary
// of its progress.
func (b *Bar) Draw(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw(s)
}

func (b *Bar) draw(s string) {
	if !b.term {
		fmt.Fprintln(b.w, s)
		return
	}
	pad := ""
	if n := b.width - len(s); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	b.width = len(s)
	fmt.Fprintf(b.w, "\r%s%s", s, pad)
}

// Clear removes the line from a terminal, before a line of the report or a
// warning is written.
func (b *Bar) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.term && b.width > 0 {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.width))
		b.width = 0
	}
}

// Seconds is a time as the reports of long work give it: "12.3 s".
func Seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
