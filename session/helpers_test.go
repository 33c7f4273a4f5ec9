package session

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// mustOpenStore opens a bbolt store on a temp file and checks the file's
// consistency when the test ends.
func mustOpenStore(t testing.TB) (*testStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	st, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st) })
	return st, path
}

// checkAndClose runs bbolt's consistency check and closes the store; it is
// a no-op on a store already closed.
func checkAndClose(t testing.TB, st *testStore) {
	t.Helper()
	if st.DB().Path() == "" {
		return
	}
	if err := st.Check(); err != nil {
		t.Errorf("bbolt check: %v", err)
	}
	st.Close()
}

// fixedClock returns a clock, safe for concurrent use, that starts at a
// fixed instant and advances one second per call.
func fixedClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// newTestService returns a service on st with a fixed clock and seeds
// counting up from seed.
func newTestService(st kv.Store, seed uint64) *Service {
	var next atomic.Uint64
	next.Store(seed)
	return New(st, &Config{
		Now:     fixedClock(),
		NewSeed: func() uint64 { return next.Add(1) },
	})
}

var (
	alice = User{ID: "1", Name: "alice", Handle: "alice"}
	bob   = User{ID: "2", Name: "bob", Handle: "bob"}
	carol = User{ID: "3", Name: "carol", Handle: "carol"}
)

// as returns the actor u in the chat every test game is in.
func as(u User) Actor { return Actor{Platform: "test", Chat: "c", User: u} }

// putDuel stores a running game between alice (black) and bob (white)
// directly, as later duel code will.
func putDuel(t *testing.T, st kv.Store, id GameID, moves ...engine.Point) {
	t.Helper()
	g := Game{
		ID: id, Platform: "test", Chat: "c", Rules: engine.TicTacToe(),
		Seats: [2]Seat{{User: alice}, {User: bob}}, Moves: moves, Status: Running, Version: 1,
	}
	if err := st.Update(context.Background(), func(tx kv.Tx) error { return layout{tx}.PutGame(g) }); err != nil {
		t.Fatal(err)
	}
}

// replayMatches checks that a view's moves replay through the engine to
// its status and winner.
func replayMatches(t *testing.T, v View) {
	t.Helper()
	b, err := engine.Replay(v.Rules(), v.Moves())
	if err != nil {
		t.Fatalf("game %s does not replay: %v", v.ID(), err)
	}
	o := b.Outcome()
	want := map[engine.Status]Status{engine.Ongoing: Running, engine.Won: Won, engine.Draw: Drawn}[o.Status]
	if v.Status() == Resigned || v.Status() == Expired || v.Status() == Aborted {
		if o.Status != engine.Ongoing {
			t.Fatalf("game %s %s but the board is %v", v.ID(), v.Status(), o.Status)
		}
		return
	}
	if v.Status() != want || v.Winner() != o.Winner {
		t.Fatalf("game %s: stored %s/%v, board says %v/%v", v.ID(), v.Status(), v.Winner(), o.Status, o.Winner)
	}
}

// clock is a fake clock, safe for concurrent use, that moves only when
// told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// firstLegal is an AI that plays the first empty cell: weak enough to lose
// to a script, whatever level it stands for.
type firstLegal struct{}

func (firstLegal) Move(_ context.Context, b *engine.Board) (engine.Point, error) {
	return b.LegalMoves()[0], nil
}

// newClockService returns a service on st with clock c, seeds counting up
// from seed, and cfg's other fields.
func newClockService(st kv.Store, c *clock, seed uint64, cfg Config) *Service {
	var next atomic.Uint64
	next.Store(seed)
	cfg.Now = c.Now
	cfg.NewSeed = func() uint64 { return next.Add(1) }
	return New(st, &cfg)
}

// mustPlay places a stone and fails the test on any error.
func mustPlay(t *testing.T, s *Service, u User, v View, x, y int) View {
	t.Helper()
	w, err := s.Begin(ctx, Request{Actor: as(u)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: engine.Point{X: x, Y: y}})
	if err != nil {
		t.Fatalf("%s plays %d,%d in game %s: %v", u.Name, x, y, v.ID(), err)
	}
	return w
}

// testStore is the store of the tests: a bbolt file.
type testStore = boltstore.Store

// openBolt opens the bbolt file at path, with every bucket of the layout
// created, for the tests that look at the file itself.
func openBolt(path string, opts *boltstore.Options) (*testStore, error) {
	st, err := boltstore.Open(path, opts)
	if err == nil {
		err = st.CreateBuckets(allBuckets...)
	}
	return st, err
}

// turn begins a turn of u in the chat every test game is in.
func turn(s *Service, u User) *Turn { return s.Begin(context.Background(), Request{Actor: as(u)}) }
