package match

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Opening is the start of a pair of games: an optional position string and
// the tokens played from it before the engines take over.
type Opening struct {
	FEN    string   // "" for the start position of the variant
	Moves  []string // legal tokens, in canonical (lower-case) spelling
	Source string   // where it came from: "file:line", "random", "start"
}

// String returns the opening as it appears in reports: its tokens, or
// "(start)", prefixed by "fen … moves" when it has a position string.
func (o Opening) String() string {
	mv := strings.Join(o.Moves, " ")
	if mv == "" {
		mv = "(start)"
	}
	if o.FEN != "" {
		return "fen " + o.FEN + " moves " + mv
	}
	return mv
}

// Game plays the opening under r and returns the game it leaves, with the
// repetition history the draw rules need. It fails if a token is illegal or
// the game is already over after the opening.
func (o Opening) Game(r rules.Rules) (*position.Game, error) {
	start := position.New(&r)
	if o.FEN != "" {
		var err error
		if start, err = position.ParseFEN(&r, o.FEN); err != nil {
			return nil, fmt.Errorf("opening %s: %w", o.Source, err)
		}
	}
	g := position.NewGame(r, start)
	if g.Pos.IsOver() {
		return nil, fmt.Errorf("opening %s: the position is already decided (%s)", o.Source, describeOver(&g.Pos))
	}
	for i, tok := range o.Moves {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return nil, fmt.Errorf("opening %s: token %d: %w", o.Source, i+1, err)
		}
		g.Play(m)
		if g.Pos.IsOver() && i+1 < len(o.Moves) {
			return nil, fmt.Errorf("opening %s: the game is over after token %d (%s)", o.Source, i+1, describeOver(&g.Pos))
		}
	}
	if g.Pos.IsOver() {
		return nil, fmt.Errorf("opening %s: the game is already decided (%s)", o.Source, describeOver(&g.Pos))
	}
	var ml movegen.MoveList
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	if ml.N == 0 {
		return nil, fmt.Errorf("opening %s: the side to move has no legal action", o.Source)
	}
	return g, nil
}

func describeOver(p *position.Position) string {
	res, why := p.Result()
	return res.String() + ", " + why.String()
}

// ParseOpenings reads openings, one a line: tokens separated by spaces
// ("a7 b4 d7"), or "fen <position string> [moves <tokens>]". Blank lines and
// lines starting with '#' are skipped. Every line is checked against r: the
// tokens must be legal and the game not over after them. name labels the
// lines in errors and in Opening.Source.
func ParseOpenings(rd io.Reader, r rules.Rules, name string) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		o := Opening{Source: fmt.Sprintf("%s:%d", name, line)}
		fields := strings.Fields(text)
		if strings.EqualFold(fields[0], "fen") {
			var fen []string
			i := 1
			for ; i < len(fields) && !strings.EqualFold(fields[i], "moves"); i++ {
				fen = append(fen, fields[i])
			}
			if len(fen) == 0 {
				return nil, fmt.Errorf("%s: 'fen' without a position string", o.Source)
			}
			o.FEN = strings.Join(fen, " ")
			if i < len(fields) {
				fields = fields[i+1:]
			} else {
				fields = nil
			}
		}
		o.Moves = fields
		g, err := o.Game(r)
		if err != nil {
			return nil, err
		}
		o.Moves = canonical(g.Moves)
		if o.FEN != "" {
			o.FEN = g.Start.FEN() // canonical spelling, Sanmill square numbers
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no openings (only blank or comment lines)", name)
	}
	return out, nil
}

// LoadOpenings reads an openings file (see ParseOpenings).
func LoadOpenings(path string, r rules.Rules) ([]Opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	defer f.Close()
	return ParseOpenings(f, r, path)
}

func canonical(ms []position.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// RandomOpenings returns n distinct openings of k random legal actions each,
// drawn from a generator seeded with seed, so the same seed gives the same
// openings. An opening is kept only when it is not decided: no piece has
// been removed or marked, no removal is pending, and the game goes on. When
// fewer than n distinct openings of that length exist (k of 0 or 1), it
// returns those it found.
func RandomOpenings(r rules.Rules, n, k int, seed uint64) ([]Opening, error) {
	if n <= 0 {
		return nil, nil
	}
	if k < 0 {
		return nil, fmt.Errorf("random openings: negative length %d", k)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d696c6c6d617463)) // "millmatc"
	seen := make(map[string]bool, n)
	out := make([]Opening, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries >= 1000+200*n {
			if len(out) > 0 {
				return out, nil // there are not that many distinct ones; the schedule cycles them
			}
			return nil, fmt.Errorf("random openings: no undecided opening of %d actions in %d tries", k, tries)
		}
		o, ok := randomOpening(r, k, rng)
		if !ok {
			continue
		}
		key := strings.Join(o.Moves, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, o)
	}
	return out, nil
}

// PlayRandom plays up to k random legal actions on g, each drawn from rng
// among the legal actions of its position, and stops early when the game
// ends or an action drawn is not accepted (accept nil takes every action).
// It reports whether it played all k. It is the one random play of the
// match openings and of the tuner's.
func PlayRandom(g *position.Game, k int, rng *rand.Rand, accept func(position.Move) bool) bool {
	var ml movegen.MoveList
	for i := 0; i < k; i++ {
		if g.Pos.IsOver() {
			return false
		}
		movegen.Generate(&g.Rules, &g.Pos, &ml)
		if ml.N == 0 {
			return false
		}
		m := ml.Moves[rng.IntN(ml.N)]
		if accept != nil && !accept(m) {
			return false
		}
		g.Play(m)
	}
	return true
}

func randomOpening(r rules.Rules, k int, rng *rand.Rand) (Opening, bool) {
	g := position.NewGame(r, position.New(&r))
	noRemoval := func(m position.Move) bool { return m.Kind() != position.KindRemove }
	if !PlayRandom(g, k, rng, noRemoval) || g.Pos.IsOver() {
		return Opening{}, false
	}
	var ml movegen.MoveList
	if !undecided(&g.Rules, &g.Pos) {
		return Opening{}, false
	}
	movegen.Generate(&g.Rules, &g.Pos, &ml)
	if ml.N == 0 {
		return Opening{}, false
	}
	return Opening{Moves: canonical(g.Moves), Source: "random"}, true
}

// undecided reports whether both sides still have all their pieces and
// nothing is pending: a fair start for both colours.
func undecided(r *rules.Rules, p *position.Position) bool {
	for c := position.White; c <= position.Black; c++ {
		if p.OnBoard(c)+p.InHand(c) != r.PiecesCount || p.PendingRemovals(c) != 0 {
			return false
		}
	}
	return p.Marked() == 0 && p.Action() != position.Remove && !p.IsOver()
}
