package session

import (
	"context"
	"fmt"
)

// Focus returns the id of the game the actor last saw or touched in the
// chat (SetFocus), or ErrNotFound. The game may have ended since.
func (s *Service) Focus(ctx context.Context, who Actor) (GameID, error) {
	var id GameID
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		id, err = tx.Focus(who.Platform, who.Chat, who.User.ID)
		return err
	})
	return id, err
}

// SetFocus records that game id is the one the actor last saw or touched
// in the chat: the game their typed moves are for. Recording the game
// already recorded writes nothing.
func (s *Service) SetFocus(ctx context.Context, who Actor, id GameID) error {
	if who.User.ID == "" || id == "" {
		return fmt.Errorf("session: focus: %w: no user or game", ErrBadRequest)
	}
	if was, err := s.Focus(ctx, who); err == nil && was == id {
		return nil
	}
	return s.store.Update(ctx, func(tx Tx) error { return tx.PutFocus(who.Platform, who.Chat, who.User.ID, id) })
}
