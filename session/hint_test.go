package session

import (
	"errors"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// TestHintAgainstTheAI asks for hints against the AI: the hard AI's move
// is stored with the game until the next move, a doubled or redelivered
// request counts once, and the game's limit, a stale board, the AI's turn
// and a finished game are refused.
func TestHintAgainstTheAI(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{HintsPerGame: 2}})
	v := start(t, s, alice, engine.Medium, First)
	if v.HintsLeft() != 2 {
		t.Fatalf("hints left %d, want 2", v.HintsLeft())
	}
	req := HintRequest{Game: v.ID(), MoveNo: v.MoveNo()}
	h, err := s.Begin(ctx, Request{Actor: as(alice), Update: "7"}).Hint(req)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := h.Hint(); !ok || p != (engine.Point{}) || h.Hints() != 1 {
		t.Fatalf("hint %v %v, %d hints; want a1 (firstLegal), 1", p, ok, h.Hints())
	}
	// The same update again, and a doubled tap: one hint.
	if _, err := s.Begin(ctx, Request{Actor: as(alice), Update: "7"}).Hint(req); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("redelivered hint: %v, want ErrDuplicate", err)
	}
	if h, err = s.Begin(ctx, Request{Actor: as(alice)}).Hint(req); err != nil || h.Hints() != 1 {
		t.Fatalf("doubled hint: %v, %d hints", err, h.Hints())
	}
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Hint(req); !errors.Is(err, ErrNotAPlayer) {
		t.Fatalf("hint for a stranger: %v", err)
	}
	// Another replica (a new service on the same store) sees the hint.
	s2 := newClockService(st, newClock(), 9, Config{NewPlayer: firstLegalPlayer, Limits: Limits{HintsPerGame: 2}})
	if got, _ := s2.Game(ctx, v.ID()); got.Hints() != 1 {
		t.Fatalf("stored hints %d", got.Hints())
	} else if _, ok := got.Hint(); !ok {
		t.Fatal("the stored game lost its hint")
	}
	v = mustPlay(t, s, alice, h, 1, 1) // the AI answers a1
	if _, ok := v.Hint(); ok {
		t.Fatal("the hint outlived the move")
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Hint(req); !errors.Is(err, ErrStale) {
		t.Fatalf("hint on an old board: %v", err)
	}
	if h, err = s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()}); err != nil || h.Hints() != 2 || h.HintsLeft() != 0 {
		t.Fatalf("second hint: %v, %d hints, %d left", err, h.Hints(), h.HintsLeft())
	}
	v = mustPlay(t, s, alice, h, 0, 1) // the AI answers b1
	h, err = s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()})
	if !errors.Is(err, ErrHintLimit) || h.Hints() != 2 {
		t.Fatalf("third hint: %v, %d hints; want ErrHintLimit with 2", err, h.Hints())
	}
	v = mustPlay(t, s, alice, v, 2, 1)
	if v.Status() != Won {
		t.Fatalf("status %s, want won", v.Status())
	}
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("hint after the game: %v", err)
	}
	// The win is marked, and is not on /top hard... but this was medium:
	// the tally against medium carries the mark.
	a, _ := s.Stats(ctx, "test", alice.ID)
	if got := a.Result(engine.FamilyTicTacToe, VsMedium); got != (Tally{Wins: 1, Hinted: 1, HintedWins: 1}) {
		t.Fatalf("alice's tally %+v", got)
	}
}

// TestHintRefusals checks the hints of a duel, of the AI's turn and of a
// game started with hints off.
func TestHintRefusals(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{HintsPerGame: 3}})
	putDuel(t, st, "d1")
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: "d1"}); !errors.Is(err, ErrHintDuel) {
		t.Fatalf("hint in a duel: %v", err)
	}
	off := newClockService(st, newClock(), 5, Config{NewPlayer: firstLegalPlayer})
	v := start(t, off, bob, engine.Easy, First)
	h, err := s.Begin(ctx, Request{Actor: as(bob)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()})
	if !errors.Is(err, ErrHintLimit) || h.Hints() != 0 || h.HintsLeft() != 0 {
		t.Fatalf("hint in a game without hints: %v, %d", err, h.Hints())
	}
	// Not the player's turn: a game whose AI moves first, looked at
	// before its move (a board the AI has black on, at move 0).
	w := start(t, s, carol, engine.Easy, First)
	w = mustPlay(t, s, carol, w, 1, 1)
	if _, err := s.Begin(ctx, Request{Actor: as(carol)}).Hint(HintRequest{Game: w.ID(), MoveNo: w.MoveNo() - 1}); !errors.Is(err, ErrStale) {
		t.Fatalf("hint on the AI's turn: %v", err)
	}
}

// TestHintsAreMarkedInStats wins against hard with a hint: the win counts,
// marked, but not on /top hard.
func TestHintsAreMarkedInStats(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newClockService(st, newClock(), 1, Config{NewPlayer: firstLegalPlayer, Limits: Limits{HintsPerGame: 3}})
	v := start(t, s, alice, engine.Hard, First)
	if _, err := s.Begin(ctx, Request{Actor: as(alice)}).Hint(HintRequest{Game: v.ID(), MoveNo: v.MoveNo()}); err != nil {
		t.Fatal(err)
	}
	v = mustPlay(t, s, alice, v, 0, 1)
	v = mustPlay(t, s, alice, v, 1, 1)
	if v = mustPlay(t, s, alice, v, 2, 1); v.Status() != Won {
		t.Fatalf("status %s", v.Status())
	}
	a, _ := s.Stats(ctx, "test", alice.ID)
	if got := a.Against(VsHard); got != (Tally{Wins: 1, Hinted: 1, HintedWins: 1}) {
		t.Fatalf("alice's tally %+v", got)
	}
	if top, _ := turn(s, alice).Leaderboard(ByHardWins); len(top) != 0 {
		t.Fatalf("a win with hints is on /top hard: %+v", top)
	}
}
