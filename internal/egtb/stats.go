package egtb

// SectorInfo describes a loaded sector file.
type SectorInfo struct {
	Spec   SectorSpec
	Path   string
	Size   int64      // file size in bytes
	Header SolveStats // the counts recorded by the build
}

// Info describes a loaded sector.
func (t *Tables) Info(s SectorSpec) (SectorInfo, bool) {
	tb := t.lookup(s.M, s.O)
	if tb == nil {
		return SectorInfo{}, false
	}
	return SectorInfo{Spec: s, Path: tb.path, Size: int64(headerSize + len(tb.data)), Header: tb.hdr.stats}, true
}

// SectorStats counts a loaded sector's values from its data: every raw
// placement (each stored position weighted by the size of its orbit under
// the symmetries), no pending removals.
func (t *Tables) SectorStats(s SectorSpec) SolveStats {
	tb := t.lookup(s.M, s.O)
	if tb == nil {
		return SolveStats{}
	}
	return sectorStats(tb.sec, tb.data)
}
