package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/kv"
	bolt "go.etcd.io/bbolt"
)

func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var bucketG = []byte("g")

func put(t *testing.T, s kv.Store, kvs ...string) {
	t.Helper()
	err := s.Update(context.Background(), func(tx kv.Tx) error {
		for i := 0; i+1 < len(kvs); i += 2 {
			if err := tx.Put(bucketG, []byte(kvs[i]), []byte(kvs[i+1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s kv.Store, key string) []byte {
	t.Helper()
	var v []byte
	err := s.View(context.Background(), func(tx kv.Tx) error {
		got, err := tx.Get(bucketG, []byte(key))
		v = bytes.Clone(got)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// waitFor waits until cond holds, failing the test after a generous
// time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited too long for %s", what)
		}
		runtime.Gosched()
	}
}

// TestTxnGroupCommit holds the group commit's lead while many Txn
// commits and Updates queue, among them a Txn whose read changed and an
// Update that fails, then lets them commit: all of them commit in one
// bbolt transaction but the two, which get their errors and write
// nothing, and the watcher receives the group's changes as one commit,
// in key order, without the writes of the two.
func TestTxnGroupCommit(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	put(t, s, "k", "old")
	const n = 50
	txns := make([]kv.Txn, n)
	for i := range txns {
		txns[i] = s.Begin(ctx)
		key := []byte(fmt.Sprintf("c%02d", i))
		if v, err := txns[i].Get(bucketG, key); err != nil || v != nil {
			t.Fatalf("Get = %q, %v", v, err)
		}
		if err := txns[i].Put(bucketG, key, []byte("new")); err != nil {
			t.Fatal(err)
		}
	}
	bad := s.Begin(ctx)
	if _, err := bad.Get(bucketG, []byte("k")); err != nil {
		t.Fatal(err)
	}
	bad.Put(bucketG, []byte("bad"), []byte("x"))
	put(t, s, "k", "changed")

	watch, err := s.Watch(ctx, bucketG, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Hold the lead: every commit from now on queues.
	s.mu.Lock()
	s.leading = true
	s.mu.Unlock()
	errFail := errors.New("fail")
	var wg sync.WaitGroup
	errs := make([]error, n)
	var badErr, failErr, okErr error
	for i := range txns {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = txns[i].Commit(ctx) }()
	}
	wg.Add(3)
	go func() { defer wg.Done(); badErr = bad.Commit(ctx) }()
	go func() {
		defer wg.Done()
		failErr = s.Update(ctx, func(tx kv.Tx) error {
			tx.Put(bucketG, []byte("fail"), []byte("x"))
			return errFail
		})
	}()
	go func() {
		defer wg.Done()
		okErr = s.Update(ctx, func(tx kv.Tx) error { return tx.Put(bucketG, []byte("u"), []byte("u")) })
	}()
	waitFor(t, "the commits to queue", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.queue) == n+3
	})
	before := s.groupTxs.Load()
	s.mu.Lock()
	s.queue[0].done <- errLead
	s.mu.Unlock()
	wg.Wait()

	// The group failed on one of the two, which ran again alone and
	// failed again; then on the other, alone too; then the rest
	// committed: five bbolt transactions, the last one of 51 calls.
	if got := s.groupTxs.Load() - before; got != 5 {
		t.Errorf("%d bbolt transactions for the group, want 5", got)
	}
	for i, err := range errs {
		if err != nil {
			t.Errorf("Txn %d: %v", i, err)
		}
		if v := get(t, s, fmt.Sprintf("c%02d", i)); string(v) != "new" {
			t.Errorf("Txn %d wrote %q", i, v)
		}
	}
	if !errors.Is(badErr, kv.ErrConflict) || get(t, s, "bad") != nil {
		t.Errorf("conflicting Txn: %v, wrote %q; want ErrConflict and nothing", badErr, get(t, s, "bad"))
	}
	if !errors.Is(failErr, errFail) || get(t, s, "fail") != nil {
		t.Errorf("failing Update: %v, wrote %q; want its error and nothing", failErr, get(t, s, "fail"))
	}
	if okErr != nil || string(get(t, s, "u")) != "u" {
		t.Errorf("Update: %v", okErr)
	}

	put(t, s, "zz", "end")
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("c%02d=new", i))
	}
	want = append(want, "u=u", "zz=end")
	for i, w := range want {
		select {
		case c := <-watch:
			if got := string(c.Key) + "=" + string(c.Value); got != w {
				t.Fatalf("change %d: %s, want %s", i, got, w)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("change %d: nothing", i)
		}
	}
}

// TestTxnConflictAlone commits a Txn whose read changed, with no other
// commit in its group: ErrConflict, nothing written, and the store goes
// on.
func TestTxnConflictAlone(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	tx := s.Begin(ctx)
	if err := tx.Scan(bucketG, nil, nil, func(_, _ []byte) bool { return true }); err != nil {
		t.Fatal(err)
	}
	tx.Put(bucketG, []byte("a"), []byte("x"))
	put(t, s, "b", "y")
	if err := tx.Commit(ctx); !errors.Is(err, kv.ErrConflict) {
		t.Errorf("Commit = %v, want ErrConflict", err)
	}
	if v := get(t, s, "a"); v != nil {
		t.Errorf("a = %q after a conflict", v)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Error("a second Commit returned nil")
	}
	if _, err := tx.Get(bucketG, []byte("a")); err == nil {
		t.Error("a Get after Commit returned nil")
	}
}

// TestTxnSequenceBlocks takes numbers of a sequence in Txns and in
// Updates, alternately: the Txns take theirs from a block reserved in
// the bucket's bbolt sequence, the Updates theirs after it.
func TestTxnSequenceBlocks(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	var got []uint64
	for range 3 {
		tx := s.Begin(ctx)
		n, err := tx.NextSequence(bucketG)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
		err = s.Update(ctx, func(tx kv.Tx) error {
			n, err = tx.NextSequence(bucketG)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if fmt.Sprint(got) != fmt.Sprint([]uint64{1, 101, 2, 102, 3, 103}) {
		t.Errorf("numbers %v, want 1 101 2 102 3 103", got)
	}
}

// TestSlowWatcherIsClosed commits more changes than a watcher that does
// not read can hold: the commits do not wait for it, its channel holds
// watchBuffer changes and is then closed, and a watcher of other keys is
// not affected.
func TestSlowWatcherIsClosed(t *testing.T) {
	s := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow, err := s.Watch(ctx, bucketG, []byte("k"))
	if err != nil {
		t.Fatal(err)
	}
	few, err := s.Watch(ctx, bucketG, []byte("k1"))
	if err != nil {
		t.Fatal(err)
	}
	const commits = watchBuffer + 10
	for i := range commits {
		put(t, s, fmt.Sprintf("k%03d", i), "v")
	}
	n := 0
	for range slow {
		n++
	}
	if n != watchBuffer {
		t.Errorf("slow watcher got %d changes, want %d", n, watchBuffer)
	}
	for i := range 100 {
		c := <-few
		if want := fmt.Sprintf("k%03d", 100+i); string(c.Key) != want {
			t.Fatalf("change %d: %s, want %s", i, c.Key, want)
		}
	}
	s.wmu.Lock()
	watchers := len(s.watchers)
	s.wmu.Unlock()
	if watchers != 1 {
		t.Errorf("%d watchers left, want 1", watchers)
	}
	cancel()
	for range few {
		t.Error("change after the end")
	}
}

// TestWatchEndsWithTheStore closes the store under a watcher: its
// channel closes, and Watch fails afterwards.
func TestWatchEndsWithTheStore(t *testing.T) {
	s := open(t)
	ch, err := s.Watch(context.Background(), bucketG, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, ok := <-ch; ok {
		t.Error("change after Close")
	}
	if _, err := s.Watch(context.Background(), bucketG, nil); err == nil {
		t.Error("Watch after Close returned no error")
	}
}

// TestCheckAndBackup backs a store up while it is in use and checks the
// store and the copy: both consistent, the copy holds the data. A copy
// with a page overwritten fails the check.
func TestCheckAndBackup(t *testing.T) {
	s := open(t)
	for i := range 500 {
		put(t, s, fmt.Sprintf("k%03d", i), string(bytes.Repeat([]byte{'v'}, 100)))
	}
	if err := s.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	path := filepath.Join(t.TempDir(), "copy.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Backup(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != n || n == 0 {
		t.Fatalf("backup of %d bytes, file %v, %v", n, fi.Size(), err)
	}
	c, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Errorf("Check of the copy: %v", err)
	}
	if v := get(t, c, "k499"); len(v) != 100 {
		t.Errorf("the copy holds k499 = %q", v)
	}
	var leaf uint64
	c.db.View(func(tx *bolt.Tx) error {
		leaf = uint64(tx.Bucket(bucketG).Root())
		return nil
	})
	pageSize := c.db.Info().PageSize
	c.Close()

	// Overwrite the bucket's root page.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	copy(data[int(leaf)*pageSize:], bytes.Repeat([]byte{0xff}, 64))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(); err == nil {
		t.Error("Check of a damaged copy returned nil")
	} else {
		t.Logf("damaged copy: %v", err)
	}
}
