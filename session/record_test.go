package session

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
)

func sampleGame() Game {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	return Game{
		ID: "a1", Platform: "telegram", Chat: "-100", Message: "77", Rules: engine.Rules{Width: 15, Height: 15, K: 5, Exact: true},
		Seats: [2]Seat{{User: alice}, {AI: engine.Hard}}, Moves: []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}, {X: 14, Y: 0}},
		Status: Running, Version: 4, Seed: 99, Created: now, Updated: now.Add(time.Minute),
	}
}

func TestRecordRoundTrip(t *testing.T) {
	g := sampleGame()
	data, err := encodeGame(&g)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeGame(data)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := encodeGame(&got)
	if string(a) != string(data) {
		t.Fatalf("round trip changed the record:\n%s\n%s", data, a)
	}
	if got.Moves[2] != (engine.Point{X: 14, Y: 0}) || !got.Updated.Equal(g.Updated) || got.Seats[1].AI != engine.Hard {
		t.Fatalf("decoded %+v", got)
	}
}

func TestDecodeRefusesBadRecords(t *testing.T) {
	g := sampleGame()
	good, _ := encodeGame(&g)
	tests := map[string]string{
		"newer schema":    strings.Replace(string(good), `"v":2`, `"v":3`, 1),
		"no schema":       strings.Replace(string(good), `"v":2,`, ``, 1),
		"truncated":       string(good[:len(good)/2]),
		"not json":        "\x00\x01garbage",
		"empty":           "",
		"bad rules":       strings.Replace(string(good), `"w":15`, `"w":99`, 1),
		"move off board":  strings.Replace(string(good), `"moves":[112`, `"moves":[900`, 1),
		"repeated move":   strings.Replace(string(good), `"moves":[112,128,14]`, `"moves":[112,112]`, 1),
		"bad level":       strings.Replace(string(good), `"ai":3`, `"ai":7`, 1),
		"bad status":      strings.Replace(string(good), `"status":"running"`, `"status":"paused"`, 1),
		"won but running": strings.Replace(string(good), `"status":"running"`, `"status":"won"`, 1),
	}
	for name, data := range tests {
		if data == string(good) {
			t.Fatalf("%s: the replacement did not apply to %s", name, good)
		}
		if _, err := decodeGame([]byte(data)); !errors.Is(err, ErrSchema) {
			t.Errorf("%s: err = %v, want ErrSchema", name, err)
		}
	}
}

func FuzzDecodeGame(f *testing.F) {
	g := sampleGame()
	good, _ := encodeGame(&g)
	f.Add(good)
	f.Add([]byte(`{"v":1}`))
	f.Add([]byte(`{"v":1,"rules":{"w":3,"h":3,"k":3},"moves":[4,4],"status":"running"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := decodeGame(data)
		if err != nil {
			if !errors.Is(err, ErrSchema) {
				t.Fatalf("error %v does not wrap ErrSchema", err)
			}
			return
		}
		// Whatever decodes re-encodes to something that decodes the same.
		again, err := encodeGame(&g)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeGame(again); err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
	})
}

func TestSecondOpenFailsFast(t *testing.T) {
	_, path := mustOpenStore(t)
	_, err := OpenBolt(path, &BoltOptions{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open = %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), filepath.Base(path)) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestPutGameRefusesStaleVersion(t *testing.T) {
	st, _ := mustOpenStore(t)
	g := sampleGame()
	g.Version = 1
	put := func(g Game) error { return st.Update(ctx, func(tx Tx) error { return tx.PutGame(g) }) }
	if err := put(g); err != nil {
		t.Fatal(err)
	}
	if err := put(g); !errors.Is(err, ErrConflict) {
		t.Fatalf("same version twice = %v, want ErrConflict", err)
	}
	g.Version = 3
	if err := put(g); !errors.Is(err, ErrConflict) {
		t.Fatalf("skipped version = %v, want ErrConflict", err)
	}
	g.Version = 2
	if err := put(g); err != nil {
		t.Fatal(err)
	}
}
