package position

import bb "github.com/millengine/millengine/internal/bitboard"

// Accessors that only the tests of this directory need.

// FormedMills returns the union of the lines c has used (OneTimeUseMill).
func (p *Position) FormedMills(c Color) bb.Bitboard { return p.formed[c] }

// LastMill returns the origin and destination of c's last mill-closing slide
// (RestrictRepeatedMillsFormation), or NoSquare.
func (p *Position) LastMill(c Color) (from, to bb.Square) { return p.millFrom[c], p.millTo[c] }
