package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// lineAttacker plays one line and nothing else, as a new player tries
// medium: its cells from start along (dx, dy), in the order of steps
// (offsets from start), then ever further out both ways; a taken cell is
// skipped.
type lineAttacker struct {
	start  Point
	dx, dy int
	steps  []int
}

// Move plays the first empty cell of the line, or any legal move when the
// line is full.
func (a lineAttacker) Move(_ context.Context, b *Board) (Point, error) {
	order := append([]int(nil), a.steps...)
	for n := 1; n < 19; n++ {
		order = append(order, a.steps[len(a.steps)-1]+n, a.steps[0]-n)
	}
	for _, k := range order {
		p := Point{a.start.X + k*a.dx, a.start.Y + k*a.dy}
		if r := b.Rules(); p.X >= 0 && p.Y >= 0 && p.X < r.Width && p.Y < r.Height && b.At(p) == Empty && b.Legal(p) {
			return p, nil
		}
	}
	return b.LegalMoves()[0], nil
}

// TestMediumStopsNaiveLines plays medium against attackers that build one
// line of five and nothing else (straight, diagonal, with a gap, from the
// centre and near an edge), attacker first and second, on every gomoku
// rule: medium blocks every open three and four, so no attack wins. The
// attacks of the bug report are among them: h8 i9 j10 k11 l12, g7 h8 i9
// j10 k11, and l4 k5 j6 i7 h8 under exact five.
func TestMediumStopsNaiveLines(t *testing.T) {
	rules := map[string]Rules{
		"freestyle": {Width: 15, Height: 15, K: 5},
		"exact":     {Width: 15, Height: 15, K: 5, Exact: true},
		"renju":     {Width: 15, Height: 15, K: 5, Renju: true},
		"19x19":     {Width: 19, Height: 19, K: 5},
	}
	dirs := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	shapes := map[string][]int{
		"straight": {0, 1, 2, 3, 4},
		"gap":      {0, 1, 3, 4, 2}, // x x _ x x, then the gap
		"broken3":  {0, 2, 3, 1, 4}, // x _ x x: a broken three first
		"spread":   {0, 4, 2, 1, 3},
	}
	starts := []Point{{7, 7}, {6, 8}, {2, 12}, {11, 3}}
	games, lost := 0, 0
	for rn, r := range rules {
		for sn, steps := range shapes {
			for _, d := range dirs {
				for si, start := range starts {
					for _, attackerFirst := range []bool{true, false} {
						name := fmt.Sprintf("%s/%s/d%v/s%d/first=%v", rn, sn, d, si, attackerFirst)
						att := lineAttacker{start: start, dx: d[0], dy: d[1], steps: steps}
						seed := uint64(games)
						med, err := NewPlayerWith(Medium, Options{Rand: rand.New(rand.NewPCG(seed, 3))})
						if err != nil {
							t.Fatal(err)
						}
						b, err := NewBoard(r)
						if err != nil {
							t.Fatal(err)
						}
						attColour := Black
						if !attackerFirst {
							// Medium opens, at the centre: a line through it
							// skips it.
							attColour = White
						}
						for n := 0; n < 60 && !b.Over(); n++ {
							var p Point
							if b.ToMove() == attColour {
								p, err = att.Move(context.Background(), b)
							} else {
								p, err = med.Move(context.Background(), b)
							}
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							if err := b.Play(p); err != nil {
								t.Fatalf("%s: %v at %v\n%s", name, err, p, show(b))
							}
						}
						games++
						if o := b.Outcome(); b.Over() && o.Winner == attColour {
							lost++
							t.Errorf("%s: the naive line beat medium\n%s", name, show(b))
						}
					}
				}
			}
		}
	}
	t.Logf("%d naive attacks, %d won against medium", games, lost)
}

// TestMediumBlocksTheBugReportsLines replays the attacks that beat medium
// in the bug report and checks medium's answer to the open three: the
// opponent has no unstoppable four after it.
func TestMediumBlocksTheBugReportsLines(t *testing.T) {
	for _, tt := range []struct {
		name  string
		rules Rules
		moves []Point // the attacker's three and medium's earlier replies
	}{
		// h8 i9 j10 (open three on the diagonal), medium having played
		// elsewhere.
		{"diagonal", Rules{Width: 15, Height: 15, K: 5}, []Point{{7, 7}, {2, 2}, {8, 6}, {2, 3}, {9, 5}}},
		// l4 k5 j6 under exact five.
		{"anti-diagonal exact", Rules{Width: 15, Height: 15, K: 5, Exact: true}, []Point{{11, 11}, {2, 2}, {10, 10}, {2, 3}, {9, 9}}},
		// x _ x x: a broken three on a row.
		{"broken row", Rules{Width: 15, Height: 15, K: 5}, []Point{{5, 7}, {2, 2}, {7, 7}, {2, 3}, {8, 7}}},
		{"renju column", Rules{Width: 15, Height: 15, K: 5, Renju: true}, []Point{{7, 5}, {2, 2}, {7, 6}, {12, 3}, {7, 7}}},
	} {
		for seed := range uint64(8) {
			b, err := Replay(tt.rules, tt.moves)
			if err != nil {
				t.Fatal(err)
			}
			med, _ := NewPlayerWith(Medium, Options{Rand: rand.New(rand.NewPCG(seed, 5))})
			m, err := med.Move(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
			p := newPos(b)
			if _, th := p.scan(nil); th.myFlex >= 0 {
				t.Errorf("%s, seed %d: medium played %v and left an open four at %v\n%s", tt.name, seed, m, p.point(int(th.myFlex)), show(b))
			}
		}
	}
}
