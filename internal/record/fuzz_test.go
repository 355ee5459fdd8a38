package record_test

import (
	"errors"
	"testing"

	"github.com/millengine/millengine/internal/record"
)

// FuzzRead feeds arbitrary text to the readers. Reading must not panic; an
// error must be an *Error with no games; whatever reads (in Sanmill's or
// PlayOK's notation) must write and read back Equal, and write again to the
// same text. Replaying and Import must not panic either.
func FuzzRead(f *testing.F) {
	for _, tc := range roundTripCases {
		f.Add([]byte(tc.in))
		f.Add([]byte(tc.out))
	}
	for _, tc := range badInputs {
		f.Add([]byte(tc.in))
	}
	for _, name := range []string{"sanmill-export.pgn", "sanmill-setup.pgn", "playok-game.txt"} {
		f.Add(readSample(f, name))
	}
	for _, s := range []string{
		"1. 5 13 2. 20-19x3 x4 *",
		"[Site \"PlayOK\"]\n1. 10-1x23 8-5 1-0",
		"@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11",
		"1. d6 ;a}\n(1. f4 ;b}\n) *",
		"{a\r\r\nb} 1. d6 {\t} *",
		"1. d6 (1. f4 (1. a1 (1. g7))) ({x} 1. b4) *",
		"[A \"\\\\\\\"\"] * 1-0 {c} 0-1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parse := range []func([]byte) ([]record.Game, error){record.Parse, record.ParsePlayOK} {
			games, err := parse(data)
			if err != nil {
				var e *record.Error
				if !errors.As(err, &e) || games != nil {
					t.Fatalf("error %v (%T) with %d games", err, err, len(games))
				}
				continue
			}
			roundTrip(t, games)
			for i := range games {
				record.Replay(&games[i], nil)
			}
		}
		record.Import(data)
	})
}
