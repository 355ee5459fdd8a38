package match

import (
	"fmt"
	"io"
	"maps"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/millengine/millengine/internal/position"
)

// EngineTotals is one engine's record over the whole match.
type EngineTotals struct {
	Name     string
	ID       string // the engine's "id name"
	WDL      WDL
	Time     time.Duration // thinking time over all its actions
	Actions  int
	DepthSum int64
	DepthN   int
	NPSSum   float64
	NPSN     int
	Faults   map[Termination]int // games lost by a fault of this engine, by kind
	Losses   map[string]int      // games lost, by ending: the rule's reason or the fault
}

// AvgDepth returns the mean of the last depth reported per action (0 if none).
func (e *EngineTotals) AvgDepth() float64 { return avg(float64(e.DepthSum), e.DepthN) }

// AvgNPS returns the mean of the last nodes/second reported per action (0 if none).
func (e *EngineTotals) AvgNPS() float64 { return avg(e.NPSSum, e.NPSN) }

// MsPerAction returns the mean thinking time per action in milliseconds.
func (e *EngineTotals) MsPerAction() float64 {
	return avg(float64(e.Time)/float64(time.Millisecond), e.Actions)
}

// FaultCount returns the number of games the engine lost by a fault.
func (e *EngineTotals) FaultCount() int {
	n := 0
	for _, c := range e.Faults {
		n += c
	}
	return n
}

// Summary is the state and, at the end, the result of a match.
type Summary struct {
	Variant      string
	TimeControl  string
	Scheduled    int // games in the schedule
	Played       int // games finished and counted
	Resumed      int // of those, games an earlier run played (Config.Done)
	Aborted      int // games stopped by an SPRT decision or an interrupt, not counted
	Engines      []EngineTotals
	Pairs        [][2]int // engine indices of each pairing (Pairings)
	PairWDL      []WDL    // per pairing, from the first engine's view
	Terminations map[Termination]int
	Reasons      map[string]int // how games ended by the rules, by reason
	SPRT         *SPRT
	SPRTDecision Decision
	Interrupted  bool
	Elapsed      time.Duration
	started      time.Time
}

func newSummary(cfg *Config, ids []string, scheduled int) *Summary {
	s := &Summary{
		Variant: cfg.Variant.Key, TimeControl: cfg.TC.String(), Scheduled: scheduled,
		Pairs: Pairings(len(cfg.Engines)), Terminations: map[Termination]int{}, Reasons: map[string]int{},
		SPRT: cfg.SPRT, started: time.Now(),
	}
	s.PairWDL = make([]WDL, len(s.Pairs))
	for i, e := range cfg.Engines {
		s.Engines = append(s.Engines, EngineTotals{Name: e.Name, ID: ids[i], Faults: map[Termination]int{}, Losses: map[string]int{}})
	}
	return s
}

// Pair returns the results of engine i against engine j from i's view.
func (s *Summary) Pair(i, j int) WDL {
	for k, p := range s.Pairs {
		switch {
		case p[0] == i && p[1] == j:
			return s.PairWDL[k]
		case p[0] == j && p[1] == i:
			return s.PairWDL[k].Flip()
		}
	}
	return WDL{}
}

// add counts a finished game.
func (s *Summary) add(rec GameRecord) {
	j, o := rec.job, rec.outcome
	s.Played++
	s.Terminations[o.Termination]++
	if o.Termination == TermRule || o.Termination == TermDrawClaim {
		s.Reasons[o.Reason]++
	}
	idx := [2]int{j.White, j.Black}
	var white WDL // from white's view
	switch o.Result {
	case position.WhiteWins:
		white.W = 1
	case position.BlackWins:
		white.L = 1
	default:
		white.D = 1
	}
	if p := s.Pairs[j.Pairing]; p[0] == j.White {
		s.PairWDL[j.Pairing] = s.PairWDL[j.Pairing].Add(white)
	} else {
		s.PairWDL[j.Pairing] = s.PairWDL[j.Pairing].Add(white.Flip())
	}
	for side, ei := range idx {
		e := &s.Engines[ei]
		if side == 0 {
			e.WDL = e.WDL.Add(white)
		} else {
			e.WDL = e.WDL.Add(white.Flip())
		}
		st := o.Sides[side]
		e.Time += st.Time
		e.Actions += st.Actions
		e.DepthSum += st.DepthSum
		e.DepthN += st.DepthN
		e.NPSSum += st.NPSSum
		e.NPSN += st.NPSN
	}
	if lost := loserBlamed(o); lost >= 0 {
		s.Engines[idx[lost]].Faults[o.Termination]++
	}
	if white.D == 0 {
		how := o.Reason
		if o.Termination != TermRule {
			how = string(o.Termination)
		}
		loser := idx[white.W] // white won: black (side 1) lost
		s.Engines[loser].Losses[how]++
	}
}

// loserBlamed returns the side that lost by its own fault, or -1 for games
// that ended on the board.
func loserBlamed(o Outcome) int {
	switch o.Termination {
	case TermRule, TermAdjudication, TermDrawClaim, TermAborted:
		return -1
	}
	switch o.Result {
	case position.WhiteWins:
		return 1
	case position.BlackWins:
		return 0
	}
	return -1
}

// ScoreLine returns "Score of A vs B: W - L - D [s] N" for engines i and j.
func (s *Summary) ScoreLine(i, j int) string {
	r := s.Pair(i, j)
	return fmt.Sprintf("Score of %s vs %s: %d - %d - %d [%.3f] %d",
		s.Engines[i].Name, s.Engines[j].Name, r.W, r.L, r.D, nanTo(r.Score(), 0), r.N())
}

// EloLine returns "Elo difference: E +/- M, LOS: P %, draw ratio: D %".
func EloLine(r WDL) string {
	return fmt.Sprintf("Elo difference: %s +/- %s, LOS: %.1f %%, draw ratio: %.1f %%",
		fmtElo(r.Elo()), fmtMargin(r.EloMargin()), 100*r.LOS(), 100*nanTo(r.DrawRatio(), 0))
}

// SPRTLine describes the SPRT state for the counts r.
func SPRTLine(t SPRT, r WDL, d Decision) string {
	lo, hi := t.Bounds()
	return fmt.Sprintf("SPRT (trinomial, logistic Elo): elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f [%.3f, %.3f] %s",
		t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR(r), lo, hi, d)
}

func nanTo(x, def float64) float64 {
	if math.IsNaN(x) {
		return def
	}
	return x
}

func fmtElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtMargin(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 0):
		return "inf"
	}
	return fmt.Sprintf("%.2f", x)
}

// writeLive prints the line of a finished game (and, in a two-engine
// match, the running score).
func (s *Summary) writeLive(w io.Writer, rec GameRecord) {
	how := rec.Reason
	if rec.Termination != TermRule {
		how = string(rec.Termination) + ": " + rec.Reason
	}
	fmt.Fprintf(w, "Game %d/%d (opening %d): %s vs %s %s {%s} %d plies\n",
		rec.Game, s.Scheduled, rec.OpeningIndex, rec.White, rec.Black, rec.Result, how, rec.Plies)
	if len(s.Engines) == 2 {
		fmt.Fprintln(w, s.ScoreLine(0, 1))
	}
}

// Write prints the final report: the score and Elo lines of each pairing,
// the SPRT state, a table per engine and how the games ended.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "\nMatch: %s, %s, %d of %d games played", s.Variant, s.TimeControl, s.Played, s.Scheduled)
	if s.Resumed > 0 {
		fmt.Fprintf(w, " (%d by an earlier run)", s.Resumed)
	}
	if s.Aborted > 0 {
		fmt.Fprintf(w, ", %d aborted", s.Aborted)
	}
	if s.Interrupted {
		fmt.Fprint(w, " (interrupted)")
	}
	fmt.Fprintf(w, " in %v\n", s.Elapsed.Round(time.Millisecond))
	for _, p := range s.Pairs {
		fmt.Fprintln(w, s.ScoreLine(p[0], p[1]))
		fmt.Fprintln(w, EloLine(s.Pair(p[0], p[1])))
	}
	if s.SPRT != nil && len(s.Engines) == 2 {
		fmt.Fprintln(w, SPRTLine(*s.SPRT, s.Pair(0, 1), s.SPRTDecision))
	}
	fmt.Fprintln(w)
	s.writeTable(w)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Endings:")
	for _, line := range s.endings() {
		fmt.Fprintln(w, "  "+line)
	}
	// A drawn game says nothing about blockades; the losses by ending of
	// each engine do (mill is a draw: losses are what a change is judged by).
	fmt.Fprintln(w, "Losses by ending:")
	for i := range s.Engines {
		e := &s.Engines[i]
		fmt.Fprintf(w, "  %s: %s\n", e.Name, CountList(e.Losses))
	}
}

// writeTable prints one row per engine, best score first. In a round-robin
// the Elo, interval and LOS of a row are against the rest of the field.
func (s *Summary) writeTable(w io.Writer) {
	order := make([]int, len(s.Engines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return nanTo(s.Engines[order[a]].WDL.Score(), 0) > nanTo(s.Engines[order[b]].WDL.Score(), 0)
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Rank\tName\tGames\tW\tL\tD\tScore\tElo\t+/-\tLOS\tms/action\tdepth\tnps\tfaults\t")
	for rank, i := range order {
		e := &s.Engines[i]
		r := e.WDL
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t%s\t%.1f%%\t%.1f\t%.1f\t%.0f\t%s\t\n",
			rank+1, e.Name, r.N(), r.W, r.L, r.D, 100*nanTo(r.Score(), 0), fmtElo(r.Elo()), fmtMargin(r.EloMargin()),
			100*r.LOS(), e.MsPerAction(), e.AvgDepth(), e.AvgNPS(), faultString(e.Faults))
	}
	_ = tw.Flush()
}

func faultString(f map[Termination]int) string {
	if len(f) == 0 {
		return "0"
	}
	var parts []string
	for k, n := range f {
		parts = append(parts, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// endings lists the reasons games ended with their counts, most frequent first.
func (s *Summary) endings() []string {
	all := maps.Clone(s.Reasons)
	for t, n := range s.Terminations {
		if t != TermRule && t != TermDrawClaim {
			all[string(t)] += n
		}
	}
	list := byCount(all)
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = fmt.Sprintf("%s: %d", e.name, e.n)
	}
	if len(out) == 0 {
		out = []string{"(no games)"}
	}
	return out
}

// count is a name with its count.
type count struct {
	name string
	n    int
}

// byCount returns the counts of m, largest first, ties by name.
func byCount(m map[string]int) []count {
	list := make([]count, 0, len(m))
	for k, n := range m {
		list = append(list, count{k, n})
	}
	sort.Slice(list, func(a, b int) bool {
		if list[a].n != list[b].n {
			return list[a].n > list[b].n
		}
		return list[a].name < list[b].name
	})
	return list
}

// CountList renders counts by name as "name n, …", largest first (ties
// by name), or "none": how match, tune and egtb games list endings.
func CountList(m map[string]int) string {
	list := byCount(m)
	if len(list) == 0 {
		return "none"
	}
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = fmt.Sprintf("%s %d", e.name, e.n)
	}
	return strings.Join(parts, ", ")
}
