package etcdstore_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// faults is a network fault between a client and the cluster: armed, it
// loses the next Txn request (before the cluster sees it) or its answer
// (after the cluster applied it), or every Txn.
type faults struct {
	loseRequest, loseAnswer atomic.Int32
	loseAll                 atomic.Bool
}

func (f *faults) interceptor() grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if !strings.HasSuffix(method, "/Txn") {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		if f.loseAll.Load() || f.loseRequest.Add(-1) >= 0 {
			return status.Error(codes.Unavailable, "test: request lost")
		}
		err := invoker(ctx, method, req, reply, cc, opts...)
		if f.loseAnswer.Add(-1) >= 0 {
			return status.Error(codes.Unavailable, "test: answer lost")
		}
		return err
	})
}

// counter adds one to key in bucket "n" and counts the runs of its
// function.
func counter(st kv.Store, key string, runs *atomic.Int64) error {
	// Bounded, so that a store that reruns a lost commit forever fails
	// the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return st.Update(ctx, func(tx kv.Tx) error {
		runs.Add(1)
		v, err := tx.Get([]byte("n"), []byte(key))
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(string(v))
		return tx.Put([]byte("n"), []byte(key), []byte(strconv.Itoa(n+1)))
	})
}

func read(t *testing.T, st kv.Store, key string) string {
	t.Helper()
	var s string
	err := st.View(context.Background(), func(tx kv.Tx) error {
		v, err := tx.Get([]byte("n"), []byte(key))
		s = string(v)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLostCommitAnswers loses Txn requests and answers between a client
// and a real cluster: a commit the cluster applied is reported as done
// and not run again, one it never saw is fenced off and run again, and
// when the cluster cannot be asked, Update says ErrCommitUnknown.
func TestLostCommitAnswers(t *testing.T) {
	c := etcdtest.Start(t, 1)
	var f faults
	st := c.Store(t, "lost/", f.interceptor())
	var runs atomic.Int64

	f.loseAnswer.Store(1)
	if err := counter(st, "answer", &runs); err != nil {
		t.Fatalf("lost answer: %v", err)
	}
	if got := read(t, st, "answer"); got != "1" || runs.Load() != 1 {
		t.Errorf("lost answer: counter %s after %d runs, want 1 after 1", got, runs.Load())
	}

	runs.Store(0)
	f.loseRequest.Store(1)
	if err := counter(st, "request", &runs); err != nil {
		t.Fatalf("lost request: %v", err)
	}
	if got := read(t, st, "request"); got != "1" || runs.Load() != 2 {
		t.Errorf("lost request: counter %s after %d runs, want 1 after 2", got, runs.Load())
	}
	if s := st.Stats(); s.Resolved != 2 || s.Unknown != 0 {
		t.Errorf("stats %+v, want 2 resolved", s)
	}

	short, err := etcdstore.Open(etcdstore.Options{Client: st.Client(), Prefix: "lost/", ResolveTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.loseAll.Store(true)
	err = counter(short, "unknown", &runs)
	f.loseAll.Store(false)
	if !errors.Is(err, kv.ErrCommitUnknown) {
		t.Errorf("cluster unreachable: %v, want ErrCommitUnknown", err)
	}
}

// TestConflictRunsAgain changes a key between a transaction's read and
// its commit: the commit is refused and the function runs again on the
// new value.
func TestConflictRunsAgain(t *testing.T) {
	c := etcdtest.Start(t, 1)
	a, b := c.Store(t, "conflict/"), c.Store(t, "conflict/")
	var runs atomic.Int64
	err := a.Update(context.Background(), func(tx kv.Tx) error {
		v, err := tx.Get([]byte("n"), []byte("k"))
		if err != nil {
			return err
		}
		if runs.Add(1) == 1 {
			var other atomic.Int64
			if err := counter(b, "k", &other); err != nil {
				return err
			}
		}
		return tx.Put([]byte("n"), []byte("k"), append(v, 'x'))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, b, "k"); got != "1x" || runs.Load() != 2 {
		t.Errorf("k = %q after %d runs, want 1x after 2", got, runs.Load())
	}
	if s := a.Stats(); s.Conflicts != 1 || s.Commits != 1 {
		t.Errorf("stats %+v, want 1 conflict and 1 commit", s)
	}
}

// TestTransactionLimit refuses, before sending, a transaction that reads
// or writes more keys than etcd's 128 operations per Txn allow.
func TestTransactionLimit(t *testing.T) {
	c := etcdtest.Start(t, 1)
	st := c.Store(t, "limit/")
	writeN := func(n int) error {
		return st.Update(context.Background(), func(tx kv.Tx) error {
			for i := range n {
				if err := tx.Put([]byte("n"), []byte(strconv.Itoa(i)), nil); err != nil {
					return err
				}
			}
			return nil
		})
	}
	readN := func(n int) error {
		return st.Update(context.Background(), func(tx kv.Tx) error {
			for i := range n {
				if _, err := tx.Get([]byte("r"), []byte(strconv.Itoa(i))); err != nil {
					return err
				}
			}
			return tx.Put([]byte("n"), []byte("x"), nil)
		})
	}
	if err := writeN(st.MaxOps()); err != nil {
		t.Errorf("%d writes: %v", st.MaxOps(), err)
	}
	if err := writeN(st.MaxOps() + 1); !errors.Is(err, kv.ErrTooLarge) {
		t.Errorf("%d writes: %v, want ErrTooLarge", st.MaxOps()+1, err)
	}
	if err := readN(st.MaxOps()); err != nil {
		t.Errorf("%d reads: %v", st.MaxOps(), err)
	}
	if err := readN(st.MaxOps() + 1); !errors.Is(err, kv.ErrTooLarge) {
		t.Errorf("%d reads: %v, want ErrTooLarge", st.MaxOps()+1, err)
	}
}

// TestPrefix keeps every key of a store under its prefix: two stores
// with different prefixes on one cluster share nothing.
func TestPrefix(t *testing.T) {
	c := etcdtest.Start(t, 1)
	a, b := c.Store(t, "one/"), c.Store(t, "two/")
	var runs atomic.Int64
	for range 3 {
		if err := counter(a, "k", &runs); err != nil {
			t.Fatal(err)
		}
	}
	if err := counter(b, "k", &runs); err != nil {
		t.Fatal(err)
	}
	if a, b := read(t, a, "k"), read(t, b, "k"); a != "3" || b != "1" {
		t.Errorf("one/ has %s, two/ has %s; want 3 and 1", a, b)
	}
	resp, err := a.Client().Get(context.Background(), "", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range resp.Kvs {
		if k := string(kv.Key); !strings.HasPrefix(k, "one/") && !strings.HasPrefix(k, "two/") {
			t.Errorf("key %q outside the prefixes", k)
		}
	}
}
