package session

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/boltstore"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// benchStore opens a bbolt store with fsync on in the benchmark's temp
// directory.
func benchStore(b *testing.B) (*testStore, string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.db")
	st, err := openBolt(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st, path
}

// parallel runs n operations over workers goroutines, each calling op
// with its worker number, and reports operations per second.
func parallel(b *testing.B, workers int, op func(w int) error) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	b.ResetTimer()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if err := op(w); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
}

// BenchmarkCommit measures, in one run, the raw bbolt commit rate (one
// small write per transaction, with Update and with Batch), the same
// through boltstore.Store.Update's group commit, and the rate of Service.Place
// in duels on 15×15 boards, with 1 and 64 games moving at once. The file
// is fsynced on every commit.
func BenchmarkCommit(b *testing.B) {
	value := make([]byte, 300)
	raw := func(batch bool) func(st *testStore) func(int) error {
		return func(st *testStore) func(int) error {
			var key atomic.Uint64
			return func(int) error {
				k := binary.BigEndian.AppendUint64(nil, key.Add(1))
				fn := func(tx *bolt.Tx) error { return tx.Bucket(bucketGames).Put(k, value) }
				if batch {
					return st.DB().Batch(fn)
				}
				return st.DB().Update(fn)
			}
		}
	}
	for _, bm := range []struct {
		name    string
		workers int
		op      func(st *testStore) func(int) error
	}{
		{"raw=update/games=1", 1, raw(false)},
		{"raw=update/games=64", 64, raw(false)},
		{"raw=batch/games=64", 64, raw(true)},
		{"store=group/games=64", 64, grouped},
		{"place/games=1", 1, placer},
		{"place/games=64", 64, placer},
	} {
		b.Run(bm.name, func(b *testing.B) {
			st, _ := benchStore(b)
			parallel(b, bm.workers, bm.op(st))
		})
	}
}

// grouped returns an operation that commits one small record through
// boltstore.Store.Update: the ceiling of the store's group commit.
func grouped(st *testStore) func(int) error {
	var n atomic.Uint64
	return func(int) error {
		id := fmt.Sprint(n.Add(1))
		return st.Update(context.Background(), func(kt kv.Tx) error {
			tx := layout{kt}
			return tx.PutUserSettings("bench", id, UserSettings{Lang: "en"})
		})
	}
}

// placer returns an operation that plays the next move of worker w's
// duel, starting a new duel when it ends.
func placer(st *testStore) func(int) error {
	s := New(st, &Config{NewSeed: func() uint64 { return 1 }})
	gomoku, _ := engine.Preset("gomoku")
	var mu sync.Mutex
	games := map[int]*View{}
	rngs := map[int]*rand.Rand{}
	return func(w int) error {
		mu.Lock()
		v, rng := games[w], rngs[w]
		if rng == nil {
			rng = rand.New(rand.NewPCG(uint64(w), 7))
			rngs[w] = rng
		}
		mu.Unlock()
		ctx := context.Background()
		a, o := User{ID: fmt.Sprint("a", w)}, User{ID: fmt.Sprint("b", w)}
		who := func(u User) Actor { return Actor{Platform: "bench", Chat: "c", User: u} }
		if v == nil || v.Status().Over() {
			c, err := s.Begin(ctx, Request{Actor: who(a)}).Challenge(ChallengeRequest{Rules: gomoku, Opponent: o})
			if err != nil {
				return err
			}
			g, err := s.Begin(ctx, Request{Actor: who(o)}).Accept(c.ID())
			if err != nil {
				return err
			}
			v = &g
		}
		legal := v.Board().LegalMoves()
		next, err := s.Begin(ctx, Request{Actor: who(v.Seat(v.ToMove()).User)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: legal[rng.IntN(len(legal))]})
		if err != nil {
			return err
		}
		mu.Lock()
		games[w] = &next
		mu.Unlock()
		return nil
	}
}

// BenchmarkBytesPerGame reports how many bytes a finished game takes: its
// record, and the growth of the bbolt file per game, for 3×3 games played
// to the end and 15×15 games of 60 moves ended by resignation.
func BenchmarkBytesPerGame(b *testing.B) {
	gomoku, _ := engine.Preset("gomoku")
	for _, bm := range []struct {
		name  string
		rules engine.Rules
		moves int
	}{{"ttt", engine.TicTacToe(), 9}, {"gomoku", gomoku, 60}} {
		b.Run(bm.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bench.db")
			st, err := openBolt(path, &boltstore.Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			s := New(st, &Config{NewSeed: func() uint64 { return 1 }})
			ctx := context.Background()
			who := func(u User) Actor { return Actor{Platform: "telegram", Chat: "-1001234567890", User: u} }
			alice, bob := User{ID: "123456789", Name: "alice"}, User{ID: "987654321", Name: "bob"}
			const games = 300
			before := fileSize(b, path)
			rng := rand.New(rand.NewPCG(1, 2))
			var record int
			b.ResetTimer()
			for range b.N {
				for range games {
					c, err := s.Begin(ctx, Request{Actor: who(alice)}).Challenge(ChallengeRequest{Rules: bm.rules, Opponent: bob})
					if err != nil {
						b.Fatal(err)
					}
					v, err := s.Begin(ctx, Request{Actor: who(bob)}).Accept(c.ID())
					if err != nil {
						b.Fatal(err)
					}
					for v.MoveNo() < bm.moves && !v.Status().Over() {
						legal := v.Board().LegalMoves()
						if v, err = s.Begin(ctx, Request{Actor: who(v.Seat(v.ToMove()).User)}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: legal[rng.IntN(len(legal))]}); err != nil {
							b.Fatal(err)
						}
					}
					if !v.Status().Over() {
						if v, err = s.Begin(ctx, Request{Actor: who(alice)}).Resign(v.ID()); err != nil {
							b.Fatal(err)
						}
					}
					g := v.g
					data, _ := encodeGame(&g)
					record = len(data)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(record), "record-B/game")
			b.ReportMetric(float64(fileSize(b, path)-before)/float64(games*b.N), "file-B/game")
		})
	}
}

func fileSize(b *testing.B, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}
