package book

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/search"
)

// BuildConfig says what a book build searches and how.
type BuildConfig struct {
	Rules    rules.Rules
	Preset   string        // the preset key written in the header ("custom" if none)
	Plies    int           // positions after fewer actions than this are searched
	Depth    int           // search depth per position; 0: MoveTime decides
	MoveTime time.Duration // search time per position when Depth is 0
	Actions  int           // actions kept per position (the search's MultiPV)
	Variety  int           // the engine's own actions followed: within this many centipawns of the best
	Workers  int           // positions searched at once, each by its own one-thread engine
	HashMB   int           // transposition table of each worker
	Out      string        // the book file; one that exists is resumed
	// Progress, if not nil, is told of each position searched: the phase
	// ("ply 3") and the positions done and to do in it.
	Progress func(phase string, done, total uint64)
}

// Defaults of a book build (millengine book build).
const (
	DefaultPlies   = 8
	DefaultDepth   = 12
	DefaultActions = 4
	DefaultVariety = 10
)

// Stats describe a finished (or interrupted) build.
type Stats struct {
	Resumed   int           // positions read from the file at the start
	Positions int           // positions in the book
	Searched  int           // positions this run searched (the others were resumed)
	PerPly    []int         // positions searched by the engine, by the number of actions before them
	MinDepth  int           // the shallowest search of an entry
	Elapsed   time.Duration // time of this run
}

// Build searches the positions of the book tree and writes the book to
// cfg.Out. The tree holds, for each colour the engine may play, every
// position of the first cfg.Plies actions that the engine can reach when it
// plays its book actions (those within cfg.Variety of the best) and its
// opponent plays anything: the engine stays in book for that long whatever
// the opponent does. Positions are counted once for all their symmetric
// images.
//
// Each searched position is appended to cfg.Out as soon as it is done, so
// an interrupted build (ctx cancelled) loses only the positions in flight
// and a new Build with the same file resumes where it stopped. At the end
// the file is rewritten sorted.
func Build(ctx context.Context, cfg BuildConfig) (Stats, error) {
	start := time.Now()
	if cfg.Plies < 1 || cfg.Actions < 1 || cfg.Workers < 1 || (cfg.Depth < 1 && cfg.MoveTime <= 0) {
		return Stats{}, errors.New("book build: plies, actions and workers must be at least 1, and a depth or a move time set")
	}
	b, err := resume(cfg)
	if err != nil {
		return Stats{}, err
	}
	journal, err := os.OpenFile(cfg.Out, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return Stats{}, fmt.Errorf("book build: %w", err)
	}
	defer journal.Close()
	st := Stats{Resumed: b.Len(), PerPly: make([]int, cfg.Plies)}
	front := treeRoots(&cfg.Rules)
	for ply := 0; ply < cfg.Plies && len(front) > 0; ply++ {
		var todo []position.Position
		for _, n := range front {
			// The front holds each position once per engine colour, and a
			// position is the engine's turn for one colour only.
			if n.pos.SideToMove() == n.engine {
				st.PerPly[ply]++
				if !b.Has(&n.pos) {
					todo = append(todo, n.pos)
				}
			}
		}
		if err := searchAll(ctx, cfg, b, journal, todo, ply); err != nil {
			return st, err
		}
		st.Searched += len(todo)
		front = grow(&cfg.Rules, front, func(n treeNode) []position.Move { return followed(cfg, b, &n.pos, n.engine) })
	}
	if err := b.Save(cfg.Out); err != nil {
		return st, err
	}
	st.Positions = b.Len()
	st.MinDepth = 255
	for _, e := range b.entries {
		st.MinDepth = min(st.MinDepth, e.Depth)
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// treeNode is a position of the book tree and the colour the engine plays
// in its line (a position is the engine's turn for one colour only).
type treeNode struct {
	pos    position.Position
	engine position.Color
}

// treeRoots is the book tree's first ply: the start position for each
// colour the engine may play.
func treeRoots(r *rules.Rules) []treeNode {
	start := position.New(r)
	return []treeNode{{start, position.White}, {start, position.Black}}
}

// grow returns the tree's next ply: from each node of front, the positions
// after the actions follow gives, each once per engine colour up to
// symmetry, in the order of front and of the actions (so that siblings
// stay together); games over and positions no book key can hold are left
// out.
func grow(r *rules.Rules, front []treeNode, follow func(treeNode) []position.Move) []treeNode {
	seen := map[[2]uint64]bool{}
	var next []treeNode
	for _, n := range front {
		for _, m := range follow(n) {
			q := n.pos
			q.Do(r, m)
			if q.IsOver() {
				continue
			}
			_, c := Canonical(&q)
			k, ok := key(&c)
			if !ok || seen[[2]uint64{k, uint64(n.engine)}] {
				continue
			}
			seen[[2]uint64{k, uint64(n.engine)}] = true
			next = append(next, treeNode{q, n.engine})
		}
	}
	return next
}

// followed returns the actions the tree follows from p: the book actions
// within cfg.Variety of the best when the engine is to move, every legal
// action when its opponent is.
func followed(cfg BuildConfig, b *Book, p *position.Position, engine position.Color) []position.Move {
	if p.SideToMove() != engine {
		var ml movegen.MoveList
		movegen.Generate(&cfg.Rules, p, &ml)
		return append([]position.Move(nil), ml.Slice()...)
	}
	e, ok := b.Probe(&cfg.Rules, p)
	if !ok {
		return nil
	}
	var out []position.Move
	for _, a := range e.Actions {
		if a.Score >= e.Actions[0].Score-cfg.Variety {
			out = append(out, a.Move)
		}
	}
	return out
}

// Distinct returns the legal actions of p with one action for each class
// of actions that a symmetry of p (one that leaves p as it is) maps onto
// each other: those lead to positions that are images of each other, so
// one of them stands for all. The start position has 4 classes out of 24
// placements. The actions are nil when p has no symmetry but the identity.
func Distinct(r *rules.Rules, p *position.Position) []position.Move {
	var stab []bb.Symmetry
	for y := bb.Symmetry(1); y < bb.NumSymmetries; y++ {
		if p.Transform(y) == *p {
			stab = append(stab, y)
		}
	}
	if len(stab) == 0 {
		return nil
	}
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	var out []position.Move
	for _, m := range ml.Slice() {
		least := true
		for _, y := range stab {
			if m.Transform(y) < m {
				least = false
				break
			}
		}
		if least {
			out = append(out, m)
		}
	}
	return out
}

// resume opens cfg.Out: a file that exists is read (a last line cut by an
// interruption is dropped) and must be a book of the same rules; it is
// rewritten clean before new lines are appended. A missing file is created
// with the header.
func resume(cfg BuildConfig) (*Book, error) {
	f, err := os.Open(cfg.Out)
	if errors.Is(err, os.ErrNotExist) {
		b := New(cfg.Rules, cfg.Preset)
		return b, b.Save(cfg.Out)
	}
	if err != nil {
		return nil, fmt.Errorf("book build: %w", err)
	}
	b, err := Read(f, true)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("book build: resuming %s: %w", cfg.Out, err)
	}
	if !b.Matches(&cfg.Rules) {
		return nil, fmt.Errorf("book build: %s was built for other rules (%s); choose another --out", cfg.Out, b.Preset)
	}
	b.Preset = cfg.Preset
	return b, b.Save(cfg.Out)
}

// Save writes the whole book to path through a temporary file and a
// rename, so the file is never half written.
func (b *Book) Save(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	if _, err := b.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("book: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	return nil
}

// searchAll searches the positions of todo with cfg.Workers engines, puts
// each result in the book and appends its line to the journal.
func searchAll(ctx context.Context, cfg BuildConfig, b *Book, journal io.Writer, todo []position.Position, ply int) error {
	if len(todo) == 0 {
		return nil
	}
	jobs := make(chan position.Position)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	var firstErr error
	bw := bufio.NewWriter(journal)
	for w := 0; w < min(cfg.Workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := search.New(cfg.HashMB)
			o := e.Options()
			o.MultiPV = cfg.Actions
			o.Threads = 1
			e.SetOptions(o)
			stop := context.AfterFunc(ctx, e.Stop)
			defer stop()
			for p := range jobs {
				ent, ok := searchOne(ctx, cfg, e, &p)
				if !ok {
					continue
				}
				mu.Lock()
				if err := b.Put(&p, ent); err != nil && firstErr == nil {
					firstErr = err
				}
				_, c := Canonical(&p)
				k, _ := key(&c)
				fmt.Fprintln(bw, Line(b.fens[k], b.entries[k]))
				if err := bw.Flush(); err != nil && firstErr == nil {
					firstErr = fmt.Errorf("book build: %w", err)
				}
				done++
				if cfg.Progress != nil {
					cfg.Progress(fmt.Sprintf("ply %d", ply), uint64(done), uint64(len(todo)))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, p := range todo {
		select {
		case jobs <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return fmt.Errorf("book build: interrupted after %d of %d positions at ply %d; run the same command to resume: %w",
			done, len(todo), ply, ctx.Err())
	}
	return nil
}

// searchOne searches p and returns its entry: the lines of the deepest
// completed iteration, best first. It returns false when the search was
// stopped before an iteration completed or by ctx.
func searchOne(ctx context.Context, cfg BuildConfig, e *search.Engine, p *position.Position) (Entry, bool) {
	e.NewGame() // every position from a clean table: the same book whatever the order
	e.Prepare(false)
	if ctx.Err() != nil { // a Stop from now on ends the search below
		return Entry{}, false
	}
	g := position.NewGame(cfg.Rules, *p)
	lim := search.Limits{Depth: cfg.Depth}
	if cfg.Depth == 0 {
		lim = search.Limits{MoveTime: cfg.MoveTime}
	}
	lim.SearchMoves = Distinct(&cfg.Rules, p)
	var lines []search.Info
	depth := 0
	e.Search(g, lim, func(in search.Info) {
		if len(in.PV) == 0 {
			return // a periodic report, not a line
		}
		if in.Depth > depth {
			depth, lines = in.Depth, lines[:0]
		}
		if in.Depth == depth {
			lines = append(lines, in)
		}
	})
	if ctx.Err() != nil || len(lines) == 0 {
		return Entry{}, false
	}
	slices.SortStableFunc(lines, func(a, b search.Info) int { return b.Score - a.Score })
	ent := Entry{Depth: depth}
	for _, in := range lines {
		if !slices.ContainsFunc(ent.Actions, func(a Action) bool { return a.Move == in.PV[0] }) {
			ent.Actions = append(ent.Actions, Action{Move: in.PV[0], Score: in.Score})
		}
	}
	return ent, true
}
