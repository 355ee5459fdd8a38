// Command oppmodel measures the model of the fallible opponent (search's
// PolicyModel) against real opponents' moves: from millmatch's game
// records and the endgame tables of the whole game, it takes every position
// where the opponent (the engine named by --opponent) was to move in a
// position the tables hold drawn and at least one of its actions lost, and
// asks how well a searcher of each depth choosing by a softmax of each
// temperature predicts what the opponent played: the log-likelihood of its
// choices, and the chance the model gave a losing action against how often
// the opponent played one, overall and by bins of the model's chance; and
// where it erred: its turns and errors by phase, and in the moving phase
// how often it played a losing action by that action's distance to the end
// (the placing tables hold results only), and by the share of its actions
// that lost (WinningPolicy pressure's measure); in the turns where a side
// flies (one side, or both), the same by distance, and the turns by how many of its losing
// actions lay at least --deep plies from the end (the traps beyond a
// searcher's horizon), and by who flies and the pieces on the board (all
// its turns at drawn positions there, with a losing action or not: which
// flying endgame to steer a drawn game into); and per phase, how the
// chance one model (--calibrate-depth, --calibrate-temp) gave a losing action
// compares with how often the opponent played one.
//
//	go run ./scripts/oppmodel --dir EGTB --opponent sanmill RECORDS.jsonl ...
package main

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/match"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// decision is one move of the opponent in a drawn position some of whose
// actions lose: each action's score at each depth, which lose, which it
// played.
type decision struct {
	scores  map[int]map[position.Move]int
	losing  map[position.Move]bool
	played  position.Move
	placing bool                  // a placing position: the tables hold results only
	plies   map[position.Move]int // a losing action's plies to the end (moving phase)
	actions int                   // all its actions, losing or not
	fly     flyKey                // where a side flies (down to three pieces, nothing in hand): which, and the pieces on the board
}

// flyers is how many sides fly at d: 0, 1 or 2.
func (d *decision) flyers() int { return bits.OnesCount(uint(d.fly.who)) }

// deepLosing is how many of d's losing actions lose at least deep plies
// from the end.
func (d *decision) deepLosing(deep int) int {
	n := 0
	for m := range d.losing {
		if d.plies[m] >= deep {
			n++
		}
	}
	return n
}

// flyKey sorts the turns where a side flies: which side flies (the
// opponent, the other engine, both) and the pieces each has on the board.
type flyKey struct {
	who        int // 1 the opponent flies, 2 the other engine, 3 both
	opp, other int
}

// flyWho names flyKey.who.
var flyWho = [4]string{"", "opponent", "other", "both"}

func main() {
	fs := pflag.NewFlagSet("oppmodel", pflag.ExitOnError)
	dir := fs.String("dir", egtb.DefaultDir(), "the tables of the whole game")
	opp := fs.String("opponent", "sanmill", "the opponent: a substring of its engine name in the records")
	depths := fs.IntSlice("depths", []int{1, 2, 3, 4, 5}, "model depths to try")
	temps := fs.IntSlice("temps", []int{10, 20, 30, 45, 60, 90, 130, 200, 300}, "model temperatures (centipawns) to try")
	calDepth := fs.Int("calibrate-depth", search.DefaultModelDepth, "the model whose calibration is printed: its depth (one of --depths)")
	calTemp := fs.Int("calibrate-temp", search.DefaultModelTemperature, "and its temperature (centipawns)")
	deep := fs.Int("deep", 8, "flying turns are counted by their losing actions at least this many plies from the end")
	fs.Parse(os.Args[1:])
	r := rules.Default()
	tb, err := egtb.Open(*dir, &r)
	if err != nil {
		fail(err)
	}
	e := search.New(64)
	var ds []decision
	drawn := map[flyKey]int{}
	for _, path := range fs.Args() {
		recs, err := match.ReadRecordFile(path)
		if err != nil {
			fail(err)
		}
		for _, rec := range recs {
			ds = append(ds, decisions(e, tb, rec, *opp, *depths, drawn)...)
		}
	}
	fmt.Printf("%d decisions of %s in drawn positions with a losing action; %d of them lost\n", len(ds), *opp, countLost(ds))
	for _, d := range *depths {
		fmt.Printf("\ndepth %d\n%6s %12s %10s %10s\n", d, "temp", "loglik/move", "predicted", "observed")
		for _, t := range *temps {
			ll, pred := 0.0, 0.0
			for _, x := range ds {
				p, lose := softmax(x.scores[d], float64(t), x.played, x.losing)
				ll += math.Log(max(p, 1e-9))
				pred += lose
			}
			n := float64(max(len(ds), 1))
			fmt.Printf("%6d %12.4f %10.4f %10.4f\n", t, ll/n, pred/n, float64(countLost(ds))/n)
		}
	}
	phases(ds)
	flyingTurns(ds, *deep)
	flyingMaterial(ds, drawn, *deep)
	// Calibration of one model: the chance it gave against what happened,
	// by bins, per phase.
	d, t := *calDepth, float64(*calTemp)
	if !slices.Contains(*depths, d) {
		fail(fmt.Errorf("--calibrate-depth %d is not among --depths", d))
	}
	for _, placing := range []bool{true, false} {
		fmt.Printf("\ncalibration of the model of depth %d, temperature %.0f, %s\n%10s %6s %10s %10s\n", d, t, phaseName(placing), "chance", "n", "predicted", "observed")
		for k, b := range calibrate(ds, d, t, placing) {
			if b.n > 0 {
				fmt.Printf("%4.1f-%3.1f %6d %10.4f %10.4f\n", float64(k)/5, float64(k+1)/5, b.n, b.pred/float64(b.n), float64(b.lost)/float64(b.n))
			}
		}
	}
}

// calBin is one bin of a model's calibration: the decisions whose chance of
// a losing action fell in it, the sum of those chances, and how many of
// them the opponent lost.
type calBin struct {
	n, lost int
	pred    float64
}

// calibrate bins the decisions of one phase by the chance the model of
// depth d and temperature t gave a losing action, in fifths: the measure of
// how far a model's chance can be trusted where a policy would act on it.
func calibrate(ds []decision, d int, t float64, placing bool) [5]calBin {
	var bins [5]calBin
	for _, x := range ds {
		if x.placing != placing {
			continue
		}
		_, lose := softmax(x.scores[d], t, x.played, x.losing)
		b := &bins[min(int(lose*5), 4)]
		b.n++
		b.pred += lose
		if x.losing[x.played] {
			b.lost++
		}
	}
	return bins
}

// phaseName is "placing" or "moving".
func phaseName(placing bool) string {
	if placing {
		return "placing"
	}
	return "moving"
}

// decisions replays rec and collects the opponent's decisions.
//
// drawn counts by flyKey every turn of the opponent's at a drawn position
// of the moving phase where a side flies, with or without a losing action.
func decisions(e *search.Engine, tb *egtb.Tables, rec match.GameRecord, opp string, depths []int, drawn map[flyKey]int) []decision {
	preset, ok := rules.PresetByName(rec.Variant)
	if !ok {
		return nil
	}
	r := preset.Rules
	start := position.New(&r)
	if rec.OpeningFEN != "" {
		var err error
		if start, err = position.ParseFEN(&r, rec.OpeningFEN); err != nil {
			return nil
		}
	}
	g := position.NewGame(r, start)
	oppColour := position.White
	if !strings.Contains(rec.White, opp) {
		if !strings.Contains(rec.Black, opp) {
			return nil
		}
		oppColour = position.Black
	}
	var out []decision
	tokens := append(append([]string(nil), rec.Opening...), rec.Moves...)
	for i, tok := range tokens {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return out
		}
		if i >= len(rec.Opening) && g.Pos.SideToMove() == oppColour {
			if acts, ok := tb.RankRoot(g); ok && acts[0].Entry.Value.IsDraw() {
				d := decision{scores: map[int]map[position.Move]int{}, losing: map[position.Move]bool{}, played: m,
					placing: acts[0].Entry.ResultOnly, plies: map[position.Move]int{}, actions: len(acts),
					fly: flyKeyOf(g, oppColour)}
				if !d.placing && d.fly.who != 0 {
					drawn[d.fly]++
				}
				for _, a := range acts {
					if a.Entry.Value.IsLoss() {
						d.losing[a.Move] = true
						d.plies[a.Move] = a.Entry.Value.Plies()
					}
				}
				if len(d.losing) > 0 {
					for _, dep := range depths {
						d.scores[dep] = map[position.Move]int{}
						for _, s := range e.ScoreActions(g, dep) {
							d.scores[dep][s.Move] = s.Score
						}
					}
					out = append(out, d)
				}
			}
		}
		g.Play(m)
	}
	return out
}

// softmax returns the model's chance of the action played and of a losing
// action, from the actions' scores at temperature t.
func softmax(scores map[position.Move]int, t float64, played position.Move, losing map[position.Move]bool) (float64, float64) {
	top := math.Inf(-1)
	for _, s := range scores {
		top = max(top, float64(s))
	}
	var sum, p, lose float64
	for m, s := range scores {
		w := math.Exp((float64(s) - top) / t)
		sum += w
		if m == played {
			p = w
		}
		if losing[m] {
			lose += w
		}
	}
	if sum == 0 {
		return 0, 0
	}
	return p / sum, lose / sum
}

// distBin counts the moving phase's losing actions whose distance to the
// end falls in a bin of distStep plies: how many the opponent was offered
// and how many it played.
type distBin struct{ offered, played int }

// distStep is the width of a distance bin in plies; the last bin, from
// distLast plies, holds all longer ones.
const (
	distStep = 4
	distLast = 40
)

// flyKeyOf sorts g's position by who flies, from the side of opp, the
// opponent; who is 0 where no side flies.
func flyKeyOf(g *position.Game, opp position.Color) flyKey {
	k := flyKey{opp: g.Pos.OnBoard(opp), other: g.Pos.OnBoard(opp ^ 1)}
	if g.Pos.CanFly(&g.Rules, opp) {
		k.who |= 1
	}
	if g.Pos.CanFly(&g.Rules, opp^1) {
		k.who |= 2
	}
	return k
}

// distanceBins counts the losing actions of the moving phase's decisions by
// their distance to the end; with flyers above 0, of the turns where that
// many sides fly.
func distanceBins(ds []decision, flyers int) []distBin {
	out := make([]distBin, distLast/distStep+1)
	for _, d := range ds {
		if d.placing || flyers > 0 && d.flyers() != flyers {
			continue
		}
		for m := range d.losing {
			k := min(d.plies[m], distLast) / distStep
			out[k].offered++
			if m == d.played {
				out[k].played++
			}
		}
	}
	return out
}

// phases prints the opponent's turns and errors by phase, and how often it
// played a losing action of the moving phase by the action's distance.
func phases(ds []decision) {
	share := search.DefaultPressureShare
	bins := shareBins(ds, share)
	p, m := bins[0], bins[1]
	fmt.Printf("\nby phase: placing %d decisions, %d lost; moving %d decisions, %d lost\n",
		p.turns[0]+p.turns[1], p.lost[0]+p.lost[1], m.turns[0]+m.turns[1], m.lost[0]+m.lost[1])
	for ph, c := range bins {
		fmt.Printf("%s, by share of losing actions: below %d %%: %d decisions, %d lost; at least %d %%: %d, %d lost\n",
			phaseName(ph == 0), share, c.turns[0], c.lost[0], share, c.turns[1], c.lost[1])
	}
	for fl, what := range []string{"moving phase", "one side flying", "both flying"} {
		fmt.Printf("%s, losing actions by plies to the end\n%8s %8s %8s %8s\n", what, "plies", "offered", "played", "rate")
		for k, b := range distanceBins(ds, fl) {
			if b.offered == 0 {
				continue
			}
			label := fmt.Sprintf("%d-%d", k*distStep, k*distStep+distStep-1)
			if k*distStep == distLast {
				label = fmt.Sprintf("%d+", distLast)
			}
			fmt.Printf("%8s %8d %8d %8.4f\n", label, b.offered, b.played, float64(b.played)/float64(b.offered))
		}
	}
}

// deepBins are the upper bounds of the bins of flyingBins: 0, 1, 2, 3,
// 4-7 and 8 or more deep losing actions.
var deepBins = []int{0, 1, 2, 3, 7, math.MaxInt}

// flyingBins counts the turns where flyers sides fly by how many of the
// opponent's losing actions were at least deep plies from the end (the
// bins of deepBins), and in each how many it lost, by any losing action and
// by a deep one: the measure a pressure that counts only the traps beyond a
// searcher's horizon would steer by.
func flyingBins(ds []decision, flyers, deep int) (turns, lost, lostDeep []int) {
	turns, lost, lostDeep = make([]int, len(deepBins)), make([]int, len(deepBins)), make([]int, len(deepBins))
	for _, d := range ds {
		if d.placing || d.flyers() != flyers {
			continue
		}
		n := d.deepLosing(deep)
		k := 0
		for n > deepBins[k] {
			k++
		}
		turns[k]++
		if d.losing[d.played] {
			lost[k]++
			if d.plies[d.played] >= deep {
				lostDeep[k]++
			}
		}
	}
	return turns, lost, lostDeep
}

// flyingTurns prints flyingBins for one side flying and for both.
func flyingTurns(ds []decision, deep int) {
	for fl := 1; fl <= 2; fl++ {
		turns, lost, lostDeep := flyingBins(ds, fl, deep)
		fmt.Printf("\n%s flying: turns by losing actions at least %d plies from the end\n%8s %8s %8s %10s\n",
			[]string{"", "one side", "both sides"}[fl], deep, "deep", "turns", "lost", "lost deep")
		printDeepBins(turns, lost, lostDeep)
	}
}

// materialRow is one row of flyingMaterial: the opponent's turns at drawn
// positions where a side flies with one flyKey, those of them with a
// losing action, those with one at least deep plies from the end, and how
// many it lost.
type materialRow struct {
	key                       flyKey
	turns, losing, deep, lost int
}

// materialRows counts the rows of flyingMaterial from the decisions (the
// turns with a losing action) and drawn (all the turns), sorted by who
// flies, then the opponent's pieces, then the other's.
func materialRows(ds []decision, drawn map[flyKey]int, deep int) []materialRow {
	rows := map[flyKey]*materialRow{}
	for k, n := range drawn {
		rows[k] = &materialRow{key: k, turns: n}
	}
	for _, d := range ds {
		r := rows[d.fly]
		if d.placing || r == nil { // drawn holds no key where nobody flies
			continue
		}
		r.losing++
		if d.deepLosing(deep) > 0 {
			r.deep++
		}
		if d.losing[d.played] {
			r.lost++
		}
	}
	out := make([]materialRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b materialRow) int {
		if a.key.who != b.key.who {
			return a.key.who - b.key.who
		}
		if a.key.opp != b.key.opp {
			return a.key.opp - b.key.opp
		}
		return a.key.other - b.key.other
	})
	return out
}

// flyingMaterial prints the opponent's turns at drawn positions where a
// side flies by who flies and the pieces on the board: all of them, those
// with a losing action, those with one at least deep plies from the end,
// how many it lost, and the share of all it lost. Which endgame to steer a
// drawn game into is read here (DrawnFlying).
func flyingMaterial(ds []decision, drawn map[flyKey]int, deep int) {
	fmt.Printf("\nflying turns by who flies and the pieces (the opponent's v the other's)\n%9s %6s %8s %8s %8s %8s %8s\n",
		"flies", "pieces", "turns", "losing", "deep", "lost", "rate")
	for _, r := range materialRows(ds, drawn, deep) {
		fmt.Printf("%9s %3dv%-2d %8d %8d %8d %8d %8.4f\n", flyWho[r.key.who], r.key.opp, r.key.other, r.turns, r.losing, r.deep, r.lost, float64(r.lost)/float64(r.turns))
	}
}

// printDeepBins prints one table of flyingTurns.
func printDeepBins(turns, lost, lostDeep []int) {
	lo := 0
	for k, hi := range deepBins {
		label := fmt.Sprint(hi)
		switch {
		case hi == math.MaxInt:
			label = fmt.Sprintf("%d+", lo)
		case hi > lo:
			label = fmt.Sprintf("%d-%d", lo, hi)
		}
		lo = hi + 1
		if turns[k] > 0 {
			fmt.Printf("%8s %8d %8d %10d\n", label, turns[k], lost[k], lostDeep[k])
		}
	}
}

// shareCount is the opponent's turns and errors among decisions of one
// phase whose share of losing actions is below, or at least, the pressure
// policy's share.
type shareCount struct{ turns, lost [2]int }

// shareBins counts the decisions of each phase (0 placing, 1 moving) by
// whether at least share percent of the actions lost (index 1) or fewer
// (index 0): what WinningPolicy pressure steers by (it counts the losses
// the game's history and the N-move rule leave certain; here the tables'
// values alone, as everywhere in this command).
func shareBins(ds []decision, share int) [2]shareCount {
	var out [2]shareCount
	for _, d := range ds {
		ph := 1
		if d.placing {
			ph = 0
		}
		hi := 0 // below the share
		if len(d.losing)*100 >= share*max(d.actions, 1) {
			hi = 1
		}
		out[ph].turns[hi]++
		if d.losing[d.played] {
			out[ph].lost[hi]++
		}
	}
	return out
}

func countLost(ds []decision) int {
	n := 0
	for _, d := range ds {
		if d.losing[d.played] {
			n++
		}
	}
	return n
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "oppmodel:", err)
	os.Exit(1)
}
