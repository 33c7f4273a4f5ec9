package kv

import (
	"context"
	"sync/atomic"
)

// Counter is a Store that counts the transactions made through it, for
// benchmarks and metrics: every View, every run of an Update's function
// (a store runs it again after a conflict, and may when it groups
// commits), and every Begin (a caller that meets ErrConflict begins
// again, and is counted again). It is safe for concurrent use.
type Counter struct {
	Store
	n atomic.Uint64
}

// Count returns s, counting its transactions.
func Count(s Store) *Counter { return &Counter{Store: s} }

// Transactions returns how many transactions were made so far.
func (c *Counter) Transactions() uint64 { return c.n.Load() }

// View counts one transaction and runs fn as the Store's View does.
func (c *Counter) View(ctx context.Context, fn func(Tx) error) error {
	c.n.Add(1)
	return c.Store.View(ctx, fn)
}

// Update counts each run of fn and runs it as the Store's Update does.
func (c *Counter) Update(ctx context.Context, fn func(Tx) error) error {
	return c.Store.Update(ctx, func(tx Tx) error {
		c.n.Add(1)
		return fn(tx)
	})
}

// Begin counts one transaction and begins it on the Store.
func (c *Counter) Begin(ctx context.Context) Txn {
	c.n.Add(1)
	return c.Store.Begin(ctx)
}
