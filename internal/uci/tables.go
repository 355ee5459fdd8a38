package uci

import (
	"fmt"
	"strings"
)

// emptyString is how a GUI writes an empty string option's value.
const emptyString = "<empty>"

// stringValue is a string option's value with <empty> read as "".
func stringValue(v string) string {
	if v = strings.TrimSpace(v); v == emptyString {
		return ""
	}
	return v
}

// setTablesDir is the EGTBPath option: the new directory's tables replace
// the old ones; a damaged file leaves no tables in use.
func (s *session) setTablesDir(value string) error {
	if err := s.engine.SetTablesDir(stringValue(value), &s.rules); err != nil {
		return fmt.Errorf("option %w", err)
	}
	return nil
}

// setPerfect is the options UsePerfectDatabase and PerfectDatabasePath:
// Malom's databases in the folder dir, used when use is on (what it holds,
// or why it is not used, is said at the next go). A path that is a file is
// refused.
func (s *session) setPerfect(use bool, dir string) error {
	if err := s.engine.SetPerfectDatabase(use, dir, &s.rules); err != nil {
		return fmt.Errorf("option %w", err)
	}
	return nil
}
