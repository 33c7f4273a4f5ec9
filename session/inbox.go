package session

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// InboxItem is a platform update the bot received but has not finished
// handling: its platform's id and its raw bytes.
type InboxItem struct {
	ID   int64
	Data []byte
}

// ClaimTTL is how long an update kept by one process (a replica) is left
// to it: a copy delivered to another process meanwhile is not handled
// there.
const ClaimTTL = 2 * time.Minute

// Receive keeps updates of platform p in the store, in one commit, so
// that an update the platform was told was delivered survives a crash
// until Handled removes it. Adapters call it before they confirm
// delivery to the platform, and replay Pending at start. It returns the
// ids of the items that were handled already (within Config.UpdateTTL),
// done, and of those that another process sharing the store kept less
// than ClaimTTL ago and is handling, held: neither is kept again, nor to
// be handled here.
func (s *Service) Receive(ctx context.Context, p Platform, items []InboxItem) (done, held []int64, err error) {
	if len(items) == 0 {
		return nil, nil, nil
	}
	now := s.now()
	err = s.store.Update(ctx, func(tx Tx) error {
		done, held = done[:0], held[:0]
		for _, it := range items {
			_, handled, err := tx.UpdateMark(p, inboxMarkID(it.ID))
			if err != nil {
				return err
			}
			if handled {
				done = append(done, it.ID)
				continue
			}
			holder, at, claimed, err := tx.InboxClaim(p, it.ID)
			if err != nil {
				return err
			}
			if claimed && holder != s.holder && now.Sub(at) < ClaimTTL {
				held = append(held, it.ID)
				continue
			}
			if err := tx.PutInbox(p, it); err != nil {
				return err
			}
			if err := tx.ClaimInbox(p, it.ID, s.holder, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("session: receive %d %s updates: %w", len(items), p, err)
	}
	return done, held, nil
}

// Handled removes the update id of platform p from the inbox once it was
// handled, and marks it handled (see WithUpdate, with the same id in
// decimal) unless a change it made did already, so that Receive drops it
// when it comes again; handling one that is not in the inbox is no
// error.
func (s *Service) Handled(ctx context.Context, p Platform, id int64) error {
	now := s.now()
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := tx.DeleteInbox(p, id); err != nil {
			return err
		}
		if _, handled, err := tx.UpdateMark(p, inboxMarkID(id)); err != nil || handled {
			return err
		}
		return tx.PutUpdateMark(p, inboxMarkID(id), UpdateMark{At: now})
	})
	if err != nil {
		return fmt.Errorf("session: handled %s update %d: %w", p, id, err)
	}
	return nil
}

// inboxMarkID returns the update id of an inbox item as WithUpdate takes
// it: in decimal.
func inboxMarkID(id int64) string { return strconv.FormatInt(id, 10) }

// Pending returns the updates of platform p received but not handled,
// lowest id first: what a crash interrupted.
func (s *Service) Pending(ctx context.Context, p Platform) ([]InboxItem, error) {
	var items []InboxItem
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		items, err = tx.Inbox(p)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("session: pending %s updates: %w", p, err)
	}
	return items, nil
}
