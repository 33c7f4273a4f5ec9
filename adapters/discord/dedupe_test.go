package discord

import (
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/session"
)

// redeliver delivers interaction id again and waits for its second
// answer.
func (h *harness) redeliver(id string) {
	h.t.Helper()
	if err := h.fake.Redeliver(id); err != nil {
		h.t.Fatal(err)
	}
	h.await(id + "#2")
}

// shown returns the channel's messages that everyone sees.
func (h *harness) shown(channel string) []discordtest.Message {
	var out []discordtest.Message
	for _, m := range h.fake.Messages(channel) {
		if !m.Ephemeral && !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

func TestInteractionDeliveredTwiceTakesEffectOnce(t *testing.T) {
	h := newHarness(t, nil)
	const channel = "twice"
	id, _ := h.command(ann, channel, cmdPlay, discordtest.UserOption(optOpponent, bob))
	h.redeliver(id)
	shown := h.shown(channel)
	if len(shown) != 1 {
		t.Fatalf("a challenge delivered twice shows %d messages", len(shown))
	}
	live, err := h.svc.Begin(t.Context(), session.Request{Actor: session.Actor{Platform: Platform, Chat: channel, User: session.User{ID: bob.ID, Name: bob.Name}}}).Live()
	if err != nil || len(live) != 1 {
		t.Fatalf("a challenge delivered twice made %d challenges (%v)", len(live), err)
	}

	ch := shown[0]
	tap, err := h.fake.Tap(bob, ch.ID, buttonOf(t, ch, "a:"))
	if err != nil {
		t.Fatal(err)
	}
	h.await(tap)
	h.redeliver(tap)
	board := h.message(ch.ID)
	v := h.game(board)
	if v.Status() != session.Running {
		t.Fatalf("accepted twice: %s", v.Status())
	}
	mover := ann
	if v.Seat(v.ToMove()).User.ID == bob.ID {
		mover = bob
	}
	tap, err = h.fake.Tap(mover, board.ID, placeButtons(board)[0])
	if err != nil {
		t.Fatal(err)
	}
	h.await(tap)
	h.redeliver(tap)
	if v := h.game(h.message(ch.ID)); v.MoveNo() != 1 {
		t.Fatalf("a move delivered twice: the game is at move %d, want 1", v.MoveNo())
	}
	if n := len(h.shown(channel)); n != 1 {
		t.Fatalf("%d messages after the duplicates, want 1", n)
	}
}
