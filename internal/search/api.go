// Package search finds the best action of a position: iterative deepening over
// MTD(f) (the default) or fail-soft alpha-beta with principal variation search,
// a shared transposition table, lazy SMP threads, time management, skill
// levels and a deterministic bench.
package search

import (
	"fmt"
	"time"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/tt"
)

// Scores are from the side to move's view; 100 is one piece.
const (
	ValueDraw     = 0
	ValueMate     = 30000            // a win at the root; a win n plies away scores ValueMate-n
	ValueMateBand = ValueMate - 1000 // scores beyond ±ValueMateBand are wins or losses
	ValueInfinite = 32000
	// A win the endgame tables know without its distance to the end (their
	// sectors beyond 10 pieces keep the distance to the next removal) scores
	// ValueTBWin less the plies to that removal and to the node: below every
	// mate, above every evaluation. Scores beyond ±ValueTBBand are ply
	// relative, as mates are.
	ValueTBWin  = ValueMateBand - 1000
	ValueTBBand = ValueTBWin - 1000
)

// MaxPly bounds the depth of the search tree.
const MaxPly = 128

// Ranges of the search options, shared by the protocol, the command line and
// SetOptions.
const (
	MaxSkillLevel      = 30 // full strength; lower levels play weaker
	MaxQuiescenceDepth = 4  // plies of removals and mill closings past the horizon
	MaxContempt        = 100
)

// Algorithm selects the search driver.
type Algorithm int

// Algorithms; Sanmill's numbers 0 and 1 are alpha-beta, 2 is MTD(f).
const (
	MTDF Algorithm = iota
	AlphaBeta
	PVS
)

// String returns "mtdf", "alphabeta" or "pvs".
func (a Algorithm) String() string {
	switch a {
	case AlphaBeta:
		return "alphabeta"
	case PVS:
		return "pvs"
	}
	return "mtdf"
}

// ParseAlgorithm reads mtdf, alphabeta, pvs or Sanmill's numbers 0, 1 (alpha-beta), 2 (MTD(f)).
func ParseAlgorithm(s string) (Algorithm, error) {
	switch s {
	case "mtdf", "MTDF", "mtd(f)", "MTD(f)", "2":
		return MTDF, nil
	case "alphabeta", "alpha-beta", "AlphaBeta", "0", "1":
		return AlphaBeta, nil
	case "pvs", "PVS":
		return PVS, nil
	}
	return MTDF, fmt.Errorf("algorithm %q: want mtdf, alphabeta or pvs (or 0, 1, 2)", s)
}

// Limits bound one search. Zero values mean "no limit"; a search with no
// limit at all runs until Stop.
type Limits struct {
	Depth       int           // iterations to complete
	Nodes       uint64        // nodes to search
	MoveTime    time.Duration // exact time for this move
	WTime       time.Duration // clock of white
	BTime       time.Duration // clock of black
	WInc        time.Duration // increment of white
	BInc        time.Duration // increment of black
	MovesToGo   int           // moves to the next time control
	Mate        int           // search for a win in this many turns; stop once found
	Infinite    bool          // search until Stop
	Ponder      bool          // search until PonderHit or Stop; the clock starts at PonderHit
	SearchMoves []position.Move
	// Start is when the go arrived; the clock counts from it, so that what
	// the caller does before Search (the book, the tables' notes on the
	// root, a table's first probe) is spent from the move's time and not
	// added to it. Zero: the clock starts with Search.
	Start time.Time
}

// HasClock reports whether a clock was given.
func (l *Limits) HasClock() bool { return l.WTime > 0 || l.BTime > 0 || l.WInc > 0 || l.BInc > 0 }

// Options are the engine options that shape a search.
type Options struct {
	Threads            int           // lazy SMP threads, 1 or more
	MultiPV            int           // principal variations to report, 1 or more
	MoveOverhead       time.Duration // kept in reserve per move for communication
	SkillLevel         int           // 0–MaxSkillLevel; below it the engine plays weaker
	Shuffling          bool          // random choice among equally scored root moves
	Algorithm          Algorithm     // search driver
	MaxQuiescenceDepth int           // plies of pending removals resolved past the horizon (0–MaxQuiescenceDepth)
	// Contempt is what a draw costs the side to move at the root, in
	// centipawns (−MaxContempt..MaxContempt): a draw scores −Contempt for
	// it and +Contempt for its opponent, so an engine that stands better
	// than −Contempt avoids repetitions and the N-move rule and keeps
	// playing, and one that stands worse steers into them. A negative value
	// makes the engine seek draws. Analysis does not use it: see AnalyseMode.
	Contempt int
	// DrawnContempt, when above 0, replaces Contempt at a root the tables
	// or a proof call a draw, where every action the search chooses among
	// keeps the draw: there a draw avoided costs nothing, so a larger
	// contempt keeps the game going (away from repetitions and the N-move
	// rule) and gives the opponent more turns to err. 0 keeps Contempt.
	DrawnContempt int
	// DrawnTrades, when above 0, is what each piece removed below such a
	// drawn root, by either side, is worth to the root's side in the
	// search's evaluation (centipawns): among the drawing actions the
	// search then prefers those whose lines trade pieces to those that
	// block. Against Sanmill C++ (13 matches, every policy) the drawn
	// openings whose placing kept the draw were won 20 times in 95 when no
	// piece was removed while placing, 99 times in 165 when one was
	// (docs/strength.md). 0 is off; DefaultDrawnTrades is the default.
	DrawnTrades int
	// DrawnFlying, when above 0, is what it costs the root's side, in the
	// search's evaluation at a drawn root (centipawns), that its opponent
	// flies, down to FlyPieceCount pieces with nothing in hand, while it
	// does not fly itself: the drawing lines that leave the root's side on
	// the ground against a flyer weigh less than those that keep both on
	// the ground, or make it the flyer, or both. Against a flyer the
	// non-flying side's wins are short (4v3 at most 1 turn, 5v3 2, 6v3 4:
	// the tables), every trap one the flyer sees at once; the flyer's are
	// long (3v4 up to 17 turns). In the records of the default against
	// Sanmill C++ it lost 1 % of its turns at drawn 4-against-3 positions
	// as the flyer, 5.5 % on the ground against millengine's flying three,
	// 23 % with both flying. Within 30 plies of the N-move rule's end the
	// cost is off: a removal restarts the rule's count. 0 is off;
	// DefaultDrawnFlying is the default.
	DrawnFlying int
	// AnalyseMode scores every draw as a draw (no Contempt): the scores
	// shown are the position's own, not the engine's preference as a player.
	// An infinite search is analysis too.
	AnalyseMode bool
	// TableWinningChances makes the tables choose among the drawing moves
	// of a drawn table root: the one that leaves the opponent the fewest
	// drawing replies, answered at once. Off (the default), the search
	// chooses among the drawing moves with the move's time, its own
	// evaluation and Contempt, without the tables below the root (to them
	// every such move is a draw), and reports the draw: over the same 40
	// openings at 1 s a move that converted more draws into wins against
	// both Sanmill engines than the tables' choice (docs/strength.md,
	// "Against Sanmill's engines with the whole moving phase").
	TableWinningChances bool
	// Policy chooses among the drawing actions of a drawn root the tables
	// know (see Policy); TableWinningChances, when set, means PolicyReplies.
	Policy Policy
	// ModelDepth, ModelTemperature (centipawns) and ModelMinChance shape
	// PolicyModel's opponent: the depth of its search, how widely its
	// choice spreads over replies that score alike, and the least chance of
	// a losing reply, in percent, for which the model decides instead of
	// the search.
	ModelDepth       int
	ModelTemperature int
	ModelMinChance   int
	// PressureShare is PolicyPressure's least share of losing replies, in
	// percent of the opponent's actions.
	PressureShare int
	// FlyingPressure, when above 0, narrows the search's choice at a drawn
	// root where a side flies (down to FlyPieceCount pieces, nothing in
	// hand) to the drawing actions after which at least this percent of the
	// opponent's replies lose, when some reach it and some do not, as
	// PolicyPressure does everywhere. In the flying endgames of the records
	// against Sanmill C++, it lost 15-21 % of its turns where at least 40 %
	// of its actions lost and under 1 % where fewer than 20 % did, and the
	// search alone left it a turn without a trap in 423 of the 973 turns
	// where it could have set one. 0 is off; DefaultFlyingPressure is the
	// default.
	FlyingPressure int
	// PressureDepth, when above 0, has PolicyPressure and FlyingPressure
	// count only the opponent's replies that lose at least this many plies
	// from the end (by the tables' distance: to the end of the game, or to
	// the next removal in sectors that keep only that): a searcher sees the
	// nearer losses and does not play them. In the records against Sanmill
	// C++, its losing actions in the moving phase almost all lay beyond 16
	// plies, and in a second its iterative deepening (from depth 2)
	// reached depth 11 or so at a 4-against-3 root and 15 at a 3-against-3
	// one (its debug lines counted). 0 counts every losing reply;
	// DefaultPressureDepth is the default, for PolicyPressure too (whose
	// matches were played with 0).
	PressureDepth int
	// LimitStrength and Elo (UCI_LimitStrength, UCI_Elo) make the engine
	// play at the level whose Elo is nearest (see Levels); SkillLevel
	// below MaxSkillLevel does too, mapped onto the same scale.
	LimitStrength bool
	Elo           int
}

// DefaultOptions returns the options of a fresh engine.
func DefaultOptions() Options {
	return Options{Threads: 1, MultiPV: 1, MoveOverhead: 10 * time.Millisecond,
		SkillLevel: MaxSkillLevel, Algorithm: MTDF, MaxQuiescenceDepth: 2,
		ModelDepth: DefaultModelDepth, ModelTemperature: DefaultModelTemperature, ModelMinChance: DefaultModelMinChance,
		PressureShare: DefaultPressureShare, DrawnTrades: DefaultDrawnTrades, Elo: DefaultElo,
		FlyingPressure: DefaultFlyingPressure, PressureDepth: DefaultPressureDepth, DrawnFlying: DefaultDrawnFlying}
}

// Info is the progress report of one completed iteration (or a periodic
// update during a long one, with PV nil).
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int // 1-based index of this line
	Score    int // side to move's view
	Nodes    uint64
	NPS      uint64
	HashFull int    // permille
	TBHits   uint64 // endgame-table probes
	Time     time.Duration
	PV       []position.Move
	Bound    tt.Bound // Exact, or Lower/Upper for a fail-high/low report
	MateIn   int      // turns to mate (negative: mated), 0 if not a mate score
	// Outcome is the proven value of the root for the side to move when
	// the endgame tables (or a proof) know it, else OutcomeUnknown.
	Outcome Outcome
	// Note, when not empty, is a line for the GUI ("info string …") and the
	// other fields are empty: what a proof at the root found.
	Note string
}

// Outcome is a proven game value for the side to move.
type Outcome int8

// Outcomes.
const (
	OutcomeUnknown Outcome = iota
	OutcomeWin
	OutcomeDraw
	OutcomeLoss
)

// Result is the outcome of a search.
type Result struct {
	BestMove   position.Move // NoMove only if the root has no legal action
	PonderMove position.Move // expected reply, or NoMove
	Score      int
	MateIn     int // turns to mate (negative: mated), 0 if Score is not a mate score
	Depth      int
	Nodes      uint64
	TBHits     uint64 // endgame-table probes
	PV         []position.Move
	Outcome    Outcome // the root's proven value, where the tables or a proof know it
	Source     Source  // what decided the move
}

// Source says what decided a search's move.
type Source int8

// Sources.
const (
	FromSearch  Source = iota // the search
	FromTables                // the endgame tables at the root (their policy)
	FromProof                 // a proof of the root down to the tables, the search among the value-keeping actions
	FromPerfect               // Malom's databases (UsePerfectDatabase) at the root, by the tables' policy
)

// String returns "search", "tables", "proof" or "perfect database".
func (s Source) String() string {
	switch s {
	case FromTables:
		return "tables"
	case FromProof:
		return "proof"
	case FromPerfect:
		return "perfect database"
	}
	return "search"
}
