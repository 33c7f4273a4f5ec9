// Command bot runs the board-game chat bot: on Telegram and Discord when
// their tokens are configured, and otherwise as a game in the terminal.
//
// Usage:
//
//	bot [-config FILE] [-db FILE]
//
// Configuration comes from the YAML file (see config.example.yaml) with
// environment variables overriding it: TELEGRAM_TOKEN,
// TELEGRAM_API_ENDPOINT, TELEGRAM_WEBHOOK_SECRET, DISCORD_TOKEN, BOT_DB,
// BOT_LOG_LEVEL.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/console"
	"github.com/boardbot/boardbot/session"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
}

// run is the whole program, with its surroundings passed in so tests can
// drive it.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "YAML config `file` (see config.example.yaml)")
	dbPath := fs.String("db", "", "bbolt database `file` (default from config: data/bot.db)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath, getenv)
	if err != nil {
		return err
	}
	if *dbPath != "" {
		cfg.Database.Path = *dbPath
	}
	level, _ := logLevel(cfg.Log.Level)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	store, err := session.OpenBolt(cfg.Database.Path, nil)
	if errors.Is(err, session.ErrLocked) {
		return fmt.Errorf("%s is in use by another running bot; stop it or use -db for another file", cfg.Database.Path)
	}
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	svc := session.New(store, nil)

	// Platforms run side by side until ctx ends (or the terminal game,
	// when it runs, is left).
	var platforms []func(context.Context) error
	if cfg.Telegram.Token != "" {
		tg, err := newTelegram(svc, cfg.Telegram, log)
		if err != nil {
			return err
		}
		platforms = append(platforms, tg.Run)
	}
	if cfg.Discord.Token != "" && len(platforms) == 0 && !cfg.Console.Enabled {
		return errors.New("Discord is not built into this release yet; unset DISCORD_TOKEN to play in the terminal")
	}
	if len(platforms) > 0 && !cfg.Console.Enabled {
		return runAll(ctx, platforms)
	}
	log.Debug("starting the console game", "db", cfg.Database.Path)
	d := adapters.NewDispatcher(svc, console.Platform, "", log)
	user := session.User{ID: "local", Name: getenvDefault(getenv, "USER", "you")}
	term := console.New(d, stdin, stdout, user, cfg.Console.Locale)
	return runAll(ctx, append(platforms, term.Run))
}

// runAll runs every function until the first returns, then ends the
// others and waits for them. It returns the first error.
func runAll(ctx context.Context, fns []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(fns))
	for _, fn := range fns {
		go func() { errs <- fn(ctx) }()
	}
	first := <-errs
	cancel()
	for range len(fns) - 1 {
		if err := <-errs; first == nil {
			first = err
		}
	}
	return first
}

// getenvDefault returns the variable's value, or def when it is empty.
func getenvDefault(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}
