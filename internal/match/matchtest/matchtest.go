// Package matchtest builds the tiny UCI engines under testdata/engines for
// the tests of millmatch, once per test binary.
package matchtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// ModuleRoot returns the directory holding go.mod, searching upwards from the
// working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// BuildRandomEngine compiles testdata/engines/randomengine into dir and
// returns the path of the executable. Call it from TestMain and share the
// result: the go build cache makes repeated builds cheap, but not free.
func BuildRandomEngine(dir string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "randomengine")
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", out, "./testdata/engines/randomengine")
	cmd.Dir = root
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build randomengine: %w\n%s", err, msg)
	}
	return out, nil
}
