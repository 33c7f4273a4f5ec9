package main

import (
	"fmt"
	"math"
)

// tally is a match result from the first engine's point of view.
type tally struct {
	wins, losses, draws int
}

// add counts one game won by engine winner (0 or 1; -1 for a draw).
func (t *tally) add(winner int) {
	switch winner {
	case 0:
		t.wins++
	case 1:
		t.losses++
	default:
		t.draws++
	}
}

// games returns the number of games counted.
func (t tally) games() int { return t.wins + t.losses + t.draws }

// score returns the first engine's score in [0, 1]: a win is 1, a draw ½.
func (t tally) score() float64 {
	if t.games() == 0 {
		return 0.5
	}
	return (float64(t.wins) + float64(t.draws)/2) / float64(t.games())
}

// z95 is the two-sided 95 % quantile of the normal distribution.
const z95 = 1.959964

// wilson returns the Wilson 95 % interval of the score, counting a draw as
// half a win.
func (t tally) wilson() (lo, hi float64) {
	n := float64(t.games())
	if n == 0 {
		return 0, 1
	}
	p := t.score()
	z2 := z95 * z95
	mid := (p + z2/(2*n)) / (1 + z2/n)
	half := z95 / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return max(0, mid-half), min(1, mid+half)
}

// elo returns the logistic Elo difference that an expected score s means,
// clamped to ±999 at the ends.
func elo(s float64) float64 {
	if s <= 0 {
		return -999
	}
	if s >= 1 {
		return 999
	}
	return max(-999, min(999, -400*math.Log10(1/s-1)))
}

// String returns the tally, the score with its Wilson interval and the Elo
// difference with the interval the Wilson bounds give.
func (t tally) String() string {
	lo, hi := t.wilson()
	return fmt.Sprintf("%d games: +%d -%d =%d, score %.1f%% [95%% %.1f%%, %.1f%%], Elo %+.0f [%+.0f, %+.0f]",
		t.games(), t.wins, t.losses, t.draws, 100*t.score(), 100*lo, 100*hi, elo(t.score()), elo(lo), elo(hi))
}

// sprt is a sequential probability ratio test of H0 "the first engine is
// elo0 stronger" against H1 "elo1 stronger", with error rates alpha and
// beta. It uses the normal approximation of the trinomial (win, draw,
// loss) log-likelihood ratio that cutechess-cli and fishtest use with
// logistic Elo.
type sprt struct {
	elo0, elo1, alpha, beta float64
}

// llr returns the log-likelihood ratio of H1 against H0 after t.
func (s sprt) llr(t tally) float64 {
	n := float64(t.games())
	if n == 0 {
		return 0
	}
	x := t.score()
	v := (float64(t.wins)*(1-x)*(1-x) + float64(t.draws)*(0.5-x)*(0.5-x) + float64(t.losses)*x*x) / n
	// A floor keeps the ratio finite when every game ended alike (a
	// match of even engines has a variance near 0.2).
	v = max(v, 0.05)
	s0 := 1 / (1 + math.Pow(10, -s.elo0/400))
	s1 := 1 / (1 + math.Pow(10, -s.elo1/400))
	return n * (s1 - s0) * (2*x - s0 - s1) / (2 * v)
}

// bounds returns the LLR bounds: at or below lower H0 is accepted, at or
// above upper H1.
func (s sprt) bounds() (lower, upper float64) {
	return math.Log(s.beta / (1 - s.alpha)), math.Log((1 - s.beta) / s.alpha)
}

// verdict returns "H1", "H0" or "" (go on) for t.
func (s sprt) verdict(t tally) string {
	l := s.llr(t)
	lo, hi := s.bounds()
	switch {
	case l >= hi:
		return "H1"
	case l <= lo:
		return "H0"
	}
	return ""
}
