package render

import (
	"fmt"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// fixtureStore opens a bbolt store on a temp file, checks its consistency
// when the test ends, and returns a service on it with seeded choices.
func fixtureStore(t testing.TB) (*session.Service, *boltstore.Store) {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "render.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		err := st.Check()
		if err != nil {
			t.Errorf("bbolt check: %v", err)
		}
		st.Close()
	})
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	svc := session.New(st, &session.Config{NewSeed: func() uint64 { return 7 }, Now: func() time.Time { return clock }})
	return svc, st
}

// fixtures numbers the fixture games.
var fixtures atomic.Uint64

// alice is the person in every fixture game.
var alice = session.User{ID: "1", Name: "alice"}

// storedView stores a game of rules r where alice (black) plays the hard
// AI with the given moves and status, and returns its view as the service
// loads it.
func storedView(t testing.TB, svc *session.Service, st *boltstore.Store, r engine.Rules, moves []engine.Point, status session.Status, winner engine.Stone) session.View {
	t.Helper()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := session.Game{
		Platform: "test", Chat: "c", Rules: r,
		Seats:  [2]session.Seat{{User: alice}, {AI: engine.Hard}},
		Moves:  moves,
		Status: status, Winner: winner, Version: 1, Seed: 7, Created: at, Updated: at,
	}
	g.ID = session.GameID(strconv.FormatUint(fixtures.Add(1), 36))
	v, err := session.ViewOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The states of the fixture games.
const (
	inProgress = "progress"
	won        = "won"
	drawn      = "drawn"
)

// fixtureMoves returns the moves of a game of rules r in a state:
//   - in progress: the centre, then three stones around it, black to move;
//   - won: black makes K in a row down the main diagonal while white lines
//     up K-1 beside it;
//   - drawn: the board filled in a pattern with no three in a row, black
//     where (x/2 + y) is even (181 of 361 on 19×19), the moves alternating.
func fixtureMoves(r engine.Rules, state string) ([]engine.Point, session.Status, engine.Stone) {
	cx, cy := r.Width/2, r.Height/2
	switch state {
	case inProgress:
		return []engine.Point{{X: cx, Y: cy}, {X: cx - 1, Y: cy - 1}, {X: cx + 1, Y: cy - 1}, {X: cx + 1, Y: cy + 1}}, session.Running, engine.Empty
	case won:
		s := (min(r.Width, r.Height) - r.K) / 2
		var moves []engine.Point
		for i := range r.K {
			moves = append(moves, engine.Point{X: s + i, Y: s + i})
			if i < r.K-1 {
				moves = append(moves, engine.Point{X: s + i + 1, Y: s})
			}
		}
		return moves, session.Won, engine.Black
	case drawn:
		var black, white []engine.Point
		for y := range r.Height {
			for x := range r.Width {
				if (x/2+y)%2 == 0 {
					black = append(black, engine.Point{X: x, Y: y})
				} else {
					white = append(white, engine.Point{X: x, Y: y})
				}
			}
		}
		var moves []engine.Point
		for i := range black {
			moves = append(moves, black[i])
			if i < len(white) {
				moves = append(moves, white[i])
			}
		}
		return moves, session.Drawn, engine.Empty
	}
	panic(fmt.Sprintf("unknown fixture state %q", state))
}

// fixture stores the game of rules r in a state and returns its view.
func fixture(t testing.TB, svc *session.Service, st *boltstore.Store, r engine.Rules, state string) session.View {
	t.Helper()
	moves, status, winner := fixtureMoves(r, state)
	v := storedView(t, svc, st, r, moves, status, winner)
	if len(v.Moves()) != len(moves) {
		t.Fatalf("fixture %v %s: %d moves stored", r, state, len(v.Moves()))
	}
	return v
}
