package adapters

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// TestCommandsBesideAnUnreadableGame leaves in a chat a duel whose record
// a newer release wrote, and checks that /accept, typed moves and /cancel
// still work there for everyone.
func TestCommandsBesideAnUnreadableGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	st, err := boltstore.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := &fakeClock{t: time.Unix(1e9, 0)}
	seed := uint64(0)
	svc := session.New(st, &session.Config{Now: c.Now, NewSeed: func() uint64 { seed++; return seed }})
	d := NewDispatcher(svc, "test", "", nil)

	// A duel of bob and carol, then unreadable.
	old := read(d.Text(ctx, req("bob"), "/duel @carol first")).Game
	if old == nil {
		t.Fatal("no challenge")
	}
	if r := read(d.Text(ctx, req("carol"), "/accept")); r.Game == nil || r.Game.Status() != session.Running {
		t.Fatalf("carol accepts: %+v", r)
	}
	err = st.DB().Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games")).Put([]byte(old.ID()), []byte(`{"v":99,"id":"`+string(old.ID())+`","status":"running"}`))
	})
	if err != nil {
		t.Fatal(err)
	}

	ch := read(d.Text(ctx, req("alice"), "/duel @bob first")).Game
	if ch == nil {
		t.Fatal("no challenge from alice")
	}
	acc := read(d.Text(ctx, req("bob"), "/accept"))
	if acc.Game == nil || acc.Game.ID() != ch.ID() || acc.Game.Status() != session.Running {
		t.Fatalf("bob's /accept beside the unreadable duel: %+v", acc)
	}
	for i, mv := range []struct{ who, cell string }{{"alice", "a3"}, {"bob", "a2"}, {"carol", "c1"}} {
		r := read(d.Text(ctx, req(mv.who), mv.cell))
		switch {
		case mv.who == "carol" && !r.empty():
			t.Fatalf("carol, whose only duel is unreadable, typed a move: %+v", r)
		case mv.who != "carol" && (r.Game == nil || r.Game.ID() != ch.ID() || r.Game.MoveNo() != i+1):
			t.Fatalf("typed move %d (%s %s): %+v", i, mv.who, mv.cell, r)
		}
	}
	read(d.Text(ctx, req("carol"), "/duel"))
	if r := read(d.Text(ctx, req("carol"), "/cancel")); r.Game == nil || r.Game.Status() != session.Cancelled {
		t.Fatalf("carol's /cancel: %+v", r)
	}
}
