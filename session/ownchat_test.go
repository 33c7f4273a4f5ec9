package session

import (
	"errors"
	"testing"

	"github.com/boardbot/boardbot/engine"
)

// TestAMessageChatBelongsToItsFirstPlayer checks StartRequest.Alone and
// ChallengeRequest.Alone: a chat that is one message (an inline message)
// belongs to whoever played there first, so that nobody else can put a
// game on it, even once the owner's game is over; the owner can.
func TestAMessageChatBelongsToItsFirstPlayer(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	in := func(u User) Actor { return Actor{Platform: "test", Chat: "inline:m1", User: u} }
	v, err := s.Begin(ctx, Request{Actor: in(alice)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy, Alone: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin(ctx, Request{Actor: in(alice)}).Resign(v.ID()); err != nil {
		t.Fatal(err)
	}
	// The game is over: no live game holds the chat any more.
	if _, err := s.Begin(ctx, Request{Actor: in(bob)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy, Alone: true}); !errors.Is(err, ErrChatGames) {
		t.Fatalf("bob's start on alice's message: %v, want ErrChatGames", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: in(bob)}).Challenge(ChallengeRequest{Rules: engine.TicTacToe(), Alone: true}); !errors.Is(err, ErrChatGames) {
		t.Fatalf("bob's challenge on alice's message: %v, want ErrChatGames", err)
	}
	if _, err := s.Begin(ctx, Request{Actor: in(alice)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy, Alone: true}); err != nil {
		t.Fatalf("alice's new game on her own message: %v", err)
	}
	// Other chats are not owned.
	if _, err := s.Begin(ctx, Request{Actor: as(bob)}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy}); err != nil {
		t.Fatal(err)
	}
	if cs, err := s.Begin(ctx, Request{Actor: Actor{Platform: "test", Chat: "c"}}).ChatSettings(); err != nil || cs.Owner != "" {
		t.Fatalf("an ordinary chat's settings: %+v, %v", cs, err)
	}
}
