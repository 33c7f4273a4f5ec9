package telegram_test

import (
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
)

// tapPathChats is how many chats tap at once in BenchmarkTapPath.
const tapPathChats = 100

// BenchmarkTapPath measures the path of one tap end to end: 100 chats
// tap 3×3 games against the medium AI through the fake Bot API in
// webhook mode, each chat tapping again as soon as its board was edited
// and its tap answered. "bbolt" is one bot on a bbolt file (synced);
// "etcd-3-replicas" is three bots on a 3-member embedded etcd cluster,
// each webhook post sent to one of them at random (seeded). Games are
// started untimed; -benchtime Nx makes about N taps. It reports the store
// transactions per tap (every View, every Begin and every run of an
// Update's function, conflict retries included, counted on the store
// under each bot by kv.Count), taps/s, and the p50 and p99 time from a
// tap's post to its edit and answer.
//
//	go test -run '^$' -bench TapPath -benchtime 1000x ./adapters/telegram
func BenchmarkTapPath(b *testing.B) {
	b.Run("bbolt", func(b *testing.B) {
		raw, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer raw.Close()
		tapPath(b, []kv.Store{raw})
	})
	b.Run("etcd-3-replicas", func(b *testing.B) {
		c := etcdtest.Start(b, 3)
		var raws []kv.Store
		for range 3 {
			raws = append(raws, c.Store(b, "tappath/"))
		}
		tapPath(b, raws)
	})
}

// tapPath runs the benchmark with one bot in webhook mode on each store.
func tapPath(b *testing.B, raws []kv.Store) {
	// The fake's posts and the load balancer keep their connections, as
	// Telegram and a real balancer do, instead of opening one a request.
	t := http.DefaultTransport.(*http.Transport)
	idle := t.MaxIdleConnsPerHost
	t.MaxIdleConnsPerHost = 256
	defer func() { t.MaxIdleConnsPerHost = idle }()
	fake := telegramtest.NewServer()
	defer fake.Close()
	var counted []*kv.Counter
	var seed atomic.Uint64
	var urls []string
	rng := rand.New(rand.NewPCG(24, 1))
	var rngMu sync.Mutex
	lb := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		rngMu.Lock()
		u, _ := url.Parse(urls[rng.IntN(len(urls))])
		rngMu.Unlock()
		r.SetURL(u)
		r.Out.URL.Path = r.In.URL.Path
	}})
	defer lb.Close()
	var stops []func()
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	for _, raw := range raws {
		ck := kv.Count(raw)
		counted = append(counted, ck)
		svc := session.New(ck, &session.Config{NewSeed: func() uint64 { return seed.Add(1) }})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		urls = append(urls, "http://"+ln.Addr().String())
		bot, err := telegram.New(context.Background(), svc, telegram.Config{
			Token: telegramtest.Token, APIEndpoint: fake.Endpoint(), Mode: telegram.ModeWebhook,
			Webhook:         telegram.WebhookConfig{URL: lb.URL + "/hook", Secret: webhookSecret, Listener: ln},
			ShutdownTimeout: time.Second,
			// Telegram's flood control, a thousand times faster: the store's
			// path is measured, not Telegram's pace. On etcd each edit
			// still takes its slot of the budget the replicas share.
			Pace: telegram.Pace{
				Chat:   telegram.Rate{N: 1, Per: time.Millisecond},
				Group:  telegram.Rate{N: 20, Per: 60 * time.Millisecond},
				Global: telegram.Rate{N: 30, Per: time.Millisecond},
				Margin: 250 * time.Microsecond,
			},
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		before := len(fake.Calls("setWebhook"))
		go func() { done <- bot.Run(ctx) }()
		waitFake(b, fake, func() bool { return len(fake.Calls("setWebhook")) > before })
		stops = append(stops, func() { cancel(); <-done })
	}

	// Each chat's edits and answers, as the fake records them.
	w := watchTaps(fake, 20000, tapPathChats, 8)
	ev := w.chats
	post := func(u tgbotapi.Update) {
		status, err := fake.Post(context.Background(), u, webhookSecret)
		if err != nil || status != http.StatusOK {
			b.Errorf("webhook post: %d %v", status, err)
		}
	}
	txns := func() int64 {
		var n int64
		for _, c := range counted {
			n += int64(c.Transactions())
		}
		return n
	}
	// drained waits until no update is left in the inbox: every one
	// handled to its end. It wakes on the store's change feed.
	drained := func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		inbox, err := raws[0].Watch(ctx, []byte("inbox"), nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			n := 0
			err := raws[0].View(context.Background(), func(tx kv.Tx) error {
				return tx.Scan([]byte("inbox"), nil, nil, func(_, _ []byte) bool { n++; return true })
			})
			if err != nil {
				b.Fatal(err)
			}
			if n == 0 {
				return
			}
			if _, ok := <-inbox; !ok {
				b.Fatal("the inbox's change feed ended")
			}
		}
	}

	var latencies []time.Duration
	var taps int
	var spent int64
	var elapsed time.Duration
	b.ResetTimer()
	for round := 0; taps < b.N; round++ {
		b.StopTimer()
		boards := make(map[int64]int, tapPathChats)
		for id := range ev {
			u := fake.NewTextUpdate(private(id), user(id, "en"), "/play medium ttt")
			u.UpdateID = fake.NextUpdateID()
			post(u)
		}
		for id := range ev {
			waitFake(b, fake, func() bool {
				m, ok := fake.LastBotMessage(id)
				if ok {
					boards[id] = m.ID
				}
				return ok && len(placeButtons(m)) == 9
			})
		}
		drained()
		before := txns()
		b.StartTimer()
		start := time.Now()
		var mu sync.Mutex
		var wg sync.WaitGroup
		for id, e := range ev {
			wg.Go(func() {
				chat, me := private(id), user(id, "en")
				rng := rand.New(rand.NewPCG(uint64(id), uint64(round)))
				var local []time.Duration
				for {
					m, _ := fake.Message(id, boards[id])
					live := placeButtons(m)
					if len(live) == 0 {
						break
					}
					u, cb := fake.NewTapUpdate(chat, me, m.ID, live[rng.IntN(len(live))])
					w.tapped(cb, id)
					u.UpdateID = fake.NextUpdateID()
					t0 := time.Now()
					post(u)
					edit, answer := <-e.edit, <-e.answer
					if answer.After(edit) {
						edit = answer
					}
					local = append(local, edit.Sub(t0))
				}
				mu.Lock()
				latencies = append(latencies, local...)
				mu.Unlock()
			})
		}
		wg.Wait()
		elapsed += time.Since(start)
		b.StopTimer()
		drained()
		spent += txns() - before
		taps = len(latencies)
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(spent)/float64(taps), "txn/tap")
	b.ReportMetric(float64(taps)/elapsed.Seconds(), "taps/s")
	b.ReportMetric(percentile(latencies, 0.50), "p50-ms")
	b.ReportMetric(percentile(latencies, 0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// waitFake waits until cond holds, re-checking it on every change of the
// fake's state.
func waitFake(b *testing.B, fake *telegramtest.Server, cond func() bool) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := fake.Wait(ctx, cond); err != nil {
		b.Fatal(err)
	}
}
