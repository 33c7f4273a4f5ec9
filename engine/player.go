package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Player chooses moves for the side to move. Move never modifies b; it
// returns an error wrapping ErrGameOver when there is nothing to play, or
// the context's error when ctx ends before a move is found. A Player is not
// safe for concurrent use (its random source is not).
type Player interface {
	Move(ctx context.Context, b *Board) (Point, error)
}

// PlayerFunc adapts a plain function to the Player interface.
type PlayerFunc func(ctx context.Context, b *Board) (Point, error)

// Move calls f(ctx, b).
func (f PlayerFunc) Move(ctx context.Context, b *Board) (Point, error) { return f(ctx, b) }

// NewPlayer returns the AI player for level l drawing its random choices
// from rng, with the default Options otherwise (hard thinks
// DefaultThinkTime per move). A nil rng means a source seeded from the
// runtime, for callers that do not need to replay games.
func NewPlayer(l Level, rng *rand.Rand) (Player, error) {
	return NewPlayerWith(l, Options{Rand: rng})
}

// NewPlayerWith returns the AI player for level l tuned by o. It returns an
// error wrapping ErrBadLevel for an unknown level. Making a player is cheap:
// hard takes its transposition table from a shared pool when it moves.
func NewPlayerWith(l Level, o Options) (Player, error) {
	o = o.withDefaults()
	switch l {
	case Easy:
		return easy{rng: o.Rand, block: easyBlockChance}, nil
	case Medium:
		return medium{o.Rand}, nil
	case Hard:
		return &hard{opts: o}, nil
	}
	// Adaptive plays at a rung (NewRungPlayer), which a level alone does
	// not say.
	return nil, fmt.Errorf("engine: new player %v: %w", l, ErrBadLevel)
}

// checkPlayable returns an error wrapping ErrGameOver when b has no move, or
// the context's error when ctx is done.
func checkPlayable(ctx context.Context, b *Board) error {
	if b.Over() {
		return fmt.Errorf("engine: choose move: %w", ErrGameOver)
	}
	return ctx.Err()
}

// pick returns one of ps chosen by rng.
func pick(rng *rand.Rand, ps []Point) Point { return ps[rng.IntN(len(ps))] }
