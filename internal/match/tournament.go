package match

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/rules"
)

// Config describes a match (two engines) or a round-robin (more).
type Config struct {
	Engines        []EngineSpec
	Variant        rules.Preset
	Games          int // games per pairing; each opening is played twice with colours swapped
	TC             TimeControl
	Margin         time.Duration // see GameConfig.Margin
	MaxPlies       int           // see GameConfig.MaxPlies
	Tables         *egtb.Tables  // see GameConfig.Tables; nil: no adjudication by the tables
	Openings       []Opening     // used in turn, one per pair of games; empty: the start position
	Concurrency    int           // games played at once
	SPRT           *SPRT         // stop as soon as it decides (two engines only)
	StartupTimeout time.Duration // uci/uciok and isready/readyok
	QuitGrace      time.Duration // how long an engine may take to exit after quit

	// Done holds the games an earlier, interrupted run of this same match
	// played (read back from its records with ReadRecords): they count in
	// the summary and are not played again. Validate refuses a record that
	// does not fit the schedule: other engines or colours, another opening,
	// variant or time control means another match.
	Done []GameRecord

	Live         io.Writer      // a line per finished game; nil: none
	Records      io.Writer      // JSON lines, one per game; nil: none
	PGN          io.Writer      // every game in Sanmill's PGN dialect (GameRecord.PGN); nil: none
	EngineStderr io.Writer      // the engines' stderr; nil discards it
	Log          zerolog.Logger // restarts and warnings (to stderr in millmatch); the zero value logs nothing
}

// Validate checks the configuration before anything starts.
func (c *Config) Validate() error {
	if len(c.Engines) < 2 {
		return fmt.Errorf("match: need at least two engines, got %d", len(c.Engines))
	}
	seen := map[string]bool{}
	for i, e := range c.Engines {
		if e.Path == "" {
			return fmt.Errorf("match: engine %d has no command", i+1)
		}
		if e.Name == "" {
			return fmt.Errorf("match: engine %d (%s) has no name", i+1, e.Path)
		}
		if seen[e.Name] {
			return fmt.Errorf("match: two engines are named %q; label them with --name", e.Name)
		}
		seen[e.Name] = true
		for _, o := range e.Options {
			if IsRuleOption(o.Name) {
				return fmt.Errorf("match: engine %d (%s): option %s is a rule option; the rules come from the variant", i+1, e.Name, o.Name)
			}
		}
	}
	if c.Games < 1 {
		return fmt.Errorf("match: --games must be at least 1, got %d", c.Games)
	}
	if err := c.TC.Validate(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if c.Margin < 0 {
		return fmt.Errorf("match: negative time margin %v", c.Margin)
	}
	if c.MaxPlies < 0 {
		return fmt.Errorf("match: negative ply cap %d", c.MaxPlies)
	}
	if c.Tables != nil && !c.Tables.Covers(&c.Variant.Rules) {
		return fmt.Errorf("match: the endgame tables in %s are not for the rules of %s", c.Tables.Dir(), c.Variant.Key)
	}
	if c.Concurrency < 1 {
		return fmt.Errorf("match: concurrency must be at least 1, got %d", c.Concurrency)
	}
	if c.SPRT != nil {
		if len(c.Engines) != 2 {
			return fmt.Errorf("match: an SPRT needs exactly two engines, got %d", len(c.Engines))
		}
		if err := c.SPRT.Validate(); err != nil {
			return fmt.Errorf("match: %w", err)
		}
	}
	if err := c.Variant.Rules.Validate(); err != nil {
		return fmt.Errorf("match: variant %s: %w", c.Variant.Key, err)
	}
	for _, o := range c.Openings {
		if _, err := o.Game(c.Variant.Rules); err != nil {
			return fmt.Errorf("match: %w", err)
		}
	}
	if _, err := c.done(Schedule(len(c.Engines), c.Games, c.Openings)); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// done checks Done against the schedule and returns the records with their
// jobs and outcomes restored, by game number.
func (c *Config) done(jobs []Job) (map[int]GameRecord, error) {
	recs := make(map[int]GameRecord, len(c.Done))
	for _, r := range c.Done {
		if r.Game < 1 || r.Game > len(jobs) {
			return nil, fmt.Errorf("earlier game %d: this match has games 1 to %d", r.Game, len(jobs))
		}
		if _, dup := recs[r.Game]; dup {
			return nil, fmt.Errorf("earlier game %d is recorded twice", r.Game)
		}
		j := jobs[r.Game-1]
		want := GameRecord{White: c.Engines[j.White].Name, Black: c.Engines[j.Black].Name, Variant: c.Variant.Key,
			TimeControl: c.TC.String(), OpeningIndex: j.OpeningIndex + 1, OpeningFEN: j.Opening.FEN}
		if r.White != want.White || r.Black != want.Black || r.Variant != want.Variant || r.TimeControl != want.TimeControl ||
			r.OpeningIndex != want.OpeningIndex || r.OpeningFEN != want.OpeningFEN || !slices.Equal(r.Opening, j.Opening.Moves) {
			return nil, fmt.Errorf("earlier game %d was %s vs %s, %s, %s, opening %d %q; this match plays it as %s vs %s, %s, %s, opening %d %q: not the same match (same engines, names, --games, openings and --seed?)",
				r.Game, r.White, r.Black, r.Variant, r.TimeControl, r.OpeningIndex, Opening{FEN: r.OpeningFEN, Moves: r.Opening},
				want.White, want.Black, want.Variant, want.TimeControl, want.OpeningIndex, j.Opening)
		}
		o, err := r.restoreOutcome()
		if err != nil {
			return nil, fmt.Errorf("earlier game %d: %w", r.Game, err)
		}
		r.job, r.outcome = j, o
		recs[r.Game] = r
	}
	return recs, nil
}

// Job is one scheduled game.
type Job struct {
	Number       int // 1-based, in schedule order
	Pairing      int // index into Pairings()
	White, Black int // engine indices
	OpeningIndex int // 0-based index into the openings (or 0 for the start position)
	Opening      Opening
}

// Pairings returns every pair of engine indices (i < j) in round-robin order.
func Pairings(n int) [][2]int {
	var ps [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ps = append(ps, [2]int{i, j})
		}
	}
	return ps
}

// Schedule lists the games of the match: for each opening in turn, every
// pairing plays it twice, first with the lower-numbered engine as white,
// then with colours swapped. With an odd number of games per pairing the
// last opening is played once.
func Schedule(engines, games int, openings []Opening) []Job {
	if len(openings) == 0 {
		openings = []Opening{{Source: "start"}}
	}
	pairs := Pairings(engines)
	var jobs []Job
	for k := 0; 2*k < games; k++ {
		oi := k % len(openings)
		for pi, p := range pairs {
			jobs = append(jobs, Job{Pairing: pi, White: p[0], Black: p[1], OpeningIndex: oi, Opening: openings[oi]})
			if 2*k+1 < games {
				jobs = append(jobs, Job{Pairing: pi, White: p[1], Black: p[0], OpeningIndex: oi, Opening: openings[oi]})
			}
		}
	}
	for i := range jobs {
		jobs[i].Number = i + 1
	}
	return jobs
}

// GameRecord is one finished game as written to the JSON-lines file.
type GameRecord struct {
	Game         int      `json:"game"`
	White        string   `json:"white"`
	Black        string   `json:"black"`
	Variant      string   `json:"variant"`
	TimeControl  string   `json:"time_control"`
	OpeningIndex int      `json:"opening_index"`
	OpeningFEN   string   `json:"opening_fen,omitempty"`
	Opening      []string `json:"opening"`
	Moves        []string `json:"moves"`
	// Notes holds, for each of Moves, the engine's info strings for it
	// (joined by " | "): its own account of why it played it.
	Notes       []string         `json:"notes,omitempty"`
	Result      string           `json:"result"`
	Winner      string           `json:"winner,omitempty"`
	Termination Termination      `json:"termination"`
	Reason      string           `json:"reason"`
	Plies       int              `json:"plies"`
	FinalFEN    string           `json:"final_fen"`
	TimeMs      PerSide[int64]   `json:"time_ms"`
	Actions     PerSide[int]     `json:"actions"`
	AvgDepth    PerSide[float64] `json:"avg_depth"`
	AvgNPS      PerSide[float64] `json:"avg_nps"`
	DepthN      PerSide[int]     `json:"depth_n"` // actions AvgDepth is over
	NPSN        PerSide[int]     `json:"nps_n"`   // actions AvgNPS is over
	WallMs      int64            `json:"wall_ms"`

	job     Job
	outcome Outcome
}

// PerSide holds a value for each colour.
type PerSide[T any] struct {
	White T `json:"white"`
	Black T `json:"black"`
}

func newRecord(cfg *Config, job Job, o Outcome, wall time.Duration) GameRecord {
	r := GameRecord{
		Game: job.Number, White: cfg.Engines[job.White].Name, Black: cfg.Engines[job.Black].Name,
		Variant: cfg.Variant.Key, TimeControl: cfg.TC.String(),
		OpeningIndex: job.OpeningIndex + 1, OpeningFEN: job.Opening.FEN,
		Opening: append([]string{}, job.Opening.Moves...), Moves: append([]string{}, o.Moves...), Notes: notesOf(o.Notes),
		Result: record.ResultToken(o.Result), Termination: o.Termination, Reason: o.Reason,
		Plies: o.Plies, FinalFEN: o.FinalFEN, WallMs: wall.Milliseconds(),
		job: job, outcome: o,
	}
	switch o.Result {
	case position.WhiteWins:
		r.Winner = r.White
	case position.BlackWins:
		r.Winner = r.Black
	}
	s := o.Sides
	r.TimeMs = PerSide[int64]{s[0].Time.Milliseconds(), s[1].Time.Milliseconds()}
	r.Actions = PerSide[int]{s[0].Actions, s[1].Actions}
	r.AvgDepth = PerSide[float64]{avg(float64(s[0].DepthSum), s[0].DepthN), avg(float64(s[1].DepthSum), s[1].DepthN)}
	r.AvgNPS = PerSide[float64]{avg(s[0].NPSSum, s[0].NPSN), avg(s[1].NPSSum, s[1].NPSN)}
	r.DepthN = PerSide[int]{s[0].DepthN, s[1].DepthN}
	r.NPSN = PerSide[int]{s[0].NPSN, s[1].NPSN}
	return r
}

// notesOf returns a game's notes for its record, nil when no move has one.
func notesOf(notes []string) []string {
	for _, n := range notes {
		if n != "" {
			return append([]string{}, notes...)
		}
	}
	return nil
}

// finished lists the results of a finished game.
var finished = []position.Result{position.WhiteWins, position.BlackWins, position.Draw}

// restoreOutcome rebuilds the outcome a record was written from, as far as
// the summary needs it. Records written before depth_n and nps_n existed
// count every action in the means.
func (r *GameRecord) restoreOutcome() (Outcome, error) {
	o := Outcome{Termination: r.Termination, Reason: r.Reason, Faulty: -1, Moves: r.Moves, Plies: r.Plies, FinalFEN: r.FinalFEN}
	i := slices.IndexFunc(finished, func(res position.Result) bool { return record.ResultToken(res) == r.Result })
	if i < 0 {
		return o, fmt.Errorf("result %q is not 1-0, 0-1 or 1/2-1/2", r.Result)
	}
	o.Result = finished[i]
	if r.Termination == "" || r.Termination == TermAborted {
		return o, fmt.Errorf("termination %q is not that of a finished game", r.Termination)
	}
	side := func(t int64, actions int, depth, nps float64, dn, nn int) SideStats {
		if dn == 0 && depth > 0 {
			dn = actions
		}
		if nn == 0 && nps > 0 {
			nn = actions
		}
		return SideStats{Actions: actions, Time: time.Duration(t) * time.Millisecond,
			DepthSum: int64(math.Round(depth * float64(dn))), DepthN: dn, NPSSum: nps * float64(nn), NPSN: nn}
	}
	o.Sides[0] = side(r.TimeMs.White, r.Actions.White, r.AvgDepth.White, r.AvgNPS.White, r.DepthN.White, r.NPSN.White)
	o.Sides[1] = side(r.TimeMs.Black, r.Actions.Black, r.AvgDepth.Black, r.AvgNPS.Black, r.DepthN.Black, r.NPSN.Black)
	return o, nil
}

// ReadRecords reads a match's JSON-lines records, as Run writes them to
// Config.Records, for Config.Done. A last line without its newline is the
// game being written when the earlier run was killed: it is left out, and
// complete is the length of the lines before it (truncate the file to it
// before appending). Any other line that is not a record is an error.
func ReadRecords(r io.Reader) (recs []GameRecord, complete int64, err error) {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return recs, complete, nil
		}
		if err != nil {
			return nil, 0, err
		}
		var rec GameRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, 0, fmt.Errorf("line %d: %w", n, err)
		}
		recs = append(recs, rec)
		complete += int64(len(line))
	}
}

func avg(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Run plays the match and returns its summary. It stops early when the SPRT
// decides or ctx is cancelled (games in progress are then aborted and not
// counted). Engine faults lose the game and restart the engine; the match
// goes on, also when an engine dies before a game starts. An error is
// returned only for a configuration that cannot work, before any game (a
// *SetupError: an engine that does not start or complete the handshake,
// cannot play the variant, or does not accept an option), for ctx's error
// if it ends before the first game, and for a failed write of the records.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.StartupTimeout <= 0 {
		cfg.StartupTimeout = 10 * time.Second
	}
	if cfg.QuitGrace <= 0 {
		cfg.QuitGrace = time.Second
	}
	ids, err := checkEngines(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	jobs := Schedule(len(cfg.Engines), cfg.Games, cfg.Openings)
	sum := newSummary(&cfg, ids, len(jobs))
	todo := resume(&cfg, jobs, sum)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stop atomic.Bool // set once the SPRT has decided: no new game starts
	if sum.Resumed > 0 && sprtDecides(&cfg, sum) {
		stop.Store(true)
	}
	out := recordSink{cfg: &cfg}
	for rec := range playAll(runCtx, &cfg, todo, &stop) {
		if rec.Termination == TermAborted || stop.Load() {
			sum.Aborted++
			continue
		}
		sum.add(rec)
		if cfg.Live != nil {
			sum.writeLive(cfg.Live, rec)
		}
		out.write(rec)
		if sprtDecides(&cfg, sum) {
			stop.Store(true)
			cancel()
		}
	}
	sum.Interrupted = ctx.Err() != nil
	sum.Elapsed = time.Since(sum.started)
	return sum, out.err
}

// checkEngines starts every engine once, so that a wrong path or an
// unsupported variant fails now, with one clear message; it returns their
// names as they give them.
func checkEngines(ctx context.Context, cfg *Config) ([]string, error) {
	ids := make([]string, len(cfg.Engines))
	for i, spec := range cfg.Engines {
		id, err := checkEngine(ctx, cfg, spec)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &SetupError{Engine: i + 1, Name: spec.Name, Err: err}
		}
		ids[i] = id
	}
	return ids, nil
}

// resume counts the games the records already hold into sum and returns
// the jobs still to play.
func resume(cfg *Config, jobs []Job, sum *Summary) []Job {
	done, _ := cfg.done(jobs) // checked by Validate
	var todo []Job
	for _, j := range jobs {
		if r, ok := done[j.Number]; ok {
			sum.add(r)
			sum.Resumed++
		} else {
			todo = append(todo, j)
		}
	}
	return todo
}

// sprtDecides records the SPRT's decision in sum once it has one.
func sprtDecides(cfg *Config, sum *Summary) bool {
	if cfg.SPRT == nil {
		return false
	}
	d := cfg.SPRT.Decide(sum.Pair(0, 1))
	if d == Continue {
		return false
	}
	sum.SPRTDecision = d
	return true
}

// playAll plays the jobs on cfg.Concurrency workers, each with its own
// engine processes, and sends each game's record; the channel is closed
// when every worker has ended. Once stop is set (or ctx ends) no new game
// starts.
func playAll(ctx context.Context, cfg *Config, todo []Job, stop *atomic.Bool) <-chan GameRecord {
	jobCh := make(chan Job)
	resCh := make(chan GameRecord)
	go func() {
		defer close(jobCh)
		for _, j := range todo {
			if stop.Load() {
				return
			}
			select {
			case jobCh <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range min(cfg.Concurrency, len(todo)) {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			wk := &worker{id: id, cfg: cfg, procs: make([]*Process, len(cfg.Engines)),
				log: cfg.Log.With().Int("worker", id).Logger()}
			defer wk.close()
			for j := range jobCh {
				if stop.Load() || ctx.Err() != nil {
					continue // drain quickly
				}
				resCh <- wk.play(ctx, j)
			}
		}(w)
	}
	go func() {
		wg.Wait()
		close(resCh)
	}()
	return resCh
}

// recordSink writes each finished game to cfg.Records (a JSON line) and
// cfg.PGN. After the first failed write it writes nothing more, and err
// says why.
type recordSink struct {
	cfg *Config
	err error
}

func (o *recordSink) write(rec GameRecord) {
	if o.err != nil {
		return
	}
	if o.cfg.Records != nil {
		b, err := json.Marshal(rec)
		if err == nil {
			b = append(b, '\n')
			_, err = o.cfg.Records.Write(b)
		}
		if err != nil {
			o.err = fmt.Errorf("match: writing the game records: %w", err)
			o.cfg.Log.Error().Err(o.err).Msg("game records are no longer written")
			return
		}
	}
	if o.cfg.PGN != nil {
		g, err := rec.PGN(time.Now())
		if err == nil {
			err = record.Write(o.cfg.PGN, g)
		}
		if err == nil {
			_, err = io.WriteString(o.cfg.PGN, "\n")
		}
		if err != nil {
			o.err = fmt.Errorf("match: writing the PGN: %w", err)
			o.cfg.Log.Error().Err(o.err).Msg("PGN is no longer written")
		}
	}
}

// SetupError is Run's error for an engine that cannot take part in the
// match: it does not start, does not complete the handshake, cannot play the
// variant, or does not accept an option.
type SetupError struct {
	Engine int    // 1-based, in the order of Config.Engines
	Name   string // its label
	Err    error  // an *EngineError, as a rule
}

// Error returns "engine N (label): what went wrong".
func (e *SetupError) Error() string {
	msg := e.Err.Error()
	if ee := (*EngineError)(nil); errors.As(e.Err, &ee) {
		msg = ee.Err.Error() // without the name again
	}
	return fmt.Sprintf("engine %d (%s): %s", e.Engine, e.Name, msg)
}

// Unwrap returns the cause.
func (e *SetupError) Unwrap() error { return e.Err }

// checkEngine starts an engine and configures it once before the match, so
// that a wrong path, a program that is no UCI engine, a variant the engine
// cannot play or an option it refuses stops the match with one message. An
// engine that completes the handshake and then dies is let through (with a
// warning): like an engine that dies during the match, it loses the games it
// cannot start and is restarted for each. It returns the engine's id name.
func checkEngine(ctx context.Context, cfg *Config, spec EngineSpec) (string, error) {
	p, err := Start(ctx, spec, StartConfig{Timeout: cfg.StartupTimeout, Stderr: cfg.EngineStderr, Log: cfg.Log})
	if err != nil {
		return "", err
	}
	err = p.Configure(ctx, cfg.Variant)
	if err == nil {
		p.Quit(cfg.QuitGrace)
		return p.IDName, nil
	}
	p.Kill()
	if !isCrash(err) || ctx.Err() != nil {
		return "", err
	}
	cfg.Log.Warn().Str("engine", spec.Name).Str("error", faultDetail(err)).
		Msg("the engine died after uciok; it loses every game it cannot start")
	return p.IDName, nil
}

func startEngine(ctx context.Context, cfg *Config, spec EngineSpec) (*Process, error) {
	p, err := Start(ctx, spec, StartConfig{Timeout: cfg.StartupTimeout, Stderr: cfg.EngineStderr, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	if err := p.Configure(ctx, cfg.Variant); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// worker plays games one after another with its own engine processes.
type worker struct {
	id    int
	cfg   *Config
	procs []*Process // by engine index; nil until needed or after a fault
	log   zerolog.Logger
}

func (w *worker) close() {
	for i, p := range w.procs {
		if p != nil {
			p.Quit(w.cfg.QuitGrace)
			w.procs[i] = nil
		}
	}
}

// engine returns the running process of engine i, starting it if needed.
func (w *worker) engine(ctx context.Context, i int) (*Process, error) {
	if w.procs[i] != nil {
		return w.procs[i], nil
	}
	p, err := startEngine(ctx, w.cfg, w.cfg.Engines[i])
	if err != nil {
		return nil, err
	}
	w.procs[i] = p
	return p, nil
}

func (w *worker) play(ctx context.Context, j Job) GameRecord {
	start := time.Now()
	gc := GameConfig{Rules: w.cfg.Variant.Rules, Opening: j.Opening, TC: w.cfg.TC, Margin: w.cfg.Margin, MaxPlies: w.cfg.MaxPlies, Tables: w.cfg.Tables,
		Names: [2]string{w.cfg.Engines[j.White].Name, w.cfg.Engines[j.Black].Name}}
	idx := [2]int{j.White, j.Black}
	var players [2]Player
	for side, ei := range idx {
		p, err := w.engine(ctx, ei)
		if err != nil {
			o := Outcome{Faulty: side, Result: position.Winner(position.Color(side).Opponent()),
				Termination: TermStartFailure, Reason: fmt.Sprintf("%s (%s) could not be started: %s", position.Color(side), w.cfg.Engines[ei].Name, faultDetail(err))}
			if isCrash(err) {
				o.Termination, o.Reason = TermCrash, fmt.Sprintf("%s (%s) crashed: %s", position.Color(side), w.cfg.Engines[ei].Name, faultDetail(err))
			}
			if ctx.Err() != nil {
				o = Outcome{Faulty: -1, Termination: TermAborted, Reason: "match stopped"}
			}
			w.log.Warn().Err(err).Str("engine", w.cfg.Engines[ei].Name).Msg("engine start failed")
			return newRecord(w.cfg, j, o, time.Since(start))
		}
		players[side] = p
	}
	o := PlayGame(ctx, gc, players)
	if o.Faulty >= 0 {
		ei := idx[o.Faulty]
		w.log.Info().Str("engine", w.cfg.Engines[ei].Name).Int("game", j.Number).
			Str("termination", string(o.Termination)).Msg("restarting engine after a fault")
		w.procs[ei].Kill()
		w.procs[ei] = nil
	}
	if o.Termination == TermAborted {
		// The engines may be in the middle of a search: do not reuse them.
		for _, ei := range idx {
			if w.procs[ei] != nil {
				w.procs[ei].Kill()
				w.procs[ei] = nil
			}
		}
	}
	return newRecord(w.cfg, j, o, time.Since(start))
}
