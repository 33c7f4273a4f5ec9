// Command bot runs the board-game chat bot: on Telegram and Discord when
// their tokens are configured (both from one process and one database
// when both are), and otherwise as a game in the terminal.
//
// Usage:
//
//	bot [-config FILE] [-db FILE]
//
// bot -h prints the flags and the environment variables.
//
// With metrics.listen set (env BOT_METRICS_LISTEN; a bare ":PORT" is
// loopback only) it serves /metrics and /healthz on that address, and
// /backup to requests bearing metrics.backup_token (env BOT_BACKUP_TOKEN).
//
// Configuration comes from the defaults, overridden by the YAML file (see
// config.example.yaml), overridden by environment variables (such as
// TELEGRAM_TOKEN, DISCORD_TOKEN, BOT_DB, BOT_LOG_LEVEL,
// BOT_METRICS_LISTEN, BOT_BACKUP_TOKEN), overridden by the flags.
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
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/console"
	"github.com/boardbot/boardbot/adapters/telegram"
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
// drive it. Once the configuration is read, the configured secrets are
// cut from everything it writes to stderr and from its error.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a bad flag is one line of the error; -h prints usage to stdout
	configPath := fs.String("config", "", "YAML config `file` (see config.example.yaml)")
	dbPath := fs.String("db", "", "bbolt database `file`: database.path (default data/bot.db)")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		usage(fs)
		return nil
	} else if err != nil {
		return fmt.Errorf("%w (bot -h lists the flags)", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: the bot takes flags only; for a config file write -config %s", fs.Arg(0), fs.Arg(0))
	}
	// The flags given override the file and the environment.
	flags := func(c *Config) {
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "db" {
				c.Database.Path = *dbPath
			}
		})
	}
	cfg, err := loadConfig(*configPath, getenv, flags)
	if err != nil {
		return err
	}
	if r := newRedactor(cfg.secrets()); r != nil {
		stderr = redactWriter{w: stderr, r: r}
		defer func() { err = redactError(err, r) }()
	}
	level, _ := logLevel(cfg.Log.Level)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// Secrets log redacted (Secret.LogValue).
	log.Debug("configuration", "backend", cfg.Database.Backend, "db", cfg.Database.Path, "etcd", cfg.Database.Etcd.Endpoints, "telegram_token", cfg.Telegram.Token,
		"discord_token", cfg.Discord.Token, "metrics", cfg.Metrics.Listen, "limits", cfg.Limits, "ai", cfg.AI)

	// The terminal game runs without a platform token, or when asked for.
	terminal := cfg.Console.Enabled || (cfg.Telegram.Token == "" && cfg.Discord.Token == "")
	// Every address is bound (or tried) before anything starts, so that a
	// taken or bad one stops the bot before anyone plays.
	lns, err := bindListeners(cfg, terminal)
	if err != nil {
		return err
	}
	defer lns.close()

	var live atomic.Pointer[session.Service]
	m := newMetrics(func() (int, error) {
		if svc := live.Load(); svc != nil {
			return svc.LiveCount(context.Background())
		}
		return 0, errStarting
	})
	// The ops endpoints answer from the start: /healthz says "not ready"
	// until the store answers.
	ops := &startingHandler{metrics: m.handler()}
	opsDone := make(chan struct{})
	var opsErr error
	if lns.ops != nil {
		opsCtx, stopOps := context.WithCancel(context.WithoutCancel(ctx))
		backup := cfg.Metrics.BackupToken != "" && cfg.Database.Backend == "bbolt"
		go func() {
			defer close(opsDone)
			opsErr = serveOps(opsCtx, lns.ops, ops, backup, log, startHooks.opsListening)
		}()
		defer func() {
			stopOps()
			<-opsDone
		}()
	}
	store, err := waitForStore(ctx, &cfg, log, opsDone)
	if errors.Is(err, errOpsStopped) {
		return opsErr
	}
	if err != nil {
		return err
	}
	if store == nil {
		return nil // stopped before the store answered
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	// onExpire tells each platform's adapter about games the sweeper
	// ended. It is filled in below, before the sweeper starts.
	onExpire := map[session.Platform]func(session.View){}
	svc := session.New(store, &session.Config{
		ThinkTime: cfg.AI.ThinkTime, AIWorkers: cfg.AI.Workers, AIQueue: cfg.AI.Queue,
		Limits: session.Limits{
			GamesPerUser: cfg.Limits.GamesPerUser, GamesPerChat: cfg.Limits.GamesPerChat,
			ChallengeCooldown: cfg.Limits.ChallengeCooldown, UndosPerGame: cfg.Limits.UndosPerGame,
			HintsPerGame: cfg.Limits.HintsPerGame,
		},
		Observer:    m,
		HistoryKeep: cfg.History.Keep,
		OnExpire: func(v session.View) {
			if f := onExpire[v.Platform()]; f != nil {
				f(v)
			}
		},
		OnUnreadable: m.onUnreadable(log),
	})

	live.Store(svc)
	ops.ready(opsHandler(m, store.Store, store.bolt, backupConfig{Token: cfg.Metrics.BackupToken}, log))

	var servers []server
	if lns.ops != nil {
		servers = append(servers, func(ctx context.Context) error {
			select {
			case <-opsDone:
				return opsErr
			case <-ctx.Done():
				return nil
			}
		})
	}
	// With etcd, each platform's claims are renewed, and what a replica
	// left taken over, on ticks of its own.
	var tickers []*time.Ticker
	defer func() {
		for _, t := range tickers {
			t.Stop()
		}
	}()
	reclaimTicks := func() <-chan time.Time {
		if !store.Shared() {
			return nil
		}
		t := time.NewTicker(reclaimEvery)
		tickers = append(tickers, t)
		return t.C
	}
	// The web board's moves are decided by the dispatcher of the game's
	// platform and shown in its chat by that platform's front. The board
	// itself is made below, once every platform is; a link asked for
	// before that (none is: nothing is served yet) would be "".
	dispatchers := map[session.Platform]*adapters.Dispatcher{}
	fronts := adapters.Fronts{}
	var wb *webBoard
	webLink := func(p session.Platform, game session.GameID, user string) string {
		if wb == nil {
			return ""
		}
		return wb.link(p, game, user)
	}
	if cfg.Discord.Token != "" {
		s, err := discordServer(cfg, svc, log, onExpire, m, reclaimTicks(), lns.interactions, webLink, dispatchers, fronts)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}
	if cfg.Telegram.Token != "" {
		reclaim := reclaimTicks()
		if cfg.Telegram.Mode != "webhook" {
			// One poller per token: with etcd, a lock among replicas.
			release, lost, err := store.holdPoller(ctx, string(cfg.Telegram.Token))
			if err != nil {
				return err
			}
			defer release()
			if lost != nil {
				servers = append(servers, func(ctx context.Context) error {
					select {
					case <-lost:
						return errors.New("lost the Telegram poller lock: etcd was unreachable for too long")
					case <-ctx.Done():
						return nil
					}
				})
			}
		}
		var botName string
		tg, err := newTelegram(ctx, svc, cfg, log, m, onExpire, reclaim, lns.webhook, func(v session.View) telegram.WebButton {
			return telegramWebButton(cfg, botName, v, wb)
		})
		if err != nil {
			return err
		}
		botName = tg.UserName()
		dispatchers[telegram.Platform] = adapters.NewDispatcher(svc, telegram.Platform, botName, log)
		fronts[telegram.Platform] = tg.Front()
		servers = append(servers, tg.Run)
	}
	var con *console.Console
	if terminal {
		d := adapters.NewDispatcher(svc, console.Platform, "", log)
		user := session.User{ID: "local", Name: getenv("USER")}
		con = console.New(d, stdin, stdout, user, cfg.Console.Locale)
		con.SetReplayDir(filepath.Dir(cfg.Database.Path))
		onExpire[console.Platform] = con.Expired
		dispatchers[console.Platform], fronts[console.Platform] = d, con.Remote()
		servers = append(servers, func(ctx context.Context) error {
			log.Debug("starting the console game", "db", cfg.Database.Path)
			return con.Run(ctx)
		})
	}
	if ln := lns.web; ln != nil {
		wb, err = newWebBoard(ctx, cfg, ln, svc, dispatchers, fronts, log)
		if err != nil {
			return err
		}
		if con != nil {
			con.SetWebLinks(func(g session.GameID, u session.User) string { return wb.link(console.Platform, g, u.ID) })
		}
		log.Info("serving the web board", "addr", ln.Addr().String())
		servers = append(servers, wb.serve)
	}
	defer startSweeper(ctx, store, svc, log)()
	return serve(ctx, servers, cfg.ShutdownTimeout)
}

// usage prints the help of bot -h: what it does, the flags, and which of
// the defaults, the file, the environment and the flags wins.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `Usage: bot [-config FILE] [-db FILE]

Runs the board-game bot: on Telegram and Discord when their tokens are
set, and otherwise as a game in the terminal.

Each setting is read from these, a later one overriding an earlier:
  defaults < YAML file (-config; config.example.yaml lists every key)
  < environment variables (listed below) < flags

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nEnvironment variables, and the keys they override:")
	for _, v := range envVars() {
		fmt.Fprintf(w, "  %-24s %s\n", v[0], v[1])
	}
}

// server is a platform serving until its context is done.
type server func(ctx context.Context) error

// serve runs the servers together until ctx is done or the first of them
// returns, then stops the others and returns the first error. Once
// stopping, it waits at most timeout (when positive) for the others to
// finish the work in hand, and then returns ErrShutdownTimeout.
func serve(ctx context.Context, servers []server, timeout time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errs <- s(ctx) }()
	}
	var first error
	var deadline <-chan time.Time
	for left := len(servers); left > 0; left-- {
		var err error
		select {
		case <-ctx.Done():
			if deadline == nil && timeout > 0 {
				t := time.NewTimer(timeout)
				defer t.Stop()
				deadline = t.C
			}
			select {
			case err = <-errs:
			case <-deadline:
				return errShutdownTimeout
			}
		case err = <-errs:
		}
		cancel()
		if first == nil {
			first = err
		}
	}
	return first
}

// errShutdownTimeout is returned by serve when a server did not stop in
// time.
var errShutdownTimeout = errors.New("shutdown timed out with work in hand")

// reclaimEvery is how often, with etcd, each replica renews its claims on
// the Telegram updates and the deferred Discord interactions it keeps,
// and takes over those another replica left: on the next tick when that replica stopped, once their claims
// expired (session.ClaimTTL) when it died.
const reclaimEvery = 20 * time.Second

// sweepEvery is how often expired games and challenges are ended.
const sweepEvery = 30 * time.Second

// startSweeper ends expired games in the background until the returned
// stop function is called; stop waits for the sweeper to finish. With
// etcd, only the replica elected for it sweeps.
func startSweeper(ctx context.Context, store *openedStore, svc *session.Service, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	ticker := time.NewTicker(sweepEvery)
	done := make(chan struct{})
	go func() {
		defer close(done)
		store.background(ctx, "sweeper", func(ctx context.Context) {
			svc.RunSweeper(ctx, ticker.C, func(err error) { log.Error("sweeping expired games", "err", err) })
		})
	}()
	return func() {
		cancel()
		ticker.Stop()
		<-done
	}
}
