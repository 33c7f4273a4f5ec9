package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStopDuringAStalledGetMeNeverPrintsTheToken starts the bot against
// a Bot API that accepts and never answers, and stops it during the
// stall: run returns at once, and neither its log nor its error holds
// the token.
func TestStopDuringAStalledGetMeNeverPrintsTheToken(t *testing.T) {
	const token = "424242:stalled-getme-SECRET"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- c
		}
	}()
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs watchedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-db", filepath.Join(t.TempDir(), "bot.db")}, env(map[string]string{
			"TELEGRAM_TOKEN":        token,
			"TELEGRAM_API_ENDPOINT": "http://" + ln.Addr().String() + "/bot%s/%s",
			"BOT_LOG_LEVEL":         "debug",
		}), strings.NewReader(""), &out, &logs)
	}()
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	select {
	case c := <-accepted:
		defer c.Close()
	case <-wctx.Done():
		t.Fatal("the bot never called getMe")
	}
	cancel()
	select {
	case err = <-done:
	case <-wctx.Done():
		t.Fatal("run did not return when stopped during getMe")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("run stopped during getMe: %v", err)
	}
	all := out.String() + logs.String() + fmt.Sprint(err)
	if strings.Contains(all, "SECRET") {
		t.Fatalf("token printed:\n%s", all)
	}
}

// TestRedactionCutsEveryFormOfASecret checks the last line of defence:
// whatever reaches stderr or run's error has every configured secret cut
// out, as it is, quoted or URL-escaped.
func TestRedactionCutsEveryFormOfASecret(t *testing.T) {
	var c Config
	c.Telegram.Token = "4242:tg/SECRET+one"
	c.Telegram.Webhook.Secret = "hook_SECRET-two"
	c.Discord.Token = "dc.SECRET\"three"
	c.Metrics.BackupToken = "backup-SECRET-four-0123"
	r := newRedactor(c.secrets())
	var text strings.Builder
	for _, s := range c.secrets() {
		fmt.Fprintf(&text, "plain %s quoted %q path %s query %s\n", s, s, url.PathEscape(s), url.QueryEscape(s))
	}
	var logged watchedBuffer
	w := redactWriter{w: &logged, r: r}
	if n, err := w.Write([]byte(text.String())); n != text.Len() || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	cause := errors.New("base: " + text.String())
	err := redactError(fmt.Errorf("wrapped: %w", cause), r)
	if !errors.Is(err, cause) {
		t.Errorf("the redacted error lost its cause")
	}
	for _, got := range []string{logged.String(), err.Error()} {
		if strings.Contains(got, "SECRET") || strings.Count(got, "[redacted]") != 16 {
			t.Fatalf("not redacted:\n%s", got)
		}
	}
	if newRedactor(nil) != nil || redactError(nil, r) != nil {
		t.Error("nothing to redact gave a redactor or an error")
	}
}

// TestLoadConfigRefusesAShortBackupToken checks that a backup token too
// short to resist guessing stops the start, naming the key but not the
// value.
func TestLoadConfigRefusesAShortBackupToken(t *testing.T) {
	_, err := loadConfig("", env(map[string]string{"BOT_BACKUP_TOKEN": "short-Zq9"}))
	if err == nil || !strings.Contains(err.Error(), "metrics.backup_token") || strings.Contains(err.Error(), "Zq9") {
		t.Fatalf("a short backup token: %v", err)
	}
	c, err := loadConfig("", env(map[string]string{"BOT_BACKUP_TOKEN": strings.Repeat("x", minBackupToken)}))
	if err != nil || len(c.Metrics.BackupToken) != minBackupToken {
		t.Fatalf("a long enough backup token: %v", err)
	}
}
