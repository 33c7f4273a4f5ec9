package session

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// BenchmarkFinishedGameBytes measures what a finished game costs on
// bbolt: 20 000 finished duels of 40 moves on 15×15 between 2000 players
// in 200 chats, each with its history entries. It reports the file's
// bytes per game and the raw bytes (keys and values) of the game record
// and of its history entries:
//
//	go test ./session -run '^$' -bench FinishedGameBytes -benchtime 1x
func BenchmarkFinishedGameBytes(b *testing.B) {
	const games = 20_000
	for range b.N {
		path := filepath.Join(b.TempDir(), "bot.db")
		st, err := openBolt(path, &boltstore.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		gomoku, _ := engine.Preset("gomoku")
		var moves []engine.Point
		for i := range 40 {
			moves = append(moves, engine.Point{X: i % 15, Y: i / 15 * 3})
		}
		start := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
		for lo := 0; lo < games; lo += 500 {
			err := st.Update(context.Background(), func(kt kv.Tx) error {
				tx := layout{kt}
				for i := lo; i < lo+500; i++ {
					at := start.Add(time.Duration(i) * time.Minute)
					g := Game{
						ID: GameID(strconv.FormatInt(int64(i+1), 36)), Platform: "telegram", Chat: "-100" + strconv.Itoa(1e9+i%200), Message: strconv.Itoa(i),
						Rules: gomoku, Seats: [2]Seat{{User: User{ID: strconv.Itoa(1e8 + i%2000), Name: "player one"}}, {User: User{ID: strconv.Itoa(1e8 + (i+7)%2000), Name: "player two"}}},
						Moves: moves, Status: Resigned, Winner: engine.Black, Version: 1, Created: at, Updated: at,
					}
					if err := tx.PutGame(g); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		sizes := map[string]int{}
		err = st.View(context.Background(), func(tx kv.Tx) error {
			for _, bk := range [][]byte{bucketGames, bucketHistory, bucketChatHistory, bucketEnded} {
				if err := tx.Scan(bk, nil, nil, func(k, v []byte) bool { sizes[string(bk)] += len(k) + len(v); return true }); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/games, "file-B/game")
		b.ReportMetric(float64(sizes["games"])/games, "record-B/game")
		b.ReportMetric(float64(sizes["history"]+sizes["chathistory"]+sizes["ended"])/games, "history-B/game")
	}
}
