package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// TestSecondPollerRefused runs two bots on one etcd cluster in polling
// mode: the second is refused at start with a message that says to use
// webhooks, and the first keeps playing.
func TestSecondPollerRefused(t *testing.T) {
	c := etcdtest.Start(t, 1)
	fake := telegramtest.NewServer()
	defer fake.Close()
	vars := map[string]string{
		"BOT_DB_BACKEND":        "etcd",
		"BOT_ETCD_ENDPOINTS":    strings.Join(c.Endpoints(), ","),
		"TELEGRAM_TOKEN":        telegramtest.Token,
		"TELEGRAM_API_ENDPOINT": fake.Endpoint(),
		"BOT_LOG_LEVEL":         "debug",
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, env(vars), strings.NewReader(""), &out, &errOut)
	}()
	chat := tgbotapi.Chat{ID: 42, Type: "private"}
	fake.SendText(chat, tgbotapi.User{ID: 42, FirstName: "Ann"}, "/play")
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := fake.Wait(wctx, func() bool { _, ok := fake.LastBotMessage(42); return ok }); err != nil {
		select {
		case rerr := <-done:
			t.Fatalf("the first bot stopped: %v", rerr)
		default:
		}
		t.Fatalf("no board from the first bot: %v", err)
	}

	var out2, errOut2 strings.Builder
	// Bounded, so that a second poller that starts fails the test
	// instead of hanging it.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	err := run(ctx2, nil, env(vars), strings.NewReader(""), &out2, &errOut2)
	if !errors.Is(err, errSecondPoller) || !strings.Contains(err.Error(), "webhook") {
		t.Errorf("second poller: %v, want errSecondPoller", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("first bot: %v\n%s", err, errOut.String())
	}
}

// TestEtcdPasswordIsASecret checks that the etcd password is redacted
// like the tokens.
func TestEtcdPasswordIsASecret(t *testing.T) {
	const password = "etcd-pa55word-never-print"
	c, err := loadConfig("", env(map[string]string{"BOT_ETCD_PASSWORD": password, "BOT_DB_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "127.0.0.1:1"}))
	if err == nil || strings.Contains(err.Error(), password) {
		t.Fatalf("a password without a username: %v", err)
	}
	r := newRedactor(c.secrets())
	if r == nil || strings.Contains(r.Replace("dial with "+password), password) {
		t.Error("the etcd password is not among the redacted secrets")
	}
}
