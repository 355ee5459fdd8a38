package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/rules"
)

// malomVariants maps a rule preset to Malom's database of it.
var malomVariants = map[string]malom.Variant{
	"nine-mens-morris": malom.Standard,
	"morabaraba":       malom.Morabaraba,
	"lasker-morris":    malom.Lasker,
}

func egtbCompare(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	var dir, variant string
	fs := e.egtbFlags("compare", "compare --malom DIR [--dir D] [--variant V] [--sector W_B_WF_BF ...] [--show N]",
		"Compares every entry of Malom's sector files in --malom (its .secval and W_B_WF_BF.sec2\n"+
			"files, as Sanmill's perfect database reads them) with the tables in --dir, win, draw or\n"+
			"loss for the side to move, and prints per sector the entries, those compared (both hold\n"+
			"the position), equal and different, and the first differences as FENs. Sectors the tables\n"+
			"do not hold are listed as skipped. Exits 1 if any entry differs.",
		&dir, &variant)
	malomDir := fs.String("malom", "", "the directory of Malom's files (required)")
	sectors := fs.StringSlice("sector", nil, "compare only these sectors, W_B_WF_BF or MvO (repeat or comma-separate)")
	show := fs.Int("show", 5, "differences to show per sector")
	if c := e.parseEGTB(fs, args, &dir); c >= 0 {
		return c
	}
	if *malomDir == "" {
		return e.usageError("egtb compare", "--malom is required")
	}
	preset, err := variantRules(variant)
	if err != nil {
		return e.usageError("egtb compare", err.Error())
	}
	key := variantKey(variant)
	mv, ok := malomVariants[key]
	if !ok {
		return e.usageError("egtb compare", fmt.Sprintf("--variant %s: Malom solved nine-mens-morris, morabaraba and lasker-morris", variant))
	}
	only, err := sectorSpecs(*sectors)
	if err != nil {
		return e.usageError("egtb compare", err.Error())
	}
	db, err := malom.Open(*malomDir, mv)
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb compare: %v\n", err)
		return 1
	}
	defer db.Close()
	tb, err := egtb.Open(dir, &preset)
	if err != nil {
		fmt.Fprintf(stderr, "millengine egtb compare: %v\n", err)
		return 1
	}
	defer tb.Close()
	var ids []malom.SectorID
	for _, id := range db.SecVals().Sectors() {
		s := egtb.SectorSpec{M: id.W, O: id.B, MF: id.WF, OF: id.BF}
		if db.Has(id) && (len(only) == 0 || slices.Contains(only, s)) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		fmt.Fprintf(stderr, "millengine egtb compare: no sector files of %s in %s\n", mv.Prefix, *malomDir)
		return 1
	}
	var tot malom.CompareReport
	code := 0
	for _, id := range ids {
		s := egtb.SectorSpec{M: id.W, O: id.B, MF: id.WF, OF: id.BF}
		name := filepath.Join(*malomDir, mv.SectorName(id))
		if !tb.Has(s) {
			fmt.Fprintf(stdout, "%s: skipped, sector %s is not in %s\n", filepath.Base(name), s, dir)
			continue
		}
		sec, err := db.Sector(id)
		if err != nil {
			fmt.Fprintf(stderr, "millengine egtb compare: %v\n", err)
			code = 1
			continue
		}
		r := malom.CompareSector(sec, tb.Result)
		fmt.Fprintf(stdout, "%s: %d entries, %d compared, %d equal, %d different", filepath.Base(name), r.Entries, r.Compared, r.Equal, r.Different)
		if r.Skipped > 0 {
			fmt.Fprintf(stdout, ", %d not in the tables", r.Skipped)
		}
		if r.Broken > 0 {
			fmt.Fprintf(stdout, ", %d unreadable (%v)", r.Broken, r.Err)
		}
		fmt.Fprintln(stdout)
		for i, d := range r.First {
			if i >= *show {
				break
			}
			fmt.Fprintf(stdout, "  %s: Malom %s, ours %s\n", d.FEN(), d.Malom.WDL, d.Ours)
		}
		if r.Different > 0 || r.Broken > 0 {
			code = 1
		}
		tot.Entries += r.Entries
		tot.Compared += r.Compared
		tot.Equal += r.Equal
		tot.Different += r.Different
	}
	fmt.Fprintf(stdout, "total: %d entries, %d compared, %d equal, %d different\n", tot.Entries, tot.Compared, tot.Equal, tot.Different)
	return code
}

// variantKey returns the preset key of a --variant value (its key or its
// name).
func variantKey(name string) string {
	if p, ok := rules.PresetByName(name); ok {
		return p.Key
	}
	return name
}
