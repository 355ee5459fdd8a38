//go:build race

package main

// raceEnabled: the tests run under the race detector, so the end-to-end
// Threads 2 test builds its engine binary with -race too.
const raceEnabled = true
