package engine

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
)

// matchSide is one contestant of a calibration match.
type matchSide struct {
	level Level
	nodes int64 // hard's node budget per move; 0 means the default time
}

// matchScore is the result of a match from the first side's point of view.
type matchScore struct {
	games, wins, losses, draws int
}

// percent returns the first side's score: a win is 1, a draw ½.
func (m matchScore) percent() float64 {
	return 100 * (float64(m.wins) + float64(m.draws)/2) / float64(m.games)
}

func (m matchScore) String() string {
	return fmt.Sprintf("%d games: +%d -%d =%d (%.1f%%)", m.games, m.wins, m.losses, m.draws, m.percent())
}

// openings are fixed starting stones (black, white, black…) that vary the
// games; each is played once with each colour.
var openings = map[int][][]Point{
	7:  {{}, {{3, 3}, {3, 2}}, {{3, 3}, {4, 4}}, {{2, 3}, {3, 3}, {4, 2}}, {{3, 3}, {1, 1}}},
	15: {{}, {{7, 7}, {7, 6}}, {{7, 7}, {8, 6}}, {{7, 7}, {8, 8}, {6, 8}}, {{7, 7}, {8, 7}, {9, 9}}, {{7, 7}, {5, 5}}},
}

// playMatch plays games games on r between a and b with alternating
// colours, cycling through the openings for r's width; every game is
// seeded from its number.
func playMatch(t testing.TB, r Rules, a, b matchSide, games int) matchScore {
	t.Helper()
	ops := openings[r.Width]
	if len(ops) == 0 {
		ops = [][]Point{{}}
	}
	var sc matchScore
	for g := range games {
		board := mustPlayTB(t, r, ops[(g/2)%len(ops)]...)
		seed := uint64(g)
		pa, pb := newMatchPlayer(a, seed*2), newMatchPlayer(b, seed*2+1)
		aColour, black, white := Black, pa, pb
		if g%2 == 1 {
			aColour, black, white = White, pb, pa
		}
		if err := playOut(board, black, white); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		sc.games++
		switch o := board.Outcome(); {
		case o.Status == Draw:
			sc.draws++
		case o.Winner == aColour:
			sc.wins++
		default:
			sc.losses++
		}
	}
	return sc
}

// playOut plays b to its end, black and white moving in turn, and says
// which move went wrong, with the board, when one does.
func playOut(b *Board, black, white Player) error {
	for !b.Over() {
		p := white
		if b.ToMove() == Black {
			p = black
		}
		m, err := p.Move(context.Background(), b)
		if err != nil {
			return fmt.Errorf("%v\n%s", err, show(b))
		}
		if err := b.Play(m); err != nil {
			return fmt.Errorf("illegal %v: %v\n%s", m, err, show(b))
		}
	}
	return nil
}

func newMatchPlayer(s matchSide, seed uint64) Player {
	o := Options{Rand: rand.New(rand.NewPCG(seed, 11)), MaxNodes: s.nodes, TTBytes: 4 << 20}
	if *matchThink > 0 {
		o.MaxNodes, o.ThinkTime = 0, *matchThink
	}
	p, err := NewPlayerWith(s.level, o)
	if err != nil {
		panic(err)
	}
	return p
}

// mustPlayTB is mustPlay for tests and benchmarks.
func mustPlayTB(t testing.TB, r Rules, moves ...Point) *Board {
	t.Helper()
	b, err := Replay(r, moves)
	if err != nil {
		t.Fatalf("replay %v: %v", moves, err)
	}
	return b
}

// matchNodes is hard's node budget per move in the calibration matches.
const matchNodes = 20_000

// matchThink, when set, makes hard think this long per move in the
// calibration matches instead of searching matchNodes nodes (the games
// then depend on the machine's speed).
var matchThink = flag.Duration("matchthink", 0, "hard's think time per move in calibration matches (default: a fixed node budget)")

// matchNodesFlag overrides matchNodes.
var matchNodesFlag = flag.Int64("matchnodes", matchNodes, "hard's node budget per move in calibration matches")

// matchGames overrides the number of games of each calibration match.
var matchGames = flag.Int("matchgames", 0, "games per calibration match (default: 4, or 100 with -long)")

// calibration lists the matches and the score the first side must reach.
var calibration = []struct {
	rules Rules
	a, b  Level
	want  float64
}{
	{Rules{7, 7, 5, false, false}, Hard, Medium, 95},
	{Rules{7, 7, 5, false, false}, Medium, Easy, 90},
	{Rules{15, 15, 5, false, false}, Hard, Medium, 95},
	{Rules{15, 15, 5, false, false}, Medium, Easy, 90},
	{Rules{15, 15, 5, true, false}, Hard, Medium, 95},
	{Rules{15, 15, 5, false, true}, Hard, Medium, 95},
	{Rules{19, 19, 5, false, false}, Hard, Medium, 95},
}

func TestCalibrationMatches(t *testing.T) {
	games := 4 // a smoke run by default; -long plays the full matches
	if *long {
		games = 100
	}
	if *matchGames > 0 {
		games = *matchGames
	}
	for _, c := range calibration {
		name := fmt.Sprintf("%dx%dk%d", c.rules.Width, c.rules.Height, c.rules.K)
		switch {
		case c.rules.Exact:
			name += "exact"
		case c.rules.Renju:
			name += "renju"
		}
		t.Run(fmt.Sprintf("%s/%v-%v", name, c.a, c.b), func(t *testing.T) {
			n := *matchNodesFlag
			sc := playMatch(t, c.rules, matchSide{c.a, n}, matchSide{c.b, n}, games)
			t.Logf("%v: %v vs %v: %v", c.rules, c.a, c.b, sc)
			if sc.percent() < c.want {
				t.Errorf("%v: %v scored %.1f%% against %v, want ≥ %.0f%%", c.rules, c.a, sc.percent(), c.b, c.want)
			}
		})
	}
}

func TestHardNeverLosesTicTacToeMatches(t *testing.T) {
	for _, opp := range Levels {
		sc := playMatch(t, TicTacToe(), matchSide{Hard, 0}, matchSide{opp, 0}, 40)
		t.Logf("ttt: hard vs %v: %v", opp, sc)
		if sc.losses > 0 {
			t.Errorf("hard lost %d games of tic-tac-toe to %v", sc.losses, opp)
		}
	}
}
