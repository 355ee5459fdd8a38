package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/record"
	"github.com/millengine/millengine/internal/review"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// The board's JSON API. Records are read and written by the record package
// (one parser, fuzzed) and games graded by the review package (one home for
// the grading rules): the page only shows what these return. Bad input gets
// a 4xx answer {"error": …} with the reader's own message and changes
// nothing on the server.
//
//	POST /api/import  body: a record (Sanmill PGN, a PlayOK move list or a
//	                  FEN), at most Limits.MaxImportBytes; query variant=KEY:
//	                  the rules of a record without a [Variant] tag.
//	                  Answer: the first game, replayed (gameJSON).
//	POST /api/review  the same input, and movetime=MS (50–500, default 200)
//	                  or depth=D (1–8) per position. Answer: NDJSON, a
//	                  progress line per position searched, then the review
//	                  (or an error line). One review runs at a time; another
//	                  gets 503.
//	POST /api/export  body: exportRequest (JSON). Answer: the game as PGN
//	                  with its tags, as a download.

// Review bounds.
const (
	reviewHashMB          = 16
	minReviewMoveTime     = 50 * time.Millisecond
	maxReviewMoveTime     = 500 * time.Millisecond
	defaultReviewMoveTime = 200 * time.Millisecond
	maxReviewDepth        = 8
)

// Export bounds.
const (
	maxExportBytes = 256 << 10
	maxExportMoves = 4000
	maxTagValue    = 200
)

// writeError answers a request with an HTTP error and {"error": msg}.
func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// writeJSON answers a request with v.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// httpError is an answer that failed: its status and message.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) *httpError {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// readBody reads a request body of at most max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64, what string) ([]byte, *httpError) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("%s is larger than %d bytes", what, max)}
	case err != nil:
		return nil, badRequest("reading %s: %v", what, err)
	}
	return b, nil
}

// tagJSON is one tag pair, in the record's order.
type tagJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// gameJSON is a record's first game as the engine replayed it: what the page
// needs to set up its engine (the rules, the start position) and to step
// through the game (the engine's moves, removals separate, who played each,
// where each turn of the record ends).
type gameJSON struct {
	Games    int            `json:"games"` // games in the text; the first is the one here
	Tags     []tagJSON      `json:"tags"`
	Variant  string         `json:"variant"` // the preset key of the rules
	Rules    map[string]int `json:"rules"`   // every rule parameter (booleans as 0/1)
	StartFEN string         `json:"startFen"`
	SetUp    bool           `json:"setUp"` // the start is not the rules' start position
	Moves    []string       `json:"moves"` // engine tokens
	Sides    []string       `json:"sides"` // the side that played each
	// TurnEnd[k] is how many moves are played once the record's turn k is
	// done (a turn is an action with its removals).
	TurnEnd []int  `json:"turnEnd"`
	Result  string `json:"result"` // the record's termination marker
	FEN     string `json:"fen"`    // the position after the last move
}

// loadRecord reads the request's record and replays its first game.
func (s *Server) loadRecord(w http.ResponseWriter, r *http.Request) (*gameJSON, *record.Replayed, *httpError) {
	var base *rules.Preset
	if v := r.URL.Query().Get("variant"); v != "" {
		p, ok := rules.PresetByName(v)
		if !ok {
			return nil, nil, badRequest("unknown variant %q (want one of %s)", clip(v, 40), strings.Join(rules.PresetKeys(), ", "))
		}
		base = &p
	}
	src, herr := readBody(w, r, s.cfg.Limits.MaxImportBytes, "the record")
	if herr != nil {
		return nil, nil, herr
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil, badRequest("no record: paste a game in PGN, a PlayOK move list or a FEN")
	}
	if !utf8.Valid(src) {
		return nil, nil, badRequest("the record is not UTF-8 text")
	}
	games, err := record.Import(src)
	if err != nil {
		return nil, nil, badRequest("%v", err)
	}
	if len(games) == 0 {
		return nil, nil, badRequest("no game in the record")
	}
	g := &games[0]
	var rp *record.Replayed
	if _, tagged := g.Tag("Variant"); !tagged && base != nil {
		rp, err = record.Replay(g, &base.Rules)
		if rp != nil {
			rp.Variant = base.Key
		}
	} else {
		rp, err = record.Replay(g, nil)
	}
	if err != nil {
		return nil, nil, badRequest("%v", err)
	}
	out := &gameJSON{Games: len(games), Tags: []tagJSON{}, Variant: rp.Variant, Rules: rulesMap(&rp.Rules),
		StartFEN: rp.Game.Start.FEN(), Moves: []string{}, Sides: []string{}, TurnEnd: rp.TurnEnd, Result: g.Result,
		FEN: rp.Game.Pos.FEN()}
	if out.TurnEnd == nil {
		out.TurnEnd = []int{}
	}
	for _, t := range g.Tags {
		out.Tags = append(out.Tags, tagJSON{t.Name, t.Value})
	}
	std := position.New(&rp.Rules)
	out.SetUp = out.StartFEN != std.FEN()
	for i, m := range rp.Game.Moves {
		before := &rp.Game.Start
		if i > 0 {
			before = &rp.Positions[i-1]
		}
		out.Moves = append(out.Moves, m.String())
		out.Sides = append(out.Sides, before.SideToMove().String())
	}
	return out, rp, nil
}

// rulesMap is every rule parameter's value by name.
func rulesMap(r *rules.Rules) map[string]int {
	m := map[string]int{}
	for i := range rules.Params {
		m[rules.Params[i].Name] = rules.Params[i].Get(r)
	}
	return m
}

func (s *Server) serveImport(w http.ResponseWriter, r *http.Request) {
	g, _, herr := s.loadRecord(w, r)
	if herr != nil {
		writeError(w, herr.code, herr.msg)
		return
	}
	writeJSON(w, g)
}

// ---------------------------------------------------------------- review

// reviewer is the engine the reviews run on, made at the first review, and
// the endgame tables it uses, opened for the rules of the last review. Only
// the holder of the server's review slot touches it.
type reviewer struct {
	eng    *search.Engine
	tables *egtb.Tables
	rules  rules.Rules // what tables were opened for
	opened bool
}

// engine returns the reviews' engine: a small hash, one thread, analysis
// mode (draws scored as draws), as millengine annotate searches.
func (rv *reviewer) engine() *search.Engine {
	if rv.eng == nil {
		rv.eng = search.New(reviewHashMB)
		o := rv.eng.Options()
		o.Threads, o.AnalyseMode = 1, true
		rv.eng.SetOptions(o)
	}
	return rv.eng
}

// tablesFor returns the tables of dir for r, nil when there are none for
// them (or dir is ""); it reopens them when the rules change.
func (rv *reviewer) tablesFor(dir string, r *rules.Rules) (*egtb.Tables, error) {
	if dir == "" {
		return nil, nil
	}
	if rv.opened && rv.rules == *r {
		return rv.usable(r), nil
	}
	rv.close()
	t, err := egtb.Open(dir, r)
	if err != nil {
		return nil, err
	}
	rv.tables, rv.rules, rv.opened = t, *r, true
	return rv.usable(r), nil
}

func (rv *reviewer) usable(r *rules.Rules) *egtb.Tables {
	if rv.tables.Covers(r) {
		return rv.tables
	}
	return nil
}

func (rv *reviewer) close() {
	if rv.tables != nil {
		rv.tables.Close()
	}
	rv.tables, rv.opened = nil, false
}

// reviewLimits reads the per-position search bound of a review request.
func reviewLimits(q url.Values) (search.Limits, *httpError) {
	mt, d := q.Get("movetime"), q.Get("depth")
	switch {
	case mt != "" && d != "":
		return search.Limits{}, badRequest("give movetime or depth, not both")
	case d != "":
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > maxReviewDepth {
			return search.Limits{}, badRequest("depth %q: want 1 to %d", clip(d, 20), maxReviewDepth)
		}
		return search.Limits{Depth: n}, nil
	case mt != "":
		n, err := strconv.Atoi(mt)
		lo, hi := minReviewMoveTime.Milliseconds(), maxReviewMoveTime.Milliseconds()
		if err != nil || int64(n) < lo || int64(n) > hi {
			return search.Limits{}, badRequest("movetime %q: want %d to %d ms a position", clip(mt, 20), lo, hi)
		}
		return search.Limits{MoveTime: time.Duration(n) * time.Millisecond}, nil
	}
	return search.Limits{MoveTime: defaultReviewMoveTime}, nil
}

// reviewLine is one line of a review's NDJSON answer: progress (positions
// searched of all), the review, or an error.
type reviewLine struct {
	T      string      `json:"t"` // "progress", "review" or "error"
	Done   *int        `json:"done,omitempty"`
	Total  int         `json:"total,omitempty"`
	Error  string      `json:"error,omitempty"`
	Review *reviewJSON `json:"review,omitempty"`
}

func progressLine(done, total int) reviewLine {
	return reviewLine{T: "progress", Done: &done, Total: total}
}

// reviewJSON is a graded game.
type reviewJSON struct {
	Moves []moveJSON `json:"moves"` // one per engine move
	// Values are White's expected score (0–1) in every position, the start
	// and after each move, with the exact value where it is known.
	Values  []valueJSON    `json:"values"`
	Summary [2]summaryJSON `json:"summary"` // White, Black
	Tables  bool           `json:"tables"`  // endgame tables were used
	Limit   string         `json:"limit"`   // the search per position, such as "movetime 200"
}

// moveJSON is one graded move (review.Move). Scores are the engine's, in
// centipawns from the mover's view; Was and Is are the mover's exact values
// (win, draw, loss or unknown).
type moveJSON struct {
	Ply    int     `json:"ply"` // 0-based index among the moves
	Side   string  `json:"side"`
	Played string  `json:"played"`
	Best   string  `json:"best"`
	Before int     `json:"before"`
	After  int     `json:"after"`
	Was    string  `json:"was"`
	Is     string  `json:"is"`
	Grade  string  `json:"grade"`
	NAG    int     `json:"nag"`
	Glyph  string  `json:"glyph"` // the NAG as PGN writes it after a move: ?!, ?, ??
	Loss   float64 `json:"loss"`  // expected score lost, 0–1
}

// valueJSON is a position's value for White.
type valueJSON struct {
	White float64 `json:"white"`           // expected score, 0–1
	Exact string  `json:"exact,omitempty"` // win, draw or loss for White when exact
}

// summaryJSON is one side's account (review.Summary).
type summaryJSON struct {
	Moves        int     `json:"moves"`
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
	FirstChange  *int    `json:"firstChange"` // ply of the first move that changed the exact value
	Text         string  `json:"text"`
}

// nagGlyphs are the suffix forms of the NAGs the grades use.
var nagGlyphs = map[int]string{2: "?", 4: "??", 6: "?!"}

// round4 keeps four decimals: the figures are for people and for stable
// answers.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// whiteExpected is White's expected score of an engine score from the side
// to move's view (search.WDL's model).
func whiteExpected(score int, side position.Color) float64 {
	w, d, _ := search.WDL(score)
	e := (float64(w) + float64(d)/2) / 1000
	if side == position.Black {
		e = 1 - e
	}
	return round4(e)
}

// whiteValue turns a side's exact value into White's.
func whiteValue(v review.Value, side position.Color) string {
	if v == review.Unknown {
		return ""
	}
	if side == position.Black {
		switch v {
		case review.Won:
			v = review.Lost
		case review.Lost:
			v = review.Won
		}
	}
	return v.String()
}

// reviewOf turns review.Analyse's answer into JSON.
func reviewOf(moves []review.Move, sums [2]review.Summary, tables bool, lim search.Limits) *reviewJSON {
	out := &reviewJSON{Moves: []moveJSON{}, Tables: tables}
	if lim.Depth > 0 {
		out.Limit = fmt.Sprintf("depth %d", lim.Depth)
	} else {
		out.Limit = fmt.Sprintf("movetime %d", lim.MoveTime.Milliseconds())
	}
	for _, m := range moves {
		best := ""
		if m.Best != position.NoMove {
			best = m.Best.String()
		}
		out.Moves = append(out.Moves, moveJSON{Ply: m.Ply, Side: m.Mover.String(), Played: m.Played.String(), Best: best,
			Before: m.Before, After: m.After, Was: m.Was.String(), Is: m.Is.String(), Grade: m.Grade.String(),
			NAG: m.Grade.NAG(), Glyph: nagGlyphs[m.Grade.NAG()], Loss: round4(m.Loss)})
		out.Values = append(out.Values, valueJSON{White: whiteExpected(m.Before, m.Mover), Exact: whiteValue(m.Was, m.Mover)})
	}
	if n := len(moves); n > 0 {
		last := moves[n-1]
		out.Values = append(out.Values, valueJSON{White: whiteExpected(last.After, last.Mover), Exact: whiteValue(last.Is, last.Mover)})
	}
	for c := range sums {
		sm := sums[c]
		js := summaryJSON{Moves: sm.Moves, Accuracy: math.Round(sm.Accuracy*10) / 10, Inaccuracies: sm.Inaccuracies,
			Mistakes: sm.Mistakes, Blunders: sm.Blunders, Text: sm.String()}
		if sm.FirstChange != nil {
			p := sm.FirstChange.Ply
			js.FirstChange = &p
		}
		out.Summary[c] = js
	}
	return out
}

// serveReview grades the moves of a record's first game with the server's
// review engine, streaming its progress. It takes the server's one review
// slot without waiting: a second review meanwhile is refused. The review
// stops between searches (and the running search is stopped) when the
// request goes away or the server closes.
func (s *Server) serveReview(w http.ResponseWriter, r *http.Request) {
	lim, herr := reviewLimits(r.URL.Query())
	if herr != nil {
		writeError(w, herr.code, herr.msg)
		return
	}
	g, rp, herr := s.loadRecord(w, r)
	if herr != nil {
		writeError(w, herr.code, herr.msg)
		return
	}
	n := len(rp.Game.Moves)
	switch {
	case n == 0:
		writeError(w, http.StatusBadRequest, "the game has no moves to review")
		return
	case n > s.cfg.Limits.MaxReviewPlies:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the game has %d actions; a review takes at most %d", n, s.cfg.Limits.MaxReviewPlies))
		return
	}
	select {
	case s.reviews <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "10")
		writeError(w, http.StatusServiceUnavailable, "the server is reviewing another game (one review at a time): try again when it is done")
		return
	}
	defer func() { <-s.reviews }()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)()
	eng := s.rev.engine()
	tables, err := s.rev.tablesFor(s.cfg.EGTBPath, &rp.Rules)
	if err != nil {
		s.cfg.Log.Warn().Err(err).Msg("review: endgame tables not used")
	}
	eng.SetTables(tables)
	defer context.AfterFunc(ctx, eng.Stop)()

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	send := func(l reviewLine) {
		_ = enc.Encode(l)
		_ = rc.Flush()
	}
	send(progressLine(0, n+1))
	start := time.Now()
	moves, sums, err := review.Analyse(ctx, eng, rp.Game, review.Options{Limits: lim, Tables: tables,
		Progress: func(done, total int) { send(progressLine(done, total)) }})
	if err != nil {
		s.cfg.Log.Info().Err(err).Int("plies", n).Msg("review stopped")
		send(reviewLine{T: "error", Error: fmt.Sprintf("the review was stopped: %v", err)})
		return
	}
	s.cfg.Log.Info().Int("plies", n).Dur("took", time.Since(start)).Str("variant", g.Variant).Msg("game reviewed")
	send(reviewLine{T: "review", Review: reviewOf(moves, sums, tables != nil, lim)})
}

// ---------------------------------------------------------------- export

// exportRequest is the game the page asks to have written as PGN.
type exportRequest struct {
	Variant  string         `json:"variant"`  // a preset key; "" for Nine Men's Morris
	Rules    map[string]int `json:"rules"`    // rule parameters that differ from the variant's
	StartFEN string         `json:"startFen"` // "" for the rules' start position
	Moves    []string       `json:"moves"`    // engine tokens, removals separate
	White    string         `json:"white"`
	Black    string         `json:"black"`
	Event    string         `json:"event"`
	Round    string         `json:"round"`
	// Result is the result when the game ended off the board (a side lost
	// on time); "" takes it from the final position.
	Result string `json:"result"`
}

// serveExport writes the page's game as a PGN record in Sanmill's dialect
// (record.FromEngine and record.Write) with its tags: Event, Site
// "millengine", Date, Round, White, Black, Result, Variant, PlyCount, and
// FEN with SetUp when it does not start from the rules' start position.
func (s *Server) serveExport(w http.ResponseWriter, r *http.Request) {
	body, herr := readBody(w, r, maxExportBytes, "the game")
	if herr != nil {
		writeError(w, herr.code, herr.msg)
		return
	}
	var req exportRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "the game is not the JSON this wants: "+err.Error())
		return
	}
	rec, herr := exportRecord(&req, s.cfg.Now())
	if herr != nil {
		writeError(w, herr.code, herr.msg)
		return
	}
	var buf bytes.Buffer
	if err := record.Write(&buf, rec); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	now := s.cfg.Now()
	w.Header().Set("Content-Type", "application/vnd.chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="millengine-%s.pgn"`, now.Format("20060102-150405")))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

// exportRecord checks the page's game by replaying it and makes its record.
func exportRecord(req *exportRequest, now time.Time) (record.Game, *httpError) {
	r := rules.Default()
	if req.Variant != "" {
		p, ok := rules.PresetByName(req.Variant)
		if !ok {
			return record.Game{}, badRequest("unknown variant %q (want one of %s)", clip(req.Variant, 40), strings.Join(rules.PresetKeys(), ", "))
		}
		r = p.Rules
	}
	for name, v := range req.Rules {
		p, ok := rules.Lookup(name)
		if !ok {
			return record.Game{}, badRequest("unknown rule %q", clip(name, 40))
		}
		if err := p.Set(&r, strconv.Itoa(v)); err != nil {
			return record.Game{}, badRequest("%v", err)
		}
	}
	if err := r.Validate(); err != nil {
		return record.Game{}, badRequest("%v", err)
	}
	start := position.New(&r)
	if f := strings.TrimSpace(req.StartFEN); f != "" {
		var err error
		if start, err = position.ParseFEN(&r, f); err != nil {
			return record.Game{}, badRequest("startFen: %v", err)
		}
	}
	if len(req.Moves) > maxExportMoves {
		return record.Game{}, badRequest("%d moves: at most %d", len(req.Moves), maxExportMoves)
	}
	g := position.NewGame(r, start)
	for i, tok := range req.Moves {
		m, err := movegen.ParseLegal(&g.Rules, &g.Pos, tok)
		if err != nil {
			return record.Game{}, badRequest("move %d %q: %v", i+1, clip(tok, 20), err)
		}
		g.Play(m)
	}
	rec, err := record.FromEngine(g)
	if err != nil {
		return record.Game{}, badRequest("%v", err)
	}
	switch req.Result {
	case "", rec.Result:
	case "1-0", "0-1", "1/2-1/2", "*":
		if rec.Result != "*" {
			return record.Game{}, badRequest("result %s: the position says %s", req.Result, rec.Result)
		}
		rec.Result = req.Result
		rec.SetTag("Result", req.Result)
	default:
		return record.Game{}, badRequest("result %q: want 1-0, 0-1, 1/2-1/2 or *", clip(req.Result, 20))
	}
	tags := []struct{ name, value, def string }{
		{"Event", req.Event, "millengine board game"},
		{"Site", "millengine", ""},
		{"Date", now.Format("2006.01.02"), ""},
		{"Round", req.Round, "-"},
		{"White", req.White, "?"},
		{"Black", req.Black, "?"},
	}
	for _, t := range tags {
		v := strings.TrimSpace(t.value)
		if v == "" {
			v = t.def
		}
		if len(v) > maxTagValue || strings.ContainsFunc(v, func(c rune) bool { return c < 0x20 || c == 0x7f }) || !utf8.ValidString(v) {
			return record.Game{}, badRequest("tag %s: at most %d bytes of text on one line", t.name, maxTagValue)
		}
		rec.SetTag(t.name, v)
	}
	return rec, nil
}
