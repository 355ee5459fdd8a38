package main

import (
	"fmt"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/progress"
)

// The packed form of the tables (egtb pack, egtb unpack): every table
// compressed in blocks that the engine probes without unpacking (see
// internal/egtb/packedfile.go), for disks and transfers too small for the
// plain files.

// egtbPack implements 'millengine egtb pack'.
func egtbPack(e *env, args []string) int {
	var dir, out string
	var threads int
	var codec string
	fs := e.egtbFlags("pack", "pack [--dir D] --out P [--threads T] [--codec ranked|zstd|s2]",
		"Writes the packed form of every table file in D into P (\"NAME.egtbz\" for \"NAME.egtb\"):\n"+
			"4 KB blocks compressed one by one, which the engine, EGTBPath and every egtb\n"+
			"command read as they read the plain files. Each plain file is checked whole first; a\n"+
			"packed file already in P of the same table is kept, so a stopped pack goes on.",
		&dir, nil)
	fs.StringVar(&out, "out", "", "the directory of the packed files (made if missing)")
	fs.IntVar(&threads, "threads", 0, "threads compressing (0: one per CPU)")
	fs.StringVar(&codec, "codec", "ranked", "ranked (a probe decodes 256 bytes), zstd (files 5-20% smaller, a probe decodes 4 KB) or s2 (files 1.5-1.8 times zstd's)")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if out == "" {
		return e.usageError("egtb pack", "want --out, the directory of the packed files")
	}
	var plain, packed int64
	err := egtb.PackDir(e.ctx, dir, out, egtb.PackOptions{Threads: threads, Codec: codec}, func(r egtb.PackReport) {
		plain += r.PlainBytes
		packed += r.Bytes
		note := progress.Seconds(r.Elapsed)
		if r.Existing {
			note = "there already"
		}
		fmt.Fprintf(e.stdout, "%s: %d → %d bytes (%.1f%%), %s\n", r.Dst, r.PlainBytes, r.Bytes, percent(r.Bytes, r.PlainBytes), note)
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine egtb pack: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "packed %d → %d bytes (%.1f%%) in %s\n", plain, packed, percent(packed, plain), out)
	return 0
}

// egtbUnpack implements 'millengine egtb unpack'.
func egtbUnpack(e *env, args []string) int {
	var dir, out string
	fs := e.egtbFlags("unpack", "unpack [--dir P] --out D",
		"Writes the plain table file of every packed file in P into D, byte for byte the file that\n"+
			"was packed (its header, and its data checked against the header's checksum).",
		&dir, nil)
	fs.StringVar(&out, "out", "", "the directory of the plain files (made if missing)")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if out == "" {
		return e.usageError("egtb unpack", "want --out, the directory of the plain files")
	}
	var plain int64
	err := egtb.UnpackDir(e.ctx, dir, out, func(r egtb.PackReport) {
		plain += r.PlainBytes
		note := progress.Seconds(r.Elapsed)
		if r.Existing {
			note = "there already"
		}
		fmt.Fprintf(e.stdout, "%s: %d bytes, %s\n", r.Dst, r.PlainBytes, note)
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "millengine egtb unpack: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "unpacked %d bytes into %s\n", plain, out)
	return 0
}

func percent(a, b int64) float64 { return 100 * float64(a) / float64(max(b, 1)) }
