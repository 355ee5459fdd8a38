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
