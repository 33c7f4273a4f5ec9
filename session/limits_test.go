package session

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// liveCount returns how many live games the test chat holds.
func liveCount(t *testing.T, svc *Service) int {
	t.Helper()
	var n int
	err := svc.kv.View(ctx, func(kt kv.Tx) error {
		tx := layout{kt}
		ids, err := tx.LiveGames("test", "c")
		n = len(ids)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestGamesPerUserLimit(t *testing.T) {
	st, _ := mustOpenStore(t)
	svc := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{GamesPerUser: 2}})
	ttt := engine.TicTacToe()
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: ttt, Level: engine.Easy}); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: ttt})
	if !errors.Is(err, ErrUserGames) {
		t.Fatalf("third game: %v, want ErrUserGames", err)
	}
	if n := liveCount(t, svc); n != 2 {
		t.Fatalf("refusal changed the chat: %d live games", n)
	}
	// Bob may still play, but may not join alice's games beyond his own
	// limit; alice accepting bob's challenge is refused too.
	open, err := svc.Begin(ctx, Request{Actor: as(bob)}).Challenge(ChallengeRequest{Rules: ttt})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Accept(open.ID()); !errors.Is(err, ErrUserGames) {
		t.Fatalf("accept over the limit: %v, want ErrUserGames", err)
	}
	if v, _ := svc.Game(ctx, open.ID()); v.Status() != Open {
		t.Fatalf("refused accept changed the challenge: %s", v.Status())
	}
	// The limit spans the chats of a platform, not other platforms.
	other := Actor{Platform: "test", Chat: "d", User: alice}
	if _, err := svc.Begin(ctx, Request{Actor: other}).Challenge(ChallengeRequest{Rules: ttt}); !errors.Is(err, ErrUserGames) {
		t.Fatalf("in another chat: %v, want ErrUserGames", err)
	}
	elsewhere := Actor{Platform: "other", Chat: "c", User: alice}
	if _, err := svc.Begin(ctx, Request{Actor: elsewhere}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatalf("on another platform: %v", err)
	}
	// A game that ends frees its place.
	running, err := svc.Begin(ctx, Request{Actor: as(alice)}).Running()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Resign(running.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: other}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatalf("after a game ended: %v", err)
	}
}

func TestGamesPerChatLimit(t *testing.T) {
	st, _ := mustOpenStore(t)
	svc := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{GamesPerChat: 2}})
	ttt := engine.TicTacToe()
	for _, u := range []User{alice, bob} {
		if _, err := svc.Begin(ctx, Request{Actor: as(u)}).Start(StartRequest{Rules: ttt, Level: engine.Easy}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(carol)}).Challenge(ChallengeRequest{Rules: ttt}); !errors.Is(err, ErrChatGames) {
		t.Fatalf("challenge in a full chat: %v, want ErrChatGames", err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(carol)}).Start(StartRequest{Rules: ttt, Level: engine.Easy}); !errors.Is(err, ErrChatGames) {
		t.Fatalf("start in a full chat: %v, want ErrChatGames", err)
	}
	if n := liveCount(t, svc); n != 2 {
		t.Fatalf("%d live games, want 2", n)
	}
	// When a game ends, there is room again.
	v, _ := svc.Begin(ctx, Request{Actor: as(alice)}).Running()
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Resign(v.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(carol)}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatalf("after a game ended: %v", err)
	}
}

func TestChallengeCooldown(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	svc := newClockService(st, c, 1, Config{Limits: Limits{ChallengeCooldown: 10 * time.Second}})
	ttt := engine.TicTacToe()
	first, err := svc.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: ttt})
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(9 * time.Second)
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: ttt}); !errors.Is(err, ErrCooldown) {
		t.Fatalf("challenge 9 s later: %v, want ErrCooldown", err)
	}
	if n := liveCount(t, svc); n != 1 {
		t.Fatalf("refused challenge changed the chat: %d live games", n)
	}
	// Others are not held back by alice's cooldown.
	if _, err := svc.Begin(ctx, Request{Actor: as(bob)}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatalf("bob: %v", err)
	}
	c.Advance(time.Second)
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Challenge(ChallengeRequest{Rules: ttt}); err != nil {
		t.Fatalf("challenge 10 s later: %v", err)
	}
	// A duel's rematch is a challenge too.
	if _, err := svc.Begin(ctx, Request{Actor: as(carol)}).Accept(first.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(carol)}).Resign(first.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Rematch(first.ID()); !errors.Is(err, ErrCooldown) {
		t.Fatalf("rematch within the cooldown: %v, want ErrCooldown", err)
	}
	c.Advance(10 * time.Second)
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Rematch(first.ID()); err != nil {
		t.Fatalf("rematch after the cooldown: %v", err)
	}
}

func TestCooldownsForgetOldUsers(t *testing.T) {
	var c cooldowns
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range cooldownPrune {
		c.mark(string(rune(i)), t0, time.Second)
	}
	c.mark("late", t0.Add(time.Minute), time.Second)
	if n := len(c.last); n != 1 {
		t.Fatalf("%d users remembered after pruning, want 1", n)
	}
}

// recorder is an Observer that counts what it hears.
type recorder struct {
	mu       sync.Mutex
	moves    map[bool]int
	refused  map[string]int
	thoughts int
	commits  int
}

func (r *recorder) Moved(_ Platform, ai bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves[ai]++
}

func (r *recorder) Refused(_ Platform, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refused[reason]++
}

func (r *recorder) Thought(engine.Level, engine.Rules, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.thoughts++
}

func (r *recorder) Committed(time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commits++
}

func TestObserverHearsMovesRefusalsThinksAndCommits(t *testing.T) {
	st, _ := mustOpenStore(t)
	rec := &recorder{moves: map[bool]int{}, refused: map[string]int{}}
	svc := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Observer: rec})
	v, err := svc.Begin(ctx, Request{Actor: as(alice)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard, Side: Second})
	if err != nil {
		t.Fatal(err)
	}
	v = mustPlay(t, svc, alice, v, 2, 2)
	if _, err := svc.Begin(ctx, Request{Actor: as(alice)}).Place(PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 1, Y: 1}}); !errors.Is(err, ErrStale) {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, Request{Actor: as(bob)}).Resign(v.ID()); !errors.Is(err, ErrNotAPlayer) {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.moves[true] != 2 || rec.moves[false] != 1 {
		t.Errorf("moves %v, want 2 by the AI and 1 by a person", rec.moves)
	}
	if rec.refused["stale"] != 1 || rec.refused["not_a_player"] != 1 || len(rec.refused) != 2 {
		t.Errorf("refusals %v", rec.refused)
	}
	if rec.thoughts != 2 || rec.commits != 2 {
		t.Errorf("%d thoughts and %d commits, want 2 and 2", rec.thoughts, rec.commits)
	}
}

func TestReason(t *testing.T) {
	for err, want := range map[error]string{
		nil:             "",
		errors.New("x"): "",
		ErrBusy:         "busy",
		ErrConflict:     "stale",
		ErrCooldown:     "cooldown",
		ErrExpired:      "expired",
	} {
		if got := Reason(err); got != want {
			t.Errorf("Reason(%v) = %q, want %q", err, got, want)
		}
	}
}

// firstLegalPlayer is a Config.NewPlayer of firstLegal at every level.
func firstLegalPlayer(engine.Level, *rand.Rand) (engine.Player, error) { return firstLegal{}, nil }
