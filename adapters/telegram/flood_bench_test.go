package telegram_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
)

var floodScale = flag.Float64("floodscale", 1, "BenchmarkFlood: multiply Telegram's flood-control windows by this (1: the real ones)")

// BenchmarkFlood measures 1000 chats playing 3×3 medium against the AI at
// once under Telegram's flood control, enforced by the fake server (its
// windows scaled by -floodscale) and kept to by the bot: each chat taps as
// soon as its previous tap was answered, reading the cells from the stored
// game since its board may lag behind. It reports the taps answered per
// second, the delay from the last answer until the last edit was made
// (every board then shows its final state), the edits made per tap (below
// 1 as edits coalesce) and the calls refused with 429 (0 expected).
// Starting the games (1000 board messages at 30 a second) is not timed.
//
//	go test -run '^$' -bench Flood -benchtime 1x ./adapters/telegram
func BenchmarkFlood(b *testing.B) {
	const chats = 1000
	limits := telegramtest.TelegramLimits().Scaled(*floodScale)
	h := newHarness(b, func(h *harness) {
		h.fake.Enforce(limits)
		h.cfg.Pace = paceOf(limits)
		h.cfg.Workers = 0 // the production default
		h.cfg.PollTimeout = 10 * time.Second
	})
	ctx := context.Background()
	hub := newAnswerHub(h.fake)
	var taps, edits int
	var tapping, draining time.Duration
	for round := range b.N {
		b.StopTimer()
		base := int64(100000 + round*chats)
		games := make([]session.GameID, chats)
		var wg sync.WaitGroup
		for i := range chats {
			wg.Go(func() {
				id := base + int64(i)
				p := player{h, ctx, private(id), hub}
				if err := p.say(user(id, "en"), "/play medium ttt"); err != nil {
					b.Error(err)
					return
				}
				v, err := h.svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: itoa64(id), User: session.User{ID: itoa64(id)}}}).Running()
				if err != nil {
					b.Error(err)
					return
				}
				games[i] = v.ID()
			})
		}
		wg.Wait()
		if b.Failed() {
			return
		}
		editsBefore := len(h.fake.Calls("editMessageText"))
		b.StartTimer()
		start := time.Now()
		var mu sync.Mutex
		for i := range chats {
			wg.Go(func() {
				id := base + int64(i)
				p, me := player{h, ctx, private(id), hub}, user(id, "en")
				_, n, err := p.play(games[i], map[string]tgbotapi.User{itoa64(id): me}, rand.New(rand.NewPCG(uint64(id), 3)))
				if err != nil {
					b.Error(err)
				}
				mu.Lock()
				taps += n
				mu.Unlock()
			})
		}
		wg.Wait()
		answered := time.Now()
		h.flush(tgbotapi.Chat{})
		done := time.Now()
		b.StopTimer()
		tapping += answered.Sub(start)
		draining += done.Sub(answered)
		edits += len(h.fake.Calls("editMessageText")) - editsBefore
	}
	b.ReportMetric(float64(taps)/tapping.Seconds(), "taps/s")
	b.ReportMetric(draining.Seconds()/float64(b.N), "last-edit-delay-s")
	b.ReportMetric(float64(edits)/float64(taps), "edits/tap")
	b.ReportMetric(float64(h.fake.Flooded()), "429s")
	b.ReportMetric(0, "ns/op")
}
