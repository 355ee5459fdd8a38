package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/millengine/millengine/internal/movegen"
	"github.com/millengine/millengine/internal/position"
	"github.com/millengine/millengine/internal/rules"
)

// BenchmarkEvaluatePhases evaluates the positions one action after each
// root of testdata/ttd-phases.txt, per phase: the evaluation's cost where
// the search spends it, in place of BenchmarkEvaluate's single position.
func BenchmarkEvaluatePhases(b *testing.B) {
	r := rules.Default()
	data, err := os.ReadFile("../../testdata/ttd-phases.txt")
	if err != nil {
		b.Fatal(err)
	}
	phases := map[string][]position.Position{}
	var order []string
	phase := ""
	for _, l := range strings.Split(string(data), "\n") {
		if name, ok := strings.CutPrefix(l, "# phase: "); ok {
			phase = name
			order = append(order, name)
			continue
		}
		fen, ok := strings.CutPrefix(l, "position fen ")
		if !ok {
			continue
		}
		p, err := position.ParseFEN(&r, fen)
		if err != nil {
			b.Fatal(err)
		}
		var ml movegen.MoveList
		movegen.Generate(&r, &p, &ml)
		for _, m := range ml.Slice() {
			c := p
			c.Do(&r, m)
			phases[phase] = append(phases[phase], c)
		}
	}
	for _, name := range order {
		ps := phases[name]
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for i := 0; b.Loop(); i++ {
				s += Evaluate(&r, &ps[i%len(ps)])
			}
			_ = s
		})
	}
}
