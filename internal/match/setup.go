package match

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/rules"
)

// Setup is a match as millmatch's command line gives it, before it is
// checked: Config turns it into a Config, with messages that name the
// flags, OpenOutputs opens its files and WriteHeader says what it is.
type Setup struct {
	Engines        []string // command lines, split on spaces (--engine)
	Names          []string // labels: "LABEL" for the engines in order, or "N:LABEL" (--name)
	Args           []string // "N:ARGS": more arguments for engine N (--args)
	Options        []string // "[N:]Name=Value" or "[N:]Name", for engine N or all (--option)
	Games          int      // per pairing (--games)
	Concurrency    int      // games at once (--concurrency)
	MaxPlies       int      // the draw's ply cap, 0 none (--max-plies)
	RandomOpenings int      // seeded random openings of this many actions (--random-openings)
	MoveTime       int      // ms per action (--movetime); 0: unset
	MoveTimeSet    bool     // --movetime was given (0 is then refused, not the default)
	Margin         int      // ms an engine may overrun (--timemargin)
	TC             string   // the clock, "base+increment" in seconds (--tc)
	OpeningsFile   string   // a file of openings (--openings)
	Variant        string   // the rule preset (--variant)
	SPRT           string   // "elo0,elo1[,alpha,beta]" (--sprt)
	Out            string   // the games as JSON lines (--out)
	PGN            string   // the games in PGN (--pgn)
	EGTBDir        string   // the tables that adjudicate draws (--egtb-adjudicate)
	Seed           uint64   // of the random openings; 0: from the clock (--seed)
	Nodes          uint64   // per action (--nodes)
	Startup        time.Duration
	Resume         bool // go on with the match whose games Out holds (--resume)
}

// Config turns the setup into a match configuration; it also returns the
// seed used for random openings. Every value is checked here, with a
// message naming the flag, so that Validate has nothing left to refuse.
// With EGTBDir the configuration's Tables are open: the caller closes them.
func (o *Setup) Config() (Config, uint64, error) {
	var cfg Config
	if o.Resume && o.Out == "" {
		return cfg, 0, errors.New("--resume needs --out, the file of the games to go on from")
	}
	preset, ok := rules.PresetByName(o.Variant)
	if !ok {
		return cfg, 0, fmt.Errorf("unknown --variant %q (want one of %s)", o.Variant, strings.Join(rules.PresetKeys(), ", "))
	}
	cfg.Variant = preset
	var err error
	if cfg.Engines, err = o.engineSpecs(); err != nil {
		return cfg, 0, err
	}
	if err := o.limits(&cfg); err != nil {
		return cfg, 0, err
	}
	if cfg.TC, err = o.timeControl(); err != nil {
		return cfg, 0, err
	}
	if o.SPRT != "" {
		if len(cfg.Engines) != 2 {
			return cfg, 0, fmt.Errorf("--sprt needs exactly two engines, got %d", len(cfg.Engines))
		}
		sp, err := parseSPRT(o.SPRT)
		if err != nil {
			return cfg, 0, err
		}
		cfg.SPRT = &sp
	}
	seed := o.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()) & (1<<53 - 1) // printable, and exact in JSON tools
	}
	if cfg.Openings, err = o.openingList(preset.Rules, seed); err != nil {
		return cfg, 0, err
	}
	if o.EGTBDir != "" {
		if cfg.Tables, err = openAdjudicator(o.EGTBDir, preset); err != nil {
			return cfg, 0, err
		}
	}
	return cfg, seed, cfg.Validate()
}

// OpenOutputs opens Out (the games as JSON lines, checked against the
// setup with Resume) and PGN into cfg; the function it returns closes them.
func (o *Setup) OpenOutputs(cfg *Config) (func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	if o.Out != "" {
		f, err := openRecords(o.Out, o.Resume, cfg, cfg.Log)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		cfg.Records = f
	}
	if o.PGN != "" {
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if o.Resume {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(o.PGN, flag, 0o644)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("--pgn: %w", err)
		}
		files = append(files, f)
		cfg.PGN = f
	}
	return closeAll, nil
}

// WriteHeader says what the match is: rules, time control, engines,
// openings and what a resumed match already holds.
func (o *Setup) WriteHeader(w io.Writer, cfg *Config, seed uint64) {
	fmt.Fprintf(w, "millmatch: %s, %s, %d games per pairing, concurrency %d\n", cfg.Variant.Key, cfg.TC, cfg.Games, cfg.Concurrency)
	for i, e := range cfg.Engines {
		fmt.Fprintf(w, "  engine %d: %s = %s\n", i+1, e.Name, e)
	}
	switch {
	case o.OpeningsFile != "":
		fmt.Fprintf(w, "  openings: %d from %s\n", len(cfg.Openings), o.OpeningsFile)
	case o.RandomOpenings > 0:
		fmt.Fprintf(w, "  openings: %d random of %d actions, seed %d\n", len(cfg.Openings), o.RandomOpenings, seed)
	default:
		fmt.Fprintln(w, "  openings: the start position")
	}
	if cfg.Tables != nil {
		fmt.Fprintf(w, "  adjudication: draws by the endgame tables, %s\n", cfg.Tables.Coverage())
	}
	if o.Resume {
		fmt.Fprintf(w, "  resumed: %d games already in %s\n", len(cfg.Done), o.Out)
	}
}

// openAdjudicator opens --egtb-adjudicate's tables for the variant: at
// least one sector of its rules must be there, else the flag would
// silently do nothing.
func openAdjudicator(dir string, preset rules.Preset) (*egtb.Tables, error) {
	t, err := egtb.Open(dir, &preset.Rules)
	if err != nil {
		return nil, fmt.Errorf("--egtb-adjudicate: %w", err)
	}
	if !t.Covers(&preset.Rules) || len(t.Sectors()) == 0 {
		t.Close()
		return nil, fmt.Errorf("--egtb-adjudicate %s: no endgame tables for %s there", dir, preset.Key)
	}
	return t, nil
}

// engineSpecs reads Engines, Names, Args and Options: the engines with
// their labels, extra arguments and options (never a rule option: the rules
// are Variant's), each label distinct.
func (o *Setup) engineSpecs() ([]EngineSpec, error) {
	if len(o.Engines) < 2 {
		return nil, fmt.Errorf("need at least two --engine flags, got %d", len(o.Engines))
	}
	var specs []EngineSpec
	for i, e := range o.Engines {
		f := strings.Fields(e)
		if len(f) == 0 {
			return nil, fmt.Errorf("--engine %d is empty", i+1)
		}
		specs = append(specs, EngineSpec{Path: f[0], Args: f[1:]})
	}
	n := len(specs)
	for i, s := range o.Names {
		idx, label, hasIdx, err := indexed(s, n)
		if err != nil {
			return nil, fmt.Errorf("--name %q: %w", s, err)
		}
		if !hasIdx {
			if i >= n {
				return nil, fmt.Errorf("--name %q: more names than engines", s)
			}
			idx = i
		}
		if strings.TrimSpace(label) == "" {
			return nil, fmt.Errorf("--name %q: empty label", s)
		}
		specs[idx].Name = strings.TrimSpace(label)
	}
	for _, s := range o.Args {
		idx, rest, hasIdx, err := indexed(s, n)
		if err != nil || !hasIdx {
			return nil, fmt.Errorf("--args %q: want N:ARGS with N from 1 to %d", s, n)
		}
		specs[idx].Args = append(specs[idx].Args, strings.Fields(rest)...)
	}
	for _, s := range o.Options {
		idx, rest, hasIdx, err := indexed(s, n)
		if err != nil {
			return nil, fmt.Errorf("--option %q: %w", s, err)
		}
		opt, err := ParseOption(rest)
		if err != nil {
			return nil, fmt.Errorf("--option: %w", err)
		}
		if IsRuleOption(opt.Name) {
			return nil, fmt.Errorf("--option %q: %s is a rule option: the rules of every engine and of the referee are set with --variant", s, opt.Name)
		}
		for i := range specs {
			if !hasIdx || i == idx {
				specs[i].Options = append(specs[i].Options, opt)
			}
		}
	}
	defaultNames(specs)
	seen := map[string]bool{}
	for _, e := range specs {
		if seen[e.Name] {
			return nil, fmt.Errorf("two engines are named %q (label them apart with --name)", e.Name)
		}
		seen[e.Name] = true
	}
	return specs, nil
}

// limits checks and sets the games, the concurrency, the ply cap, the
// start-up timeout and the time margin.
func (o *Setup) limits(cfg *Config) error {
	switch {
	case o.Games < 1:
		return fmt.Errorf("--games %d: must be at least 1", o.Games)
	case o.Concurrency < 1:
		return fmt.Errorf("--concurrency %d: must be at least 1", o.Concurrency)
	case o.MaxPlies < 0:
		return fmt.Errorf("--max-plies %d: must not be negative (0: no cap)", o.MaxPlies)
	case o.Startup <= 0:
		return fmt.Errorf("--startup-timeout %v: must be positive", o.Startup)
	case o.Margin < 0:
		return fmt.Errorf("--timemargin %d: must not be negative", o.Margin)
	}
	cfg.Games, cfg.Concurrency, cfg.MaxPlies = o.Games, o.Concurrency, o.MaxPlies
	cfg.StartupTimeout = o.Startup
	cfg.Margin = time.Duration(o.Margin) * time.Millisecond
	return nil
}

// timeControl reads TC, MoveTime and Nodes (one of them; 100 ms a move
// without any).
func (o *Setup) timeControl() (TimeControl, error) {
	switch {
	case (o.MoveTimeSet || o.MoveTime != 0) && o.MoveTime < 1:
		return TimeControl{}, fmt.Errorf("--movetime %d: must be at least 1", o.MoveTime)
	case o.TC != "" && o.MoveTime > 0:
		return TimeControl{}, errors.New("--tc and --movetime are exclusive")
	case o.Nodes > 0 && (o.TC != "" || o.MoveTime > 0):
		return TimeControl{}, errors.New("--nodes excludes --tc and --movetime")
	case o.Nodes > 0:
		return TimeControl{Nodes: o.Nodes}, nil
	case o.TC != "":
		tc, err := ParseClock(o.TC)
		if err != nil {
			return TimeControl{}, fmt.Errorf("--tc: %w", err)
		}
		return tc, nil
	case o.MoveTime > 0:
		return TimeControl{MoveTime: time.Duration(o.MoveTime) * time.Millisecond}, nil
	}
	return TimeControl{MoveTime: 100 * time.Millisecond}, nil
}

// openingList reads OpeningsFile or makes RandomOpenings from seed (one
// opening per pair of games); none means every game starts from the start.
func (o *Setup) openingList(r rules.Rules, seed uint64) ([]Opening, error) {
	switch {
	case o.OpeningsFile != "" && o.RandomOpenings > 0:
		return nil, errors.New("--openings and --random-openings are exclusive")
	case o.RandomOpenings < 0:
		return nil, fmt.Errorf("--random-openings %d: must not be negative", o.RandomOpenings)
	case o.OpeningsFile != "":
		return LoadOpenings(o.OpeningsFile, r)
	case o.RandomOpenings > 0:
		return RandomOpenings(r, max((o.Games+1)/2, 1), o.RandomOpenings, seed)
	}
	return nil, nil
}

// indexed splits "N:rest" into the 0-based engine index and rest; without a
// leading number and colon it returns the whole string and hasIdx false.
func indexed(s string, n int) (idx int, rest string, hasIdx bool, err error) {
	head, tail, ok := strings.Cut(s, ":")
	if !ok {
		return 0, s, false, nil
	}
	k, convErr := strconv.Atoi(strings.TrimSpace(head))
	if convErr != nil {
		return 0, s, false, nil // a colon inside a name or value
	}
	if k < 1 || k > n {
		return 0, "", true, fmt.Errorf("engine number %d is out of range 1..%d", k, n)
	}
	return k - 1, tail, true, nil
}

// defaultNames labels unnamed engines after their executable, adding "-2",
// "-3" … when two would share a label.
func defaultNames(specs []EngineSpec) {
	used := map[string]bool{}
	for _, s := range specs {
		if s.Name != "" {
			used[s.Name] = true
		}
	}
	for i := range specs {
		if specs[i].Name != "" {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(specs[i].Path), ".exe")
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		specs[i].Name = name
		used[name] = true
	}
}

// parseSPRT reads "elo0,elo1[,alpha,beta]".
func parseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return SPRT{}, fmt.Errorf("--sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	vals := []float64{0, 0, 0.05, 0.05}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return SPRT{}, fmt.Errorf("--sprt %q: %q is not a number", s, p)
		}
		vals[i] = v
	}
	sp := SPRT{Elo0: vals[0], Elo1: vals[1], Alpha: vals[2], Beta: vals[3]}
	if err := sp.Validate(); err != nil {
		return sp, fmt.Errorf("--sprt %q: %w", s, err)
	}
	return sp, nil
}

// openRecords opens the file the games are written to. A new match
// creates it afresh. With resume, the games it holds become cfg.Done and
// new games are appended; a file that does not exist yet starts the match.
// The file is left as it was when its games are not of this match (another
// command line); a last line cut off when the earlier run was killed is
// dropped, with a warning.
func openRecords(path string, resume bool, cfg *Config, log zerolog.Logger) (*os.File, error) {
	if !resume {
		f, err := os.Create(path)
		if err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		return f, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	recs, complete, err := ReadRecords(f)
	if err == nil {
		cfg.Done = recs
		err = cfg.Validate()
	}
	var size int64
	if err == nil {
		size, err = f.Seek(0, io.SeekEnd)
	}
	if err == nil && size > complete {
		log.Warn().Int64("bytes", size-complete).Msg("--resume: dropping the unfinished last line of " + path)
		if err = f.Truncate(complete); err == nil {
			_, err = f.Seek(complete, io.SeekStart)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--resume: %s: %w", path, err)
	}
	return f, nil
}

// WriteOpenings writes the openings one a line, as millmatch plays them:
// as tokens, or with fen as the bare position string each leads to under
// r. An opening that does not play under r is an error naming its source.
func WriteOpenings(w io.Writer, ops []Opening, r rules.Rules, fen bool) error {
	for _, o := range ops {
		var line string
		if !fen {
			line = o.String()
		} else {
			g, err := o.Game(r)
			if err != nil {
				return fmt.Errorf("%s: %w", o.Source, err)
			}
			line = g.Pos.FEN()
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
