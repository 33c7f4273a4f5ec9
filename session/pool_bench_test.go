package session

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// BenchmarkSmallTapsDuringHardFlood measures 3×3 taps against hard (the
// real engine) while 16 players flood the AI pool with hard 19×19 moves
// (think time 200 ms, default workers and queue), and with 128 flooding,
// more than the pool's workers and queue hold. It reports the 3×3 taps
// per second, their p50 and p99 latency, and how many flood moves were
// played and refused as busy (a refused flooder retries after 100 ms).
func BenchmarkSmallTapsDuringHardFlood(b *testing.B) {
	for _, n := range []int{16, 128} {
		b.Run(fmt.Sprint("flooders=", n), func(b *testing.B) { smallTapsDuringFlood(b, n) })
	}
}

func smallTapsDuringFlood(b *testing.B, flooders int) {
	st, _ := benchStore(b)
	var seed atomic.Uint64
	svc := New(st, &Config{ThinkTime: 200 * time.Millisecond, NewSeed: func() uint64 { return seed.Add(1) }})
	g19, _ := engine.Preset("gomoku19")

	stop := make(chan struct{})
	var flood sync.WaitGroup
	var played, busy atomic.Int64
	for i := range flooders {
		flood.Add(1)
		go func() {
			defer flood.Done()
			who := Actor{Platform: "bench", Chat: "flood", User: User{ID: fmt.Sprint("f", i)}}
			for {
				v, err := svc.Begin(ctx, Request{Actor: who}).Start(StartRequest{Rules: g19, Level: engine.Hard, Side: First})
				if err != nil {
					b.Error(err)
					return
				}
				for v.Status() == Running {
					select {
					case <-stop:
						return
					default:
					}
					cell := v.Board().LegalMoves()[0]
					w, err := svc.Begin(ctx, Request{Actor: who}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: cell})
					switch {
					case errors.Is(err, ErrBusy):
						// A person told "busy" tries again a moment later.
						busy.Add(1)
						time.Sleep(100 * time.Millisecond)
						continue
					case err != nil:
						b.Error(err)
						return
					}
					played.Add(1)
					v = w
				}
			}
		}()
	}

	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; {
		who := Actor{Platform: "bench", Chat: "small", User: User{ID: fmt.Sprint("s", i)}}
		v, err := svc.Begin(ctx, Request{Actor: who}).Start(StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard, Side: First})
		if err != nil {
			b.Fatal(err)
		}
		for v.Status() == Running && i < b.N {
			t0 := time.Now()
			w, err := svc.Begin(ctx, Request{Actor: who}).Place(PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: v.Board().LegalMoves()[0]})
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t0))
			v, i = w, i+1
		}
		if v.Status() == Running {
			if _, err := svc.Begin(ctx, Request{Actor: who}).Resign(v.ID()); err != nil {
				b.Fatal(err)
			}
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	close(stop)
	flood.Wait()
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "taps/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(played.Load()), "flood-moves")
	b.ReportMetric(float64(busy.Load()), "flood-busy")
}
