package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/position"
)

// Probe writes the value of g's position by the tables, "value: win 3",
// then a line per legal action, "d7-d6: loss 2", in the order the engine
// ranks them with the game's history; "value: unknown <reason>" and the
// actions by token when the tables do not hold the position. With dtz the
// distances are to the next removal. With db not nil, Malom's values stand
// beside the tables' (probeBoth).
func Probe(w io.Writer, g *position.Game, tb *egtb.Tables, db *perfect.DB, dtz bool) error {
	value := func(a egtb.RootAction) string {
		if dtz {
			a.Entry.Value, a.Entry.Exact = a.Entry.DTZ, false
		}
		return a.String()
	}
	if db != nil {
		return probeBoth(w, g, tb, db, value)
	}
	if acts, ok := tb.RankRoot(g); ok {
		fmt.Fprintf(w, "value: %s\n", value(acts[0]))
		for _, a := range acts {
			if _, err := fmt.Fprintf(w, "%s: %s\n", a.Move, value(a)); err != nil {
				return err
			}
		}
		return nil
	}
	fmt.Fprintf(w, "value: unknown %s\n", tb.Why(&g.Rules, &g.Pos))
	for _, a := range tb.Actions(&g.Rules, &g.Pos) {
		var err error
		if a.Known {
			_, err = fmt.Fprintf(w, "%s: %s\n", a.Move, a.Value)
		} else {
			_, err = fmt.Fprintf(w, "%s: unknown\n", a.Move)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// probeBoth writes the values of g's root and of each of its actions by the
// tables and by Malom's database db, side by side and labelled, Malom's with
// its keys, in the order the engine ranks the actions from both
// (perfect.Root, as go with UsePerfectDatabase), or by token when that
// ranking is unknown. value formats a tables' entry.
func probeBoth(w io.Writer, g *position.Game, tb *egtb.Tables, db *perfect.DB, value func(egtb.RootAction) string) error {
	r := &g.Rules
	tables := "unknown (" + tb.Why(r, &g.Pos) + ")"
	if en, ok := tb.Lookup(r, &g.Pos); ok {
		tables = value(egtb.RootAction{Entry: en})
	}
	malom := "unknown (" + db.Why(r, &g.Pos) + ")"
	if en, ok := db.Lookup(r, &g.Pos); ok {
		k, _ := db.Keys(r, &g.Pos)
		malom = fmt.Sprintf("%s [%v]", en, k)
	}
	fmt.Fprintf(w, "value: tables %s; Malom %s\n", tables, malom)
	var order []position.Move
	if acts, ok := perfect.NewRoot(tb, db).RankRoot(g); ok {
		for _, a := range acts {
			order = append(order, a.Move)
		}
	} else {
		var ml movegen.MoveList
		movegen.Generate(r, &g.Pos, &ml)
		order = slices.SortedFunc(slices.Values(ml.Slice()), func(a, b position.Move) int { return strings.Compare(a.String(), b.String()) })
	}
	for _, m := range order {
		after := g.Pos
		after.Do(r, m)
		tables := "unknown"
		if en, rule, ok := egtb.ActionEntryWith(tb, g, m); ok {
			tables = value(egtb.RootAction{Entry: en, Rule: rule})
		}
		malom := "unknown (" + db.Why(r, &after) + ")"
		if en, rule, ok := egtb.ActionEntryWith(db, g, m); ok {
			malom = egtb.RootAction{Entry: en, Rule: rule}.String()
			if k, known := db.Keys(r, &after); known && rule == position.NoReason {
				malom += fmt.Sprintf(" [%v]", k)
			}
		}
		if _, err := fmt.Fprintf(w, "%s: tables %s; Malom %s\n", m, tables, malom); err != nil {
			return err
		}
	}
	return nil
}
