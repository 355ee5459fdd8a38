package match

import (
	"testing"

	"github.com/millengine/millengine/internal/testkit"
)

// randomEngine is the path of testdata/engines/randomengine, built once.
var randomEngine string

func TestMain(m *testing.M) {
	testkit.MainBuilding(m, &randomEngine, "./testdata/engines/randomengine", "test")
}
