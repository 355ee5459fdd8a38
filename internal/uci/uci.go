// Package uci runs millengine's protocol loop (protocol.md): UCI with Sanmill's
// move tokens, FEN and rule options.
//
// Run owns three kinds of goroutine. A reader turns the input into lines on a
// channel. The loop (Run's own goroutine) owns every piece of state — options,
// rules, the current game, the running search — and dispatches one command at
// a time; it never blocks on a search, so isready, stop and quit are answered
// while one runs. A search runs on its own goroutine and sends its progress and
// result back to the loop on a channel. One writer goroutine owns the output
// and writes every line, flushed, in the order the loop produced them.
//
// Options change policy: setoption, ucinewgame and bench are refused with an
// error line while a search runs (send stop first). position, d, eval and
// go perft are allowed: the running search works on its own copy of the game.
package uci

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/engine"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// Author is the text of the "id author" line.
const Author = "the millengine authors"

// Defaults and ceilings of the start-up configuration.
const (
	DefaultHashMB     = 16
	DefaultMaxHashMB  = 65536
	DefaultMaxThreads = 256
)

// Engine is what the protocol loop needs from a searcher; *search.Engine
// implements it. It is the engine package's Searcher: the protocol drives an
// engine.Engine (the searcher with its book and tables) around it.
type Engine = engine.Searcher

// Config is the start-up configuration of a protocol session.
type Config struct {
	Version string         // shown as "id name millengine <Version>"; "" means "dev"
	HashMB  int            // start-up value of the Hash option; 0 means DefaultHashMB
	Threads int            // start-up value of the Threads option; 0 means 1
	Variant string         // start-up rule preset; "" means nine-mens-morris
	Log     zerolog.Logger // where commands and user errors are logged; the zero value logs nothing
	// Engine searches; nil means search.New(HashMB). Tests inject fakes here.
	Engine Engine
	// MaxDepth, if positive, caps the depth of the commands that run on the
	// loop's goroutine (go perft, bench), for fuzzing and constrained hosts.
	MaxDepth int
	// Bench runs the bench command; nil means search.Bench. Tests inject a
	// cheap one.
	Bench func(ctx context.Context, cfg search.BenchConfig, w io.Writer) (search.BenchResult, error)
	// EGTBPath is the start-up value of the EGTBPath option, the directory of
	// the endgame tables; "" means no tables (the command line passes the
	// user's cache directory by default).
	EGTBPath string
	// Book is the start-up value of the Book option: a book file,
	// book.Builtin for the shipped book, or "" for none (the command line
	// passes book.Builtin by default).
	Book string
	// MaxHashMB and MaxThreads are the ceilings of the Hash and Threads
	// options; 0 means DefaultMaxHashMB and DefaultMaxThreads.
	MaxHashMB  int
	MaxThreads int
}

// withDefaults fills the zero fields of c and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.MaxHashMB <= 0 {
		c.MaxHashMB = DefaultMaxHashMB
	}
	if c.MaxThreads <= 0 {
		c.MaxThreads = DefaultMaxThreads
	}
	if c.HashMB == 0 {
		c.HashMB = min(DefaultHashMB, c.MaxHashMB)
	}
	if c.Threads == 0 {
		c.Threads = 1
	}
	if c.Variant == "" {
		c.Variant = rules.Presets[0].Key
	}
	if c.HashMB < 1 || c.HashMB > c.MaxHashMB {
		return c, fmt.Errorf("uci config: hash %d MB is out of range 1..%d", c.HashMB, c.MaxHashMB)
	}
	if c.Engine == nil {
		if err := search.CheckHash(c.HashMB); err != nil {
			return c, fmt.Errorf("uci config: hash: %w", err)
		}
	}
	if c.Threads < 1 || c.Threads > c.MaxThreads {
		return c, fmt.Errorf("uci config: threads %d is out of range 1..%d", c.Threads, c.MaxThreads)
	}
	p, ok := rules.PresetByName(c.Variant)
	if !ok {
		return c, fmt.Errorf("uci config: unknown variant %q (want one of %s)", c.Variant, strings.Join(rules.PresetKeys(), ", "))
	}
	c.Variant = p.Key
	if c.Bench == nil {
		c.Bench = search.Bench
	}
	if c.MaxDepth < 0 || c.MaxDepth > movegen.MaxPerftDepth {
		c.MaxDepth = 0
	}
	return c, nil
}

// Run speaks the protocol on in and out until quit, the end of in, or the
// end of ctx. A running search is stopped first and its bestmove written;
// everything written is flushed before Run returns. It returns ctx.Err() if
// ctx ended the session, an error if cfg is invalid, and nil otherwise.
//
// The reader goroutine may stay blocked in in.Read after Run returns (a read
// cannot be interrupted); it ends when in reaches its end or fails.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	w := newWriter(out, cfg.Log)
	defer w.close()
	s := newSession(cfg, w)
	defer close(s.closed)
	lines := make(chan inputLine, 16)
	go readLines(in, lines, s.closed, cfg.Log)
	cfg.Log.Info().Str("version", cfg.Version).Str("variant", cfg.Variant).
		Int("hash", cfg.HashMB).Int("threads", cfg.Threads).Msg("uci session started")
	if n := search.UsefulThreads(); cfg.Threads > n {
		cfg.Log.Warn().Int("threads", cfg.Threads).Int("cpus", n).Msg("more threads than CPUs: the search runs one per CPU")
	}
	err = s.loop(ctx, lines)
	cfg.Log.Info().Msg("uci session ended")
	return err
}

// loop dispatches input lines and search events until the session ends.
func (s *session) loop(ctx context.Context, lines <-chan inputLine) error {
	for {
		select {
		case <-ctx.Done():
			s.log.Info().Err(ctx.Err()).Msg("session cancelled")
			s.finishSearch()
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				if s.waiting() {
					// The lines that wait run first, as they would have
					// without the wait (a script piped in ends at once).
					lines = nil
					continue
				}
				s.log.Info().Msg("end of input")
				s.finishSearch()
				return nil
			}
			if s.setup != nil && s.setup.started.IsZero() && needsSetup(l) {
				s.startSetup()
			}
			if s.waiting() {
				// The table is being allocated or the tables opened: the
				// line waits its turn, unless it is uci, which needs
				// neither (a GUI reads the options), and no line waits
				// before it. quit ends the session at once during a Hash
				// change; during the start-up's work it does so when no
				// line waits, and otherwise runs after them, as it would
				// have without the wait (a script piped in is played whole).
				if isQuit(l) && (s.resizing != nil || len(s.queued) == 0) {
					s.log.Info().Msg("quit while the hash table is allocated or the tables opened")
					return nil
				}
				if len(s.queued) > 0 || !answersAtOnce(l) {
					s.queued = append(s.queued, l)
					continue
				}
			}
			if s.handleLine(l) {
				s.finishSearch()
				return nil
			}
		case err := <-s.resized:
			if s.resizeDone(err) || (lines == nil && !s.waiting()) {
				s.finishSearch()
				return nil
			}
		case d := <-s.setupDone:
			if s.finishSetup(d) || (lines == nil && !s.waiting()) {
				s.finishSearch()
				return nil
			}
		case ev := <-s.events:
			s.handleEvent(ev)
		case <-s.watchdogC():
			s.watchdogFired()
		}
	}
}

// session is the state of one protocol session. Only the loop goroutine
// touches it.
type session struct {
	cfg    Config
	log    zerolog.Logger
	out    *writer
	engine *engine.Engine // the searcher with its book and tables

	options []*option   // engine options in the order uci lists them
	startR  rules.Rules // the rules of the start-up variant (option defaults)
	sopts   search.Options
	hashMB  int
	ponder  bool
	// ugi: the GUI opened the session with ugi, and the engine speaks UGI
	// strictly: bestmove carries the move alone (UGI has no ponder move, and
	// cutegames waits forever on a line with one).
	ugi      bool
	showWDL  bool          // UCI_ShowWDL: info lines carry "wdl W D L"
	moveTime time.Duration // used by a go without any limit; 0: until stop

	rules       rules.Rules
	engineRules rules.Rules // the rules of the engine's last search
	game        *position.Game
	valid       bool // false after a rejected position command, until the next good one

	run      *run // the current search, or nil
	job      *job // the current bench or go perft, or nil
	runID    int
	events   chan event
	watchdog *time.Timer // stops a search that overruns its time; nil when not armed
	resizing *resize     // a Hash change being allocated, or nil
	setup    *setup      // the start-up's table allocation and tables opening, planned or running; nil when done
	queued   []inputLine // lines read while the table is allocated or the tables opened, in order
	resized  chan error  // the end of a Hash change
	// setupDone receives the end of the start-up's work (one value).
	setupDone chan setupResult

	closed chan struct{} // closed when Run returns
}

func newSession(cfg Config, w *writer) *session {
	preset, _ := rules.PresetByName(cfg.Variant)
	s := &session{
		cfg:         cfg,
		log:         cfg.Log,
		out:         w,
		startR:      preset.Rules,
		rules:       preset.Rules,
		engineRules: preset.Rules,
		sopts:       search.DefaultOptions(),
		hashMB:      cfg.HashMB,
		moveTime:    time.Second,
		valid:       true,
		events:      make(chan event, 64),
		resized:     make(chan error, 1),
		setupDone:   make(chan setupResult, 1),
		closed:      make(chan struct{}),
	}
	s.sopts.Threads = cfg.Threads
	s.sopts.Contempt = defaultContempt
	s.game = position.NewGame(s.rules, position.New(&s.rules))
	// The searcher the session makes starts with the smallest table, which
	// takes a fraction of a millisecond; the table is sized to Hash, and the
	// tables opened, off the loop when the session first needs them (setup),
	// so that uci is answered at once.
	hashMB := cfg.HashMB
	if cfg.Engine == nil {
		hashMB = 1
	}
	s.engine = engine.New(cfg.Engine, hashMB, cfg.Log)
	s.engine.SetOptions(s.sopts)
	s.planSetup(cfg.HashMB, hashMB, stringValue(cfg.EGTBPath))
	if err := s.engine.SetBook(stringValue(cfg.Book)); err != nil {
		s.log.Error().Err(err).Msg("opening book not used")
		s.engine.NoteBookError(err)
	}
	s.options = s.engineOptions()
	return s
}

// printf writes one protocol line.
func (s *session) printf(format string, args ...any) {
	s.out.println(fmt.Sprintf(format, args...))
}

// userError reports a mistake in the input: one "info string error:" line on
// the output and a warning in the log. The state is left as it was.
func (s *session) userError(cmd string, err error) {
	s.log.Warn().Str("command", clip(cmd, 200)).Msg(err.Error())
	s.printf("info string error: %s", err)
}
