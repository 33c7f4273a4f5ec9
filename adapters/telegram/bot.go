package telegram

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/session"
)

// Bot serves the board bot on Telegram. Create it with New and start it
// with Run.
type Bot struct {
	cfg  Config
	api  *tgbotapi.BotAPI
	http *http.Client
	svc  *session.Service
	disp *adapters.Dispatcher
	log  *slog.Logger
	// limit paces the calls that make or change messages; outbox holds
	// the edits waiting for it.
	limit  *limiter
	outbox *outbox
	// work bounds every Bot API call but the long poll: Run ends it once
	// the queued updates are handled, or when draining them takes too
	// long.
	work     context.Context
	stopWork context.CancelFunc
}

// secretPattern is what Telegram accepts as a webhook secret token.
var secretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// New checks cfg, asks Telegram who the bot is (getMe) and returns a Bot
// playing the games of svc. It fails with an error wrapping ErrConfig for
// an unusable configuration, and with a typed API error (see APIError)
// when getMe fails, such as for a wrong token.
func New(svc *session.Service, cfg Config) (*Bot, error) {
	cfg = cfg.withDefaults()
	switch {
	case cfg.Token == "":
		return nil, fmt.Errorf("%w: no token", ErrConfig)
	case cfg.Mode != ModePolling && cfg.Mode != ModeWebhook:
		return nil, fmt.Errorf("%w: mode %q: want %s or %s", ErrConfig, cfg.Mode, ModePolling, ModeWebhook)
	case cfg.Mode == ModeWebhook:
		u, err := url.Parse(cfg.Webhook.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("%w: webhook URL %q: want https://host/path", ErrConfig, cfg.Webhook.URL)
		}
		if cfg.Webhook.Listen == "" && cfg.Webhook.Listener == nil {
			return nil, fmt.Errorf("%w: webhook mode needs a listen address", ErrConfig)
		}
		if !secretPattern.MatchString(cfg.Webhook.Secret) {
			return nil, fmt.Errorf("%w: webhook secret: want 1-256 characters of A-Z, a-z, 0-9, _ and -", ErrConfig)
		}
	}
	b := &Bot{cfg: cfg, svc: svc, log: cfg.Log.With("platform", Platform)}
	b.http = &http.Client{Transport: cfg.Transport, Timeout: cfg.RequestTimeout}
	var err error
	b.api, err = tgbotapi.NewBotAPIWithClient(cfg.Token, cfg.APIEndpoint, b.http)
	if err != nil {
		return nil, classify("getMe", cfg.Token, err)
	}
	b.disp = adapters.NewDispatcher(svc, Platform, b.api.Self.UserName, cfg.Log)
	// The client library makes requests without a context: bind them to
	// work, so that a shutdown past its timeout aborts them. It is set
	// here, before any other goroutine can use the Bot.
	b.work, b.stopWork = context.WithCancel(context.Background())
	b.api.Client = ctxClient{ctx: b.work, client: b.http}
	b.limit = newLimiter(cfg.Pace)
	b.outbox = newOutbox(b, b.work)
	return b, nil
}

// UserName returns the bot's username as getMe reported it.
func (b *Bot) UserName() string { return b.api.Self.UserName }

// Run registers the bot's commands and serves updates until ctx ends,
// then stops receiving, lets the queued updates finish (up to
// Config.ShutdownTimeout) and returns nil. It returns an error when it
// cannot start (commands, webhook, listener) or when Telegram stops
// accepting the token. Run may be called once.
func (b *Bot) Run(ctx context.Context) error {
	if err := b.registerCommands(ctx); err != nil {
		return err
	}
	// Handling goes on after ctx ends, until the queue is drained.
	work, cancelWork := b.work, b.stopWork
	defer cancelWork()
	sched := newScheduler(b.cfg.Workers, b.cfg.Queue)
	var edited sync.WaitGroup // updates waiting for their edits
	drain := func() {
		stop := time.AfterFunc(b.cfg.ShutdownTimeout, cancelWork)
		sched.close()
		b.outbox.flush(work, 0)
		edited.Wait()
		stop.Stop()
	}
	// An update is kept in the session's inbox from before Telegram is
	// told it arrived until it was handled and the edits it queued were
	// made, so a crash loses none: the next Run replays the inbox first.
	handled := func(u tgbotapi.Update) {
		if err := b.svc.Handled(work, Platform, int64(u.UpdateID)); err != nil {
			b.log.Error("clearing a handled update from the inbox failed; it may be handled again", "update", u.UpdateID, "err", err)
		}
	}
	submit := func(ctx context.Context, u tgbotapi.Update) error {
		return sched.submit(ctx, updateChat(u), func() {
			var edits pendingEdits
			b.handle(withPendingEdits(work, &edits), u)
			if edits.empty() {
				handled(u)
				return
			}
			// The chat's next update need not wait for the edits.
			edited.Add(1)
			go func() {
				defer edited.Done()
				if edits.wait(b) {
					handled(u)
				}
			}()
		})
	}
	replayed, err := b.replay(ctx, submit)
	if err != nil {
		drain()
		return err
	}
	if b.cfg.Mode == ModeWebhook {
		err := b.serveWebhook(ctx, func(ctx context.Context, u tgbotapi.Update) error {
			if err := b.receive(ctx, []tgbotapi.Update{u}); err != nil {
				return err
			}
			return submit(ctx, u)
		})
		drain()
		return err
	}
	if err := b.request(ctx, "deleteWebhook", tgbotapi.DeleteWebhookConfig{}); err != nil {
		drain()
		return fmt.Errorf("telegram: leave webhook mode: %w", err)
	}
	offset, err := b.poll(ctx, replayed, submit)
	drain()
	b.confirm(offset)
	return err
}

// updateChat returns the chat an update belongs to, for ordering.
func updateChat(u tgbotapi.Update) int64 {
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		return u.Message.Chat.ID
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil:
		return u.CallbackQuery.Message.Chat.ID
	}
	return 0
}

// replay submits the updates a crash left in the inbox and returns their
// ids, so that poll skips them when Telegram delivers them again.
func (b *Bot) replay(ctx context.Context, submit func(context.Context, tgbotapi.Update) error) (map[int]bool, error) {
	pending, err := b.svc.Pending(ctx, Platform)
	if err != nil {
		return nil, fmt.Errorf("telegram: read the inbox: %w", err)
	}
	replayed := make(map[int]bool, len(pending))
	for _, it := range pending {
		var u tgbotapi.Update
		if err := json.Unmarshal(it.Data, &u); err != nil {
			b.log.Error("dropping an unreadable update from the inbox", "update", it.ID, "err", err)
			if err := b.svc.Handled(ctx, Platform, it.ID); err != nil {
				return nil, fmt.Errorf("telegram: clear the inbox: %w", err)
			}
			continue
		}
		if err := submit(ctx, u); err != nil {
			return replayed, nil
		}
		replayed[u.UpdateID] = true
	}
	if len(pending) > 0 {
		b.log.Info("replayed updates a stop left unhandled", "count", len(pending))
	}
	return replayed, nil
}

// receive keeps updates in the session's inbox before they are queued.
func (b *Bot) receive(ctx context.Context, updates []tgbotapi.Update) error {
	items := make([]session.InboxItem, 0, len(updates))
	for _, u := range updates {
		data, err := json.Marshal(u)
		if err != nil {
			return fmt.Errorf("telegram: keep update %d: %w", u.UpdateID, err)
		}
		items = append(items, session.InboxItem{ID: int64(u.UpdateID), Data: data})
	}
	return b.svc.Receive(ctx, Platform, items)
}

// poll fetches updates until ctx ends and returns the offset of the first
// update not queued. Each batch is kept in the inbox before its updates
// are queued, and an update's offset is passed back to Telegram (which
// confirms it) only after that, so no confirmed update can be lost; the
// ids in replayed were queued from the inbox already and are skipped. It
// stops early with an error when Telegram refuses the token (401) or
// knows no such bot (404).
func (b *Bot) poll(ctx context.Context, replayed map[int]bool, submit func(context.Context, tgbotapi.Update) error) (int, error) {
	// The long poll gets its own client: no overall timeout shorter than
	// the poll, and every request bound to ctx.
	poller := *b.api
	poller.Client = ctxClient{ctx: ctx, client: &http.Client{Transport: b.cfg.Transport, Timeout: b.cfg.PollTimeout + b.cfg.RequestTimeout}}
	cfg := tgbotapi.UpdateConfig{Timeout: int(b.cfg.PollTimeout / time.Second), AllowedUpdates: []string{"message", "callback_query"}}
	offset, failures := 0, 0
	for ctx.Err() == nil {
		cfg.Offset = offset
		updates, err := poller.GetUpdates(cfg)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			err = classify("getUpdates", b.cfg.Token, err)
			wait := b.cfg.Backoff(failures)
			var ae *APIError
			b.reportAPIError(err)
			if errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized || ae.Code == http.StatusNotFound) {
				return offset, fmt.Errorf("telegram: polling stopped: %w", err)
			}
			if errors.As(err, &ae) && errors.Is(err, ErrFlood) {
				wait = ae.RetryAfter
			}
			failures++
			b.log.Warn("getUpdates failed", "err", err, "wait", wait)
			if b.cfg.Sleep(ctx, wait) != nil {
				break
			}
			continue
		}
		fresh := make([]tgbotapi.Update, 0, len(updates))
		for _, u := range updates {
			if u.UpdateID >= offset && !replayed[u.UpdateID] {
				fresh = append(fresh, u)
			}
		}
		if err := b.receive(ctx, fresh); err != nil {
			wait := b.cfg.Backoff(failures)
			failures++
			b.log.Error("keeping updates in the inbox failed", "err", err, "wait", wait)
			if b.cfg.Sleep(ctx, wait) != nil {
				break
			}
			continue
		}
		failures = 0
		for _, u := range updates {
			if u.UpdateID < offset {
				continue
			}
			if replayed[u.UpdateID] {
				offset = u.UpdateID + 1
				continue
			}
			if err := submit(ctx, u); err != nil {
				return offset, nil
			}
			offset = u.UpdateID + 1
		}
	}
	return offset, nil
}

// confirm tells Telegram that every update below offset was handled, so
// that a restart does not get them again. getUpdates confirms what is
// below its offset; what it returns is not confirmed and is left for the
// next start.
func (b *Bot) confirm(offset int) {
	if offset == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.RequestTimeout)
	defer cancel()
	api := *b.api
	api.Client = ctxClient{ctx: ctx, client: b.http}
	if _, err := api.GetUpdates(tgbotapi.UpdateConfig{Offset: offset, Limit: 1}); err != nil {
		b.log.Warn("confirming the last updates failed; they may be handled again", "err", classify("getUpdates", b.cfg.Token, err))
	}
}

// maxUpdateBytes bounds the body of a webhook request.
const maxUpdateBytes = 1 << 20

// webhookHandler returns the HTTP handler of webhook mode: it accepts a
// POSTed update only with the configured secret token (otherwise 401 and
// nothing is done), queues it with submit and answers 200 once it is
// queued.
func (b *Bot) webhookHandler(ctx context.Context, submit func(context.Context, tgbotapi.Update) error) http.Handler {
	secret := []byte(b.cfg.Webhook.Secret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("X-Telegram-Bot-Api-Secret-Token"))
		if subtle.ConstantTimeCompare(got, secret) != 1 {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var u tgbotapi.Update
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxUpdateBytes)).Decode(&u); err != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		rctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
		if err := submit(rctx, u); err != nil {
			// Telegram delivers the update again later.
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// serveWebhook sets the webhook and serves it until ctx ends.
func (b *Bot) serveWebhook(ctx context.Context, submit func(context.Context, tgbotapi.Update) error) error {
	u, _ := url.Parse(b.cfg.Webhook.URL)
	ln := b.cfg.Webhook.Listener
	if ln == nil {
		var err error
		ln, err = net.Listen("tcp", b.cfg.Webhook.Listen)
		if err != nil {
			return fmt.Errorf("telegram: webhook: %w", err)
		}
	}
	mux := http.NewServeMux()
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux.Handle(path, b.webhookHandler(ctx, submit))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	err := b.makeRequest(ctx, "setWebhook", tgbotapi.Params{
		"url":             b.cfg.Webhook.URL,
		"secret_token":    b.cfg.Webhook.Secret,
		"allowed_updates": `["message","callback_query"]`,
	})
	if err != nil {
		srv.Close()
		<-served
		return fmt.Errorf("telegram: set webhook: %w", err)
	}
	b.log.Info("serving the webhook", "addr", ln.Addr().String(), "path", path)
	select {
	case <-ctx.Done():
	case err = <-served:
		return fmt.Errorf("telegram: webhook server: %w", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), b.cfg.ShutdownTimeout)
	defer cancel()
	srv.Shutdown(sctx)
	<-served
	return nil
}
