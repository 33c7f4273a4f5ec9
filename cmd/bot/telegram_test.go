package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

func TestRunServesTelegramWithAToken(t *testing.T) {
	fake := telegramtest.NewServer()
	defer fake.Close()
	db := filepath.Join(t.TempDir(), "bot.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-db", db}, env(map[string]string{
			"TELEGRAM_TOKEN":        telegramtest.Token,
			"TELEGRAM_API_ENDPOINT": fake.Endpoint(),
		}), strings.NewReader(""), &out, &errOut)
	}()
	chat := tgbotapi.Chat{ID: 42, Type: "private"}
	fake.SendText(chat, tgbotapi.User{ID: 42, FirstName: "Ann"}, "/play hard")
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := fake.Wait(wctx, func() bool { _, ok := fake.LastBotMessage(42); return ok }); err != nil {
		t.Fatalf("no board: %v\n%s", err, errOut.String())
	}
	m, _ := fake.LastBotMessage(42)
	if !strings.Contains(m.Text, "Ann  vs") || len(m.Buttons()) != 4 {
		t.Fatalf("board message:\n%s\n%v", m.Text, m.Buttons())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	if out.Len() != 0 || strings.Contains(errOut.String(), telegramtest.Token) {
		t.Fatalf("terminal output with Telegram only:\n%s\nlog:\n%s", out.String(), errOut.String())
	}
}

func TestTelegramShowsExpiredGames(t *testing.T) {
	fake := telegramtest.NewServer()
	defer fake.Close()
	r := newExpiryRig(t)
	store, svc, onExpire := r.store, r.svc, r.onExpire
	cfg := defaultConfig()
	cfg.Telegram.Token, cfg.Telegram.APIEndpoint = Secret(telegramtest.Token), fake.Endpoint()
	bot, err := newTelegram(context.Background(), svc, cfg, slog.New(slog.DiscardHandler), newMetrics(liveCount(store)), onExpire, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if onExpire[telegram.Platform] == nil {
		t.Fatal("no onExpire entry for Telegram")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	chat := tgbotapi.Chat{ID: 43, Type: "private"}
	fake.SendText(chat, tgbotapi.User{ID: 43, FirstName: "Ann"}, "/play")
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	// A chat's updates are handled in order: once a tap after /play is
	// answered, the board was sent and bound to the game.
	tap := fake.Tap(chat, tgbotapi.User{ID: 43, FirstName: "Ann"}, 0, "n")
	if err := fake.Wait(wctx, func() bool { return fake.Answered(tap) }); err != nil {
		t.Fatal(err)
	}
	m, _ := fake.LastBotMessage(43)
	r.advance(session.DefaultIdleAI)
	if n, err := svc.Sweep(ctx); n != 1 || err != nil {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	after, _ := fake.Message(43, m.ID)
	if after.Edits != 1 || !strings.Contains(after.Text, render.T(render.English, render.MsgExpired)) {
		t.Errorf("board after the sweep: %+v", after)
	}
}

// expiryRig is a session on a temp bbolt file with a clock the test moves,
// whose sweeper reports go to the platform's onExpire entry, as run wires
// them.
type expiryRig struct {
	store    *boltstore.Store
	svc      *session.Service
	onExpire map[session.Platform]func(session.View)
	mu       sync.Mutex
	now      time.Time
}

func newExpiryRig(t *testing.T) *expiryRig {
	t.Helper()
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	r := &expiryRig{store: store, onExpire: map[session.Platform]func(session.View){}, now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	clock := func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now }
	r.svc = session.New(store, &session.Config{Now: clock, OnExpire: func(v session.View) { r.onExpire[v.Platform()](v) }})
	return r
}

// advance moves the rig's clock on by d.
func (r *expiryRig) advance(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = r.now.Add(d)
}
