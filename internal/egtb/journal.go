package egtb

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// journalHeader is the first line of a verify journal.
const journalHeader = "# millengine egtb verify journal"

// Journal records the tables a verify found OK, so that a verify of the
// whole set (hours) that is stopped goes on where it was: VerifyDir skips
// (VerifyOptions.Skip = Journal.Has) the tables the journal holds with the
// data checksum they have now, and a table rebuilt since is checked again.
// One line per table, appended and synced as each finishes:
//
//	plain-fly3-min3 7v6 dtz crc 1a2b3c4d: OK, 274598688 entries, 637.1 s
//
// While a table is checked, a line now and then records the part checked
// so far (VerifyOptions.Checkpoint), which the next run goes on from
// (Resume):
//
//	plain-fly3-min3 9v9 dtz crc 1a2b3c4d part: upto 123731968, 98304221 entries, 1502.3 s
//
// A last line cut by a kill is ignored; a file that does not start with the
// journal's header is refused.
type Journal struct {
	path  string
	f     *os.File
	done  map[string]bool       // "params label crc XXXXXXXX"
	parts map[string]VerifyPart // the same keys: the last part recorded
}

// OpenJournal opens the journal at path, creating it if it does not exist.
func OpenJournal(path string) (*Journal, error) {
	j := &Journal{path: path, done: map[string]bool{}, parts: map[string]VerifyPart{}}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("verify journal: %w", err)
	}
	first, err := j.read(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if first {
		if _, err := fmt.Fprintln(f, journalHeader); err != nil {
			f.Close()
			return nil, fmt.Errorf("verify journal: %w", err)
		}
	}
	j.f = f
	return j, nil
}

// read takes in the lines of a journal; first says it was empty.
func (j *Journal) read(r io.Reader) (first bool, err error) {
	sc := bufio.NewScanner(r)
	first = true
	for sc.Scan() {
		line := sc.Text()
		if first {
			if line != journalHeader {
				return false, fmt.Errorf("verify journal %s: not a journal of egtb verify (its first line is not %q)", j.path, journalHeader)
			}
			first = false
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		if k, _, ok := strings.Cut(line, ": OK, "); ok {
			j.done[k] = true
		} else if k, part, ok := parsePart(line); ok && part.Upto >= j.parts[k].Upto {
			j.parts[k] = part
		}
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("verify journal %s: %w", j.path, err)
	}
	return first, nil
}

func journalKey(r VerifyReport) string {
	return fmt.Sprintf("%s %s crc %08x", r.Params.Name(), r.Label(), r.CRC)
}

// Has reports whether the journal holds r's table as OK with r's checksum.
func (j *Journal) Has(r VerifyReport) bool { return j.done[journalKey(r)] }

// Add records r's table if it is OK, and syncs the file.
func (j *Journal) Add(r VerifyReport) error {
	if !r.OK() {
		return nil
	}
	if _, err := fmt.Fprintf(j.f, "%s: OK, %d entries, %.1f s\n", journalKey(r), r.Result.Checked, r.Elapsed.Seconds()); err != nil {
		return fmt.Errorf("verify journal: %w", err)
	}
	j.done[journalKey(r)] = true
	return j.f.Sync()
}

// partSep separates a part line's key from the part.
const partSep = " part: upto "

// formatPart is a part line's part: "123731968, 98304221 entries, 1502.3 s".
func formatPart(p VerifyPart) string {
	return fmt.Sprintf("%d, %d entries, %.1f s", p.Upto, p.Checked, p.Elapsed.Seconds())
}

// parsePart reads a part line; a line cut short does not parse.
func parsePart(line string) (string, VerifyPart, bool) {
	k, rest, ok := strings.Cut(line, partSep)
	if !ok {
		return "", VerifyPart{}, false
	}
	var p VerifyPart
	var secs float64
	var tail string
	if n, _ := fmt.Sscanf(rest, "%d, %d entries, %f %s", &p.Upto, &p.Checked, &secs, &tail); n != 4 || tail != "s" {
		return "", VerifyPart{}, false
	}
	p.Elapsed = time.Duration(secs * float64(time.Second))
	return k, p, true
}

// Resume returns the part of r's table (with r's checksum) that a stopped
// check recorded last, if any.
func (j *Journal) Resume(r VerifyReport) (VerifyPart, bool) {
	p, ok := j.parts[journalKey(r)]
	return p, ok
}

// Checkpoint records the part of r's table checked so far, and syncs the
// file.
func (j *Journal) Checkpoint(r VerifyReport, p VerifyPart) error {
	k := journalKey(r)
	if _, err := fmt.Fprintf(j.f, "%s%s%s\n", k, partSep, formatPart(p)); err != nil {
		return fmt.Errorf("verify journal: %w", err)
	}
	j.parts[k] = p
	return j.f.Sync()
}

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

// The record of the tables verified entry by entry: a journal of egtb
// verify, kept in the repository and built into the engine, so that tables
// built or copied anywhere are known verified in the time it takes to read
// them when their data is the data checked (the builds are deterministic:
// the same rules give byte-identical files), as Syzygy's users check their
// tables against published checksums. A verify hours long adds to it
// across machines: its OK lines, and its part lines for a table under way,
// are appended to the file and committed.
//
//go:embed verified.journal
var verifiedRecord string

// RecordName is what a verify names the record by.
const RecordName = "the record of verified tables, internal/egtb/verified.journal"

// Record returns the record of the tables verified entry by entry, a
// journal to read (Has, Resume), not to write.
func Record() *Journal {
	j := &Journal{path: RecordName, done: map[string]bool{}, parts: map[string]VerifyPart{}}
	if _, err := j.read(strings.NewReader(verifiedRecord)); err != nil {
		panic(err) // TestRecord reads it
	}
	return j
}

// RecordAdditions returns the lines of journal (a verify journal's text) that
// record (another journal's text, the record's) lacks, to append to it: the
// OK lines of the tables the record does not hold with the same data, and,
// for each table the journal checked only in part, its furthest part line
// where that goes further than the record's. This is how a verify of hours,
// on any machine, adds to the record (scripts/recordadd) and how the next
// one goes on from it. The OK lines come first, then the part lines.
func RecordAdditions(record, journal string) (oks, parts []string, err error) {
	rec := &Journal{path: "the record", done: map[string]bool{}, parts: map[string]VerifyPart{}}
	if _, err := rec.read(strings.NewReader(record)); err != nil {
		return nil, nil, err
	}
	jr := &Journal{path: "the journal", done: map[string]bool{}, parts: map[string]VerifyPart{}}
	if _, err := jr.read(strings.NewReader(journal)); err != nil {
		return nil, nil, err
	}
	var partKeys []string
	for line := range strings.Lines(journal) {
		line = strings.TrimRight(line, "\r\n")
		if k, _, ok := strings.Cut(line, ": OK, "); ok && !strings.HasPrefix(line, "#") {
			if !rec.done[k] {
				oks = append(oks, line)
				rec.done[k] = true
			}
		} else if k, _, ok := parsePart(line); ok && !jr.done[k] && !rec.done[k] && !slices.Contains(partKeys, k) {
			partKeys = append(partKeys, k)
		}
	}
	for _, k := range partKeys {
		if p := jr.parts[k]; p.Upto > rec.parts[k].Upto {
			parts = append(parts, k+partSep+formatPart(p))
		}
	}
	return oks, parts, nil
}
