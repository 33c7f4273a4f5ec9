// Package kv is the storage contract under package session: an ordered
// key-value store of named buckets with serializable transactions. Each
// storage engine is its own package implementing it (session/boltstore on
// one bbolt file, session/etcdstore on an etcd cluster), and one contract
// suite, session/storetest, runs against every one of them.
//
// The game logic (which keys and indexes a game has, how records are
// encoded) lives once, in package session, on top of this contract.
package kv

import (
	"context"
	"errors"
)

// Store is an ordered key-value store of named buckets. A Store is safe
// for concurrent use.
type Store interface {
	// View runs fn in a read-only transaction that sees one consistent
	// snapshot.
	View(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a read-write transaction and commits its writes,
	// all together or none, when fn returns nil. The commit succeeds only
	// if nothing fn read changed since it read it; otherwise, or when the
	// store groups commits, fn runs again, so fn must compute its writes
	// from what it reads, not from side effects of an earlier run. An
	// error of fn is returned as it is, with nothing written.
	Update(ctx context.Context, fn func(Tx) error) error
	// Close releases the store; calls after Close fail.
	Close() error
}

// Tx is a transaction on a Store. It must not be used after the function
// it was given to returns. Slices it returns are valid until then and
// must not be modified.
type Tx interface {
	// Get returns the value of key in bucket, or nil when there is none.
	Get(bucket, key []byte) ([]byte, error)
	// Put sets key in bucket to value; an empty value is a value.
	Put(bucket, key, value []byte) error
	// Delete removes key from bucket; a missing key is no error.
	Delete(bucket, key []byte) error
	// Scan calls fn with the keys of bucket from from (inclusive) up to
	// to (exclusive; nil for no bound), in byte order, until fn returns
	// false or the keys run out. What counts as read is the keys fn was
	// given and the range up to where it stopped: a bound keeps a
	// transaction from conflicting with writes beyond it.
	Scan(bucket, from, to []byte, fn func(k, v []byte) bool) error
	// Count returns how many keys bucket holds.
	Count(bucket []byte) (int, error)
	// NextSequence returns a number the bucket's sequence has not given
	// before, above zero.
	NextSequence(bucket []byte) (uint64, error)
}

var (
	// ErrReadOnly is returned by a write in a View transaction.
	ErrReadOnly = errors.New("kv: write in a read-only transaction")
	// ErrTooLarge is returned by Update when a transaction reads or
	// writes more keys than the store can commit at once.
	ErrTooLarge = errors.New("kv: transaction too large")
	// ErrCommitUnknown is returned by Update when the store lost the
	// answer to a commit and could not learn whether it took effect.
	ErrCommitUnknown = errors.New("kv: commit outcome unknown")
)
