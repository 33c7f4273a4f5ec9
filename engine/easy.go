package engine

import (
	"context"
	"math/rand/v2"
)

// easyBlockChance is the chance in percent that easy blocks an opponent's
// winning cell.
const easyBlockChance = 40

// easy plays like a beginner: it takes a win when it has one, blocks the
// opponent's win with chance block percent, and otherwise plays a random
// cell within two of a stone with chance far percent, next to one
// otherwise (any cell on an empty board). The easy level blocks with
// easyBlockChance and never plays far; the ladder's lowest rungs never
// block and scatter (see ladder.go).
type easy struct {
	rng        *rand.Rand
	block, far int
}

// Move returns easy's move.
func (e easy) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	b = b.Clone()
	if ps := winningMoves(b, b.ToMove()); len(ps) > 0 {
		return pick(e.rng, ps), nil
	}
	if e.block > 0 {
		if ps := winningMoves(b, b.ToMove().Opponent()); len(ps) > 0 && e.rng.IntN(100) < e.block {
			return pick(e.rng, ps), nil
		}
	}
	d := 1
	if e.far > 0 && e.rng.IntN(100) < e.far {
		d = 2
	}
	if ps := nearStones(b, d); len(ps) > 0 {
		return pick(e.rng, ps), nil
	}
	return pick(e.rng, b.LegalMoves()), nil
}
