package uci

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Transcripts in testdata/uci/*.txt drive a session line by line:
//
//	# comment
//	> input line          sent to the engine
//	< output line         the next output line, byte for byte ("<" alone: an empty line)
//	~ regexp              the next output line matches (anchored)
//	~* regexp             zero or more lines match, up to the next expected line
//
// After the last input the input is closed; no more output may follow.
const transcriptDir = "../../testdata/uci"

type expectLine struct {
	exact  string
	re     *regexp.Regexp
	repeat bool
	src    string // file:line for messages
}

func (e *expectLine) matches(l string) bool {
	if e.re != nil {
		return e.re.MatchString(l)
	}
	return l == e.exact
}

func (e *expectLine) String() string {
	if e.re != nil {
		return "~ " + e.re.String()
	}
	return "< " + e.exact
}

type step struct {
	input  string
	expect []*expectLine
}

func parseTranscript(path string) ([]step, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var steps []step
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		where := fmt.Sprintf("%s:%d", filepath.Base(path), n)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, ">"):
			steps = append(steps, step{input: strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")})
		case len(steps) == 0:
			return nil, fmt.Errorf("%s: expected output before the first input", where)
		case l == "<" || strings.HasPrefix(l, "< "):
			s := &steps[len(steps)-1]
			s.expect = append(s.expect, &expectLine{exact: strings.TrimPrefix(strings.TrimPrefix(l, "<"), " "), src: where})
		case strings.HasPrefix(l, "~* ") || strings.HasPrefix(l, "~ "):
			rep := strings.HasPrefix(l, "~* ")
			re, err := regexp.Compile("^(?:" + strings.TrimPrefix(strings.TrimPrefix(l, "~*"), "~")[1:] + ")$")
			if err != nil {
				return nil, fmt.Errorf("%s: %v", where, err)
			}
			s := &steps[len(steps)-1]
			s.expect = append(s.expect, &expectLine{re: re, repeat: rep, src: where})
		default:
			return nil, fmt.Errorf("%s: line must start with #, >, < or ~", where)
		}
	}
	for _, s := range steps {
		for i, e := range s.expect {
			if e.repeat && (i+1 == len(s.expect) || s.expect[i+1].repeat) {
				return nil, fmt.Errorf("%s: ~* must be followed by a single-line expectation", e.src)
			}
		}
	}
	return steps, sc.Err()
}

// runTranscript plays the steps against a fresh session.
func runTranscript(t *testing.T, steps []step) {
	h := startHarness(t, testConfig())
	for _, s := range steps {
		h.send(s.input)
		for i := 0; i < len(s.expect); {
			l, ok := h.next()
			if !ok {
				t.Fatalf("after %q: output ended, want %s (%s)", s.input, s.expect[i], s.expect[i].src)
			}
			e := s.expect[i]
			switch {
			case !e.repeat && e.matches(l):
				i++
			case e.repeat && s.expect[i+1].matches(l):
				i += 2
			case e.repeat && e.matches(l):
			default:
				t.Fatalf("after %q:\n got  %q\n want %s (%s)", s.input, l, e, e.src)
			}
		}
	}
	rest, err := h.finish()
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(rest) > 0 {
		t.Fatalf("unexpected output at the end: %q", rest)
	}
}

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(transcriptDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", transcriptDir, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			steps, err := parseTranscript(f)
			if err != nil {
				t.Fatal(err)
			}
			runTranscript(t, steps)
		})
	}
}
