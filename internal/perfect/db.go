package perfect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// DB is Malom's database of one variant in a folder, opened for the rules
// it solved, as a source of values for the root policy (an egtb.Source).
// The sector files present are listed at Open and each is opened (its
// header, size and escape table checked) at its first use; a damaged one is
// left out and listed by Damaged, the others are used. A DB is safe for
// concurrent use until Close.
type DB struct {
	dir     string
	variant malom.Variant
	vals    *malom.SecVals
	present map[malom.SectorID]bool // the sector files in dir at Open; read-only

	mu      sync.Mutex
	sectors map[malom.SectorID]*malom.Sector // opened at first use; nil: damaged
	damaged []error
	closed  bool
}

// Open opens the database of Malom's variant for the rules r in dir: its
// .secval file, and the list of its sector files. It fails, saying why, when
// r are not rules Malom solved (VariantOf), dir is not a folder, the .secval
// file is missing or damaged (an error matching ErrDamaged), or no sector
// file is there.
func Open(dir string, r *rules.Rules) (*DB, error) {
	v, err := VariantOf(r)
	if err != nil {
		return nil, err
	}
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no folder %s", dir)
	case err != nil:
		return nil, err
	case !st.IsDir():
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	secval := filepath.Join(dir, v.SecvalName())
	vals, err := malom.ReadSecval(secval)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no %s in %s", v.SecvalName(), dir)
	}
	if err != nil {
		return nil, damaged{err}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	d := &DB{dir: dir, variant: v, vals: vals, present: map[malom.SectorID]bool{}, sectors: map[malom.SectorID]*malom.Sector{}}
	for _, e := range ents {
		fv, id, err := malom.ParseSectorName(e.Name())
		if err != nil || fv != v || e.IsDir() {
			continue
		}
		if _, listed := vals.Value(id); listed {
			d.present[id] = true
		}
	}
	if len(d.present) == 0 {
		return nil, fmt.Errorf("no sector files of %s (%s_W_B_WF_BF.sec2) in %s", v.Prefix, v.Prefix, dir)
	}
	return d, nil
}

// ErrDamaged says that a file of Malom's database cannot be read: Open's
// error for a damaged .secval file matches it (errors.Is).
var ErrDamaged = errors.New("damaged file of Malom's database")

// damaged is an error that matches ErrDamaged and reads as its cause.
type damaged struct{ err error }

func (d damaged) Error() string   { return d.err.Error() }
func (d damaged) Unwrap() []error { return []error{d.err, ErrDamaged} }

// Variant returns Malom's variant of the database.
func (d *DB) Variant() malom.Variant { return d.variant }

// Dir returns the folder.
func (d *DB) Dir() string { return d.dir }

// Sectors returns the number of sector files present, and the number of
// sectors the variant has (.secval).
func (d *DB) Sectors() (present, all int) { return len(d.present), d.vals.Len() }

// Has reports whether the sector's file is present (and not found damaged).
func (d *DB) Has(id malom.SectorID) bool {
	if !d.present[id] {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	s, opened := d.sectors[id]
	return !opened || s != nil
}

// Coverage says in a few words what the database holds: "18 sectors of std
// in DIR", or "all 498 sectors of std in DIR".
func (d *DB) Coverage() string {
	n, all := d.Sectors()
	if n == all {
		return fmt.Sprintf("all %d sectors of %s in %s", n, d.variant.Prefix, d.dir)
	}
	return fmt.Sprintf("%d sectors of %s in %s", n, d.variant.Prefix, d.dir)
}

// Damaged returns the sector files found damaged so far (at their first
// use), each error naming its file and saying that its sector is not used.
func (d *DB) Damaged() []error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.damaged)
}

// Close releases the opened sector files. The DB must not be used
// afterwards.
func (d *DB) Close() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	for _, s := range d.sectors {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	d.sectors, d.closed = map[malom.SectorID]*malom.Sector{}, true
	return errors.Join(errs...)
}

// sector returns the opened sector id, opening it at its first use, or nil
// when its file is absent or damaged.
func (d *DB) sector(id malom.SectorID) *malom.Sector {
	if !d.present[id] {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.sectors[id]; ok || d.closed {
		return s
	}
	s, err := malom.OpenSector(filepath.Join(d.dir, d.variant.SectorName(id)), d.variant, id, d.vals)
	if err != nil {
		d.damaged = append(d.damaged, fmt.Errorf("%w; this sector is not used", err))
		s = nil
	}
	d.sectors[id] = s
	return s
}

// drop leaves out a sector whose entry could not be read: its file is
// damaged.
func (d *DB) drop(id malom.SectorID, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.sectors[id]; s != nil {
		d.damaged = append(d.damaged, fmt.Errorf("%w; this sector is not used", err))
		s.Close()
		d.sectors[id] = nil
	}
}

// Keys are Malom's own value of a position, as its files hold it: what a
// policy that reads more than win, draw and loss may use (a draw's key1 says
// which sector it drifts into, how good a draw it is; key2 is a win's or a
// loss's plies, a draw's solver depth). They are exposed as they are.
type Keys struct {
	Sector      malom.SectorID // the sector the value was read from, the side to move's pieces first
	SectorValue int            // that sector's value (the .secval file)
	Eval        malom.Eval     // key1 and key2 (Eval.Raw), the absolute value, the result
	// Removal is, for a position with a removal pending (which Malom's
	// files do not hold: its turn is an action and its removal), the
	// removal whose position the keys are of, the best for the remover;
	// position.NoMove otherwise.
	Removal position.Move
}

// String is "sector 3_4_0_0 (value 40): win in 9 plies (key1 259, key2 9)",
// with "after x a1" for a removal.
func (k Keys) String() string {
	s := fmt.Sprintf("sector %v (value %d): %v", k.Sector, k.SectorValue, k.Eval)
	if k.Removal != position.NoMove {
		s = "after " + k.Removal.String() + ", " + s
	}
	return s
}

// Lookup returns Malom's value of p for its side to move under the rules r
// in the terms of the engine's tables, and whether the database holds it:
// a win or a loss with its distance to the end of the game (Malom's key2
// plies as turns: Exact, up to the longest a value holds, win 127, loss
// 126), or a draw. A position with a removal pending is valued by its best
// removal, the removal completing the turn, as the tables do. The distance
// to the next removal (DTZ), which Malom does not keep, is the distance to
// the end where the next action may slide (it bounds it: a win that fits
// the N-move rule by it fits), and one turn where the side to move must
// place (a placement, like a removal, restarts the N-move count). Lookup
// does not allocate unless it opens a sector or finds it damaged.
func (d *DB) Lookup(r *rules.Rules, p *position.Position) (egtb.Entry, bool) {
	e, _, ok := d.lookup(r, p)
	return e, ok
}

// Keys returns Malom's keys of p under the rules r (for a position with a
// removal pending, those of the position after its best removal), and
// whether the database holds it (not when that removal ends the game,
// which leaves no position of Malom's).
func (d *DB) Keys(r *rules.Rules, p *position.Position) (Keys, bool) {
	_, k, ok := d.lookup(r, p)
	return k, ok && k.Sector != malom.SectorID{}
}

// Why says why the database holds no value for p under r, or returns ""
// when it holds one. The text suits an "info string".
func (d *DB) Why(r *rules.Rules, p *position.Position) string {
	if _, _, ok := d.lookup(r, p); ok {
		return ""
	}
	v, err := VariantOf(r)
	us := p.SideToMove()
	switch {
	case err != nil:
		return err.Error()
	case v != d.variant:
		return fmt.Sprintf("the database is Malom's %s, these rules are its %s", d.variant.Prefix, v.Prefix)
	case p.IsOver():
		res, why := p.Result()
		return fmt.Sprintf("the game is over (%s: %s)", res, why)
	case p.Marked() != 0 || p.StalemateRemoving() || p.BothStalemateRemoving() || p.PendingRemovals(us^1) != 0 || p.PendingRemovals(us) > 1:
		return "not a position of Malom's games"
	case p.Action() == position.Remove:
		return "a removal is pending and the position after one of the removals is not in the database"
	}
	id := malom.SectorID{W: p.OnBoard(us), B: p.OnBoard(us ^ 1), WF: p.InHand(us), BF: p.InHand(us ^ 1)}
	if d.present[id] {
		return fmt.Sprintf("sector %v is damaged (%s)", id, d.variant.SectorName(id))
	}
	return fmt.Sprintf("sector %v is not in %s (%s)", id, d.dir, d.variant.SectorName(id))
}

func (d *DB) lookup(r *rules.Rules, p *position.Position) (egtb.Entry, Keys, bool) {
	if d == nil || !solves(r, d.variant) || p.IsOver() || p.Marked() != 0 || p.StalemateRemoving() || p.BothStalemateRemoving() {
		return egtb.Entry{}, Keys{}, false
	}
	us := p.SideToMove()
	if p.PendingRemovals(us^1) != 0 {
		return egtb.Entry{}, Keys{}, false
	}
	switch n := p.PendingRemovals(us); {
	case n == 0 && p.Action() != position.Remove:
		return d.probe(r, p)
	case n == 1 && p.Action() == position.Remove:
		return d.afterRemoval(r, p)
	}
	return egtb.Entry{}, Keys{}, false
}

// probe reads the value of p, which has no removal pending.
func (d *DB) probe(r *rules.Rules, p *position.Position) (egtb.Entry, Keys, bool) {
	us := p.SideToMove()
	mover, other := p.Pieces(us), p.Pieces(us^1)
	id := malom.SectorID{W: mover.Count(), B: other.Count(), WF: p.InHand(us), BF: p.InHand(us ^ 1)}
	s := d.sector(id)
	if s == nil {
		return egtb.Entry{}, Keys{}, false
	}
	ev, err := s.Probe(mover, other)
	if err != nil {
		d.drop(id, err)
		return egtb.Entry{}, Keys{}, false
	}
	v := valueOf(ev)
	e := egtb.Entry{Value: v, DTZ: v, Exact: true, Perfect: true}
	if p.InHand(us) > 0 && !r.MayMoveInPlacingPhase {
		e.DTZ = removingTurn(v)
	}
	return e, Keys{Sector: id, SectorValue: s.Value(), Eval: ev, Removal: position.NoMove}, true
}

// afterRemoval values p, whose side to move has one removal to make, by its
// best removal: a removal that ends the game wins, any other is worth the
// position it leads to, turned. It reports false when the database lacks
// the position of one of them.
func (d *DB) afterRemoval(r *rules.Rules, p *position.Position) (egtb.Entry, Keys, bool) {
	us := p.SideToMove()
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	var best egtb.Value
	var keys Keys
	found := false
	for _, m := range ml.Slice() {
		c := *p
		c.Do(r, m)
		var v egtb.Value
		var k Keys
		switch {
		case c.IsOver():
			switch res, _ := c.Result(); res {
			case position.Winner(us):
				v = egtb.Win(1)
			case position.Draw:
				v = egtb.Draw
			default:
				v = egtb.Loss(0)
			}
			k.Removal = m // and no sector: the game is over
		case c.SideToMove() == us:
			return egtb.Entry{}, Keys{}, false // another removal: not a turn of Malom's games
		default:
			e, ck, ok := d.probe(r, &c)
			if !ok {
				return egtb.Entry{}, Keys{}, false
			}
			v, k = e.Value.Parent(), ck
			k.Removal = m
		}
		if !found || v.Better(best) {
			best, keys, found = v, k, true
		}
	}
	if !found {
		return egtb.Entry{}, Keys{}, false
	}
	return egtb.Entry{Value: best, DTZ: removingTurn(best), Exact: true, Perfect: true}, keys, true
}

// The longest distances a Value holds.
const (
	maxWinTurns  = 127
	maxLossTurns = 126
)

// valueOf turns Malom's value into the tables' terms: key2, the plies to the
// end of a won or lost game (the winner taking the shortest way, the loser
// the longest, as the tables count), as turns of the side to move.
func valueOf(e malom.Eval) egtb.Value {
	switch e.WDL {
	case malom.Win:
		return egtb.Win(min(max((int(e.Raw.Key2)+1)/2, 1), maxWinTurns))
	case malom.Loss:
		return egtb.Loss(min(max(int(e.Raw.Key2)/2, 0), maxLossTurns))
	}
	return egtb.Draw
}

// removingTurn is the distance to the next removal of a turn that restarts
// the N-move count (a removal, or a placement): one turn, whatever wins.
func removingTurn(v egtb.Value) egtb.Value {
	switch {
	case v.IsWin():
		return egtb.Win(1)
	case v.IsLoss():
		return egtb.Loss(1)
	}
	return egtb.Draw
}
