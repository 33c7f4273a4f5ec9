package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/kv"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
)

// unreadableRecords are stored forms this release cannot read: one from a
// newer release, and garbage.
var unreadableRecords = [][]byte{
	[]byte(`{"v":99,"id":"x","p":"test","chat":"c","status":"running"}`),
	[]byte("\x00\xffnot json"),
}

// reports collects what a service passes to Config.OnUnreadable.
type reports struct {
	mu  sync.Mutex
	got []string
}

func (r *reports) add(kind, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, kind+" "+id)
}

func (r *reports) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// liveDuel returns a running duel between alice and bob in chat c, due
// at deadline.
func liveDuel(id GameID, deadline time.Time) Game {
	return Game{
		ID: id, Platform: "test", Chat: "c", Rules: engine.TicTacToe(),
		Seats: [2]Seat{{User: alice}, {User: bob}}, Status: Running, Version: 1,
		// Both have moved, so that expiry ends it with a winner, not aborted.
		Moves:    []engine.Point{{X: 0, Y: 0}, {X: 1, Y: 1}},
		Deadline: deadline, Created: deadline.Add(-time.Hour),
	}
}

// putUnreadable stores the games with their indexes, and then overwrites
// each game's record with one of unreadableRecords, as a newer release or
// a damaged file would leave it.
func putUnreadable(t *testing.T, st *testStore, games ...Game) {
	t.Helper()
	err := st.Update(ctx, func(tx kv.Tx) error {
		for i, g := range games {
			if err := (layout{tx}).PutGame(g); err != nil {
				return err
			}
			if err := tx.Put(bucketGames, []byte(g.ID), unreadableRecords[i%len(unreadableRecords)]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// putGames stores readable games.
func putGames(t *testing.T, st kv.Store, games ...Game) {
	t.Helper()
	err := st.Update(ctx, func(kt kv.Tx) error {
		tx := layout{kt}
		for _, g := range games {
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSweepSkipsUnreadableGames puts unreadable records among due games,
// more of them in a row than Sweep reads at a time, and checks that one
// pass expires every readable due game and reports each bad one.
func TestSweepSkipsUnreadableGames(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	var rep reports
	var expired []GameID
	s := newClockService(st, c, 1, Config{
		OnUnreadable: rep.add,
		OnExpire:     func(v View) { expired = append(expired, v.ID()) },
	})
	now := c.Now()
	// Deadline order: good "a", bad "b000".."b299", good "c", bad "d", good
	// "e"; and "f" not due yet.
	putGames(t, st, liveDuel("a", now.Add(-3*time.Hour)), liveDuel("c", now.Add(-time.Hour)),
		liveDuel("e", now.Add(-time.Minute)), liveDuel("f", now.Add(time.Minute)))
	var bad []Game
	var wantReports []string
	for i := range sweepBatch + 44 {
		id := GameID(fmt.Sprintf("b%03d", i))
		bad = append(bad, liveDuel(id, now.Add(-2*time.Hour+time.Duration(i)*time.Millisecond)))
		wantReports = append(wantReports, "game "+string(id))
	}
	bad = append(bad, liveDuel("d", now.Add(-30*time.Minute)))
	wantReports = append(wantReports, "game d")
	putUnreadable(t, st, bad...)

	n, err := s.Sweep(ctx)
	if err != nil || n != 3 {
		t.Fatalf("sweep: ended %d, %v; want 3 and no error", n, err)
	}
	if want := []GameID{"a", "c", "e"}; !slices.Equal(expired, want) {
		t.Fatalf("expired %v, want %v", expired, want)
	}
	for _, id := range []GameID{"a", "c", "e"} {
		if v, err := s.Game(ctx, id); err != nil || v.Status() != Expired {
			t.Fatalf("game %s: %s, %v", id, v.Status(), err)
		}
	}
	if v, _ := s.Game(ctx, "f"); v.Status() != Running {
		t.Fatalf("game f, not due, is %s", v.Status())
	}
	if got := rep.list(); !slices.Equal(got, wantReports) {
		t.Fatalf("reported %d records (first %q), want %d", len(got), got[:min(3, len(got))], len(wantReports))
	}
	// The bad records stay as they were, and the next pass skips them
	// again without error.
	if n, err := s.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("second sweep: %d, %v", n, err)
	}
	if _, err := s.Game(ctx, "d"); !errors.Is(err, ErrSchema) {
		t.Fatalf("bad game d now reads as %v", err)
	}
}

// TestSweepGoesOnAfterAGameFailsToExpire checks that a game that cannot
// be expired (its player's stats are unreadable, so its result cannot be
// counted) is reported as an error only after the other due games ended.
func TestSweepGoesOnAfterAGameFailsToExpire(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	var rep reports
	s := newClockService(st, c, 1, Config{OnUnreadable: rep.add})
	now := c.Now()
	stuck := liveDuel("a", now.Add(-time.Hour))
	stuck.Seats[1].User = carol
	putGames(t, st, stuck, liveDuel("b", now.Add(-time.Minute)))
	err := st.DB().Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStats).Put([]byte("test\x00"+carol.ID), unreadableRecords[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Sweep(ctx)
	if n != 1 || !errors.Is(err, ErrSchema) {
		t.Fatalf("sweep: ended %d, %v; want 1 and the stuck game's error", n, err)
	}
	if v, _ := s.Game(ctx, "b"); v.Status() != Expired {
		t.Fatalf("game b behind the stuck one: %s", v.Status())
	}
	if v, _ := s.Game(ctx, "a"); v.Status() != Running {
		t.Fatalf("stuck game: %s", v.Status())
	}
	if got := rep.list(); len(got) != 0 {
		t.Fatalf("a readable game reported as unreadable: %v", got)
	}
}

// TestLiveSkipsUnreadableGames checks that an unreadable game in a chat
// hides neither the chat's other games nor the user's own running game
// from Live, Accept and Start.
func TestLiveSkipsUnreadableGames(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	var rep reports
	s := newClockService(st, c, 1, Config{OnUnreadable: rep.add})
	// bob's running AI game and a duel of alice and bob become unreadable.
	ai := start(t, s, bob, engine.Easy, First)
	putUnreadable(t, st, liveDuel("bad", c.Now().Add(time.Hour)))
	err := st.DB().Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).Put([]byte(ai.ID()), unreadableRecords[1])
	})
	if err != nil {
		t.Fatal(err)
	}
	ch := challenge(t, s, User{})

	live, err := s.Begin(ctx, Request{Actor: as(bob)}).Live()
	if err != nil || len(live) != 1 || live[0].ID() != ch.ID() {
		t.Fatalf("bob's live games: %v, %v; want alice's challenge only", live, err)
	}
	if slices.Index(rep.list(), "game bad") < 0 || slices.Index(rep.list(), "game "+string(ai.ID())) < 0 {
		t.Fatalf("reported %v", rep.list())
	}
	if v, err := s.Begin(ctx, Request{Actor: as(bob)}).Accept(ch.ID()); err != nil || v.Status() != Running {
		t.Fatalf("accept beside an unreadable game: %v", err)
	}
	live, err = s.Begin(ctx, Request{Actor: as(alice)}).Live()
	if err != nil || len(live) != 1 || live[0].ID() != ch.ID() {
		t.Fatalf("alice's live games: %v, %v", live, err)
	}
	// bob's unreadable game against the AI does not keep him from
	// starting another.
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Running(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("running game of bob: %v, want ErrNotFound", err)
	}
	if v, err := s.Begin(ctx, Request{Actor: as(bob)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy}); err != nil || v.ID() == ai.ID() {
		t.Fatalf("start beside an unreadable AI game: %s, %v", v.ID(), err)
	}
}

// TestLeaderboardSkipsUnreadableStats checks that one player's unreadable
// stats leave the rest of the chat's leaderboard in place.
func TestLeaderboardSkipsUnreadableStats(t *testing.T) {
	st, _ := mustOpenStore(t)
	var rep reports
	s := newClockService(st, newClock(), 1, Config{OnUnreadable: rep.add})
	err := st.Update(ctx, func(kt kv.Tx) error {
		tx := layout{kt}
		for i, u := range []User{alice, bob, carol} {
			if err := tx.PutStats("test", "c", Stats{User: u, Rating: InitialRating + float64(10*i), Duels: 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.DB().Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStats).Put([]byte("test\x00"+bob.ID), unreadableRecords[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	top, err := turn(s, alice).Leaderboard(ByRating)
	if err != nil || len(top) != 2 || top[0].Stats.User.ID != carol.ID || top[1].Stats.User.ID != alice.ID || top[1].Rank != 2 {
		t.Fatalf("leaderboard: %+v, %v; want carol and alice second", top, err)
	}
	if got := rep.list(); len(got) != 1 || got[0] != "stats test:"+bob.ID {
		t.Fatalf("reported %v", got)
	}
	if _, err := s.Stats(ctx, "test", bob.ID); !errors.Is(err, ErrSchema) {
		t.Fatalf("bob's own stats: %v, want ErrSchema", err)
	}
}

// TestDecodeErrorsDoNotQuoteTheRecord checks that the error about a bad
// record, which may end up in a log, holds none of the record's bytes.
func TestDecodeErrorsDoNotQuoteTheRecord(t *testing.T) {
	for _, data := range []string{
		`{"v":2,"chat":SECRET}`, `{"v":2,"ver":31415926.5}`, `{"v":2,"due":"SECRET"}`,
		"\x00SECRET", `{"v":2,"user":{"id":31415926}}`, `{"v":2,"s":{"lang":31415926}}`,
	} {
		_, gerr := decodeGame([]byte(data))
		_, herr := decodeGameHeader([]byte(data))
		_, serr := decodeStats([]byte(data))
		_, cerr := decodeSettings[ChatSettings]([]byte(data))
		for _, err := range []error{gerr, herr, serr, cerr} {
			if err == nil {
				continue // a record of another kind may read
			}
			if !errors.Is(err, ErrSchema) {
				t.Fatalf("%q: %v, want ErrSchema", data, err)
			}
			for _, secret := range []string{"SECRET", "31415926", "\x00"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error about %q quotes it: %v", data, err)
				}
			}
		}
	}
}
