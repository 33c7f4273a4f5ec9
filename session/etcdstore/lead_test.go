package etcdstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// contender runs Lead on st until the test ends and tells leading of
// each turn it gets.
func contender(t testing.TB, st *etcdstore.Store, id string, leading chan<- string) context.CancelFunc {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.Lead(ctx, "sweeper", id, 1, func(ctx context.Context) {
			leading <- id
			<-ctx.Done()
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	return cancel
}

// takeover has a leads, then kills a's client (its lease is not revoked,
// as when its process dies) and returns how long b took to lead.
func takeover(t testing.TB, c *etcdtest.Cluster, prefix string) time.Duration {
	a, b := c.Store(t, prefix), c.Store(t, prefix)
	leading := make(chan string, 2)
	contender(t, a, "a", leading)
	if got := <-leading; got != "a" {
		t.Fatalf("%s leads first, want a", got)
	}
	contender(t, b, "b", leading)
	if id, err := b.Leader(context.Background(), "sweeper"); err != nil || id != "a" {
		t.Fatalf("leader %q, %v; want a", id, err)
	}
	start := time.Now()
	a.Client().Close()
	select {
	case got := <-leading:
		if got != "b" {
			t.Fatalf("%s took over, want b", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("nobody took over")
	}
	return time.Since(start)
}

// TestLeadTakesOverWhenTheLeaderDies runs two replicas' background job
// under Lead: only the first runs it until its process dies, and then the
// other takes over by itself.
func TestLeadTakesOverWhenTheLeaderDies(t *testing.T) {
	c := etcdtest.Start(t, 1)
	t.Logf("takeover after %v", takeover(t, c, "lead/"))
}

// TestHoldRefusesASecondHolder takes a lock twice: the second is refused
// at once, and succeeds once the first is released.
func TestHoldRefusesASecondHolder(t *testing.T) {
	c := etcdtest.Start(t, 1)
	a, b := c.Store(t, "hold/"), c.Store(t, "hold/")
	release, _, err := a.Hold(context.Background(), "poller")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Hold(context.Background(), "poller"); !errors.Is(err, etcdstore.ErrHeld) {
		t.Fatalf("a second holder: %v, want ErrHeld", err)
	}
	release()
	release2, _, err := b.Hold(context.Background(), "poller")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	release2()
}
