// Package rating rates a player's strength against the AI with Glicko-2
// (Mark Glickman, "Example of the Glicko-2 system", 2012), on the Elo
// scale, so that the AI can pick the rung of its ladder that gives the
// player an even game.
//
// The player's opponents are the rungs of the AI's ladder, each of a
// fixed, known Elo: a rung is rated with no deviation of its own
// (LadderDeviation). Each game is one rating period: the rating is updated
// after every game, as a chat bot rates game by game.
//
// # Parameters
//
// The parameters were chosen by simulating players of fixed strength
// against the adaptive AI (TestAdaptiveConvergence): on the engine's
// strength ladder as measured after the build-ups (16 rungs from 786 to
// 3,027 Elo, unevenly spaced) and on an even made-up one (12 rungs from
// 600 to 2,100), players starting between easy and medium (1,555 on the
// engine's). The figures below are for that ladder; on the one measured
// after the cell values (786 to 3,011, start 1,558) see the last
// paragraph.
//
// InitialDeviation is 1,000, not Glickman's 350: a new player may be
// anywhere on a ladder over 2,000 Elo wide, and a strong one must climb
// some 1,400 Elo in a few dozen games. After 30 games, with the streak
// rule below, the share of players on the engine's ladder rated within
// 100 Elo of their strength is 79.9 % with 350, 82.4 % with 700, 83.2 %
// with 1,000 and 83.9 % with 1,500.
//
// A game that makes a streak of StreakGames (3) or more wins, or
// losses, in a row does not shrink the deviation. The rung played is
// the one nearest the rating, so every game is expected to be about
// even, and three same results in a row (one chance in five or so when
// the rating is right) say it is likely off; a one-game rating period
// cannot raise the volatility for it (see Tau), and plain Glicko-2
// shrinks the deviation, and with it the steps, game after game while a
// strong player wins them all. Without the streak rule 73.1 % of the
// players on the engine's ladder were within 100 Elo after 30 games,
// and 1 of the 100 of the top two strengths (2,946 and 3,027); with it
// 83.2 %, and 69 of those 100. The bottom of the ladder is unchanged
// (167 of the 200 players of the four lowest strengths with the rule,
// 168 without), and so is the even ladder (86.3 % with, 86.4 %
// without). Measured and not kept: a streak of 2 (82.3 %) or 4
// (82.5 %); a deviation raised by 10 % a game in a streak (80.4 %, but
// only 87.9 % within 100 Elo after 60 games, and a fixed strength
// within 100 Elo 90 % of the time after 100 games, not 96 %); playing,
// after a win or a loss, the rung nearest the rating moved up or down
// by c times the deviation above MinDeviation (84.1 % with c = 1, but
// 76.5 % with c = 0.6: the rung chosen changes at a threshold); and an
// initial deviation of 1,500 alone (75.4 %).
//
// Tau is 0.5, in the middle of the 0.3 to 1.2 Glickman advises. With one
// game per rating period the volatility hardly moves whatever Tau (it
// stays within 0.059 to 0.060 over hundreds of games), so the volatility
// stays near InitialVolatility, 0.06, and the deviation of a player who
// keeps playing settles near 60 Elo.
//
// MinDeviation is 70, just above those 60, so that it takes effect: a
// deviation kept at 70 makes a game move the rating by up to about 14 Elo
// (28 times the surprise of the result) however many games were played,
// and the rating follows a player who improves. A player gaining 2 Elo a
// game is rated about 54 Elo behind (about 71 with no floor;
// TestAdaptiveFollowsAnImprovingPlayer), at the cost of a rating that
// wanders a little more around a fixed strength (within 100 Elo of it
// 96 % of the time after 100 games; 98 % with no floor). At the floor a
// streak holds the deviation where it is, so the streak rule changes
// neither figure. MaxDeviation keeps a rating from becoming less known
// than a new one.
//
// Thirty games do not tell a strength to within 100 Elo every time: each
// game says little, and after 30 even games a rating's standard error is
// about 60 Elo. On the engine's ladder as now measured 83.5 % of players
// were rated within 100 Elo after 30 games (an exact Bayesian estimate,
// knowing the ladder's range, reaches 89.0 %), and 94.5 % after 60;
// players of every strength on the ladder then scored 47.5 to 53.0 % on
// average against the rung the AI picked for them, and 99.0 % of them
// 40 to 60 % over their next 100 games (83.2, 88.5, 94.3, 47.5 to 52.1
// and 98.7 % on the ladder before). A strength beyond the top or bottom rung cannot
// score near 50 %: the rating only tells the AI to play its nearest
// rung.
package rating

import "math"

// The parameters of the rating system, on the Elo scale; see the package
// documentation for their choice.
const (
	// InitialDeviation is the deviation of a player who has played
	// nothing.
	InitialDeviation = 1000.0
	// InitialVolatility is the volatility of a player who has played
	// nothing.
	InitialVolatility = 0.06
	// Tau is Glicko-2's system constant: how fast the volatility may
	// change.
	Tau = 0.5
	// MinDeviation is the least deviation a rating is given.
	MinDeviation = 70.0
	// MaxDeviation is the greatest deviation a rating is given.
	MaxDeviation = InitialDeviation
	// LadderDeviation is the deviation of a rung of the AI's ladder,
	// whose Elo is taken as known.
	LadderDeviation = 0.0
	// StreakGames is the length of a run of wins, or of losses, from
	// which a game no longer shrinks the deviation.
	StreakGames = 3
)

// scale converts between the Elo scale and Glicko-2's: 400/ln 10.
const scale = 173.7178

// epsilon is the convergence tolerance of the volatility iteration.
const epsilon = 1e-6

// Rating is a player's Glicko-2 rating on the Elo scale: Value (the
// Elo-like rating), Deviation (RD, same scale), Volatility, and the
// player's current Streak.
type Rating struct {
	Value      float64 `json:"value"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	// Streak is the player's current run of same results: n after n
	// wins in a row, -n after n losses in a row, 0 after a draw, before
	// any game, and in a rating stored before it was kept.
	Streak int `json:"streak,omitempty"`
}

// New returns the rating of a player who has played nothing: value v,
// deviation InitialDeviation (1,000), volatility 0.06.
func New(v float64) Rating {
	return Rating{Value: v, Deviation: InitialDeviation, Volatility: InitialVolatility}
}

// Update returns r after one game against an opponent of fixed Elo opp,
// scored s (1 win, 0.5 draw, 0 loss): Glicko-2's update, except that a
// game that makes a Streak of StreakGames or more leaves the deviation
// no smaller than it was. A score outside 0 to 1 counts as the nearest of
// the two; a Deviation or Volatility that is not positive (as in the zero
// Rating) counts as New's.
func (r Rating) Update(opp float64, s float64) Rating {
	n := r.update([]result{{opp: opp, deviation: LadderDeviation, score: s}})
	n.Streak = r.next(s)
	if n.Streak >= StreakGames || -n.Streak >= StreakGames {
		before := r.Deviation
		if !(before > 0) {
			before = InitialDeviation
		}
		n.Deviation = max(n.Deviation, clampDeviation(before))
	}
	return n
}

// next returns the Streak that a game scored s makes of r's.
func (r Rating) next(s float64) int {
	switch {
	case s >= 1:
		return max(r.Streak, 0) + 1
	case s <= 0:
		return min(r.Streak, 0) - 1
	}
	return 0
}

// Expected returns the expected score of a player rated r.Value against
// opp (the logistic Elo curve, 400 scale).
func Expected(r, opp float64) float64 {
	return 1 / (1 + math.Pow(10, (opp-r)/400))
}

// Pick returns the index in elos (ascending Elo of the ladder's rungs
// available) whose Elo is nearest to r.Value; of two as near, the lower.
// It returns -1 when elos is empty.
func Pick(r Rating, elos []float64) int {
	best := -1
	for i, e := range elos {
		if best < 0 || math.Abs(e-r.Value) < math.Abs(elos[best]-r.Value) {
			best = i
		}
	}
	return best
}

// result is one game of a rating period: the opponent's rating and
// deviation on the Elo scale, and the score against him.
type result struct {
	opp, deviation, score float64
}

// update returns r after the rating period of the games rs (at least
// one: the bot rates game by game), by the steps
// of Glickman's paper, with the deviation then kept between MinDeviation
// and MaxDeviation.
func (r Rating) update(rs []result) Rating {
	dev, vol := r.Deviation, r.Volatility
	if !(dev > 0) {
		dev = InitialDeviation
	}
	if !(vol > 0) {
		vol = InitialVolatility
	}
	mu := (r.Value - 1500) / scale
	phi := math.Min(dev, MaxDeviation) / scale
	// Steps 3 and 4: the estimated variance v and improvement delta.
	var invV, sum float64
	for _, g := range rs {
		gj := gPhi(g.deviation / scale)
		e := 1 / (1 + math.Exp(-gj*(mu-(g.opp-1500)/scale)))
		invV += gj * gj * e * (1 - e)
		sum += gj * (min(max(g.score, 0), 1) - e)
	}
	v := 1 / invV
	delta := v * sum

	// Steps 5 to 8: the new volatility, deviation and value.
	vol = volatility(phi, vol, v, delta)
	phiStar := math.Hypot(phi, vol)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+invV)
	mu += phi * phi * sum
	return Rating{Value: mu*scale + 1500, Deviation: clampDeviation(phi * scale), Volatility: vol}
}

// clampDeviation returns d kept between MinDeviation and MaxDeviation.
func clampDeviation(d float64) float64 { return min(max(d, MinDeviation), MaxDeviation) }

// gPhi is Glicko-2's g: how much an opponent's deviation phi discounts
// the game against him.
func gPhi(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// volatility returns the new volatility of step 5 of Glickman's paper
// (the Illinois algorithm) for a player of deviation phi and volatility
// sigma whose period had estimated variance v and improvement delta, on
// Glicko-2's scale.
func volatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
