package egtb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/millengine/millengine/internal/testkit"
)

// A pair whose build is interrupted after it wrote checkpoints goes on from
// the last one and gives the same files, byte for byte, as a build that was
// never interrupted, whether the interrupt came in the init pass or in the
// retrograde pass; the checkpoint is gone once the pair is written. A
// checkpoint that does not match is refused and the pair solved afresh.
func TestCheckpointResume(t *testing.T) {
	// Without flying the 3v4 pair solves in well under a second, with many
	// plies; under the race detector the smaller 3v3.
	p, maxPieces, pair := Params{MinPieces: 3}, 7, SectorSpec{M: 3, O: 4}
	if testkit.Race || testing.Short() {
		maxPieces, pair = 6, SectorSpec{M: 3, O: 3}
	}
	ref := t.TempDir()
	buildTest(t, ref, p, maxPieces)
	refBytes := func(s SectorSpec, m Metric) []byte {
		b, err := os.ReadFile(filepath.Join(ref, fileName(p, s, m)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ckpt := ckptName(p, pair, DTM)
	// Small init segments: a checkpoint comes in the middle of the init of
	// even the smallest sector.
	old := initSegment
	initSegment = 1 << 14
	defer func() { initSegment = old }()
	for _, stop := range []string{"init", "retrograde ply 3"} {
		t.Run(stop, func(t *testing.T) {
			dir := t.TempDir()
			// The smaller sectors, from the reference build.
			for _, j := range p.Plan(maxPieces) {
				if j.Sectors[0] == pair {
					continue
				}
				for _, s := range j.Sectors {
					for _, m := range j.Metrics {
						name := fileName(p, s, m)
						if err := os.WriteFile(filepath.Join(dir, name), refBytes(s, m), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			var notes []string
			opts := BuildOptions{Dir: dir, Params: p, MaxPieces: maxPieces, Threads: 2, CheckpointEvery: time.Nanosecond,
				Warn: func(s string) { notes = append(notes, s) },
				Progress: func(ph string, done, total uint64) {
					if strings.Contains(ph, stop) && strings.HasPrefix(ph, pair.String()) {
						if _, err := os.Stat(filepath.Join(dir, ckpt)); err == nil {
							cancel()
						}
					}
				}}
			_, err := Build(ctx, opts, func(SectorReport) {})
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Checkpoint != filepath.Join(dir, ckpt) {
				t.Fatalf("error %v, want an interrupt with the checkpoint %s", err, ckpt)
			}
			if !strings.Contains(err.Error(), "the next build goes on from") {
				t.Errorf("error %q", err)
			}
			notes = nil
			opts.Progress = nil
			var reps []SectorReport
			tb, err := Build(context.Background(), opts, func(r SectorReport) { reps = append(reps, r) })
			if err != nil {
				t.Fatal(err)
			}
			tb.Close()
			if len(notes) == 0 || !strings.Contains(notes[0], "going on after") {
				t.Errorf("notes of the resumed build: %q", notes)
			}
			for _, j := range p.Plan(maxPieces) {
				for _, s := range j.Sectors {
					for _, m := range j.Metrics {
						got, err := os.ReadFile(filepath.Join(dir, fileName(p, s, m)))
						if err != nil || !bytes.Equal(got, refBytes(s, m)) {
							t.Errorf("%s %s: differs from the uninterrupted build (%v)", s, m, err)
						}
					}
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*"+ckptExtension+"*")); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
			for _, r := range reps {
				if !r.Existing && r.Checkpoints == 0 {
					t.Errorf("%s %s: no checkpoint written at every step", r.Spec, r.Metric)
				}
			}
		})
	}
}

// A checkpoint of another pair, a damaged one or a truncated one is refused
// with a note, removed, and the pair is solved from the start.
func TestCheckpointRefused(t *testing.T) {
	p := Params{MinPieces: 3}
	sec := newSector(3, 3)
	w, err := newWork(sec)
	if err != nil {
		t.Fatal(err)
	}
	defer w.release()
	for i := range w.cells {
		w.cells[i] = uint32(i * 7)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, ckptName(p, SectorSpec{M: 3, O: 3}, DTZ))
	var notes []string
	c := &checkpointer{path: path, note: func(s string) { notes = append(notes, s) }, params: p, metric: DTZ, m: 3, o: 3}
	st := solveState{initDone: [2]uint32{sec.size}, nextPly: 5, hi: 9, maxCnt: 17}
	if err := c.maybeSave([]*work{w}, &st); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The good one reads back.
	w2, _ := newWork(sec)
	defer w2.release()
	var back solveState
	c.resume([]*work{w2}, &back)
	if back != st || !bytes.Equal(bytesOf(w2.cells), bytesOf(w.cells)) {
		t.Fatalf("read back %+v, want %+v (cells equal %t)", back, st, bytes.Equal(bytesOf(w2.cells), bytesOf(w.cells)))
	}
	bad := map[string]func([]byte) []byte{
		"a data byte": func(b []byte) []byte { b[ckptHeaderSize+10] ^= 1; return b },
		"the header":  func(b []byte) []byte { b[50] ^= 1; return b },
		"truncated":   func(b []byte) []byte { return b[:len(b)-1] },
		"too long":    func(b []byte) []byte { return append(b, 0) },
		"not ours":    func(b []byte) []byte { copy(b, "MILLEGTB"); return b },
		"another layout": func(b []byte) []byte {
			b[10]++
			return fixHeaderCRC(b)
		},
		"another metric": func(b []byte) []byte {
			b[17] = byte(DTM)
			return fixHeaderCRC(b)
		},
	}
	for name, f := range bad {
		if err := os.WriteFile(path, f(append([]byte(nil), good...)), 0o644); err != nil {
			t.Fatal(err)
		}
		notes = nil
		var s solveState
		c.resume([]*work{w2}, &s)
		if s != (solveState{}) || len(notes) != 1 || !strings.Contains(notes[0], "refused") {
			t.Errorf("%s: state %+v, notes %q", name, s, notes)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: the refused checkpoint is still there", name)
		}
	}
}

// fixHeaderCRC recomputes a checkpoint header's checksum after a change.
func fixHeaderCRC(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[124:], crc32.Checksum(b[:124], castagnoli))
	return b
}

// A verify's part is the slots below its first unfinished chunk, whatever
// order the threads finish the chunks in; it is reported only while no
// mismatch has been found, and it counts the checks of an earlier run.
func TestVerifyPartTracker(t *testing.T) {
	var got []VerifyPart
	start := VerifyPart{Upto: 2 * chunk, Checked: 100, Elapsed: time.Minute}
	p := newPartTracker(2*chunk, 6*chunk+5, VerifyOptions{Start: start, CheckpointEvery: time.Nanosecond,
		Part: func(part VerifyPart) { got = append(got, part) }})
	p.last = time.Time{}      // every chunk may report
	p.done(4*chunk, 7, false) // the third chunk first: nothing below it finished yet
	p.done(2*chunk, 11, false)
	p.done(3*chunk, 13, false)
	p.done(6*chunk, 2, true) // the last, with a mismatch: not reported
	p.done(5*chunk, 3, false)
	want := []VerifyPart{{Upto: 3 * chunk, Checked: 111}, {Upto: 5 * chunk, Checked: 131}}
	if len(got) != len(want) {
		t.Fatalf("parts %+v, want %+v", got, want)
	}
	for i, g := range got {
		if g.Upto != want[i].Upto || g.Checked != want[i].Checked || g.Elapsed < time.Minute {
			t.Errorf("part %d: %+v, want %+v and at least a minute", i, g, want[i])
		}
	}
}

// Updates applied whenever a thread's buffer of 16 fills, many times in
// each ply's scan (updateBuf), give the same files, byte for byte, as
// buffers that hold a ply's updates: neither the order of a ply's updates
// nor their delay changes what the ply leaves.
func TestUpdateBufferFills(t *testing.T) {
	p, maxPieces := Params{MinPieces: 3}, 7
	if testkit.Race || testing.Short() {
		maxPieces = 6
	}
	ref, small := t.TempDir(), t.TempDir()
	buildTest(t, ref, p, maxPieces)
	old := maxUpdateBuf
	maxUpdateBuf = 16
	defer func() { maxUpdateBuf = old }()
	buildTest(t, small, p, maxPieces)
	n := 0
	for _, j := range p.Plan(maxPieces) {
		for _, s := range j.Sectors {
			for _, m := range j.Metrics {
				want, err := os.ReadFile(filepath.Join(ref, fileName(p, s, m)))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(small, fileName(p, s, m)))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s %s: differs from the build with a ply's updates in a buffer (%v)", s, m, err)
				}
				n++
			}
		}
	}
	if want := map[int]int{6: 2, 7: 6}[maxPieces]; n != want {
		t.Errorf("%d files compared, want %d", n, want)
	}
}
