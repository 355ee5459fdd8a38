package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestParseLevel(t *testing.T) {
	for s, want := range map[string]zerolog.Level{"OFF": zerolog.Disabled, "none": zerolog.Disabled, "Debug": zerolog.DebugLevel, "warn": zerolog.WarnLevel} {
		if l, err := ParseLevel(s); err != nil || l != want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", s, l, err, want)
		}
	}
	for s, want := range map[string]string{"": "--log-level: empty level", "loud": `--log-level "loud": want trace, debug, info, warn, error or disabled`} {
		if _, err := ParseLevel(s); err == nil || err.Error() != want {
			t.Errorf("ParseLevel(%q): %v, want %q", s, err, want)
		}
	}
}

// The log goes to the file as JSON lines at its level, or to stderr for
// people, without colours off a terminal.
func TestNewLogger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	log, closeLog, err := NewLogger(path, zerolog.InfoLevel, nil)
	if err != nil {
		t.Fatal(err)
	}
	log.Debug().Msg("hidden")
	log.Info().Msg("shown")
	closeLog()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); strings.Count(s, "\n") != 1 || !strings.HasPrefix(s, `{"level":"info","time":"`) || !strings.HasSuffix(s, `"message":"shown"}`+"\n") {
		t.Errorf("log file %q", s)
	}
	var stderr bytes.Buffer
	log, closeLog, err = NewLogger("", zerolog.WarnLevel, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	log.Info().Msg("hidden")
	log.Warn().Msg("shown")
	closeLog()
	if s := stderr.String(); strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, " WRN shown\n") {
		t.Errorf("stderr %q", s)
	}
	if _, _, err := NewLogger(filepath.Join(t.TempDir(), "no", "log"), zerolog.InfoLevel, nil); err == nil || !strings.HasPrefix(err.Error(), "--log-file: ") {
		t.Errorf("a log file that cannot be opened: %v", err)
	}
}
