package match

import (
	"fmt"
	"math"
)

// z95 is the two-sided 95 % quantile of the standard normal distribution.
const z95 = 1.959963984540054

// WDL counts the results of a series of games from one side's view: W wins,
// D draws and L losses of that side.
type WDL struct {
	W, D, L int
}

// N returns the number of games.
func (r WDL) N() int { return r.W + r.D + r.L }

// Add returns the sum of two counts.
func (r WDL) Add(o WDL) WDL { return WDL{r.W + o.W, r.D + o.D, r.L + o.L} }

// Flip returns the same games seen from the other side.
func (r WDL) Flip() WDL { return WDL{W: r.L, D: r.D, L: r.W} }

// Score returns the mean score per game s = (W + D/2) / N, or NaN without games.
func (r WDL) Score() float64 {
	n := r.N()
	if n == 0 {
		return math.NaN()
	}
	return (float64(r.W) + float64(r.D)/2) / float64(n)
}

// DrawRatio returns D / N, or NaN without games.
func (r WDL) DrawRatio() float64 {
	n := r.N()
	if n == 0 {
		return math.NaN()
	}
	return float64(r.D) / float64(n)
}

// Variance returns the variance of the score of one game, estimated from the
// observed trinomial frequencies: w(1−s)² + d(½−s)² + l(0−s)², which equals
// w + d/4 − s². NaN without games.
func (r WDL) Variance() float64 {
	n := float64(r.N())
	if n == 0 {
		return math.NaN()
	}
	w, d := float64(r.W)/n, float64(r.D)/n
	s := w + d/2
	v := w + d/4 - s*s
	if v < 0 { // rounding when all games have the same result
		v = 0
	}
	return v
}

// EloFromScore converts an expected score in [0, 1] to a logistic Elo
// difference: −400·log10(1/s − 1). It is −Inf at 0, +Inf at 1 and NaN
// outside [0, 1].
func EloFromScore(s float64) float64 {
	switch {
	case math.IsNaN(s) || s < 0 || s > 1:
		return math.NaN()
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the inverse of EloFromScore: 1 / (1 + 10^(−elo/400)).
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Elo returns the Elo difference implied by the score, NaN without games.
func (r WDL) Elo() float64 { return EloFromScore(r.Score()) }

// EloInterval returns the bounds of the 95 % confidence interval of the Elo
// difference: the score's standard error √(var/N) is taken from the per-game
// variance, the normal interval s ± 1.96·se is formed on the score scale and
// both ends are mapped through EloFromScore. Ends that leave [0, 1] become
// ∓Inf.
func (r WDL) EloInterval() (lo, hi float64) {
	n := r.N()
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	s := r.Score()
	dev := z95 * math.Sqrt(r.Variance()/float64(n))
	return EloFromScore(math.Max(s-dev, 0)), EloFromScore(math.Min(s+dev, 1))
}

// EloMargin returns the half width of the 95 % interval in Elo, (hi − lo)/2,
// the number printed after "+/-". It is +Inf when an end is unbounded.
func (r WDL) EloMargin() float64 {
	lo, hi := r.EloInterval()
	return (hi - lo) / 2
}

// LOS returns the likelihood of superiority of the side with W wins over
// its opponent with L wins, 0.5·(1 + erf((W − L)/√(2(W + L)))). Draws carry no
// information about who is stronger. It is 0.5 when neither side won a game.
func LOS(w, l int) float64 {
	if w+l == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(w-l)/math.Sqrt(2*float64(w+l))))
}

// LOS returns the likelihood of superiority for the side the counts belong to.
func (r WDL) LOS() float64 { return LOS(r.W, r.L) }

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo) with error rates Alpha (accepting H1 when H0
// holds) and Beta (accepting H0 when H1 holds).
//
// The log-likelihood ratio uses the generalised SPRT approximation on the
// trinomial model (each game scored 1, ½ or 0 on its own, not in pairs):
// with the observed mean s and per-game variance v over N games and the
// scores s0, s1 expected under the two hypotheses,
//
//	LLR ≈ N·(s1 − s0)·(2s − s0 − s1) / (2v).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Decision is the state of an SPRT.
type Decision int

// SPRT states.
const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // LLR at or below the lower bound
	AcceptH1                 // LLR at or above the upper bound
)

// String returns "continue", "H0 accepted" or "H1 accepted".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Validate checks that the hypotheses are distinct and the error rates are in (0, 1).
func (t SPRT) Validate() error {
	if !(t.Elo1 > t.Elo0) {
		return fmt.Errorf("sprt: elo1 (%g) must be greater than elo0 (%g)", t.Elo1, t.Elo0)
	}
	if !(t.Alpha > 0 && t.Alpha < 1) || !(t.Beta > 0 && t.Beta < 1) {
		return fmt.Errorf("sprt: alpha (%g) and beta (%g) must lie strictly between 0 and 1", t.Alpha, t.Beta)
	}
	if t.Alpha+t.Beta >= 1 {
		return fmt.Errorf("sprt: alpha + beta (%g) must be below 1", t.Alpha+t.Beta)
	}
	return nil
}

// Bounds returns the decision bounds: ln(β/(1−α)) and ln((1−β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the approximate log-likelihood ratio of H1 against H0 for the
// counts r. It is 0 while the results carry no spread (no games, or every
// game with the same result), where the approximation is undefined.
func (t SPRT) LLR(r WDL) float64 {
	n := r.N()
	if n == 0 {
		return 0
	}
	v := r.Variance()
	if v <= 0 {
		return 0
	}
	s := r.Score()
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return float64(n) * (s1 - s0) * (2*s - s0 - s1) / (2 * v)
}

// Decide applies the bounds to the LLR of r.
func (t SPRT) Decide(r WDL) Decision {
	llr := t.LLR(r)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}
