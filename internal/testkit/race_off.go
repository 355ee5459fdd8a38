//go:build !race

package testkit

// Race says that the tests run under the race detector (see race_on.go).
const Race = false
