package egtb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Checkpoints of a pair's solve. The biggest pairs take many minutes; a
// build killed in the middle of one goes on from its last checkpoint, so a
// kill loses at most the interval between two checkpoints plus one init
// segment or retrograde ply. A checkpoint is the cells of the pair's sectors
// as they are in memory and the solveState, in one file beside the tables
// (little endian, 128-byte header, then the cells of the first sector and
// of the second):
//
//	offset size  field
//	0      8     magic "MILLCKPT"
//	8      2     format version (ckptVersion)
//	10     2     cell layout version (cellLayout)
//	12     5     HasDiagonalLines, flyPieceCount, PiecesAtLeastCount, MayRemoveFromMillsAlways, MayRemoveMultiple
//	17     1     metric
//	18     1     m
//	19     1     o
//	20     4     reserved (0)
//	24     8     slots of the first sector
//	32     8     slots of the second sector (0 for MvM)
//	40     4×2   init done, per sector (slots)
//	48     4     next retrograde ply
//	52     4     highest ply set
//	56     4     largest move counter
//	60     4     CRC-32C of the cells
//	64     60    reserved (0)
//	124    4     CRC-32C of bytes 0–123
//
// It is a working file, not a table: it is written only by this build on
// this machine and removed once the pair's tables are written. Anything that
// does not match — another pair, other rules, another layout, a torn or
// damaged file — is refused with a note, and the pair starts afresh.

const (
	ckptMagic      = "MILLCKPT"
	ckptVersion    = 1
	cellLayout     = 1 // the meaning of a cell's bits (see work)
	ckptExtension  = ".ckpt"
	ckptHeaderSize = 128
)

// checkpointer writes and reads the checkpoints of one pair's solve.
type checkpointer struct {
	path   string        // the checkpoint file
	every  time.Duration // the least time between two checkpoints
	note   func(string)  // says what happened (written, refused, resumed)
	params Params
	metric Metric
	m, o   int
	last   time.Time // the last checkpoint, or the start of the solve
	saved  int       // checkpoints written
}

// ckptName returns the checkpoint file of the pair whose first sector is s.
func ckptName(p Params, s SectorSpec, m Metric) string {
	n := fileName(p, s, m)
	return n[:len(n)-len(fileExtension)] + ckptExtension
}

func (c *checkpointer) header(ws []*work, st *solveState, crc uint32) []byte {
	buf := make([]byte, ckptHeaderSize)
	le := binary.LittleEndian
	copy(buf, ckptMagic)
	le.PutUint16(buf[8:], ckptVersion)
	le.PutUint16(buf[10:], cellLayout)
	p := c.params
	buf[12], buf[13], buf[14], buf[15], buf[16] = b2u(p.Diagonal), byte(p.Fly), byte(p.MinPieces), b2u(p.RemoveFromMills), b2u(p.RemoveMultiple)
	buf[17], buf[18], buf[19] = byte(c.metric), byte(c.m), byte(c.o)
	for i, w := range ws {
		le.PutUint64(buf[24+8*i:], uint64(w.sec.size))
		le.PutUint32(buf[40+4*i:], st.initDone[i])
	}
	le.PutUint32(buf[48:], uint32(st.nextPly))
	le.PutUint32(buf[52:], uint32(st.hi))
	le.PutUint32(buf[56:], uint32(st.maxCnt))
	le.PutUint32(buf[60:], crc)
	le.PutUint32(buf[124:], crc32.Checksum(buf[:124], castagnoli))
	return buf
}

// maybeSave writes a checkpoint if the interval has passed since the last.
func (c *checkpointer) maybeSave(ws []*work, st *solveState) error {
	if time.Since(c.last) < c.every {
		return nil
	}
	start := time.Now()
	var crc uint32
	size := 0
	for _, w := range ws {
		crc = crc32.Update(crc, castagnoli, bytesOf(w.cells))
		size += 4 * len(w.cells)
	}
	err := writeAtomic(c.path, func(f *os.File) error {
		if _, err := f.Write(c.header(ws, st, crc)); err != nil {
			return err
		}
		for _, w := range ws {
			if _, err := f.Write(bytesOf(w.cells)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("egtb: checkpoint %s: %w", c.path, err)
	}
	c.last = time.Now()
	c.saved++
	c.note(fmt.Sprintf("checkpoint %s: %s, %.0f MB in %.1f s", filepath.Base(c.path), st.String(), float64(size)/(1<<20), time.Since(start).Seconds()))
	return nil
}

// String says how far a solve has come.
func (st *solveState) String() string {
	if st.nextPly > 0 {
		return fmt.Sprintf("retrograde plies 0–%d done", st.nextPly-1)
	}
	return fmt.Sprintf("init %d+%d slots done", st.initDone[0], st.initDone[1])
}

// resume loads the pair's checkpoint into ws and st if there is one that
// matches; a checkpoint that does not is removed with a note, and the solve
// starts afresh. The interval counts from now.
func (c *checkpointer) resume(ws []*work, st *solveState) {
	c.last = time.Now()
	f, err := os.Open(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err == nil {
		err = c.read(f, ws, st)
		f.Close()
	}
	if err != nil {
		*st = solveState{}
		os.Remove(c.path)
		c.note(fmt.Sprintf("checkpoint %s refused (%v): solving the pair from the start", filepath.Base(c.path), err))
		return
	}
	c.note(fmt.Sprintf("checkpoint %s: going on after %s", filepath.Base(c.path), st.String()))
}

// read checks the checkpoint in f against the pair and loads it.
func (c *checkpointer) read(f *os.File, ws []*work, st *solveState) error {
	buf := make([]byte, ckptHeaderSize)
	if _, err := io.ReadFull(f, buf); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	le := binary.LittleEndian
	switch {
	case string(buf[:8]) != ckptMagic:
		return fmt.Errorf("bad magic %q", buf[:8])
	case le.Uint32(buf[124:]) != crc32.Checksum(buf[:124], castagnoli):
		return errors.New("header checksum mismatch")
	case le.Uint16(buf[8:]) != ckptVersion || le.Uint16(buf[10:]) != cellLayout:
		return fmt.Errorf("format %d, cell layout %d (this build writes %d, %d)", le.Uint16(buf[8:]), le.Uint16(buf[10:]), ckptVersion, cellLayout)
	}
	var s solveState
	for i, w := range ws {
		if le.Uint64(buf[24+8*i:]) != uint64(w.sec.size) {
			return fmt.Errorf("sector %s has %d slots, the checkpoint %d", w.sec.name(), w.sec.size, le.Uint64(buf[24+8*i:]))
		}
		s.initDone[i] = le.Uint32(buf[40+4*i:])
		if s.initDone[i] > w.sec.size {
			return fmt.Errorf("init done %d of %d slots", s.initDone[i], w.sec.size)
		}
	}
	s.nextPly, s.hi, s.maxCnt = int(le.Uint32(buf[48:])), int(le.Uint32(buf[52:])), int(le.Uint32(buf[56:]))
	want := c.header(ws, &s, le.Uint32(buf[60:]))
	if string(want) != string(buf) {
		return fmt.Errorf("made for another pair, other rules or another metric")
	}
	if s.nextPly > 0 && (s.initDone[0] != ws[0].sec.size || s.initDone[len(ws)-1] != ws[len(ws)-1].sec.size) {
		return errors.New("retrograde plies done before the init")
	}
	var crc uint32
	for _, w := range ws {
		b := bytesOf(w.cells)
		if _, err := io.ReadFull(f, b); err != nil {
			return fmt.Errorf("cells of %s: %w", w.sec.name(), err)
		}
		crc = crc32.Update(crc, castagnoli, b)
	}
	if n, _ := f.Read(buf[:1]); n != 0 {
		return errors.New("too long")
	}
	if crc != le.Uint32(buf[60:]) {
		return errors.New("cells checksum mismatch")
	}
	for _, w := range ws {
		w.rebuildPlies()
	}
	*st = s
	return nil
}

// remove deletes the checkpoint once the pair's tables are written.
func (c *checkpointer) remove() {
	if err := os.Remove(c.path); err == nil {
		syncDir(filepath.Dir(c.path))
	}
}

// syncDir flushes a directory's entries (a rename in it) to the disk.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
