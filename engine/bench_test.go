package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// midgame15 are fixed 15×15 middle-game positions (moves from an empty
// board) for the benchmarks and the pinned search.
var midgame15 = [][]Point{
	{{7, 7}, {7, 6}, {6, 8}, {5, 9}, {8, 8}, {6, 7}, {5, 8}, {9, 8}, {7, 9}, {7, 8}, {9, 9}, {6, 6}, {5, 6}, {8, 9}, {10, 10}, {11, 11}, {10, 11}, {8, 7}, {10, 9}, {10, 8}},
	{{7, 7}, {8, 6}, {7, 5}, {7, 6}, {6, 6}, {5, 7}, {4, 4}, {5, 5}, {5, 6}, {4, 6}, {6, 4}, {3, 5}, {2, 4}, {6, 7}, {8, 5}, {7, 9}, {6, 8}, {4, 7}, {3, 7}, {4, 9}, {4, 5}, {4, 8}},
	{{7, 7}, {8, 8}, {6, 8}, {9, 5}, {7, 9}, {6, 9}, {7, 10}, {7, 11}, {7, 8}, {7, 6}, {5, 9}, {8, 6}, {4, 10}, {3, 11}, {5, 7}, {8, 10}, {8, 7}, {6, 7}, {5, 6}, {5, 8}, {8, 5}, {4, 9}, {3, 10}, {5, 10}},
}

// benchPositions returns the middle-game positions on a size×size board:
// the 15×15 ones, shifted to the middle of larger boards.
func benchPositions(b *testing.B, size int) []*Board {
	b.Helper()
	return benchPositionsFor(b, Rules{size, size, 5, false, false})
}

// benchPositionsFor returns the middle-game positions on a board of rules
// r, square, shifted to its middle.
func benchPositionsFor(b *testing.B, r Rules) []*Board {
	b.Helper()
	size := r.Width
	off := (size - 15) / 2
	var bs []*Board
	for _, moves := range midgame15 {
		shifted := make([]Point, len(moves))
		for i, m := range moves {
			shifted[i] = Point{m.X + off, m.Y + off}
		}
		bs = append(bs, mustPlayTB(b, r, shifted...))
	}
	return bs
}

// BenchmarkSearchNodes reports the search speed in nodes (moves made) per
// second, one thread, on the fixed middle-game positions.
func BenchmarkSearchNodes(b *testing.B) {
	benchSearchNodes(b, benchPositions(b, 15))
}

// BenchmarkSearchNodesRenju is BenchmarkSearchNodes under renju, where
// Black's candidate moves are checked for fouls.
func BenchmarkSearchNodesRenju(b *testing.B) {
	benchSearchNodes(b, benchPositionsFor(b, Rules{Width: 15, Height: 15, K: 5, Renju: true}))
}

// benchSearchNodes reports the search speed on positions.
func benchSearchNodes(b *testing.B, positions []*Board) {
	var nodes int64
	var elapsed time.Duration
	for b.Loop() {
		for _, board := range positions {
			p := newPos(board)
			tt := getTT(DefaultTTBytes, true)
			s := newSearcher(p, tt, newLimits(context.Background(), 0, 500_000))
			start := time.Now()
			s.best()
			elapsed += time.Since(start)
			nodes += s.nodes
			putTT(tt)
		}
	}
	b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkMove reports the time one move takes per level at 15×15 and
// 19×19 with the default options (hard thinks DefaultThinkTime), as
// p50 and p99 over the positions and iterations.
func BenchmarkMove(b *testing.B) {
	for _, size := range []int{15, 19} {
		for _, l := range Levels {
			b.Run(fmt.Sprintf("%v/%dx%d", l, size, size), func(b *testing.B) {
				positions := benchPositions(b, size)
				var times []time.Duration
				for i := 0; b.Loop(); i++ {
					for _, board := range positions {
						ai, _ := NewPlayer(l, rand.New(rand.NewPCG(uint64(i), 1)))
						start := time.Now()
						if _, err := ai.Move(context.Background(), board); err != nil {
							b.Fatal(err)
						}
						times = append(times, time.Since(start))
					}
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[(len(times)*99)/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}

// BenchmarkHardMoveHeap reports the peak heap growth during one hard move
// at 19×19 with the default 16 MiB table, sampled every millisecond, and
// the bytes allocated per move. The pool is drained first so that the
// table's allocation is counted.
func BenchmarkHardMoveHeap(b *testing.B) {
	board := benchPositions(b, 19)[0]
	var peak, allocated uint64
	for b.Loop() {
		ttPools.Clear()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base, baseTotal := ms.HeapAlloc, ms.TotalAlloc
		done := make(chan struct{})
		sampled := make(chan uint64)
		go func() {
			var top uint64
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapAlloc)
				select {
				case <-done:
					sampled <- top
					return
				case <-tick.C:
				}
			}
		}()
		ai, _ := NewPlayer(Hard, rand.New(rand.NewPCG(1, 1)))
		if _, err := ai.Move(context.Background(), board); err != nil {
			b.Fatal(err)
		}
		close(done)
		top := <-sampled
		runtime.ReadMemStats(&ms)
		peak = max(peak, top-min(top, base))
		allocated = max(allocated, ms.TotalAlloc-baseTotal)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(allocated)/(1<<20), "alloc-MiB/move")
}
