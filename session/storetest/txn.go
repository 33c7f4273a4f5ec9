package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// The kv-level cases of optimistic transactions (Begin), GetAll and
// Watch.

var bucketC = []byte("c")

// txGet returns the value of key in bucket as tx reads it, "<nil>" when
// there is none.
func txGet(t *testing.T, tx kv.Tx, bucket []byte, key string) string {
	t.Helper()
	v, err := tx.Get(bucket, []byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return show(v)
}

// show returns v, "<nil>" for nil, so that absence and an empty value
// differ.
func show(v []byte) string {
	if v == nil {
		return "<nil>"
	}
	return string(v)
}

func showAll(vs [][]byte) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = show(v)
	}
	return fmt.Sprint(s)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// testTxnCommit writes in a Txn: its own reads see the pending writes,
// the other handle sees none of them until Commit, and all of them after.
func testTxnCommit(t *testing.T, a, b kv.Store) {
	put(t, a, bucketA, "k1", "1", "k2", "2", "k4", "4")
	put(t, a, bucketB, "k1", "b1")
	ctx := context.Background()
	tx := a.Begin(ctx)
	if got := txGet(t, tx, bucketA, "k1"); got != "1" {
		t.Errorf("k1 = %s, want 1", got)
	}
	must(t, tx.Put(bucketA, []byte("k3"), []byte("3")))
	must(t, tx.Delete(bucketA, []byte("k2")))
	must(t, tx.Put(bucketA, []byte("k1"), []byte("11")))
	must(t, tx.Put(bucketA, []byte("k0"), nil))
	must(t, tx.Delete(bucketA, []byte("never there")))
	for k, want := range map[string]string{"k0": "", "k1": "11", "k2": "<nil>", "k3": "3", "k4": "4"} {
		if got := txGet(t, tx, bucketA, k); got != want {
			t.Errorf("in the Txn, %s = %s, want %s", k, got, want)
		}
	}
	vs, err := tx.GetAll([]kv.Key{
		{Bucket: bucketA, Key: []byte("k4")}, {Bucket: bucketA, Key: []byte("k2")},
		{Bucket: bucketA, Key: []byte("k3")}, {Bucket: bucketB, Key: []byte("k1")},
		{Bucket: bucketA, Key: []byte("k1")}, {Bucket: bucketA, Key: []byte("missing")},
		{Bucket: bucketA, Key: []byte("k0")},
	})
	must(t, err)
	if got := showAll(vs); got != "[4 <nil> 3 b1 11 <nil> ]" {
		t.Errorf("GetAll in the Txn = %s", got)
	}
	if got := fmt.Sprint(scan(t, tx, bucketA, "", 100)); got != "[k0= k1=11 k3=3 k4=4]" {
		t.Errorf("Scan in the Txn = %s", got)
	}
	if got := fmt.Sprint(scan(t, tx, bucketA, "k1", 2)); got != "[k1=11 k3=3]" {
		t.Errorf("Scan from k1, two, in the Txn = %s", got)
	}
	if n, err := tx.Count(bucketA); err != nil || n != 4 {
		t.Errorf("Count in the Txn = %d, %v; want 4", n, err)
	}
	for k, want := range map[string]string{"k0": "<nil>", "k1": "1", "k2": "2", "k3": "<nil>"} {
		if got := show(get(t, b, bucketA, k)); got != want {
			t.Errorf("before Commit, the other handle reads %s = %s, want %s", k, got, want)
		}
	}
	must(t, tx.Commit(ctx))
	err = b.View(ctx, func(tx kv.Tx) error {
		if got := fmt.Sprint(scan(t, tx, bucketA, "", 100)); got != "[k0= k1=11 k3=3 k4=4]" {
			t.Errorf("after Commit, the other handle scans %s", got)
		}
		return nil
	})
	must(t, err)
}

// testTxnTransfers moves units between two keys in Txns on both handles
// at once, starting again after each conflict, while Views on both
// handles check that the keys always add up: a Txn's writes apply all
// together, and a commit over changed reads is refused.
func testTxnTransfers(t *testing.T, a, b kv.Store) {
	const workers, each, total = 4, 10, 1000
	put(t, a, bucketA, "x", strconv.Itoa(total), "y", "0")
	ctx := context.Background()
	done := make(chan struct{})
	var readers sync.WaitGroup
	for _, st := range []kv.Store{a, b} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				err := st.View(ctx, func(tx kv.Tx) error {
					vs, err := tx.GetAll([]kv.Key{{Bucket: bucketA, Key: []byte("x")}, {Bucket: bucketA, Key: []byte("y")}})
					if err != nil {
						return err
					}
					x, _ := strconv.Atoi(string(vs[0]))
					y, _ := strconv.Atoi(string(vs[1]))
					if x+y != total {
						return fmt.Errorf("x %d + y %d = %d, want %d", x, y, x+y, total)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	concurrently(a, b, workers, func(w int, st kv.Store) {
		for i := range each {
			for attempt := 0; ; attempt++ {
				if attempt == 1000 {
					t.Errorf("worker %d: transfer %d conflicted %d times", w, i, attempt)
					return
				}
				tx := st.Begin(ctx)
				x, err := strconv.Atoi(txGetE(tx, bucketA, "x"))
				if err != nil {
					t.Error(err)
					return
				}
				y, err := strconv.Atoi(txGetE(tx, bucketA, "y"))
				if err != nil {
					t.Error(err)
					return
				}
				tx.Put(bucketA, []byte("x"), []byte(strconv.Itoa(x-1)))
				tx.Put(bucketA, []byte("y"), []byte(strconv.Itoa(y+1)))
				err = tx.Commit(ctx)
				if errors.Is(err, kv.ErrConflict) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				break
			}
		}
	})
	close(done)
	readers.Wait()
	if x, y := string(get(t, b, bucketA, "x")), string(get(t, a, bucketA, "y")); x != strconv.Itoa(total-workers*each) || y != strconv.Itoa(workers*each) {
		t.Errorf("after %d transfers, x = %s and y = %s", workers*each, x, y)
	}
}

// txGetE returns the value of key as tx reads it, or the error's text.
func txGetE(tx kv.Tx, bucket []byte, key string) string {
	v, err := tx.Get(bucket, []byte(key))
	if err != nil {
		return err.Error()
	}
	return string(v)
}

// testTxnConflicts changes, on the other handle, what a Txn read between
// its read and its Commit: a changed value, a key created, a key deleted,
// a key inserted into or changed in a range it scanned, each make the
// Commit fail with ErrConflict and write nothing; changes beyond where
// its scan stopped, or outside the bound of its scan, do not.
func testTxnConflicts(t *testing.T, a, b kv.Store) {
	ctx := context.Background()
	put(t, a, bucketA, "k", "1", "gone", "g")
	put(t, a, bucketB, "s1", "1", "s3", "3", "s5", "5", "s7", "7")
	cases := []struct {
		name     string
		read     func(tx kv.Tx) error
		change   func()
		conflict bool
	}{
		{"value changed",
			func(tx kv.Tx) error { _, err := tx.Get(bucketA, []byte("k")); return err },
			func() { put(t, b, bucketA, "k", "2") }, true},
		{"absent key created",
			func(tx kv.Tx) error { _, err := tx.Get(bucketA, []byte("new")); return err },
			func() { put(t, b, bucketA, "new", "") }, true},
		{"key deleted",
			func(tx kv.Tx) error { _, err := tx.Get(bucketA, []byte("gone")); return err },
			func() { del(t, b, bucketA, "gone") }, true},
		{"key read by GetAll changed",
			func(tx kv.Tx) error {
				_, err := tx.GetAll([]kv.Key{{Bucket: bucketA, Key: []byte("absent")}, {Bucket: bucketA, Key: []byte("k")}})
				return err
			},
			func() { put(t, b, bucketA, "k", "3") }, true},
		{"key inserted in the scanned range",
			func(tx kv.Tx) error { return scanN(tx, "s", nil, 2) }, // s1, s3
			func() { put(t, b, bucketB, "s2", "2") }, true},
		{"scanned key changed",
			func(tx kv.Tx) error { return scanN(tx, "s", nil, 2) }, // s1, s2
			func() { put(t, b, bucketB, "s1", "11") }, true},
		{"scanned key deleted",
			func(tx kv.Tx) error { return scanN(tx, "s", nil, 2) },
			func() { del(t, b, bucketB, "s2") }, true},
		{"key inserted in a range scanned to its end",
			func(tx kv.Tx) error { return scanN(tx, "s5", nil, 100) },
			func() { put(t, b, bucketB, "s9", "9") }, true},
		{"count changed",
			func(tx kv.Tx) error { _, err := tx.Count(bucketB); return err },
			func() { put(t, b, bucketB, "t", "") }, true},
		{"key inserted beyond where the scan stopped",
			func(tx kv.Tx) error { return scanN(tx, "s", nil, 2) }, // s1, s3
			func() { put(t, b, bucketB, "s4", "4", "s31", "31") }, false},
		{"key changed beyond where the scan stopped",
			func(tx kv.Tx) error { return scanN(tx, "s", nil, 2) },
			func() { put(t, b, bucketB, "s7", "77"); del(t, b, bucketB, "s5") }, false},
		{"key inserted beyond the scan's bound",
			func(tx kv.Tx) error { return scanN(tx, "s", []byte("s4"), 100) },
			func() { put(t, b, bucketB, "s4", "44", "s41", "41") }, false},
		{"other key changed",
			func(tx kv.Tx) error { _, err := tx.Get(bucketA, []byte("k")); return err },
			func() { put(t, b, bucketA, "k2", "x") }, false},
	}
	for i, c := range cases {
		key := "w" + strconv.Itoa(i)
		tx := a.Begin(ctx)
		if err := c.read(tx); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		must(t, tx.Put(bucketC, []byte(key), []byte("x")))
		c.change()
		err := tx.Commit(ctx)
		wrote := get(t, b, bucketC, key) != nil
		switch {
		case c.conflict && !errors.Is(err, kv.ErrConflict):
			t.Errorf("%s: Commit = %v, want ErrConflict", c.name, err)
		case c.conflict && wrote:
			t.Errorf("%s: the conflicting Txn wrote", c.name)
		case !c.conflict && (err != nil || !wrote):
			t.Errorf("%s: Commit = %v, wrote %v; want nil and written", c.name, err, wrote)
		}
	}
}

// scanN scans bucketB from from to to, taking n keys at most.
func scanN(tx kv.Tx, from string, to []byte, n int) error {
	i := 0
	return tx.Scan(bucketB, []byte(from), to, func(_, _ []byte) bool { i++; return i < n })
}

func del(t *testing.T, st kv.Store, bucket []byte, keys ...string) {
	t.Helper()
	err := st.Update(context.Background(), func(tx kv.Tx) error {
		for _, k := range keys {
			if err := tx.Delete(bucket, []byte(k)); err != nil {
				return err
			}
		}
		return nil
	})
	must(t, err)
}

// testTxnIdle commits a read-only Txn whose reads changed (it writes
// nothing, so it returns nil), and a Txn that waited while many other
// commits changed other keys (its reads are unchanged, so it commits).
func testTxnIdle(t *testing.T, a, b kv.Store) {
	ctx := context.Background()
	put(t, a, bucketA, "k", "1", "g1", "1", "g2", "2", "h", "h", "z", "z")

	ro := a.Begin(ctx)
	if got := txGet(t, ro, bucketA, "k"); got != "1" {
		t.Errorf("k = %s, want 1", got)
	}
	put(t, b, bucketA, "k", "2")
	if err := ro.Commit(ctx); err != nil {
		t.Errorf("read-only Txn: Commit = %v, want nil", err)
	}

	tx := a.Begin(ctx)
	if got := txGet(t, tx, bucketA, "k"); got != "2" {
		t.Errorf("k = %s, want 2", got)
	}
	if got := fmt.Sprint(scanTo(t, tx, bucketA, "g", "h")); got != "[g1=1 g2=2]" {
		t.Errorf("scan of g = %s", got)
	}
	// Meanwhile, other transactions on both handles change other keys,
	// next to the range scanned and in other buckets.
	for i := range 20 {
		st := []kv.Store{a, b}[i%2]
		if i%3 == 0 {
			other := st.Begin(ctx)
			must(t, other.Put(bucketB, []byte("n"+strconv.Itoa(i)), nil))
			if _, err := other.Get(bucketA, []byte("z")); err != nil {
				t.Fatal(err)
			}
			must(t, other.Put(bucketA, []byte("z"), []byte(strconv.Itoa(i))))
			must(t, other.Commit(ctx))
			continue
		}
		put(t, st, bucketA, "h", strconv.Itoa(i), "f", strconv.Itoa(i))
		put(t, st, bucketB, "k", strconv.Itoa(i))
	}
	if got := txGet(t, tx, bucketA, "g2"); got != "2" {
		t.Errorf("g2 = %s after the others, want 2", got)
	}
	must(t, tx.Put(bucketA, []byte("k"), []byte("late")))
	if err := tx.Commit(ctx); err != nil {
		t.Errorf("Txn whose reads did not change: Commit = %v, want nil", err)
	}
	if got := show(get(t, b, bucketA, "k")); got != "late" {
		t.Errorf("k = %s after the late Commit", got)
	}
}

// scanTo returns bucket's keys and values from from up to to, as k=v.
func scanTo(t *testing.T, tx kv.Tx, bucket []byte, from, to string) []string {
	t.Helper()
	var got []string
	err := tx.Scan(bucket, []byte(from), []byte(to), func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	})
	must(t, err)
	return got
}

// testTxnSequence takes numbers of one sequence on both handles at once:
// in Updates, in Txns that commit, in Txns that are dropped and in Txns
// whose Commit conflicts. No number is given twice, and none is zero.
func testTxnSequence(t *testing.T, a, b kv.Store) {
	const workers, each = 6, 12
	ctx := context.Background()
	var mu sync.Mutex
	seen := map[uint64]string{}
	took := func(how string, ns ...uint64) {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range ns {
			if n == 0 {
				t.Errorf("%s: sequence gave zero", how)
			}
			if prev, ok := seen[n]; ok {
				t.Errorf("%s: sequence gave %d again (first to %s)", how, n, prev)
			}
			seen[n] = how
		}
	}
	concurrently(a, b, workers, func(w int, st kv.Store) {
		hot := []byte("hot" + strconv.Itoa(w))
		for i := range each {
			how := fmt.Sprintf("worker %d, call %d", w, i)
			switch i % 4 {
			case 0:
				var n uint64
				err := st.Update(ctx, func(tx kv.Tx) error {
					var err error
					n, err = tx.NextSequence(bucketA)
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				took(how+" (Update)", n)
			case 1, 2, 3:
				tx := st.Begin(ctx)
				if i%4 == 3 {
					if _, err := tx.Get(bucketB, hot); err != nil {
						t.Error(err)
						return
					}
				}
				n1, err1 := tx.NextSequence(bucketA)
				n2, err2 := tx.NextSequence(bucketA)
				if err := errors.Join(err1, err2); err != nil {
					t.Error(err)
					return
				}
				if n1 == n2 {
					t.Errorf("%s: one Txn took %d twice", how, n1)
				}
				tx.Put(bucketB, []byte(strconv.Itoa(w)+"/"+strconv.Itoa(i)), nil)
				tx.Put(bucketB, hot, []byte(strconv.Itoa(i)))
				switch i % 4 {
				case 1:
					if err := tx.Commit(ctx); err != nil {
						t.Error(err)
						return
					}
					took(how+" (Txn)", n1, n2)
				case 2:
					took(how+" (Txn dropped)", n1, n2)
				case 3:
					if err := st.Update(ctx, func(tx kv.Tx) error { return tx.Put(bucketB, hot, []byte("changed")) }); err != nil {
						t.Error(err)
						return
					}
					if err := tx.Commit(ctx); !errors.Is(err, kv.ErrConflict) {
						t.Errorf("%s: Commit = %v, want ErrConflict", how, err)
					}
					took(how+" (Txn conflicted)", n1, n2)
				}
			}
		}
	})
	if want := workers * (each/4 + 2*3*each/4); len(seen) != want {
		t.Errorf("%d numbers taken, want %d", len(seen), want)
	}
}

// testGetAll reads several keys at once in a View, an Update and a Txn:
// values in the order asked, nil for keys without one, an empty value
// as empty, a key asked twice twice, pending writes of the transaction.
func testGetAll(t *testing.T, a, b kv.Store) {
	ctx := context.Background()
	put(t, a, bucketA, "k1", "1", "k3", "3", "e", "")
	put(t, a, bucketB, "k1", "b1")
	keys := []kv.Key{
		{Bucket: bucketA, Key: []byte("k3")}, {Bucket: bucketA, Key: []byte("k2")},
		{Bucket: bucketB, Key: []byte("k1")}, {Bucket: bucketA, Key: []byte("k1")},
		{Bucket: []byte("nobucket"), Key: []byte("k1")}, {Bucket: bucketA, Key: []byte("e")},
		{Bucket: bucketA, Key: []byte("k3")},
	}
	const want = "[3 <nil> b1 1 <nil>  3]"
	const wantWritten = "[<nil> 2 b1 1 <nil>  <nil>]" // after put k2, delete k3
	check := func(what string, tx kv.Tx, want string) {
		t.Helper()
		vs, err := tx.GetAll(keys)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := showAll(vs); got != want {
			t.Errorf("%s: GetAll = %s, want %s", what, got, want)
		}
		if vs, err := tx.GetAll(nil); err != nil || len(vs) != 0 {
			t.Errorf("%s: GetAll of nothing = %q, %v", what, vs, err)
		}
	}
	write := func(tx kv.Tx) {
		must(t, tx.Put(bucketA, []byte("k2"), []byte("2")))
		must(t, tx.Delete(bucketA, []byte("k3")))
	}
	must(t, b.View(ctx, func(tx kv.Tx) error { check("View", tx, want); return nil }))
	errDone := errors.New("done")
	err := b.Update(ctx, func(tx kv.Tx) error {
		check("Update", tx, want)
		write(tx)
		check("Update after writes", tx, wantWritten)
		return errDone
	})
	if !errors.Is(err, errDone) {
		t.Fatal(err)
	}
	tx := b.Begin(ctx)
	check("Txn", tx, want)
	check("Txn again", tx, want)
	write(tx)
	check("Txn after writes", tx, wantWritten)
	must(t, tx.Commit(ctx))
	must(t, a.View(ctx, func(tx kv.Tx) error { check("View after the Txn", tx, wantWritten); return nil }))
}

// watchTimeout bounds how long a watch case waits for a change that
// must come; it only fails the test.
const watchTimeout = 30 * time.Second

// next returns the next change on ch, failing the test when ch closes
// or nothing comes.
func next(t *testing.T, ch <-chan kv.Change) kv.Change {
	t.Helper()
	select {
	case c, ok := <-ch:
		if !ok {
			t.Fatal("watch channel closed early")
		}
		return c
	case <-time.After(watchTimeout):
		t.Fatalf("no change within %v", watchTimeout)
	}
	return kv.Change{}
}

func showChange(c kv.Change) string {
	if c.Deleted {
		if c.Value != nil {
			return fmt.Sprintf("%s deleted, with value %q", c.Key, c.Value)
		}
		return string(c.Key) + " deleted"
	}
	if c.Value == nil {
		return string(c.Key) + "=<nil>"
	}
	return string(c.Key) + "=" + string(c.Value)
}

// testWatch watches a prefix of a bucket, and a whole bucket, on one
// handle while the other commits: the watchers get the changes of their
// keys, and only those, in commit order, each commit's in key order;
// ending the context closes the channels.
func testWatch(t *testing.T, a, b kv.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	put(t, b, bucketA, "w/0", "before")
	pw, err := a.Watch(ctx, bucketA, []byte("w/"))
	must(t, err)
	bctx, bcancel := context.WithCancel(context.Background())
	defer bcancel()
	bw, err := a.Watch(bctx, bucketB, nil)
	must(t, err)

	put(t, b, bucketA, "w/1", "x", "other", "y", "w", "no")
	put(t, b, bucketB, "w/1", "z")
	put(t, b, bucketA, "w/0", "")
	put(t, b, bucketA, "x/1", "no") // outside the prefix only
	del(t, b, bucketA, "w/1", "w/never")
	put(t, b, bucketC, "w/1", "no") // another bucket only
	put(t, b, bucketA, "w/1", "v1")
	put(t, b, bucketA, "w/1", "v2")
	// One commit of several keys, written out of order.
	put(t, b, bucketA, "w/3", "3", "w/2", "2", "v", "no", "w/1", "v3")
	tx := b.Begin(context.Background())
	must(t, tx.Put(bucketA, []byte("w/4"), []byte("t")))
	must(t, tx.Delete(bucketA, []byte("w/2")))
	must(t, tx.Commit(context.Background()))
	put(t, b, bucketA, "x/2", "no") // outside the prefix only

	want := []string{"w/1=x", "w/0=", "w/1 deleted", "w/1=v1", "w/1=v2", "w/1=v3", "w/2=2", "w/3=3", "w/2 deleted", "w/4=t"}
	for i, w := range want {
		if got := showChange(next(t, pw)); got != w {
			t.Fatalf("prefix watch, change %d: %s, want %s", i, got, w)
		}
	}
	if got := showChange(next(t, bw)); got != "w/1=z" {
		t.Errorf("bucket watch: %s, want w/1=z", got)
	}

	// Ending the context closes the channel; no other change came.
	cancel()
	closed(t, pw)
	bcancel()
	closed(t, bw)
}

// closed waits for ch to close, failing the test on a change.
func closed(t *testing.T, ch <-chan kv.Change) {
	t.Helper()
	timeout := time.After(watchTimeout)
	for {
		select {
		case c, ok := <-ch:
			if !ok {
				return
			}
			t.Errorf("unexpected change %s", showChange(c))
		case <-timeout:
			t.Fatalf("watch channel still open %v after its context ended", watchTimeout)
		}
	}
}

// testTxnAssumeAbsent checks AssumeAbsent: a Txn that assumes keys absent
// commits when they are, and gets ErrConflict, writing nothing, when the
// other handle created one meanwhile; the assumption is a read (nil), and
// a key the Txn read already or wrote keeps what it holds.
func testTxnAssumeAbsent(t *testing.T, a, b kv.Store) {
	ctx := context.Background()
	tx := a.Begin(ctx)
	tx.AssumeAbsent(bucketA, []byte("x"))
	tx.AssumeAbsent(bucketA, []byte("y"))
	if v, err := tx.Get(bucketA, []byte("x")); err != nil || v != nil {
		t.Fatalf("an assumed key reads %q, %v", v, err)
	}
	if err := tx.Put(bucketA, []byte("x"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	tx.AssumeAbsent(bucketA, []byte("x")) // written: stays written
	if v, err := tx.Get(bucketA, []byte("x")); err != nil || string(v) != "1" {
		t.Fatalf("a written key, assumed absent after, reads %q, %v", v, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("commit with the keys absent: %v", err)
	}
	if got := get(t, b, bucketA, "x"); string(got) != "1" {
		t.Fatalf("x on the other handle: %q", got)
	}

	// y appears on the other handle between the assumption and the
	// commit: nothing is written.
	tx = a.Begin(ctx)
	tx.AssumeAbsent(bucketA, []byte("y"))
	if err := tx.Put(bucketA, []byte("z"), []byte("2")); err != nil {
		t.Fatal(err)
	}
	put(t, b, bucketA, "y", "3")
	if err := tx.Commit(ctx); !errors.Is(err, kv.ErrConflict) {
		t.Fatalf("commit with an assumed key present: %v, want ErrConflict", err)
	}
	if got := get(t, a, bucketA, "z"); got != nil {
		t.Fatalf("a conflicted commit wrote z = %q", got)
	}

	// A key read present and then assumed absent keeps what was read.
	tx = a.Begin(ctx)
	if v, err := tx.Get(bucketA, []byte("y")); err != nil || string(v) != "3" {
		t.Fatalf("y reads %q, %v", v, err)
	}
	tx.AssumeAbsent(bucketA, []byte("y"))
	if v, err := tx.Get(bucketA, []byte("y")); err != nil || string(v) != "3" {
		t.Fatalf("y read, then assumed absent, reads %q, %v", v, err)
	}
	if err := tx.Put(bucketA, []byte("w"), []byte("4")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("commit after y was read present: %v", err)
	}
}
