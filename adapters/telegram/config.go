package telegram

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/boardbot/boardbot/session"
)

// Modes of receiving updates.
const (
	// ModePolling fetches updates with getUpdates (the default).
	ModePolling = "polling"
	// ModeWebhook has Telegram post updates to the bot's HTTP server.
	ModeWebhook = "webhook"
)

// Platform is the session platform of Telegram games.
const Platform session.Platform = "telegram"

// Config configures a Bot. Only Token is required; every other zero field
// means the documented default.
type Config struct {
	// Token is the bot token from @BotFather. It is never logged.
	Token string
	// APIEndpoint is the Bot API URL in the client library's format, with
	// %s for the token and then the method. Default the official
	// "https://api.telegram.org/bot%s/%s".
	APIEndpoint string
	// Mode is ModePolling (default) or ModeWebhook.
	Mode string
	// Webhook configures ModeWebhook.
	Webhook WebhookConfig
	// Workers is how many updates are handled at once. Default 64: a
	// worker mostly waits, on the Bot API or on the database's commit, and
	// the commits of concurrent workers share one fsync. An update whose
	// hard AI move waits for or runs in the session's AI pool does not
	// count while it does (the session.Request.Think hook lends its
	// worker out, as does a call held by flood control): another worker
	// takes its place, so the pool's queue, not this, bounds those moves.
	Workers int
	// Queue is how many received updates may wait for a worker before
	// polling pauses (or webhook requests wait). Default 1024.
	Queue int
	// PollTimeout is the long-poll wait of getUpdates. Default 30 s.
	PollTimeout time.Duration
	// RequestTimeout bounds every Bot API call but the long poll.
	// Default 15 s.
	RequestTimeout time.Duration
	// Transport is the HTTP transport of the API client. Default a clone
	// of http.DefaultTransport with larger idle pools.
	Transport http.RoundTripper
	// Sleep waits d or until ctx ends; it returns ctx's error when ctx
	// ended first. Every wait of the Bot (retry_after, back-off) goes
	// through it, so tests can record waits instead of sleeping. Default
	// a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Backoff returns the wait before retry number attempt (0, 1, ...)
	// after a server or network error. Default 1 s doubling up to 30 s.
	Backoff func(attempt int) time.Duration
	// MaxRetries is how many times a call is retried after flood control
	// or a temporary failure. Default 3.
	MaxRetries int
	// MaxFloodWait is the longest retry_after the Bot waits out; a longer
	// one fails the call. Default 60 s.
	MaxFloodWait time.Duration
	// Pace is how fast the Bot sends and edits messages, so that
	// Telegram's flood control need not refuse them.
	Pace Pace
	// ShutdownTimeout bounds how long Run waits, after its context ends,
	// for queued updates to be handled. Default 10 s.
	ShutdownTimeout time.Duration
	// Reclaim, when set, delivers the ticks on which the Bot renews its
	// claims on the updates it keeps in the store's inbox and takes over
	// those another replica left (session.Service.Reclaim): webhook
	// replicas sharing one store each tick well within
	// session.ClaimTTL. nil turns reclaiming off, for a store no other
	// process shares.
	Reclaim <-chan time.Time
	// Log receives the Bot's logs; nil discards them.
	Log *slog.Logger
	// OnUpdate, when set, is called with the kind ("message", "callback"
	// or "other") of every update the Bot handles, for metrics.
	OnUpdate func(kind string)
	// OnAPIError, when set, is called with APIError.Code (0: no answer)
	// of every failed Bot API call attempt but "message is not modified",
	// for metrics.
	OnAPIError func(code int)
	// WebBoard, when set, returns the 🌐 button under a game's board,
	// which opens its web board.
	WebBoard func(v session.View) WebButton
}

// WebhookConfig configures ModeWebhook.
type WebhookConfig struct {
	// Listen is the address the HTTP server listens on, such as ":8443".
	Listen string
	// URL is the public HTTPS URL Telegram posts to; its path is the one
	// served.
	URL string
	// Secret is the secret token given to setWebhook; requests without
	// it in X-Telegram-Bot-Api-Secret-Token are refused with 401. 1-256
	// characters of A-Z, a-z, 0-9, _ and -.
	Secret string
	// Listener, when set, is used instead of listening on Listen.
	Listener net.Listener
}

// Pace is the flood control the Bot keeps to before Telegram has to
// refuse: every message sent or edited (sendMessage, sendPhoto,
// editMessageText, editMessageMedia) counts; answers to taps, chat
// actions and polling do not. A zero N or Per of a Rate means Telegram's;
// a negative N, no limit.
//
// The limits are Telegram's for the bot as a whole. When the Bot's
// session.Service is on a store other processes share (replicas on one
// etcd cluster, session.Service.Shared), every message also takes a slot
// of a budget all of them share in the store (session.Service.Reserve),
// one store transaction a message, and waits for it after the Bot's own
// pacing; when the store fails, the message goes under the Bot's own
// pacing alone. On a store no other process shares, the Bot's own pacing
// is all.
type Pace struct {
	// Chat bounds the messages of one chat. Default 1 per second.
	Chat Rate
	// Group bounds the messages of one group chat, on top of Chat.
	// Default 20 per minute.
	Group Rate
	// Global bounds the messages of all chats. Default 30 per second.
	Global Rate
	// Margin is how much longer than its Per a message counts in the
	// budget replicas share: an allowance for the time from the instant
	// a replica's slot begins to Telegram counting its message (the
	// request on its way, the replicas' clocks differing). A message that
	// takes longer may still be refused, and is then sent again after
	// retry_after. Default 250 ms; negative means none. Unused on a store
	// no other process shares.
	Margin time.Duration
}

// DefaultPaceMargin is the default of Pace.Margin.
const DefaultPaceMargin = 250 * time.Millisecond

// withDefaults returns p with its zero fields filled in.
func (p Pace) withDefaults() Pace {
	fill := func(r *Rate, n int, per time.Duration) {
		if r.N == 0 {
			r.N = n
		}
		if r.Per <= 0 {
			r.Per = per
		}
	}
	fill(&p.Chat, 1, time.Second)
	fill(&p.Group, 20, time.Minute)
	fill(&p.Global, 30, time.Second)
	if p.Margin == 0 {
		p.Margin = DefaultPaceMargin
	}
	return p
}

// withDefaults returns c with its zero fields filled in.
func (c Config) withDefaults() Config {
	if c.APIEndpoint == "" {
		c.APIEndpoint = "https://api.telegram.org/bot%s/%s"
	}
	if c.Mode == "" {
		c.Mode = ModePolling
	}
	if c.Workers <= 0 {
		c.Workers = 64
	}
	if c.Queue <= 0 {
		c.Queue = 1024
	}
	if c.PollTimeout <= 0 {
		c.PollTimeout = 30 * time.Second
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = 15 * time.Second
	}
	if c.Transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConns = 256
		t.MaxIdleConnsPerHost = 256
		c.Transport = t
	}
	if c.Sleep == nil {
		c.Sleep = sleep
	}
	if c.Backoff == nil {
		c.Backoff = backoff
	}
	if c.MaxRetries <= 0 {
		c.MaxRetries = 3
	}
	if c.MaxFloodWait <= 0 {
		c.MaxFloodWait = time.Minute
	}
	c.Pace = c.Pace.withDefaults()
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = 10 * time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// backoff is 1 s doubling up to 30 s.
func backoff(attempt int) time.Duration {
	d := time.Second << min(attempt, 5)
	return min(d, 30*time.Second)
}
