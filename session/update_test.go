package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
)

// storeSummary lists every stored game (id, status, moves) and the users'
// settings, to compare a store before and after a replay.
func storeSummary(t *testing.T, st *testStore) string {
	t.Helper()
	var lines []string
	err := st.DB().View(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			g, err := decodeGame(v)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("game %s %s %v", g.ID, g.Status, g.Moves))
			return nil
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketUserSettings).ForEach(func(k, v []byte) error {
			lines = append(lines, fmt.Sprintf("settings %q %s", k, v))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// updateCase is an action taken as the effect of one platform update.
type updateCase struct {
	name string
	// setup prepares the store, outside any update.
	setup func(t *testing.T, s *Service)
	// do is the action; the view it returns names the game it changed.
	do func(s *Service, update string) (View, error)
}

var updateCases = []updateCase{
	{name: "start", do: func(s *Service, update string) (View, error) {
		return s.Begin(ctx, Request{Actor: as(alice), Update: update}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy, Side: Second})
	}},
	{name: "place", setup: func(t *testing.T, s *Service) { putDuel(t, s.kv, "d1") },
		do: func(s *Service, update string) (View, error) {
			return s.Begin(ctx, Request{Actor: as(alice), Update: update}).Place(PlaceRequest{Game: "d1", MoveNo: 0, Cell: engine.Point{X: 1, Y: 1}})
		}},
	{name: "challenge", do: func(s *Service, update string) (View, error) {
		return s.Begin(ctx, Request{Actor: as(alice), Update: update}).Challenge(ChallengeRequest{Rules: engine.TicTacToe()})
	}},
	{name: "accept", setup: func(t *testing.T, s *Service) {
		if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe()}); err != nil {
			t.Fatal(err)
		}
	}, do: func(s *Service, update string) (View, error) {
		t := s.Begin(ctx, Request{Actor: as(bob), Update: update})
		live, err := t.Live()
		if err != nil || len(live) == 0 {
			return View{}, fmt.Errorf("no challenge to accept: %v", err)
		}
		return t.Accept(live[0].ID())
	}},
	{name: "resign", setup: func(t *testing.T, s *Service) { putDuel(t, s.kv, "d1") },
		do: func(s *Service, update string) (View, error) {
			return s.Begin(ctx, Request{Actor: as(bob), Update: update}).Resign("d1")
		}},
	{name: "lang", do: func(s *Service, update string) (View, error) {
		return View{}, s.Begin(ctx, Request{Actor: Actor{Platform: "test", User: User{ID: alice.ID}}, Update: update}).SetUserSettings(UserSettings{Lang: "zh"})
	}},
}

func TestReplayedUpdateTakesEffectOnce(t *testing.T) {
	for _, c := range updateCases {
		t.Run(c.name, func(t *testing.T) {
			st, path := mustOpenStore(t)
			s := newTestService(st, 1)
			if c.setup != nil {
				c.setup(t, s)
			}
			first, err := c.do(s, "41")
			if err != nil {
				t.Fatal(err)
			}
			// Another update is another action; it must not be taken for
			// the first.
			if _, err := c.do(s, "42"); errors.Is(err, ErrDuplicate) {
				t.Fatalf("a different update was refused as a duplicate: %v", err)
			}
			want := storeSummary(t, st)

			// The same update handled again, by the same process and after
			// a restart (a replay from the inbox, a second delivery).
			again, err := c.do(s, "41")
			if !errors.Is(err, ErrDuplicate) {
				t.Fatalf("update handled twice in one process: err %v, want ErrDuplicate", err)
			}
			checkAndClose(t, st)
			st2, err := openBolt(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { checkAndClose(t, st2) })
			s2 := newTestService(st2, 100)
			replayed, err := c.do(s2, "41")
			if !errors.Is(err, ErrDuplicate) {
				t.Fatalf("update replayed after a restart: err %v, want ErrDuplicate", err)
			}
			if got := storeSummary(t, st2); got != want {
				t.Fatalf("a handled update took effect again:\n%s\nwant\n%s", got, want)
			}
			if replayed.ID() != first.ID() {
				t.Fatalf("the replay shows game %q, the update changed %q", replayed.ID(), first.ID())
			}
			if first.ID() != "" && again.ID() == "" {
				t.Fatalf("a duplicate in the same process shows no game")
			}
			// The adapter shows the game of a replay and binds its
			// message under the replay's context: that is no effect of
			// the update and is not refused.
			if first.ID() != "" {
				if err := s2.Handled(ctx, "test", Finished{Update: "41", Binds: []Binding{{Game: first.ID(), Message: "m1"}}}); err != nil {
					t.Fatalf("binding the message of a replayed update: %v", err)
				}
			}
		})
	}
}

func TestConcurrentHandlingsOfOneUpdateTakeEffectOnce(t *testing.T) {
	for _, c := range updateCases {
		t.Run(c.name, func(t *testing.T) {
			st, _ := mustOpenStore(t)
			s := newTestService(st, 1)
			if c.setup != nil {
				c.setup(t, s)
			}
			const n = 16
			errs := make([]error, n)
			views := make([]View, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { views[i], errs[i] = c.do(s, "7") })
			}
			wg.Wait()
			ok, winner := 0, View{}
			for i, err := range errs {
				switch {
				case err == nil:
					ok++
					winner = views[i]
				case !errors.Is(err, ErrDuplicate):
					t.Errorf("handling %d: %v, want ErrDuplicate", i, err)
				}
			}
			if ok != 1 {
				t.Fatalf("%d of %d handlings of one update took effect", ok, n)
			}
			for i, v := range views {
				if v.ID() != winner.ID() {
					t.Errorf("handling %d shows game %q, the update changed %q", i, v.ID(), winner.ID())
				}
			}
			summary := storeSummary(t, st)
			if c.name == "start" || c.name == "challenge" {
				if games := strings.Count(summary, "game "); games != 1 {
					t.Fatalf("%d games made by one update:\n%s", games, summary)
				}
			}
		})
	}
}

func TestHandledUpdatesAreDroppedUntilForgotten(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	s := newClockService(st, c, 1, Config{UpdateTTL: time.Hour})
	receive := receiver(t)
	pending := func() string {
		t.Helper()
		items, err := s.Pending(ctx, "tg")
		if err != nil {
			t.Fatal(err)
		}
		return itemIDs(items)
	}
	if got := receive(s, 1, 2); got != "done [] held []" {
		t.Fatalf("new updates: %s, want none handled", got)
	}
	if err := s.Handled(ctx, "tg", Finished{Update: "1"}); err != nil {
		t.Fatal(err)
	}
	// An update whose effect committed is handled, inbox or not.
	if _, err := s.Begin(ctx, Request{Actor: Actor{Platform: "tg", Chat: "c", User: alice}, Update: "3"}).Challenge(ChallengeRequest{Rules: engine.TicTacToe()}); err != nil {
		t.Fatal(err)
	}
	if got := receive(s, 1, 3, 4); got != "done [1 3] held []" {
		t.Fatalf("handled updates received again: %s, want [1 3] dropped", got)
	}
	if p := pending(); p != "[2 4]" {
		t.Fatalf("inbox %s, want [2 4]", p)
	}
	c.Advance(30 * time.Minute)
	if n, err := s.ForgetUpdates(ctx); err != nil || n != 0 {
		t.Fatalf("forgot %d marks within the TTL: %v", n, err)
	}
	if got := receive(s, 1); got != "done [1] held []" {
		t.Fatalf("update 1 within the TTL: %s, want it dropped", got)
	}
	c.Advance(time.Hour)
	if n, err := s.ForgetUpdates(ctx); err != nil || n != 2 {
		t.Fatalf("forgot %d marks after the TTL, want 2: %v", n, err)
	}
	if got := receive(s, 1, 3); got != "done [] held []" {
		t.Fatalf("forgotten updates: %s, want none dropped", got)
	}
}

func TestAMarkWrittenAgainIsKeptForItsOwnTTL(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	s := newClockService(st, c, 1, Config{UpdateTTL: time.Hour})
	receive := receiver(t)
	forget := func(want int) {
		t.Helper()
		if n, err := s.ForgetUpdates(ctx); err != nil || n != want {
			t.Fatalf("forgot %d marks, want %d: %v", n, want, err)
		}
	}
	// The update's change marks it; a handling of it again (after a
	// crash, say) that did not see so marks it again, later.
	if _, err := s.Begin(ctx, Request{Actor: Actor{Platform: "tg", Chat: "c", User: alice}, Update: "5"}).Challenge(ChallengeRequest{Rules: engine.TicTacToe()}); err != nil {
		t.Fatal(err)
	}
	c.Advance(50 * time.Minute)
	if err := s.Handled(ctx, "tg", Finished{Update: "5"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(30 * time.Minute)
	forget(1)
	if got := receive(s, 5); got != "done [5] held []" {
		t.Fatalf("update marked again 30 minutes ago: %s, want it dropped", got)
	}
	c.Advance(40 * time.Minute)
	forget(1)
	if got := receive(s, 5); got != "done [] held []" {
		t.Fatalf("update marked again 70 minutes ago: %s, want it kept", got)
	}
}
