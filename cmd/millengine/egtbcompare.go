package main

import (
	"fmt"

	"github.com/millengine/millengine/internal/egtb"
	"github.com/millengine/millengine/internal/egtb/report"
	"github.com/millengine/millengine/internal/malom"
	"github.com/millengine/millengine/internal/perfect"
	"github.com/millengine/millengine/internal/rules"
)

func egtbCompare(e *env, args []string) int {
	var dir, variant string
	fs := e.egtbFlags("compare", "compare --malom DIR [--dir D] [--variant V] [--sector W_B_WF_BF ...] [--show N]",
		"Compares every entry of Malom's sector files in --malom (its .secval and W_B_WF_BF.sec2\n"+
			"files, as Sanmill's perfect database reads them) with the tables in --dir, win, draw or\n"+
			"loss for the side to move, and prints per sector the entries, those compared (both hold\n"+
			"the position), equal and different, and the first differences as FENs. A sector the tables\n"+
			"do not hold (Morabaraba's and Lasker's beyond 9 pieces) is checked against Malom's own\n"+
			"values one ply down instead: each entry whose actions all lead to sectors present must be\n"+
			"the best of them, found with the engine's move generator. --variant morabaraba compares\n"+
			"under Malom's Morabaraba, one removal a turn (MayRemoveMultiple off). Exits 1 if any entry\n"+
			"differs.",
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
	if variantKey(variant) == "morabaraba" {
		preset.MayRemoveMultiple = false // Malom's game: see perfect.VariantOf
	}
	mv, ok := report.MalomVariant(variantKey(variant))
	if !ok {
		return e.usageError("egtb compare", fmt.Sprintf("--variant %s: Malom solved nine-mens-morris, morabaraba and lasker-morris", variant))
	}
	only, err := sectorSpecs(*sectors)
	if err != nil {
		return e.usageError("egtb compare", err.Error())
	}
	db, err := malom.Open(*malomDir, mv)
	if err != nil {
		return e.fail("egtb compare", err)
	}
	defer db.Close()
	tb, err := egtb.Open(dir, &preset)
	if err != nil {
		return e.fail("egtb compare", err)
	}
	defer tb.Close()
	children, err := perfect.Open(*malomDir, &preset)
	if err != nil {
		return e.fail("egtb compare", err)
	}
	defer children.Close()
	o := report.CompareOptions{Dir: dir, Only: only, Show: *show, Warn: e.warn("egtb compare"), Children: children, Rules: &preset}
	return e.reported("egtb compare", report.Compare(e.stdout, db, tb, o))
}

// variantKey returns the preset key of a --variant value (its key or its
// name).
func variantKey(name string) string {
	if p, ok := rules.PresetByName(name); ok {
		return p.Key
	}
	return name
}
