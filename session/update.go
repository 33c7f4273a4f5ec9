package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"
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
	// Handling identifies the handling (see WithUpdate) whose change
	// wrote the mark; zero for a mark written by Handled.
	Handling uint64
	// At is when the mark was written.
	At time.Time
	// Game is the game the update changed; empty when none.
	Game GameID
}

// updateRef is the platform update a call handles, as WithUpdate puts it
// on a context.
type updateRef struct {
	platform Platform
	id       string
	handling uint64
}

// updateKey is the context key of an updateRef.
type updateKey struct{}

// handlings numbers the handlings of this process; it starts at a random
// value so that a handling after a restart never takes the number of one
// before it.
var handlings atomic.Uint64

func init() { handlings.Store(rand.Uint64() >> 1) }

// WithUpdate returns a context for handling update id of platform p: every
// change a Service commits under it records the update as handled in the
// same transaction, and a change under another handling of the same
// update (a second delivery, a replay after a crash) is refused with
// ErrDuplicate instead of taking effect again. Changes made under one
// WithUpdate context may be several (an expiry and the action); calls
// that are not the update's effect, such as BindMessage, ignore it.
func WithUpdate(ctx context.Context, p Platform, id string) context.Context {
	return context.WithValue(ctx, updateKey{}, &updateRef{platform: p, id: id, handling: handlings.Add(1)})
}

// updateOf returns the update ctx handles, or nil.
func updateOf(ctx context.Context) *updateRef {
	u, _ := ctx.Value(updateKey{}).(*updateRef)
	return u
}

// withoutUpdate returns ctx with no update to mark.
func withoutUpdate(ctx context.Context) context.Context {
	if updateOf(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, updateKey{}, (*updateRef)(nil))
}

// markUpdate records in tx that the update ctx handles took effect, on
// game when there is one, and returns ErrDuplicate when another handling
// of the update already did. Without an update in ctx it does nothing.
func markUpdate(ctx context.Context, tx Tx, game GameID, now time.Time) error {
	u := updateOf(ctx)
	if u == nil {
		return nil
	}
	m, ok, err := tx.UpdateMark(u.platform, u.id)
	if err != nil {
		return err
	}
	switch {
	case ok && m.Handling != u.handling:
		return fmt.Errorf("session: %s update %s: %w", u.platform, u.id, ErrDuplicate)
	case ok:
		// An earlier change of this same handling (an expiry before the
		// action): the mark stays, naming the latest game.
		m.Game = game
	default:
		m = UpdateMark{Handling: u.handling, At: now, Game: game}
	}
	return tx.PutUpdateMark(u.platform, u.id, m)
}

// notDuplicate returns ErrDuplicate when, in tx, the update ctx handles
// already took effect in another handling.
func notDuplicate(ctx context.Context, tx Tx) error {
	u := updateOf(ctx)
	if u == nil {
		return nil
	}
	m, ok, err := tx.UpdateMark(u.platform, u.id)
	if err == nil && ok && m.Handling != u.handling {
		err = fmt.Errorf("session: %s update %s: %w", u.platform, u.id, ErrDuplicate)
	}
	return err
}

// duplicate returns ErrDuplicate, with a view of the game the update
// changed (the zero View when none), when the update ctx handles already
// took effect in another handling, and a zero View and nil otherwise.
// Methods that change something call it first, after taking their lock,
// and again when their commit fails with ErrDuplicate.
func (s *Service) duplicate(ctx context.Context) (View, error) {
	u := updateOf(ctx)
	if u == nil {
		return View{}, nil
	}
	var m UpdateMark
	var ok bool
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		m, ok, err = tx.UpdateMark(u.platform, u.id)
		return err
	})
	switch {
	case err != nil:
		return View{}, fmt.Errorf("session: %s update %s: %w", u.platform, u.id, err)
	case !ok || m.Handling == u.handling:
		return View{}, nil
	}
	err = fmt.Errorf("session: %s update %s: %w", u.platform, u.id, ErrDuplicate)
	if m.Game == "" {
		return View{}, err
	}
	v, gerr := s.Game(ctx, m.Game)
	if gerr != nil {
		return View{}, err
	}
	return v, err
}

// duplicated completes a change that failed: when its commit found the
// update already handled (ErrDuplicate), it returns the view of the game
// that handling changed with the error; otherwise v and err unchanged.
func (s *Service) duplicated(ctx context.Context, v View, err error) (View, error) {
	if !errors.Is(err, ErrDuplicate) {
		return v, err
	}
	dv, _ := s.duplicate(ctx)
	return dv, err
}

// ForgetUpdates deletes the marks of updates handled more than
// Config.UpdateTTL ago and returns how many it deleted. RunSweeper calls
// it on every tick.
func (s *Service) ForgetUpdates(ctx context.Context) (int, error) {
	before := s.now().Add(-s.updateTTL)
	batch := forgetBatch
	if m, ok := s.store.(interface{ MaxOps() int }); ok && m.MaxOps() > 0 {
		// Each mark forgotten is a key read and two deleted.
		batch = max(1, min(batch, m.MaxOps()/2-1))
	}
	total := 0
	for {
		n := 0
		err := s.store.Update(ctx, func(tx Tx) error {
			var err error
			n, err = tx.ForgetUpdateMarks(before, batch)
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
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		_, ok, err = tx.UpdateMark(p, id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("session: %s update %s: %w", p, id, err)
	}
	return ok, nil
}
