package match

import (
	"fmt"
	"os"
	"testing"

	"github.com/millengine/millengine/internal/match/matchtest"
)

// randomEngine is the path of testdata/engines/randomengine, built once.
var randomEngine string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "millmatch-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	randomEngine, err = matchtest.BuildRandomEngine(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
