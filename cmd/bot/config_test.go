package main

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeConfig writes body to a config file of its own and returns its
// path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// durationKeys returns the dotted YAML key of every time.Duration in t,
// a struct of the config.
func durationKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case f.Type == reflect.TypeFor[time.Duration]():
			keys = append(keys, prefix+name)
		case f.Type.Kind() == reflect.Struct:
			keys = append(keys, durationKeys(f.Type, prefix+name+".")...)
		}
	}
	return keys
}

// nested returns the YAML setting the dotted key to value.
func nested(key, value string) string {
	parts := strings.Split(key, ".")
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(strings.Repeat("  ", i) + p + ":")
		if i < len(parts)-1 {
			b.WriteString("\n")
		}
	}
	return b.String() + " " + value + "\n"
}

// TestEveryDurationKeyTakesZero writes 0, with no unit, for each duration
// key of the config: the file is read, and 0 is either used or refused by
// validation (for a key that wants more than 0), never as YAML it cannot
// read.
func TestEveryDurationKeyTakesZero(t *testing.T) {
	keys := durationKeys(reflect.TypeFor[Config](), "")
	if len(keys) < 9 {
		t.Fatalf("found only the duration keys %v", keys)
	}
	for _, key := range keys {
		_, err := loadConfig(writeConfig(t, nested(key, "0")), env(nil))
		if err == nil {
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "config: "+key) || !strings.Contains(msg, " 0s: ") || strings.Contains(msg, "\n") {
			t.Errorf("%s: 0: %v", key, err)
		}
	}
}

// TestYAMLDurations reads durations from the file: 0 and the units Go
// knows, and "forever" where the environment takes it; a bare number or
// words are refused in one line that names the file, the key and the
// line.
func TestYAMLDurations(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		get  func(Config) time.Duration
		want time.Duration
	}{
		{"ai: {think_time: 0}", func(c Config) time.Duration { return c.AI.ThinkTime }, 0},
		{"ai:\n  think_time: 250ms", func(c Config) time.Duration { return c.AI.ThinkTime }, 250 * time.Millisecond},
		{"history: {keep: 0}", func(c Config) time.Duration { return c.History.Keep }, 0},
		{"history: {keep: forever}", func(c Config) time.Duration { return c.History.Keep }, 0},
		{"history: {keep: 8760h}", func(c Config) time.Duration { return c.History.Keep }, 8760 * time.Hour},
		{"limits: {challenge_cooldown: 0}", func(c Config) time.Duration { return c.Limits.ChallengeCooldown }, 0},
		{"shutdown_timeout: 0", func(c Config) time.Duration { return c.ShutdownTimeout }, 0},
		{"telegram: {pace_margin: 0}", func(c Config) time.Duration { return c.Telegram.PaceMargin }, 0},
		{"web: {link_ttl: 48h}", func(c Config) time.Duration { return c.Web.LinkTTL }, 48 * time.Hour},
		{"shutdown_timeout:", func(c Config) time.Duration { return c.ShutdownTimeout }, defaultConfig().ShutdownTimeout},
	} {
		c, err := loadConfig(writeConfig(t, tc.yaml), env(nil))
		if err != nil {
			t.Errorf("%q: %v", tc.yaml, err)
			continue
		}
		if got := tc.get(c); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.yaml, got, tc.want)
		}
	}

	for _, tc := range []struct {
		yaml string
		want []string
	}{
		{"ai:\n  think_time: 30\n", []string{`c.yaml: ai.think_time: 30 has no unit: write a duration like 30s (line 2)`}},
		{"ai:\n  think_time: abc\n", []string{`c.yaml: ai.think_time: "abc" is not a duration like 30s (line 2)`}},
		{"ai:\n  think_time: forever\n", []string{`ai.think_time: "forever" is not a duration`}},
		{"history:\n  keep: 48\n", []string{"history.keep: 48 has no unit", "or forever (line 2)"}},
		{"shutdown_timeout: [1s]\n", []string{"c.yaml: shutdown_timeout: a list is not a duration like 30s (line 1)"}},
		{"log: {level: info}\nai:\n  workers: 2\nfoo: 1\n", []string{`c.yaml: unknown key "foo" (line 4)`}},
		{"ai:\n  thinktime: 1s\n", []string{`c.yaml: unknown key "ai.thinktime" (line 2)`}},
		{"ai:\n  workers: many\n", []string{`c.yaml: ai.workers: "many" is not a whole number (line 2)`}},
		{"console:\n  enabled: sure\n", []string{`c.yaml: console.enabled: "sure" is not true or false (line 2)`}},
		{"ai: 5\n", []string{`c.yaml: ai: "5" is not a mapping of keys (line 1)`}},
		{"ai:\n  workers: 1\n  workers: 2\n", []string{`c.yaml: key "ai.workers" appears twice (lines 2 and 3)`}},
		{"database: [\n", []string{"c.yaml: ", "line"}},
	} {
		_, err := loadConfig(writeConfig(t, tc.yaml), env(nil))
		if err == nil {
			t.Errorf("%q: no error", tc.yaml)
			continue
		}
		msg := err.Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: error %q, want %q in it", tc.yaml, msg, w)
			}
		}
		if strings.Contains(msg, "\n") || strings.Contains(msg, "main.Config") || strings.Contains(msg, "!!") {
			t.Errorf("%q: error not one plain line: %q", tc.yaml, msg)
		}
	}
}

// TestDurationsAgreeInFileAndEnvironment reads history.keep from the file
// and from BOT_HISTORY_KEEP: both take and refuse the same values.
func TestDurationsAgreeInFileAndEnvironment(t *testing.T) {
	for _, v := range []string{"0", "0s", "forever", "48h", "8760h", "30", "1.5", "a year", "-48h"} {
		fromFile, fileErr := loadConfig(writeConfig(t, "history:\n  keep: "+v+"\n"), env(nil))
		fromEnv, envErr := loadConfig("", env(map[string]string{"BOT_HISTORY_KEEP": v}))
		if (fileErr == nil) != (envErr == nil) || fromFile.History.Keep != fromEnv.History.Keep {
			t.Errorf("%q: file %v, %v; env %v, %v", v, fromFile.History.Keep, fileErr, fromEnv.History.Keep, envErr)
		}
		if fileErr != nil && !errors.Is(fileErr, errBadValue) || envErr != nil && !errors.Is(envErr, errBadValue) {
			t.Errorf("%q: errors %v and %v, want errBadValue", v, fileErr, envErr)
		}
	}
}

// TestValidateListenPorts checks every listen address key: a port must be
// a number up to 65535 after a host (or nothing) and a colon.
func TestValidateListenPorts(t *testing.T) {
	const key = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		key  string
		yaml func(addr string) string
	}{
		{"metrics.listen", func(a string) string { return "metrics:\n  listen: " + a }},
		{"web.listen", func(a string) string { return "web:\n  listen: " + a }},
		{"telegram.webhook.listen", func(a string) string { return "telegram:\n  webhook:\n    listen: " + a }},
		{"discord.interactions.listen", func(a string) string {
			return "discord:\n  app_id: \"1\"\n  interactions:\n    public_key: " + key + "\n    listen: " + a
		}},
	} {
		for _, good := range []string{`":0"`, `"127.0.0.1:9090"`, `":65535"`, `"[::1]:8080"`, `"localhost:1"`} {
			if _, err := loadConfig(writeConfig(t, tc.yaml(good)), env(nil)); err != nil {
				t.Errorf("%s %s: %v", tc.key, good, err)
			}
		}
		for _, bad := range []string{`":99999"`, `":65536"`, `":-1"`, `"localhost:http"`, `"http://x:80"`, `"127.0.0.1"`} {
			_, err := loadConfig(writeConfig(t, tc.yaml(bad)), env(nil))
			if !errors.Is(err, errBadValue) || !strings.Contains(err.Error(), "config: "+tc.key) || !strings.Contains(err.Error(), "65535") {
				t.Errorf("%s %s: %v", tc.key, bad, err)
			}
		}
	}
	_, err := loadConfig("", env(map[string]string{"BOT_METRICS_LISTEN": ":99999"}))
	if !errors.Is(err, errBadValue) || !strings.Contains(err.Error(), `metrics.listen (env BOT_METRICS_LISTEN) ":99999"`) {
		t.Errorf("BOT_METRICS_LISTEN=:99999: %v", err)
	}
}

// TestRunBindsEveryListenerBeforeStarting starts the bot, with the
// terminal game, on an address already taken for each listener it opens:
// it stops with one line naming the key, before opening the database or
// greeting the terminal.
func TestRunBindsEveryListenerBeforeStarting(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	const publicKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		key  string
		yaml string
		env  map[string]string
	}{
		{"metrics.listen (env BOT_METRICS_LISTEN)", "", map[string]string{"BOT_METRICS_LISTEN": addr}},
		{"web.listen (env BOT_WEB_LISTEN)", "", map[string]string{"BOT_WEB_LISTEN": addr}},
		{"telegram.webhook.listen", "telegram:\n  mode: webhook\n  webhook:\n    url: https://bot.example/hook\n    secret: s3cret\n    listen: " + addr + "\n",
			map[string]string{"TELEGRAM_TOKEN": "1:x", "TELEGRAM_API_ENDPOINT": "http://127.0.0.1:1/bot%s/%s"}},
		{"discord.interactions.listen", "discord:\n  app_id: \"1\"\n  api_base: http://127.0.0.1:1/\n  interactions:\n    listen: " + addr + "\n",
			map[string]string{"DISCORD_TOKEN": "x", "DISCORD_PUBLIC_KEY": publicKey}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "bot.db")
			cfg := writeConfig(t, "console:\n  enabled: true\n"+tc.yaml)
			var out, errOut watchedBuffer
			err := run(context.Background(), []string{"-config", cfg, "-db", db}, env(tc.env), strings.NewReader("/play\n"), &out, &errOut)
			if err == nil || !strings.HasPrefix(err.Error(), tc.key+": ") || strings.Count(err.Error(), addr) != 1 || strings.Contains(err.Error(), "\n") {
				t.Errorf("run: %v, want one line naming %s and %s once", err, tc.key, addr)
			}
			if out.String() != "" {
				t.Errorf("the terminal game started:\n%s", out.String())
			}
			if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the database was opened: %v", err)
			}
		})
	}
}

// TestFlagsOverrideEnvAndFile runs the bot with database.path set in
// the file, the environment and the flags: the flag wins, then the
// environment, then the file, before anything is checked.
func TestFlagsOverrideEnvAndFile(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name, yaml string
		env        map[string]string
		args       []string
		want       string
	}{
		{"flag over an empty path in the file", "database: {path: \"\"}\n", nil, []string{"-db", path("flag1.db")}, "flag1.db"},
		{"flag over the file and the environment", "database: {path: " + path("file.db") + "}\n", map[string]string{"BOT_DB": path("env.db")}, []string{"-db", path("flag2.db")}, "flag2.db"},
		{"environment over the file", "database: {path: " + path("file.db") + "}\n", map[string]string{"BOT_DB": path("env.db")}, nil, "env.db"},
		{"file over the default", "database: {path: " + path("file.db") + "}\n", nil, nil, "file.db"},
	} {
		args := append([]string{"-config", writeConfig(t, tc.yaml)}, tc.args...)
		var out, errOut watchedBuffer
		if err := run(context.Background(), args, env(tc.env), strings.NewReader(""), &out, &errOut); err != nil {
			t.Fatalf("%s: run: %v\n%s", tc.name, err, errOut.String())
		}
		entries, _ := os.ReadDir(dir)
		var made []string
		for _, e := range entries {
			made = append(made, e.Name())
			os.Remove(path(e.Name()))
		}
		if len(made) != 1 || made[0] != tc.want {
			t.Errorf("%s: made %v, want %s", tc.name, made, tc.want)
		}
	}
}

// TestCommandLine checks -h (usage on stdout, with the order of
// precedence, and success), a stray argument and a bad flag (one line),
// and a database path the system refuses (named once).
func TestCommandLine(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var out, errOut watchedBuffer
		if err := run(context.Background(), []string{arg}, env(nil), strings.NewReader(""), &out, &errOut); err != nil {
			t.Errorf("%s: %v", arg, err)
		}
		for _, want := range []string{"Usage: bot", "-config", "-db", "defaults < YAML file", "< environment variables", "< flags", "BOT_DB", "database.path"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: no %q in the usage:\n%s", arg, want, out.String())
			}
		}
		if errOut.String() != "" {
			t.Errorf("%s wrote to stderr: %s", arg, errOut.String())
		}
	}

	db := filepath.Join(t.TempDir(), "bot.db") // never opened
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"config.yaml"}, "-config config.yaml"},
		{[]string{"-db", db, "my.yaml", "more"}, "-config my.yaml"},
		{[]string{"-nope"}, "-nope"},
	} {
		var out, errOut watchedBuffer
		err := run(context.Background(), tc.args, env(map[string]string{"BOT_DB": db}), strings.NewReader(""), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", tc.args, err, tc.want)
		}
		if out.String()+errOut.String() != "" {
			t.Errorf("%q: wrote %q", tc.args, out.String()+errOut.String())
		}
		if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%q: the database was opened: %v", tc.args, err)
		}
	}

	dir := t.TempDir() // a directory cannot be the database file
	var out, errOut watchedBuffer
	err := run(context.Background(), nil, env(map[string]string{"BOT_DB": dir}), strings.NewReader(""), &out, &errOut)
	if err == nil || strings.Count(err.Error(), dir) != 1 || !strings.Contains(err.Error(), "database.path (env BOT_DB)") {
		t.Errorf("BOT_DB=%s: %v, want the path said once", dir, err)
	}
}
