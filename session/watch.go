package session

import (
	"context"
	"fmt"
)

// Watch returns a channel that receives the game's view after each commit
// that changes it, made by this process or by any other sharing the
// store, until ctx ends. A watcher that falls behind gets the latest view
// only. The channel is closed when ctx ends or the store loses the watch
// (the watcher then reads the game afresh with Game and watches again).
func (s *Service) Watch(ctx context.Context, id GameID) (<-chan View, error) {
	changes, err := s.kv.Watch(ctx, bucketGames, []byte(id))
	if err != nil {
		return nil, fmt.Errorf("session: watch game %s: %w", id, err)
	}
	out := make(chan View, 1)
	go func() {
		defer close(out)
		for c := range changes {
			if string(c.Key) != string(id) || c.Value == nil {
				continue // another game whose id starts with id's, or a deletion
			}
			g, err := decodeGame(c.Value)
			if err != nil {
				continue
			}
			v, err := s.view(&g)
			if err != nil {
				continue
			}
			// Only the latest view matters: replace one not taken yet.
			select {
			case <-out:
			default:
			}
			select {
			case out <- v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
