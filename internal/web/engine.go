package web

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// engineQueue is how many lines may wait for the engine to read them; a page
// that gets further ahead of the engine is told so and its lines are dropped.
const engineQueue = 256

// engineProc is one engine child process: its stdin is fed by a goroutine
// from a queue, its stdout is read by the session, its stderr goes to the log
// and to a short tail kept for the crash report.
type engineProc struct {
	cmd    *exec.Cmd
	pid    int
	in     chan string
	out    *bufio.Reader
	stdin  io.WriteCloser
	stderr *tailWriter

	mu       sync.Mutex // guards in against a send after close
	inClosed bool
	quitOnce sync.Once
	done     chan struct{} // closed when the process has been waited for
	waitErr  error
}

// startEngine starts argv (no shell) with pipes.
func startEngine(argv []string, log zerolog.Logger) (*engineProc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &tailWriter{max: 2048, log: log}
	cmd.Stderr = tail
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the engine %q: %w", argv[0], err)
	}
	p := &engineProc{
		cmd: cmd, pid: cmd.Process.Pid, in: make(chan string, engineQueue),
		out: bufio.NewReaderSize(stdout, 64<<10), stdin: stdin, stderr: tail,
		done: make(chan struct{}),
	}
	go p.feed()
	return p, nil
}

// feed writes queued lines to the engine until the queue is closed or a
// write fails (the engine has gone); then it closes stdin.
func (p *engineProc) feed() {
	defer p.stdin.Close()
	for l := range p.in {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			for range p.in { // drain until closed
			}
			return
		}
	}
}

// send queues a line for the engine without blocking.
func (p *engineProc) send(line string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inClosed {
		return errors.New("the engine is shutting down; line dropped")
	}
	select {
	case p.in <- line:
		return nil
	default:
		return errors.New("the engine is not reading its input; line dropped")
	}
}

// closeInput closes the queue (and so stdin, once the queue is written).
func (p *engineProc) closeInput() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.inClosed {
		p.inClosed = true
		close(p.in)
	}
}

// quit asks the engine to stop and quit, closes its stdin, and kills it if
// it has not exited after grace. It returns at once.
func (p *engineProc) quit(grace time.Duration) {
	p.quitOnce.Do(func() {
		_ = p.send("stop")
		_ = p.send("quit")
		p.closeInput()
		go func() {
			select {
			case <-p.done:
			case <-time.After(grace):
				_ = p.cmd.Process.Kill()
			}
		}()
	})
}

// readLine returns the next stdout line without its line ending, cut to max
// bytes; io.EOF when the engine's stdout has ended.
func (p *engineProc) readLine(max int) (string, error) {
	var buf []byte
	for {
		chunk, err := p.out.ReadSlice('\n')
		if len(buf) < max {
			buf = append(buf, chunk[:min(len(chunk), max-len(buf))]...)
		}
		switch {
		case err == nil:
			return strings.TrimRight(string(bytes.TrimRight(buf, "\n")), "\r"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(buf) > 0:
			return strings.TrimRight(string(buf), "\r"), nil
		default:
			return "", err
		}
	}
}

// wait waits for the process after its stdout has ended and returns its
// exit status.
func (p *engineProc) wait() error {
	p.waitErr = p.cmd.Wait()
	p.closeInput()
	close(p.done)
	return p.waitErr
}

// tailWriter logs an engine's stderr line by line and keeps its last bytes.
type tailWriter struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	partial []byte
	log     zerolog.Logger
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	t.partial = append(t.partial, b...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.log.Debug().Str("stderr", string(t.partial[:i])).Msg("engine")
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > t.max {
		t.partial = t.partial[:0]
	}
	return len(b), nil
}

// Tail returns the last lines the engine wrote on stderr.
func (t *tailWriter) Tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
