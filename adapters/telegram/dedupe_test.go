package telegram_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// webhookSecret is the secret token of the webhook tests.
const webhookSecret = "s3cret-Token_2"

// newWebhookHarness starts a bot in webhook mode and waits until it set
// its webhook.
func newWebhookHarness(t *testing.T) *harness {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(h *harness) {
		h.cfg.Mode = telegram.ModeWebhook
		h.cfg.Webhook = telegram.WebhookConfig{URL: "http://" + ln.Addr().String() + "/hook", Secret: webhookSecret, Listener: ln}
	})
	h.wait("setWebhook", func() bool { u, _ := h.fake.Webhook(); return u != "" })
	return h
}

// openChallenges returns the open challenges in chat that anyone may
// accept.
func (h *harness) openChallenges(chat tgbotapi.Chat) int {
	h.t.Helper()
	live, err := h.svc.Begin(context.Background(), session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: itoa64(chat.ID), User: session.User{ID: "424242", Name: "onlooker"}}}).Live()
	if err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, v := range live {
		if v.Status() == session.Open {
			n++
		}
	}
	return n
}

// syncWebhook waits until every update already queued for chat was
// handled, like sync, delivering its tap through the webhook.
func (h *harness) syncWebhook(chat tgbotapi.Chat) {
	h.t.Helper()
	u, id := h.fake.NewTapUpdate(chat, tgbotapi.User{ID: 1, FirstName: "sync"}, 0, "n")
	if status, err := h.fake.Deliver(context.Background(), u, webhookSecret); err != nil || status != http.StatusOK {
		h.t.Fatalf("sync tap: status %d, %v", status, err)
	}
	h.wait("sync answer", func() bool { return h.fake.Answered(id) })
}

// checkOneChallenge fails unless chat holds exactly one open challenge
// and one bot message.
func (h *harness) checkOneChallenge(chat tgbotapi.Chat, what string) {
	h.t.Helper()
	if n := h.openChallenges(chat); n != 1 {
		h.t.Errorf("%s: %d open challenges, want 1", what, n)
	}
	if n := len(h.fake.BotMessages(chat.ID)); n != 1 {
		h.t.Errorf("%s: %d bot messages, want 1", what, n)
	}
}

func TestWebhookUpdatePostedAgainTakesEffectOnce(t *testing.T) {
	h := newWebhookHarness(t)
	ctx := context.Background()

	// One update POSTed twice in a row, as Telegram does when its first
	// delivery got no 200.
	twice := group(-3100)
	u := h.fake.NewTextUpdate(twice, named(3101, "alice", "en"), "/duel")
	u.UpdateID = h.fake.NextUpdateID()
	for i := range 2 {
		if status, err := h.fake.Post(ctx, u, webhookSecret); err != nil || status != http.StatusOK {
			t.Fatalf("delivery %d: status %d, %v", i+1, status, err)
		}
	}
	h.syncWebhook(twice)
	h.checkOneChallenge(twice, "an update POSTed twice")

	// Another POSTed four times at once.
	four := group(-3200)
	u = h.fake.NewTextUpdate(four, named(3201, "bob", "en"), "/duel")
	u.UpdateID = h.fake.NextUpdateID()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if status, err := h.fake.Post(ctx, u, webhookSecret); err != nil || status != http.StatusOK {
				t.Errorf("concurrent delivery %d: status %d, %v", i+1, status, err)
			}
		})
	}
	wg.Wait()
	h.syncWebhook(four)
	h.checkOneChallenge(four, "an update POSTed four times at once")

	// Delivered again after a restart: the mark is in the file. The
	// next bot listens on the address the first one's listener had.
	h.cfg.Webhook.Listen, h.cfg.Webhook.Listener = h.cfg.Webhook.Listener.Addr().String(), nil
	h.restart()
	h.wait("setWebhook", func() bool { return len(h.fake.Calls("setWebhook")) == 2 })
	if status, err := h.fake.Post(ctx, u, webhookSecret); err != nil || status != http.StatusOK {
		t.Fatalf("delivery after a restart: status %d, %v", status, err)
	}
	h.syncWebhook(four)
	h.checkOneChallenge(four, "an update POSTed again after a restart")
}

func TestReplayAfterCrashBetweenEffectAndInboxClearTakesEffectOnce(t *testing.T) {
	h := newHarness(t, nil)
	h.wait("polling", func() bool { return h.fake.Polling() > 0 })
	h.stop()
	chat, alice := group(-3300), named(3301, "alice", "en")
	// Telegram holds the update, unconfirmed; the bot had kept it in its
	// inbox and committed its effect, the challenge, when it died, before
	// it could clear the inbox or send the challenge's message.
	u := h.fake.NewTextUpdate(chat, alice, "/duel")
	u.UpdateID = h.fake.PushUpdate(u)
	data, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := h.svc.Receive(ctx, telegram.Platform, []session.InboxItem{{ID: int64(u.UpdateID), Data: data}}); err != nil {
		t.Fatal(err)
	}
	who := session.Actor{Platform: telegram.Platform, Chat: itoa64(chat.ID), User: session.User{ID: itoa64(alice.ID), Name: alice.UserName}}
	if _, err := h.svc.Begin(ctx, session.Request{Actor: who, Update: strconv.Itoa(u.UpdateID)}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe()}); err != nil {
		t.Fatal(err)
	}
	h.closeStore()
	h.open()
	h.start()
	h.sync(chat)
	h.checkOneChallenge(chat, "an update replayed after a crash")
	// The bot confirms what it handled on its next poll.
	h.wait("every update confirmed", func() bool { return h.fake.Pending() == 0 })

	// Telegram delivers it once more after a restart, as it does when
	// the offset was not confirmed.
	h.restart()
	h.fake.Redeliver(u)
	h.sync(chat)
	if h.fake.Deliveries(u.UpdateID) < 2 {
		t.Fatalf("the update was delivered %d times", h.fake.Deliveries(u.UpdateID))
	}
	h.checkOneChallenge(chat, "an update delivered again after a restart")
}
