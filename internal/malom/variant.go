package malom

import (
	"fmt"
	"strconv"
	"strings"
)

// Variant is one of the rule sets Malom solved; it names the files and bounds
// the piece counts. The index and the file format are the same for all three.
type Variant struct {
	Prefix   string // file name prefix: "std", "mora" or "lask"
	Pieces   int    // pieces per side
	Diagonal bool   // the board with the four corner diagonals
	// MoveWhilePlacing: a side with pieces in hand may also slide (Lasker).
	MoveWhilePlacing bool
}

// The three variants of Malom's database.
var (
	// Standard is Nine Men's Morris.
	Standard = Variant{Prefix: "std", Pieces: 9}
	// Morabaraba is played with 12 pieces on the board with diagonals.
	Morabaraba = Variant{Prefix: "mora", Pieces: 12, Diagonal: true}
	// Lasker is played with 10 pieces; a side may slide while it still has
	// pieces in hand.
	Lasker = Variant{Prefix: "lask", Pieces: 10, MoveWhilePlacing: true}
)

// Variants lists the known variants.
var Variants = []Variant{Standard, Morabaraba, Lasker}

// VariantByPrefix returns the variant whose files start with prefix.
func VariantByPrefix(prefix string) (Variant, bool) {
	for _, v := range Variants {
		if v.Prefix == prefix {
			return v, true
		}
	}
	return Variant{}, false
}

// SecvalName returns the name of the variant's sector value file.
func (v Variant) SecvalName() string { return v.Prefix + ".secval" }

// SectorName returns the file name of a sector of the variant.
func (v Variant) SectorName(id SectorID) string {
	return fmt.Sprintf("%s_%d_%d_%d_%d.sec2", v.Prefix, id.W, id.B, id.WF, id.BF)
}

// MaxPieces bounds every piece count in a sector id (Morabaraba's 12).
const MaxPieces = 12

// SectorID names a sector: W and WF are the pieces on the board and in hand
// of the side to move, B and BF those of the other side.
type SectorID struct {
	W, B, WF, BF int
}

// String returns the id as in the file names: "W_B_WF_BF".
func (id SectorID) String() string {
	return fmt.Sprintf("%d_%d_%d_%d", id.W, id.B, id.WF, id.BF)
}

// Valid reports whether every count is in 0–MaxPieces and the pieces fit
// on the board.
func (id SectorID) Valid() bool {
	for _, n := range [4]int{id.W, id.B, id.WF, id.BF} {
		if n < 0 || n > MaxPieces {
			return false
		}
	}
	return id.W+id.B <= 24
}

// Moving reports whether the sector belongs to the moving phase (no piece in
// hand on either side).
func (id SectorID) Moving() bool { return id.WF == 0 && id.BF == 0 }

// ParseSectorName reads a sector file name such as "std_3_4_0_0.sec2" (a
// base name, without directory).
func ParseSectorName(name string) (Variant, SectorID, error) {
	base, ok := strings.CutSuffix(name, ".sec2")
	if !ok {
		return Variant{}, SectorID{}, fmt.Errorf("sector file name %q does not end in .sec2", name)
	}
	f := strings.Split(base, "_")
	if len(f) != 5 {
		return Variant{}, SectorID{}, fmt.Errorf("sector file name %q: want <prefix>_W_B_WF_BF.sec2", name)
	}
	v, ok := VariantByPrefix(f[0])
	if !ok {
		return Variant{}, SectorID{}, fmt.Errorf("sector file name %q: unknown variant prefix %q", name, f[0])
	}
	var n [4]int
	for i := range n {
		x, err := strconv.Atoi(f[i+1])
		if err != nil {
			return Variant{}, SectorID{}, fmt.Errorf("sector file name %q: count %q is not a number", name, f[i+1])
		}
		n[i] = x
	}
	id := SectorID{n[0], n[1], n[2], n[3]}
	if !id.Valid() {
		return Variant{}, SectorID{}, fmt.Errorf("sector file name %q: counts out of range", name)
	}
	return v, id, nil
}
