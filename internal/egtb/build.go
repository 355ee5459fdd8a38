package egtb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// BuildOptions say what Build solves and where it writes.
type BuildOptions struct {
	Dir       string
	Params    Params
	MaxPieces int // solve every sector with at most this many pieces on the board
	Threads   int // goroutines for the solver (≤ 0: one per CPU)
	// Progress, if set, receives the solver's progress; phase names the sector.
	Progress Progress
	// Warn, if set, receives notes such as a damaged file being rebuilt.
	Warn func(msg string)
}

// SectorReport is what Build says about one sector.
type SectorReport struct {
	Spec     SectorSpec
	Metric   Metric // DTM, or DTZ (distances to the next removal)
	Path     string
	Stats    SolveStats
	Size     int64         // file size in bytes
	Elapsed  time.Duration // the time to solve the pair it was solved with, and write it
	Partner  SectorSpec    // the other sector of its pair (equal to Spec for MvM)
	Existing bool          // it was there already and was kept
	// MaxCounter is the largest move counter of the pair (the solver keeps
	// counters in a byte; 0 when the sector was not solved now).
	MaxCounter int
}

// Build solves every missing sector of o.Params up to o.MaxPieces in dependency
// order and writes each to its file in o.Dir atomically (a temporary file,
// then a rename), calling report for every sector in order, the existing ones
// included. It can be interrupted through ctx: the sectors written so far are
// kept, the one being solved is dropped and redone by the next run. A file
// that is damaged is solved again. Build returns the opened tables.
func Build(ctx context.Context, o BuildOptions, report func(SectorReport)) (*Tables, error) {
	if !o.Params.valid() {
		return nil, fmt.Errorf("egtb: invalid parameters %+v", o.Params)
	}
	if o.MaxPieces < 2*o.Params.MinPieces || o.MaxPieces > MaxPieces {
		return nil, fmt.Errorf("egtb: --max-pieces %d is out of range %d..%d", o.MaxPieces, 2*o.Params.MinPieces, MaxPieces)
	}
	if o.Threads <= 0 {
		o.Threads = defaultThreads()
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	t := &Tables{dir: o.Dir, params: o.Params, game: newGame(o.Params)}
	ok := false
	defer func() {
		if !ok {
			t.Close()
		}
	}()
	// Leftovers of a run that was killed.
	if stale, _ := filepath.Glob(filepath.Join(o.Dir, o.Params.Name()+"-*"+fileExtension+".tmp")); len(stale) > 0 {
		for _, f := range stale {
			if err := os.Remove(f); err == nil {
				warn("removed the unfinished file " + f)
			}
		}
	}
	files, err := sectorFiles(o.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.params != o.Params || f.spec.M+f.spec.O > o.MaxPieces {
			continue
		}
		if err := t.load(f.path, f.spec, f.metric); err != nil {
			warn(err.Error() + "; solving it again")
		}
	}
	specs := o.Params.Sectors(o.MaxPieces)
	for i := 0; i < len(specs); i++ {
		a := specs[i]
		pair := []SectorSpec{a}
		if a.M != a.O {
			pair = append(pair, specs[i+1])
			i++
		}
		// The DTM tables of the pair first, then its DTZ tables (both need
		// only the smaller sectors' DTM tables).
		for _, metric := range []Metric{DTM, DTZ} {
			if err := t.buildPair(ctx, o, pair, metric, report); err != nil {
				return nil, err
			}
		}
	}
	ok = true
	return t, nil
}

// buildPair solves the pair's tables of the metric unless they are there,
// writes and loads them, and reports each sector.
func (t *Tables) buildPair(ctx context.Context, o BuildOptions, pair []SectorSpec, metric Metric, report func(SectorReport)) error {
	has := func(s SectorSpec) bool {
		if metric == DTZ {
			return t.lookupDTZ(s.M, s.O) != nil
		}
		return t.Has(s)
	}
	var missing bool
	for _, s := range pair {
		missing = missing || !has(s)
	}
	if !missing {
		for _, s := range pair {
			report(t.report(s, pair, metric, 0, true))
		}
		return nil
	}
	start := time.Now()
	prog := o.Progress
	a := pair[0]
	data, maxCnt, err := solvePair(ctx, o.Params, a.M, a.O, t.lookup, metric == DTZ, o.Threads, prog)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return &InterruptedError{Kept: t.Sectors(), Dropped: pair, Err: err}
		}
		return err
	}
	existing := make([]bool, len(pair))
	for j, s := range pair {
		if has(s) {
			existing[j] = true
			continue
		}
		if prog != nil {
			prog(s.String()+" "+metric.String()+" write", 0, 0)
		}
		sec := newSector(s.M, s.O)
		path := filepath.Join(o.Dir, fileName(o.Params, s, metric))
		if err := writeSector(path, o.Params, metric, sec, data[j], sectorStats(sec, data[j])); err != nil {
			return fmt.Errorf("egtb: writing %s: %w", path, err)
		}
		if err := t.load(path, s, metric); err != nil {
			return err
		}
	}
	el := time.Since(start)
	for j, s := range pair {
		r := t.report(s, pair, metric, el, existing[j])
		r.MaxCounter = maxCnt
		report(r)
	}
	return nil
}

func (t *Tables) report(s SectorSpec, pair []SectorSpec, metric Metric, el time.Duration, existing bool) SectorReport {
	tb := t.lookup(s.M, s.O)
	if metric == DTZ {
		tb = t.lookupDTZ(s.M, s.O)
	}
	r := SectorReport{Spec: s, Metric: metric, Path: tb.path, Stats: tb.hdr.stats, Size: int64(headerSize + len(tb.data)),
		Elapsed: el, Partner: pair[len(pair)-1], Existing: existing}
	if pair[0] != s {
		r.Partner = pair[0]
	}
	return r
}

// InterruptedError is Build's error when it was stopped: the sectors it kept
// and the ones it dropped.
type InterruptedError struct {
	Kept, Dropped []SectorSpec
	Err           error
}

func (e *InterruptedError) Error() string {
	names := func(ss []SectorSpec) string {
		if len(ss) == 0 {
			return "none"
		}
		var b []string
		for _, s := range ss {
			b = append(b, s.String())
		}
		return strings.Join(b, " ")
	}
	return fmt.Sprintf("interrupted: kept %s; dropped %s (solved again by the next build)", names(e.Kept), names(e.Dropped))
}

func (e *InterruptedError) Unwrap() error { return e.Err }
