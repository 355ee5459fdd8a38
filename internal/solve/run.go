package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/progress"
	"github.com/millengine/millengine/internal/rules"
)

// RunOptions say what Run proves and with which solver.
type RunOptions struct {
	Options      // the solver's (Run sets Progress)
	Keep    bool // the actions that keep the value, not each action's value
	// Plies, if > 0, proves every position after fewer than Plies actions
	// from the position (Tree), with Keeping; Keep is then implied.
	Plies int
}

// StoppedError is Run's error when its context ended the proof: the
// counters so far, and the file of the table that keeps the work. It
// matches ErrStopped.
type StoppedError struct {
	Stats Stats
	File  string // Options.File
}

func (e *StoppedError) Error() string {
	s := "interrupted after " + e.Stats.Line()
	if e.File != "" {
		s += fmt.Sprintf("; the table is in %s: the same command goes on", e.File)
	}
	return s
}

func (e *StoppedError) Unwrap() error { return ErrStopped }

// Run proves p under r with the tables tb, as 'millengine solve' does, and
// writes the result to stdout: "value: win|draw|loss", then a line per
// action with its value, or with o.Keep the actions that keep the value, or
// with o.Plies a line per position and a count per ply; last the time and
// nodes. The progress, and what the solver notes, go to stderr. Then the
// table is written to its file, if it has one (before the result: a table
// that cannot be saved fails the run). A proof that ctx stopped gives a
// *StoppedError; an error of the proof and one of saving the table are
// joined (errors.Join), the proof's first.
func Run(ctx context.Context, stdout, stderr io.Writer, r rules.Rules, tb *egtb.Tables, p *position.Position, o RunOptions) error {
	bar := progress.NewBar(stderr, "solve ", "", 1)
	o.Progress = func(st Stats, what string) {
		if what != "" {
			bar.Clear()
			fmt.Fprintf(stderr, "solve: %s (%s)\n", what, st.Line())
			return
		}
		bar.Draw(st.Line())
	}
	s, err := New(r, tb, o.Options)
	if err != nil {
		return err
	}
	if o.Plies > 0 {
		err := s.tree(ctx, stdout, bar, p, o.Plies, o.File)
		return errors.Join(err, s.saveTable())
	}
	var (
		v    Value
		acts []ActionValue
		kept []position.Move
	)
	if o.Keep {
		v, kept, err = s.Keeping(ctx, p)
	} else {
		v, acts, err = s.Actions(ctx, p)
	}
	bar.Clear()
	st := s.Stats()
	if err != nil {
		return errors.Join(stopped(err, st, o.File), s.saveTable())
	}
	if err := s.saveTable(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "value: %s\n", v)
	if o.Keep {
		fmt.Fprintf(stdout, "keep: %d of %d: %s\n", len(kept), movegen.Count(&r, p), position.JoinMoves(kept))
	}
	for _, a := range acts {
		fmt.Fprintf(stdout, "%s: %s\n", a.Move, a.Value)
	}
	_, err = fmt.Fprintf(stdout, "Time: %d ms\nNodes: %d\nTable leaves: %d\n", st.Elapsed.Milliseconds(), st.Nodes, st.Leaves)
	return err
}

// saveTable writes the proofs' table to its file, if it has one.
func (s *Solver) saveTable() error {
	if err := s.Save(); err != nil {
		return fmt.Errorf("saving the table: %w", err)
	}
	return nil
}

// stopped is err of a proof, a *StoppedError when the proof was
// interrupted.
func stopped(err error, st Stats, file string) error {
	if errors.Is(err, ErrStopped) {
		return &StoppedError{Stats: st, File: file}
	}
	return err
}

// tree proves every position after fewer than plies actions from p, once
// per class of symmetric positions: one line each, "ply <n> <line>:
// <value>, keep <k> of <m>: <actions> (<t> ms)", then per ply the
// positions, their values and how many actions keep them, and the time and
// nodes.
func (s *Solver) tree(ctx context.Context, w io.Writer, bar *progress.Bar, p *position.Position, plies int, file string) error {
	type count struct{ positions, win, draw, loss, keep, legal int }
	byPly := make([]count, plies)
	start := time.Now()
	var nodes uint64
	var err error
	Tree(s.Rules(), p, plies, func(line []position.Move, q *position.Position) bool {
		var v Value
		var kept []position.Move
		v, kept, err = s.Keeping(ctx, q)
		bar.Clear()
		st := s.Stats()
		nodes += st.Nodes
		if err != nil {
			err = stopped(err, st, file)
			return false
		}
		n := movegen.Count(s.Rules(), q)
		name := position.JoinMoves(line)
		if name == "" {
			name = "(root)"
		}
		fmt.Fprintf(w, "ply %d %s: %s, keep %d of %d: %s (%d ms)\n", len(line), name, v, len(kept), n, position.JoinMoves(kept), st.Elapsed.Milliseconds())
		c := &byPly[len(line)]
		c.positions++
		c.keep += len(kept)
		c.legal += n
		switch v {
		case Win:
			c.win++
		case Draw:
			c.draw++
		default:
			c.loss++
		}
		return true
	})
	if err != nil {
		return err
	}
	for i, c := range byPly {
		fmt.Fprintf(w, "ply %d: %d positions (win %d, draw %d, loss %d), %d of %d actions keep the value\n",
			i, c.positions, c.win, c.draw, c.loss, c.keep, c.legal)
	}
	_, err = fmt.Fprintf(w, "Time: %d ms\nNodes: %d\n", time.Since(start).Milliseconds(), nodes)
	return err
}

// Line is the counters in one line, for a progress line: "1m2s, 123456
// nodes (2000 k/s), 789 table leaves, 4567 entries".
func (st Stats) Line() string {
	nps := float64(st.Nodes) / max(st.Elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("%s, %d nodes (%.0f k/s), %d table leaves, %d entries", st.Elapsed.Round(time.Second), st.Nodes, nps/1e3, st.Leaves, st.TTFilled)
}
