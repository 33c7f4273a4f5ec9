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
	"strconv"
	"sync"
	"sync/atomic"
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
	// shared is set when the store is shared with other processes: the
	// calls limit lets go take a slot of the budget they share too (see
	// reserve).
	shared bool
	// lag is about how long a shared flood-control reserve takes to come
	// back, in nanoseconds: the lead its slots are placed with.
	lag atomic.Int64
	// work bounds every Bot API call but the long poll: Run ends it once
	// the queued updates are handled, or when draining them takes too
	// long.
	work     context.Context
	stopWork context.CancelFunc
	// claims holds the updates taken in and not yet handled, so that one
	// delivered twice is queued once.
	claims claims
}

// secretPattern is what Telegram accepts as a webhook secret token.
var secretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// New checks cfg, asks Telegram who the bot is (getMe) and returns a Bot
// playing the games of svc. It fails with an error wrapping ErrConfig for
// an unusable configuration, and with a typed API error (see APIError)
// when getMe fails, such as for a wrong token; ending ctx aborts getMe at
// once (the error then satisfies errors.Is(err, context.Canceled)).
func New(ctx context.Context, svc *session.Service, cfg Config) (*Bot, error) {
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
	b.api, err = tgbotapi.NewBotAPIWithClient(cfg.Token, cfg.APIEndpoint, ctxClient{ctx: ctx, client: b.http})
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
	b.shared = svc.Shared()
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
		// What is left unhandled goes to another replica at once.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.cfg.RequestTimeout)
		defer cancel()
		if err := b.svc.Release(rctx, Platform); err != nil {
			b.log.Error("releasing the unhandled updates failed; another replica takes them over when their claims expire", "err", err)
		}
	}
	// An update is kept in the session's inbox from before Telegram is
	// told it arrived until it was handled and the edits it queued were
	// made, so a crash loses none: the next Run replays the inbox first.
	// It is handled under its update id (adapters.Request.Update), so that
	// its effect, committed with the mark of that id, happens once however
	// often it is handled; once handled it stays marked for
	// session.Config.UpdateTTL, so that a delivery of it again is dropped
	// when it comes in. The mark, the end of its stay in the inbox and the
	// binding of the boards it posted commit together.
	finish := func(u tgbotapi.Update, handled bool, h handling) {
		if handled {
			f := session.Finished{Update: strconv.Itoa(u.UpdateID), Marked: h.marked, Binds: h.binds}
			if err := b.svc.Handled(work, Platform, f); err != nil {
				b.log.Error("clearing a handled update from the inbox failed; it may be handled again", "update", u.UpdateID, "err", err)
			}
		}
		b.claims.release(u.UpdateID)
	}
	submit := func(ctx context.Context, u tgbotapi.Update) error {
		return sched.submit(ctx, updateChat(u), func() {
			// A hard move waiting for (and in) the AI pool, and a call
			// held by flood control, lend the worker out, so that they
			// never delay other chats' updates.
			h := b.handle(work, u, sched.lend)
			if h.front == nil || !h.front.queued() {
				finish(u, true, h)
				return
			}
			// The chat's next update need not wait for the edits.
			edited.Add(1)
			go func() {
				defer edited.Done()
				finish(u, h.front.made(), h)
			}()
		})
	}
	again := func(ctx context.Context, u tgbotapi.Update) error {
		return sched.submit(ctx, updateChat(u), func() { b.handledAgain(work, u) })
	}
	replayed, err := b.replay(ctx, submit)
	if err != nil {
		drain()
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	if b.cfg.Reclaim != nil {
		reclaimed := make(chan struct{})
		defer func() { <-reclaimed }()
		go func() {
			defer close(reclaimed)
			b.reclaim(ctx, submit)
		}()
	}
	if b.cfg.Mode == ModeWebhook {
		err := b.serveWebhook(ctx, func(rctx context.Context, u tgbotapi.Update) error {
			return b.accept(ctx, rctx, u, submit, again)
		})
		drain()
		return err
	}
	if err := b.request(ctx, "deleteWebhook", tgbotapi.DeleteWebhookConfig{}); err != nil {
		drain()
		return fmt.Errorf("telegram: leave webhook mode: %w", err)
	}
	offset, err := b.poll(ctx, replayed, submit, again)
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
	case u.CallbackQuery != nil && u.CallbackQuery.InlineMessageID != "":
		return inlineKey(u.CallbackQuery.InlineMessageID)
	case u.ChosenInlineResult != nil && u.ChosenInlineResult.InlineMessageID != "":
		return inlineKey(u.ChosenInlineResult.InlineMessageID)
	case u.InlineQuery != nil:
		return inlineKey("query:" + u.InlineQuery.ID)
	}
	return 0
}

// replay submits the updates a crash, or a stop, left in the inbox that
// no live process holds (session.Service.Reclaim) and returns their ids,
// so that poll skips them when Telegram delivers them again; they are
// claimed, so that the webhook does not queue them again either. An
// update whose effect was committed before the crash is handled again
// all the same: the session refuses the effect (session.ErrDuplicate)
// and its game is shown as it is, in case the crash came before that.
func (b *Bot) replay(ctx context.Context, submit func(context.Context, tgbotapi.Update) error) (map[int]bool, error) {
	pending, err := b.svc.Reclaim(ctx, Platform, nil)
	if err != nil {
		return nil, fmt.Errorf("telegram: read the inbox: %w", err)
	}
	replayed := make(map[int]bool, len(pending))
	for _, it := range pending {
		u, ok := b.kept(ctx, it)
		if !ok {
			continue
		}
		if cl, ok := b.claims.take(u.UpdateID); ok {
			cl.done(nil)
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

// kept returns the update of an inbox item; an unreadable one is dropped
// from the inbox.
func (b *Bot) kept(ctx context.Context, it session.InboxItem) (tgbotapi.Update, bool) {
	var u tgbotapi.Update
	if err := json.Unmarshal(it.Data, &u); err != nil {
		b.log.Error("dropping an unreadable update from the inbox", "update", it.ID, "err", err)
		if err := b.svc.Handled(ctx, Platform, session.Finished{Update: strconv.FormatInt(it.ID, 10)}); err != nil {
			b.log.Error("clearing the inbox failed", "update", it.ID, "err", err)
		}
		return u, false
	}
	return u, true
}

// reclaim, on each tick of Config.Reclaim until ctx ends, renews the
// claims of the updates this process keeps and submits those another
// replica left (session.Service.Reclaim): it died, so that its claims
// expired, or it stopped and released them; and those this process kept
// and no longer handles, whose end (Handled) failed to commit. Handling
// them again is safe: their effect commits once, with their update mark.
func (b *Bot) reclaim(ctx context.Context, submit func(context.Context, tgbotapi.Update) error) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.cfg.Reclaim:
		}
		taken, err := b.svc.Reclaim(ctx, Platform, func(id int64) bool { return b.claims.held(int(id)) })
		if err != nil {
			b.log.Error("reclaiming updates failed", "err", err)
			continue
		}
		for _, it := range taken {
			u, ok := b.kept(ctx, it)
			if !ok {
				continue
			}
			cl, first := b.claims.take(u.UpdateID)
			if !first {
				continue // this process holds it
			}
			cl.done(nil)
			if err := submit(ctx, u); err != nil {
				b.claims.release(u.UpdateID)
				return
			}
			b.log.Info("reclaimed an update another replica left unhandled", "update", u.UpdateID)
		}
	}
}

// receive keeps updates in the session's inbox before they are queued,
// and returns the ids of those not to be handled here: true for those
// handled already, which are only answered (handledAgain), false for
// those another replica sharing the store kept and is handling, which
// are left to it (or to the replica that reclaims them if it stops).
func (b *Bot) receive(ctx context.Context, updates []tgbotapi.Update) (map[int]bool, error) {
	items := make([]session.InboxItem, 0, len(updates))
	for _, u := range updates {
		data, err := json.Marshal(u)
		if err != nil {
			return nil, fmt.Errorf("telegram: keep update %d: %w", u.UpdateID, err)
		}
		items = append(items, session.InboxItem{ID: int64(u.UpdateID), Data: data})
	}
	ids, held, err := b.svc.Receive(ctx, Platform, items)
	if err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(ids)+len(held))
	for _, id := range ids {
		done[int(id)] = true
	}
	for _, id := range held {
		done[int(id)] = false
	}
	return done, nil
}

// handledAgain answers an update delivered again after it was handled:
// nothing is done but answering a tap (with no text), so that a client
// still waiting for the first answer, which may have failed, stops
// waiting.
func (b *Bot) handledAgain(ctx context.Context, u tgbotapi.Update) {
	if u.CallbackQuery == nil {
		return
	}
	if err := b.answer(ctx, u.CallbackQuery.ID, ""); err != nil {
		b.log.Debug("answering a tap delivered again failed", "update", u.UpdateID, "err", err)
	}
}

// accept takes in an update POSTed to the webhook while ctx runs, and
// returns nil once it is kept in the inbox (or was handled already), so
// that Telegram may forget it: then it is queued with submit, or, when
// it was handled already, answered with again. A copy of an update this
// process holds already is not queued twice: it waits until the first is
// kept. When the bot stops before a kept update is queued, it stays in
// the inbox for the next start, and accept still returns nil. An error
// means that nothing was kept.
func (b *Bot) accept(ctx, rctx context.Context, u tgbotapi.Update, submit, again func(context.Context, tgbotapi.Update) error) error {
	cl, first := b.claims.take(u.UpdateID)
	if !first {
		return cl.wait(rctx)
	}
	done, err := b.receive(rctx, []tgbotapi.Update{u})
	if err != nil {
		b.claims.release(u.UpdateID)
		cl.done(err)
		return err
	}
	cl.done(nil)
	qctx, cancel := context.WithCancel(rctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	if handled, ok := done[u.UpdateID]; ok {
		b.claims.release(u.UpdateID)
		if handled {
			again(qctx, u)
		}
		return nil
	}
	if err := submit(qctx, u); err != nil && ctx.Err() == nil {
		// The request ended while the queue was full: Telegram, told
		// nothing, delivers the update again, and this copy, kept in
		// the inbox, is taken in anew.
		b.claims.release(u.UpdateID)
		return err
	}
	return nil
}

// poll fetches updates until ctx ends and returns the offset of the first
// update not queued. Each batch is kept in the inbox before its updates
// are queued, and an update's offset is passed back to Telegram (which
// confirms it) only after that, so no confirmed update can be lost; the
// ids in replayed were queued from the inbox already and are skipped, and
// updates handled already go to again instead of submit. It stops early
// with an error when Telegram refuses the token (401) or knows no such
// bot (404).
func (b *Bot) poll(ctx context.Context, replayed map[int]bool, submit, again func(context.Context, tgbotapi.Update) error) (int, error) {
	// The long poll gets its own client: no overall timeout shorter than
	// the poll, and every request bound to ctx.
	poller := *b.api
	poller.Client = ctxClient{ctx: ctx, client: &http.Client{Transport: b.cfg.Transport, Timeout: b.cfg.PollTimeout + b.cfg.RequestTimeout}}
	cfg := tgbotapi.UpdateConfig{Timeout: int(b.cfg.PollTimeout / time.Second), AllowedUpdates: allowedUpdates}
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
		done, err := b.receive(ctx, fresh)
		if err != nil {
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
			if handled, ok := done[u.UpdateID]; ok {
				if handled && again(ctx, u) != nil {
					return offset, nil
				}
				offset = u.UpdateID + 1
				continue
			}
			// Claimed like a webhook's update, so that a reclaim tick
			// between the keeping and the queueing does not queue it too.
			cl, first := b.claims.take(u.UpdateID)
			if first {
				cl.done(nil)
				if err := submit(ctx, u); err != nil {
					b.claims.release(u.UpdateID)
					return offset, nil
				}
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

// webhookHandler returns the HTTP handler of webhook mode: it takes a
// POSTed update only with the configured secret token (otherwise 401 and
// nothing is done), passes it to accept and answers 200 once accept
// reports it kept, 503 (Telegram delivers it again later) when it could
// not be kept.
func (b *Bot) webhookHandler(accept func(context.Context, tgbotapi.Update) error) http.Handler {
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
		if err := accept(r.Context(), u); err != nil {
			b.log.Warn("a webhook update could not be kept; Telegram will deliver it again", "update", u.UpdateID, "err", err)
			http.Error(w, "not kept", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// serveWebhook sets the webhook and serves it until ctx ends, passing
// each update to accept.
func (b *Bot) serveWebhook(ctx context.Context, accept func(context.Context, tgbotapi.Update) error) error {
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
	mux.Handle(path, b.webhookHandler(accept))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	err := b.makeRequest(ctx, "setWebhook", tgbotapi.Params{
		"url":             b.cfg.Webhook.URL,
		"secret_token":    b.cfg.Webhook.Secret,
		"allowed_updates": allowedUpdatesJSON,
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

// claims are the updates this process has taken in and not finished
// with: an update from its arrival (or replay) until it was handled and
// marked so in the store. A second delivery of a claimed update is not
// queued again. It is safe for concurrent use.
type claims struct {
	mu sync.Mutex
	m  map[int]*claim
}

// claim is one update taken in; kept is closed once its fate in the
// inbox is known, with err nil when it is kept there.
type claim struct {
	kept chan struct{}
	err  error
}

// take claims update id. It returns a new claim and true when nobody held
// it, else the holder's claim and false.
func (c *claims) take(id int) (*claim, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.m[id]; ok {
		return cl, false
	}
	if c.m == nil {
		c.m = make(map[int]*claim)
	}
	cl := &claim{kept: make(chan struct{})}
	c.m[id] = cl
	return cl, true
}

// held reports whether update id is claimed.
func (c *claims) held(id int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.m[id]
	return ok
}

// release drops the claim of update id, if any.
func (c *claims) release(id int) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}

// done records whether the claimed update was kept in the inbox (err nil)
// and wakes those waiting for it. It is called once per claim.
func (cl *claim) done(err error) {
	cl.err = err
	close(cl.kept)
}

// wait returns nil once the claimed update is kept in the inbox, the
// error of keeping it when that failed, or ctx's error if ctx ends first.
func (cl *claim) wait(ctx context.Context) error {
	select {
	case <-cl.kept:
		return cl.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errClosed is returned by submit after close.
var errClosed = errors.New("telegram: scheduler closed")

// scheduler runs jobs keyed by chat: jobs of one chat run one at a time in
// the order submitted, jobs of different chats run in parallel on a fixed
// number of workers. A chat waiting for a worker does not hold one, so one
// busy chat never delays the others beyond its own worker. A job that
// blocks for long lends its worker out (see lend), so jobs waiting on
// others never hold the workers either.
type scheduler struct {
	slots chan struct{} // one token per queued or running job: the bound

	mu     sync.Mutex
	cond   *sync.Cond
	chats  map[int64][]func() // chats with queued or running jobs
	ready  []int64            // chats with jobs and no running job, oldest first
	closed bool
	wg     sync.WaitGroup
	// live is the number of worker goroutines, want the number there
	// should be: the workers asked for plus the jobs in lend. A worker
	// that finds live > want retires.
	live, want int
}

// newScheduler starts workers that run at most queue jobs at a time in
// total (queued and running).
func newScheduler(workers, queue int) *scheduler {
	s := &scheduler{slots: make(chan struct{}, queue), chats: map[int64][]func(){}}
	s.cond = sync.NewCond(&s.mu)
	s.mu.Lock()
	s.want = workers
	for range workers {
		s.spawnLocked()
	}
	s.mu.Unlock()
	return s
}

// spawnLocked starts a worker. s.mu must be held.
func (s *scheduler) spawnLocked() {
	s.live++
	s.wg.Add(1)
	go s.work()
}

// lend runs wait, a call of a running job that blocks for long (on a
// shared resource such as the AI pool), and meanwhile has another worker
// run jobs in the job's place: it adds a worker for as long as wait runs,
// and one worker retires once it returned. So the workers running jobs
// that are not blocked stay as many as asked, and the workers in all are
// bounded by the jobs queued and running. lend must be called only from a
// job.
func (s *scheduler) lend(wait func()) {
	s.mu.Lock()
	s.want++
	if s.live < s.want {
		s.spawnLocked()
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.want--
		s.cond.Signal() // an idle worker may retire
		s.mu.Unlock()
	}()
	wait()
}

// submit queues job for chat, waiting while the queue is full. It
// returns ctx's error if ctx ends first, and errClosed after close; in
// both cases the job will not run.
func (s *scheduler) submit(ctx context.Context, chat int64, job func()) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		<-s.slots
		return errClosed
	}
	q, busy := s.chats[chat]
	s.chats[chat] = append(q, job)
	if !busy {
		s.ready = append(s.ready, chat)
		s.cond.Signal()
	}
	return nil
}

// work runs jobs until the scheduler is closed and drained, or until it
// is a worker too many.
func (s *scheduler) work() {
	defer s.wg.Done()
	s.mu.Lock()
	for {
		for len(s.ready) == 0 && !s.closed && s.live <= s.want {
			s.cond.Wait()
		}
		if s.live > s.want {
			s.live--
			if len(s.ready) > 0 {
				// The wake-up this worker took may have been meant for
				// a ready chat: pass it on.
				s.cond.Signal()
			}
			s.mu.Unlock()
			return
		}
		if len(s.ready) == 0 {
			s.live--
			s.mu.Unlock()
			return
		}
		chat := s.ready[0]
		s.ready = s.ready[1:]
		job := s.chats[chat][0]
		s.mu.Unlock()

		job()

		s.mu.Lock()
		<-s.slots
		if q := s.chats[chat][1:]; len(q) > 0 {
			s.chats[chat] = q
			s.ready = append(s.ready, chat)
			s.cond.Signal()
		} else {
			delete(s.chats, chat)
		}
	}
}

// close stops accepting jobs and waits until every queued job has run.
func (s *scheduler) close() {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
}
