package book

import (
	"fmt"
	"slices"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
)

// CheckReport is what Check found: the proven positions of a book compared
// with the endgame tables of the whole game.
type CheckReport struct {
	Proven   int // the book's positions with a proven value
	Compared int // those the tables hold, every action included
	Equal    int // of those, the same value and the same set of actions that keep it
	Unknown  int // proven positions the tables do not hold (or not every action of)
	// First holds the first differences, as lines: the FEN, the book's
	// proof and the tables'.
	First []string
}

// MaxCheckDifferences is how many differences a CheckReport keeps.
const MaxCheckDifferences = 10

// Check compares every proven position of b with the tables t: the value the
// tables give the position (its best action's) must be the book's, and the
// actions whose value equals it the book's keep set. progress, if not nil,
// is called now and then with the positions done and the book's size.
func Check(b *Book, t *egtb.Tables, progress func(done, total int)) CheckReport {
	var rep CheckReport
	r := b.Rules
	done, total := 0, b.Len()
	b.Each(func(fen string, _ int, e Entry) {
		if done++; progress != nil && done%1000 == 0 {
			progress(done, total)
		}
		if e.Proof == nil {
			return
		}
		rep.Proven++
		p, err := position.ParseFEN(&r, fen)
		if err != nil {
			rep.Unknown++
			return
		}
		acts, ok := t.RankRoot(position.NewGame(r, p))
		if !ok {
			rep.Unknown++
			return
		}
		rep.Compared++
		value := acts[0].Entry.Value.WDL()
		var keep []position.Move
		for _, a := range acts {
			if a.Entry.Value.WDL() == value {
				keep = append(keep, a.Move)
			}
		}
		book := slices.Clone(e.Proof.Keep)
		slices.Sort(book)
		slices.Sort(keep)
		if value == e.Proof.Value && slices.Equal(book, keep) {
			rep.Equal++
			return
		}
		if len(rep.First) < MaxCheckDifferences {
			tables := &Proof{Value: value, Keep: keep}
			rep.First = append(rep.First, fmt.Sprintf("%s: book %s, tables %s", fen, e.Proof, tables))
		}
	})
	if progress != nil {
		progress(total, total)
	}
	return rep
}
