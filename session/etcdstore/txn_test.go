package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
	"google.golang.org/grpc"
)

// rpcs counts the unary requests a client sends, by method name (Range,
// Txn, …).
type rpcs struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *rpcs) interceptor() grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		r.mu.Lock()
		if r.n == nil {
			r.n = map[string]int{}
		}
		r.n[method[strings.LastIndex(method, "/")+1:]]++
		r.mu.Unlock()
		return invoker(ctx, method, req, reply, cc, opts...)
	})
}

// take returns the counts since the last take, as "Method:n …" sorted.
func (r *rpcs) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var s []string
	for m, n := range r.n {
		s = append(s, fmt.Sprintf("%s:%d", m, n))
	}
	r.n = nil
	slices.Sort(s)
	return strings.Join(s, " ")
}

func keys(names ...string) []kv.Key {
	ks := make([]kv.Key, len(names))
	for i, n := range names {
		ks[i] = kv.Key{Bucket: []byte("n"), Key: []byte(n)}
	}
	return ks
}

func putN(t *testing.T, st kv.Store, kvs ...string) {
	t.Helper()
	err := st.Update(context.Background(), func(tx kv.Tx) error {
		for i := 0; i+1 < len(kvs); i += 2 {
			if err := tx.Put([]byte("n"), []byte(kvs[i]), []byte(kvs[i+1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadRoundTrips counts the requests of a Txn's reads: GetAll is one
// request whether the Txn has a revision yet or not, and a key read once
// (by Get, GetAll or Scan), or written, is not asked for again.
func TestReadRoundTrips(t *testing.T) {
	c := etcdtest.Start(t, 1)
	var r rpcs
	st := c.Store(t, "trips/", r.interceptor())
	putN(t, st, "k1", "1", "k2", "2", "k3", "3", "s1", "s")
	ctx := context.Background()
	step := func(what, want string, f func() error) {
		t.Helper()
		r.take()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := r.take(); got != want {
			t.Errorf("%s: requests %q, want %q", what, got, want)
		}
	}
	tx := st.Begin(ctx)
	step("first GetAll", "Txn:1", func() error {
		vs, err := tx.GetAll(keys("k1", "k2", "k9", "k1"))
		if err == nil && fmt.Sprintf("%q", vs) != `["1" "2" "" "1"]` {
			err = fmt.Errorf("values %q", vs)
		}
		return err
	})
	step("Get of keys read", "", func() error {
		for _, k := range []string{"k1", "k2", "k9"} {
			if _, err := tx.Get([]byte("n"), []byte(k)); err != nil {
				return err
			}
		}
		return nil
	})
	step("GetAll at the Txn's revision", "Txn:1", func() error {
		_, err := tx.GetAll(keys("k1", "k3", "k8", "k2"))
		return err
	})
	step("Get of a new key", "Range:1", func() error {
		_, err := tx.Get([]byte("n"), []byte("k7"))
		return err
	})
	step("Scan", "Range:1", func() error {
		return tx.Scan([]byte("n"), []byte("s"), nil, func(_, _ []byte) bool { return true })
	})
	step("Get of a scanned key, a written key, an absent key read", "", func() error {
		if err := tx.Put([]byte("n"), []byte("w"), []byte("x")); err != nil {
			return err
		}
		for _, k := range []string{"s1", "w", "k7", "k8"} {
			if _, err := tx.Get([]byte("n"), []byte(k)); err != nil {
				return err
			}
		}
		return nil
	})
	step("GetAll of keys known", "", func() error {
		_, err := tx.GetAll(keys("s1", "w", "k7", "k1"))
		return err
	})
	step("GetAll in a View", "Txn:1", func() error {
		return st.View(ctx, func(tx kv.Tx) error {
			_, err := tx.GetAll(keys("k1", "k2", "k3"))
			return err
		})
	})
	many := make([]string, st.MaxOps()+1)
	for i := range many {
		many[i] = "m" + strconv.Itoa(i)
	}
	step("GetAll of MaxOps keys", "Txn:1", func() error {
		_, err := st.Begin(ctx).GetAll(keys(many[1:]...))
		return err
	})
	r.take()
	if _, err := st.Begin(ctx).GetAll(keys(many...)); !errors.Is(err, kv.ErrTooLarge) {
		t.Errorf("GetAll of MaxOps+1 keys: %v, want ErrTooLarge", err)
	}
	if got := r.take(); got != "" {
		t.Errorf("GetAll of MaxOps+1 keys sent %q", got)
	}
}

// TestGetAllAtTheTxnRevision changes a key on another client after a
// Txn's first read: the Txn's GetAll still reads the key as of its first
// read (etcd honours the revision of a range request inside a Txn), and
// its Commit conflicts.
func TestGetAllAtTheTxnRevision(t *testing.T) {
	c := etcdtest.Start(t, 1)
	a, b := c.Store(t, "rev/"), c.Store(t, "rev/")
	putN(t, a, "k1", "1", "k2", "2")
	ctx := context.Background()
	tx := a.Begin(ctx)
	if v, err := tx.Get([]byte("n"), []byte("k1")); err != nil || string(v) != "1" {
		t.Fatalf("k1 = %q, %v", v, err)
	}
	putN(t, b, "k2", "changed", "k3", "new")
	vs, err := tx.GetAll(keys("k2", "k3"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%q", vs); got != `["2" ""]` || vs[1] != nil {
		t.Errorf("GetAll after the change = %s, want the values of the Txn's revision", got)
	}
	tx.Put([]byte("n"), []byte("k4"), nil)
	if err := tx.Commit(ctx); !errors.Is(err, kv.ErrConflict) {
		t.Errorf("Commit = %v, want ErrConflict", err)
	}
	if s := a.Stats(); s.Conflicts != 1 || s.Commits != 1 {
		t.Errorf("stats %+v, want 1 conflict and the 1 commit of putN", s)
	}
}

// TestTxnLostCommitAnswers loses the answer to a Txn's commit, then its
// request, then everything: a commit the cluster applied is reported
// done, one it never saw is fenced off and sent again (and then
// conflicts if a read changed meanwhile), and when the cluster cannot be
// asked, Commit says ErrCommitUnknown.
func TestTxnLostCommitAnswers(t *testing.T) {
	c := etcdtest.Start(t, 1)
	var f faults
	st := c.Store(t, "txnlost/", f.interceptor())
	other := c.Store(t, "txnlost/")
	ctx := context.Background()
	incr := func(st kv.Store, key string, before func()) error {
		tx := st.Begin(ctx)
		v, err := tx.Get([]byte("n"), []byte(key))
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(string(v))
		tx.Put([]byte("n"), []byte(key), []byte(strconv.Itoa(n+1)))
		before()
		return tx.Commit(ctx)
	}

	if err := incr(st, "answer", func() { f.loseAnswer.Store(1) }); err != nil {
		t.Errorf("lost answer: %v", err)
	}
	if got := read(t, st, "answer"); got != "1" {
		t.Errorf("lost answer: counter %s, want 1", got)
	}

	if err := incr(st, "request", func() { f.loseRequest.Store(1) }); err != nil {
		t.Errorf("lost request: %v", err)
	}
	if got := read(t, st, "request"); got != "1" {
		t.Errorf("lost request: counter %s, want 1", got)
	}

	err := incr(st, "changed", func() {
		putN(t, other, "changed", "5")
		f.loseRequest.Store(1)
	})
	if !errors.Is(err, kv.ErrConflict) {
		t.Errorf("lost request of a Txn whose read changed: %v, want ErrConflict", err)
	}
	if got := read(t, st, "changed"); got != "5" {
		t.Errorf("lost request of a Txn whose read changed: counter %s, want 5", got)
	}
	if s := st.Stats(); s.Resolved != 3 || s.Unknown != 0 || s.Commits != 2 || s.Conflicts != 1 {
		t.Errorf("stats %+v, want 3 resolved, 2 commits, 1 conflict", s)
	}

	short, err := etcdstore.Open(etcdstore.Options{Client: st.Client(), Prefix: "txnlost/", ResolveTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = incr(short, "unknown", func() { f.loseAll.Store(true) })
	f.loseAll.Store(false)
	if !errors.Is(err, kv.ErrCommitUnknown) {
		t.Errorf("cluster unreachable: %v, want ErrCommitUnknown", err)
	}
}

// TestWatchEnds ends a watch by its context and by closing the store:
// its channel closes both times.
func TestWatchEnds(t *testing.T) {
	c := etcdtest.Start(t, 1)
	st := c.Store(t, "watchend/")
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := st.Watch(ctx, []byte("n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	putN(t, st, "k", "v")
	select {
	case got := <-ch:
		if string(got.Key) != "k" || string(got.Value) != "v" {
			t.Errorf("change %q = %q, want k = v", got.Key, got.Value)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no change")
	}
	cancel()
	waitClosed(t, ch)

	ch, err = st.Watch(context.Background(), []byte("n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	waitClosed(t, ch)
	if _, err := st.Watch(context.Background(), []byte("n"), nil); err == nil {
		t.Error("Watch after Close returned no error")
	}
}

func waitClosed(t *testing.T, ch <-chan kv.Change) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case c, ok := <-ch:
			if !ok {
				return
			}
			t.Errorf("unexpected change %q", c.Key)
		case <-timeout:
			t.Fatal("watch channel still open")
		}
	}
}
