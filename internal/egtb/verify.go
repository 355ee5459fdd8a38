package egtb

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// Mismatch is a slot whose stored value differs from what its successors
// give.
type Mismatch struct {
	Slot     uint32
	FEN      string // the position, White to move
	Stored   string // the stored value (or "unused", "unknown")
	Computed string // the value the successors give
}

func (m Mismatch) String() string {
	return fmt.Sprintf("slot %d: %s: stored %s, successors give %s", m.Slot, m.FEN, m.Stored, m.Computed)
}

// VerifyOptions tune Verify.
type VerifyOptions struct {
	Metric   Metric   // the table to check: DTM, or the sector's DTZ table
	Threads  int      // goroutines (≤ 0: one per CPU)
	Limit    int      // mismatches to keep (all are counted)
	Step     uint32   // check every Step-th slot (0 or 1: all)
	Progress Progress // progress, if set
	// Skip, if set, is asked before VerifyDir checks a table (the report's
	// Params, Spec, Metric and CRC filled in); a table it skips is reported
	// Skipped, its values unchecked but its data read and checked against
	// the checksum its header holds (a packed table decoded), so that it is
	// the very data the journal found OK. A long verify resumes this way: a
	// journal of the tables found OK, matched by their data checksum; and a
	// copy of a verified set (a packed one: every table decodes to its plain
	// data, whose checksum the packed file keeps) is verified by that
	// journal in the time it takes to read it.
	Skip func(VerifyReport) bool
	// Planned, if set, is told by VerifyDir, for each parameter set before
	// it starts on it, how many slots its tables to check hold in all
	// (each sector's slots once per table): a whole-run estimate of the
	// time left.
	Planned func(slots uint64)
	// Resume, if set, is asked before VerifyDir checks a table (after
	// Skip) for the part an earlier, stopped check of it recorded; the
	// check goes on from there. Checkpoint, if set, is given the part
	// checked so far every CheckpointEvery (default 2 min) while no
	// mismatch has been found: what a later Resume hands back, so that a
	// kill loses at most that much of a table's check (the biggest take
	// 10 to 30 minutes on two cores).
	Resume          func(VerifyReport) (VerifyPart, bool)
	Checkpoint      func(VerifyReport, VerifyPart)
	CheckpointEvery time.Duration
	// Start and Part are Resume and Checkpoint for Verify, one table:
	// the part already checked, and where to report the part checked.
	Start VerifyPart
	Part  func(VerifyPart)
}

// VerifyPart is the part of a table a check has done: every slot below
// Upto, Checked entries (Step 1), no mismatch, in Elapsed (every run's).
type VerifyPart struct {
	Upto    uint32
	Checked uint64
	Elapsed time.Duration
}

// VerifyResult is what Verify found in one sector.
type VerifyResult struct {
	Checked, Bad uint64     // slots checked, slots wrong
	First        []Mismatch // the first Limit mismatches by slot
}

// Verify re-checks the slots of a loaded sector with the engine's own rules
// code: each used slot's position is built by position.NewMoving (White to
// move; the same position as its FEN),
// movegen.Generate lists its actions and Position.Do plays them (removals
// included), and the best of the successors' values — probed in the tables,
// or given by the rules when the game ends — must equal the stored value.
// Unused slots must hold 0xFF and used ones must not. This local check over
// every slot proves every value, by induction on the distance: a loss 0 has
// no action, a win d has an action to a loss d−1 and none to a shorter one,
// a loss d has only actions to wins, the longest d−1, and a draw has no
// action to a loss and one to a draw.
//
// A placing sector's WDL table is checked the same way (verifyPlacing).
func (t *Tables) Verify(ctx context.Context, s SectorSpec, o VerifyOptions) (VerifyResult, error) {
	var res VerifyResult
	tb := t.table(s, o.Metric)
	if tb == nil {
		return res, fmt.Errorf("egtb: the %s table of sector %s is not loaded", o.Metric, s)
	}
	data := tb.all()
	if data == nil {
		return res, fmt.Errorf("egtb: the %s table of sector %s cannot be read: %v", o.Metric, s, tb.pk.wholeErr)
	}
	if o.Progress == nil {
		o.Progress = func(string, uint64, uint64) {}
	}
	o.Step = max(o.Step, 1)
	if o.Metric == WDL {
		return t.verifyPlacing(ctx, s, tb, data, o)
	}
	prog, step := o.Progress, o.Step
	r := t.params.Rules()
	sec := tb.sec
	from := o.Start.Upto
	if from > 0 && (step > 1 || from > sec.size) {
		return res, fmt.Errorf("egtb: verify %s: cannot go on from slot %d (step %d, %d slots)", s, from, step, sec.size)
	}
	res.Checked = o.Start.Checked
	var mu sync.Mutex
	threads := o.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	sv := &solver{threads: threads, prog: prog, ctx: ctx}
	parts := newPartTracker(from, sec.size, o)
	_, err := sv.parallel("verify "+s.String()+" "+o.Metric.String(), from, sec.size, sec.size, func(lo, hi uint32) int {
		var fen []byte
		var local []Mismatch
		var n, bad uint64
		// Two slots in flight: the next one's successors are found and
		// prefetched before this one's are read.
		cs := new([2]slotCheck)
		var prev *slotCheck
		end := func(c *slotCheck) {
			n++
			if want, st := c.end(t, &r, o.Metric); want != "" {
				bad++
				if len(local) < o.Limit {
					fen = appendFEN(fen[:0], c.mover, c.other)
					local = append(local, Mismatch{Slot: c.i, FEN: string(fen), Stored: st, Computed: want})
				}
			}
		}
		for i, k := (lo+step-1)/step*step, 0; i < hi; i, k = i+step, k^1 {
			c := &cs[k]
			c.begin(t, &r, sec, data, i, o.Metric)
			if prev != nil {
				end(prev)
			}
			prev = c
		}
		if prev != nil {
			end(prev)
		}
		mu.Lock()
		res.merge(n, bad, local)
		parts.done(lo, n, bad > 0)
		mu.Unlock()
		return 0
	})
	res.trim(o.Limit)
	return res, err
}

// merge adds a part's entries checked, entries wrong and the first of them
// (under the caller's lock).
func (r *VerifyResult) merge(checked, bad uint64, first []Mismatch) {
	r.Checked += checked
	r.Bad += bad
	r.First = append(r.First, first...)
}

// trim orders the mismatches by slot and keeps the first limit.
func (r *VerifyResult) trim(limit int) {
	sortMismatches(r.First)
	if len(r.First) > limit {
		r.First = r.First[:limit]
	}
}

// slotCheck is one slot of a moving sector's table under check: begun (its
// position's successors found and prefetched), then ended (read and
// compared with the slot).
type slotCheck struct {
	i            uint32
	mover, other bb.Bitboard
	stored       byte
	used         bool
	p            position.Position
	a            afterSet
}

// begin takes slot i and prepares its position's successors.
func (c *slotCheck) begin(t *Tables, r *rules.Rules, sec *sector, data []byte, i uint32, metric Metric) {
	c.i = i
	c.mover, c.other = sec.decode(i)
	c.stored, c.used = data[i], sec.used(c.mover, c.other)
	if c.used && c.stored != unused {
		c.p = position.NewMoving(r, c.mover, c.other, position.White)
		if !c.p.IsOver() {
			c.a.prepare(t, r, &c.p, metric)
		}
	}
}

// end returns what the slot should hold if it is wrong ("" if right) and
// what it holds. A position over is a loss (0) for its side to move, if
// the other side has won.
func (c *slotCheck) end(t *Tables, r *rules.Rules, metric Metric) (want, st string) {
	st = "unused"
	if c.stored != unused {
		st = Value(c.stored).String()
	}
	switch {
	case !c.used && c.stored == unused:
		return "", st
	case !c.used:
		return "unused", st
	case c.stored == unused:
		return "a value (the slot is used)", st
	}
	var v Value
	ok := true
	if c.p.IsOver() {
		res, _ := c.p.Result()
		v, ok = Loss(0), res == position.Winner(c.p.SideToMove()^1)
	} else {
		v, ok = c.a.finish(t, r, metric)
	}
	if !ok {
		return "unknown", st
	}
	if v != Value(c.stored) {
		return v.String(), st
	}
	return "", st
}

// partTracker follows which chunks of a table's check are finished (the
// threads finish them out of order) and reports the part below the first
// unfinished one, now and then, while no mismatch has been found: the part
// a stopped check can go on from. Its methods are called under Verify's
// lock.
type partTracker struct {
	from, size uint32
	counts     []uint32 // entries checked in each finished chunk from `from` on
	finished   []bool
	next       int        // the first unfinished chunk
	bad        bool       // a mismatch has been found: no more parts
	part       VerifyPart // the slots below next, checked
	report     func(VerifyPart)
	every      time.Duration
	start      time.Time
	last       time.Time
}

func newPartTracker(from, size uint32, o VerifyOptions) *partTracker {
	n := (size - from + chunk - 1) / chunk
	every := o.CheckpointEvery
	if every <= 0 {
		every = 2 * time.Minute
	}
	now := time.Now()
	p := &partTracker{from: from, size: size, report: o.Part, every: every, start: now, last: now, part: o.Start}
	if o.Part != nil {
		p.counts, p.finished = make([]uint32, n), make([]bool, n)
	}
	return p
}

// done records the chunk starting at slot lo, n entries checked; bad says a
// mismatch was found in it (no part is reported after one).
func (p *partTracker) done(lo uint32, n uint64, bad bool) {
	if p.report == nil {
		return
	}
	c := (lo - p.from) / chunk
	p.counts[c], p.finished[c] = uint32(n), true
	for p.next < len(p.finished) && p.finished[p.next] {
		p.part.Checked += uint64(p.counts[p.next])
		p.next++
	}
	p.bad = p.bad || bad
	if now := time.Now(); !p.bad && now.Sub(p.last) >= p.every && p.next > 0 {
		p.last = now
		part := p.part
		part.Upto = min(p.from+uint32(p.next)*chunk, p.size)
		part.Elapsed += now.Sub(p.start)
		p.report(part)
	}
}

func sortMismatches(ms []Mismatch) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Slot < ms[j-1].Slot; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// appendFEN appends the FEN of the moving-phase position with White (to
// move) on mover and Black on other.
func appendFEN(b []byte, mover, other bb.Bitboard) []byte {
	b = position.AppendBoard(b, mover, other, 0)
	b = append(b, " w m s "...)
	b = strconv.AppendInt(b, int64(mover.Count()), 10)
	b = append(b, " 0 "...)
	b = strconv.AppendInt(b, int64(other.Count()), 10)
	return append(b, " 0 0 0 0 0 0 0 0 0 1"...)
}

// anyResult is a metric for the checks only: the result of a position, read from
// any of its sector's tables (what a removing turn's DTZ value needs).
const anyResult Metric = 0xFF

// tableFor returns the table a check reads a position of sector (m, o) from
// under the metric: the DTM table, the DTZ table, or for anyResult either.
func (t *Tables) tableFor(m, o int, metric Metric) *table {
	switch metric {
	case DTZ:
		return t.lookupDTZ(m, o)
	case anyResult:
		return t.lookupWDL(m, o)
	}
	return t.lookup(m, o)
}

// bestAfter returns the best value, for p's side to move, over p's actions;
// p must not be over. For DTZ a turn that removes counts 1 (its result from
// any table of the sector after the removal), and a turn that does not
// counts the DTZ value of the position it leads to.
//
// The positions after the turns lie anywhere in the tables: their slots are
// found and prefetched for all the actions first (prepare), then read
// (finish), so that the cache misses overlap.
func (t *Tables) bestAfter(r *rules.Rules, p *position.Position, metric Metric) (Value, bool) {
	var a afterSet
	a.prepare(t, r, p, metric)
	return a.finish(t, r, metric)
}

// afterSet is a position's actions played, and the table entries of the
// positions they lead to, found and prefetched but not yet read: verify
// prepares the next slot's while it finishes this one's, so that the
// misses of two positions overlap.
type afterSet struct {
	us   position.Color
	n    int
	bad  bool // no action, or a table missing
	slot [movegen.MaxMoves]*byte
	kid  [movegen.MaxMoves]position.Position
}

// prepare plays p's actions and finds and prefetches the entries of the
// positions they lead to.
func (a *afterSet) prepare(t *Tables, r *rules.Rules, p *position.Position, metric Metric) {
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	a.n, a.bad, a.us = ml.N, ml.N == 0, p.SideToMove()
	us := a.us
	for i, m := range ml.Slice() {
		c := &a.kid[i]
		*c = *p
		c.Do(r, m)
		a.slot[i] = nil
		if c.IsOver() || c.SideToMove() == us || c.Action() != position.Select {
			continue
		}
		tb := t.tableFor(c.OnBoard(us^1), c.OnBoard(us), metric)
		if tb == nil {
			a.bad = true
			return
		}
		data := tb.all()
		if data == nil {
			a.bad = true
			return
		}
		a.slot[i] = &data[tb.sec.index(c.Pieces(us^1), c.Pieces(us))]
		memory.Prefetch(uintptr(unsafe.Pointer(a.slot[i])))
	}
}

// finish reads the prepared entries and returns the best value over the
// actions, false if one cannot be known.
func (a *afterSet) finish(t *Tables, r *rules.Rules, metric Metric) (Value, bool) {
	if a.bad {
		return 0, false
	}
	us := a.us
	var best Value
	for i := range a.n {
		c := &a.kid[i]
		var v Value
		switch {
		case a.slot[i] != nil:
			v = Value(*a.slot[i]).Parent()
		case c.IsOver():
			if res, _ := c.Result(); res != position.Winner(us) {
				return 0, false
			}
			v = Win(1)
		case c.SideToMove() == us && c.Action() == position.Remove:
			inner := metric
			if metric != DTM {
				inner = anyResult
			}
			var ok bool
			if v, ok = t.bestAfter(r, c, inner); !ok {
				return 0, false
			}
			if metric == DTZ {
				v = removingTurn(v)
			}
		default:
			return 0, false
		}
		if i == 0 || v.Better(best) {
			best = v
		}
	}
	return best, true
}

// verifyMetrics are the tables VerifyDir checks of sector s: the DTZ table,
// and the DTM table up to DTMPieces; a placing sector's WDL table.
func verifyMetrics(s SectorSpec) []Metric {
	if s.Placing() {
		return []Metric{WDL}
	}
	if s.M+s.O <= DTMPieces {
		return []Metric{DTM, DTZ}
	}
	return []Metric{DTZ}
}

// VerifyReport is what VerifyDir found for one table.
type VerifyReport struct {
	Params  Params
	Spec    SectorSpec
	Metric  Metric
	Missing bool         // the plan has this table but the directory does not
	Skipped bool         // VerifyOptions.Skip said not to check it
	CRC     uint32       // the table's data checksum (from its header)
	Result  VerifyResult // the entries checked and the mismatches
	Counted SolveStats   // the counts of the data
	Header  SolveStats   // the counts the build recorded in the header
	Elapsed time.Duration
}

// OK reports whether the table is there, every entry checked out and its
// counts are the header's.
func (r VerifyReport) OK() bool {
	return !r.Missing && !r.Skipped && r.Result.Bad == 0 && r.Counted == r.Header
}

// Label is "3v4" for a DTM table, "3v4 dtz" for a DTZ table.
func (r VerifyReport) Label() string {
	if r.Metric == DTZ {
		return r.Spec.String() + " dtz"
	}
	return r.Spec.String()
}

// ParamSets lists the parameter sets with sector files in dir, by name.
func ParamSets(dir string) ([]Params, error) {
	files, err := sectorFiles(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]Params{}
	for _, f := range files {
		seen[f.params.Name()] = f.params
	}
	out := make([]Params, 0, len(seen))
	for _, p := range seen {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Params) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// VerifyDir verifies the tables of each parameter set in dir (only the
// sectors in only, if it is not empty), sector by sector in build order,
// each table the plan gives a sector (DTM up to DTMPieces, DTZ): a table
// the plan has and the directory does not is reported Missing. It returns
// the number of sectors it found, and an error only for a table it could not
// read or an interrupt.
func VerifyDir(ctx context.Context, dir string, sets []Params, only []SectorSpec, o VerifyOptions, report func(VerifyReport)) (int, error) {
	sectors := 0
	for _, p := range sets {
		tb, err := openParams(dir, p, openOnUse)
		if err != nil {
			return sectors, err
		}
		err = func() error {
			defer tb.Close()
			var todo []SectorSpec
			var slots uint64
			for _, s := range tb.Sectors() {
				if len(only) == 0 || slices.Contains(only, s) {
					todo = append(todo, s)
					slots += s.Slots() * uint64(len(verifyMetrics(s)))
				}
			}
			if o.Planned != nil {
				o.Planned(slots)
			}
			for _, s := range todo {
				sectors++
				metrics := verifyMetrics(s)
				for _, m := range metrics {
					rep := VerifyReport{Params: p, Spec: s, Metric: m}
					info, ok := tb.headerOf(s, m)
					if !ok {
						rep.Missing = true
						report(rep)
						continue
					}
					rep.CRC = info.CRC
					if o.Skip != nil && o.Skip(rep) {
						if err := (*tb.slotOf(s, m)).sameData(); err != nil {
							return err
						}
						rep.Skipped = true
						report(rep)
						continue
					}
					start := time.Now()
					vo := o
					vo.Metric = m
					if o.Resume != nil {
						vo.Start, _ = o.Resume(rep)
					}
					if o.Checkpoint != nil {
						at := rep
						vo.Part = func(part VerifyPart) { o.Checkpoint(at, part) }
					}
					res, err := tb.Verify(ctx, s, vo)
					if d := tb.Damaged(); len(d) > 0 {
						// This table, or one below it that it read, is
						// damaged: the file is named, the verify ends.
						return d[0]
					}
					if err != nil {
						return err
					}
					rep.Result, rep.Header, rep.Counted, rep.Elapsed = res, info.Header, tb.SectorStatsOf(s, m), time.Since(start)+vo.Start.Elapsed
					report(rep)
				}
			}
			return nil
		}()
		if err != nil {
			return sectors, err
		}
	}
	return sectors, nil
}
