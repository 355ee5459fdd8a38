package malom

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	bb "github.com/millengine/millengine/internal/bitboard"
)

// DB is one variant's database directory: its sector values, and its sector
// files opened on first use and kept open until Close. It is safe for
// concurrent use.
type DB struct {
	dir     string
	variant Variant
	vals    *SecVals

	mu      sync.Mutex
	sectors map[SectorID]*Sector
}

// Open reads the variant's .secval file in dir. Sector files are opened when
// first needed.
func Open(dir string, v Variant) (*DB, error) {
	vals, err := ReadSecval(filepath.Join(dir, v.SecvalName()))
	if err != nil {
		return nil, err
	}
	return &DB{dir: dir, variant: v, vals: vals, sectors: make(map[SectorID]*Sector)}, nil
}

// Variant returns the database's variant.
func (d *DB) Variant() Variant { return d.variant }

// SecVals returns the sector values.
func (d *DB) SecVals() *SecVals { return d.vals }

// Dir returns the directory.
func (d *DB) Dir() string { return d.dir }

// Has reports whether the sector's file is present.
func (d *DB) Has(id SectorID) bool {
	_, err := os.Stat(filepath.Join(d.dir, d.variant.SectorName(id)))
	return err == nil
}

// Sector returns the opened sector, opening it on first use. A missing file
// gives an error that matches os.ErrNotExist.
func (d *DB) Sector(id SectorID) (*Sector, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.sectors[id]; ok {
		return s, nil
	}
	if d.sectors == nil {
		return nil, errors.New("malom: database is closed")
	}
	s, err := OpenSector(filepath.Join(d.dir, d.variant.SectorName(id)), d.variant, id, d.vals)
	if err != nil {
		return nil, err
	}
	d.sectors[id] = s
	return s, nil
}

// Probe returns the value of a position for its side to move: mover and
// other are the pieces on the board of the side to move and of the other
// side, moverHand and otherHand their pieces in hand. Positions with a
// removal pending are not in the database. Probe allocates only when it
// opens a sector or fails.
func (d *DB) Probe(mover, other bb.Bitboard, moverHand, otherHand int) (Eval, error) {
	id := SectorID{W: mover.Count(), B: other.Count(), WF: moverHand, BF: otherHand}
	if !id.Valid() {
		return Eval{}, fmt.Errorf("malom: no sector %v", id)
	}
	s, err := d.Sector(id)
	if err != nil {
		return Eval{}, err
	}
	return s.Probe(mover, other)
}

// Close closes every opened sector.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	for _, s := range d.sectors {
		errs = append(errs, s.Close())
	}
	d.sectors = nil
	return errors.Join(errs...)
}
