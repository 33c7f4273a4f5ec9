package rating

import (
	"github.com/boardbot/boardbot/engine"

	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGlickmanExample checks update against the worked example of
// Glickman's paper: a player rated 1500/200/0.06 beats an opponent
// 1400/30 and loses to 1550/100 and 1700/300 in one period.
func TestGlickmanExample(t *testing.T) {
	r := Rating{Value: 1500, Deviation: 200, Volatility: 0.06}
	got := r.update([]result{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}})
	t.Logf("%.4f / %.4f / %.6f", got.Value, got.Deviation, got.Volatility)
	if math.Abs(got.Value-1464.06) > 0.01 || math.Abs(got.Deviation-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Errorf("got %.2f / %.2f / %.5f, want 1464.06 / 151.52 / 0.05999", got.Value, got.Deviation, got.Volatility)
	}
}

// TestUpdate checks one game against a rung: a win raises the value, a
// loss lowers it, a draw against an equal leaves it, the deviation
// shrinks but not below MinDeviation, and Update is update with one
// opponent of LadderDeviation when no streak holds the deviation.
func TestUpdate(t *testing.T) {
	r := New(1200)
	if r != (Rating{Value: 1200, Deviation: InitialDeviation, Volatility: InitialVolatility}) {
		t.Fatalf("New(1200) = %+v", r)
	}
	win, loss, draw := r.Update(1200, 1), r.Update(1200, 0), r.Update(1200, 0.5)
	if !(win.Value > r.Value && loss.Value < r.Value) || math.Abs(draw.Value-r.Value) > 1e-9 {
		t.Errorf("win %.2f, loss %.2f, draw %.2f from %.2f", win.Value, loss.Value, draw.Value, r.Value)
	}
	if math.Abs((win.Value-r.Value)+(loss.Value-r.Value)) > 1e-9 {
		t.Errorf("win and loss against an equal move by %.4f and %.4f, not opposites", win.Value-r.Value, loss.Value-r.Value)
	}
	if !(win.Deviation < r.Deviation) {
		t.Errorf("deviation %.2f after a game from %.2f", win.Deviation, r.Deviation)
	}
	for _, s := range []float64{0, 0.5, 1} {
		got, want := r.Update(1400, s), r.update([]result{{1400, LadderDeviation, s}})
		if got.Value != want.Value || got.Deviation != want.Deviation || got.Volatility != want.Volatility {
			t.Errorf("first game scored %v: Update gives %+v, update %+v", s, got, want)
		}
	}
	if r.Update(1400, 2) != r.Update(1400, 1) || r.Update(1400, -1) != r.Update(1400, 0) {
		t.Error("scores outside 0 to 1 not counted as the nearest")
	}
	for range 1000 {
		r = r.Update(1200, 0.5)
	}
	if r.Deviation < MinDeviation || math.Abs(r.Value-1200) > 1e-6 {
		t.Errorf("after 1000 draws against an equal: %+v", r)
	}
	if z := (Rating{Value: 1300}).Update(1300, 1); z != New(1300).Update(1300, 1) {
		t.Errorf("zero deviation and volatility: %+v, want %+v", z, New(1300).Update(1300, 1))
	}
}

// TestJSON checks the field names of the stored rating, that a Streak of
// 0 is left out, and that a rating stored before Streak was kept reads
// as one with no streak.
func TestJSON(t *testing.T) {
	b, err := json.Marshal(Rating{Value: 1, Deviation: 2, Volatility: 3})
	if err != nil || string(b) != `{"value":1,"deviation":2,"volatility":3}` {
		t.Errorf("%s, %v", b, err)
	}
	b, err = json.Marshal(Rating{Value: 1, Deviation: 2, Volatility: 3, Streak: -2})
	if err != nil || string(b) != `{"value":1,"deviation":2,"volatility":3,"streak":-2}` {
		t.Errorf("%s, %v", b, err)
	}
	var back Rating
	if err := json.Unmarshal(b, &back); err != nil || back != (Rating{Value: 1, Deviation: 2, Volatility: 3, Streak: -2}) {
		t.Errorf("decoded %+v, %v", back, err)
	}
	var old Rating
	if err := json.Unmarshal([]byte(`{"value":1600.5,"deviation":120,"volatility":0.06}`), &old); err != nil || old != (Rating{Value: 1600.5, Deviation: 120, Volatility: 0.06}) {
		t.Errorf("decoded %+v, %v", old, err)
	}
}

// TestStreak checks the streak a game leaves and the deviation it holds:
// wins and losses in a row count up, a draw or the other result starts
// again, and from StreakGames same results on a game leaves the deviation
// where it was, while the value still moves.
func TestStreak(t *testing.T) {
	r := New(1500)
	var devs []float64
	for i, want := range []int{1, 2, 3, 4} {
		next := r.Update(1500, 1)
		if next.Streak != want {
			t.Fatalf("win %d: streak %d, want %d", i+1, next.Streak, want)
		}
		if !(next.Value > r.Value) {
			t.Errorf("win %d: value %.1f from %.1f", i+1, next.Value, r.Value)
		}
		if held := want >= StreakGames; held != (next.Deviation == r.Deviation) || next.Deviation > r.Deviation {
			t.Errorf("win %d (streak %d): deviation %.2f from %.2f", i+1, want, next.Deviation, r.Deviation)
		}
		devs = append(devs, next.Deviation)
		r = next
	}
	if !(devs[0] > devs[1] && devs[1] == devs[2] && devs[2] == devs[3]) {
		t.Errorf("deviations over four wins: %.2f", devs)
	}
	loss := r.Update(r.Value, 0)
	if loss.Streak != -1 || !(loss.Deviation < r.Deviation) {
		t.Errorf("a loss after four wins: streak %d, deviation %.2f from %.2f", loss.Streak, loss.Deviation, r.Deviation)
	}
	for _, c := range []struct {
		streak int
		score  float64
		want   int
	}{{-1, 0, -2}, {-2, 0, -3}, {-3, 1, 1}, {5, 0.5, 0}, {-4, 0.5, 0}, {0, 2, 1}, {2, -1, -1}, {0, 0, -1}} {
		if got := (Rating{Value: 1500, Deviation: 200, Volatility: 0.06, Streak: c.streak}).Update(1500, c.score).Streak; got != c.want {
			t.Errorf("streak %d, score %v: %d, want %d", c.streak, c.score, got, c.want)
		}
	}
	// A held deviation is still kept within MinDeviation and MaxDeviation.
	if got := (Rating{Value: 1500, Deviation: 5000, Volatility: 0.06, Streak: 2}).Update(1500, 1); got.Deviation != MaxDeviation {
		t.Errorf("held from 5000: deviation %.2f, want %v", got.Deviation, MaxDeviation)
	}
	if got := (Rating{Value: 1500, Deviation: 30, Volatility: 0.06, Streak: -7}).Update(1500, 0); got.Deviation != MinDeviation {
		t.Errorf("held from 30: deviation %.2f, want %v", got.Deviation, MinDeviation)
	}
	if got := (Rating{Value: 1500, Streak: 2}).Update(1500, 1); got.Deviation != InitialDeviation {
		t.Errorf("held from no deviation: %.2f, want %v", got.Deviation, InitialDeviation)
	}
}

// TestExpected checks the Elo curve: even between equals, 10 to 1 at
// 400 apart, and the two sides' expectations adding up to 1.
func TestExpected(t *testing.T) {
	for _, c := range []struct{ r, opp, want float64 }{{1500, 1500, 0.5}, {1900, 1500, 10.0 / 11}, {1100, 1500, 1.0 / 11}} {
		if got := Expected(c.r, c.opp); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Expected(%v, %v) = %v, want %v", c.r, c.opp, got, c.want)
		}
	}
	if s := Expected(1234, 1777) + Expected(1777, 1234); math.Abs(s-1) > 1e-12 {
		t.Errorf("expectations add up to %v", s)
	}
}

// TestPick checks that the nearest rung is picked, the lower of two as
// near, and -1 from no rungs.
func TestPick(t *testing.T) {
	elos := []float64{800, 1000, 1200}
	for _, c := range []struct {
		v    float64
		want int
	}{{0, 0}, {850, 0}, {900, 0}, {901, 1}, {1000, 1}, {1150, 2}, {5000, 2}} {
		if got := Pick(Rating{Value: c.v}, elos); got != c.want {
			t.Errorf("Pick(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	if got := Pick(New(1000), nil); got != -1 {
		t.Errorf("Pick from no rungs = %d", got)
	}
}

// testLadder is a ladder of 12 rungs standing in for the measured table.
var testLadder = []float64{600, 736, 873, 1009, 1145, 1282, 1418, 1555, 1691, 1827, 1964, 2100}

// The test ladder's easy and medium levels; new players start between.
const (
	testEasy   = 873
	testMedium = 1282
)

// drawChance is the chance of a draw between equals in the simulation.
const drawChance = 0.05

// game is one simulated game: the rating before it and the score.
type game struct {
	before Rating
	score  float64
}

// draw returns the score of one game of a player of expected score e:
// a draw with chance drawChance (less where e is near 0 or 1, so that the
// expectation is kept), else a win or a loss.
func draw(rng *rand.Rand, e float64) float64 {
	d := min(drawChance, 2*e, 2*(1-e))
	switch u := rng.Float64(); {
	case u < e-d/2:
		return 1
	case u < e+d/2:
		return 0.5
	}
	return 0
}

// chance returns the chance that draw returns s for expected score e.
func chance(e, s float64) float64 {
	d := min(drawChance, 2*e, 2*(1-e))
	switch s {
	case 1:
		return e - d/2
	case 0.5:
		return d
	}
	return 1 - e - d/2
}

// simulate plays games between the adaptive AI and a new player rated
// New(start) of true strength trueElo: each game the AI plays the rung
// of ladder nearest the player's rating, the result is drawn from the
// Elo expectation of trueElo against the rung (by draw), and the rating
// is updated. It returns the games and the rating
// after the last.
func simulate(rng *rand.Rand, trueElo, start float64, ladder []float64, games int) ([]game, Rating) {
	r := New(start)
	out := make([]game, 0, games)
	for range games {
		i := Pick(r, ladder)
		s := draw(rng, Expected(trueElo, ladder[i]))
		out = append(out, game{r, s})
		r = r.Update(ladder[i], s)
	}
	return out, r
}

// strengths returns the true strengths simulated on ladder: every rung's
// Elo and every midpoint between rungs, none beyond the top or bottom
// rung, where no rung gives an even game.
func strengths(ladder []float64) []float64 {
	var out []float64
	for i, e := range ladder {
		out = append(out, e)
		if i+1 < len(ladder) {
			out = append(out, (e+ladder[i+1])/2)
		}
	}
	return out
}

// convergence is what many simulated players measured.
type convergence struct {
	runs, players int
	near          int     // runs rated within 100 Elo after the first games
	nearLater     int     // runs rated within 100 Elo after twice as many
	p95           float64 // the 95th percentile of |rating - true| after the first games
	worst         float64 // the largest |rating - true| after the first games
	even          int     // runs scoring 40 to 60 % over the next games
	evenPlayers   int     // true strengths whose mean score over seeds is 40 to 60 %
	minScore      float64 // the lowest mean score of a true strength
	maxScore      float64 // the highest
}

// measure simulates seeds players of each of strengths(ladder), starting
// at start, for first games and then next games (at least first).
func measure(ladder []float64, start float64, seeds, first, next int) convergence {
	c := convergence{minScore: 1}
	var errs []float64
	for k, trueElo := range strengths(ladder) {
		var total float64
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(seed)))
			games, _ := simulate(rng, trueElo, start, ladder, first+next)
			err := math.Abs(games[first].before.Value - trueElo)
			errs = append(errs, err)
			if err < 100 {
				c.near++
			}
			if math.Abs(games[2*first].before.Value-trueElo) < 100 {
				c.nearLater++
			}
			var score float64
			for _, g := range games[first:] {
				score += g.score
			}
			score /= float64(next)
			if score >= 0.4 && score <= 0.6 {
				c.even++
			}
			total += score
			c.runs++
		}
		mean := total / float64(seeds)
		c.minScore, c.maxScore = min(c.minScore, mean), max(c.maxScore, mean)
		if mean >= 0.4 && mean <= 0.6 {
			c.evenPlayers++
		}
		c.players++
	}
	slices.Sort(errs)
	c.p95, c.worst = errs[len(errs)*95/100], errs[len(errs)-1]
	return c
}

// bayesNear returns the fraction of the players measure simulates that an
// exact Bayesian estimate rates within 100 Elo after first games: the
// posterior mean of a strength known to lie uniformly between the bottom
// and top rungs, the AI picking the rung nearest it. It bounds what any
// rating can do with the same games.
func bayesNear(ladder []float64, start float64, seeds, first int) float64 {
	var grid []float64
	for x := ladder[0]; x <= ladder[len(ladder)-1]; x += 5 {
		grid = append(grid, x)
	}
	near, runs := 0, 0
	for k, trueElo := range strengths(ladder) {
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(seed)))
			logp := make([]float64, len(grid))
			mean := start
			for range first {
				i := Pick(Rating{Value: mean}, ladder)
				s := draw(rng, Expected(trueElo, ladder[i]))
				top := math.Inf(-1)
				for j, x := range grid {
					logp[j] += math.Log(chance(Expected(x, ladder[i]), s))
					top = max(top, logp[j])
				}
				var sum, weight float64
				for j, l := range logp {
					w := math.Exp(l - top)
					sum, weight = sum+w*grid[j], weight+w
				}
				mean = sum / weight
			}
			if math.Abs(mean-trueElo) < 100 {
				near++
			}
			runs++
		}
	}
	return float64(near) / float64(runs)
}

// TestAdaptiveConvergence proves convergence with simulated players drawn
// from the ladder's Elo table (seeded): a player of fixed true strength is
// rated within 100 Elo of it after 30 games, and then scores 40 to 60 %
// against the adaptive AI over the next 100. True strengths are every
// rung's Elo and every midpoint between rungs, 50 seeds each, all
// starting between easy and medium; strengths beyond the top or bottom
// rung are left out, as no rung gives them an even game.
//
// Within 100 Elo after 30 games cannot hold for every player: 30 games
// leave a standard error of about 60 Elo, and an exact Bayesian estimate
// (bayesNear) is within 100 Elo for about 88 % of them. The test asks
// 75 % after 30 games, and no more than 15 points below the exact
// estimate, 90 % after 60, the mean score of every
// strength in 40 to 60 %, and 95 % of the runs' own scores in 40 to 60 %.
//
// It runs on the engine's strength ladder, as measured (engine.Rung.Elo),
// and on an even made-up one.
func TestAdaptiveConvergence(t *testing.T) {
	var engineLadder []float64
	for r := engine.Rung(1); r <= engine.Rungs; r++ {
		engineLadder = append(engineLadder, r.Elo())
	}
	engineStart := (engine.Easy.Rung().Elo() + engine.Medium.Rung().Elo()) / 2
	t.Run("engine", func(t *testing.T) { checkConvergence(t, engineLadder, engineStart) })
	t.Run("even", func(t *testing.T) { checkConvergence(t, testLadder, (testEasy+testMedium)/2.0) })
}

// checkConvergence runs the convergence checks on ladder, players
// starting at start.
func checkConvergence(t *testing.T, ladder []float64, start float64) {
	const seeds, first, next = 50, 30, 100
	c := measure(ladder, start, seeds, first, next)
	frac := func(n int) float64 { return float64(n) / float64(c.runs) }
	bayes := bayesNear(ladder, start, seeds, first)
	t.Logf("%d runs (%d strengths × %d seeds, start %.0f): within 100 Elo after %d games in %.1f %% (exact Bayes %.1f %%), after %d in %.1f %%; 95th percentile of the error after %d: %.0f Elo, worst %.0f",
		c.runs, c.players, seeds, start, first, 100*frac(c.near), 100*bayes, 2*first, 100*frac(c.nearLater), first, c.p95, c.worst)
	t.Logf("score over the next %d games: 40-60 %% in %.1f %% of runs; mean per strength %.1f-%.1f %%, %d of %d strengths in 40-60 %%",
		next, 100*frac(c.even), 100*c.minScore, 100*c.maxScore, c.evenPlayers, c.players)
	if frac(c.near) < 0.75 {
		t.Errorf("within 100 Elo after %d games in %.1f %% of runs, want at least 75 %%", first, 100*frac(c.near))
	}
	// The exact posterior, which knows the ladder's range, is the bound
	// the rating is measured against: far below it, the rating wastes
	// the games; above it, the simulation leaks the true strength.
	if near := frac(c.near); near > bayes+0.05 || near < bayes-0.15 {
		t.Errorf("within 100 Elo after %d games in %.1f %% of runs, the exact posterior in %.1f %%: want at most 15 points below it", first, 100*near, 100*bayes)
	}
	if frac(c.nearLater) < 0.90 {
		t.Errorf("within 100 Elo after %d games in %.1f %% of runs, want at least 90 %%", 2*first, 100*frac(c.nearLater))
	}
	if c.evenPlayers != c.players {
		t.Errorf("mean score of %d of %d strengths in 40-60 %%, want all", c.evenPlayers, c.players)
	}
	if frac(c.even) < 0.95 {
		t.Errorf("score 40-60 %% in %.1f %% of runs, want at least 95 %%", 100*frac(c.even))
	}
}

// TestAdaptiveFollowsAnImprovingPlayer checks that the rating follows a
// player who improves: simulated players (seeded) on the engine's ladder
// start at 1000 Elo and gain 2 a game, rated from between easy and medium
// and given the rung nearest their rating; from game 200 to 700 (1400 to
// 2400 Elo) they are rated on average less than 60 Elo behind. With no
// MinDeviation they were about 71 behind; with it, about 54.
func TestAdaptiveFollowsAnImprovingPlayer(t *testing.T) {
	var ladder []float64
	for r := engine.Rung(1); r <= engine.Rungs; r++ {
		ladder = append(ladder, r.Elo())
	}
	start := (engine.Easy.Rung().Elo() + engine.Medium.Rung().Elo()) / 2
	const seeds, from, to = 200, 200, 700
	var lag float64
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(99, uint64(seed)))
		r := New(start)
		for g := range to + 1 {
			strength := 1000 + 2*float64(g)
			if g >= from {
				lag += strength - r.Value
			}
			i := Pick(r, ladder)
			r = r.Update(ladder[i], draw(rng, Expected(strength, ladder[i])))
		}
	}
	lag /= seeds * (to - from + 1)
	t.Logf("a player gaining 2 Elo a game is rated %.1f Elo behind on average over games %d to %d", lag, from, to)
	if !(lag > 0 && lag < 60) {
		t.Errorf("rated %.1f Elo behind a player gaining 2 a game, want 0 to 60", lag)
	}
}
