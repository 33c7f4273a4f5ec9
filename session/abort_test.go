package session

import (
	"errors"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// TestAbortedDuel ends duels by resignation or expiry after a few moves:
// one left before both players moved is aborted (no winner, no stats, no
// rating change, but a rematch), one left later counts as before.
func TestAbortedDuel(t *testing.T) {
	cases := []struct {
		name   string
		moves  int  // moves played before the end, alternating from black
		expire bool // ended by the sweeper, else by resign
		quit   User // who resigns
		want   Status
		winner engine.Stone
	}{
		{name: "black resigns at once", quit: alice, want: Aborted},
		{name: "white resigns at once", quit: bob, want: Aborted},
		{name: "black resigns after her move", moves: 1, quit: alice, want: Aborted},
		{name: "white resigns before his move", moves: 1, quit: bob, want: Aborted},
		{name: "nobody moves", expire: true, want: Aborted},
		{name: "white never moves", moves: 1, expire: true, want: Aborted},
		{name: "black resigns after both moved", moves: 2, quit: alice, want: Resigned, winner: engine.White},
		{name: "black times out after both moved", moves: 2, expire: true, want: Expired, winner: engine.White},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := mustOpenStore(t)
			c := newClock()
			s := newClockService(st, c, 1, Config{})
			v, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(challenge(t, s, User{}).ID())
			if err != nil {
				t.Fatal(err)
			}
			cells := []engine.Point{{X: 1, Y: 1}, {X: 0, Y: 0}}
			for i := range tc.moves {
				v = mustPlay(t, s, [2]User{alice, bob}[i%2], v, cells[i].X, cells[i].Y)
			}
			if tc.expire {
				c.Advance(DefaultTurnLimit)
				var n int
				if n, err = s.Sweep(ctx); n != 1 || err != nil {
					t.Fatalf("sweep ended %d, %v", n, err)
				}
				v, err = s.Game(ctx, v.ID())
			} else {
				v, err = s.Begin(ctx, Request{Actor: as(tc.quit)}).Resign(v.ID())
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Status() != tc.want || v.Winner() != tc.winner {
				t.Fatalf("ended as %s, winner %v; want %s, winner %v", v.Status(), v.Winner(), tc.want, tc.winner)
			}
			replayMatches(t, v)
			a, _ := s.Stats(ctx, "test", alice.ID)
			b, _ := s.Stats(ctx, "test", bob.ID)
			counted := a.Duels == 1 && b.Duels == 1 && a.Total().Games() == 1 && b.Total().Games() == 1 && a.Rating != InitialRating
			if uncounted := a.Duels == 0 && b.Duels == 0 && a.Total().Games() == 0 && b.Total().Games() == 0 &&
				a.Rating == InitialRating && b.Rating == InitialRating; tc.want == Aborted && !uncounted {
				t.Fatalf("an aborted duel counted: alice %+v, bob %+v", a, b)
			} else if tc.want != Aborted && !counted {
				t.Fatalf("a %s duel did not count: alice %+v, bob %+v", tc.want, a, b)
			}
			// An aborted duel may be rematched, as any finished one.
			r, err := s.Begin(ctx, Request{Actor: as(alice)}).Rematch(v.ID())
			if err != nil || r.Status() != Open {
				t.Fatalf("rematch: %s, %v", r.Status(), err)
			}
			if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Resign(v.ID()); !errors.Is(err, ErrGameOver) {
				t.Fatalf("resigning it again: %v, want ErrGameOver", err)
			}
			// It survives a reload from the store.
			if w, err := s.Game(ctx, v.ID()); err != nil || w.Status() != tc.want {
				t.Fatalf("reloaded: %s, %v", w.Status(), err)
			}
		})
	}
}
