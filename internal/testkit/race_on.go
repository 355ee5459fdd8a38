//go:build race

package testkit

// Race says that the tests run under the race detector: tests size their
// work down under it, or leave it to make test's run without it
// (NotUnderRace).
const Race = true
