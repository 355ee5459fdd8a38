// Package cli is what the three commands (millengine, millmatch, milltune)
// share about being commands: their exit codes, how a signal stops them and
// what status it leaves, the range check of a numeric flag and whether an
// output is a terminal, so that they behave alike on the command line.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1   // the work could not be done
	ExitUsage       = 2   // a bad command line: the message ends with "(see CMD --help)"
	ExitInterrupted = 130 // stopped, by a signal whose number is not known
)

// signalError is the cause of a context cancelled by a signal.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string {
	switch e.sig {
	case syscall.SIGINT:
		return "stopped by SIGINT"
	case syscall.SIGTERM:
		return "stopped by SIGTERM"
	}
	return "stopped by signal " + e.sig.String()
}

// SignalContext returns a context that SIGINT or SIGTERM cancels (the
// signal is its cause); a second signal ends the process at once, as the
// default action does.
func SignalContext() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-ch
		signal.Stop(ch)
		cancel(signalError{s.(syscall.Signal)})
	}()
	return ctx
}

// Signal returns the number of the signal that cancelled ctx, or 0.
func Signal(ctx context.Context) int {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return int(se.sig)
	}
	return 0
}

// StoppedCode is the exit status of a command whose context a signal ended:
// 128 + the signal's number, as a shell reports a process the signal
// killed (130 for SIGINT, 143 for SIGTERM), else ExitInterrupted.
func StoppedCode(ctx context.Context) int {
	if s := Signal(ctx); s != 0 {
		return 128 + s
	}
	return ExitInterrupted
}

// CheckRange reports a flag value outside lo..hi: "--depth 99 is out of
// range 0..64".
func CheckRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d is out of range %d..%d", flag, v, lo, hi)
	}
	return nil
}

// SignalCause is the cause SignalContext gives a context when sig stops it;
// tests stop a command as a signal would.
func SignalCause(sig syscall.Signal) error { return signalError{sig} }

// IsTerminal reports whether w is a character device (a terminal): a
// progress line is then rewritten in place and a log may have colours.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
