//go:build race

package solve

// raceEnabled: the tests run under the race detector, so they size their
// work down.
const raceEnabled = true
