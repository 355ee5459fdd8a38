package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progressBar draws the progress of long work (an endgame table build, a
// book build) on one line of stderr: rewritten in place on a terminal, else
// a line every few seconds.
type progressBar struct {
	w        io.Writer
	prefix   string  // "egtb ", "book "
	unit     string  // of the rate: "M/s"
	scale    float64 // the rate is divided by it
	term     bool
	mu       sync.Mutex
	phase    string
	start    time.Time // of the phase
	last     time.Time // last drawn
	width    int
	interval time.Duration
}

func newProgressBar(w io.Writer, prefix, unit string, scale float64) *progressBar {
	b := &progressBar{w: w, prefix: prefix, unit: unit, scale: scale, term: isTerminal(w), interval: 5 * time.Second}
	if b.term {
		b.interval = 100 * time.Millisecond
	}
	return b
}

// update is an egtb.Progress and a book build's Progress.
func (b *progressBar) update(phase string, done, total uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if phase != b.phase {
		b.phase, b.start = phase, now
	}
	if now.Sub(b.last) < b.interval {
		return
	}
	b.last = now
	s := b.prefix + phase
	if total > 0 {
		el := now.Sub(b.start).Seconds()
		s += fmt.Sprintf(" %5.1f%%", 100*float64(done)/float64(total))
		if el > 0.05 && done > 0 {
			rate := float64(done) / el
			eta := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
			s += fmt.Sprintf("  %.2f %s  ETA %s", rate/b.scale, b.unit, eta)
		}
	}
	b.draw(s)
}

func (b *progressBar) draw(s string) {
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

// clear removes the line from a terminal.
func (b *progressBar) clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.term && b.width > 0 {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.width))
		b.width = 0
	}
}
