package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boardbot/boardbot/session/kv"
)

// watchBuffer is how many changes a watcher may fall behind before its
// channel is closed.
const watchBuffer = 256

// errClosed is returned by Watch after Close.
var errClosed = errors.New("boltstore: store closed")

// watcher is a channel of Watch.
type watcher struct {
	bucket string
	prefix []byte
	ch     chan kv.Change
	// stop stops the call that drops the watcher when its context ends.
	stop func() bool
}

// Watch returns a channel of the changes committed through s to the keys
// of bucket that start with prefix. Every group commit hands its changes
// to the watchers without waiting: a watcher that falls 256 changes
// behind has its channel closed. The channel is closed when ctx ends and
// when s closes.
func (s *Store) Watch(ctx context.Context, bucket, prefix []byte) (<-chan kv.Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("boltstore: watch: %w", err)
	}
	w := &watcher{bucket: string(bucket), prefix: bytes.Clone(prefix), ch: make(chan kv.Change, watchBuffer)}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("boltstore: watch: %w", errClosed)
	}
	s.watchers[w] = struct{}{}
	w.stop = context.AfterFunc(ctx, func() {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		s.dropLocked(w)
	})
	return w.ch, nil
}

// dropLocked closes w's channel and forgets w, unless that was done
// already; s.wmu is held.
func (s *Store) dropLocked(w *watcher) {
	if _, ok := s.watchers[w]; !ok {
		return
	}
	delete(s.watchers, w)
	close(w.ch)
	w.stop()
}

// publish hands the changes of calls, committed together, to the
// watchers: one change per key (its last write), in key order.
func (s *Store) publish(calls []*call) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if len(s.watchers) == 0 {
		return
	}
	last := map[bkey]change{}
	for _, c := range calls {
		for _, ch := range c.changes {
			last[bkey{ch.bucket, string(ch.key)}] = ch
		}
	}
	changes := slices.SortedFunc(func(yield func(change) bool) {
		for _, ch := range last {
			if !yield(ch) {
				return
			}
		}
	}, func(a, b change) int {
		if c := strings.Compare(a.bucket, b.bucket); c != 0 {
			return c
		}
		return bytes.Compare(a.key, b.key)
	})
	for w := range s.watchers {
		for _, ch := range changes {
			if ch.bucket != w.bucket || !bytes.HasPrefix(ch.key, w.prefix) {
				continue
			}
			select {
			case w.ch <- kv.Change{Key: ch.key, Value: ch.value, Deleted: ch.deleted}:
				continue
			default:
			}
			// Too far behind: the watcher reads afresh and watches again.
			s.dropLocked(w)
			break
		}
	}
}
