package telegram_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// BenchmarkTaps measures taps end to end through the client library and
// the fake Bot API, with the bbolt file synced on every commit: taps/s
// and tap-to-edit latency for 1, 100 and 1000 chats tapping at once on
// 3×3 medium. Each round starts a game in every chat (untimed), then
// every chat taps until its game ends: at once after each answer (a
// closed loop: the most the bot sustains, latency then is mostly queueing),
// or, when rate is set, paced so that all chats together offer rate taps
// per second (an open loop: latency at that load). The bolt sub-benchmarks measure
// the raw commit rate of the same kind of file on the same disk, and
// store-update-64 the rate of boltstore.Store.Update's grouped commits.
//
//	go test -run '^$' -bench Taps -benchtime 1x ./adapters/telegram
func BenchmarkTaps(b *testing.B) {
	for _, chats := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("chats=%d", chats), func(b *testing.B) { benchTaps(b, chats, 0, false) })
	}
	for _, rate := range []float64{500, 1000} {
		b.Run(fmt.Sprintf("chats=1000/paced=%v", rate), func(b *testing.B) { benchTaps(b, 1000, rate, false) })
	}
	// Without fsync: what the adapter, the AI and the fake server reach
	// when commits are cheap (not the production setting).
	b.Run("chats=1000/nosync", func(b *testing.B) { benchTaps(b, 1000, 0, true) })
	b.Run("chats=1000/nosync/paced=1000", func(b *testing.B) { benchTaps(b, 1000, 1000, true) })
	b.Run("bolt-update", func(b *testing.B) { benchBolt(b, false) })
	b.Run("bolt-batch-64", func(b *testing.B) { benchBolt(b, true) })
	b.Run("store-update-64", benchStore)
}

// benchStore measures synced commits through boltstore.Store.Update,
// which groups concurrent calls into one transaction, with 64 writers
// each taking a new game id (one small write) per commit.
func benchStore(b *testing.B) {
	store, err := boltstore.Open(filepath.Join(b.TempDir(), "store.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	per := max(b.N, 2000) / 64
	start := time.Now()
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for range per {
				err := store.Update(ctx, func(tx kv.Tx) error {
					_, err := tx.NextSequence([]byte("games"))
					return err
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(per*64)/time.Since(start).Seconds(), "commits/s")
	b.ReportMetric(0, "ns/op")
}

func benchTaps(b *testing.B, chats int, rate float64, noSync bool) {
	h := newHarness(b, func(h *harness) {
		h.cfg.PollTimeout = 10 * time.Second
		// The production default.
		h.cfg.Workers = 0
		h.noSync = noSync
	})
	w := watchTaps(h.fake, 10000, chats, 4)
	ev := w.chats
	var latencies []time.Duration
	var taps int
	var elapsed time.Duration
	for range b.N {
		b.StopTimer()
		// Start a game in every chat and wait for all the boards.
		boards := make(map[int64]int, chats)
		for id := range ev {
			h.fake.SendText(private(id), user(id, "en"), "/play medium ttt")
		}
		for id := range ev {
			h.wait("boards", func() bool {
				m, ok := h.fake.LastBotMessage(id)
				if ok {
					boards[id] = m.ID
				}
				return ok && len(placeButtons(m)) == 9
			})
		}
		for id := range ev {
			h.sync(private(id)) // the board is bound
		}
		b.StartTimer()
		start := time.Now()
		var mu sync.Mutex
		var wg sync.WaitGroup
		for id, e := range ev {
			wg.Go(func() {
				chat, me := private(id), user(id, "en")
				var local []time.Duration
				var interval time.Duration
				next := start
				if rate > 0 {
					// Each chat taps every chats/rate seconds, the chats
					// spread evenly over one interval.
					interval = time.Duration(float64(chats) / rate * float64(time.Second))
					next = start.Add(time.Duration(id-10000) * interval / time.Duration(chats))
				}
				for {
					if rate > 0 {
						time.Sleep(time.Until(next))
						next = next.Add(interval)
					}
					m, _ := h.fake.Message(id, boards[id])
					live := placeButtons(m)
					if len(live) == 0 {
						break
					}
					t0 := time.Now()
					u, cb := h.fake.NewTapUpdate(chat, me, m.ID, live[0])
					w.tapped(cb, id)
					h.fake.PushUpdate(u)
					local = append(local, (<-e.edit).Sub(t0))
					<-e.answer
				}
				mu.Lock()
				latencies = append(latencies, local...)
				mu.Unlock()
			})
		}
		wg.Wait()
		elapsed += time.Since(start)
		taps = len(latencies)
	}
	b.StopTimer()
	slices.Sort(latencies)
	if rate > 0 {
		// Games end after 3 to 5 taps at different times, so the average
		// over the round understates the load: report the rate offered
		// while every chat plays, and the latency under it.
		b.ReportMetric(rate, "offered-taps/s")
	} else {
		b.ReportMetric(float64(taps)/elapsed.Seconds(), "taps/s")
	}
	b.ReportMetric(percentile(latencies, 0.50), "p50-ms")
	b.ReportMetric(percentile(latencies, 0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// benchBolt measures synced bbolt commits of a small record: one writer
// after another with Update, or many writers grouped with Batch.
func benchBolt(b *testing.B, batch bool) {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("b")); return err }); err != nil {
		b.Fatal(err)
	}
	value := make([]byte, 300)
	put := func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte("b"))
		n, _ := bk.NextSequence()
		return bk.Put([]byte(strconv.FormatUint(n, 36)), value)
	}
	// At least 2000 commits, so that -benchtime 1x (for the tap runs)
	// still measures a rate.
	n := max(b.N, 2000)
	start := time.Now()
	if batch {
		var wg sync.WaitGroup
		per := n / 64
		for range 64 {
			wg.Go(func() {
				for range per {
					if err := db.Batch(put); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		n = per * 64
	} else {
		for range n {
			if err := db.Update(put); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "commits/s")
	b.ReportMetric(0, "ns/op")
}
