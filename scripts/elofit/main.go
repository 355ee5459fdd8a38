// Command elofit rates engines from millmatch's game records: one rating
// per engine name by maximum likelihood under the logistic (Elo) model,
// a win scoring 1, a draw ½, with one engine anchored at a given rating,
// and each rating's 95 % interval from the likelihood's curvature (the
// inverse Fisher information). It is how the levels for people are
// calibrated against fixed references (docs/strength.md).
//
//	go run ./scripts/elofit --anchor sanmill-d1=600 RECORDS.jsonl ...
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/millengine/millengine/internal/match"
)

// pair is the score of one engine against another: points of the first and
// games.
type pair struct {
	a, b   int
	points float64
	games  float64
}

func main() {
	fs := pflag.NewFlagSet("elofit", pflag.ExitOnError)
	anchor := fs.String("anchor", "", "NAME=RATING: the engine whose rating is fixed")
	fs.Parse(os.Args[1:])
	name, val, ok := strings.Cut(*anchor, "=")
	av, err := strconv.ParseFloat(val, 64)
	if !ok || err != nil {
		fail(fmt.Errorf("--anchor %q: want NAME=RATING", *anchor))
	}
	idx := map[string]int{}
	var names []string
	id := func(n string) int {
		if i, ok := idx[n]; ok {
			return i
		}
		idx[n] = len(names)
		names = append(names, n)
		return idx[n]
	}
	pairs := map[[2]int]*pair{}
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			fail(err)
		}
		recs, _, err := match.ReadRecords(bufio.NewReader(f))
		f.Close()
		if err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		for _, r := range recs {
			w, b := id(r.White), id(r.Black)
			var s float64
			switch r.Result {
			case "1-0":
				s = 1
			case "0-1":
				s = 0
			case "1/2-1/2":
				s = 0.5
			default:
				continue
			}
			k := [2]int{min(w, b), max(w, b)}
			p := pairs[k]
			if p == nil {
				p = &pair{a: k[0], b: k[1]}
				pairs[k] = p
			}
			if w != k[0] {
				s = 1 - s
			}
			p.points += s
			p.games++
		}
	}
	a, ok := idx[name]
	if !ok {
		fail(fmt.Errorf("--anchor: no engine %q in the records", name))
	}
	ps := make([]pair, 0, len(pairs))
	for _, p := range pairs {
		ps = append(ps, *p)
	}
	r, se := fit(len(names), ps, a, av)
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return r[order[i]] < r[order[j]] })
	fmt.Printf("%-16s %8s %8s %7s\n", "engine", "Elo", "±95%", "games")
	for _, i := range order {
		games := 0.0
		for _, p := range ps {
			if p.a == i || p.b == i {
				games += p.games
			}
		}
		fmt.Printf("%-16s %8.0f %8.0f %7.0f\n", names[i], r[i], 1.96*se[i], games)
	}
}

// expected is the logistic expected score of a rating difference d.
func expected(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// fit maximises the likelihood of the pairs' scores by Newton's method, the
// anchor's rating held, and returns the ratings and their standard errors.
func fit(n int, ps []pair, anchor int, value float64) ([]float64, []float64) {
	r := make([]float64, n)
	for i := range r {
		r[i] = value
	}
	k := math.Ln10 / 400
	var h [][]float64
	for it := 0; it < 100; it++ {
		g := make([]float64, n)
		h = make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
		}
		for _, p := range ps {
			e := expected(r[p.a] - r[p.b])
			d := k * (p.points - p.games*e) // ∂L/∂r_a
			g[p.a] += d
			g[p.b] -= d
			w := k * k * p.games * e * (1 - e)
			h[p.a][p.a] += w
			h[p.b][p.b] += w
			h[p.a][p.b] -= w
			h[p.b][p.a] -= w
		}
		step := solve(h, g, anchor)
		maxStep := 0.0
		for i := range r {
			s := max(-200, min(200, step[i]))
			r[i] += s
			maxStep = max(maxStep, math.Abs(s))
		}
		if maxStep < 1e-6 {
			break
		}
	}
	cov := inverse(h, anchor)
	se := make([]float64, n)
	for i := range se {
		if i != anchor && cov[i][i] > 0 {
			se[i] = math.Sqrt(cov[i][i])
		}
	}
	return r, se
}

// solve returns x with H x = g over the free ratings (the anchor's row and
// column left out, its x 0).
func solve(h [][]float64, g []float64, anchor int) []float64 {
	inv := inverse(h, anchor)
	x := make([]float64, len(g))
	for i := range x {
		for j := range g {
			x[i] += inv[i][j] * g[j]
		}
	}
	return x
}

// inverse returns the inverse of h restricted to the free ratings (zeros in
// the anchor's row and column), by Gauss–Jordan elimination.
func inverse(h [][]float64, anchor int) [][]float64 {
	var free []int
	for i := range h {
		if i != anchor {
			free = append(free, i)
		}
	}
	m := len(free)
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, 2*m)
		for j := range m {
			a[i][j] = h[free[i]][free[j]]
		}
		a[i][m+i] = 1
	}
	for c := range m {
		piv := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		if a[c][c] == 0 {
			continue
		}
		f := a[c][c]
		for j := range a[c] {
			a[c][j] /= f
		}
		for r := range m {
			if r != c && a[r][c] != 0 {
				f := a[r][c]
				for j := range a[r] {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	out := make([][]float64, len(h))
	for i := range out {
		out[i] = make([]float64, len(h))
	}
	for i := range m {
		for j := range m {
			out[free[i]][free[j]] = a[i][m+j]
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "elofit:", err)
	os.Exit(1)
}
