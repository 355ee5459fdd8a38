package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/rules"
)

// Option is one `setoption` for an engine. A button has no value.
type Option struct {
	Name   string
	Value  string
	Button bool
}

// ParseOption reads "Name=Value" (the name may contain spaces) or "Name" for
// a button.
func ParseOption(s string) (Option, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return Option{}, fmt.Errorf("option %q: empty name", s)
	}
	if !ok {
		return Option{Name: name, Button: true}, nil
	}
	return Option{Name: name, Value: strings.TrimSpace(value)}, nil
}

// IsRuleOption reports whether name (matched as engines match option names:
// case and spaces ignored) sets the rules: Variant, or a rule parameter of
// rules.Params under its name or an alias. Rules reach the engines only from
// Config.Variant, the referee's rules; a rule option for one engine would
// make it play another game than the referee.
func IsRuleOption(name string) bool {
	if rules.Normalize(name) == "variant" {
		return true
	}
	_, ok := rules.Lookup(name)
	return ok
}

// Command returns the setoption line.
func (o Option) Command() string {
	if o.Button {
		return "setoption name " + o.Name
	}
	return "setoption name " + o.Name + " value " + o.Value
}

// String returns the option as --option takes it: "Name=Value", or "Name"
// for a button.
func (o Option) String() string {
	if o.Button {
		return o.Name
	}
	return o.Name + "=" + o.Value
}

// declaredOption is an option as the engine declared it in its answer to
// uci: "option name <N> type <T> [default <D>] [min <m>] [max <M>] [var <V>]…".
type declaredOption struct {
	name           string // the engine's spelling
	typ            string // spin, check, combo, button, string, or what the engine said
	min, max       int
	hasMin, hasMax bool
	vars           []string
}

// parseDeclaredOption reads the fields of an option line; ok is false when
// the line has no name.
func parseDeclaredOption(f []string) (d declaredOption, ok bool) {
	if len(f) < 3 || f[0] != "option" || f[1] != "name" {
		return d, false
	}
	// Every keyword starts a field whose value is the words up to the next one.
	var key string
	var words []string
	flush := func() {
		v := strings.Join(words, " ")
		switch key {
		case "name":
			d.name = v
		case "type":
			d.typ = strings.ToLower(v)
		case "min":
			d.min, d.hasMin = atoiOK(v)
		case "max":
			d.max, d.hasMax = atoiOK(v)
		case "var":
			d.vars = append(d.vars, v)
		}
		words = words[:0]
	}
	for _, w := range f[1:] {
		switch w {
		case "name", "type", "default", "min", "max", "var":
			if key != "" {
				flush()
			}
			key = w
		default:
			words = append(words, w)
		}
	}
	flush()
	return d, d.name != ""
}

func atoiOK(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// span returns the declared range of a spin: "1..1024", "1..", "..10" or "".
func (d *declaredOption) span() string {
	var b strings.Builder
	if d.hasMin {
		b.WriteString(strconv.Itoa(d.min))
	}
	if d.hasMin || d.hasMax {
		b.WriteString("..")
	}
	if d.hasMax {
		b.WriteString(strconv.Itoa(d.max))
	}
	return b.String()
}

// describe returns the declaration for a message: "spin 1..1024", "check".
func (d *declaredOption) describe() string {
	if r := d.span(); d.typ == "spin" && r != "" {
		return "spin " + r
	}
	return d.typ
}

// value checks o against the declaration and returns the value to send: a
// spin's integer within its range, a check's true or false (in lower case),
// one of a combo's values (in the engine's spelling; case and repeated
// spaces ignored), anything for a string or a type we do not know. A button
// takes no value and every other option needs one.
func (d *declaredOption) value(o Option) (string, error) {
	if d.typ == "button" {
		if !o.Button {
			return "", fmt.Errorf("a button takes no value (--option %q)", d.name)
		}
		return "", nil
	}
	if o.Button {
		return "", fmt.Errorf("needs a value (declared %s)", d.describe())
	}
	v := strings.TrimSpace(o.Value)
	switch d.typ {
	case "spin":
		n, err := strconv.Atoi(v)
		if err != nil {
			return "", fmt.Errorf("not an integer (declared %s)", d.describe())
		}
		if (d.hasMin && n < d.min) || (d.hasMax && n > d.max) {
			return "", fmt.Errorf("out of the declared range %s", d.span())
		}
		return strconv.Itoa(n), nil
	case "check":
		if l := strings.ToLower(v); l == "true" || l == "false" {
			return l, nil
		}
		return "", errors.New("not true or false (declared check)")
	case "combo":
		want := strings.Join(strings.Fields(v), " ")
		for _, c := range d.vars {
			if strings.EqualFold(strings.Join(strings.Fields(c), " "), want) {
				return c, nil
			}
		}
		return "", fmt.Errorf("not one of the declared values %s", strings.Join(d.vars, ", "))
	}
	return o.Value, nil
}

// EngineSpec says how to start one engine and what to set in it.
type EngineSpec struct {
	Name    string   // label in reports
	Path    string   // executable
	Args    []string // command-line arguments
	Options []Option // sent after the variant, in order
}

// String returns the command line.
func (s EngineSpec) String() string { return strings.Join(append([]string{s.Path}, s.Args...), " ") }

// FaultKind classifies an engine failure.
type FaultKind int

// Engine failures.
const (
	FaultCrash    FaultKind = iota + 1 // the process exited or closed its output
	FaultTimeout                       // no answer before the deadline
	FaultProtocol                      // the process could not be started or answered nonsense
)

// String returns "crash", "timeout" or "protocol".
func (k FaultKind) String() string {
	switch k {
	case FaultCrash:
		return "crash"
	case FaultTimeout:
		return "timeout"
	}
	return "protocol"
}

// EngineError is an engine failure with its kind and the engine's name.
type EngineError struct {
	Engine string
	Kind   FaultKind
	Err    error
}

// Error describes the failure.
func (e *EngineError) Error() string {
	return fmt.Sprintf("engine %s: %s: %v", e.Engine, e.Kind, e.Err)
}

// Unwrap returns the cause.
func (e *EngineError) Unwrap() error { return e.Err }

// Answer is an engine's reply to one `go`.
type Answer struct {
	Move    string        // the token after "bestmove": an action, "none" or "draw"; "" if absent
	Elapsed time.Duration // from sending `go` to reading the bestmove line
	Depth   int           // the last depth reported in an info line, 0 if none
	NPS     int64         // the last nodes per second reported, 0 if none
	Score   string        // the last score reported ("cp 12", "mate 3", or Sanmill's bare number)
	// Notes are the engine's "info string" lines before its answer, without
	// the prefix: its own account of the move (millengine's: what the
	// tables say of every action, which one its policy preferred).
	Notes []string
}

// StartConfig holds what starting an engine needs besides its spec.
type StartConfig struct {
	Timeout time.Duration  // for the uci/uciok handshake and each isready/readyok
	Stderr  io.Writer      // the engine's stderr; nil discards it
	Log     zerolog.Logger // protocol lines at debug level, restarts at info
}

// Process is a running UCI engine. One goroutine drives it; a second one
// only reads its output into a channel.
type Process struct {
	spec    EngineSpec
	cfg     StartConfig
	log     zerolog.Logger
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  io.ReadCloser
	lines   chan string   // engine output, closed at end of output
	stopped chan struct{} // closed by Kill so the reader stops delivering
	done    chan struct{} // closed when the process has been waited for
	exitErr error         // valid after done
	once    sync.Once
	// phase says what the referee is doing with the engine, for the message
	// when it dies: "before uciok", "while being configured", …
	phase string

	// IDName is the name the engine gave in "id name".
	IDName string
	// options maps normalized option names (rules.Normalize) to the
	// engine's declarations; declared lists the names in the engine's order.
	options  map[string]*declaredOption
	declared []string
}

// Start launches the engine and performs the uci/uciok handshake.
func Start(ctx context.Context, spec EngineSpec, cfg StartConfig) (*Process, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Stderr = cfg.Stderr
	ownProcessGroup(cmd)
	// Our own stdin pipe, not cmd.StdinPipe: its write end takes deadlines,
	// so an engine that stops reading cannot block the referee.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, &EngineError{spec.Name, FaultProtocol, fmt.Errorf("stdin pipe: %w", err)}
	}
	cmd.Stdin = stdinR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, &EngineError{spec.Name, FaultProtocol, fmt.Errorf("stdout pipe: %w", err)}
	}
	err = cmd.Start()
	stdinR.Close() // the child has its copy
	if err != nil {
		stdin.Close()
		return nil, &EngineError{spec.Name, FaultProtocol, fmt.Errorf("start %s: %w", spec, err)}
	}
	p := &Process{
		spec: spec, cfg: cfg, cmd: cmd, stdin: stdin, stdout: stdout,
		log:     cfg.Log.With().Str("engine", spec.Name).Int("pid", cmd.Process.Pid).Logger(),
		lines:   make(chan string, 256),
		stopped: make(chan struct{}),
		done:    make(chan struct{}),
		options: map[string]*declaredOption{},
	}
	go p.read(stdout)
	if err := p.handshake(ctx); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// read delivers the engine's output lines until end of output or Kill, then
// waits for the process.
func (p *Process) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
loop:
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		select {
		case p.lines <- line:
		case <-p.stopped:
			break loop
		}
	}
	close(p.lines)
	if sc.Err() != nil {
		// An over-long line: stop the process, its output can no longer be
		// trusted. (After Kill the error is the closed pipe: no harm.)
		killProcess(p.cmd)
	}
	p.exitErr = p.cmd.Wait()
	close(p.done)
}

// Name returns the engine's label.
func (p *Process) Name() string { return p.spec.Name }

// HasOption reports whether the engine declared an option of that name
// (case and spaces ignored).
func (p *Process) HasOption(name string) bool {
	_, ok := p.options[rules.Normalize(name)]
	return ok
}

func (p *Process) fault(kind FaultKind, format string, args ...any) error {
	return &EngineError{Engine: p.spec.Name, Kind: kind, Err: fmt.Errorf(format, args...)}
}

// send writes one line to the engine. A write to an engine that has gone
// is a crash fault of the engine (never an error of the match); one that
// blocks because the engine stopped reading times out.
func (p *Process) send(line string) error {
	p.log.Debug().Str("dir", ">").Msg(line)
	_ = p.stdin.SetWriteDeadline(time.Now().Add(p.cfg.Timeout))
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return p.fault(FaultTimeout, "did not read its input for %v %s", p.cfg.Timeout, p.phase)
		}
		p.log.Debug().Err(err).Str("line", line).Msg("write failed")
		return p.died("its input")
	}
	return nil
}

// died returns the crash fault of an engine whose pipe (closed: "its input"
// or "its output") was found closed: "the engine exited (exit status 3)
// before its bestmove", once the process has ended (it is given a second),
// else "the engine closed its output before its bestmove". Whether the
// referee noticed by writing or by reading, the message is the same.
func (p *Process) died(closed string) error {
	select {
	case <-p.done:
		status := "exit status 0"
		if p.exitErr != nil {
			status = p.exitErr.Error()
		}
		return p.fault(FaultCrash, "the engine exited (%s) %s", status, p.phase)
	case <-time.After(time.Second):
		return p.fault(FaultCrash, "the engine closed %s %s", closed, p.phase)
	}
}

// next returns the next output line, or a fault at end of output or when
// timer fires, or the context's error.
func (p *Process) next(ctx context.Context, timer <-chan time.Time, waiting string) (string, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", p.died("its output")
		}
		p.log.Debug().Str("dir", "<").Msg(line)
		return line, nil
	case <-timer:
		return "", p.fault(FaultTimeout, "no %s in time", waiting)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (p *Process) handshake(ctx context.Context) error {
	p.phase = "before uciok"
	if err := p.send("uci"); err != nil {
		return err
	}
	timer := time.NewTimer(p.cfg.Timeout)
	defer timer.Stop()
	for {
		line, err := p.next(ctx, timer.C, "uciok")
		if err != nil {
			return err
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "uciok":
			return nil
		case f[0] == "id" && len(f) > 2 && f[1] == "name":
			p.IDName = strings.Join(f[2:], " ")
		case f[0] == "option":
			if d, ok := parseDeclaredOption(f); ok {
				n := rules.Normalize(d.name)
				if p.options[n] == nil {
					p.declared = append(p.declared, d.name)
				}
				p.options[n] = &d
			}
		}
	}
}

// Sync sends isready and waits for readyok.
func (p *Process) Sync(ctx context.Context) error {
	_, err := p.sync(ctx)
	return err
}

// sync sends isready and waits for readyok. It returns the error lines
// (isErrorLine) that arrived before readyok: the engine's answers to what
// was sent before isready.
func (p *Process) sync(ctx context.Context) ([]string, error) {
	if err := p.send("isready"); err != nil {
		return nil, err
	}
	timer := time.NewTimer(p.cfg.Timeout)
	defer timer.Stop()
	var errs []string
	for {
		line, err := p.next(ctx, timer.C, "readyok")
		if err != nil {
			return errs, err
		}
		if strings.TrimSpace(line) == "readyok" {
			return errs, nil
		}
		if isErrorLine(line) {
			errs = append(errs, strings.TrimSpace(line))
		}
	}
}

// isErrorLine reports whether line is an engine's error report, "info
// string error: …" (protocol.md; any case, with or without the colon).
func isErrorLine(line string) bool {
	f := strings.Fields(line)
	return len(f) > 2 && f[0] == "info" && f[1] == "string" && strings.HasPrefix(strings.ToLower(f[2]), "error")
}

// Configure tells the engine the rules and sets the spec's options. The
// variant goes through the `Variant` option when the engine has one;
// otherwise every rule parameter the engine declares is set to the preset's
// value (the Sanmill way). An engine that can be told neither can only play
// the default rules.
//
// Every value is checked against the engine's declaration before anything
// is sent: an option the engine did not declare, or a value outside what it
// declared, is refused (a typo would otherwise do nothing, silently).
//
// Each setoption is followed by isready: an "info string error" line before
// readyok is the engine refusing that option, and fails Configure. (One
// isready after all of them would see the error too, but could not tell
// which option it answers.) Error lines that arrive before the first
// setoption are about something else: they are logged.
func (p *Process) Configure(ctx context.Context, variant rules.Preset) error {
	p.phase = "while being configured"
	sets, err := p.settings(variant)
	if err != nil {
		return err
	}
	errs, err := p.sync(ctx)
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		p.log.Warn().Strs("lines", errs).Msg("the engine reported errors before its options were set")
	}
	for _, s := range sets {
		if err := p.send(s.opt.Command()); err != nil {
			return err
		}
		errs, err := p.sync(ctx)
		if err != nil {
			return err
		}
		if len(errs) > 0 {
			for i := range errs {
				errs[i] = strconv.Quote(errs[i])
			}
			return p.fault(FaultProtocol, "option %s: the engine answered %s", s.shown, strings.Join(errs, ", "))
		}
	}
	return nil
}

// setting is one setoption for Configure: the option in the engine's
// spelling, and as the messages show it (as the user wrote it).
type setting struct {
	opt   Option
	shown string
}

// settings returns the setoption commands for the rules and the spec's
// options, in the engine's spelling, after checking them.
func (p *Process) settings(variant rules.Preset) ([]setting, error) {
	var sets []setting
	add := func(o Option, shown string) { sets = append(sets, setting{o, shown}) }
	if d := p.options["variant"]; d != nil {
		val := variant.Key
		if d.typ == "combo" {
			val = ""
			for _, v := range d.vars {
				if pr, ok := rules.PresetByName(v); ok && pr.Key == variant.Key {
					val = v
					break
				}
			}
			if val == "" {
				return nil, p.fault(FaultProtocol, "cannot play %s: the engine's Variant option offers only %s",
					variant.Key, strings.Join(d.vars, ", "))
			}
		}
		o := Option{Name: d.name, Value: val}
		add(o, o.String())
	} else {
		def := rules.Default()
		var missing []string
		for i := range rules.Params {
			par := &rules.Params[i]
			d := p.options[rules.Normalize(par.Name)]
			if d == nil && par.Name == "PiecesCount" {
				d = p.options["piececount"]
			}
			v := par.Get(&variant.Rules)
			if d == nil {
				if v != par.Get(&def) {
					missing = append(missing, par.Name)
				}
				continue
			}
			o := Option{Name: d.name, Value: strconv.Itoa(v)}
			if par.Bool && d.typ != "spin" {
				o.Value = strconv.FormatBool(v != 0)
			}
			val, err := d.value(o)
			if err != nil {
				return nil, p.fault(FaultProtocol, "cannot play %s: option %s: %v", variant.Key, o, err)
			}
			add(Option{Name: d.name, Value: val}, o.String())
		}
		if len(missing) > 0 {
			return nil, p.fault(FaultProtocol, "cannot play %s: the engine has no Variant option and lacks %s",
				variant.Key, strings.Join(missing, ", "))
		}
	}
	for _, o := range p.spec.Options {
		d := p.options[rules.Normalize(o.Name)]
		if d == nil {
			return nil, p.fault(FaultProtocol, "option %s: not declared by the engine (%s)", o, p.engineOptions())
		}
		val, err := d.value(o)
		if err != nil {
			return nil, p.fault(FaultProtocol, "option %s: %v", o, err)
		}
		add(Option{Name: d.name, Value: val, Button: o.Button}, o.String())
	}
	return sets, nil
}

// engineOptions lists the options the engine declared that --option may
// set (the rule options are set by the variant), for a message.
func (p *Process) engineOptions() string {
	var names []string
	for _, n := range p.declared {
		if !IsRuleOption(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "it declares none"
	}
	return "its options: " + strings.Join(names, ", ")
}

// NewGame sends ucinewgame and waits until the engine is ready.
func (p *Process) NewGame(ctx context.Context) error {
	p.phase = "before the game started"
	if err := p.send("ucinewgame"); err != nil {
		return err
	}
	return p.Sync(ctx)
}

// drain discards output left over from earlier commands (info lines after
// a bestmove), so that a stale line is never taken as the next answer.
func (p *Process) drain() error {
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return p.died("its output")
			}
			p.log.Debug().Str("dir", "<").Str("note", "stale").Msg(line)
		default:
			return nil
		}
	}
}

// Go sends the position and go lines and waits for the answer up to
// deadline after the go line was written. A line that holds a "bestmove"
// field ends the wait: the plain UCI "bestmove <t> [ponder …]" as well as
// Sanmill's "info score <n> bestmove <t>". Info lines before it give depth,
// nodes per second and score.
func (p *Process) Go(ctx context.Context, positionCmd, goCmd string, deadline time.Duration) (Answer, error) {
	var a Answer
	p.phase = "before its bestmove"
	if err := p.drain(); err != nil {
		return a, err
	}
	if err := p.send(positionCmd); err != nil {
		return a, err
	}
	start := time.Now()
	if err := p.send(goCmd); err != nil {
		return a, err
	}
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	for {
		line, err := p.next(ctx, timer.C, "bestmove")
		a.Elapsed = time.Since(start)
		if err != nil {
			return a, err
		}
		if parseAnswerLine(line, &a) {
			return a, nil
		}
	}
}

// maxNotes bounds the info strings kept of one answer.
const maxNotes = 16

// parseAnswerLine reads info fields into a and reports whether the line
// carries the best move.
func parseAnswerLine(line string, a *Answer) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "bestmove":
		if len(f) > 1 {
			a.Move = f[1]
		}
		return true
	case "info":
	default:
		return false
	}
	if len(f) > 1 && f[1] == "string" {
		if len(a.Notes) < maxNotes {
			a.Notes = append(a.Notes, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "info string")))
		}
		return false
	}
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "depth":
			if i+1 < len(f) {
				if d, err := strconv.Atoi(f[i+1]); err == nil && d >= 0 {
					a.Depth = d
				}
			}
		case "nps":
			if i+1 < len(f) {
				if n, err := strconv.ParseInt(f[i+1], 10, 64); err == nil && n >= 0 {
					a.NPS = n
				}
			}
		case "score":
			switch {
			case i+2 < len(f) && (f[i+1] == "cp" || f[i+1] == "mate"):
				a.Score = f[i+1] + " " + f[i+2]
			case i+1 < len(f):
				a.Score = f[i+1]
			}
		case "pv":
			// The rest are tokens; a Sanmill result line puts bestmove before any pv.
			return false
		case "bestmove":
			if i+1 < len(f) {
				a.Move = f[i+1]
			}
			return true
		}
	}
	return false
}

// Quit asks the engine to exit and kills it if it has not within grace.
func (p *Process) Quit(grace time.Duration) {
	_ = p.send("quit")
	select {
	case <-p.done:
	case <-time.After(grace):
		p.log.Info().Msg("engine did not exit after quit; killing it")
	}
	p.Kill()
}

// Kill ends the process at once and waits for it (briefly). It is safe to
// call more than once.
func (p *Process) Kill() {
	p.once.Do(func() {
		close(p.stopped)
		select {
		case <-p.done: // exited and reaped: its pid may already be someone else's
		default:
			killProcess(p.cmd)
		}
		_ = p.stdin.Close()
		// Unblocks the reader even if a child of the engine still holds
		// the other end of the pipe open.
		_ = p.stdout.Close()
	})
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.log.Warn().Msg("engine process did not end after kill")
	}
}
