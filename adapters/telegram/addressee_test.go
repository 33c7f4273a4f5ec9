package telegram_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// sayWith sends a text message changed by edit (entities, a reply) and
// waits until it was handled.
func (h *harness) sayWith(chat tgbotapi.Chat, from tgbotapi.User, text string, edit func(m *tgbotapi.Message)) {
	h.t.Helper()
	u := h.fake.NewTextUpdate(chat, from, text)
	edit(u.Message)
	h.fake.PushUpdate(u)
	h.sync(chat)
}

// nameless returns a member without a username, called first.
func nameless(id int64, first string) tgbotapi.User {
	return tgbotapi.User{ID: id, FirstName: first, LanguageCode: "en"}
}

// A member merely named "alice" cannot accept or decline bob's
// /duel @alice, by button or typed command; the real @alice can.
func TestChallengeToAUsernameIgnoresDisplayNames(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-4000)
	bob, alice, fake := named(4001, "bob", "en"), named(4002, "alice", "en"), nameless(4003, "alice")
	notForYou := render.T(render.English, render.MsgNotForYou)

	ch := h.startGame(chat, bob, "/duel @alice")
	v := h.gameOf(ch)
	h.refused(chat, fake, ch.ID, button(t, ch, "a:"), v.ID(), notForYou)
	h.refused(chat, fake, ch.ID, button(t, ch, "d:"), v.ID(), notForYou)
	for _, cmd := range []string{"/accept", "/decline"} {
		h.say(chat, fake, cmd)
		if now, _ := h.svc.Game(context.Background(), v.ID()); now.Status() != session.Open || now.Version() != v.Version() {
			t.Fatalf("%s by a member named alice: %s, version %d → %d", cmd, now.Status(), v.Version(), now.Version())
		}
	}
	if got := h.tap(chat, alice, ch.ID, button(t, ch, "a:")); got != "" {
		t.Fatalf("@alice's accept answered %q", got)
	}
	if now, _ := h.svc.Game(context.Background(), v.ID()); now.Status() != session.Running || now.SideOf("4002") == 0 || now.SideOf("4003") != 0 {
		t.Fatalf("after @alice accepts: %s", now.Status())
	}

	// Typed, the real @alice declines; the namesake's /decline did not.
	ch = h.startGame(chat, bob, "/duel @Alice 4x4")
	h.say(chat, fake, "/decline")
	h.say(chat, alice, "/decline")
	if now := h.gameOf(ch); now.Status() != session.Declined {
		t.Fatalf("after @alice's /decline: %s", now.Status())
	}

	// An opponent typed by display name alone is refused.
	before := len(h.fake.BotMessages(chat.ID))
	h.say(chat, bob, "/duel alice")
	if got := h.lastBot(chat).Text; got != render.T(render.English, render.MsgDuelByName) || len(h.fake.BotMessages(chat.ID)) != before+1 {
		t.Fatalf("/duel alice answered %q", got)
	}
}

// A /duel naming its opponent by a text mention (a member picked from
// the list, who has no username) is bound to that member's id: another
// member, even of the same name, cannot take it.
func TestChallengeByMentionIsBoundToTheID(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-4100)
	bob, carol, carol2, dan := named(4101, "bob", "en"), nameless(4102, "🌸Carol Ünï"), nameless(4103, "🌸Carol Ünï"), named(4104, "dan", "en")
	notForYou := render.T(render.English, render.MsgNotForYou)

	// "/duel 🌸Carol Ünï 7x7" with the name as a text mention; the emoji
	// makes its UTF-16 length differ from its byte and rune counts.
	before := len(h.fake.BotMessages(chat.ID))
	h.sayWith(chat, bob, "/duel 🌸Carol Ünï 7x7", func(m *tgbotapi.Message) {
		m.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: 5}, {Type: "text_mention", Offset: 6, Length: len(utf16.Encode([]rune("🌸Carol Ünï"))), User: &carol}}
	})
	if n := len(h.fake.BotMessages(chat.ID)); n != before+1 {
		t.Fatalf("/duel with a mention sent %d messages", n-before)
	}
	ch := h.lastBot(chat)
	if len(ch.Buttons()) == 0 {
		t.Fatalf("/duel with a mention answered %q", ch.Text)
	}
	v := h.gameOf(ch)
	if to := v.Seat(v.Challenger().Opponent()).User; to.ID != "4102" || v.Rules().Width != 7 {
		t.Fatalf("challenge to %+v on %v:\n%s", to, v.Rules(), ch.Text)
	}
	h.refused(chat, carol2, ch.ID, button(t, ch, "a:"), v.ID(), notForYou)
	h.refused(chat, dan, ch.ID, button(t, ch, "d:"), v.ID(), notForYou)
	h.say(chat, carol2, "/accept")
	if got := h.tap(chat, carol, ch.ID, button(t, ch, "a:")); got != "" {
		t.Fatalf("carol's accept answered %q", got)
	}
	if now, _ := h.svc.Game(context.Background(), v.ID()); now.Status() != session.Running || now.SideOf("4102") == 0 {
		t.Fatalf("after carol accepts: %s", now.Status())
	}

}

// A /duel sent as a reply to a member's message is theirs alone.
func TestChallengeByReplyIsBoundToTheID(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-4200)
	bob, carol, carol2, dan := named(4201, "bob", "en"), nameless(4202, "Carol"), nameless(4203, "Carol"), named(4204, "dan", "en")
	notForYou := render.T(render.English, render.MsgNotForYou)
	said := h.fake.NewTextUpdate(chat, carol2, "anyone up for a game?")
	h.fake.PushUpdate(said)
	h.sync(chat)
	h.sayWith(chat, dan, "/duel", func(m *tgbotapi.Message) { m.ReplyToMessage = said.Message })
	ch := h.lastBot(chat)
	if len(ch.Buttons()) == 0 {
		t.Fatalf("/duel as a reply answered %q", ch.Text)
	}
	v := h.gameOf(ch)
	if to := v.Seat(v.Challenger().Opponent()).User; to.ID != "4203" {
		t.Fatalf("reply challenge to %+v:\n%s", to, ch.Text)
	}
	h.refused(chat, carol, ch.ID, button(t, ch, "a:"), v.ID(), notForYou)
	h.refused(chat, bob, ch.ID, button(t, ch, "a:"), v.ID(), notForYou)
	if got := h.tap(chat, carol2, ch.ID, button(t, ch, "d:")); got != "" {
		t.Fatalf("carol2's decline answered %q", got)
	}
	if now, _ := h.svc.Game(context.Background(), v.ID()); now.Status() != session.Declined {
		t.Fatalf("after carol2 declines: %s", now.Status())
	}
}

// Full-width text, as Chinese input methods type it, reads as its ASCII
// before the bot looks at it: ／ｓｔａｒｔ shows the start menu, and a
// ／ｄｕｅｌ naming its opponent by a text mention is bound to that member.
func TestFullWidthCommandsReadAsTyped(t *testing.T) {
	h := newHarness(t, nil)
	me := user(4300, "zh-CN")
	h.say(private(4300), me, "／ｓｔａｒｔ")
	if menu := h.lastBot(private(4300)); !strings.Contains(menu.Text, "选择棋盘") || len(menu.Buttons()) == 0 {
		t.Fatalf("／ｓｔａｒｔ answered %q", menu.Text)
	}
	chat := group(-4300)
	bob, carol := named(4301, "bob", "en"), nameless(4302, "Carol")
	h.sayWith(chat, bob, "／ｄｕｅｌ　Carol　７ｘ７", func(m *tgbotapi.Message) {
		m.Entities = []tgbotapi.MessageEntity{{Type: "text_mention", Offset: 6, Length: 5, User: &carol}}
	})
	ch := h.lastBot(chat)
	if len(ch.Buttons()) == 0 {
		t.Fatalf("／ｄｕｅｌ with a mention answered %q", ch.Text)
	}
	if v := h.gameOf(ch); v.Seat(v.Challenger().Opponent()).User.ID != "4302" || v.Rules().Width != 7 {
		t.Fatalf("challenge to %+v on %v", v.Seat(v.Challenger().Opponent()).User, v.Rules())
	}
}
