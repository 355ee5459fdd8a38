package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/rs/zerolog"
)

// ParseLevel reads a log level, --log-level's value: trace, debug, info,
// warn, error, or disabled ("off" and "none" too).
func ParseLevel(s string) (zerolog.Level, error) {
	switch strings.ToLower(s) {
	case "off", "none", "disabled":
		return zerolog.Disabled, nil
	case "":
		return zerolog.NoLevel, fmt.Errorf("--log-level: empty level")
	}
	l, err := zerolog.ParseLevel(strings.ToLower(s))
	if err != nil {
		return l, fmt.Errorf("--log-level %q: want trace, debug, info, warn, error or disabled", s)
	}
	return l, nil
}

// NewLogger returns a command's log at level and a function that closes its
// file: JSON lines appended to file (--log-file), or without a file lines
// for people on stderr, in colour on a terminal. It never writes to stdout.
func NewLogger(file string, level zerolog.Level, stderr io.Writer) (zerolog.Logger, func(), error) {
	zerolog.TimeFieldFormat = "2006-01-02T15:04:05.000000Z07:00"
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return zerolog.Nop(), func() {}, fmt.Errorf("--log-file: %w", err)
		}
		return zerolog.New(f).Level(level).With().Timestamp().Logger(), func() { f.Close() }, nil
	}
	cw := zerolog.ConsoleWriter{Out: stderr, NoColor: !IsTerminal(stderr), TimeFormat: "15:04:05.000"}
	return zerolog.New(cw).Level(level).With().Timestamp().Logger(), func() {}, nil
}

// StartCPUProfile starts a CPU profile of the command into path
// (--cpuprofile; go tool pprof reads it); stop ends it and closes the file.
func StartCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
