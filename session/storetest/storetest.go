// Package storetest is the contract every storage engine under session
// passes: Run checks a kv.Store's transactions (reads, writes, scans,
// atomicity, optimistic concurrency under contention) and plays games of
// the session layer on it, from two handles on the same data as two
// replicas would.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/kv"
)

// Open returns two handles on one new, empty store: the same one twice
// for an engine that one process owns, two clients for one that replicas
// share. They are closed when the test ends.
type Open func(t *testing.T) (a, b kv.Store)

// Run runs the contract suite on stores that open gives.
func Run(t *testing.T, open Open) {
	for _, c := range []struct {
		name string
		fn   func(*testing.T, kv.Store, kv.Store)
	}{
		{"GetPutDelete", testGetPutDelete},
		{"Scan", testScan},
		{"FailedUpdateWritesNothing", testFailed},
		{"ViewIsReadOnly", testViewReadOnly},
		{"CountersAddUp", testCounters},
		{"ScansSeeInserts", testPhantoms},
		{"SequencesAreUnique", testSequence},
		{"TxnReadsItsWritesAndCommitsThemTogether", testTxnCommit},
		{"TxnTransfersAddUp", testTxnTransfers},
		{"TxnConflicts", testTxnConflicts},
		{"TxnIdleAndReadOnly", testTxnIdle},
		{"TxnSequencesAreUnique", testTxnSequence},
		{"TxnAssumeAbsent", testTxnAssumeAbsent},
		{"GetAll", testGetAll},
		{"Watch", testWatch},
		{"GamesOnTwoHandles", testGames},
		{"UpdateTakesEffectOnce", testUpdateOnce},
		{"History", testHistory},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := open(t)
			c.fn(t, a, b)
		})
	}
}

var (
	bucketA = []byte("a")
	bucketB = []byte("b")
)

func put(t *testing.T, st kv.Store, bucket []byte, kvs ...string) {
	t.Helper()
	err := st.Update(context.Background(), func(tx kv.Tx) error {
		for i := 0; i+1 < len(kvs); i += 2 {
			if err := tx.Put(bucket, []byte(kvs[i]), []byte(kvs[i+1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, st kv.Store, bucket []byte, key string) []byte {
	t.Helper()
	var v []byte
	err := st.View(context.Background(), func(tx kv.Tx) error {
		got, err := tx.Get(bucket, []byte(key))
		v = bytes.Clone(got)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// scan returns bucket's keys and values from from, joined as k=v.
func scan(t *testing.T, tx kv.Tx, bucket []byte, from string, limit int) []string {
	t.Helper()
	var got []string
	err := tx.Scan(bucket, []byte(from), nil, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return len(got) < limit
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func testGetPutDelete(t *testing.T, a, b kv.Store) {
	put(t, a, bucketA, "k", "1", "empty", "")
	put(t, a, bucketB, "k", "2")
	if v := get(t, b, bucketA, "k"); string(v) != "1" {
		t.Errorf("a/k = %q, want 1", v)
	}
	if v := get(t, b, bucketB, "k"); string(v) != "2" {
		t.Errorf("b/k = %q, want 2", v)
	}
	if v := get(t, b, bucketA, "empty"); v == nil || len(v) != 0 {
		t.Errorf("empty value = %#v, want empty and not nil", v)
	}
	if v := get(t, b, bucketA, "missing"); v != nil {
		t.Errorf("missing = %q, want nil", v)
	}
	err := b.Update(context.Background(), func(tx kv.Tx) error {
		if err := tx.Delete(bucketA, []byte("k")); err != nil {
			return err
		}
		if v, err := tx.Get(bucketA, []byte("k")); err != nil || v != nil {
			return fmt.Errorf("read after delete in the same transaction = %q, %v", v, err)
		}
		if err := tx.Put(bucketA, []byte("new"), []byte("x")); err != nil {
			return err
		}
		if v, err := tx.Get(bucketA, []byte("new")); err != nil || string(v) != "x" {
			return fmt.Errorf("read after put in the same transaction = %q, %v", v, err)
		}
		return tx.Delete(bucketA, []byte("never there"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := get(t, a, bucketA, "k"); v != nil {
		t.Errorf("deleted key = %q", v)
	}
	if v := get(t, a, bucketB, "k"); string(v) != "2" {
		t.Errorf("other bucket's key = %q after a delete, want 2", v)
	}
}

func testScan(t *testing.T, a, b kv.Store) {
	put(t, a, bucketA, "a1", "1", "a3", "3", "b1", "4", "a2", "2", "\x00", "0", "\xff", "f")
	put(t, a, bucketB, "a0", "x")
	err := b.Update(context.Background(), func(tx kv.Tx) error {
		if got := fmt.Sprint(scan(t, tx, bucketA, "", 100)); got != "[\x00=0 a1=1 a2=2 a3=3 b1=4 \xff=f]" {
			t.Errorf("scan all = %q", got)
		}
		if got := fmt.Sprint(scan(t, tx, bucketA, "a2", 2)); got != "[a2=2 a3=3]" {
			t.Errorf("scan from a2, two = %q", got)
		}
		var bounded []string
		if err := tx.Scan(bucketA, []byte("a1"), []byte("a3"), func(k, v []byte) bool {
			bounded = append(bounded, string(k))
			return true
		}); err != nil {
			return err
		}
		if got := fmt.Sprint(bounded); got != "[a1 a2]" {
			t.Errorf("scan from a1 to a3 = %q", got)
		}
		// Pending writes show in a scan of the same transaction.
		if err := tx.Delete(bucketA, []byte("a2")); err != nil {
			return err
		}
		if err := tx.Put(bucketA, []byte("a25"), []byte("p")); err != nil {
			return err
		}
		if err := tx.Put(bucketA, []byte("a3"), []byte("33")); err != nil {
			return err
		}
		if got := fmt.Sprint(scan(t, tx, bucketA, "a", 4)); got != "[a1=1 a25=p a3=33 b1=4]" {
			t.Errorf("scan with pending writes = %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = a.View(context.Background(), func(tx kv.Tx) error {
		if got := fmt.Sprint(scan(t, tx, bucketA, "a", 100)); got != "[a1=1 a25=p a3=33 b1=4 \xff=f]" {
			t.Errorf("scan after commit = %q", got)
		}
		n, err := tx.Count(bucketA)
		if n != 6 {
			t.Errorf("count = %d, %v; want 6", n, err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Many keys: more than a page of any engine.
	err = a.Update(context.Background(), func(tx kv.Tx) error {
		for i := range 100 {
			if err := tx.Put(bucketB, fmt.Appendf(nil, "k%03d", i), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = b.View(context.Background(), func(tx kv.Tx) error {
		got := scan(t, tx, bucketB, "k", 1000)
		if len(got) != 100 || got[0] != "k000=" || got[99] != "k099=" {
			t.Errorf("scan of 100 keys = %d keys, %q…", len(got), got[:min(3, len(got))])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func testFailed(t *testing.T, a, b kv.Store) {
	put(t, a, bucketA, "k", "old")
	errBoom := errors.New("boom")
	err := a.Update(context.Background(), func(tx kv.Tx) error {
		tx.Put(bucketA, []byte("k"), []byte("new"))
		tx.Put(bucketA, []byte("other"), []byte("new"))
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Errorf("Update = %v, want its function's error", err)
	}
	err = a.Update(context.Background(), func(tx kv.Tx) error {
		tx.Put(bucketA, []byte("k"), []byte("panic"))
		panic("boom")
	})
	if err == nil {
		t.Error("a panicking Update returned nil")
	}
	if v := get(t, b, bucketA, "k"); string(v) != "old" {
		t.Errorf("k = %q after failed updates, want old", v)
	}
	if v := get(t, b, bucketA, "other"); v != nil {
		t.Errorf("other = %q after a failed update, want nothing", v)
	}
}

func testViewReadOnly(t *testing.T, a, _ kv.Store) {
	err := a.View(context.Background(), func(tx kv.Tx) error {
		return tx.Put(bucketA, []byte("k"), []byte("v"))
	})
	if !errors.Is(err, kv.ErrReadOnly) {
		t.Errorf("Put in a View = %v, want ErrReadOnly", err)
	}
}

// concurrently runs f for workers workers at once, each given its
// number and one of the two handles in turn, and waits for them all.
func concurrently(a, b kv.Store, workers int, f func(w int, st kv.Store)) {
	var wg sync.WaitGroup
	for w := range workers {
		st := a
		if w%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, st)
		}()
	}
	wg.Wait()
}

// testCounters increments counters from many goroutines on both handles:
// no increment may be lost to a concurrent one.
func testCounters(t *testing.T, a, b kv.Store) {
	const workers, each, keys = 8, 15, 2
	var runs atomic.Int64
	concurrently(a, b, workers, func(w int, st kv.Store) {
		for i := range each {
			key := []byte(strconv.Itoa((w + i) % keys))
			err := st.Update(context.Background(), func(tx kv.Tx) error {
				runs.Add(1)
				v, err := tx.Get(bucketA, key)
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(string(v))
				return tx.Put(bucketA, key, []byte(strconv.Itoa(n+1)))
			})
			if err != nil {
				t.Error(err)
				return
			}
		}
	})
	total := 0
	for k := range keys {
		n, _ := strconv.Atoi(string(get(t, a, bucketA, strconv.Itoa(k))))
		total += n
	}
	if total != workers*each {
		t.Errorf("counters add up to %d, want %d (%d runs)", total, workers*each, runs.Load())
	}
}

// testPhantoms has many writers each add a key to a bucket only while it
// holds fewer than limit keys: a scan must conflict with a concurrent
// insert into the range it read, else the bucket overfills.
func testPhantoms(t *testing.T, a, b kv.Store) {
	const workers, limit = 12, 5
	concurrently(a, b, workers, func(w int, st kv.Store) {
		err := st.Update(context.Background(), func(tx kv.Tx) error {
			n := 0
			if err := tx.Scan(bucketA, nil, nil, func(_, _ []byte) bool { n++; return true }); err != nil {
				return err
			}
			if n >= limit {
				return nil
			}
			return tx.Put(bucketA, []byte(strconv.Itoa(w)), nil)
		})
		if err != nil {
			t.Error(err)
		}
	})
	var n int
	a.View(context.Background(), func(tx kv.Tx) error {
		var err error
		n, err = tx.Count(bucketA)
		return err
	})
	if n != limit {
		t.Errorf("bucket holds %d keys, want %d", n, limit)
	}
	// And deletes: writers each delete one key if the bucket still has
	// more than two; exactly limit-2 deletions may happen.
	var deleted atomic.Int64
	concurrently(a, b, workers, func(w int, st kv.Store) {
		var did bool
		err := st.Update(context.Background(), func(tx kv.Tx) error {
			did = false
			var keys [][]byte
			if err := tx.Scan(bucketA, nil, nil, func(k, _ []byte) bool { keys = append(keys, bytes.Clone(k)); return true }); err != nil {
				return err
			}
			if len(keys) <= 2 {
				return nil
			}
			did = true
			return tx.Delete(bucketA, keys[w%len(keys)])
		})
		if err != nil {
			t.Error(err)
		}
		if did {
			deleted.Add(1)
		}
	})
	if deleted.Load() != limit-2 {
		t.Errorf("%d deletions committed, want %d", deleted.Load(), limit-2)
	}
}

func testSequence(t *testing.T, a, b kv.Store) {
	const workers, each = 6, 5
	var mu sync.Mutex
	seen := map[uint64]bool{}
	concurrently(a, b, workers, func(w int, st kv.Store) {
		for range each {
			var n uint64
			err := st.Update(context.Background(), func(tx kv.Tx) error {
				var err error
				n, err = tx.NextSequence(bucketA)
				return err
			})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			if seen[n] || n == 0 {
				t.Errorf("sequence gave %d twice or zero", n)
			}
			seen[n] = true
			mu.Unlock()
		}
	})
}

// testGames plays games against the AI through two Services, one on each
// handle, tapping the same games from both: every game's record agrees
// with the moves accepted, and the finished games are counted once.
func testGames(t *testing.T, a, b kv.Store) {
	sa, sb := a, b
	clock := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	var seed atomic.Uint64
	cfg := func() *session.Config {
		return &session.Config{Now: clock, NewSeed: func() uint64 { return seed.Add(1) }}
	}
	svcs := []*session.Service{session.New(sa, cfg()), session.New(sb, cfg())}
	ctx := context.Background()
	const chats = 4
	var wg sync.WaitGroup
	var accepted atomic.Int64
	finished := make([]int, chats)
	for c := range chats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			who := session.Actor{Platform: "test", Chat: strconv.Itoa(c), User: session.User{ID: strconv.Itoa(c), Name: "p"}}
			v, err := svcs[c%2].Begin(ctx, session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy})
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; !v.Status().Over(); i++ {
				// Try every point from alternating replicas; only legal
				// ones are accepted.
				for p := range 9 {
					req := session.PlaceRequest{Game: v.ID(), MoveNo: v.MoveNo(), Cell: engine.Point{X: p % 3, Y: p / 3}}
					nv, err := svcs[(c+i+p)%2].Begin(ctx, session.Request{Actor: who}).Place(req)
					if err == nil {
						accepted.Add(1)
						v = nv
						break
					}
				}
			}
			finished[c]++
		}()
	}
	wg.Wait()
	moves := 0
	for c := range chats {
		st, err := svcs[1].Stats(ctx, "test", strconv.Itoa(c))
		if err != nil {
			t.Fatal(err)
		}
		played := 0
		for _, fam := range st.Results {
			for _, tl := range fam {
				played += tl.Wins + tl.Losses + tl.Draws
			}
		}
		if played != finished[c] {
			t.Errorf("chat %d: stats count %d games, want %d", c, played, finished[c])
		}
		last, err := svcs[0].Begin(ctx, session.Request{Actor: session.Actor{Platform: "test", Chat: strconv.Itoa(c), User: session.User{ID: strconv.Itoa(c)}}}).Last()
		if err != nil {
			t.Fatal(err)
		}
		human := last.SideOf(strconv.Itoa(c))
		for i := range last.Moves() {
			if (i%2 == 0) == (human == engine.Black) {
				moves++
			}
		}
	}
	if int64(moves) != accepted.Load() {
		t.Errorf("stored games hold %d human moves, %d were accepted", moves, accepted.Load())
	}
}

// testUpdateOnce handles one platform update on two handles at once:
// only one handling takes effect.
func testUpdateOnce(t *testing.T, a, b kv.Store) {
	sa, sb := a, b
	var seed atomic.Uint64
	cfg := &session.Config{NewSeed: func() uint64 { return seed.Add(1) }}
	svcs := []*session.Service{session.New(sa, cfg), session.New(sb, cfg)}
	for round := range 5 {
		who := session.Actor{Platform: "test", Chat: "c" + strconv.Itoa(round), User: session.User{ID: "u", Name: "u"}}
		id := "update-" + strconv.Itoa(round)
		var wg sync.WaitGroup
		var ok atomic.Int64
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := svcs[i%2].Begin(context.Background(), session.Request{Actor: who, Update: id}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy})
				switch {
				case err == nil:
					ok.Add(1)
				case !errors.Is(err, session.ErrDuplicate) && !errors.Is(err, session.ErrAlreadyPlaying):
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Errorf("round %d: update took effect %d times, want once", round, ok.Load())
		}
	}
}

// testHistory finishes games in two chats, from both handles: History
// lists the latest ten of a user, in a chat or across chats, latest
// first, and ForgetGames deletes the games older than the keep time with
// their history entries.
func testHistory(t *testing.T, a, b kv.Store) {
	sa, sb := a, b
	var ticks atomic.Int64
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return start.Add(time.Duration(ticks.Load()) * time.Minute) }
	var seed atomic.Uint64
	cfg := func(keep time.Duration) *session.Config {
		return &session.Config{Now: now, NewSeed: func() uint64 { return seed.Add(1) }, HistoryKeep: keep}
	}
	svcs := []*session.Service{session.New(sa, cfg(0)), session.New(sb, cfg(0))}
	ctx := context.Background()
	actor := func(chat, user string) session.Actor {
		return session.Actor{Platform: "test", Chat: chat, User: session.User{ID: user, Name: user}}
	}
	finish := func(i int, who session.Actor) session.GameID {
		t.Helper()
		ticks.Add(1)
		v, err := svcs[i%2].Begin(ctx, session.Request{Actor: who}).Start(session.StartRequest{Rules: engine.TicTacToe(), Level: engine.Easy})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svcs[(i+1)%2].Begin(ctx, session.Request{Actor: who}).Resign(v.ID()); err != nil {
			t.Fatal(err)
		}
		return v.ID()
	}
	var all, inC1 []session.GameID
	for i := range 12 {
		chat := "c1"
		if i%3 == 2 {
			chat = "c2"
		}
		id := finish(i, actor(chat, "a"))
		all = append(all, id)
		if chat == "c1" {
			inC1 = append(inC1, id)
		}
		// A user whose id starts with a's plays too.
		finish(i, actor(chat, "ab"))
	}
	ids := func(svc *session.Service, who session.Actor, across bool) []session.GameID {
		t.Helper()
		vs, err := svc.Begin(ctx, session.Request{Actor: who}).History(across)
		if err != nil {
			t.Fatal(err)
		}
		var got []session.GameID
		for _, v := range vs {
			got = append(got, v.ID())
		}
		return got
	}
	latest := func(ids []session.GameID, n int) []session.GameID {
		var r []session.GameID
		for i := len(ids) - 1; i >= 0 && len(r) < n; i-- {
			r = append(r, ids[i])
		}
		return r
	}
	check := func(what string, got, want []session.GameID) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: history %v, want %v", what, got, want)
		}
	}
	check("across chats", ids(svcs[0], actor("c1", "a"), true), latest(all, session.HistoryLen))
	check("in c1", ids(svcs[1], actor("c1", "a"), false), latest(inC1, session.HistoryLen))
	check("nobody's", ids(svcs[0], actor("c1", "z"), true), nil)

	// Game i of a ended at minute 2i+1, of ab at 2i+2; it is minute 25:
	// keeping 18 minutes forgets the first three games of each.
	ticks.Add(1)
	keeper := session.New(sa, cfg(18*time.Minute))
	n, err := keeper.ForgetGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * (12 - 9); n != want {
		t.Errorf("forgot %d games, want %d", n, want)
	}
	check("across chats after forgetting", ids(svcs[1], actor("c1", "a"), true), latest(all[3:], session.HistoryLen))
	if _, err := svcs[0].Game(ctx, all[0]); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("forgotten game: %v, want ErrNotFound", err)
	}
	if n, err := keeper.ForgetGames(ctx); err != nil || n != 0 {
		t.Errorf("forgetting again: %d, %v; want 0", n, err)
	}
}
