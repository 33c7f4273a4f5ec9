package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateNamesEveryBadKey loads configs with bad values, from the
// file or the environment and with no token set, and checks that each bad
// key is refused with its name, its environment variable, and its value
// (never a secret's), and that good values pass.
func TestValidateNamesEveryBadKey(t *testing.T) {
	const secret = "s3cret-VALUE"
	for _, tc := range []struct {
		name string
		yaml string
		env  map[string]string
		// want are the parts of the error, one list per bad key; none
		// means the config is good.
		want [][]string
	}{
		{name: "defaults"},
		{name: "example of every good value", yaml: "ai:\n  think_time: 0s\n  queue: -1\nconsole:\n  locale: zh-CN\nmetrics:\n  listen: 127.0.0.1:9090\n" +
			"telegram:\n  mode: webhook\n  api_endpoint: http://localhost:8081/bot%s/%s\n  webhook:\n    url: https://example.org/hook\n    listen: :8443\n    secret: abc_DEF-1\n" +
			"discord:\n  app_id: \"123\"\n  guild_id: \"456\"\n  api_base: http://127.0.0.1:1/\n"},
		{name: "negative think time", yaml: "ai:\n  think_time: -5s\n", want: [][]string{{"ai.think_time", "-5s", "want a duration"}}},
		{name: "think time of an hour", yaml: "ai:\n  think_time: 1h\n", want: [][]string{{"ai.think_time", "1h0m0s"}}},
		{name: "locale fr", yaml: "console:\n  locale: fr\n", want: [][]string{{"console.locale", `"fr"`, "en or zh"}}},
		{name: "empty locale", yaml: "console:\n  locale: \"\"\n", want: [][]string{{"console.locale", `""`}}},
		{name: "telegram mode typo without a token", yaml: "telegram:\n  mode: pollin\n", want: [][]string{{"telegram.mode", `"pollin"`, "polling or webhook"}}},
		{name: "log level from the env", env: map[string]string{"BOT_LOG_LEVEL": "loud"}, want: [][]string{{"log.level (env BOT_LOG_LEVEL)", `"loud"`}}},
		{name: "metrics address", yaml: "metrics:\n  listen: 9090\n", want: [][]string{{"metrics.listen (env BOT_METRICS_LISTEN)", `"9090"`}}},
		{name: "metrics address from the env", env: map[string]string{"BOT_METRICS_LISTEN": "localhost"}, want: [][]string{{"metrics.listen (env BOT_METRICS_LISTEN)", `"localhost"`}}},
		{name: "web address", yaml: "web:\n  listen: 8080\n", want: [][]string{{"web.listen (env BOT_WEB_LISTEN)", `"8080"`}}},
		{name: "web public URL", env: map[string]string{"BOT_WEB_PUBLIC_URL": "board.example.com"}, want: [][]string{{"web.public_url (env BOT_WEB_PUBLIC_URL)", `"board.example.com"`}}},
		{name: "web secret too short", env: map[string]string{"BOT_WEB_SECRET": "short"}, want: [][]string{{"web.secret (env BOT_WEB_SECRET)", "at least 16"}}},
		{name: "web link lifetime", yaml: "web:\n  link_ttl: 10s\n", want: [][]string{{"web.link_ttl", "1m to 720h"}}},
		{name: "web board without its public address", yaml: "web:\n  listen: \":8081\"\ntelegram:\n  token: \"1:x\"\n", want: [][]string{{"web.public_url (env BOT_WEB_PUBLIC_URL)", "https://"}}},
		{name: "Mini App name", yaml: "telegram:\n  mini_app: \"a b\"\n", want: [][]string{{"telegram.mini_app", `"a b"`}}},
		{name: "negative counts", yaml: "ai:\n  workers: -1\n  queue: -2\nlimits:\n  games_per_user: -1\n  games_per_chat: -3\n  undos_per_game: -5\ntelegram:\n  workers: -4\n",
			want: [][]string{{"ai.workers -1"}, {"ai.queue -2"}, {"limits.games_per_user -1"}, {"limits.games_per_chat -3"}, {"limits.undos_per_game -5"}, {"telegram.workers -4"}}},
		{name: "hints from the env", env: map[string]string{"BOT_HINTS_PER_GAME": "-2"}, want: [][]string{{"limits.hints_per_game (env BOT_HINTS_PER_GAME) -2"}}},
		{name: "hints not a number", env: map[string]string{"BOT_HINTS_PER_GAME": "lots"}, want: [][]string{{"limits.hints_per_game (env BOT_HINTS_PER_GAME)", `"lots"`, "whole number"}}},
		{name: "history kept an hour", yaml: "history:\n  keep: 1h\n", want: [][]string{{"history.keep (env BOT_HISTORY_KEEP) 1h0m0s", "0 (forever"}}},
		{name: "negative history keep", env: map[string]string{"BOT_HISTORY_KEEP": "-48h"}, want: [][]string{{"history.keep (env BOT_HISTORY_KEEP) -48h0m0s"}}},
		{name: "history keep not a duration", env: map[string]string{"BOT_HISTORY_KEEP": "a year"}, want: [][]string{{"history.keep (env BOT_HISTORY_KEEP)", `"a year"`, "forever"}}},
		{name: "history kept forever", env: map[string]string{"BOT_HISTORY_KEEP": "forever"}},
		{name: "negative hints", yaml: "limits:\n  hints_per_game: -1\n", want: [][]string{{"limits.hints_per_game (env BOT_HINTS_PER_GAME) -1"}}},
		{name: "negative durations", yaml: "limits:\n  challenge_cooldown: -1s\nshutdown_timeout: -2s\n",
			want: [][]string{{"limits.challenge_cooldown -1s"}, {"shutdown_timeout -2s"}}},
		{name: "webhook without its settings", yaml: "telegram:\n  mode: webhook\n  webhook:\n    listen: \"\"\n",
			want: [][]string{{"telegram.webhook.url", `""`}, {"telegram.webhook.listen", `""`}, {"telegram.webhook.secret (env TELEGRAM_WEBHOOK_SECRET)", "(value hidden)"}}},
		{name: "bad webhook secret from the env", env: map[string]string{"TELEGRAM_WEBHOOK_SECRET": secret + "!"},
			want: [][]string{{"telegram.webhook.secret (env TELEGRAM_WEBHOOK_SECRET) (value hidden)", "1-256 characters"}}},
		{name: "webhook URL not http", yaml: "telegram:\n  webhook:\n    url: ftp://x/hook\n", want: [][]string{{"telegram.webhook.url", `"ftp://x/hook"`}}},
		{name: "api endpoint without the method", env: map[string]string{"TELEGRAM_API_ENDPOINT": "https://x/bot%s"},
			want: [][]string{{"telegram.api_endpoint (env TELEGRAM_API_ENDPOINT)", `"https://x/bot%s"`}}},
		{name: "token with a line break", env: map[string]string{"TELEGRAM_TOKEN": "1:" + secret + "\n", "DISCORD_TOKEN": secret + " x"},
			want: [][]string{{"telegram.token (env TELEGRAM_TOKEN) (value hidden)"}, {"discord.token (env DISCORD_TOKEN) (value hidden)"}}},
		{name: "telegram pace margin", yaml: "telegram:\n  pace_margin: 100ms\n"},
		{name: "telegram pace margins out of range", yaml: "telegram:\n  pace_margin: 10s\n", want: [][]string{{"telegram.pace_margin 10s", "up to 5s"}}},
		{name: "negative telegram pace margin", yaml: "telegram:\n  pace_margin: -1ms\n", want: [][]string{{"telegram.pace_margin -1ms", "0 (the default, 250ms)"}}},
		{name: "discord deferral", yaml: "discord:\n  defer_after: 1500ms\n"},
		{name: "discord deferral past the deadline", yaml: "discord:\n  defer_after: 3s\n", want: [][]string{{"discord.defer_after", "3s", "within Discord's 3s"}}},
		{name: "discord deferral of zero", yaml: "discord:\n  defer_after: 0s\n", want: [][]string{{"discord.defer_after", "0s"}}},
		{name: "discord ids and base", yaml: "discord:\n  app_id: abc\n  guild_id: 12x\n  api_base: discord.com\n",
			want: [][]string{{"discord.app_id", `"abc"`}, {"discord.guild_id", `"12x"`}, {"discord.api_base", `"discord.com"`}}},
		{name: "empty database path", yaml: "database:\n  path: \" \"\n", want: [][]string{{"database.path (env BOT_DB)", `" "`}}},
		{name: "etcd backend", yaml: "database:\n  backend: etcd\n  etcd:\n    endpoints: [http://10.0.0.1:2379, 10.0.0.2:2379]\n    prefix: bots/\n    username: bot\n    dial_timeout: 2s\n",
			env: map[string]string{"BOT_ETCD_PASSWORD": secret}},
		{name: "etcd endpoints from the env", env: map[string]string{"BOT_DB_BACKEND": "etcd", "BOT_ETCD_ENDPOINTS": "http://a:2379, http://b:2379"}},
		{name: "backend typo", env: map[string]string{"BOT_DB_BACKEND": "etc"}, want: [][]string{{"database.backend (env BOT_DB_BACKEND)", `"etc"`, "bbolt"}}},
		{name: "etcd without endpoints", yaml: "database:\n  backend: etcd\n", want: [][]string{{"database.etcd.endpoints (env BOT_ETCD_ENDPOINTS)"}}},
		{name: "bad etcd values", yaml: "database:\n  etcd:\n    endpoints: [\"ftp://x\"]\n    prefix: \"\"\n    cert_file: c.pem\n    request_timeout: 0s\n",
			env:  map[string]string{"BOT_ETCD_PASSWORD": secret},
			want: [][]string{{"database.etcd.endpoints", `"ftp://x"`}, {"database.etcd.prefix", `""`}, {"database.etcd.username", "together"}, {"database.etcd.cert_file", "key_file"}, {"database.etcd.request_timeout", "0s"}}},
		{name: "discord interactions", yaml: "discord:\n  app_id: \"123\"\n  interactions:\n    listen: :8080\n",
			env: map[string]string{"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)}},
		{name: "bad discord interactions", yaml: "discord:\n  interactions:\n    path: x\n", env: map[string]string{"DISCORD_PUBLIC_KEY": "abc"},
			want: [][]string{{"discord.interactions.public_key (env DISCORD_PUBLIC_KEY)", `"abc"`}, {"discord.interactions.listen"}, {"discord.app_id", "interactions"}, {"discord.interactions.path", `"x"`}}},
		{name: "every bad key at once", yaml: "ai:\n  think_time: -5s\nconsole:\n  locale: fr\ntelegram:\n  mode: pollin\nlog:\n  level: loud\n",
			want: [][]string{{"ai.think_time -5s"}, {`console.locale "fr"`}, {`telegram.mode "pollin"`}, {`log.level (env BOT_LOG_LEVEL) "loud"`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.yaml != "" {
				path = filepath.Join(t.TempDir(), "c.yaml")
				if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := loadConfig(path, env(tc.env))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("a good config refused: %v", err)
				}
				return
			}
			if !errors.Is(err, errBadValue) {
				t.Fatalf("error %v, want one wrapping errBadValue", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for _, parts := range tc.want {
				found := false
				for _, line := range lines {
					ok := strings.HasPrefix(line, "config: ")
					for _, p := range parts {
						ok = ok && strings.Contains(line, p)
					}
					found = found || ok
				}
				if !found {
					t.Errorf("no line has all of %q:\n%v", parts, err)
				}
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("a secret is in the error: %v", err)
			}
		})
	}
}

// TestRunRefusesABadConfigWithNoToken starts the bot with a typo in a
// platform it does not use: it stops at once, before opening the
// database, and says which key is wrong.
func TestRunRefusesABadConfigWithNoToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	db := filepath.Join(dir, "bot.db")
	if err := os.WriteFile(path, []byte("telegram:\n  mode: pollin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"-config", path, "-db", db}, env(nil), strings.NewReader(""), io.Discard, io.Discard)
	if !errors.Is(err, errBadValue) || !strings.Contains(err.Error(), `telegram.mode "pollin"`) {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the database was created: %v", err)
	}
}
