//go:build !race

package solve

// raceEnabled: the tests run without the race detector.
const raceEnabled = false
