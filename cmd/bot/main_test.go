package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/session/boltstore"
)

// env returns a getenv over a fixed map.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte("database:\n  path: from-file.db\nlog:\n  level: debug\ntelegram:\n  token: file-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(path, env(map[string]string{"TELEGRAM_TOKEN": "env-token", "BOT_DB": "env.db"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Telegram.Token != "env-token" || c.Database.Path != "env.db" || c.Log.Level != "debug" || c.Console.Locale != "en" {
		t.Fatalf("config %+v", c)
	}
	c, err = loadConfig("", env(nil))
	if err != nil || c.Database.Path != "data/bot.db" || c.Telegram.Token != "" {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
}

func TestLoadConfigRefusesTyposAndBadValues(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"unknown key": "databse:\n  path: x\n",
		"bad level":   "log:\n  level: loud\n",
		"not yaml":    "database: [\n",
	} {
		path := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := loadConfig(path, env(nil)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := loadConfig(filepath.Join(dir, "missing.yaml"), env(nil)); err == nil {
		t.Error("missing file: no error")
	}
}

func TestExampleConfigLoads(t *testing.T) {
	c, err := loadConfig("../../config.example.yaml", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Database.Path != defaultConfig().Database.Path {
		t.Errorf("the example's database path %q is not the default", c.Database.Path)
	}
}

func TestSecretNeverPrinted(t *testing.T) {
	s := Secret("123456:ABC-very-secret")
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("cfg", "token", s)
	printed := fmt.Sprint(s) + fmt.Sprintf("%v %s", s, s) + logged.String()
	if strings.Contains(printed, "very-secret") {
		t.Fatalf("secret printed: %s", printed)
	}
}

func TestRunPlaysInTheTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "data", "bot.db")
	var out, errOut strings.Builder
	err := run(context.Background(), []string{"-db", db}, env(map[string]string{"USER": "ann"}), strings.NewReader("/play\n5\n"), &out, &errOut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "❌ ann  vs  ⭕ AI (medium)") {
		t.Fatalf("output:\n%s", out.String())
	}
	info, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Errorf("database mode %v, want 0600", mode)
	}
}

func TestSecondCopyFailsWithClearMessage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	st, err := boltstore.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out, errOut strings.Builder
	err = run(context.Background(), []string{"-db", db}, env(nil), strings.NewReader(""), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "in use by another running bot") {
		t.Fatalf("second copy: %v", err)
	}
}

func TestTokensAreNotPrinted(t *testing.T) {
	const token = "424242:fake-token-never-print"
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, errOut strings.Builder
	err := run(context.Background(), []string{"-db", db}, env(map[string]string{"TELEGRAM_TOKEN": token, "TELEGRAM_API_ENDPOINT": "http://127.0.0.1:1/bot%s/%s", "BOT_LOG_LEVEL": "debug"}), strings.NewReader(""), &out, &errOut)
	all := out.String() + errOut.String() + fmt.Sprint(err)
	if err == nil || !strings.Contains(err.Error(), "telegram") {
		t.Errorf("an unreachable Bot API gave %v", err)
	}
	if strings.Contains(all, "fake-token") {
		t.Fatalf("token printed:\n%s", all)
	}
}
