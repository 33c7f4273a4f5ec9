package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// get returns the status and body of a GET of url.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestOpsEndpoints(t *testing.T) {
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m := newMetrics(liveCount(store))
	svc := session.New(store, &session.Config{Observer: m, NewSeed: func() uint64 { return 1 }})
	ctx := context.Background()
	ann := session.Actor{Platform: "test", Chat: "c", User: session.User{ID: "1", Name: "ann"}}
	v, err := svc.Begin(ctx, session.Request{Actor: ann}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Hard, Side: session.First})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: ann}).Place(session.PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 1, Y: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: ann}).Place(session.PlaceRequest{Game: v.ID(), MoveNo: 0, Cell: engine.Point{X: 0, Y: 0}}); !errors.Is(err, session.ErrStale) {
		t.Fatal(err)
	}
	m.onUpdate("test")("callback")
	m.onAPIError("test")(429)

	srv := httptest.NewServer(opsHandler(m, store, store, backupConfig{Token: testBackupToken}, slog.New(slog.DiscardHandler)))
	defer srv.Close()
	code, body := get(t, srv.URL+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`boardbot_moves_total{by="human",platform="test"} 1`,
		`boardbot_moves_total{by="ai",platform="test"} 1`,
		`boardbot_refusals_total{platform="test",reason="stale"} 1`,
		`boardbot_ai_think_seconds_count{board="3x3",level="hard"} 1`,
		`boardbot_store_commit_seconds_count 2`,
		`boardbot_active_games 1`,
		`boardbot_updates_total{kind="callback",platform="test"} 1`,
		`boardbot_platform_api_errors_total{code="429",platform="test"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, body := get(t, srv.URL+"/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}

	// A backup taken while the store is open is a consistent database
	// holding the game.
	code, snap := getBackup(t, srv.URL+"/backup", "Bearer "+testBackupToken)
	if code != http.StatusOK || len(snap) == 0 {
		t.Fatalf("/backup: %d, %d bytes", code, len(snap))
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(path, []byte(snap), 0o600); err != nil {
		t.Fatal(err)
	}
	copyStore, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer copyStore.Close()
	err = copyStore.DB().View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatalf("backup check: %v", err)
	}
	w, err := session.New(copyStore, nil).Game(ctx, v.ID())
	if err != nil || w.MoveNo() != 2 {
		t.Fatalf("game in the backup: %d moves, %v", w.MoveNo(), err)
	}

	// With the database closed, the bot is not healthy.
	store.Close()
	if code, _ := get(t, srv.URL+"/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("/healthz on a closed database: %d", code)
	}
}

func TestServeFinishesWorkInHand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, finish, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		<-finish // a move in flight
		close(finished)
		return nil
	}
	quits := func(ctx context.Context) error { <-ctx.Done(); return nil }
	done := make(chan error)
	go func() { done <- serve(ctx, []server{slow, quits}, 0) }()
	<-started
	cancel()
	select {
	case err := <-done:
		t.Fatalf("serve returned with work in hand: %v", err)
	case finish <- struct{}{}:
	}
	<-finished
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestServeGivesUpAfterTheShutdownTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stuck := make(chan struct{})
	defer close(stuck)
	err := serve(ctx, []server{func(context.Context) error { <-stuck; return nil }}, 1)
	if !errors.Is(err, errShutdownTimeout) {
		t.Fatalf("serve with a stuck server: %v", err)
	}
}
