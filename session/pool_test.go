package session

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// gatedAI is an engine.Player that, at hard on boards larger than 4×4,
// announces each search on entered and then waits for a value on release;
// elsewhere it plays at once like firstLegal (as the real engine answers
// at once there).
type gatedAI struct {
	entered chan engine.Level
	release chan struct{}
	level   engine.Level
}

func (a *gatedAI) Move(ctx context.Context, b *engine.Board) (engine.Point, error) {
	if a.level == engine.Hard && b.Rules().Cells() > cheapCells {
		a.entered <- a.level
		select {
		case <-a.release:
		case <-ctx.Done():
			return engine.Point{}, ctx.Err()
		}
	}
	return b.LegalMoves()[0], nil
}

// gatedService returns a service whose AI blocks on large boards until
// released, with one AI worker and a queue of queue.
func gatedService(t *testing.T, queue int) (*Service, chan engine.Level, chan struct{}) {
	st, _ := mustOpenStore(t)
	entered, release := make(chan engine.Level), make(chan struct{})
	svc := newClockService(st, newClock(), 1, Config{
		AIWorkers: 1, AIQueue: queue,
		NewPlayer: func(l engine.Level, _ *rand.Rand) (engine.Player, error) {
			return &gatedAI{entered: entered, release: release, level: l}, nil
		},
	})
	return svc, entered, release
}

// startAI starts a game of user u against the AI at level on the preset
// board, the user moving first.
func startAI(t *testing.T, svc *Service, u User, level engine.Level, preset string) View {
	t.Helper()
	r, ok := engine.Preset(preset)
	if !ok {
		t.Fatalf("no preset %q", preset)
	}
	v, err := svc.Begin(ctx, Request{Actor: as(u)}).Start(StartRequest{Rules: r, Level: level, Side: First})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAIPoolRefusesWhenFullAndChangesNothing(t *testing.T) {
	svc, entered, release := gatedService(t, -1) // one worker, no queue
	a := startAI(t, svc, alice, engine.Hard, "gomoku19")
	b := startAI(t, svc, bob, engine.Hard, "gomoku19")

	done := make(chan error)
	go func() {
		_, err := svc.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: a.ID(), MoveNo: 0, Cell: engine.Point{X: 9, Y: 9}})
		done <- err
	}()
	if l := <-entered; l != engine.Hard {
		t.Fatalf("searching at %v", l)
	}
	// The worker is busy and nobody may wait: bob's tap is refused.
	_, err := svc.Begin(ctx, Request{Actor: as(bob)}).Place(PlaceRequest{Game: b.ID(), MoveNo: 0, Cell: engine.Point{X: 9, Y: 9}})
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("tap on a full pool: %v, want ErrBusy", err)
	}
	if v, _ := svc.Game(ctx, b.ID()); v.MoveNo() != 0 || v.Version() != b.Version() {
		t.Fatalf("refused tap changed the game: %d moves, version %d", v.MoveNo(), v.Version())
	}

	// Small boards, and easy and medium on any board, do not wait for the
	// pool while it is saturated.
	for _, tc := range []struct {
		u      User
		level  engine.Level
		preset string
	}{{carol, engine.Hard, "ttt"}, {User{ID: "6"}, engine.Hard, "4x4"}, {User{ID: "4"}, engine.Medium, "gomoku19"}, {User{ID: "5"}, engine.Easy, "gomoku19"}} {
		// Through the pool, each would be refused with ErrBusy.
		v := startAI(t, svc, tc.u, tc.level, tc.preset)
		w := mustPlay(t, svc, tc.u, v, 0, 0)
		if w.MoveNo() != 2 {
			t.Fatalf("%v on %s: %d moves after a tap, want 2", tc.level, tc.preset, w.MoveNo())
		}
	}

	release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// With the worker free again, bob's tap goes through.
	go func() { <-entered; release <- struct{}{} }()
	if w := mustPlay(t, svc, bob, b, 9, 9); w.MoveNo() != 2 {
		t.Fatalf("after the pool freed: %d moves", w.MoveNo())
	}
}

func TestAIPoolQueuesUpToItsBound(t *testing.T) {
	svc, entered, release := gatedService(t, 1) // one worker, one waiting
	queued := make(chan struct{})
	svc.pool.queued = func() { queued <- struct{}{} }
	users := []User{alice, bob, carol}
	games := make([]View, len(users))
	for i, u := range users {
		games[i] = startAI(t, svc, u, engine.Hard, "gomoku")
	}
	tap := func(i int) error {
		_, err := svc.Begin(ctx, Request{Actor: as(users[i])}).Place(PlaceRequest{Game: games[i].ID(), MoveNo: 0, Cell: engine.Point{X: 7, Y: 7}})
		return err
	}
	done := make(chan error, 2)
	go func() { done <- tap(0) }()
	<-entered // alice's search runs
	go func() { done <- tap(1) }()
	<-queued // bob's waits
	if err := tap(2); !errors.Is(err, ErrBusy) {
		t.Fatalf("third search: %v, want ErrBusy", err)
	}
	release <- struct{}{} // alice's ends; bob's starts
	<-entered
	release <- struct{}{}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []int{2, 2, 0} {
		if v, _ := svc.Game(ctx, games[i].ID()); v.MoveNo() != want {
			t.Errorf("%s's game has %d moves, want %d", users[i].Name, v.MoveNo(), want)
		}
	}
}

func TestAIPoolWaitEndsWithContext(t *testing.T) {
	svc, entered, release := gatedService(t, 1)
	queued := make(chan struct{})
	svc.pool.queued = func() { close(queued) }
	a := startAI(t, svc, alice, engine.Hard, "gomoku")
	b := startAI(t, svc, bob, engine.Hard, "gomoku")
	done := make(chan error)
	go func() {
		_, err := svc.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: a.ID(), MoveNo: 0, Cell: engine.Point{X: 7, Y: 7}})
		done <- err
	}()
	<-entered
	cctx, cancel := context.WithCancel(ctx)
	go func() { <-queued; cancel() }()
	if _, err := svc.Begin(cctx, Request{Actor: as(bob)}).Place(PlaceRequest{Game: b.ID(), MoveNo: 0, Cell: engine.Point{X: 7, Y: 7}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The cancelled wait gave its place back: the pool is empty.
	if n := len(svc.pool.admit); n != 0 {
		t.Fatalf("%d places still taken", n)
	}
}

func TestAIPoolLendsItsWaitsButNotItsRefusals(t *testing.T) {
	svc, entered, release := gatedService(t, 1) // one worker, one waiting
	queued := make(chan struct{})
	svc.pool.queued = func() { queued <- struct{}{} }
	var mu sync.Mutex
	lends := 0
	lent := func() int {
		mu.Lock()
		defer mu.Unlock()
		return lends
	}
	think := func(wait func()) {
		mu.Lock()
		lends++
		mu.Unlock()
		wait()
	}
	users := []User{alice, bob, carol}
	games := make([]View, len(users))
	for i, u := range users {
		games[i] = startAI(t, svc, u, engine.Hard, "gomoku")
	}
	tap := func(i int) error {
		_, err := svc.Begin(ctx, Request{Actor: as(users[i]), Think: think}).Place(PlaceRequest{Game: games[i].ID(), MoveNo: 0, Cell: engine.Point{X: 7, Y: 7}})
		return err
	}
	done := make(chan error, 2)
	go func() { done <- tap(0) }()
	<-entered // alice's search runs, lent
	go func() { done <- tap(1) }()
	<-queued // bob's waits, lent
	if n := lent(); n != 2 {
		t.Fatalf("%d lends for a search and a wait, want 2", n)
	}
	// A refusal and a cheap move do not wait, so they lend nothing.
	if err := tap(2); !errors.Is(err, ErrBusy) {
		t.Fatalf("third search: %v, want ErrBusy", err)
	}
	v := startAI(t, svc, User{ID: "4"}, engine.Hard, "ttt")
	if _, err := svc.Begin(ctx, Request{Actor: as(User{ID: "4"}), Think: think}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{}}); err != nil {
		t.Fatal(err)
	}
	if n := lent(); n != 2 {
		t.Fatalf("%d lends after a refusal and a cheap move, want 2", n)
	}
	release <- struct{}{}
	<-entered
	release <- struct{}{}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
