package session

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/boltstore"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
)

// BenchmarkFootprint measures what a long-lived bot holds: a store of
// 100 000 finished games and 1000 running ones, reopened, swept and read
// as after a restart. It reports the process's resident set (VmRSS), the
// live heap and the file's size. Run it alone, as its RSS includes the
// test binary:
//
//	go test ./session -run '^$' -bench Footprint -benchtime 1x
func BenchmarkFootprint(b *testing.B) {
	const finished, running = 100_000, 1000
	path := filepath.Join(b.TempDir(), "bot.db")
	st, err := openBolt(path, &boltstore.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	won := []engine.Point{{X: 0, Y: 0}, {X: 0, Y: 1}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 0}}
	gomoku, _ := engine.Preset("gomoku")
	put := func(from, to int, mk func(i int) Game) {
		for lo := from; lo < to; lo += 1000 {
			err := st.Update(context.Background(), func(kt kv.Tx) error {
				tx := layout{kt}
				for i := lo; i < min(lo+1000, to); i++ {
					if err := tx.PutGame(mk(i)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	put(0, finished, func(i int) Game {
		return Game{
			ID: GameID(strconv.Itoa(i)), Platform: "telegram", Chat: strconv.Itoa(i % 5000), Message: strconv.Itoa(i),
			Rules: engine.TicTacToe(), Seats: [2]Seat{{User: User{ID: strconv.Itoa(i % 20000), Name: "player"}}, {AI: engine.Medium}},
			Moves: won, Status: Won, Winner: engine.Black, Version: 1, Seed: uint64(i), Created: now, Updated: now,
		}
	})
	put(finished, finished+running, func(i int) Game {
		return Game{
			ID: GameID(strconv.Itoa(i)), Platform: "telegram", Chat: strconv.Itoa(i), Message: "1",
			Rules: gomoku, Seats: [2]Seat{{User: User{ID: strconv.Itoa(i), Name: "player"}}, {AI: engine.Hard}},
			Moves: []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}}, Status: Running, Version: 1, Seed: uint64(i),
			Created: now, Updated: now, Deadline: now.Add(DefaultIdleAI),
		}
	})
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	debug.FreeOSMemory()

	for range b.N {
		// A restart: open the file, sweep (nothing is due yet), and read
		// every running game as the adapters would on their next taps.
		st, err := openBolt(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		svc := New(st, &Config{Now: func() time.Time { return now.Add(time.Hour) }})
		if _, err := svc.Sweep(context.Background()); err != nil {
			b.Fatal(err)
		}
		for i := finished; i < finished+running; i++ {
			if _, err := svc.Game(context.Background(), GameID(strconv.Itoa(i))); err != nil {
				b.Fatal(err)
			}
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(vmRSS(b))/(1<<20), "RSS-MiB")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(info.Size())/(1<<20), "file-MiB")
		st.Close()
	}
}

// vmRSS returns the process's resident set size in bytes, from /proc.
func vmRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
