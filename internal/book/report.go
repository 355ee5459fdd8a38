package book

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/progress"
	"github.com/millengine/millengine/internal/solve"
)

// This file holds what the 'millengine book' commands do beyond their
// flags: each runs a step on a book and writes its report.

// RunBuild runs Build with cfg (its Progress is RunBuild's) and reports it:
// the progress on stderr; on stdout the positions resumed from cfg.Out, and
// once the build is done the book's positions and how they were searched,
// and the engine's turns by ply. Its error is Build's, which says "book
// build: …" itself.
func RunBuild(ctx context.Context, stdout, stderr io.Writer, cfg BuildConfig) error {
	bar := progress.NewBar(stderr, "book ", "positions/s", 1)
	cfg.Progress = bar.Update
	st, err := Build(ctx, cfg)
	bar.Clear()
	if st.Resumed > 0 {
		fmt.Fprintf(stdout, "resumed %d positions from %s\n", st.Resumed, cfg.Out)
	}
	if err != nil {
		return err
	}
	search := fmt.Sprintf("depth %d", cfg.Depth)
	if cfg.Depth == 0 {
		search = fmt.Sprintf("movetime %d ms", cfg.MoveTime.Milliseconds())
	}
	fmt.Fprintf(stdout, "%s: %d positions (%d searched now) for the first %d plies, %s, %d actions each, variety %d cp, in %s\n",
		cfg.Out, st.Positions, st.Searched, cfg.Plies, search, cfg.Actions, cfg.Variety, progress.Seconds(st.Elapsed))
	_, err = fmt.Fprintf(stdout, "engine's turns by ply: %s\n", joinInts(st.PerPly))
	return err
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}

// ProveOptions say how RunProve proves a book.
type ProveOptions struct {
	Plies     int    // positions after fewer actions than this are proven
	TableMB   int    // the proofs' transposition table
	TableFile string // where the proofs' table is kept between runs ("": nowhere)
	Threads   int    // goroutines of the solver
}

// proveSaveEvery is how often RunProve writes the book while it proves.
const proveSaveEvery = time.Minute

// RunProve proves the positions of the book b, read from path, with the
// tables tb (Prove) and writes it back to path every proveSaveEvery and at
// the end, also when ctx stops it; the proofs' table is saved to its file.
// A line per position proven on stdout, then the count; the progress on
// stderr. Its errors say "book prove: …"; one of saving the table is also
// said on stderr at once.
func RunProve(ctx context.Context, stdout, stderr io.Writer, b *Book, path string, tb *egtb.Tables, o ProveOptions) error {
	bar := progress.NewBar(stderr, "book prove ", "", 1)
	start := time.Now()
	var proven, total, now atomic.Int64 // positions with a proof, in all, proven by this run
	s, err := solve.New(b.Rules, tb, solve.Options{TableMB: o.TableMB, File: o.TableFile, Threads: o.Threads,
		Progress: func(st solve.Stats, what string) {
			bar.Draw(proveProgress(int(proven.Load()), int(total.Load()), int(now.Load()), time.Since(start)) + st.Line())
		}})
	if err != nil {
		return fmt.Errorf("book prove: %w", err)
	}
	// The book is written at most every proveSaveEvery and at the end, not
	// after each position: a save of 85,000 positions takes longer than
	// many a late position's proof.
	lastSave, unsaved := time.Now(), false
	save := func() error {
		if unsaved = time.Since(lastSave) < proveSaveEvery; unsaved {
			return nil
		}
		lastSave = time.Now()
		return b.Save(path)
	}
	st, err := Prove(ctx, b, s, o.Plies, save, func(n, all int, fen string, pr Proof) {
		bar.Clear()
		proven.Store(int64(n))
		total.Store(int64(all))
		now.Add(1)
		fmt.Fprintf(stdout, "%d/%d %s: %s, %d actions keep it\n", n, all, fen, pr.Value, len(pr.Keep))
	})
	bar.Clear()
	if unsaved {
		if serr := b.Save(path); serr != nil {
			err = cmp.Or(err, serr)
		}
	}
	if serr := s.Save(); serr != nil {
		fmt.Fprintf(stderr, "book prove: saving the table: %v\n", serr)
		err = cmp.Or(err, serr)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s: %d of the %d positions before ply %d proven (%d now, %d before) in %s\n",
		path, st.Before+st.Proven, st.Total, o.Plies, st.Proven, st.Before, progress.Seconds(time.Since(start)))
	return err
}

// proveProgress is the book's part of RunProve's progress line: the
// positions with a proof, and once this run has proven some, its time per
// position and the time the rest would take at that rate (a rough guide: a
// position's proof takes from milliseconds to minutes).
func proveProgress(proven, total, now int, elapsed time.Duration) string {
	if now == 0 || total == 0 {
		return ""
	}
	per := elapsed / time.Duration(now)
	left := (per * time.Duration(total-proven)).Round(time.Minute)
	return fmt.Sprintf("%d/%d proven, %.1f s a position this run, about %dh%02dm left; ",
		proven, total, per.Seconds(), int(left.Hours()), int(left.Minutes())%60)
}

// WriteStats writes a book's coverage: the book's name, preset and size,
// then by ply its positions, their mean, least and greatest depth searched,
// the mean number of actions kept and the positions with a proven value.
func WriteStats(w io.Writer, name string, b *Book) error {
	type row struct {
		n, minD, maxD, sumD, actions, proven int
	}
	rows := map[int]*row{}
	b.Each(func(_ string, ply int, e Entry) {
		r := rows[ply]
		if r == nil {
			r = &row{minD: 1 << 30}
			rows[ply] = r
		}
		r.n++
		r.minD, r.maxD, r.sumD = min(r.minD, e.Depth), max(r.maxD, e.Depth), r.sumD+e.Depth
		r.actions += len(e.Actions)
		if e.Proof != nil {
			r.proven++
		}
	})
	plies := make([]int, 0, len(rows))
	for p := range rows {
		plies = append(plies, p)
	}
	slices.Sort(plies)
	fmt.Fprintf(w, "%s: %s, %d positions\n", name, b.Preset, b.Len())
	if _, err := fmt.Fprintf(w, "%5s %9s %7s %7s %7s %8s %7s\n", "ply", "positions", "depth", "min", "max", "actions", "proven"); err != nil {
		return err
	}
	for _, p := range plies {
		r := rows[p]
		if _, err := fmt.Fprintf(w, "%5d %9d %7.1f %7d %7d %8.1f %7d\n", p, r.n, float64(r.sumD)/float64(r.n), r.minD, r.maxD, float64(r.actions)/float64(r.n), r.proven); err != nil {
			return err
		}
	}
	return nil
}

// ErrCheckFailed is RunCheck's error when a proven position differs from
// the tables: its report says which.
var ErrCheckFailed = errors.New("book check: a proven position differs from the tables")

// RunCheck compares the proven positions of the book b, named name, with
// the tables tb of dir (Check) and writes the counts and the first
// differences to stdout, the progress to stderr. It returns ErrCheckFailed
// when a position differs.
func RunCheck(stdout, stderr io.Writer, name, dir string, b *Book, tb *egtb.Tables) error {
	bar := progress.NewBar(stderr, "book check ", "", 1)
	rep := Check(b, tb, func(done, total int) { bar.Update("positions", uint64(done), uint64(total)) })
	bar.Clear()
	fmt.Fprintf(stdout, "%s against %s: %d proven positions, %d compared, %d equal, %d different, %d not in the tables\n",
		name, dir, rep.Proven, rep.Compared, rep.Equal, rep.Compared-rep.Equal, rep.Unknown)
	for _, l := range rep.First {
		fmt.Fprintln(stdout, "  "+l)
	}
	if rep.Compared != rep.Equal {
		return ErrCheckFailed
	}
	return nil
}
