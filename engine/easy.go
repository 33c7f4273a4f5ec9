package engine

import (
	"context"
	"math/rand/v2"
)

// easy plays a random legal move.
type easy struct{ rng *rand.Rand }

// Move returns a random empty cell.
func (e easy) Move(ctx context.Context, b *Board) (Point, error) {
	if err := checkPlayable(ctx, b); err != nil {
		return Point{}, err
	}
	return pick(e.rng, b.LegalMoves()), nil
}
