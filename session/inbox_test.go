package session

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
)

func TestInboxKeepsUpdatesUntilHandledAcrossReopen(t *testing.T) {
	st, path := mustOpenStore(t)
	s := newTestService(st, 1)
	items := []InboxItem{{ID: 300, Data: []byte("c")}, {ID: -5, Data: []byte("a")}, {ID: 7, Data: []byte("b")}}
	if _, _, err := s.Receive(ctx, "telegram", items); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Receive(ctx, "telegramx", []InboxItem{{ID: 1, Data: []byte("other platform")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Handled(ctx, "telegram", Finished{Update: "7"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Handled(ctx, "telegram", Finished{Update: "12345"}); err != nil {
		t.Fatalf("handling an unknown update: %v", err)
	}
	checkAndClose(t, st)

	st2, err := openBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checkAndClose(t, st2) })
	got, err := newTestService(st2, 1).Pending(ctx, "telegram")
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprintf("%v", got); s != "[{-5 [97]} {300 [99]}]" {
		t.Fatalf("pending after reopen: %s, want ids -5 and 300 in order", s)
	}
}

// receiver returns a function that hands updates ids to s.Receive and
// says what it reported.
func receiver(t *testing.T) func(s *Service, ids ...int64) string {
	return func(s *Service, ids ...int64) string {
		t.Helper()
		var items []InboxItem
		for _, id := range ids {
			items = append(items, InboxItem{ID: id, Data: []byte(fmt.Sprint(id))})
		}
		done, held, err := s.Receive(ctx, "tg", items)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("done %v held %v", done, held)
	}
}

// reclaimed returns the ids s.Reclaim took, s handling every update it
// keeps.
func reclaimed(t *testing.T, s *Service) string {
	t.Helper()
	items, err := s.Reclaim(ctx, "tg", func(int64) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	return itemIDs(items)
}

// itemIDs returns the ids of items, as fmt prints a slice.
func itemIDs(items []InboxItem) string {
	ids := make([]int64, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return fmt.Sprint(ids)
}

// sharedServices returns two services, as two replicas, on one embedded
// etcd cluster, with the clock c.
func sharedServices(t *testing.T, c *clock) (one, two *Service) {
	cl := etcdtest.Start(t, 1)
	return newClockService(cl.Store(t, "inbox/"), c, 1, Config{}), newClockService(cl.Store(t, "inbox/"), c, 2, Config{})
}

func TestInboxClaimsHoldUpdatesForTheirKeeper(t *testing.T) {
	c := newClock()
	one, two := sharedServices(t, c)
	receive := receiver(t)
	if got := receive(one, 1, 2); got != "done [] held []" {
		t.Fatalf("first delivery: %s", got)
	}
	// A copy delivered to another replica is left to the keeper; the
	// keeper itself takes its own copy again (a replay after a crash).
	if got := receive(two, 2, 3); got != "done [] held [2]" {
		t.Fatalf("copy at the other replica: %s, want 2 held", got)
	}
	if got := receive(one, 2); got != "done [] held []" {
		t.Fatalf("copy at the keeper: %s", got)
	}
	// A replica that starts, or reclaims, leaves a live replica's
	// updates to it; the keeper renews its claims as it reclaims.
	if got := reclaimed(t, two); got != "[]" {
		t.Fatalf("reclaimed %s from a live replica", got)
	}
	c.Advance(ClaimTTL - time.Second)
	if got := reclaimed(t, one); got != "[]" {
		t.Fatalf("the keeper reclaimed its own updates: %s", got)
	}
	c.Advance(2 * time.Second)
	if got := receive(two, 1); got != "done [] held [1]" {
		t.Fatalf("copy of a renewed claim: %s, want 1 held", got)
	}
	// Claims not renewed within ClaimTTL are a dead replica's: taken
	// over, by a copy or by Reclaim, once.
	c.Advance(ClaimTTL)
	if got := receive(two, 1); got != "done [] held []" {
		t.Fatalf("copy after the claim expired: %s", got)
	}
	if got := reclaimed(t, two); got != "[2]" {
		t.Fatalf("reclaimed %s after the claims expired, want [2] (1 it took, 3 is its own)", got)
	}
	if got := reclaimed(t, one); got != "[]" {
		t.Fatalf("the first keeper took back %s", got)
	}
	if got := receive(one, 1); got != "done [] held [1]" {
		t.Fatalf("copy at the first keeper after the take-over: %s", got)
	}
}

func TestReleasedUpdatesAreTakenOverAtOnce(t *testing.T) {
	c := newClock()
	one, two := sharedServices(t, c)
	receive := receiver(t)
	receive(one, 5, 6)
	receive(two, 7)
	if err := one.Release(ctx, "tg"); err != nil {
		t.Fatal(err)
	}
	if got := reclaimed(t, two); got != "[5 6]" {
		t.Fatalf("reclaimed %s after a release, want [5 6]", got)
	}
}

func TestReclaimReturnsOwnUpdatesNoLongerHandled(t *testing.T) {
	c := newClock()
	one, two := sharedServices(t, c)
	receiver(t)(one, 8, 9)
	// One handles 8 still; its handling of 9 ended without clearing it.
	items, err := one.Reclaim(ctx, "tg", func(id int64) bool { return id == 8 })
	if err != nil || itemIDs(items) != "[9]" {
		t.Fatalf("reclaimed %v, %v; want [9], to handle again", items, err)
	}
	if got := reclaimed(t, two); got != "[]" {
		t.Fatalf("the other replica took %s from a live one", got)
	}
}

func TestAStoreNobodySharesHoldsNoClaimOfAnother(t *testing.T) {
	st, _ := mustOpenStore(t)
	c := newClock()
	gone, now := newClockService(st, c, 1, Config{}), newClockService(st, c, 2, Config{})
	receive := receiver(t)
	receive(gone, 1, 2)
	// On a bbolt file another holder is a process that stopped: its
	// updates are taken at once.
	if got := receive(now, 2); got != "done [] held []" {
		t.Fatalf("copy of a stopped process's update: %s", got)
	}
	if got := reclaimed(t, now); got != "[1]" {
		t.Fatalf("reclaimed %s, want [1]", got)
	}
}

func TestInboxReadsRecordsOfTheEarlierRelease(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	// An earlier release kept the update's bytes alone, and its claim
	// in a bucket of its own.
	if err := st.Update(ctx, func(tx kv.Tx) error { return tx.Put(bucketInbox, inboxKey("tg", 9), []byte("old")) }); err != nil {
		t.Fatal(err)
	}
	got, err := s.Pending(ctx, "tg")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != 9 || string(got[0].Data) != "old" {
		t.Fatalf("pending: %v, want update 9 with its bytes", got)
	}
	if done, held, err := s.Receive(ctx, "tg", []InboxItem{{ID: 9, Data: []byte("old")}}); err != nil || len(done)+len(held) != 0 {
		t.Fatalf("receiving the unclaimed update again: done %v held %v err %v", done, held, err)
	}
	if err := s.Handled(ctx, "tg", Finished{Update: "9"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Pending(ctx, "tg"); err != nil || len(got) != 0 {
		t.Fatalf("pending after handling: %v %v", got, err)
	}
}

func TestConcurrentReceivesAndHandledsCommitEachUpdate(t *testing.T) {
	st, _ := mustOpenStore(t)
	s := newTestService(st, 1)
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, 3*n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each update comes twice at once (a platform retry), and
			// even updates are handled right after.
			id := int64(i)
			for range 2 {
				if done, held, err := s.Receive(ctx, "tg", []InboxItem{{ID: id, Data: []byte{byte(i)}}}); err != nil || len(done)+len(held) != 0 {
					errs <- fmt.Errorf("receive %d: done %v held %v err %v", id, done, held, err)
				}
			}
			if i%2 == 0 {
				errs <- s.Handled(ctx, "tg", Finished{Update: fmt.Sprint(id)})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Pending(ctx, "tg")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n/2 {
		t.Fatalf("%d updates pending, want the %d odd ones", len(got), n/2)
	}
	for i, it := range got {
		if it.ID != int64(2*i+1) || len(it.Data) != 1 || it.Data[0] != byte(it.ID) {
			t.Fatalf("pending update %d: %v, want id %d", i, it, 2*i+1)
		}
	}
	done, _, err := s.Receive(ctx, "tg", []InboxItem{{ID: 0}, {ID: 1}})
	if err != nil || fmt.Sprint(done) != "[0]" {
		t.Fatalf("handled update 0 and kept update 1 received again: done %v, err %v", done, err)
	}
}
