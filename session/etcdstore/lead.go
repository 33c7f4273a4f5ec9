package etcdstore

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// DefaultLeaseTTL is how many seconds a leader or lock holder that stops
// answering keeps its role before another replica takes over.
const DefaultLeaseTTL = 10

// ErrHeld is returned by Hold when another replica holds the lock.
var ErrHeld = errors.New("etcdstore: held by another replica")

// Lead runs fn whenever this replica leads the election name, among the
// replicas calling Lead with the same name, until ctx is done: one replica
// at a time runs fn. fn's context ends when the replica stops leading (its
// lease lost, say in a partition); the replica then campaigns again. When
// a leader dies, its lease expires after ttl seconds (DefaultLeaseTTL
// when 0) and another replica takes over; a leader that returns resigns
// at once. id names the replica in the election.
func (s *Store) Lead(ctx context.Context, name, id string, ttl int, fn func(ctx context.Context)) error {
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	for ctx.Err() == nil {
		sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(ttl), concurrency.WithContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return fmt.Errorf("etcdstore: lead %s: %w", name, err)
		}
		e := concurrency.NewElection(sess, s.prefix+"_elect/"+name)
		if err := e.Campaign(ctx, id); err != nil {
			sess.Close()
			if ctx.Err() != nil {
				break
			}
			continue
		}
		lctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-sess.Done():
			case <-lctx.Done():
			}
			cancel()
		}()
		fn(lctx)
		cancel()
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout)
		e.Resign(rctx)
		rcancel()
		sess.Close()
	}
	return ctx.Err()
}

// Leader returns the id of the replica leading the election name, or ""
// when none does.
func (s *Store) Leader(ctx context.Context, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	resp, err := s.cli.Get(ctx, s.prefix+"_elect/"+name+"/", clientv3.WithFirstCreate()...)
	if err != nil {
		return "", fmt.Errorf("etcdstore: leader of %s: %w", name, err)
	}
	if len(resp.Kvs) == 0 {
		return "", nil
	}
	return string(resp.Kvs[0].Value), nil
}

// Hold takes the lock name for as long as this process lives, or returns
// ErrHeld at once when another replica has it. Release gives it back; a
// holder that dies loses it after DefaultLeaseTTL seconds. lost is closed
// when the lock is lost without Release (the lease expired).
func (s *Store) Hold(ctx context.Context, name string) (release func(), lost <-chan struct{}, err error) {
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(DefaultLeaseTTL))
	if err != nil {
		return nil, nil, fmt.Errorf("etcdstore: lock %s: %w", name, err)
	}
	m := concurrency.NewMutex(sess, s.prefix+"_lock/"+name)
	tctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := m.TryLock(tctx); err != nil {
		sess.Close()
		if errors.Is(err, concurrency.ErrLocked) {
			return nil, nil, fmt.Errorf("etcdstore: lock %s: %w", name, ErrHeld)
		}
		return nil, nil, fmt.Errorf("etcdstore: lock %s: %w", name, err)
	}
	return func() { sess.Close() }, sess.Done(), nil
}
