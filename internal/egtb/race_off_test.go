//go:build !race

package egtb

// raceEnabled: the tests run without the race detector.
const raceEnabled = false
