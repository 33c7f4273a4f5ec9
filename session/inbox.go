package session

import (
	"context"
	"fmt"
)

// InboxItem is a platform update the bot received but has not finished
// handling: its platform's id and its raw bytes.
type InboxItem struct {
	ID   int64
	Data []byte
}

// Receive keeps updates of platform p in the store, in one commit, so
// that an update the platform was told was delivered survives a crash
// until Handled removes it. Adapters call it before they confirm
// delivery to the platform, and replay Pending at start.
func (s *Service) Receive(ctx context.Context, p Platform, items []InboxItem) error {
	if len(items) == 0 {
		return nil
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		for _, it := range items {
			if err := tx.PutInbox(p, it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("session: receive %d %s updates: %w", len(items), p, err)
	}
	return nil
}

// Handled removes the update id of platform p from the inbox once it was
// handled; removing one that is not there is no error.
func (s *Service) Handled(ctx context.Context, p Platform, id int64) error {
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.DeleteInbox(p, id) }); err != nil {
		return fmt.Errorf("session: handled %s update %d: %w", p, id, err)
	}
	return nil
}

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
