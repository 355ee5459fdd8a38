package movegen_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// perftRow is one line of testdata/perft.tsv.
type perftRow struct {
	variant string
	moves   []string
	depth   int
	nodes   uint64
}

func loadPerftTable(t testing.TB) []perftRow {
	t.Helper()
	f, err := os.Open("../../testdata/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 4 {
			t.Fatalf("bad perft.tsv line %q", line)
		}
		d, err1 := strconv.Atoi(c[2])
		n, err2 := strconv.ParseUint(c[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad perft.tsv line %q", line)
		}
		row := perftRow{variant: c[0], depth: d, nodes: n}
		if c[1] != "startpos" {
			row.moves = strings.Fields(c[1])
		}
		rows = append(rows, row)
	}
	return rows
}

// playTokens plays tokens from the start position, each checked for legality.
func playTokens(t testing.TB, r *rules.Rules, toks []string) position.Position {
	t.Helper()
	p := position.New(r)
	for i, tok := range toks {
		m, err := movegen.ParseLegal(r, &p, tok)
		if err != nil {
			t.Fatalf("token %d (%s): %v; fen %s", i+1, tok, err, p.FEN())
		}
		p.Do(r, m)
	}
	return p
}

// perftLimit is the largest reference count run by 'go test'; 'make perft'
// sets PERFT_FULL=1 to run every row, perft 7 of the start position included.
func perftLimit() uint64 {
	if os.Getenv("PERFT_FULL") != "" {
		return 1 << 62
	}
	if testing.Short() {
		return 20_000
	}
	return 300_000
}

func TestPerftTable(t *testing.T) {
	limit := perftLimit()
	ran := 0
	for _, row := range loadPerftTable(t) {
		if row.nodes > limit {
			continue
		}
		preset, ok := rules.PresetByName(row.variant)
		if !ok {
			t.Fatalf("unknown variant %q", row.variant)
		}
		r := preset.Rules
		p := playTokens(t, &r, row.moves)
		if got := movegen.Perft(&r, &p, row.depth); got != row.nodes {
			t.Errorf("%s after %d tokens, perft(%d) = %d, want %d; fen %s",
				row.variant, len(row.moves), row.depth, got, row.nodes, p.FEN())
		}
		ran++
	}
	if ran < 60 {
		t.Errorf("only %d perft rows ran", ran)
	}
	t.Logf("%d perft rows matched (leaf limit %d)", ran, limit)
}

// TestDivideSumsToPerft checks that divide splits perft exactly and is sorted.
func TestDivideSumsToPerft(t *testing.T) {
	for _, key := range rules.PresetKeys() {
		preset, _ := rules.PresetByName(key)
		r := preset.Rules
		p := position.New(&r)
		div := movegen.Divide(&r, &p, 3)
		var sum uint64
		for i, e := range div {
			sum += e.Nodes
			if i > 0 && div[i-1].Move.String() >= e.Move.String() {
				t.Fatalf("%s: divide not sorted at %s", key, e.Move)
			}
		}
		if want := movegen.Perft(&r, &p, 3); sum != want {
			t.Errorf("%s: divide sums to %d, perft(3) = %d", key, sum, want)
		}
	}
}

// TestPerftStartCounts pins the standard start counts of rules.md §6 that the
// short run covers.
func TestPerftStartCounts(t *testing.T) {
	r := rules.Default()
	p := position.New(&r)
	want := []uint64{1, 24, 552, 12144, 255024}
	for d, n := range want {
		if got := movegen.Perft(&r, &p, d); got != n {
			t.Errorf("perft(%d) = %d, want %d", d, got, n)
		}
	}
}
