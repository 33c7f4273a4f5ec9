package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore"
)

// errStarting is the error of what needs the store before it answered.
var errStarting = errors.New("starting: waiting for the database")

// errOpsStopped is returned by waitForStore when the ops endpoints stopped
// (they could not listen) while it waited.
var errOpsStopped = errors.New("the ops endpoints stopped")

// startHooks are what tests observe and steer of the start; in
// production both are nil.
var startHooks struct {
	// opsListening is called with the address of the ops endpoints.
	opsListening func(net.Addr)
	// retryAfter replaces time.After for the waits between attempts to
	// reach the store.
	retryAfter func(time.Duration) <-chan time.Time
}

// listeners are the addresses the bot serves on, bound before anything
// starts.
type listeners struct {
	// ops serves /metrics, /healthz and /backup; nil without
	// metrics.listen.
	ops net.Listener
	// web serves the web board; nil when there is none.
	web net.Listener
	// webhook serves Telegram's webhook, interactions Discord's HTTP
	// interactions; nil when not used.
	webhook, interactions net.Listener
}

// close closes the listeners; closing one already served and shut down
// does no harm.
func (l *listeners) close() {
	for _, ln := range []net.Listener{l.ops, l.web, l.webhook, l.interactions} {
		if ln != nil {
			ln.Close()
		}
	}
}

// bindListeners binds every address the bot serves on: the ops
// endpoints' (metrics.listen), the web board's (see listenWeb; terminal
// tells whether the terminal game runs), Telegram's webhook and Discord's
// interactions endpoint when they are used, so that an address taken or
// unusable stops the bot before anything starts, with an error naming
// its key.
func bindListeners(cfg Config, terminal bool) (_ *listeners, err error) {
	l := &listeners{}
	defer func() {
		if err != nil {
			l.close()
		}
	}()
	if a := cfg.Metrics.Listen; a != "" {
		if l.ops, err = listenOps(a); err != nil {
			return nil, listenError("metrics.listen", err)
		}
	}
	if l.web, err = listenWeb(cfg.Web, terminal); err != nil {
		return nil, listenError("web.listen", err)
	}
	if cfg.Telegram.Token != "" && cfg.Telegram.Mode == "webhook" {
		if l.webhook, err = net.Listen("tcp", cfg.Telegram.Webhook.Listen); err != nil {
			return nil, listenError("telegram.webhook.listen", err)
		}
	}
	if in := cfg.Discord.Interactions; cfg.Discord.Token != "" && in.PublicKey != "" {
		if l.interactions, err = net.Listen("tcp", in.Listen); err != nil {
			return nil, listenError("discord.interactions.listen", err)
		}
	}
	return l, nil
}

// listenError is the error of binding the address of key: one line that
// names the key, then the address in the listener's error.
func listenError(key string, err error) error {
	return fmt.Errorf("%s: %w", keyName(key), err)
}

// Waits between attempts to reach an etcd cluster that does not answer:
// the first, doubled each time up to the last.
const (
	firstRetry = time.Second
	lastRetry  = 30 * time.Second
)

// waitForStore opens the configured store. An etcd cluster that does not
// answer yet (etcdstore.ErrUnreachable: not started, or too busy) is
// tried again, after firstRetry and then twice as long each time up to
// lastRetry, until it answers; it returns a nil store and nil when ctx
// ends first, and errOpsStopped when stop is closed first.
func waitForStore(ctx context.Context, cfg *Config, log *slog.Logger, stop <-chan struct{}) (*openedStore, error) {
	after := time.After
	if startHooks.retryAfter != nil {
		after = startHooks.retryAfter
	}
	for wait := firstRetry; ; wait = min(2*wait, lastRetry) {
		store, err := openConfigured(cfg)
		if !errors.Is(err, etcdstore.ErrUnreachable) {
			return store, err
		}
		log.Warn("the database does not answer yet; /healthz says not ready until it does", "retry_in", wait, "err", err)
		select {
		case <-ctx.Done():
			log.Info("stopped before the database answered")
			return nil, nil
		case <-stop:
			return nil, errOpsStopped
		case <-after(wait):
		}
	}
}

// startingHandler serves the ops endpoints from the start: until ready
// is called, /metrics alone, and 503 (not ready) on /healthz and the
// rest; then the handler given to ready.
type startingHandler struct {
	metrics http.Handler
	h       atomic.Pointer[http.Handler]
}

// ready makes h serve every request from now on.
func (s *startingHandler) ready(h http.Handler) { s.h.Store(&h) }

func (s *startingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := s.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	if r.URL.Path == "/metrics" {
		s.metrics.ServeHTTP(w, r)
		return
	}
	http.Error(w, errStarting.Error(), http.StatusServiceUnavailable)
}
