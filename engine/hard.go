package engine

import (
	"context"
	"math/rand/v2"
)

// solveLimit is the most empty cells for which hard searches the whole game
// tree instead of judging moves by their lines.
const solveLimit = 10

// hard plays perfectly when few enough cells are empty to solve the game
// (every 3×3 game), and otherwise takes a win, blocks a loss, and plays the
// cell whose lines are worth most to both sides.
type hard struct{ rng *rand.Rand }

// Move returns a best move; among equally good ones it picks at random.
func (h hard) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	b = b.Clone()
	if empty := b.rules.Cells() - b.MoveCount(); empty <= solveLimit {
		best, err := newSolver(b).bestMoves(ctx)
		if err != nil {
			return Point{}, err
		}
		return pick(h.rng, best), nil
	}
	if ps := winningMoves(b, b.ToMove()); len(ps) > 0 {
		return pick(h.rng, ps), nil
	}
	if ps := winningMoves(b, b.ToMove().Opponent()); len(ps) > 0 {
		return pick(h.rng, ps), nil
	}
	return pick(h.rng, bestByLines(b)), nil
}

// bestByLines returns the empty cells near stones (or the centre on an
// empty board) with the highest line value for the side to move: what the
// cell builds for it plus what it takes from the opponent.
func bestByLines(b *Board) []Point {
	cands := nearStones(b, 2)
	if len(cands) == 0 {
		r := b.Rules()
		return []Point{{r.Width / 2, r.Height / 2}}
	}
	me := b.ToMove()
	var best []Point
	bestScore := -1
	for _, p := range cands {
		score := 2*b.lineValue(p, me) + b.lineValue(p, me.Opponent())
		switch {
		case score > bestScore:
			best, bestScore = append(best[:0], p), score
		case score == bestScore:
			best = append(best, p)
		}
	}
	return best
}

// lineValue sums, over every K-cell window through p that holds no stone
// of the other side, a weight that grows steeply with the stones of side s
// already in it.
func (b *Board) lineValue(p Point, s Stone) int {
	k := b.rules.K
	total := 0
	for _, d := range directions {
		for start := -(k - 1); start <= 0; start++ {
			own, blocked := 0, false
			for i := start; i < start+k; i++ {
				q := Point{p.X + i*d.X, p.Y + i*d.Y}
				if !b.rules.Contains(q) {
					blocked = true
					break
				}
				switch b.At(q) {
				case s:
					own++
				case s.Opponent():
					blocked = true
				}
				if blocked {
					break
				}
			}
			if !blocked {
				total += 1 << (3 * own)
			}
		}
	}
	return total
}
