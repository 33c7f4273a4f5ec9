package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
)

// TestRunBothPlatformsWithMetricsNeverPrintsTokens runs the bot on the
// fake Telegram and the fake Discord at once, with debug logs and the
// metrics listener (and /backup behind its token), plays on both, and
// checks the metrics count what happened and that no token shows in the
// logs, the output or the metrics.
func TestRunBothPlatformsWithMetricsNeverPrintsTokens(t *testing.T) {
	const dcToken = "MTA0.fake-discord-secret.never-print"
	tg := telegramtest.NewServer()
	defer tg.Close()
	dc := discordtest.New(discordtest.Options{Token: dcToken})
	defer dc.Close()
	defer discord.SetAPIBase(discord.DefaultAPIBase)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "c.yaml")
	yaml := fmt.Sprintf("discord:\n  app_id: %q\n  guild_id: %q\n  api_base: %q\n", discordtest.AppID, discordtest.GuildID, dc.URL)
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs watchedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", cfgPath, "-db", filepath.Join(dir, "bot.db")}, env(map[string]string{
			"TELEGRAM_TOKEN":        telegramtest.Token,
			"TELEGRAM_API_ENDPOINT": tg.Endpoint(),
			"DISCORD_TOKEN":         dcToken,
			"BOT_METRICS_LISTEN":    "127.0.0.1:0",
			"BOT_BACKUP_TOKEN":      testBackupToken,
			"BOT_LOG_LEVEL":         "debug",
		}), strings.NewReader(""), &out, &logs)
	}()

	chat := tgbotapi.Chat{ID: 42, Type: "private"}
	tg.SendText(chat, tgbotapi.User{ID: 42, FirstName: "Ann"}, "/play")
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if err := tg.Wait(wctx, func() bool { _, ok := tg.LastBotMessage(42); return ok }); err != nil {
		t.Fatalf("no Telegram board: %v\n%s", err, logs.String())
	}
	if err := dc.WaitFor(20*time.Second, "guild commands", func() bool { return len(dc.Commands(discordtest.GuildID)) > 0 }); err != nil {
		t.Fatal(err)
	}
	id, err := dc.Command(discordtest.User{ID: "1", Name: "ann"}, "c", "play")
	if err != nil {
		t.Fatal(err)
	}
	if err := dc.WaitFor(20*time.Second, "the Discord board", func() bool { return dc.Response(id).Type == 4 }); err != nil {
		t.Fatal(err)
	}
	addrRE := regexp.MustCompile(`serving /metrics.* addr=(\S+)`)
	var addr string
	if err := dc.WaitFor(20*time.Second, "the metrics address", func() bool {
		m := addrRE.FindStringSubmatch(logs.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	}); err != nil {
		t.Fatal(err)
	}
	code, metrics := get(t, "http://"+addr+"/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`boardbot_updates_total{kind="message",platform="telegram"} 1`,
		`boardbot_updates_total{kind="command",platform="discord"} 1`,
		`boardbot_active_games 2`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, _ := get(t, "http://"+addr+"/healthz"); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	if code, _ := getBackup(t, "http://"+addr+"/backup", ""); code != http.StatusUnauthorized {
		t.Errorf("/backup without the token: %d", code)
	}
	if code, snap := getBackup(t, "http://"+addr+"/backup", "Bearer "+testBackupToken); code != http.StatusOK || len(snap) == 0 {
		t.Errorf("/backup with the token: %d, %d bytes", code, len(snap))
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, logs.String())
	}
	all := out.String() + logs.String() + metrics
	if !strings.Contains(logs.String(), "level=DEBUG msg=configuration") || !strings.Contains(logs.String(), "telegram_token=[redacted]") {
		t.Errorf("debug level not in force:\n%s", logs.String())
	}
	tgSecret := telegramtest.Token[strings.Index(telegramtest.Token, ":")+1:]
	for _, secret := range []string{tgSecret, "fake-discord-secret", testBackupToken} {
		if strings.Contains(all, secret) {
			t.Fatalf("token %q printed:\n%s", secret, all)
		}
	}
}
