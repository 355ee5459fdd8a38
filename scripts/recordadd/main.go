// Command recordadd appends what a verify journal adds to the record of
// verified tables (internal/egtb/verified.journal, built into the engine):
// the OK lines of tables the record does not hold, and the furthest part
// line of each table still under way, under a comment line that says when,
// with which build and how they were checked. A verify of hours on any
// machine so grows the record (docs/tables.md, "The record of verified
// tables"):
//
//	millengine egtb verify --dir D --known --threads 2 --journal J
//	go run ./scripts/recordadd --journal J --note "2026-11-29, build f392af7: 14 to 18 pieces, egtb verify --threads 2"
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/scripts/internal/paired"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("recordadd", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	journal := fs.String("journal", "", "the verify journal to take the lines from")
	record := fs.String("record", "internal/egtb/verified.journal", "the record to append to")
	note := fs.String("note", "", "the comment line above the lines added: date, build, command")
	if code, ok := paired.ParseFlags(fs, args, stderr); !ok {
		return code
	}
	if *journal == "" || strings.TrimSpace(*note) == "" || strings.ContainsAny(*note, "\r\n") || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "recordadd: want --journal J and a one-line --note, and no other arguments")
		return 2
	}
	rec, err := os.ReadFile(*record)
	if err != nil {
		fmt.Fprintf(stderr, "recordadd: %v\n", err)
		return 1
	}
	jr, err := os.ReadFile(*journal)
	if err != nil {
		fmt.Fprintf(stderr, "recordadd: %v\n", err)
		return 1
	}
	oks, parts, err := egtb.RecordAdditions(string(rec), string(jr))
	if err != nil {
		fmt.Fprintf(stderr, "recordadd: %v\n", err)
		return 1
	}
	lines := append(oks, parts...)
	if len(lines) == 0 {
		fmt.Fprintf(stdout, "%s holds every line of %s already\n", *record, *journal)
		return 0
	}
	text := strings.TrimRight(string(rec), "\n") + "\n# " + strings.TrimSpace(*note) + "\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(*record, []byte(text), 0o644); err != nil {
		fmt.Fprintf(stderr, "recordadd: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d OK lines and %d part lines added to %s\n", len(oks), len(parts), *record)
	return 0
}
