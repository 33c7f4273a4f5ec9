package telegram_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
)

// animations returns the animation messages the bot sent to chat.
func (h *harness) animations(chat int64) []telegramtest.Message {
	var out []telegramtest.Message
	for _, m := range h.fake.BotMessages(chat) {
		if m.Animation != nil {
			out = append(out, m)
		}
	}
	return out
}

// TestReplayByButton finishes a game through the fake Bot API and taps
// ▶️ under its board: one sendAnimation with a GIF and its caption, and
// none more for a doubled tap or a redelivered update; /history lists the
// game with its ▶️, and 📋 sends the record.
func TestReplayByButton(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	h := newHarness(t, func(h *harness) {
		h.tune = func(c *session.Config) { c.Now = func() time.Time { return now } }
	})
	chat, ann := private(4200), named(4200, "ann", "en")
	m := h.startGame(chat, ann, "/play easy ttt second")
	h.tap(chat, ann, m.ID, button(t, m, "r:"))
	board, _ := h.fake.Message(chat.ID, m.ID)
	play := button(t, board, "v:")
	if got := h.tap(chat, ann, m.ID, play); got != "" {
		t.Fatalf("▶️ answered %q", got)
	}
	anims := h.animations(chat.ID)
	if len(anims) != 1 || !bytes.HasPrefix(anims[0].Animation, []byte("GIF8")) || !strings.Contains(anims[0].Caption, "Moves: 1.") {
		t.Fatalf("after ▶️: %d animations %+v", len(anims), anims)
	}
	h.tap(chat, ann, m.ID, play)
	u, _ := h.fake.NewTapUpdate(chat, ann, m.ID, play)
	h.fake.PushUpdate(u)
	h.sync(chat)
	h.fake.PushUpdate(u)
	h.sync(chat)
	if n := len(h.animations(chat.ID)); n != 1 {
		t.Fatalf("a doubled ▶️ and a redelivered one sent %d animations, want 1", n)
	}

	h.say(chat, ann, "/history")
	list := h.lastBot(chat)
	if !strings.Contains(list.Text, "1. vs AI (easy) · Tic-tac-toe · lost · moves: 1 · 2026-05-06") {
		t.Fatalf("/history: %q", list.Text)
	}
	h.tap(chat, ann, list.ID, button(t, list, "e:"))
	if got := h.lastBot(chat).Text; !strings.Contains(got, "Moves (1): ") {
		t.Fatalf("📋 sent %q", got)
	}
}

// TestStatsChartByButton sends /stats after a game: the text and a chart
// photo with 📈 under it; 📈 tapped by someone else sends their own chart,
// once for a doubled tap, or says there is nothing to draw.
func TestStatsChartByButton(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	h := newHarness(t, func(h *harness) {
		h.tune = func(c *session.Config) { c.Now = func() time.Time { return now } }
	})
	chat, ann, bob := group(4300), named(4301, "ann", "en"), named(4302, "bob", "en")
	m := h.startGame(chat, ann, "/play easy ttt second")
	h.tap(chat, ann, m.ID, button(t, m, "r:"))
	before := len(h.fake.BotMessages(chat.ID))
	h.say(chat, ann, "/stats")
	ms := h.fake.BotMessages(chat.ID)[before:]
	if len(ms) != 2 || !strings.Contains(ms[1].Text, "ann") {
		t.Fatalf("/stats sent %d messages", len(ms))
	}
	chart := ms[0]
	if !bytes.HasPrefix(chart.Photo, []byte("\x89PNG")) || !strings.Contains(chart.Caption, "No rated duel yet") {
		t.Fatalf("/stats sent %+v", chart)
	}
	again := button(t, chart, "k")
	before = len(h.fake.BotMessages(chat.ID))
	if got := h.tap(chat, bob, chart.ID, again); !strings.Contains(got, "Nothing to draw yet") || len(h.fake.BotMessages(chat.ID)) != before {
		t.Fatalf("📈 of a player without games answered %q", got)
	}
	mb := h.startGame(chat, bob, "/play easy ttt second")
	h.tap(chat, bob, mb.ID, button(t, mb, "r:"))
	before = len(h.fake.BotMessages(chat.ID))
	h.tap(chat, bob, chart.ID, again)
	h.tap(chat, bob, chart.ID, again)
	if n := len(h.fake.BotMessages(chat.ID)) - before; n != 1 || h.lastBot(chat).Photo == nil {
		t.Fatalf("📈 twice sent %d messages, want one chart", n)
	}
}
