package telegram_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// A forged button on alice's board naming mallory's game, whatever it
// does (scroll, move, stale move, resign, a move in a finished game), is
// refused with a toast: alice's message is never edited and neither game
// changes.
func TestForgedButtonsCannotRepaintAnotherBoard(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-3000)
	alice, mallory := named(3001, "alice", "en"), named(3002, "mallory", "en")
	bad := render.T(render.English, render.MsgBadCallback)

	aliceMsg := h.startGame(chat, alice, "/play easy gomoku")
	malloryMsg := h.startGame(chat, mallory, "/play easy gomoku")
	aliceGame, malloryGame := h.gameOf(aliceMsg), h.gameOf(malloryMsg)
	stale := placeButtons(malloryMsg)[1]
	if got := h.tap(chat, mallory, malloryMsg.ID, placeButtons(malloryMsg)[0]); got != "" {
		t.Fatalf("mallory's own move answered %q", got)
	}
	now, _ := h.fake.Message(chat.ID, malloryMsg.ID)

	forge := func(what, data string) {
		outer := h.t
		t.Run(what, func(t *testing.T) {
			h.t = t
			defer func() { h.t = outer }()
			before, _ := h.fake.Message(chat.ID, aliceMsg.ID)
			m, _ := h.svc.Game(context.Background(), malloryGame.ID())
			got := h.tap(chat, mallory, aliceMsg.ID, data)
			after, _ := h.fake.Message(chat.ID, aliceMsg.ID)
			if after.Edits != before.Edits || after.Caption != before.Caption {
				t.Fatalf("forged %s %q edited alice's board: %d → %d edits, caption %q → %q",
					what, data, before.Edits, after.Edits, before.Caption, after.Caption)
			}
			a, err1 := h.svc.Game(context.Background(), aliceGame.ID())
			m2, err2 := h.svc.Game(context.Background(), malloryGame.ID())
			if err1 != nil || err2 != nil || a.Version() != aliceGame.Version() || m2.Version() != m.Version() {
				t.Fatalf("forged %s %q changed a game: alice's version %d → %d, mallory's %d → %d (%v, %v)",
					what, data, aliceGame.Version(), a.Version(), m.Version(), m2.Version(), err1, err2)
			}
			if got != bad {
				t.Fatalf("forged %s %q answered %q, want %q", what, data, got, bad)
			}
		})
	}
	forge("scroll", scrollButtons(now)[0])
	forge("move", placeButtons(now)[0])
	forge("stale move", stale)
	forge("resign", "r:"+string(malloryGame.ID()))
	forge("rematch", "R:"+string(malloryGame.ID()))

	h.say(chat, mallory, "/resign")
	if v, _ := h.svc.Game(context.Background(), malloryGame.ID()); v.Status() != session.Resigned {
		t.Fatalf("mallory's game after /resign: %v", v.Status())
	}
	malloryGame, _ = h.svc.Game(context.Background(), malloryGame.ID())
	forge("move in a finished game", placeButtons(now)[1])
	forge("rematch of a finished game", "R:"+string(malloryGame.ID()))

	// The same buttons on their own boards still work.
	if got := h.tap(chat, alice, aliceMsg.ID, scrollButtons(aliceMsg)[0]); got != "" {
		t.Fatalf("alice's own scroll answered %q", got)
	}
	if m, _ := h.fake.Message(chat.ID, aliceMsg.ID); m.Edits != aliceMsg.Edits+1 {
		t.Fatalf("alice's own scroll made %d edits", m.Edits-aliceMsg.Edits)
	}
}

// A board the game is no longer bound to, but which Telegram delivers
// with the tapped button, still plays, and becomes the game's message.
func TestTapOnAnUnboundCopyOfTheBoardRebindsIt(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-3100)
	alice := named(3101, "alice", "en")
	first := h.startGame(chat, alice, "/play easy ttt")
	// /play again shows the running game below the refusal, as a new
	// message the game is bound to.
	h.say(chat, alice, "/play")
	second := h.lastBot(chat)
	v := h.gameOf(first)
	if second.ID == first.ID || v.Message() != itoa(second.ID) || !strings.HasPrefix(placeButtons(second)[0], "p:"+string(v.ID())) {
		t.Fatalf("second board %d, game bound to %q", second.ID, v.Message())
	}
	if got := h.tap(chat, alice, first.ID, placeButtons(first)[0]); got != "" {
		t.Fatalf("tap on the first board answered %q", got)
	}
	after, _ := h.fake.Message(chat.ID, first.ID)
	v = h.gameOf(after)
	if after.Edits != 1 || v.Message() != itoa(first.ID) || len(v.Moves()) != 2 {
		t.Fatalf("after the tap: %d edits, bound to %q, %d moves", after.Edits, v.Message(), len(v.Moves()))
	}
	checkBoardMatches(t, after, v)
}
