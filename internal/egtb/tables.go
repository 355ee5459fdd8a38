package egtb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	bb "github.com/millengine/millengine/internal/bitboard"
	"github.com/millengine/millengine/internal/memory"
	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/wdl"
)

// MaxPieces is the most pieces on the board (both sides) a sector may hold:
// nine a side, the whole moving phase of Nine Men's Morris.
const MaxPieces = 2 * maxSetSize

// DTMPieces is the most pieces on the board of a sector whose DTM table is
// built: beyond it a sector has its DTZ table only, which holds the same
// wins, draws and losses (see Build).
const DTMPieces = 10

// table is one opened sector.
type table struct {
	sec *sector
	// data is a plain table's data as mapped: one value byte per slot (two
	// bits for WDL); nil for a packed table, pk, which is probed through
	// its blocks (packed.go).
	data    []byte
	pk      *packed
	path    string
	size    int64 // the file's size
	hdr     header
	unmap   func() error
	checked bool // the data checksum was checked
	// freeCopy frees data when verify has copied it into huge pages
	// (toHugePages); nil while data is the file's mapping.
	freeCopy func()
	// state says whether the table may be probed: 0 not known yet (its
	// first use checks a small table's data, see lazyCheckBytes), 1 yes, 2
	// no (its data is damaged). once guards that check, owner hears of a
	// damaged table.
	state atomic.Uint32
	once  sync.Once
	owner *Tables
}

// usable returns the table, or nil when it is nil or found damaged: the
// first call checks the data checksum of a small table (lazyCheckBytes).
// Every probe goes through it; after the first it costs an atomic load.
func (t *table) usable() *table {
	if t == nil {
		return nil
	}
	if st := t.state.Load(); st == 1 {
		return t
	} else if st == 2 {
		return nil
	}
	t.once.Do(func() {
		if t.pk != nil {
			// A packed table's index is checked at its first use, its
			// blocks as they are decoded.
			if err := t.pk.checkIndex(); err != nil {
				t.owner.noteDamaged(fmt.Errorf("%w; this sector is not used", err))
				t.state.Store(2)
				return
			}
		} else if !t.checked && (len(t.data) <= lazyCheckBytes || t.owner.mode == openOnUse) {
			if t.owner.mode == openOnUse {
				t.toHugePages() // then checked there: the file is read once
			}
			if err := checkData(t.path, &t.hdr, t.data); err != nil {
				t.owner.noteDamaged(fmt.Errorf("%w; this sector is not used", err))
				t.state.Store(2)
				return
			}
			t.checked = true
		}
		t.state.Store(1)
	})
	if t.state.Load() == 1 {
		return t
	}
	return nil
}

// checkData checks the data of a table opened without it (checksum, used
// slots).
func (t *table) checkData() error {
	if t.checked {
		return nil
	}
	if t.pk != nil {
		if err := t.pk.checkIndex(); err != nil {
			return err
		}
		if _, err := t.pk.materialise(); err != nil {
			return err
		}
	} else if err := checkData(t.path, &t.hdr, t.data); err != nil {
		return err
	}
	t.checked = true
	return nil
}

// sameData checks that the table's data is what its header's checksum
// says, without keeping anything: a plain table's data read where it is
// mapped, a packed one's decoded block by block (packed.check).
func (t *table) sameData() error {
	if t.pk != nil {
		if err := t.pk.checkIndex(); err != nil {
			return err
		}
		return t.pk.check()
	}
	return checkData(t.path, &t.hdr, t.data)
}

// get returns the value of the position (mover, other), which must belong to
// the sector, and false when the tables do not know it: its block of a
// packed table is damaged. A plain table knows every position; what a
// plain probe pays for the packed form is the test of pk (Lookup, which
// reads a sector's two tables at one index, computes it once for both).
func (t *table) get(mover, other bb.Bitboard) (Value, bool) { return t.at(t.sec.index(mover, other)) }

// at returns the value of slot i, and false when its block of a packed
// table is damaged.
func (t *table) at(i uint32) (Value, bool) {
	if t.pk == nil {
		return Value(t.data[i]), true
	}
	b, ok := t.pk.byteAt(uint64(i))
	return Value(b), ok
}

// code returns the two-bit code of slot i of a WDL table, and false when
// its block of a packed table is damaged.
func (t *table) code(i uint32) (uint8, bool) {
	if t.pk == nil {
		return code2(t.data, i), true
	}
	b, ok := t.pk.byteAt(uint64(i >> 2))
	return b >> ((i & 3) * 2) & 3, ok
}

// codeAt returns the two-bit code of slot i: a WDL table's own, a
// moving-phase table's value as its code; false when its block of a packed
// table is damaged.
func (t *table) codeAt(i uint32) (uint8, bool) {
	if t.hdr.metric == WDL {
		return t.code(i)
	}
	v, ok := t.at(i)
	return codeOf(byte(v)), ok
}

// all returns the table's whole plain data, what the readers of every slot
// use (verify, stats, a build's needs): a plain table's mapping, a packed
// table decoded whole once (packed.materialise); nil when a packed table
// cannot be decoded (the error goes to the Tables' Damaged).
func (t *table) all() []byte {
	if t.pk == nil {
		return t.data
	}
	d, err := t.pk.materialise()
	if err != nil {
		t.pk.noteOnce(err)
		return nil
	}
	return d
}

// dataSize is the size in bytes of the table's plain data.
func (t *table) dataSize() uint64 { return t.hdr.metric.dataSize(t.hdr.slots) }

// Tables are the opened sector files of one parameter set. They are
// read-only and safe for concurrent use.
type Tables struct {
	dir    string
	params Params
	game   *game
	tabs   [maxSetSize + 1][maxSetSize + 1]*table // DTM, by sector
	dtz    [maxSetSize + 1][maxSetSize + 1]*table // DTZ, by sector
	// place holds the placing sectors' WDL tables by M, O, OF and MF − OF
	// (0 or 1), placing how many are loaded.
	place   [maxSetSize + 1][maxSetSize + 1][maxSetSize + 1][2]*table
	placing int
	none    string // why there are no tables at all (rules not covered)
	// mode says when a file's data is checked and what a damaged one costs.
	mode openMode
	// damaged holds the files found damaged (at open, or at their first
	// use), which are not used, and the damaged blocks of packed tables;
	// mu guards it.
	mu      sync.Mutex
	damaged []error
	// caches hold the packed tables' decoded blocks, one cache per size of
	// what is cached (a 4 KB block of zstd or S2, a 256-byte segment of the
	// ranked codec), each made when a table first needs it
	// (PackedCacheBytes each); packedIDs numbers the tables for their keys;
	// shadowed lists the packed files left out for the plain file of the
	// same table.
	caches    map[uint8]*blockCache
	packedIDs uint32
	shadowed  []string
}

// noteDamaged records a damaged file.
func (t *Tables) noteDamaged(err error) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.damaged = append(t.damaged, err)
	t.mu.Unlock()
}

// Damaged returns the files found damaged so far, each a *FileError saying
// why: at open (header, size) or at their first use (a small table's data
// checksum, a packed table's index); those sectors are not used, the
// others are. It lists too the blocks of packed tables found damaged when
// a probe decoded them (the file, the block and its slots): their
// positions are unknown, the table's other blocks are used.
func (t *Tables) Damaged() []error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.damaged)
}

// Open maps the sector files in dir that were solved under the parameters of
// r, plain or packed (packedfile.go; where both forms of a table are there,
// the plain file), reading their headers only. A missing directory or missing sectors are
// not errors (their positions are unknown); a damaged file is left out and
// listed by Damaged (a *FileError naming it), the others are used: its
// header or size at once, a small table's data at its first use (see
// lazyCheckBytes; egtb verify checks every table's). If r is not covered at
// all (see ParamsOf), Open returns empty tables whose Why says so.
func Open(dir string, r *rules.Rules) (*Tables, error) {
	p, err := ParamsOf(r)
	if err != nil {
		return &Tables{dir: dir, none: "the rules the tables were opened for are not covered: " + err.Error()}, nil
	}
	return OpenParams(dir, p)
}

// OpenParams maps the sector files in dir solved under p.
func OpenParams(dir string, p Params) (*Tables, error) { return openParams(dir, p, openLazy) }

// OpenChecked is OpenParams that also checks the data checksum of every file,
// the large ones included (which Open leaves to this, see lazyCheckBytes),
// and fails on a damaged file: egtb stats, which reads every table, uses it
// (egtb verify checks each table it reads at its first use, see openOnUse).
func OpenChecked(dir string, p Params) (*Tables, error) { return openParams(dir, p, openChecked) }

// openMode says when openParams checks a file's data, and what a damaged
// file costs.
type openMode int

const (
	// openLazy: headers at open, a small table's data at its first use; a
	// damaged file is left out (Open, OpenParams).
	openLazy openMode = iota
	// openChecked: every file's data at open; a damaged file fails the open
	// (OpenChecked).
	openChecked
	// openOnUse: headers at open, failing it as openChecked does; a table's
	// data at its first use, however large, a damaged one left out and
	// listed by Damaged. egtb verify opens so: a verify of a few sectors
	// reads those and the tables below them it probes, not the whole set
	// (14 GB for the whole game).
	openOnUse
	// openTrusted: headers at open, the tables usable without a check at
	// their first use (Build checks what a job reads itself).
	openTrusted
)

func openParams(dir string, p Params, mode openMode) (*Tables, error) {
	t := &Tables{dir: dir, params: p, game: newGame(p), mode: mode}
	files, err := sectorFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.params != p {
			continue
		}
		if f.shadowed {
			t.shadowed = append(t.shadowed, f.path)
			continue
		}
		if err := t.load(f.path, f.spec, f.metric); err != nil {
			var fe *FileError
			if mode == openLazy && errors.As(err, &fe) {
				t.noteDamaged(err)
				continue
			}
			t.Close()
			return nil, err
		}
	}
	// The set tables of the sectors' indexes are built on another
	// goroutine: Open returns having read the headers only, and a probe
	// soon after finds them built (or waits for the one it needs).
	go warmSetTables(t.Sectors())
	return t, nil
}

type sectorFile struct {
	path   string
	params Params
	spec   SectorSpec
	metric Metric
	packed bool // a packed file (".egtbz")
	// shadowed: a packed file beside the plain file of the same table,
	// which is the one used (it is probed without decoding).
	shadowed bool
}

// sectorFiles lists the sector files in dir (by name, plain and packed),
// sorted; a missing directory has none.
func sectorFiles(dir string) ([]sectorFile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []sectorFile
	for _, e := range ents {
		p, s, m, ok := parseFileName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		out = append(out, sectorFile{path: filepath.Join(dir, e.Name()), params: p, spec: s, metric: m, packed: isPackedName(e.Name())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	for i := 1; i < len(out); i++ {
		// "x.egtb" sorts just before "x.egtbz".
		if out[i].packed && !out[i-1].packed && out[i].path == out[i-1].path+"z" {
			out[i].shadowed = true
		}
	}
	return out, nil
}

// load maps and checks one sector file (plain or packed) and adds it.
func (t *Tables) load(path string, s SectorSpec, metric Metric) error {
	buf, unmap, err := memory.MapFile(path)
	if err != nil {
		return &FileError{path, err.Error()}
	}
	var tb *table
	if isPackedName(filepath.Base(path)) {
		tb, err = t.openPacked(path, buf, s, metric)
	} else {
		var h header
		all := t.mode == openChecked
		if h, err = checkFile(path, buf, t.params, s, metric, all); err == nil {
			tb = &table{sec: newSector(s.M, s.O), data: buf[headerSize:], hdr: h, checked: all}
			if all || t.mode == openTrusted {
				tb.state.Store(1)
			}
		}
	}
	if err != nil {
		unmap()
		return err
	}
	tb.path, tb.size, tb.unmap, tb.owner = path, int64(len(buf)), unmap, t
	slot := t.slotOf(s, metric)
	if *slot != nil {
		(*slot).close()
	} else if metric == WDL {
		t.placing++
	}
	*slot = tb
	return nil
}

// close unmaps the table's file and frees what a packed table decoded.
func (t *table) close() error {
	if t.pk != nil {
		t.pk.release()
	}
	if t.freeCopy != nil {
		t.freeCopy()
		t.freeCopy, t.data = nil, nil
	}
	return t.unmap()
}

// toHugePages copies a plain table's data from its file's mapping into
// memory in huge pages, where the table is then read, freed when the table
// is closed; it keeps the mapping if that memory cannot be had, or would
// leave less than a gigabyte and the table's size again (verify keeps the
// tables it reads: on a small machine the later ones stay mapped). verify
// (openOnUse) reads each table many times over at random, and a mapped
// file's pages are 4 KB. Measured (egtb verify --threads 1, 40 s each,
// alternating, the machine quiet, 2026-11-28): 7v7 DTZ 0.36–0.37 M
// positions a second from the mapping, 0.44–0.46 M from huge pages; the
// placing sector 5_7_1_1 0.47–0.48 M, 0.53–0.54 M.
func (t *table) toHugePages() {
	if avail, ok := memory.Available(); !ok || avail < 2*uint64(len(t.data))+1<<30 {
		return
	}
	mem, free, _, err := memory.Huge(len(t.data), false)
	if err != nil {
		return
	}
	copy(mem, t.data)
	t.data, t.freeCopy = mem, free
}

// slotOf is where the table of sector s and the metric is kept.
func (t *Tables) slotOf(s SectorSpec, metric Metric) **table {
	switch metric {
	case DTZ:
		return &t.dtz[s.M][s.O]
	case WDL:
		return &t.place[s.M][s.O][s.OF][s.MF-s.OF]
	}
	return &t.tabs[s.M][s.O]
}

// unload drops a loaded table (a damaged one found later).
func (t *Tables) unload(s SectorSpec, metric Metric) {
	slot := t.slotOf(s, metric)
	if *slot != nil {
		(*slot).close()
		*slot = nil
		if metric == WDL {
			t.placing--
		}
	}
}

// Close unmaps the files. The tables must not be used afterwards.
func (t *Tables) Close() error {
	if t == nil {
		return nil
	}
	var first error
	drop := func(slot **table) {
		if tb := *slot; tb != nil {
			if err := tb.close(); err != nil && first == nil {
				first = err
			}
			*slot = nil
		}
	}
	for _, tabs := range []*[maxSetSize + 1][maxSetSize + 1]*table{&t.tabs, &t.dtz} {
		for m := range tabs {
			for o := range tabs[m] {
				drop(&tabs[m][o])
			}
		}
	}
	for m := range t.place {
		for o := range t.place[m] {
			for of := range t.place[m][o] {
				for d := range t.place[m][o][of] {
					drop(&t.place[m][o][of][d])
				}
			}
		}
	}
	t.placing = 0
	return first
}

// lookupDTZ returns the DTZ table of sector (m, o), or nil.
func (t *Tables) lookupDTZ(m, o int) *table {
	if t == nil || m < 0 || o < 0 || m > maxSetSize || o > maxSetSize {
		return nil
	}
	return t.dtz[m][o].usable()
}

// lookupWDL returns a table of sector (m, o) that holds its wins, draws and
// losses (the DTZ table, or the DTM table when only that is loaded), or nil.
func (t *Tables) lookupWDL(m, o int) *table {
	if tb := t.lookupDTZ(m, o); tb != nil {
		return tb
	}
	return t.lookup(m, o)
}

// Coverage says in one line what the tables hold for their parameters: "all
// 49 sectors of plain-fly3-min3 (the whole moving phase, DTM up to 10
// pieces) in DIR", or which sectors are there and which pieces counts are
// complete, for a subset such as the 10-piece set or a build half done;
// then what they hold of the placing phase, "the whole game" when every
// sector of Nine Men's Morris is there.
func (t *Tables) Coverage() string {
	s := t.coverage()
	switch n := len(t.shadowedFiles()); {
	case n == 1:
		s += " (1 packed file left out beside the plain file of the same table, which is used)"
	case n > 1:
		s += fmt.Sprintf(" (%d packed files left out beside the plain files of the same tables, which are used)", n)
	}
	return s
}

// shadowedFiles lists the packed files left out for the plain files of the
// same tables.
func (t *Tables) shadowedFiles() []string {
	if t == nil {
		return nil
	}
	return t.shadowed
}

// coverage is Coverage without the note of the packed files left out.
func (t *Tables) coverage() string {
	s := t.movingCoverage()
	if t == nil || t.placing == 0 {
		return s
	}
	all := len(t.params.PlacingSectors(PlacingPieces, MaxPieces))
	if t.placing == all && len(t.params.Sectors(MaxPieces)) == len(t.Sectors())-t.placing {
		return fmt.Sprintf("the whole game: %s, and all %d placing sectors", s, all)
	}
	return fmt.Sprintf("%s; and %d of %d placing sectors", s, t.placing, all)
}

// movingCoverage is Coverage's part of the moving phase.
func (t *Tables) movingCoverage() string {
	if t == nil || t.game == nil {
		return "no tables"
	}
	all := t.params.Sectors(MaxPieces)
	var have []SectorSpec
	complete := 0 // every sector up to this many pieces is there
	for n := 2 * t.params.MinPieces; n <= MaxPieces; n++ {
		full := true
		for _, s := range all {
			if s.M+s.O == n && !t.Has(s) {
				full = false
			}
		}
		if !full {
			break
		}
		complete = n
	}
	for _, s := range all {
		if t.Has(s) {
			have = append(have, s)
		}
	}
	dtm := 0
	for _, s := range have {
		// present, not usable: saying what is there must not read the
		// tables' data (usable checks a small table's checksum).
		if t.tabs[s.M][s.O].present() {
			dtm = max(dtm, s.M+s.O)
		}
	}
	switch {
	case len(have) == len(all):
		return fmt.Sprintf("all %d sectors of %s (the whole moving phase; distances to the end up to %d pieces, to the next removal beyond) in %s",
			len(all), t.params.Name(), dtm, t.dir)
	case len(have) == 0:
		return fmt.Sprintf("no sectors of %s in %s (millengine egtb build solves them)", t.params.Name(), t.dir)
	}
	names := make([]string, 0, len(have))
	for _, s := range have {
		if s.M+s.O > complete {
			names = append(names, s.String())
		}
	}
	extra := ""
	if len(names) > 0 {
		extra = ", and " + strings.Join(names, " ")
	}
	upTo := "none complete"
	if complete > 0 {
		upTo = fmt.Sprintf("every sector up to %d pieces", complete)
	}
	return fmt.Sprintf("%d of %d sectors of %s in %s: %s%s; the search goes on where they end", len(have), len(all), t.params.Name(), t.dir, upTo, extra)
}

// Params returns the parameter set the tables were opened for.
func (t *Tables) Params() Params { return t.params }

// Dir returns the directory the tables were opened from.
func (t *Tables) Dir() string { return t.dir }

// Has reports whether the sector's values are loaded (its DTZ table, its
// DTM table or both; a placing sector's WDL table).
// It reads no data: a table not used yet counts until its first use finds
// it damaged.
func (t *Tables) Has(s SectorSpec) bool {
	if t == nil || s.M < 0 || s.O < 0 || s.M > maxSetSize || s.O > maxSetSize {
		return false
	}
	if s.Placing() {
		if s.OF < 0 || s.OF > maxSetSize || s.MF-s.OF < 0 || s.MF-s.OF > 1 {
			return false
		}
		return t.place[s.M][s.O][s.OF][s.MF-s.OF].present()
	}
	return t.dtz[s.M][s.O].present() || t.tabs[s.M][s.O].present()
}

// copyWith returns a usable table like t whose data is data (a copy of t's
// elsewhere in memory).
func (t *table) copyWith(data []byte) *table {
	c := &table{sec: t.sec, data: data, path: t.path, size: t.size, hdr: t.hdr, unmap: t.unmap, checked: t.checked, owner: t.owner}
	c.state.Store(1)
	return c
}

// present reports whether a table is loaded and not found damaged, without
// checking it.
func (t *table) present() bool { return t != nil && t.state.Load() != 2 }

// Sectors lists the loaded sectors in build order: the moving phase's, then
// the placing phase's.
func (t *Tables) Sectors() []SectorSpec {
	var out []SectorSpec
	for _, s := range t.params.Sectors(MaxPieces) {
		if t.Has(s) {
			out = append(out, s)
		}
	}
	return append(out, t.placingSectorsOf()...)
}

func (t *Tables) lookup(m, o int) *table {
	if t == nil || m < 0 || o < 0 || m > maxSetSize || o > maxSetSize {
		return nil
	}
	return t.tabs[m][o].usable()
}

// ProbeSets returns the value of the moving-phase position in which the side
// to move holds mover and the other side other (no pieces in hand, no removal
// pending), and whether the tables hold it. It does not check the rules. A
// side to move without a legal action is loss 0.
func (t *Tables) ProbeSets(mover, other bb.Bitboard) (Value, bool) {
	tb := t.lookup(mover.Count(), other.Count())
	if tb == nil || mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return 0, false
	}
	return tb.get(mover, other)
}

// Entry is what the tables know of a position for its side to move.
type Entry struct {
	// Value is the result, win, draw or loss, with its distance: to the end
	// of the game when Exact (the sector has its DTM table), else to the
	// next removal (sectors beyond DTMPieces keep that distance only).
	Value Value
	// DTZ is the same result with the distance to the next removal, what
	// the N-move rule counts.
	DTZ Value
	// Exact says Value counts the turns to the end of the game.
	Exact bool
	// ResultOnly says the tables keep the result only, win, draw or loss:
	// a placing position's (the placing tables' two bits), whose next turn
	// places, so its Value and DTZ count that turn alone (win 1, loss 1).
	ResultOnly bool
	// Perfect says the value is Malom's (Sanmill's perfect database, read
	// through internal/perfect), not these tables': what decided a root is
	// said as such.
	Perfect bool
}

// FitsRule says whether e's result stands under the N-move rule in a
// position with budget plies left before the rule draws the game: a win
// must reach its next removal, 2·DTZ−1 plies away, within the budget, and a
// loss stands only if the winner's removal, 2·DTZ plies away, comes within
// it (a loss 0, no legal action, always stands). A draw always stands. The
// search's scores, the ranking of a root and the report on games read the
// rule here, so that a "win beyond the N-move rule" means one thing.
func (e Entry) FitsRule(budget int) bool {
	z := e.DTZ.Distance()
	switch v := e.Value; {
	case v.IsWin():
		return 2*z-1 < budget
	case v.IsLoss():
		return 2*z < budget || z == 0
	}
	return true
}

// UnderRule is e's result once the N-move rule has had its say (FitsRule):
// win, draw or loss for the side to move with best play by both, budget
// plies before the rule draws the game.
func (e Entry) UnderRule(budget int) wdl.Value {
	if !e.FitsRule(budget) {
		return wdl.Draw
	}
	return e.Value.WDL()
}

// Lookup returns what the tables know of p for its side to move under the
// rules r, and whether they know it: positions of the moving phase with no
// pieces in hand on either side, in a loaded sector, under rules with the
// tables' parameters, positions with a pending removal included (their value
// is that of the best removal, counted so that the removal completes the
// turn: it equals the value of the action that closed the mill; they are
// derived from the smaller sector, at most seven probes, 42 with two
// removals). A finished game is not looked up. Lookup does not allocate and
// is safe for concurrent use.
func (t *Tables) Lookup(r *rules.Rules, p *position.Position) (Entry, bool) {
	if t != nil && t.placing > 0 && (p.InHand(position.White) != 0 || p.InHand(position.Black) != 0) {
		if pr, ok := paramsOf(r); ok && pr == t.params {
			return t.lookupPlacing(r, p)
		}
		return Entry{}, false
	}
	n, ok := t.probeable(r, p)
	if !ok {
		return Entry{}, false
	}
	us := p.SideToMove()
	mover, other := p.Pieces(us), p.Pieces(us^1)
	if n == 0 {
		m, o := mover.Count(), other.Count()
		z := t.lookupDTZ(m, o)
		d := t.lookup(m, o)
		switch {
		case z != nil && d != nil:
			// The two tables of a sector share its index.
			i := d.sec.index(mover, other)
			v, ok := d.at(i)
			w, ok2 := z.at(i)
			return Entry{Value: v, DTZ: w, Exact: true}, ok && ok2
		case d != nil:
			// No DTZ table: the distance to the end bounds the one to a removal.
			v, ok := d.get(mover, other)
			return Entry{Value: v, DTZ: v, Exact: true}, ok
		case z != nil:
			v, ok := z.get(mover, other)
			return Entry{Value: v, DTZ: v}, ok
		}
		return Entry{}, false
	}
	// A removal is pending: the turn ends with it.
	if t.lookup(other.Count()-1, mover.Count()) != nil || other.Count()-1 < t.params.MinPieces {
		if v, ok := t.game.afterMill(mover, other, n, t.ProbeSets); ok {
			return Entry{Value: v, DTZ: removingTurn(v), Exact: true}, true
		}
	}
	v, ok := t.game.afterMill(mover, other, n, t.probeWDL)
	if !ok {
		return Entry{}, false
	}
	return Entry{Value: removingTurn(v), DTZ: removingTurn(v)}, true
}

// probeable reports whether p is a position the tables may know under r,
// and the removals it has pending (0: none).
func (t *Tables) probeable(r *rules.Rules, p *position.Position) (int, bool) {
	if t == nil || t.game == nil {
		return 0, false
	}
	if pr, ok := paramsOf(r); !ok || pr != t.params {
		return 0, false
	}
	if p.IsOver() || p.InHand(position.White) != 0 || p.InHand(position.Black) != 0 || p.Marked() != 0 ||
		p.StalemateRemoving() || p.BothStalemateRemoving() {
		return 0, false
	}
	us := p.SideToMove()
	switch p.Action() {
	case position.Select:
		return 0, p.PendingRemovals(us^1) == 0
	case position.Remove:
		n := p.PendingRemovals(us)
		if n <= 0 || p.PendingRemovals(us^1) != 0 || (n > 1 && !t.params.RemoveMultiple) ||
			p.OnBoard(us) < t.params.MinPieces || p.OnBoard(us^1) < t.params.MinPieces {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// probeWDL is ProbeSets from any table of the sector: the result is right,
// the distance may be to the next removal.
func (t *Tables) probeWDL(mover, other bb.Bitboard) (Value, bool) {
	tb := t.lookupWDL(mover.Count(), other.Count())
	if tb == nil || mover&other != 0 || (mover|other)&^bb.Full != 0 {
		return 0, false
	}
	return tb.get(mover, other)
}

// Probe returns the DTM value of p for its side to move under the rules r
// (the turns to the end of the game), and whether the tables hold it: as
// Lookup, for sectors with their DTM table (up to DTMPieces pieces). Probe
// does not allocate and is safe for concurrent use.
func (t *Tables) Probe(r *rules.Rules, p *position.Position) (Value, bool) {
	e, ok := t.Lookup(r, p)
	if !ok || !e.Exact {
		return 0, false
	}
	return e.Value, true
}

// Why says why Probe knows no value for p under r, or returns "" when it
// does. The text suits an "info string".
func (t *Tables) Why(r *rules.Rules, p *position.Position) string {
	if _, ok := t.Lookup(r, p); ok {
		return ""
	}
	if _, err := ParamsOf(r); err != nil {
		return err.Error()
	}
	pr, _ := paramsOf(r)
	switch {
	case t == nil:
		return "no endgame tables are open"
	case t.game == nil:
		return t.none
	case pr != t.params:
		return fmt.Sprintf("the tables were opened for %s, these rules need %s", t.params.Name(), pr.Name())
	case p.IsOver():
		res, why := p.Result()
		return fmt.Sprintf("the game is over (%s: %s)", res, why)
	case (p.InHand(position.White) != 0 || p.InHand(position.Black) != 0) && !placingCovered(r):
		_, err := PlacingOf(r)
		return "pieces in hand: " + err.Error()
	case p.InHand(position.White) != 0 || p.InHand(position.Black) != 0:
		us := p.SideToMove()
		s := SectorSpec{M: p.OnBoard(us), O: p.OnBoard(us ^ 1), MF: p.InHand(us), OF: p.InHand(us ^ 1)}
		if p.Action() == position.Remove {
			return fmt.Sprintf("a removal is pending in placing sector %s; the sectors after it are not all built", s)
		}
		if !t.Has(s) {
			return fmt.Sprintf("placing sector %s is not built (%s in %s)", s, fileName(t.params, s, WDL), t.dir)
		}
		return fmt.Sprintf("placing sector %s is not available", s)
	case p.Marked() != 0:
		return "marked points: the tables cover the moving phase only"
	case p.StalemateRemoving() || p.BothStalemateRemoving():
		return "a stalemate removal is pending"
	}
	us := p.SideToMove()
	m, o := p.OnBoard(us), p.OnBoard(us^1)
	if p.Action() == position.Remove {
		if p.PendingRemovals(us^1) != 0 || p.PendingRemovals(us) > 1 && !t.params.RemoveMultiple {
			return "unexpected pending removals"
		}
		o -= max(p.PendingRemovals(us), 1)
		if o < t.params.MinPieces {
			o = t.params.MinPieces // a removal that wins at once needs no table; another removal count does
		}
		return t.missing(o, m, fmt.Sprintf("after the removal, sector %dv%d", o, m))
	}
	return t.missing(m, o, fmt.Sprintf("sector %dv%d", m, o))
}

func (t *Tables) missing(m, o int, what string) string {
	if m+o > MaxPieces {
		return fmt.Sprintf("%d pieces on the board: the tables hold at most %d", m+o, MaxPieces)
	}
	if t.lookupWDL(m, o) == nil {
		return fmt.Sprintf("%s is not built (%s in %s)", what, fileName(t.params, SectorSpec{M: m, O: o}, DTZ), t.dir)
	}
	return what + " is not available"
}

// ActionValue is one legal action and its value for the side that takes it.
type ActionValue struct {
	Move  position.Move
	Value Value // meaningful when Known
	Known bool
}

// ActionValue returns the value of the action m in p for the side to move
// (before the action): the value of the position it leads to, turned with
// Parent when the turn passes to the opponent, unchanged when a removal is
// pending; an action that ends the game by the rules is win 1.
func (t *Tables) ActionValue(r *rules.Rules, p *position.Position, m position.Move) (Value, bool) {
	c := *p
	c.Do(r, m)
	if c.IsOver() {
		switch res, _ := c.Result(); res {
		case position.Winner(p.SideToMove()):
			return Win(1), true
		case position.Draw:
			return Draw, true
		}
		return Loss(0), true
	}
	v, ok := t.Probe(r, &c)
	if !ok {
		return 0, false
	}
	if c.SideToMove() != p.SideToMove() {
		v = v.Parent()
	}
	return v, true
}

// Actions lists every legal action of p with its value for the side to move,
// best first: the shortest win, …, draws, …, the longest loss, then the
// unknown ones; ties by token.
func (t *Tables) Actions(r *rules.Rules, p *position.Position) []ActionValue {
	var ml movegen.MoveList
	movegen.Generate(r, p, &ml)
	out := make([]ActionValue, 0, ml.N)
	for _, m := range ml.Slice() {
		v, ok := t.ActionValue(r, p, m)
		out = append(out, ActionValue{Move: m, Value: v, Known: ok})
	}
	slices.SortFunc(out, func(a, b ActionValue) int {
		if a.Known != b.Known {
			if a.Known {
				return -1
			}
			return 1
		}
		if a.Known && a.Value != b.Value {
			return b.Value.Score() - a.Value.Score()
		}
		if as, bs := a.Move.String(), b.Move.String(); as != bs {
			if as < bs {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}

// DefaultDir is the tables' default directory: the user's cache directory
// plus millengine/egtb ("" when the system has no cache directory).
func DefaultDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "millengine", "egtb")
}

// Covers reports whether the tables were opened for the rules r and hold at
// least one sector: a caller can check it once and then probe without doubt.
func (t *Tables) Covers(r *rules.Rules) bool {
	if t == nil || t.game == nil {
		return false
	}
	p, ok := paramsOf(r)
	return ok && p == t.params
}

// Line returns the line of perfect play from p, at most maxPlies actions: at
// every turn the side to move takes its best action by the tables (the
// shortest win, a draw, the longest loss; ties by token), until the game
// ends or leaves the tables. It is the principal variation of a table
// position.
func (t *Tables) Line(r *rules.Rules, p *position.Position, maxPlies int) []position.Move {
	var line []position.Move
	q := *p
	for len(line) < maxPlies && !q.IsOver() {
		acts := t.Actions(r, &q)
		if len(acts) == 0 || !acts[0].Known {
			break
		}
		line = append(line, acts[0].Move)
		q.Do(r, acts[0].Move)
	}
	return line
}

// ProbeDTZ returns the DTZ value of p — the turns of its side to move to the
// next removal (or the end of the game), the winner taking the shortest way
// and the loser the longest — and whether the tables hold it (Lookup's DTZ).
// A position with a removal pending removes now: win 1, loss 1 or a draw by
// its result. ProbeDTZ does not allocate.
func (t *Tables) ProbeDTZ(r *rules.Rules, p *position.Position) (Value, bool) {
	e, ok := t.Lookup(r, p)
	return e.DTZ, ok
}

// ActionDTZ returns the DTZ value of the action m in p for the side to move:
// an action that removes, closes a mill or ends the game counts 1 turn (a win,
// a loss or a draw by its result), any other the DTZ value of the position it
// leads to, turned for the mover.
func (t *Tables) ActionDTZ(r *rules.Rules, p *position.Position, m position.Move) (Value, bool) {
	c := *p
	c.Do(r, m)
	switch {
	case c.IsOver():
		return t.ActionValue(r, p, m)
	case c.SideToMove() == p.SideToMove() || m.Kind() == position.KindRemove:
		v, ok := t.ActionValue(r, p, m)
		return removingTurn(v), ok
	}
	v, ok := t.ProbeDTZ(r, &c)
	return v.Parent(), ok
}
