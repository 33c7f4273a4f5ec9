package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// TestStartWaitsForTheStore starts the bot on an etcd cluster that does
// not answer yet: the ops endpoints serve at once with /healthz not
// ready, the bot tries again with growing waits instead of exiting, and
// once the cluster answers it starts and /healthz says ok.
func TestStartWaitsForTheStore(t *testing.T) {
	c := etcdtest.Start(t, 1)
	p := c.Proxy(t, 0, nil)
	p.Refuse(true)
	listening := make(chan net.Addr, 1)
	waits, ticks := make(chan time.Duration), make(chan time.Time)
	startHooks.opsListening = func(a net.Addr) { listening <- a }
	startHooks.retryAfter = func(d time.Duration) <-chan time.Time { waits <- d; return ticks }
	t.Cleanup(func() { startHooks.opsListening, startHooks.retryAfter = nil, nil })
	fake := telegramtest.NewServer()
	defer fake.Close()
	cfgPath := filepath.Join(t.TempDir(), "bot.yaml")
	if err := os.WriteFile(cfgPath, []byte("database:\n  etcd:\n    dial_timeout: 200ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs watchedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", cfgPath}, env(map[string]string{
			"BOT_DB_BACKEND":        "etcd",
			"BOT_ETCD_ENDPOINTS":    p.URL,
			"BOT_METRICS_LISTEN":    "127.0.0.1:0",
			"TELEGRAM_TOKEN":        telegramtest.Token,
			"TELEGRAM_API_ENDPOINT": fake.Endpoint(),
		}), strings.NewReader(""), &out, &logs)
	}()
	var addr net.Addr
	select {
	case addr = <-listening:
	case err := <-done:
		t.Fatalf("run ended before serving /healthz: %v\n%s", err, logs.String())
	}
	health := "http://" + addr.String() + "/healthz"
	wait := func() time.Duration {
		t.Helper()
		select {
		case d := <-waits:
			return d
		case err := <-done:
			t.Fatalf("run ended instead of waiting for the store: %v\n%s", err, logs.String())
			return 0
		}
	}
	if code, body := get(t, health); code != 503 || !strings.Contains(body, "waiting for the database") {
		t.Errorf("/healthz before the store answers: %d %q, want 503", code, body)
	}
	if d := wait(); d != firstRetry {
		t.Errorf("first wait %v, want %v", d, firstRetry)
	}
	ticks <- time.Now()
	if d := wait(); d != 2*firstRetry {
		t.Errorf("second wait %v, want %v", d, 2*firstRetry)
	}
	if code, _ := get(t, health); code != 503 {
		t.Errorf("/healthz while retrying: %d, want 503", code)
	}
	p.Refuse(false)
	ticks <- time.Now()
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := fake.Wait(wctx, func() bool { return len(fake.Calls("setMyCommands")) > 0 }); err != nil {
		t.Fatalf("the bot did not start once the store answered: %v\n%s", err, logs.String())
	}
	if code, body := get(t, health); code != 200 {
		t.Errorf("/healthz once started: %d %q", code, body)
	}
	if !strings.Contains(logs.String(), "does not answer yet") {
		t.Errorf("no warning while waiting:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, logs.String())
	}
}
