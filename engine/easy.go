package engine

import (
	"context"
	"math/rand/v2"
)

// easyBlockChance is the chance in percent that easy blocks an opponent's
// winning cell.
const easyBlockChance = 40

// easy plays like a beginner: it takes a win when it has one, blocks the
// opponent's win only sometimes, and otherwise plays a random cell next to
// a stone (any cell on an empty board).
type easy struct{ rng *rand.Rand }

// Move returns easy's move.
func (e easy) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	b = b.Clone()
	if ps := winningMoves(b, b.ToMove()); len(ps) > 0 {
		return pick(e.rng, ps), nil
	}
	if ps := winningMoves(b, b.ToMove().Opponent()); len(ps) > 0 && e.rng.IntN(100) < easyBlockChance {
		return pick(e.rng, ps), nil
	}
	if ps := nearStones(b, 1); len(ps) > 0 {
		return pick(e.rng, ps), nil
	}
	return pick(e.rng, b.LegalMoves()), nil
}
