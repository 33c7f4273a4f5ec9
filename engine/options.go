package engine

import (
	"math/rand/v2"
	"time"
)

// Options tune an AI player. The zero value of every field means its
// documented default.
type Options struct {
	// Rand is the source of the player's random choices; nil means a source
	// seeded from the runtime.
	Rand *rand.Rand
	// ThinkTime is how long hard searches a move on boards it cannot solve
	// outright; zero means DefaultThinkTime. Easy and medium answer at once.
	ThinkTime time.Duration
	// MaxNodes, when positive, bounds hard's search by nodes instead of
	// time, which makes its moves reproducible: the same position, options
	// and seed give the same move. ThinkTime is then ignored.
	MaxNodes int64
	// TTBytes bounds hard's transposition table; zero means
	// DefaultTTBytes. Tables are pooled between moves and players, so a
	// player costs little to make.
	TTBytes int
}

// withDefaults returns o with its zero fields filled.
func (o Options) withDefaults() Options {
	if o.Rand == nil {
		o.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if o.ThinkTime <= 0 {
		o.ThinkTime = DefaultThinkTime
	}
	if o.TTBytes <= 0 {
		o.TTBytes = DefaultTTBytes
	}
	return o
}
