package engine

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The ladder's measurement: go test ./engine -run TestLadderElo -ladder -v
// (see "The strength ladder" in docs/engine.md).
var (
	ladderRun     = flag.Bool("ladder", false, "measure the strength ladder's Elo (TestLadderElo)")
	ladderGames   = flag.Int("laddergames", 100, "games per pair of rungs in TestLadderElo")
	ladderDist    = flag.Int("ladderdist", 3, "TestLadderElo plays every pair of rungs at most this far apart")
	ladderWorkers = flag.Int("ladderworkers", 2, "games played at once in TestLadderElo")
	ladderPairs   = flag.String("ladderpairs", "", "pairs a:b of rungs to play instead (TestLadderElo), e.g. 9:8,10:9")
)

// ladderAnchor is the rung whose Elo the fit fixes (easy's), and
// ladderAnchorElo its Elo.
var ladderAnchor = int(Easy.Rung())

const ladderAnchorElo = 1000

// pairResult is the result of the games between rungs a and b, from a's
// side.
type pairResult struct {
	a, b                       int
	games, wins, losses, draws int
	distinct                   int // games that differ in colours or moves
}

// score is a's points: a win 1, a draw ½.
func (p pairResult) score() float64 { return float64(p.wins) + float64(p.draws)/2 }

// ladderPlayer is the player of rung r in a calibration game: hard (at
// Rungs) within matchNodes nodes a move, as in the calibration matches.
func ladderPlayer(r Rung, seed uint64) Player {
	o := Options{Rand: rand.New(rand.NewPCG(seed, 13)), MaxNodes: matchNodes, TTBytes: 4 << 20}
	p, err := NewRungPlayer(r, o)
	if err != nil {
		panic(err)
	}
	return p
}

// ladderOpening returns the stones the i-th pair of games of a ladder
// match starts from: openings[15], then three stones (black, white,
// black) drawn at random, seeded by i, from the 5×5 cells around the
// centre. The random openings vary the games between the rungs that
// search within a node budget, which play the same move in the same
// position: from openings[15] alone they repeat some 26 games.
func ladderOpening(i int) []Point {
	if ops := openings[15]; i < len(ops) {
		return ops[i]
	}
	rng := rand.New(rand.NewPCG(uint64(i), 17))
	var ps []Point
	for len(ps) < 3 {
		p := Point{5 + rng.IntN(5), 5 + rng.IntN(5)}
		if !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// playLadderGame plays game g between rungs a and b on 15×15 freestyle
// and returns a's points (1, ½ or 0) and the game's moves. Games 2i and
// 2i+1 start from ladderOpening(i), a playing Black in the first; the
// players are seeded from the pair and the game's number.
func playLadderGame(t testing.TB, a, b Rung, g int) (float64, string) {
	board, err := Replay(Rules{Width: 15, Height: 15, K: 5}, ladderOpening(g/2))
	if err != nil { // t.Fatal may not be called from a worker
		t.Errorf("opening %d: %v", g/2, err)
		return 0.5, ""
	}
	seed := uint64(a)<<40 | uint64(b)<<32 | uint64(g)<<1
	pa, pb := ladderPlayer(a, seed), ladderPlayer(b, seed|1)
	aColour, black, white := Black, pa, pb
	if g%2 == 1 {
		aColour, black, white = White, pb, pa
	}
	if err := playOut(board, black, white); err != nil {
		t.Errorf("rungs %d-%d game %d: %v", a, b, g, err)
		return 0.5, ""
	}
	moves := fmt.Sprint(aColour, board.Moves())
	switch o := board.Outcome(); {
	case o.Status == Draw:
		return 0.5, moves
	case o.Winner == aColour:
		return 1, moves
	}
	return 0, moves
}

// playLadderPairs plays games games of every pair, workers at a time
// (every game is seeded and node-bound, so the results do not depend on
// the order or the machine).
func playLadderPairs(t testing.TB, pairs [][2]Rung, games, workers int) []pairResult {
	res := make([]pairResult, len(pairs))
	for i, p := range pairs {
		res[i].a, res[i].b = int(p[0]), int(p[1])
	}
	type job struct{ pair, game int }
	jobs := make(chan job)
	seen := make([]map[string]bool, len(pairs))
	for i := range seen {
		seen[i] = map[string]bool{}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				s, moves := playLadderGame(t, pairs[j.pair][0], pairs[j.pair][1], j.game)
				mu.Lock()
				p := &res[j.pair]
				p.games++
				if !seen[j.pair][moves] {
					seen[j.pair][moves] = true
					p.distinct++
				}
				switch s {
				case 1:
					p.wins++
				case 0:
					p.losses++
				default:
					p.draws++
				}
				mu.Unlock()
			}
		}()
	}
	for g := range games {
		for i := range pairs {
			jobs <- job{i, g}
		}
	}
	close(jobs)
	wg.Wait()
	return res
}

// eloScale is the logistic scale of Elo: a difference of d gives the
// stronger side an expected score of 1/(1+10^(-d/400)).
const eloScale = 400 / math.Ln10

// expectedScore is the expected score of a player d Elo above its
// opponent.
func expectedScore(d float64) float64 { return 1 / (1 + math.Exp(-d/eloScale)) }

// fitElo fits the Elo of players 1..n (index 0 unused) to the pair
// results by maximum likelihood (Bradley–Terry with the logistic Elo
// scale; a draw counts as half a win and half a loss), with player anchor
// fixed at anchorElo. cov is the covariance of the Elos, the inverse of
// the observed information (minus the Hessian of the log-likelihood) at
// the optimum, with a zero row and column for the anchor: intervals are
// relative to the anchor (see halfWidth). It fails when the results do not
// fix every Elo (a group of players won or lost every game it played
// against the rest).
func fitElo(n int, res []pairResult, anchor int, anchorElo float64) (elo []float64, cov [][]float64, err error) {
	// free[i] is the index of player i among the fitted parameters, -1
	// for the anchor.
	free := make([]int, n+1)
	k := 0
	for i := 1; i <= n; i++ {
		free[i] = -1
		if i != anchor {
			free[i] = k
			k++
		}
	}
	elo = make([]float64, n+1)
	for i := range elo {
		elo[i] = anchorElo
	}
	info := make([][]float64, k)
	for iter := 0; ; iter++ {
		if iter == 200 {
			return nil, nil, errors.New("fit: no convergence (a group of players won or lost every game against the rest?)")
		}
		grad := make([]float64, k)
		for i := range info {
			info[i] = make([]float64, k)
		}
		for _, r := range res {
			if r.games == 0 {
				continue
			}
			p := expectedScore(elo[r.a] - elo[r.b])
			g := (r.score() - float64(r.games)*p) / eloScale
			w := float64(r.games) * p * (1 - p) / (eloScale * eloScale)
			ia, ib := free[r.a], free[r.b]
			if ia >= 0 {
				grad[ia] += g
				info[ia][ia] += w
			}
			if ib >= 0 {
				grad[ib] -= g
				info[ib][ib] += w
			}
			if ia >= 0 && ib >= 0 {
				info[ia][ib] -= w
				info[ib][ia] -= w
			}
		}
		inv, ok := invert(info)
		if !ok {
			return nil, nil, errors.New("fit: the results do not connect every player")
		}
		most := 0.0
		for i := 1; i <= n; i++ {
			f := free[i]
			if f < 0 {
				continue
			}
			var step float64
			for j := range k {
				step += inv[f][j] * grad[j]
			}
			step = max(-400, min(400, step)) // damp the first steps
			elo[i] += step
			most = max(most, math.Abs(step))
		}
		if most > 1e6 || math.IsNaN(most) {
			return nil, nil, errors.New("fit: diverges (a group of players won or lost every game against the rest)")
		}
		if most < 1e-7 {
			cov = make([][]float64, n+1)
			for i := range cov {
				cov[i] = make([]float64, n+1)
				for j := range cov[i] {
					if i > 0 && j > 0 && free[i] >= 0 && free[j] >= 0 {
						cov[i][j] = inv[free[i]][free[j]]
					}
				}
			}
			return elo, cov, nil
		}
	}
}

// halfWidth returns the half-width of the 95 % interval of elo[i] −
// elo[j] (j = 0: of elo[i] relative to the anchor) from the covariance.
func halfWidth(cov [][]float64, i, j int) float64 {
	return 1.959964 * math.Sqrt(max(cov[i][i]+cov[j][j]-2*cov[i][j], 0))
}

// invert returns the inverse of the square matrix m by Gauss–Jordan
// elimination with partial pivoting, and false when m is singular.
func invert(m [][]float64) ([][]float64, bool) {
	n := len(m)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, 2*n)
		copy(a[i], m[i])
		a[i][n+i] = 1
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-15 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		d := a[c][c]
		for j := range a[c] {
			a[c][j] /= d
		}
		for r := range n {
			if r != c && a[r][c] != 0 {
				f := a[r][c]
				for j := range a[r] {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = a[i][n:]
	}
	return inv, true
}

func TestLadderElo(t *testing.T) {
	if !*ladderRun {
		t.Skip("measures the ladder: go test ./engine -run TestLadderElo -ladder -v")
	}
	var pairs [][2]Rung
	if *ladderPairs != "" {
		for _, f := range strings.Split(*ladderPairs, ",") {
			a, b, _ := strings.Cut(f, ":")
			x, errA := strconv.Atoi(a)
			y, errB := strconv.Atoi(b)
			if errA != nil || errB != nil || !Rung(x).Valid() || !Rung(y).Valid() {
				t.Fatalf("-ladderpairs: bad pair %q", f)
			}
			pairs = append(pairs, [2]Rung{Rung(x), Rung(y)})
		}
	} else {
		for d := Rung(1); int(d) <= *ladderDist; d++ {
			for a := Rung(1); a+d <= Rungs; a++ {
				pairs = append(pairs, [2]Rung{a + d, a})
			}
		}
	}
	start := time.Now()
	res := playLadderPairs(t, pairs, *ladderGames, *ladderWorkers)
	wall := time.Since(start).Round(time.Second)
	games := make([]int, Rungs+1)
	for _, p := range res {
		t.Logf("rung %2d vs %2d: %d games +%d -%d =%d (%.1f%%), %d distinct", p.a, p.b, p.games, p.wins, p.losses, p.draws, 100*p.score()/float64(p.games), p.distinct)
		games[p.a] += p.games
		games[p.b] += p.games
	}
	t.Logf("%d games in %v (%d at a time)", len(pairs)**ladderGames, wall, *ladderWorkers)
	if *ladderPairs != "" {
		return
	}
	elo, cov, err := fitElo(int(Rungs), res, ladderAnchor, ladderAnchorElo)
	if err != nil {
		t.Fatal(err)
	}
	var table, code strings.Builder
	fmt.Fprintf(&table, "| rung | plays | Elo ± 95 %% | above the rung below ± 95 %% | games |\n|---:|---|---:|---:|---:|\n")
	for r := 1; r <= int(Rungs); r++ {
		name := ladder[r-1].String()
		for _, l := range Levels {
			if int(l.Rung()) == r {
				name = "**" + l.String() + "**"
				if l == Hard {
					name += fmt.Sprintf(" (%d nodes a move)", matchNodes)
				}
			}
		}
		pm := fmt.Sprintf("± %.0f", halfWidth(cov, r, 0))
		if r == ladderAnchor {
			pm = "(anchor)"
		}
		step := "–"
		if r > 1 {
			step = fmt.Sprintf("%+.0f ± %.0f", elo[r]-elo[r-1], halfWidth(cov, r, r-1))
		}
		fmt.Fprintf(&table, "| %d | %s | %.0f %s | %s | %d |\n", r, name, elo[r], pm, step, games[r])
		fmt.Fprintf(&code, "\t{..., elo: %.0f}, // ± %.0f, %d games\n", elo[r], halfWidth(cov, r, 0), games[r])
		if r > 1 && elo[r] <= elo[r-1] {
			t.Logf("rung %d (%.0f) is not above rung %d (%.0f)", r, elo[r], r-1, elo[r-1])
		}
		if stored := Rung(r).Elo(); math.Abs(stored-elo[r]) >= 0.5 {
			t.Logf("rung %d: measured %.0f, ladder.go says %.0f: update ladder.go and docs/engine.md", r, elo[r], stored)
		}
	}
	t.Logf("the ladder, easy anchored at %d:\n%s\nfor ladder in ladder.go:\n%s", ladderAnchorElo, table.String(), code.String())
}

// TestFitEloSynthetic checks the fit on results drawn from known Elos.
func TestFitEloSynthetic(t *testing.T) {
	// Two players: 75 % is 400·log10(3) ≈ 190.85 Elo.
	elo, cov, err := fitElo(2, []pairResult{{a: 2, b: 1, games: 40, wins: 28, losses: 8, draws: 4}}, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1000 + 400*math.Log10(3); math.Abs(elo[2]-want) > 1e-6 {
		t.Errorf("75%%: Elo %.4f, want %.4f", elo[2], want)
	}
	// Its interval: 1.96 standard errors, 1/sqrt(n·p·(1−p)) on the
	// logistic scale.
	if want := 1.959964 * eloScale / math.Sqrt(40*0.75*0.25); math.Abs(halfWidth(cov, 2, 0)-want) > 1e-6 {
		t.Errorf("75%%: interval ± %.4f, want ± %.4f", halfWidth(cov, 2, 0), want)
	}

	truth := []float64{0, 650, 800, 1000, 1080, 1250, 1400, 1480, 1700, 1900}
	n := len(truth) - 1
	const anchor, games, drawRate = 3, 300, 0.1
	rng := rand.New(rand.NewPCG(7, 7))
	var res []pairResult
	for d := 1; d <= 2; d++ {
		for a := 1; a+d <= n; a++ {
			r := pairResult{a: a + d, b: a, games: games}
			p := expectedScore(truth[a+d] - truth[a])
			for range games {
				// Draws drawRate of the time, wins so that the expected
				// score is p.
				switch u := rng.Float64(); {
				case u < drawRate:
					r.draws++
				case u < drawRate+p-drawRate/2:
					r.wins++
				default:
					r.losses++
				}
			}
			res = append(res, r)
		}
	}
	elo, cov, err = fitElo(n, res, anchor, truth[anchor])
	if err != nil {
		t.Fatal(err)
	}
	covered := 0
	for i := 1; i <= n; i++ {
		ci := halfWidth(cov, i, 0)
		t.Logf("player %d: true %.0f, fitted %.1f ± %.1f", i, truth[i], elo[i], ci)
		if i == anchor {
			if elo[i] != truth[i] || ci != 0 {
				t.Errorf("anchor: %.1f ± %.1f, want %.0f ± 0", elo[i], ci, truth[i])
			}
			continue
		}
		if ci <= 0 || ci > 150 {
			t.Errorf("player %d: interval ± %.1f, want a positive one under 150", i, ci)
		}
		if e := math.Abs(elo[i] - truth[i]); e > 1.5*ci {
			t.Errorf("player %d: fitted %.1f, true %.0f: off by %.1f, more than 1.5 × the interval %.1f", i, elo[i], truth[i], e, ci)
		}
		if math.Abs(elo[i]-truth[i]) <= ci {
			covered++
		}
	}
	if covered < n-3 {
		t.Errorf("the 95%% intervals cover %d of %d true Elos", covered, n-1)
	}

	// A player that wins every game is not fixed by the results.
	if _, _, err := fitElo(2, []pairResult{{a: 2, b: 1, games: 10, wins: 10}}, 1, 1000); err == nil {
		t.Error("fit of a 10–0 result: no error")
	}
}

func TestRungAPI(t *testing.T) {
	if Rungs < 8 || Rungs > 16 {
		t.Errorf("Rungs = %d, want 8 to 16", Rungs)
	}
	if Rung(0).Valid() || (Rungs + 1).Valid() || !Rung(1).Valid() || !Rungs.Valid() {
		t.Error("Valid: want 1..Rungs exactly")
	}
	if Easy.Rung() != 3 || Medium.Rung() != 8 || Hard.Rung() != Rungs || !(1 < Easy.Rung() && Easy.Rung() < Medium.Rung() && Medium.Rung() < Hard.Rung()) {
		t.Errorf("Rung: easy %d, medium %d, hard %d", Easy.Rung(), Medium.Rung(), Hard.Rung())
	}
	if Level(0).Rung() != 0 || Level(200).Rung() != 0 {
		t.Error("an invalid level has a rung")
	}
	if e := Easy.Rung().Elo(); e != ladderAnchorElo {
		t.Errorf("easy's Elo %.0f, want the anchor %d", e, ladderAnchorElo)
	}
	for r := Rung(2); r <= Rungs; r++ {
		if r.Elo() <= (r - 1).Elo() {
			t.Errorf("rung %d: Elo %.0f not above rung %d's %.0f", r, r.Elo(), r-1, (r - 1).Elo())
		}
	}
	for _, r := range []Rung{0, Rungs + 1, 255} {
		if _, err := NewRungPlayer(r, Options{}); !errors.Is(err, ErrBadLevel) {
			t.Errorf("NewRungPlayer(%d): %v, want ErrBadLevel", r, err)
		}
	}
}

// fastRung returns the player of rung r seeded by seed, hard within 2 000
// nodes a move so that tests stay fast and reproducible.
func fastRung(t *testing.T, r Rung, seed uint64) Player {
	t.Helper()
	p, err := NewRungPlayer(r, Options{Rand: rand.New(rand.NewPCG(seed, 3)), MaxNodes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRungsPlayLegalMoves(t *testing.T) {
	boards := []Rules{TicTacToe(), {Width: 7, Height: 7, K: 5}, {Width: 15, Height: 15, K: 5}, {Width: 15, Height: 15, K: 5, Renju: true}}
	for r := Rung(1); r <= Rungs; r++ {
		for _, rules := range boards {
			// One game against the rung below (rung 1 against itself),
			// each side once Black.
			a, b := fastRung(t, r, uint64(r)), fastRung(t, max(r-1, 1), uint64(r)+100)
			board := mustPlayTB(t, rules)
			for i := 0; !board.Over(); i++ {
				p := a
				if (board.ToMove() == Black) != (r%2 == 0) {
					p = b
				}
				m, err := p.Move(context.Background(), board)
				if err != nil {
					t.Fatalf("rung %d on %v: %v\n%s", r, rules, err, show(board))
				}
				if err := board.Play(m); err != nil {
					t.Fatalf("rung %d on %v played illegal %v: %v\n%s", r, rules, m, err, show(board))
				}
			}
			if _, err := a.Move(context.Background(), board); !errors.Is(err, ErrGameOver) {
				t.Errorf("rung %d on a finished game: %v, want ErrGameOver", r, err)
			}
		}
	}
}

// TestRungsOfLevelsAreTheLevels checks that the rung of each level plays
// exactly as the level's player: same seeds, same moves.
func TestRungsOfLevelsAreTheLevels(t *testing.T) {
	boards := []Rules{TicTacToe(), {Width: 7, Height: 7, K: 5}, {Width: 15, Height: 15, K: 5}}
	for _, l := range Levels {
		for _, rules := range boards {
			for seed := uint64(1); seed <= 3; seed++ {
				opts := func() Options {
					return Options{Rand: rand.New(rand.NewPCG(seed, 5)), MaxNodes: 3000}
				}
				byRung, err := NewRungPlayer(l.Rung(), opts())
				if err != nil {
					t.Fatal(err)
				}
				byLevel, _ := NewPlayerWith(l, opts())
				if a, b := fmt.Sprintf("%T", byRung), fmt.Sprintf("%T", byLevel); a != b {
					t.Fatalf("%v: rung %d is a %s, the level a %s", l, l.Rung(), a, b)
				}
				// The other side plays medium's moves, seeded apart.
				opp, _ := NewPlayer(Medium, rand.New(rand.NewPCG(seed, 6)))
				board := mustPlayTB(t, rules)
				for n := 0; n < 24 && !board.Over(); n++ {
					var m Point
					if n%2 == int(seed%2) {
						m, _ = opp.Move(context.Background(), board)
					} else {
						m1, err1 := byRung.Move(context.Background(), board)
						m2, err2 := byLevel.Move(context.Background(), board)
						if m1 != m2 || err1 != nil || err2 != nil {
							t.Fatalf("%v on %v, seed %d, move %d: rung plays %v (%v), level %v (%v)\n%s", l, rules, seed, n, m1, err1, m2, err2, show(board))
						}
						m = m1
					}
					if err := board.Play(m); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// loses walks every sequence of the opponent's replies against ai on b,
// ai playing side me, and returns how many finished games ai lost and
// how many there were.
func loses(t *testing.T, ai Player, b *Board, me Stone) (lost, games int) {
	t.Helper()
	if b.Over() {
		o := b.Outcome()
		if o.Status == Won && o.Winner != me {
			return 1, 1
		}
		return 0, 1
	}
	if b.ToMove() == me {
		p, err := ai.Move(context.Background(), b)
		if err != nil {
			t.Fatalf("AI move: %v\n%s", err, show(b))
		}
		if err := b.Play(p); err != nil {
			t.Fatalf("AI played illegal %v: %v\n%s", p, err, show(b))
		}
		lost, games = loses(t, ai, b, me)
		_ = b.Undo()
		return lost, games
	}
	for _, p := range b.LegalMoves() {
		_ = b.Play(p)
		l, g := loses(t, ai, b, me)
		lost, games = lost+l, games+g
		_ = b.Undo()
	}
	return lost, games
}

// TestMaxRungTicTacToe checks MaxRung on 3×3 from play: every rung up to
// it loses some game to some sequence of replies, and no rung above it
// loses any.
func TestMaxRungTicTacToe(t *testing.T) {
	ttt := TicTacToe()
	top := MaxRung(ttt)
	if !top.Valid() || top >= Rungs || top < Medium.Rung() {
		t.Fatalf("MaxRung(ttt) = %d, want a rung from medium's to below Rungs", top)
	}
	for r := Rung(1); r <= Rungs; r++ {
		lost, games := 0, 0
		for _, me := range []Stone{Black, White} {
			for seed := uint64(1); seed <= 3; seed++ {
				b := mustPlayTB(t, ttt)
				l, g := loses(t, fastRung(t, r, seed), b, me)
				lost, games = lost+l, games+g
			}
		}
		t.Logf("rung %d on 3×3: lost %d of %d games against every reply", r, lost, games)
		if r <= top && lost == 0 {
			t.Errorf("rung %d is at most MaxRung(ttt) = %d but lost none of %d games", r, top, games)
		}
		if r > top && lost > 0 {
			t.Errorf("rung %d is above MaxRung(ttt) = %d but lost %d of %d games", r, top, lost, games)
		}
	}
}

// TestMaxRungSmallBoards checks that MaxRung is below Rungs exactly on the
// boards hard solves whose game is a draw with perfect play, and that
// there MaxRung loses to hard.
func TestMaxRungSmallBoards(t *testing.T) {
	for w := MinSize; w <= 5; w++ {
		for h := MinSize; h <= 5; h++ {
			for k := MinK; k <= min(w, h); k++ {
				for _, exact := range []bool{false, true} {
					r := Rules{Width: w, Height: h, K: k, Exact: exact}
					if r.Cells() > solveMaxCells {
						continue
					}
					s := newSmallSolver(r)
					s.ctx = context.Background()
					v := s.negamax(make([]uint8, r.Cells()), uint8(Black), r.Cells(), -127, 127)
					if drawn := v == 0; drawn != (MaxRung(r) < Rungs) {
						t.Errorf("%v: perfect play value %d, MaxRung %d", r, v, MaxRung(r))
					}
				}
			}
		}
	}
	if got := MaxRung(Rules{Width: 15, Height: 15, K: 5}); got != Rungs {
		t.Errorf("MaxRung(gomoku) = %d, want Rungs", got)
	}
	if testing.Short() {
		return
	}
	// On 4×4 (four in a row) MaxRung loses some games to hard. (The
	// players are kept from game to game, so that their solvers' tables
	// are.)
	r := Rules{Width: 4, Height: 4, K: 4}
	rung := fastRung(t, MaxRung(r), 1)
	h, _ := NewPlayerWith(Hard, Options{Rand: rand.New(rand.NewPCG(1, 9))})
	lost := 0
	const games = 100
	for g := range games {
		b := mustPlayTB(t, r)
		me, black, white := Black, rung, h
		if g%2 == 1 {
			me, black, white = White, h, rung
		}
		if err := playOut(b, black, white); err != nil {
			t.Fatal(err)
		}
		if o := b.Outcome(); o.Status == Won && o.Winner != me {
			lost++
		}
	}
	t.Logf("4×4: rung %d lost %d of %d games to hard", MaxRung(r), lost, games)
	if lost == 0 {
		t.Errorf("4×4: rung %d lost none of %d games to hard", MaxRung(r), games)
	}
}

// TestLadderSmoke plays short matches between rungs far apart: the
// stronger must score more.
func TestLadderSmoke(t *testing.T) {
	pairs := [][2]Rung{{3, 1}, {8, 3}, {12, 8}, {15, 11}}
	for _, p := range playLadderPairs(t, pairs, 6, 2) {
		t.Logf("rung %d vs %d: %d games +%d -%d =%d", p.a, p.b, p.games, p.wins, p.losses, p.draws)
		if 2*p.score() <= float64(p.games) {
			t.Errorf("rung %d scored %.1f of %d against rung %d", p.a, p.score(), p.games, p.b)
		}
	}
}

// String describes what rung s plays.
func (s rungSpec) String() string {
	switch s.kind {
	case kindLoose:
		return fmt.Sprintf("random cell near a stone (%d%% within two, else next to one); takes a five, never blocks one", s.far)
	case kindEasy:
		return "easy"
	case kindMixEasy:
		return fmt.Sprintf("medium's move %d%% of the time, else easy's", s.mix)
	case kindMedium:
		return "medium"
	case kindMixMedium:
		return fmt.Sprintf("hard's move (%d nodes) %d%% of the time, else medium's", s.nodes, s.mix)
	case kindBudget:
		return fmt.Sprintf("hard within %d nodes a move", s.nodes)
	}
	return "hard"
}
