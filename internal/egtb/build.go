package egtb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/millengine/millengine/internal/memory"
)

// BuildOptions say what Build solves and where it writes.
type BuildOptions struct {
	Dir       string
	Params    Params
	MaxPieces int // solve every sector with at most this many pieces on the board (and in hand, with Pieces)
	// Pieces, if not 0, is the number of pieces a side places: the build
	// then solves the placing phase's sectors too (GamePlan), MaxPieces
	// counting the pieces on the board and in hand.
	Pieces  int
	Threads int // goroutines for the solver (≤ 0: one per CPU)
	// Progress, if set, receives the solver's progress; phase names the sector.
	Progress Progress
	// Warn, if set, receives notes such as a damaged file being rebuilt or
	// a checkpoint written.
	Warn func(msg string)
	// CheckpointEvery is the least time between two checkpoints of a pair
	// being solved (0: DefaultCheckpointEvery; < 0: none).
	CheckpointEvery time.Duration
	// Only, if not empty, restricts the build to these sectors (and their
	// partners, solved with them); the sectors they need must be there.
	Only []SectorSpec
}

// buildCheckBytes is the largest table whose data Build checks when it
// starts (the tables up to 10 pieces and the placing sectors, a few
// gigabytes); bigger ones are checked before a job reads them.
var buildCheckBytes = 256 << 20

// DefaultCheckpointEvery is how often a long solve writes a checkpoint: a
// kill loses at most this much work, plus the step in flight (an init
// segment or a retrograde ply, seconds to a minute on the largest pairs).
const DefaultCheckpointEvery = 5 * time.Minute

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
	// PeakRSS is the process's peak resident memory while the pair was
	// solved and written, in bytes (0 when unknown or not solved now).
	PeakRSS uint64
	// Checkpoints is how many checkpoints the pair's solve wrote.
	Checkpoints int
	// Work is what the pair's solve did (zero when it was not solved now,
	// and for a placing sector).
	Work SolveWork
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
	// The tables found are opened by their headers; the data of those a job
	// reads is checked before the job (Build must not read 9 GB to go on
	// with the last pair, nor every job of a cluster read them all).
	t := &Tables{dir: o.Dir, params: o.Params, game: newGame(o.Params), mode: openTrusted}
	ok := false
	defer func() {
		if !ok {
			t.Close()
		}
	}()
	// Leftovers of a run that was killed (its checkpoints stay: they are
	// how the pair goes on).
	for _, ext := range []string{fileExtension, ckptExtension} {
		stale, _ := filepath.Glob(filepath.Join(o.Dir, o.Params.Name()+"-*"+ext+".tmp"))
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
		if f.params != o.Params || f.spec.Pieces() > o.MaxPieces || (f.metric == WDL && o.Pieces == 0) {
			continue
		}
		if err := t.load(f.path, f.spec, f.metric); err != nil {
			warn(err.Error() + "; solving it again")
			continue
		}
		// The small tables' data is checked now (a gigabyte of them in
		// all); a big one's before a job reads it.
		if tb := *t.slotOf(f.spec, f.metric); tb.dataSize() <= uint64(buildCheckBytes) {
			if err := tb.checkData(); err != nil {
				t.unload(f.spec, f.metric)
				warn(err.Error() + "; solving it again")
			}
		}
	}
	plan := o.Params.Plan(o.MaxPieces)
	if o.Pieces > 0 {
		plan = o.Params.GamePlan(o.Pieces, o.MaxPieces)
	}
	if len(o.Only) > 0 {
		var only []Job
		for _, s := range o.Only {
			j, found := o.Params.JobOf(s, plan)
			if !found {
				return nil, fmt.Errorf("egtb: no sector %s in the tables of %s up to %d pieces", s, o.Params.Name(), o.MaxPieces)
			}
			if len(only) == 0 || only[len(only)-1].Name() != j.Name() {
				only = append(only, j)
			}
		}
		plan = only
	}
	// A need found damaged is removed and the plan run again from its start,
	// so that its job comes first (a few times at most).
	for attempt := 0; ; attempt++ {
		var damaged *FileError
	jobs:
		for _, j := range plan {
			for _, metric := range j.Metrics {
				if len(o.Only) > 0 {
					if err := t.checkNeeds(j, metric); err != nil {
						return nil, err
					}
				}
				var err error
				if metric == WDL {
					err = t.buildPlacing(ctx, o, j, report)
				} else {
					err = t.buildPair(ctx, o, j, metric, report)
				}
				if errors.As(err, &damaged) && attempt < 3 && len(o.Only) == 0 {
					warn(damaged.Error() + "; removed, solving it again")
					break jobs
				}
				if err != nil {
					return nil, err
				}
			}
		}
		if damaged == nil {
			break
		}
	}
	ok = true
	return t, nil
}

// checkNeeds reports an error naming the sectors job j needs for the metric
// that are missing: a DTM table needs the smaller sectors' DTM tables (a
// pair solved after its DTM tables), a DTZ table any table of them.
func (t *Tables) checkNeeds(j Job, metric Metric) error {
	var missing []string
	for _, s := range j.Needs {
		switch {
		case metric == DTM && t.lookup(s.M, s.O) == nil:
			missing = append(missing, fileName(t.params, s, DTM))
		case s.Placing() && !t.Has(s):
			missing = append(missing, fileName(t.params, s, WDL))
		case !s.Placing() && t.lookupWDL(s.M, s.O) == nil:
			missing = append(missing, fileName(t.params, s, DTZ))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("egtb: sector %s needs %s in %s (egtb plan lists what each sector needs)", j.Name(), strings.Join(missing, ", "), t.dir)
	}
	return nil
}

// buildPair solves the pair's tables of the metric unless they are there,
// writes and loads them, and reports each sector.
func (t *Tables) buildPair(ctx context.Context, o BuildOptions, j Job, metric Metric, report func(SectorReport)) error {
	pair := j.Sectors
	has := func(s SectorSpec) bool {
		return t.table(s, metric) != nil
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
	// The tables the pair reads, checked whole before they are used.
	for _, s := range j.Needs {
		tb, m := t.lookup(s.M, s.O), DTM
		if metric == DTZ && t.lookupDTZ(s.M, s.O) != nil {
			tb, m = t.lookupDTZ(s.M, s.O), DTZ
		}
		if tb == nil {
			continue // the solve says which is missing
		}
		if err := tb.checkData(); err != nil {
			t.unload(s, m)
			os.Remove(tb.path)
			return err
		}
	}
	start := time.Now()
	memory.ResetPeak()
	prog := o.Progress
	a := pair[0]
	job := pairJob{p: o.Params, m: a.M, o: a.O, look: t.lookup, zeroing: metric == DTZ, threads: o.Threads, prog: prog}
	if metric == DTZ {
		job.look = t.lookupWDL
	}
	base := job.look
	copies, free := exitCopies(base, o.Params, pair)
	defer free()
	job.look = func(m, o int) *table {
		if c := copies[SectorSpec{M: m, O: o}]; c != nil {
			return c
		}
		return base(m, o)
	}
	if o.CheckpointEvery >= 0 {
		every := o.CheckpointEvery
		if every == 0 {
			every = DefaultCheckpointEvery
		}
		note := o.Warn
		if note == nil {
			note = func(string) {}
		}
		job.ckpt = &checkpointer{path: filepath.Join(o.Dir, ckptName(o.Params, a, metric)), every: every, note: note,
			params: o.Params, metric: metric, m: a.M, o: a.O}
	}
	var work SolveWork
	job.work = &work
	data, maxCnt, err := solvePair(ctx, job)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			ie := &InterruptedError{Kept: t.Sectors(), Dropped: pair, Err: err}
			if job.ckpt != nil && job.ckpt.saved > 0 {
				ie.Checkpoint = job.ckpt.path
			}
			return ie
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
		if err := writeSector(path, o.Params, metric, s, sec, data[j], sectorStats(sec, data[j])); err != nil {
			return fmt.Errorf("egtb: writing %s: %w", path, err)
		}
		if err := t.load(path, s, metric); err != nil {
			return err
		}
	}
	if job.ckpt != nil {
		job.ckpt.remove()
	}
	el := time.Since(start)
	peak, _ := memory.Peak()
	for j, s := range pair {
		r := t.report(s, pair, metric, el, existing[j])
		r.MaxCounter, r.PeakRSS, r.Work = maxCnt, peak, work
		if job.ckpt != nil {
			r.Checkpoints = job.ckpt.saved
		}
		report(r)
	}
	return nil
}

// buildPlacing solves a placing sector's WDL table unless it is there,
// writes and loads it, and reports it. The moving-phase tables it reads are
// turned into two-bit codes first (the last placement's children), the
// placing ones are read as they are mapped.
func (t *Tables) buildPlacing(ctx context.Context, o BuildOptions, j Job, report func(SectorReport)) error {
	s := j.Sectors[0]
	if t.Has(s) {
		report(t.report(s, j.Sectors, WDL, 0, true))
		return nil
	}
	views, err := t.childViews(j.Needs, o.Threads)
	if err != nil {
		return err
	}
	start := time.Now()
	memory.ResetPeak()
	prog := o.Progress
	data, st, err := solvePlacing(ctx, placingJob{p: o.Params, s: s, look: func(n SectorSpec) *wdlView { return views[n] }, threads: o.Threads, prog: prog})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return &InterruptedError{Kept: t.Sectors(), Dropped: j.Sectors, Err: err}
		}
		return err
	}
	if prog != nil {
		prog(s.String()+" wdl write", 0, 0)
	}
	path := filepath.Join(o.Dir, fileName(o.Params, s, WDL))
	if err := writeSector(path, o.Params, WDL, s, newSector(s.M, s.O), data, st); err != nil {
		return fmt.Errorf("egtb: writing %s: %w", path, err)
	}
	if err := t.load(path, s, WDL); err != nil {
		return err
	}
	r := t.report(s, j.Sectors, WDL, time.Since(start), false)
	r.PeakRSS, _ = memory.Peak()
	report(r)
	return nil
}

// childViews returns the results of the tables a placing sector's solve
// reads (needs), as two-bit codes: a placing table as it is, a moving one
// converted. A need not built is left out (the solve says which is
// missing); a damaged one is unloaded and its file removed (a build makes
// it again), and its error returned.
func (t *Tables) childViews(needs []SectorSpec, threads int) (map[SectorSpec]*wdlView, error) {
	views := map[SectorSpec]*wdlView{}
	for _, n := range needs {
		var tb *table
		if n.Placing() {
			tb = t.placingTable(n)
		} else {
			tb = t.lookupWDL(n.M, n.O)
		}
		if tb == nil {
			continue
		}
		if err := tb.checkData(); err != nil {
			t.unload(n, tb.hdr.metric)
			os.Remove(tb.path)
			return nil, err
		}
		if n.Placing() {
			views[n] = &wdlView{sec: tb.sec, data: tb.all()}
		} else {
			views[n] = movingView(tb, threads)
		}
	}
	return views, nil
}

// exitCopies copies the tables the pair's captures lead to, as look gives
// them, into memory with huge pages: the init pass reads them at random, and
// a mapped file's 4 KB pages cost a TLB miss on most reads of a large one.
// A table that cannot be copied is read from its mapping.
func exitCopies(look func(m, o int) *table, p Params, pair []SectorSpec) (map[SectorSpec]*table, func()) {
	copies := map[SectorSpec]*table{}
	var frees []func()
	for _, s := range pair {
		for _, n := range []int{1, 2} {
			e := SectorSpec{M: s.O - n, O: s.M}
			tb := look(e.M, e.O)
			if tb == nil || copies[e] != nil || (n == 2 && !p.RemoveMultiple) {
				continue
			}
			data := tb.all()
			if data == nil {
				continue // the job says it is missing
			}
			mem, free, _, err := memory.Huge(len(data), false)
			if err != nil {
				continue
			}
			c := tb.copyWith(mem)
			copy(c.data, data)
			copies[e] = c
			frees = append(frees, free)
		}
	}
	return copies, func() {
		for _, f := range frees {
			f()
		}
	}
}

func (t *Tables) report(s SectorSpec, pair []SectorSpec, metric Metric, el time.Duration, existing bool) SectorReport {
	tb := t.table(s, metric)
	r := SectorReport{Spec: s, Metric: metric, Path: tb.path, Stats: tb.hdr.stats, Size: tb.size,
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
	Checkpoint    string // the checkpoint the dropped pair goes on from, if one was written
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
	if e.Checkpoint != "" {
		return fmt.Sprintf("interrupted: kept %s; %s in progress (the next build goes on from %s)", names(e.Kept), names(e.Dropped), e.Checkpoint)
	}
	return fmt.Sprintf("interrupted: kept %s; dropped %s (solved again by the next build)", names(e.Kept), names(e.Dropped))
}

func (e *InterruptedError) Unwrap() error { return e.Err }
