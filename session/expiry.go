package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// sweepBatch is how many due games Sweep reads at a time.
const sweepBatch = 256

// Sweep ends every live game whose deadline has passed, calls
// Config.OnExpire with each, and returns how many it ended. Games that
// changed since they were found due (a move came in) are left alone. A
// game whose record is unreadable is skipped and reported to
// Config.OnUnreadable; a game that fails to expire is skipped too, and
// the first such error is returned (with how many failed) after the
// others were swept. It stops when ctx is done or the due index cannot
// be read.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	now := s.now()
	ended, failed := 0, 0
	var first error
	result := func() error {
		if first == nil {
			return nil
		}
		return fmt.Errorf("session: sweep: %d games failed to expire, the first: %w", failed, first)
	}
	var after DueGame
	for {
		var due []DueGame
		err := s.kv.View(ctx, func(tx kv.Tx) error {
			var err error
			due, err = layout{tx}.Due(now, after, sweepBatch)
			return err
		})
		if err != nil {
			return ended, errors.Join(fmt.Errorf("session: sweep: %w", err), result())
		}
		for _, d := range due {
			if err := ctx.Err(); err != nil {
				return ended, errors.Join(fmt.Errorf("session: sweep: %w", err), result())
			}
			v, ok, err := s.sweepOne(ctx, d.ID)
			switch {
			case err != nil:
				failed++
				if first == nil {
					first = err
				}
			case ok:
				ended++
				if s.onExpire != nil {
					s.onExpire(v)
				}
			}
		}
		if len(due) < sweepBatch {
			return ended, result()
		}
		after = due[len(due)-1]
	}
}

// sweepOne expires the game id if it is still due. A game whose record
// is unreadable is reported and left alone.
func (s *Service) sweepOne(ctx context.Context, id GameID) (View, bool, error) {
	defer s.locks.lock(string(id))()
	t := s.Begin(ctx, Request{})
	for attempt := 0; ; attempt++ {
		g, err := t.game(id)
		if errors.Is(err, ErrSchema) {
			s.onUnreadable(UnreadableGame, string(id))
			return View{}, false, nil
		}
		if err != nil {
			return View{}, false, err
		}
		v, err := t.expireIfDue(&g)
		switch {
		case errors.Is(err, ErrExpired):
			return v, true, nil
		case t.conflicted(err, attempt):
			continue
		case err != nil:
			return View{}, false, err
		}
		return View{}, false, nil
	}
}

// RunSweeper calls Sweep on every tick until ctx is done, and then
// returns ctx's error. Errors of a sweep go to onErr (which may be nil)
// and the next tick tries again. The caller owns the ticker, such as
// time.NewTicker(time.Minute).C.
func (s *Service) RunSweeper(ctx context.Context, tick <-chan time.Time, onErr func(error)) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			if _, err := s.Sweep(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
			if _, err := s.ForgetUpdates(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
			if _, err := s.ForgetGames(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
			if _, err := s.ForgetPaces(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}
