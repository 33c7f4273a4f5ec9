package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
)

// benchChats is how many chats tap at once.
const benchChats = 100

// BenchmarkTaps has 100 chats tap 3×3 games against the medium AI at
// once, each tap through a replica picked at random (seeded): on one
// bbolt file in one process, and on a 3-member etcd cluster with 1, 2 and
// 3 replicas. It reports taps/s, the p50 and p99 tap latency, and, on
// etcd, the commits refused for a conflict and rerun per 1000 taps.
func BenchmarkTaps(b *testing.B) {
	b.Run("bbolt", func(b *testing.B) {
		db, err := boltstore.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		tapBench(b, []kv.Store{db}, nil)
	})
	c := etcdtest.Start(b, 3)
	for n := 1; n <= 3; n++ {
		b.Run(fmt.Sprintf("etcd-%d-replicas", n), func(b *testing.B) {
			prefix := "bench" + strconv.Itoa(n) + "/"
			var stores []kv.Store
			var kvs []*etcdstore.Store
			for range n {
				k := c.Store(b, prefix)
				stores, kvs = append(stores, k), append(kvs, k)
			}
			tapBench(b, stores, kvs)
		})
	}
}

func tapBench(b *testing.B, stores []kv.Store, kvs []*etcdstore.Store) {
	var seed atomic.Uint64
	svcs := make([]*session.Service, len(stores))
	for i, st := range stores {
		svcs[i] = session.New(st, &session.Config{NewSeed: func() uint64 { return seed.Add(1) }})
	}
	ctx := context.Background()
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var stale atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := range benchChats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 9))
			who := session.Actor{Platform: "bench", Chat: strconv.Itoa(c), User: session.User{ID: strconv.Itoa(c), Name: "p"}}
			var v session.View
			var mine []time.Duration
			for next.Add(1) <= int64(b.N) {
				if v.ID() == "" || v.Status().Over() {
					var err error
					v, err = svcs[rng.IntN(len(svcs))].Begin(ctx, session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Medium})
					if err != nil && !errors.Is(err, session.ErrAlreadyPlaying) {
						b.Error(err)
						return
					}
				}
				var empty []engine.Point
				board := v.Board()
				for y := range 3 {
					for x := range 3 {
						if board.At(engine.Point{X: x, Y: y}) == engine.Empty {
							empty = append(empty, engine.Point{X: x, Y: y})
						}
					}
				}
				t0 := time.Now()
				nv, err := svcs[rng.IntN(len(svcs))].Begin(ctx, session.Request{Actor: who}).Place(session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: empty[rng.IntN(len(empty))]})
				mine = append(mine, time.Since(t0))
				if err != nil {
					stale.Add(1)
					nv, err = svcs[0].Game(ctx, v.ID())
					if err != nil {
						b.Error(err)
						return
					}
				}
				v = nv
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "taps/s")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(stale.Load())*1000/float64(len(lat)), "refused/1000taps")
	}
	if kvs != nil {
		var conflicts, commits uint64
		for _, k := range kvs {
			s := k.Stats()
			conflicts += s.Conflicts
			commits += s.Commits
		}
		b.ReportMetric(float64(conflicts)*1000/float64(max(1, len(lat))), "conflicts/1000taps")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSweeperTakeover measures how long a replica takes to lead the
// sweeper after the leader's process dies (lease TTL 1 s; etcd's least
// is about 2 s at this election timeout).
func BenchmarkSweeperTakeover(b *testing.B) {
	c := etcdtest.Start(b, 3)
	var total time.Duration
	for i := range b.N {
		total += takeover(b, c, "takeover"+strconv.Itoa(i)+"/")
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "takeover-ms")
	b.ReportMetric(0, "ns/op")
}
