package etcdstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/boardbot/boardbot/session/kv"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// watchBuffer is how many changes a watch holds for a slow reader before
// it waits for it (and etcd buffers for it in turn).
const watchBuffer = 256

// Watch watches the keys of bucket that start with prefix from the
// revision after the cluster's revision when Watch is called, so that it
// misses no change committed after it returns. The changes of one etcd
// revision are one commit. The channel is closed when ctx ends, when the
// store closes, and when etcd ends the watch (the revision to watch from
// was compacted, the member lost its leader, the client closed): the
// watcher then reads afresh and watches again.
func (s *Store) Watch(ctx context.Context, bucket, prefix []byte) (<-chan kv.Change, error) {
	base := s.bucketKey(bucket, nil)
	key := base + string(prefix)
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	resp, err := s.cli.Get(rctx, key, clientv3.WithPrefix(), clientv3.WithCountOnly())
	cancel()
	if err != nil {
		return nil, fmt.Errorf("etcdstore: watch %s: %w", key, err)
	}
	if err := s.closing.Err(); err != nil {
		return nil, fmt.Errorf("etcdstore: watch %s: store closed", key)
	}
	wctx, stop := context.WithCancel(clientv3.WithRequireLeader(ctx))
	unclose := context.AfterFunc(s.closing, stop)
	events := s.cli.Watch(wctx, key, clientv3.WithPrefix(), clientv3.WithRev(resp.Header.Revision+1))
	out := make(chan kv.Change, watchBuffer)
	go func() {
		defer close(out)
		defer unclose()
		defer stop()
		for {
			var wr clientv3.WatchResponse
			var ok bool
			select {
			case <-wctx.Done():
				return
			case wr, ok = <-events:
			}
			if !ok || wr.Canceled || wr.Err() != nil {
				return
			}
			evs := slices.Clone(wr.Events)
			// In revision order, and in key order within one revision.
			slices.SortStableFunc(evs, func(a, b *clientv3.Event) int {
				if c := cmp.Compare(a.Kv.ModRevision, b.Kv.ModRevision); c != 0 {
					return c
				}
				return bytes.Compare(a.Kv.Key, b.Kv.Key)
			})
			for _, ev := range evs {
				c := kv.Change{Key: ev.Kv.Key[len(base):]}
				if ev.Type == clientv3.EventTypeDelete {
					c.Deleted = true
				} else {
					c.Value = nonNil(ev.Kv.Value)
				}
				select {
				case out <- c:
				case <-wctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
