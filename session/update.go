package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// DefaultUpdateTTL is the default of Config.UpdateTTL: Telegram keeps
// offering an update that was not confirmed for 24 hours.
const DefaultUpdateTTL = 24 * time.Hour

// forgetBatch is how many update marks ForgetUpdates deletes per commit.
const forgetBatch = 1024

// UpdateMark records that a platform update was handled: the store keeps
// one per update id until Config.UpdateTTL has passed, so that the same
// update delivered again takes no second effect.
type UpdateMark struct {
	// Handling identifies the turn whose change wrote the mark; zero
	// for a mark written by Handled.
	Handling uint64
	// At is when the mark was written.
	At time.Time
	// Game is the game the update changed; empty when none.
	Game GameID
}

// handlings numbers the turns of this process, which mark the updates
// they handle (UpdateMark.Handling); it starts at a random value so that
// a turn after a restart never takes the number of one before it.
var handlings atomic.Uint64

func init() { handlings.Store(rand.Uint64() >> 1) }

// ForgetUpdates deletes the marks of updates handled more than
// Config.UpdateTTL ago and returns how many it deleted. RunSweeper calls
// it on every tick.
func (s *Service) ForgetUpdates(ctx context.Context) (int, error) {
	before := s.now().Add(-s.updateTTL)
	batch := forgetBatch
	if m := s.kv.MaxOps(); m > 0 {
		// Each mark forgotten is a key read and two deleted.
		batch = max(1, min(batch, m/2-1))
	}
	total := 0
	for {
		n := 0
		err := s.kv.Update(ctx, func(tx kv.Tx) error {
			var err error
			n, err = layout{tx}.ForgetUpdateMarks(before, batch)
			return err
		})
		if err != nil {
			return total, fmt.Errorf("session: forget handled updates: %w", err)
		}
		total += n
		if n < batch {
			return total, nil
		}
	}
}

// Seen reports whether update id of platform p has a mark: it took effect,
// or was handled (Handled), within Config.UpdateTTL.
func (s *Service) Seen(ctx context.Context, p Platform, id string) (bool, error) {
	var ok bool
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		var err error
		_, ok, err = layout{tx}.UpdateMark(p, id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("session: %s update %s: %w", p, id, err)
	}
	return ok, nil
}
