package session

import (
	"context"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// TestWatchSeesMovesOfEveryProcess watches a game through one Service
// while moves are made through another sharing the store (etcd) or the
// same one (bbolt): each move shows, and the games whose ids begin with
// the watched one's do not.
func TestWatchSeesMovesOfEveryProcess(t *testing.T) {
	onEveryStore(t, func(t *testing.T, _ *clock, one, two *Service) {
		if two == nil {
			two = one
		}
		alice := User{ID: "a", Name: "Alice"}
		v := start(t, one, alice, engine.Medium, First)
		wctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		views, err := one.Watch(wctx, v.ID())
		if err != nil {
			t.Fatal(err)
		}
		// Other games start meanwhile; ids g1, g10, g11… share prefixes.
		for i := range 3 {
			start(t, two, User{ID: string(rune('b' + i)), Name: "Other"}, engine.Easy, First)
		}
		w := mustPlay(t, two, alice, v, 1, 1)
		for {
			select {
			case got, ok := <-views:
				if !ok {
					t.Fatal("the watch ended")
				}
				if got.ID() != v.ID() {
					t.Fatalf("watch of %s got game %s", v.ID(), got.ID())
				}
				if got.Version() == w.Version() {
					if got.MoveNo() != w.MoveNo() {
						t.Fatalf("watched view at move %d, the move made %d", got.MoveNo(), w.MoveNo())
					}
					cancel()
					for range views {
					}
					return
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the move never showed")
			}
		}
	})
}
