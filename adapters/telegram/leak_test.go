package telegram_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// logBuffer collects log lines from any goroutine.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// logger returns a debug-level logger writing into l.
func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// checkNoToken fails the test when any of texts holds token or its
// secret part, as it is or escaped for a URL.
func checkNoToken(t *testing.T, token string, texts ...string) {
	t.Helper()
	secret := token[strings.Index(token, ":")+1:]
	for _, text := range texts {
		for _, s := range []string{token, secret, url.PathEscape(token), url.QueryEscape(token)} {
			if strings.Contains(text, s) {
				t.Fatalf("the token shows in:\n%s", text)
			}
		}
	}
}

// silentListener accepts connections on loopback and never answers on
// them (drop false), or closes each at once (drop true). accepted gets
// a value per connection, when there is room.
func silentListener(t *testing.T, drop bool) (endpoint string, accepted <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{}, 16)
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer func() { done <- struct{}{} }()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if drop {
				c.Close()
			} else {
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
			select {
			case got <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/bot%s/%s", got
}

// TestNewNeverLeaksTheToken runs New against a Bot API that accepts and
// never answers (until the request times out, or until New's context is
// cancelled during the stall) and one that drops every connection: the
// error names no token, and says what ended the call.
func TestNewNeverLeaksTheToken(t *testing.T) {
	const token = "4242:leak-test-SECRET/token+x"
	t.Run("request timeout", func(t *testing.T) {
		endpoint, _ := silentListener(t, false)
		var logs logBuffer
		_, err := telegram.New(context.Background(), nil, telegram.Config{Token: token, APIEndpoint: endpoint, RequestTimeout: 20 * time.Millisecond, Log: logs.logger()})
		var ae *telegram.APIError
		if !errors.As(err, &ae) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("New against a silent server: %v", err)
		}
		checkNoToken(t, token, err.Error(), fmt.Sprintf("%v %+v", err, ae), logs.String())
	})
	t.Run("cancelled during the stall", func(t *testing.T) {
		endpoint, accepted := silentListener(t, false)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			// Only the cancel can end getMe.
			_, err := telegram.New(ctx, nil, telegram.Config{Token: token, APIEndpoint: endpoint, RequestTimeout: time.Hour})
			done <- err
		}()
		<-accepted
		cancel()
		wctx, wcancel := context.WithTimeout(context.Background(), waitLimit)
		defer wcancel()
		var err error
		select {
		case err = <-done:
		case <-wctx.Done():
			t.Fatal("New did not return when its context was cancelled")
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("New cancelled: %v", err)
		}
		checkNoToken(t, token, err.Error())
	})
	t.Run("connection closed", func(t *testing.T) {
		endpoint, _ := silentListener(t, true)
		_, err := telegram.New(context.Background(), nil, telegram.Config{Token: token, APIEndpoint: endpoint})
		if !errors.Is(err, telegram.ErrTransient) {
			t.Fatalf("New against a closing server: %v", err)
		}
		checkNoToken(t, token, err.Error())
	})
}

// leakRig is a bot on a real bbolt file, talking to the fake Bot API,
// logging into a buffer.
type leakRig struct {
	fake  *telegramtest.Server
	logs  logBuffer
	bot   *telegram.Bot
	store *boltstore.Store
}

func newLeakRig(t *testing.T, cfg telegram.Config) *leakRig {
	t.Helper()
	r := &leakRig{fake: telegramtest.NewServer()}
	t.Cleanup(r.fake.Close)
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cfg.Token, cfg.APIEndpoint, cfg.Log = telegramtest.Token, r.fake.Endpoint(), r.logs.logger()
	r.bot, err = telegram.New(context.Background(), session.New(store, nil), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wait blocks until cond holds on the fake, failing after waitLimit.
func (r *leakRig) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := r.fake.Wait(ctx, cond); err != nil {
		t.Fatalf("waiting for %s: %v\n%s", what, err, r.logs.String())
	}
}

// TestRunNeverLeaksTheToken drives Run's paths where a Bot API call gets
// no answer: long polls that time out or whose connection drops, a call
// cut off by the shutdown timeout, and a start whose calls stall while
// the bot is told to stop. No log line and no returned error holds the
// token.
func TestRunNeverLeaksTheToken(t *testing.T) {
	t.Run("polling fails", func(t *testing.T) {
		s := &sleeper{}
		r := newLeakRig(t, telegram.Config{RequestTimeout: 20 * time.Millisecond, PollTimeout: time.Millisecond, Sleep: s.Sleep})
		r.fake.Fail("getUpdates", telegramtest.Timeout(), telegramtest.ConnectionReset(), telegramtest.Timeout())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- r.bot.Run(ctx) }()
		// Three failed polls, then one that works.
		r.wait(t, "four polls", func() bool { return len(r.fake.Calls("getUpdates")) >= 4 })
		cancel()
		err := <-done
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if n := strings.Count(r.logs.String(), "getUpdates failed"); n != 3 {
			t.Fatalf("%d failed polls logged, want 3:\n%s", n, r.logs.String())
		}
		checkNoToken(t, telegramtest.Token, r.logs.String())
	})
	t.Run("shutdown cuts a stalled send", func(t *testing.T) {
		r := newLeakRig(t, telegram.Config{RequestTimeout: time.Hour, ShutdownTimeout: time.Millisecond})
		r.fake.Fail("sendMessage", telegramtest.Timeout())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- r.bot.Run(ctx) }()
		r.fake.SendText(tgbotapi.Chat{ID: 5, Type: "private"}, tgbotapi.User{ID: 5, FirstName: "Ann"}, "/play")
		r.wait(t, "the held send", func() bool { return r.fake.Held() == 1 })
		cancel()
		err := <-done
		if !strings.Contains(r.logs.String(), "context canceled") {
			t.Errorf("the cancelled send was not logged:\n%s", r.logs.String())
		}
		checkNoToken(t, telegramtest.Token, r.logs.String(), fmt.Sprint(err))
	})
	t.Run("stop while starting", func(t *testing.T) {
		s := &sleeper{}
		r := newLeakRig(t, telegram.Config{RequestTimeout: 20 * time.Millisecond, Sleep: s.Sleep})
		r.fake.Fail("setMyCommands", telegramtest.Timeout(), telegramtest.Timeout(), telegramtest.Timeout(), telegramtest.Timeout())
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := r.bot.Run(ctx)
		if err == nil {
			t.Fatal("Run started with every setMyCommands stalled")
		}
		checkNoToken(t, telegramtest.Token, r.logs.String(), err.Error())
	})
}
