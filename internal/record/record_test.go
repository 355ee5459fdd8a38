package record_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
)

// The set-up positions of the hand-written games.
const (
	// White flies (three pieces); e3-g7 closes a7-d7-g7.
	fenFlying = "***O***@/****@@**/O*@****O w m s 3 0 4 0 0 0 0 0 0 0 0 0 30"
	// White's g4-g7 blocks Black (a7, d7, a4) when Black may not fly.
	fenBlock = "********/O*****O*/@*O**O@@ w m s 4 0 3 0 0 0 0 0 0 0 0 0 20"
	// rules.md §5: after a7 b4 d7 f4 g7 White must remove.
	fenWhiteRemoves = "********/**@***@*/OO*****O w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"
	// rules.md §5: Black to remove.
	fenBlackRemoves = "@*O@@OO*/O@@OO@*O/O***O@@@ b m r 9 0 9 0 0 1 0 0 0 0 0 4 11"
	// Twelve men, diagonals: d7 closes a7-d7-g7 and d7-d6-d5 at once.
	fenDoubleMill = "O*******/O**@*@**/*O*@*@*O w p p 4 8 4 8 0 0 0 0 0 0 0 0 5"
)

// placingPGN is a game of the placing phase with the seven tags, in the
// form the writer gives.
const placingPGN = `[Event "placing"]
[Site "here"]
[Date "2026.03.09"]
[Round "1"]
[White "w"]
[Black "b"]
[Result "*"]

1. d6 f4 2. d5 b4 3. d7xb4 g7 *
`

// roundTripCases are hand-written records: the games they read as and the
// text the writer gives for them.
var roundTripCases = []struct {
	name string
	in   string
	want []record.Game
	out  string
}{
	{
		name: "placing with a mill",
		in:   placingPGN,
		want: []record.Game{{
			Tags: []record.Tag{{"Event", "placing"}, {"Site", "here"}, {"Date", "2026.03.09"},
				{"Round", "1"}, {"White", "w"}, {"Black", "b"}, {"Result", "*"}},
			Line:   line(pl("d6"), pl("f4"), pl("d5"), pl("b4"), pl("d7", "b4"), pl("g7")),
			Result: "*",
		}},
		out: placingPGN, // written as read
	},
	{
		name: "flying with a removal",
		in: `[FEN "` + fenFlying + `"]
[SetUp "1"]

1. e3-g7xg4! {mill} c5-d5 2. g7-g1 d2-d3 *`,
		want: []record.Game{{
			Tags: []record.Tag{{"FEN", fenFlying}, {"SetUp", "1"}},
			Line: line(with(sl("e3", "g7", "g4"), []int{1}, []string{"mill"}),
				sl("c5", "d5"), sl("g7", "g1"), sl("d2", "d3")),
			Result: "*",
		}},
		out: `[FEN "` + fenFlying + `"]
[SetUp "1"]

1. e3-g7xg4! {mill} 1... c5-d5 2. g7-g1 d2-d3 *
`,
	},
	{
		name: "a pass",
		in: `[FEN "` + fenBlock + `"]
[SetUp "1"]

1. g4-g7 p 2. g7-g4 d7-g7 *`,
		want: []record.Game{{
			Tags:   []record.Tag{{"FEN", fenBlock}, {"SetUp", "1"}},
			Line:   line(sl("g4", "g7"), pass(), sl("g7", "g4"), sl("d7", "g7")),
			Result: "*",
		}},
		out: `[FEN "` + fenBlock + `"]
[SetUp "1"]

1. g4-g7 p 2. g7-g4 d7-g7 *
`,
	},
	{
		name: "comments, NAGs, nested variations",
		in: `{A game with notes} 1. d6! {best} $10 f4?! (1... d5 {symmetric}
(1... d2 2. f4) 2. f4) ( {idea} 1... a1 ) 2. d5 $1 $2 ;rest of line } too
b4 $0 *`,
		want: []record.Game{{
			Line: record.Line{
				Comments: []string{"A game with notes"},
				Moves: []record.Turn{
					with(pl("d6"), []int{1, 10}, []string{"best"}),
					with(pl("f4"), []int{6}, nil,
						line(with(pl("d5"), nil, []string{"symmetric"}, line(pl("d2"), pl("f4"))), pl("f4")),
						record.Line{Comments: []string{"idea"}, Moves: []record.Turn{pl("a1")}}),
					with(pl("d5"), []int{1, 2}, []string{"rest of line } too"}),
					with(pl("b4"), []int{0}, nil),
				},
			},
			Result: "*",
		}},
		out: `{A game with notes} 1. d6! $10 {best} 1... f4?! (1... d5 {symmetric} (1... d2
2. f4) 2. f4) ({idea} 1... a1) 2. d5! $2 ;rest of line } too
2... b4 $0 *
`,
	},
	{
		name: "several games",
		in: `[Event "first"]
[Result "1-0"]

1. d6 f4 1-0
[Event "second"]

1.d6 f4 2.d5 1/2-1/2 1. a7 *`,
		want: []record.Game{
			{Tags: []record.Tag{{"Event", "first"}, {"Result", "1-0"}}, Line: line(pl("d6"), pl("f4")), Result: "1-0"},
			{Tags: []record.Tag{{"Event", "second"}}, Line: line(pl("d6"), pl("f4"), pl("d5")), Result: "1/2-1/2"},
			{Line: line(pl("a7")), Result: "*"},
		},
		out: `[Event "first"]
[Result "1-0"]

1. d6 f4 1-0

[Event "second"]

1. d6 f4 2. d5 1/2-1/2

1. a7 *
`,
	},
	{
		name: "set-up position: a removal opens the game",
		in: `[FEN "` + fenWhiteRemoves + `"]
[SetUp "1"]

1. xb4 e5 2. d6 *`,
		want: []record.Game{{
			Tags:   []record.Tag{{"FEN", fenWhiteRemoves}, {"SetUp", "1"}},
			Line:   line(rmv("b4"), pl("e5"), pl("d6")),
			Result: "*",
		}},
		out: `[FEN "` + fenWhiteRemoves + `"]
[SetUp "1"]

1. xb4 e5 2. d6 *
`,
	},
	{
		name: "set-up position: Black to move removes",
		in: `[FEN "` + fenBlackRemoves + `"]
[SetUp "1"]

1... xe4 2. c4-c5 e3-e4 *`,
		want: []record.Game{{
			Tags:   []record.Tag{{"FEN", fenBlackRemoves}, {"SetUp", "1"}},
			Line:   line(rmv("e4"), sl("c4", "c5"), sl("e3", "e4")),
			Result: "*",
		}},
		out: `[FEN "` + fenBlackRemoves + `"]
[SetUp "1"]

1... xe4 2. c4-c5 e3-e4 *
`,
	},
	{
		name: "two removals in one turn",
		in: `[Variant "Morabaraba"]
[FEN "` + fenDoubleMill + `"]
[SetUp "1"]

1. d7xb2xf2 *`,
		want: []record.Game{{
			Tags:   []record.Tag{{"Variant", "Morabaraba"}, {"FEN", fenDoubleMill}, {"SetUp", "1"}},
			Line:   line(pl("d7", "b2", "f2")),
			Result: "*",
		}},
		out: `[Variant "Morabaraba"]
[FEN "` + fenDoubleMill + `"]
[SetUp "1"]

1. d7xb2xf2 *
`,
	},
	{
		name: "upper case, and a removal split off by a NAG as Sanmill writes it",
		in:   `1. D6 F4 2. D5 B4 3. D7!XB4 *`,
		want: []record.Game{{
			Line:   line(pl("d6"), pl("f4"), pl("d5"), pl("b4"), with(pl("d7"), []int{1}, nil), rmv("b4")),
			Result: "*",
		}},
		out: "1. d6 f4 2. d5 b4 3. d7! xb4 *\n",
	},
	{
		name: "escapes, BOM, CRLF, % lines, no termination marker",
		in:   "\xef\xbb\xbf% exported\r\n[Event \"say \\\"hi\\\" \\\\ bye\"]\r\n[Result \"0-1\"]\r\n\r\n{multi\r\nline}",
		want: []record.Game{{
			Tags:   []record.Tag{{"Event", `say "hi" \ bye`}, {"Result", "0-1"}},
			Line:   record.Line{Comments: []string{"multi\nline"}},
			Result: "0-1",
		}},
		out: `[Event "say \"hi\" \\ bye"]
[Result "0-1"]

{multi
line} 0-1
`,
	},
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range roundTripCases {
		t.Run(tc.name, func(t *testing.T) {
			got := mustParse(t, tc.in)
			if len(got) != len(tc.want) {
				t.Fatalf("read %d games, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i].Number != i+1 {
					t.Errorf("game %d: Number = %d", i+1, got[i].Number)
				}
				if !got[i].Equal(&tc.want[i]) {
					t.Errorf("game %d:\n got %+v\nwant %+v", i+1, got[i], tc.want[i])
				}
			}
			if out := roundTrip(t, got); out != tc.out {
				t.Errorf("written:\n%s\nwant:\n%s", out, tc.out)
			}
		})
	}
}

// TestPositions checks where the reader says tokens start: lines and
// columns, columns in characters.
func TestPositions(t *testing.T) {
	gs := mustParse(t, "[Event \"é\"]\n\n{é} 1. d6 f4\n2. d5-e5xd7 (2. a7)\n*")
	l := &gs[0].Line
	want := []record.Pos{{3, 8}, {3, 11}, {4, 4}}
	for i, p := range want {
		if l.Moves[i].Pos != p {
			t.Errorf("turn %d at %+v, want %+v", i+1, l.Moves[i].Pos, p)
		}
	}
	if p := l.Moves[2].Variations[0].Moves[0].Pos; p != (record.Pos{4, 17}) {
		t.Errorf("variation turn at %+v, want {4 17}", p)
	}
}

func TestTurnHelpers(t *testing.T) {
	tu := sl("d6", "d5", "d7", "a1")
	if got := tu.String(); got != "d6-d5xd7xa1" {
		t.Errorf("String = %q", got)
	}
	want := []position.Move{position.MakeSlide(square("d6"), square("d5")),
		position.MakeRemove(square("d7")), position.MakeRemove(square("a1"))}
	if got := tu.Actions(); !reflect.DeepEqual(got, want) {
		t.Errorf("Actions = %v, want %v", got, want)
	}
	p := pass()
	if p.String() != "p" || len(p.Actions()) != 0 {
		t.Errorf("pass: %q %v", p.String(), p.Actions())
	}
	g := record.Game{}
	g.SetTag("Event", "a")
	g.SetTag("Site", "b")
	g.SetTag("Event", "c")
	if v, ok := g.Tag("Event"); !ok || v != "c" || len(g.Tags) != 2 {
		t.Errorf("tags %v", g.Tags)
	}
	if _, ok := g.Tag("event"); ok {
		t.Error("tag names are case-sensitive")
	}
}

// TestWrap checks that no line of the movetext passes column 80 unless it is
// a single comment.
func TestWrap(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", 30))
	g := record.Game{Line: line(pl("d6"), pl("f4"), with(pl("d5"), nil, []string{long}), pl("b4")), Result: "*"}
	for range 60 {
		g.Moves = append(g.Moves, sl("d6", "d7"), sl("f4", "g4"), sl("d7", "d6"), sl("g4", "f4"))
	}
	out := roundTrip(t, []record.Game{g})
	for i, ln := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := len([]rune(ln)); n > 80 && !strings.Contains(ln, "{word") {
			t.Errorf("line %d has %d characters: %q", i+1, n, ln)
		}
	}
	if want := "1. d6 f4 2. d5\n{" + long + "}\n2... b4 3. d6-d7 f4-g4"; !strings.HasPrefix(out, want) {
		t.Errorf("output starts %q, want %q", out[:len(want)], want)
	}
}

func TestValidate(t *testing.T) {
	good := func() record.Game {
		return record.Game{Tags: []record.Tag{{"Event", "e"}}, Line: line(pl("d6")), Result: "*"}
	}
	cases := []struct {
		name string
		edit func(*record.Game)
		want string
	}{
		{"bad tag name", func(g *record.Game) { g.Tags[0].Name = "Ev ent" }, `tag 1: bad tag name "Ev ent"`},
		{"line end in a tag", func(g *record.Game) { g.Tags[0].Value = "a\nb" }, "tag Event: the value has a line end"},
		{"duplicate tag", func(g *record.Game) { g.Tags = append(g.Tags, record.Tag{"Event", "f"}) }, "duplicate tag Event"},
		{"bad result", func(g *record.Game) { g.Result = "" }, `bad termination marker "": want 1-0, 0-1, 1/2-1/2 or *`},
		{"result disagrees", func(g *record.Game) { g.SetTag("Result", "1-0") }, `termination marker * disagrees with the Result tag "1-0"`},
		{"bad FEN", func(g *record.Game) { g.SetTag("FEN", "x w") }, `bad FEN tag "x w": a position string has 17 fields, got 2`},
		{"removal as the move", func(g *record.Game) { g.Moves[0].Move = position.MakeRemove(0) }, "ply 1: bad move 0x0c00: a turn's move is a placement or a slide"},
		{"empty turn", func(g *record.Game) { g.Moves[0].Move = position.NoMove }, "ply 1: a turn has a move, removals or a pass"},
		{"pass with a move", func(g *record.Game) { g.Moves[0].Pass = true }, "ply 1: a pass has no move and no removals"},
		{"slide to itself", func(g *record.Game) { g.Moves[0].Move = position.MakeSlide(3, 3) }, "ply 1: bad slide 0x0863"},
		{"bad removal", func(g *record.Game) {
			g.Moves[0].Removals = squares(nil)
			g.Moves[0].Removals = append(g.Moves[0].Removals, 30)
		}, "ply 1: bad removal square 30"},
		{"bad NAG", func(g *record.Game) { g.Moves[0].NAGs = []int{256} }, "ply 1: bad NAG 256: want 0 to 255"},
		{"bad comment", func(g *record.Game) { g.Moves[0].Comments = []string{"a}\nb"} }, `ply 1: comment "a}\nb" has both } and a line end`},
		{"padded comment", func(g *record.Game) { g.Comments = []string{" a"} }, `ply 1: comment " a" has surrounding white space or CR line ends`},
		{"empty variation", func(g *record.Game) { g.Moves[0].Variations = []record.Line{{Comments: []string{"x"}}} }, "ply 1: variation 1 is empty"},
	}
	for _, tc := range cases {
		g := good()
		tc.edit(&g)
		err := g.Validate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: Validate = %v, want %s", tc.name, err, tc.want)
		}
		if out, err := record.Marshal(good(), g); err == nil || out != nil || !strings.HasPrefix(err.Error(), "record: game 2: ") {
			t.Errorf("%s: Marshal = %q, %v; want nothing and an error naming game 2", tc.name, out, err)
		}
	}
	g := good()
	if err := g.Validate(); err != nil {
		t.Errorf("good game: %v", err)
	}
}
