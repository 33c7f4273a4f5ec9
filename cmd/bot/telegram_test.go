package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
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
