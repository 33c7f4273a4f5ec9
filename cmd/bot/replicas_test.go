package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// TestEtcdOverTLSWithAPassword runs the bot on a cluster that takes
// clients over TLS only, with a client certificate, and with etcd's
// authentication on: with the configured files and password it plays;
// with a wrong password it stops at start with an error that names
// authentication and does not show the password.
func TestEtcdOverTLSWithAPassword(t *testing.T) {
	const password = "s3cret-etcd-Pass"
	c := etcdtest.StartSecure(t, 1, etcdtest.Security{TLS: true, Password: password})
	files := c.TLSFiles()
	cfgPath := filepath.Join(t.TempDir(), "bot.yaml")
	yaml := fmt.Sprintf("database:\n  backend: etcd\n  etcd:\n    endpoints: [%q]\n    username: root\n    ca_file: %q\n    cert_file: %q\n    key_file: %q\n    dial_timeout: 2s\n",
		c.Endpoints()[0], files.CA, files.Cert, files.Key)
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := telegramtest.NewServer()
	defer fake.Close()
	vars := map[string]string{
		"BOT_ETCD_PASSWORD":     password,
		"TELEGRAM_TOKEN":        telegramtest.Token,
		"TELEGRAM_API_ENDPOINT": fake.Endpoint(),
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs watchedBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-config", cfgPath}, env(vars), strings.NewReader(""), &out, &logs) }()
	chat := tgbotapi.Chat{ID: 43, Type: "private"}
	fake.SendText(chat, tgbotapi.User{ID: 43, FirstName: "Ann"}, "/play")
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := fake.Wait(wctx, func() bool { _, ok := fake.LastBotMessage(43); return ok }); err != nil {
		t.Fatalf("no board over TLS with a password: %v\n%s", err, logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, logs.String())
	}

	vars["BOT_ETCD_PASSWORD"] = "wrong-" + password
	var logs2 watchedBuffer
	err := run(context.Background(), []string{"-config", cfgPath}, env(vars), strings.NewReader(""), &out, &logs2)
	if err == nil || !strings.Contains(err.Error(), "authentication failed") {
		t.Fatalf("wrong password: %v, want an authentication error", err)
	}
	if strings.Contains(err.Error()+logs2.String(), password) {
		t.Errorf("the password shows in the error or the logs:\n%v\n%s", err, logs2.String())
	}
}
