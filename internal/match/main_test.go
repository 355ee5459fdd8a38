package match

import (
	"fmt"
	"os"
	"testing"

	"github.com/millengine/millengine/internal/testkit"
)

// randomEngine is the path of testdata/engines/randomengine, built once.
var randomEngine string

func TestMain(m *testing.M) {
	var err error
	if randomEngine, err = testkit.Build("./testdata/engines/randomengine", "test"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testkit.Main(m)
}
