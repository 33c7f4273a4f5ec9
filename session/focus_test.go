package session

import (
	"context"
	"errors"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// TestFocusIsPerChatAndUserAndSurvivesReopening checks that the game a
// user last saw is kept per platform, chat and user, survives reopening
// the file, that a game of another chat or one the user does not play
// is not theirs to see, and that seeing the game seen already writes
// nothing.
func TestFocusIsPerChatAndUserAndSurvivesReopening(t *testing.T) {
	ctx := context.Background()
	st, path := mustOpenStore(t)
	s := newTestService(st, 1)
	ann := as(User{ID: "ann", Name: "ann"})
	other := ann
	other.Chat = "c2"
	if _, err := s.Begin(ctx, Request{Actor: ann}).Focus(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("focus of nobody yet: %v", err)
	}
	start := func(who Actor) View {
		t.Helper()
		v, err := s.Begin(ctx, Request{Actor: who}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Starting a game puts it on screen.
	first, second := start(ann), start(other)
	again, _ := s.Begin(ctx, Request{Actor: ann}).Resign(first.ID())
	third := start(ann)
	// Seeing the finished game again puts it back on screen; seeing a
	// game of another chat, or someone else's, does not.
	tn := s.Begin(ctx, Request{Actor: ann})
	tn.See(again)
	tn.See(second)
	tn.See(start(as(User{ID: "bob", Name: "bob"})))
	if err := tn.Done(); err != nil {
		t.Fatal(err)
	}
	stats := st.DB().Stats()
	tx := stats.TxStats.GetWrite()
	tn = s.Begin(ctx, Request{Actor: ann})
	tn.See(again)
	if err := tn.Done(); err != nil {
		t.Fatal(err)
	}
	after := st.DB().Stats()
	if got := after.TxStats.GetWrite(); got != tx {
		t.Errorf("seeing the same game again wrote %d pages", got-tx)
	}
	checkAndClose(t, st)
	st, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st) })
	s = newTestService(st, 1)
	for who, want := range map[Actor]GameID{ann: again.ID(), other: second.ID()} {
		if id, err := s.Begin(ctx, Request{Actor: who}).Focus(); err != nil || id != want {
			t.Errorf("focus of %+v after reopening: %q, %v; want %q (third %q)", who, id, err, want, third.ID())
		}
	}
}
