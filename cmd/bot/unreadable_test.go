package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/adapters/console"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/kv"
)

// secretRecord is what the tests leave in place of a record: a newer
// release's, holding bytes that must never reach a log.
const secretRecord = `{"v":99,"note":"TOPSECRET-record-bytes"}`

// overwrite replaces the stored value under key in bucket of the bbolt
// file, as a newer release or a damaged disk would.
func overwrite(t *testing.T, db *bolt.DB, bucket, key string) {
	t.Helper()
	err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucket)).Put([]byte(key), []byte(secretRecord)) })
	if err != nil {
		t.Fatal(err)
	}
}

func TestUnreadableRecordsAreCountedAndNamedOnce(t *testing.T) {
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var logged watchedBuffer
	m := newMetrics(liveCount(store))
	svc := session.New(store, &session.Config{
		Now:          func() time.Time { return now },
		OnUnreadable: m.onUnreadable(slog.New(slog.NewTextHandler(&logged, nil))),
	})
	ctx := context.Background()
	actor := func(id string) session.Actor {
		return session.Actor{Platform: "test", Chat: "c", User: session.User{ID: id, Name: "user" + id}}
	}
	bad, err := svc.Begin(ctx, session.Request{Actor: actor("1")}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe()})
	if err != nil {
		t.Fatal(err)
	}
	good, err := svc.Begin(ctx, session.Request{Actor: actor("2")}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe()})
	if err != nil {
		t.Fatal(err)
	}
	// A player of the chat's leaderboard, whose stats are then damaged.
	err = store.Update(ctx, func(tx kv.Tx) error {
		if err := tx.Put([]byte("stats"), []byte("test\x003"), []byte("{}")); err != nil {
			return err
		}
		return tx.Put([]byte("chatplayers"), []byte("test\x00c\x003"), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	overwrite(t, store.DB(), "games", string(bad.ID()))
	overwrite(t, store.DB(), "stats", "test\x003")
	now = now.Add(session.DefaultChallengeTTL)

	// Three sweeper passes and a look at the chat's games each skip the
	// bad game; the good challenge lapses in the first pass.
	for i := range 3 {
		n, err := svc.Sweep(ctx)
		if err != nil || n != 1-min(i, 1) {
			t.Fatalf("sweep %d: ended %d, %v", i, n, err)
		}
	}
	if v, err := svc.Game(ctx, good.ID()); err != nil || v.Status() != session.Lapsed {
		t.Fatalf("good challenge: %s, %v", v.Status(), err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: actor("2")}).Live(); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Begin(ctx, session.Request{Actor: actor("2")}).Leaderboard(session.ByRating); err != nil {
		t.Fatal(err)
	}

	srv := httptest.NewServer(opsHandler(m, store, store, backupConfig{}, slog.New(slog.DiscardHandler)))
	defer srv.Close()
	_, body := get(t, srv.URL+"/metrics")
	for _, want := range []string{
		`boardbot_unreadable_records_total{kind="game"} 4`,
		`boardbot_unreadable_records_total{kind="stats"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	log := logged.String()
	if n := strings.Count(log, "level=WARN"); n != 2 {
		t.Errorf("%d warnings, want one per record:\n%s", n, log)
	}
	for _, want := range []string{"kind=game id=" + string(bad.ID()) + "\n", "kind=stats id=test:3\n"} {
		if strings.Count(log, want) != 1 {
			t.Errorf("the log names %q %d times, want once:\n%s", want, strings.Count(log, want), log)
		}
	}
	if strings.Contains(log, "TOPSECRET") || strings.Contains(body, "TOPSECRET") {
		t.Errorf("a record's contents were logged:\n%s", log)
	}
}

// TestRunSkipsAnUnreadableGameInTheTerminal starts the program on a file
// whose terminal game is unreadable: the player gets a new game, and the
// log names the bad record once, without its contents.
func TestRunSkipsAnUnreadableGameInTheTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	store, err := boltstore.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	who := session.Actor{Platform: console.Platform, Chat: "terminal", User: session.User{ID: "local", Name: "ann"}}
	v, err := session.New(store, nil).Begin(context.Background(), session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy})
	if err != nil {
		t.Fatal(err)
	}
	overwrite(t, store.DB(), "games", string(v.ID()))
	store.Close()

	var out, errOut strings.Builder
	err = run(context.Background(), []string{"-db", db}, env(map[string]string{"USER": "ann"}), strings.NewReader("/play\n5\n"), &out, &errOut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "❌ ann  vs  ⭕ AI (medium)") {
		t.Fatalf("no new game beside the unreadable one:\n%s\nlog:\n%s", out.String(), errOut.String())
	}
	log := errOut.String()
	if strings.Count(log, "id="+string(v.ID())+"\n") != 1 || strings.Contains(log, "TOPSECRET") {
		t.Fatalf("the log should name game %s once and never its contents:\n%s", v.ID(), log)
	}
}
