package session

import (
	"errors"
	"slices"
	"sync"
)

// errLead tells a call waiting in a group that it leads the next commit.
var errLead = errors.New("session: lead the next group commit")

// group commits the items of calls that arrive while a commit of the
// group is in progress together, in the next commit (group commit), so
// that a busy bot pays one transaction for many of them. The zero value
// is ready to use.
type group[T any] struct {
	mu      sync.Mutex
	queue   []*groupCall[T]
	leading bool
}

// groupCall is one call waiting for its commit.
type groupCall[T any] struct {
	item T
	done chan error
}

// do commits item with those of the calls waiting with it, up to max in
// one commit, and returns its own result. commit commits a group's items
// and returns each one's result, in order.
func (g *group[T]) do(item T, max int, commit func(items []T) []error) error {
	c := &groupCall[T]{item: item, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if g.leading {
		g.mu.Unlock()
		if err := <-c.done; err != errLead {
			return err
		}
		g.mu.Lock()
	}
	// This call leads, and is first in the queue: commit a group from
	// there, then hand the lead to the first call left.
	g.leading = true
	n := min(max, len(g.queue))
	calls := slices.Clone(g.queue[:n])
	g.queue = slices.Delete(g.queue, 0, n)
	g.mu.Unlock()
	items := make([]T, len(calls))
	for i, call := range calls {
		items[i] = call.item
	}
	for i, err := range commit(items) {
		calls[i].done <- err
	}
	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].done <- errLead
	} else {
		g.leading = false
	}
	g.mu.Unlock()
	return <-c.done
}
