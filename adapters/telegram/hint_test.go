package telegram_test

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
)

// TestHintByButton taps 💡 against the AI through the fake Bot API: the
// edited board marks 🎯 in its text and on the cell's button, and the
// same 💡 tapped twice gives one hint.
func TestHintByButton(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.tune = func(c *session.Config) { c.Limits.HintsPerGame = 2 }
	})
	chat, ann := private(4100), named(4100, "ann", "en")
	m := h.startGame(chat, ann, "/play easy ttt")
	hint := button(t, m, "h:")
	if len(hint) > adapters.MaxCallbackLen {
		t.Fatalf("💡 data %q is over Telegram's limit", hint)
	}
	if got := h.tap(chat, ann, m.ID, hint); got != "" {
		t.Fatalf("💡 answered %q", got)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	v := h.gameOf(after)
	if v.Hints() != 1 || !strings.Contains(after.Text, "🎯") || !strings.Contains(after.Text, "(hints left: 1).") {
		t.Fatalf("after 💡: %d hints:\n%s", v.Hints(), after.Text)
	}
	checkBoardMatches(t, after, v)
	found := false
	for _, row := range after.Markup.InlineKeyboard {
		for _, b := range row {
			found = found || b.Text == "🎯"
		}
	}
	if !found {
		t.Errorf("no 🎯 button: %+v", after.Markup)
	}
	if got := h.tap(chat, ann, m.ID, hint); got != "" {
		t.Fatalf("💡 again answered %q", got)
	}
	if v := h.gameOf(after); v.Hints() != 1 {
		t.Fatalf("a doubled 💡 gave %d hints", v.Hints())
	}
}
