package egtb

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
	"github.com/millengine/millengine/internal/testkit"
)

// The placing sectors of Nine Men's Morris are Malom's: 449 of them, which
// with the 49 of the moving phase make the 498 of its database, each after
// the sectors it needs.
func TestPlacingSectors(t *testing.T) {
	all := Standard.PlacingSectors(9, 18)
	if len(all) != 449 {
		t.Fatalf("%d placing sectors, want 449", len(all))
	}
	if n := len(Standard.GameSectors(9, 18)); n != 498 {
		t.Errorf("%d sectors of the whole game, want 498", n)
	}
	seen := map[SectorSpec]bool{}
	for _, s := range Standard.Sectors(18) {
		seen[s] = true
	}
	for _, s := range all {
		for _, n := range Standard.placingNeeds(s) {
			if !seen[n] {
				t.Errorf("%s needs %s, which comes later or not at all", s, n)
			}
		}
		seen[s] = true
	}
	// Malom's list holds these (std.secval), and not the others.
	for _, name := range []string{"0_0_9_9", "0_1_9_8", "1_1_8_8", "1_3_7_6", "0_1_3_2", "2_4_6_5", "8_8_1_1", "8_9_1_0", "2_9_1_0"} {
		s, err := ParseSectorSpec(name)
		if err != nil || !slices.Contains(all, s) {
			t.Errorf("%s: %v, in the list %t", name, err, slices.Contains(all, s))
		}
	}
	for _, name := range []string{"0_0_8_8", "3_0_6_6", "1_9_1_0", "9_8_1_1", "2_0_1_0"} {
		if s, _ := ParseSectorSpec(name); slices.Contains(all, s) {
			t.Errorf("%s is in the list, Malom has no such sector", name)
		}
	}
	if got := fmt.Sprint(all[0], all[len(all)-1]); got != "2_3_1_0 0_0_9_9" {
		t.Errorf("first and last sectors %s, want 2_3_1_0 0_0_9_9", got)
	}
	// Up to 8 pieces on the board and in hand: what the tests build.
	if got := len(Standard.GameSectors(9, 8)); got != 6+34 {
		t.Errorf("%d sectors up to 8 pieces, want 6 moving + 34 placing (Malom's up to 8 pieces)", got)
	}
}

var (
	gameOnce sync.Once
	gameDir  string
	gameErr  error
)

// gamePieces is the most pieces of the game's sectors the tests build: 7
// (the moving sectors 3v3, 3v4 and 4v3, and Malom's 16 placing sectors left
// after many removals), 6 under the race detector (3v3 and 5 placing
// sectors: 3v4 and 4v3 take minutes there).
var gamePieces = map[bool]int{false: 7, true: 6}[testkit.Race]

// gameTables builds the whole game of Nine Men's Morris up to gamePieces
// pieces on the board and in hand once for the run.
func gameTables(t *testing.T) *Tables {
	t.Helper()
	gameOnce.Do(func() {
		gameDir = filepath.Join(os.TempDir(), "millengine-egtb-game-"+strconv.Itoa(gamePieces)+"-"+strconv.Itoa(os.Getuid()))
		var tb *Tables
		tb, gameErr = Build(context.Background(), BuildOptions{Dir: gameDir, Params: Standard, MaxPieces: gamePieces, Pieces: 9, Threads: 2}, func(SectorReport) {})
		if gameErr == nil {
			tb.Close()
		}
	})
	if gameErr != nil {
		t.Fatal(gameErr)
	}
	tb, err := OpenParams(gameDir, Standard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// Every entry of every placing sector up to gamePieces equals what its
// placements give by the engine's own rules code, and the counts equal the
// header's.
func TestPlacingVerify(t *testing.T) {
	tb := gameTables(t)
	placing := 0
	for _, s := range tb.Sectors() {
		if !s.Placing() || s.Pieces() > gamePieces {
			continue // the directory is shared: another run may have built more
		}
		placing++
		res, err := tb.Verify(context.Background(), s, VerifyOptions{Metric: WDL, Threads: 2, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		info, _ := tb.InfoOf(s, WDL)
		if res.Bad != 0 || res.Checked != s.Slots() {
			t.Errorf("%s: %d of %d slots wrong (checked %d): %v", s, res.Bad, s.Slots(), res.Checked, res.First)
		}
		if got := tb.SectorStatsOf(s, WDL); got != info.Header {
			t.Errorf("%s: counts %+v, header %+v", s, got, info.Header)
		}
	}
	if want := map[int]int{6: 5, 7: 16}[gamePieces]; placing != want {
		t.Errorf("%d placing sectors, want %d", placing, want)
	}
}

// Results written whenever a thread's buffer of 16 fills (codeBuf), many
// times in each sector's pass, give every placing sector up to gamePieces
// the same data, byte for byte, as the build's: the order and the delay of
// the writes change nothing.
func TestCodeBufferFills(t *testing.T) {
	tb := gameTables(t)
	old := maxCodeBuf
	maxCodeBuf = 16
	defer func() { maxCodeBuf = old }()
	n := 0
	for _, s := range tb.Sectors() {
		if !s.Placing() || s.Pieces() > gamePieces {
			continue
		}
		views, err := tb.childViews(Standard.placingNeeds(s), 2)
		if err != nil {
			t.Fatal(err)
		}
		data, st, err := solvePlacing(context.Background(), placingJob{p: Standard, s: s, threads: 2,
			look: func(n SectorSpec) *wdlView { return views[n] }})
		if err != nil {
			t.Fatal(err)
		}
		if want := tb.placingTable(s).all(); !bytes.Equal(data, want) {
			t.Errorf("%s: %d bytes differ from the build's %d", s, len(data), len(want))
		}
		if info, _ := tb.InfoOf(s, WDL); st.Wins != info.Header.Wins || st.Draws != info.Header.Draws || st.Losses != info.Header.Losses {
			t.Errorf("%s: counts %+v, header %+v", s, st, info.Header)
		}
		n++
	}
	if want := map[int]int{6: 5, 7: 16}[gamePieces]; n != want {
		t.Errorf("%d placing sectors solved, want %d", n, want)
	}
}

// A damaged entry is found: a flipped code in a placing table fails its
// verify at that slot.
func TestPlacingVerifyFindsDamage(t *testing.T) {
	tb := gameTables(t)
	s := SectorSpec{M: 2, O: 2, MF: 1, OF: 1}
	orig := tb.placingTable(s)
	data := append([]byte(nil), orig.data...)
	copyTab := orig.copyWith(data)
	// The first used slot whose code is a draw, made a win.
	var slot uint32
	for i := uint32(0); i < orig.sec.size; i++ {
		if code2(data, i) == codeDraw {
			slot = i
			data[i>>2] |= codeWin << ((i & 3) * 2)
			break
		}
	}
	tb.place[s.M][s.O][s.OF][s.MF-s.OF] = copyTab
	defer func() { tb.place[s.M][s.O][s.OF][s.MF-s.OF] = orig }()
	res, err := tb.Verify(context.Background(), s, VerifyOptions{Metric: WDL, Threads: 1, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bad != 1 || len(res.First) != 1 || res.First[0].Slot != slot || res.First[0].Stored != "win" || res.First[0].Computed != "draw" {
		t.Fatalf("verify of a damaged 2_2_1_1: %d bad, %v; want slot %d stored win, successors draw", res.Bad, res.First, slot)
	}
	// An unused slot given a value is found by the pass over the slots, a
	// used one made unused by both passes.
	copy(data, orig.data)
	var unused, used uint32
	for i := uint32(0); i < orig.sec.size; i++ {
		if code2(data, i) == codeUnused {
			unused = i
			break
		}
	}
	used = slot
	data[unused>>2] &^= 2 << ((unused & 3) * 2) // code 3 (unused) to 1
	data[used>>2] |= codeUnused << ((used & 3) * 2)
	res, err = tb.Verify(context.Background(), s, VerifyOptions{Metric: WDL, Threads: 2, Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range res.First {
		got[fmt.Sprintf("%d %s %s", m.Slot, m.Stored, m.Computed)] = true
	}
	want := []string{fmt.Sprintf("%d %s unused", unused, codeNames[code2(data, unused)]), fmt.Sprintf("%d unused a value (the slot is used)", used), fmt.Sprintf("%d unused draw", used)}
	if res.Bad != 3 || len(got) != 3 || !got[want[0]] || !got[want[1]] || !got[want[2]] {
		t.Fatalf("verify: %d bad, %v; want %q", res.Bad, res.First, want)
	}
}

// Lookup answers placing positions of the built sectors, to place and with a
// removal pending, the same as the verify's own count from the successors;
// positions of sectors not built are unknown.
func TestPlacingLookup(t *testing.T) {
	tb := gameTables(t)
	r := rules.Default()
	for _, tc := range []struct{ fen, want string }{
		// 2_2_1_1, White to move.
		{"O*O*****/********/*@***@** w p p 2 1 2 1 0 0 0 0 0 0 0 0 1", ""},
		// 9 pieces a side at the start: not built (more than 8 pieces).
		{"********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1", "unknown"},
	} {
		p, err := position.ParseFEN(&r, tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := tb.Lookup(&r, &p)
		if tc.want == "unknown" {
			if ok {
				t.Errorf("%s: Lookup %v, want unknown", tc.fen, e)
			}
			continue
		}
		c, ok2 := tb.placingByRules(&r, &p)
		if !ok || !ok2 || codeOfValue(e.Value) != c || e.Exact || e.DTZ != e.Value {
			t.Errorf("%s: Lookup %+v %t, successors %s %t", tc.fen, e, ok, codeNames[c], ok2)
		}
	}
	// Every position after one placement (and its removal) from a few
	// positions of the built sectors agrees with the successors' count.
	n := 0
	for _, fen := range []string{
		"O*******/*@******/O******* b p p 2 1 1 2 0 0 0 0 0 0 0 0 1",
		"O*O*****/********/*@***@** w p p 2 1 2 1 0 0 0 0 0 0 0 0 1",
	} {
		p, err := position.ParseFEN(&r, fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tb.Actions(&r, &p) {
			c := p
			c.Do(&r, m.Move)
			if c.IsOver() {
				continue
			}
			e, ok := tb.Lookup(&r, &c)
			want, ok2 := tb.placingByRules(&r, &c)
			if !ok || !ok2 || codeOfValue(e.Value) != want {
				t.Errorf("%s after %s: Lookup %v %t, successors %s %t", fen, m.Move, e.Value, ok, codeNames[want], ok2)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d positions checked", n)
	}
}
