package telegram_test

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestUndoByButtonAgainstTheAI plays a move against the AI through the
// fake Bot API, taps ↩️, and finds the move and the AI's reply taken off
// the edited board; the same ↩️ again is stale and says so in a toast.
func TestUndoByButtonAgainstTheAI(t *testing.T) {
	h := newHarness(t, nil)
	chat, ann := private(4000), named(4000, "ann", "en")
	m := h.startGame(chat, ann, "/play easy ttt")
	if got := h.tap(chat, ann, m.ID, placeButtons(m)[4]); got != "" {
		t.Fatalf("move: %q", got)
	}
	m, _ = h.fake.Message(chat.ID, m.ID)
	if v := h.gameOf(m); v.MoveNo() != 2 {
		t.Fatalf("after the move and the reply: %d moves", v.MoveNo())
	}
	undo := button(t, m, "u:")
	if len(undo) > adapters.MaxCallbackLen {
		t.Fatalf("↩️ data %q is over Telegram's limit", undo)
	}
	if got := h.tap(chat, ann, m.ID, undo); got != "" {
		t.Fatalf("↩️ answered %q", got)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	v := h.gameOf(after)
	if v.MoveNo() != 0 || v.Takebacks() != 1 || after.Edits != m.Edits+1 || len(placeButtons(after)) != 9 {
		t.Fatalf("after ↩️: %d moves, %d takebacks, %d edits, %d live cells", v.MoveNo(), v.Takebacks(), after.Edits, len(placeButtons(after)))
	}
	checkBoardMatches(t, after, v)
	if !strings.Contains(after.Text, "Takebacks: 1.") {
		t.Errorf("board text:\n%s", after.Text)
	}
	if got := h.tap(chat, ann, m.ID, undo); got != render.T(render.English, render.MsgStale) {
		t.Fatalf("stale ↩️ answered %q", got)
	}
}

// TestDuelTakebackAcceptedByTheOpponent asks for a takeback in a group
// duel by ↩️; only the opponent's ✅ grants it, and the board shows the
// position before the move.
func TestDuelTakebackAcceptedByTheOpponent(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-4001)
	cy, dee := named(4002, "cy", "en"), named(4003, "dee", "en")
	m := h.startGame(chat, cy, "/duel first")
	if got := h.tap(chat, dee, m.ID, button(t, m, "a:")); got != "" {
		t.Fatalf("accept: %q", got)
	}
	m, _ = h.fake.Message(chat.ID, m.ID)
	if got := h.tap(chat, cy, m.ID, placeButtons(m)[0]); got != "" {
		t.Fatalf("cy's move: %q", got)
	}
	m, _ = h.fake.Message(chat.ID, m.ID)
	if got := h.tap(chat, cy, m.ID, button(t, m, "u:")); got != "" {
		t.Fatalf("cy's ↩️: %q", got)
	}
	asked, _ := h.fake.Message(chat.ID, m.ID)
	if v := h.gameOf(asked); v.MoveNo() != 1 || v.UndoAsk() == 0 || !strings.Contains(asked.Text, "Takeback asked by ❌ cy") {
		t.Fatalf("after cy asks: %d moves, request %v:\n%s", v.MoveNo(), v.UndoAsk(), asked.Text)
	}
	allow := button(t, asked, "y:")
	button(t, asked, "x:")
	if got := h.tap(chat, cy, asked.ID, allow); got != render.T(render.English, render.MsgNoUndoRequest) {
		t.Fatalf("cy allows her own request: %q", got)
	}
	if got := h.tap(chat, dee, asked.ID, allow); got != "" {
		t.Fatalf("dee allows: %q", got)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	v := h.gameOf(after)
	if v.MoveNo() != 0 || v.UndoAsk() != 0 || v.Takebacks() != 1 || v.Status() != session.Running || len(placeButtons(after)) != 9 {
		t.Fatalf("after dee allows: %d moves, request %v, %d takebacks, %s", v.MoveNo(), v.UndoAsk(), v.Takebacks(), v.Status())
	}
	if strings.Contains(after.Text, "asks to take back") || strings.Contains(fmtButtons(after), "y:") {
		t.Errorf("the request is still shown:\n%s\n%s", after.Text, fmtButtons(after))
	}
}

// fmtButtons returns the callback data of a message's buttons.
func fmtButtons(m telegramtest.Message) string {
	var sb strings.Builder
	for _, row := range m.Buttons() {
		for _, b := range row {
			sb.WriteString(*b.CallbackData + " ")
		}
	}
	return sb.String()
}
