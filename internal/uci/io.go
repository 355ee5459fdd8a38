package uci

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// MaxLineBytes is the longest input line the loop reads; the rest of a longer
// line is skipped and the line is reported as an error.
const MaxLineBytes = 1 << 20

// inputLine is one line of input, without its line ending.
type inputLine struct {
	text    string
	size    int  // bytes in the line as read
	tooLong bool // the line exceeded MaxLineBytes; text is empty
}

// readLines sends the lines of in to out until the end of in or until done is
// closed; it closes out when it stops.
func readLines(in io.Reader, out chan<- inputLine, done <-chan struct{}, log zerolog.Logger) {
	defer close(out)
	br := bufio.NewReaderSize(in, 64<<10)
	for first := true; ; first = false {
		l, err := readLine(br)
		if first {
			// Some Windows tools start a UTF-8 stream with a byte-order mark.
			l.text = strings.TrimPrefix(l.text, "\ufeff")
		}
		if l.size > 0 { // without an error a line holds at least its newline
			select {
			case out <- l:
			case <-done:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log.Error().Err(err).Msg("reading input")
			}
			return
		}
	}
}

// readLine reads up to the next '\n' (or the end of input) and strips the
// line ending.
func readLine(br *bufio.Reader) (inputLine, error) {
	var (
		buf []byte
		l   inputLine
	)
	for {
		chunk, err := br.ReadSlice('\n')
		l.size += len(chunk)
		if !l.tooLong {
			if len(buf)+len(chunk) > MaxLineBytes+2 {
				l.tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !l.tooLong {
			l.text = strings.TrimRight(string(buf), "\r\n")
			if len(l.text) > MaxLineBytes {
				l.tooLong, l.text = true, ""
			}
		}
		return l, err
	}
}

// writer owns the output: one goroutine writes every line and flushes it.
type writer struct {
	lines chan string
	done  chan struct{}
}

// flusher is implemented by buffered outputs such as *bufio.Writer.
type flusher interface{ Flush() error }

func newWriter(out io.Writer, log zerolog.Logger) *writer {
	w := &writer{lines: make(chan string, 256), done: make(chan struct{})}
	go w.run(out, log)
	return w
}

func (w *writer) run(out io.Writer, log zerolog.Logger) {
	defer close(w.done)
	f, _ := out.(flusher)
	failed := false
	for l := range w.lines {
		if failed {
			continue // keep draining so that the loop never blocks on a dead output
		}
		log.Trace().Str("line", clip(l, 200)).Msg(">>")
		_, err := io.WriteString(out, l+"\n")
		if err == nil && f != nil {
			err = f.Flush()
		}
		if err != nil {
			log.Error().Err(err).Msg("writing output; further output is dropped")
			failed = true
		}
	}
}

// println queues one line; control characters in it are replaced by spaces so
// that a line is always exactly one protocol line.
func (w *writer) println(l string) {
	if strings.IndexFunc(l, isControl) >= 0 {
		l = strings.Map(func(r rune) rune {
			if isControl(r) {
				return ' '
			}
			return r
		}, l)
	}
	w.lines <- l
}

// close writes what is queued and waits until it is written.
func (w *writer) close() {
	close(w.lines)
	<-w.done
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError }

// lineWriter adapts a line sink to io.Writer for code that prints with
// fmt.Fprintf (search.Bench): complete lines are handed to emit as they
// appear.
type lineWriter struct {
	emit    func(string)
	partial []byte
}

// Write hands every complete line in p to emit and keeps the rest for later.
func (lw *lineWriter) Write(p []byte) (int, error) {
	lw.partial = append(lw.partial, p...)
	for {
		i := bytes.IndexByte(lw.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		lw.emit(strings.TrimRight(string(lw.partial[:i]), "\r"))
		lw.partial = lw.partial[i+1:]
	}
}

// Flush hands a trailing line without line ending to emit, if any.
func (lw *lineWriter) Flush() {
	if len(lw.partial) > 0 {
		lw.emit(string(lw.partial))
		lw.partial = nil
	}
}

// quote renders user input for an error line: printable, at most 64
// characters, in single quotes.
func quote(s string) string { return "'" + clip(s, 64) + "'" }

// clip makes s printable (control characters and invalid bytes become \xNN
// escapes) and cuts it to at most n characters.
func clip(s string, n int) string {
	var b strings.Builder
	count := 0
	for i := 0; i < len(s); {
		if count >= n {
			b.WriteString("...")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unicode.IsPrint(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
		count++
	}
	return b.String()
}
