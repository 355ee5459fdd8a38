package egtb

// SectorInfo describes a loaded sector file.
type SectorInfo struct {
	Spec   SectorSpec
	Metric Metric
	Path   string
	Size   int64      // file size in bytes (the packed file's for a packed table)
	Header SolveStats // the counts recorded by the build
	CRC    uint32     // the data checksum recorded by the build
}

// table returns the loaded table of sector s and the metric, or nil.
func (t *Tables) table(s SectorSpec, m Metric) *table {
	switch m {
	case DTZ:
		return t.lookupDTZ(s.M, s.O)
	case WDL:
		return t.placingTable(s)
	}
	return t.lookup(s.M, s.O)
}

// Info describes a loaded sector's DTM table.
func (t *Tables) Info(s SectorSpec) (SectorInfo, bool) { return t.InfoOf(s, DTM) }

// InfoOf describes a loaded sector's table of the metric.
func (t *Tables) InfoOf(s SectorSpec, m Metric) (SectorInfo, bool) {
	return t.table(s, m).info(s, m)
}

// info is InfoOf of a loaded table t, false when t is nil.
func (t *table) info(s SectorSpec, m Metric) (SectorInfo, bool) {
	if t == nil {
		return SectorInfo{}, false
	}
	return SectorInfo{Spec: s, Metric: m, Path: t.path, Size: t.size, Header: t.hdr.stats, CRC: t.hdr.crc}, true
}

// headerOf is InfoOf without the check of a table's data that its first
// use makes: what a table's header says, for VerifyDir to decide before
// reading the table whether to check it.
func (t *Tables) headerOf(s SectorSpec, m Metric) (SectorInfo, bool) {
	if m == WDL && (s.MF-s.OF < 0 || s.MF-s.OF > 1) {
		return SectorInfo{}, false
	}
	return (*t.slotOf(s, m)).info(s, m)
}

// SectorStats counts a loaded sector's DTM values from its data: every raw
// placement (each stored position weighted by the size of its orbit under
// the symmetries), no pending removals.
func (t *Tables) SectorStats(s SectorSpec) SolveStats { return t.SectorStatsOf(s, DTM) }

// SectorStatsOf counts a loaded sector's values of the metric from its data.
// A packed table not decoded whole yet is decoded for the count and not
// kept (egtb stats reads every table once).
func (t *Tables) SectorStatsOf(s SectorSpec, m Metric) SolveStats {
	tb := t.table(s, m)
	if tb == nil {
		return SolveStats{}
	}
	var st SolveStats
	err := tb.withAll(func(data []byte) {
		if m == WDL {
			st = sectorStatsWDL(tb.sec, data)
		} else {
			st = sectorStats(tb.sec, data)
		}
	})
	if err != nil {
		t.noteDamaged(err)
	}
	return st
}
