package telegram_test

import (
	"context"
	"net/http"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
)

// TestTapPath and TestTapPathSetup measure the path of one tap for
// docs/architecture.md (.ci/tappath): run under coverage, the code that
// TestTapPath runs beyond TestTapPathSetup is the tap's. Both stop the
// bot at the end, so that the tap is handled to its end (marked handled
// and out of the inbox) before the profile is written.

// TestTapPathSetup starts a 3×3 game against the medium AI through the
// webhook and stops the bot.
func TestTapPathSetup(t *testing.T) {
	h, _, _, _ := tapPathGame(t)
	h.stop()
	h.checkInboxEmpty()
}

// TestTapPath is TestTapPathSetup and one tap on the board: answered
// once, with the board edited to show the tap and the AI's reply.
func TestTapPath(t *testing.T) {
	h, chat, me, board := tapPathGame(t)
	u, id := h.fake.NewTapUpdate(chat, me, board.ID, placeButtons(board)[4])
	u.UpdateID = h.fake.NextUpdateID()
	if status, err := h.fake.Post(context.Background(), u, webhookSecret); err != nil || status != http.StatusOK {
		t.Fatalf("tap: status %d, %v", status, err)
	}
	h.wait("the tap's answer and edit", func() bool {
		m, _ := h.fake.Message(chat.ID, board.ID)
		return h.fake.Answered(id) && len(placeButtons(m)) == 7
	})
	h.stop()
	h.checkInboxEmpty()
	if n := len(h.fake.Answers(id)); n != 1 {
		t.Errorf("the tap was answered %d times", n)
	}
	if m, _ := h.fake.Message(chat.ID, board.ID); m.Edits != 1 {
		t.Errorf("the board was edited %d times, want once", m.Edits)
	}
}

// tapPathGame starts a bot in webhook mode and a 3×3 game against the
// medium AI in a private chat, and returns the chat, its user and the
// board.
func tapPathGame(t *testing.T) (*harness, tgbotapi.Chat, tgbotapi.User, telegramtest.Message) {
	t.Helper()
	h := newWebhookHarness(t)
	chat, me := private(2400), user(2400, "en")
	u := h.fake.NewTextUpdate(chat, me, "/play medium ttt")
	u.UpdateID = h.fake.NextUpdateID()
	if status, err := h.fake.Post(context.Background(), u, webhookSecret); err != nil || status != http.StatusOK {
		t.Fatalf("/play: status %d, %v", status, err)
	}
	var board telegramtest.Message
	h.wait("the board", func() bool {
		m, ok := h.fake.LastBotMessage(chat.ID)
		board = m
		return ok && len(placeButtons(m)) == 9
	})
	return h, chat, me, board
}

// checkInboxEmpty fails unless every update the bot received was handled
// to its end.
func (h *harness) checkInboxEmpty() {
	h.t.Helper()
	if items, err := h.svc.Pending(context.Background(), telegram.Platform); err != nil || len(items) != 0 {
		h.t.Errorf("inbox after the bot stopped: %d updates, %v", len(items), err)
	}
}
