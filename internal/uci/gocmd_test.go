package uci

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/search"
)

func TestParseGo(t *testing.T) {
	ms := time.Millisecond
	place := func(tok string) position.Move {
		m, err := position.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		args      string
		lim       search.Limits
		untilStop bool
		hard      time.Duration
		err       string
	}{
		{args: "", lim: search.Limits{MoveTime: time.Second}, hard: time.Second},
		{args: "infinite", lim: search.Limits{Infinite: true}, untilStop: true},
		{args: "depth 5", lim: search.Limits{Depth: 5}},
		{args: "DEPTH 5", lim: search.Limits{Depth: 5}},
		{args: "nodes 1000", lim: search.Limits{Nodes: 1000}},
		{args: "movetime 250", lim: search.Limits{MoveTime: 250 * ms}, hard: 250 * ms},
		{args: "wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20",
			lim:  search.Limits{WTime: 60000 * ms, BTime: 50000 * ms, WInc: 1000 * ms, BInc: 500 * ms, MovesToGo: 20},
			hard: (60000*ms - search.DefaultOptions().MoveOverhead) / 2},
		{args: "wtime -50 btime 0", lim: search.Limits{WTime: ms, BTime: ms}, hard: ms},
		{args: "winc 100 binc 100", lim: search.Limits{WInc: 100 * ms, BInc: 100 * ms, MoveTime: time.Second}, hard: time.Second},
		{args: "ponder wtime 1000 btime 1000", lim: search.Limits{Ponder: true, WTime: 1000 * ms, BTime: 1000 * ms}, hard: (1000*ms - search.DefaultOptions().MoveOverhead) / 2},
		{args: "ponder", lim: search.Limits{Ponder: true, MoveTime: time.Second}, hard: time.Second},
		{args: "infinite depth 3", lim: search.Limits{Infinite: true, Depth: 3}, untilStop: true},
		{args: "searchmoves a7 d6 depth 2", lim: search.Limits{Depth: 2, SearchMoves: []position.Move{place("a7"), place("d6")}}},
		{args: "depth 2 searchmoves A7", lim: search.Limits{Depth: 2, SearchMoves: []position.Move{place("a7")}}},
		{args: "depth", err: "go: depth wants a value"},
		{args: "depth 1.5", err: "go: depth '1.5' is not an integer"},
		{args: "depth 128", err: "go: depth 128 is out of range 1..127"},
		{args: "nodes 0", err: "go: nodes 0 is out of range 1..4611686018427387904"},
		{args: "movetime -1", err: "go: movetime -1 is out of range 1..1099511627776"},
		{args: "binc -3", err: "go: binc -3 is out of range 0..1099511627776"},
		{args: "movestogo -1", err: "go: movestogo -1 is out of range 0..1000000"},
		{args: "wtime 99999999999999", err: "go: wtime 99999999999999 is out of range -1099511627776..1099511627776"},
		{args: "mate 3", lim: search.Limits{Mate: 3}},
		{args: "mate 0", err: "go: mate 0 is out of range 1..32"},
		{args: "searchmoves", err: "go searchmoves: want at least one move token"},
		{args: "searchmoves depth 3", err: "go searchmoves: want at least one move token"},
		{args: "searchmoves a7 xb4", err: "go searchmoves: illegal move xb4: no removal is pending"},
	}
	for _, tc := range tests {
		t.Run(tc.args, func(t *testing.T) {
			s, _ := newTestSession(t)
			req, err := s.parseGo(strings.Fields(tc.args))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(req.lim, tc.lim) || req.untilStop != tc.untilStop || req.hard != tc.hard {
				t.Fatalf("got %+v untilStop %v hard %v\nwant %+v untilStop %v hard %v",
					req.lim, req.untilStop, req.hard, tc.lim, tc.untilStop, tc.hard)
			}
		})
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("a", MaxLineBytes+1)
	tests := []struct {
		name string
		in   string
		want []inputLine
	}{
		{"lf", "uci\nisready\n", []inputLine{{text: "uci", size: 4}, {text: "isready", size: 8}}},
		{"crlf", "uci\r\nisready\r\n", []inputLine{{text: "uci", size: 5}, {text: "isready", size: 9}}},
		{"no final newline", "uci\nquit", []inputLine{{text: "uci", size: 4}, {text: "quit", size: 4}}},
		{"empty lines", "\n\n", []inputLine{{text: "", size: 1}, {text: "", size: 1}}},
		{"too long", long + "\nuci\n", []inputLine{{tooLong: true, size: len(long) + 1}, {text: "uci", size: 4}}},
		{"longest", long[1:] + "\n", []inputLine{{text: long[1:], size: len(long)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.in), 64<<10)
			var got []inputLine
			for {
				l, err := readLine(br)
				if l.size > 0 {
					got = append(got, l)
				}
				if err != nil {
					break
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %d lines, want %d", len(got), len(tc.want))
			}
		})
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 10, "abc"},
		{"abcdef", 3, "abc..."},
		{"a\x00b", 10, `a\x00b`},
		{"\xff\xfe", 10, `\xff\xfe`},
		{"é", 10, "é"},
		{"\u2028", 10, `\u2028`},
		{"\x1b[2J", 10, `\x1b[2J`},
	}
	for _, tc := range tests {
		if got := clip(tc.in, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// A too long line is reported and skipped; the next line works.
func TestTooLongLine(t *testing.T) {
	h := startHarness(t, testConfig())
	h.send(strings.Repeat("x", MaxLineBytes+10), "isready")
	expectLines(t, h,
		"info string error: input line of 1048587 bytes is longer than 1048576 bytes; ignored",
		"readyok")
}
