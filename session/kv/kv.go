// Package kv is the storage contract: the one place where a store is
// plugged in. A Store is an ordered key-value store of named buckets with
// serializable transactions and a change feed. Each storage engine is its
// own package implementing it (session/boltstore on one bbolt file,
// session/etcdstore on an etcd cluster), and one contract suite,
// session/storetest, runs against every one of them.
//
// The game logic (which keys and indexes a game has, how records are
// encoded) lives once, in package session, on top of this contract.
//
// Three kinds of transaction serve three needs:
//
//   - View reads.
//   - Update runs a function that reads and writes, and runs it again
//     when what it read changed before it committed (or when the store
//     groups commits): for short changes whose function may run twice.
//   - Begin starts an optimistic transaction that the caller commits
//     itself: it reads, may then take its time (the AI thinks) with
//     nothing held in the store, writes, and commits with a compare on
//     everything it read. A conflict is returned, not retried, so that
//     the caller decides again from what it reads anew.
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
	// Begin starts an optimistic read-write transaction (see Txn). It
	// reaches the store only when the Txn reads or commits.
	Begin(ctx context.Context) Txn
	// Watch returns a channel that receives every change committed to a
	// key of bucket that starts with prefix (nil or empty: every key of
	// the bucket) after Watch returned, in commit order, the changes of
	// one commit together in key order. The channel is closed when ctx
	// ends, and may be closed earlier when the watcher falls too far
	// behind or the store loses the watch: the watcher then reads what it
	// needs afresh and watches again. Watch fails only when it cannot
	// start.
	Watch(ctx context.Context, bucket, prefix []byte) (<-chan Change, error)
	// MaxOps returns how many keys one transaction may read, and how many
	// it may write; 0 means no limit.
	MaxOps() int
	// Shared reports whether other processes may use the store at the
	// same time (replicas on one etcd cluster), rather than this process
	// alone (a bbolt file, which one process holds locked): what another
	// process left in a store no other process shares, that process left
	// when it stopped.
	Shared() bool
	// Close releases the store; calls after Close fail.
	Close() error
}

// Tx is a transaction on a Store. It must not be used after the function
// it was given to returns (or, for a Txn, after Commit). Slices it returns
// are valid until then and must not be modified.
type Tx interface {
	// Get returns the value of key in bucket, or nil when there is none.
	Get(bucket, key []byte) ([]byte, error)
	// GetAll returns the values of keys, nil where a key has none, as Get
	// would return them one by one; a store reads them in one request
	// where it can.
	GetAll(keys []Key) ([][]byte, error)
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
	// before, above zero. Numbers taken by a transaction that does not
	// commit are skipped, never given again.
	NextSequence(bucket []byte) (uint64, error)
}

// Txn is an optimistic read-write transaction (Store.Begin). Its reads
// see committed data and are remembered with what they returned; its
// writes stay in the Txn, where its own later reads see them, until
// Commit. Nothing is held in the store between a read and the commit, so
// the caller may take its time in between. The reads of a Txn need not
// all come from one snapshot, but a Txn commits only if all of them are
// still current, so a committed Txn is as if it ran at once at its
// commit. A Txn is for one goroutine.
type Txn interface {
	Tx
	// AssumeAbsent records, without reading it, that key is absent from
	// bucket, as if a read had found nothing: Commit fails with
	// ErrConflict when the key exists then. It is for a change that is
	// almost always made on keys that do not exist yet, to commit it
	// without a round trip to read them. A read of the key afterwards
	// returns nil.
	AssumeAbsent(bucket, key []byte)
	// Commit applies the Txn's writes, all together, if every key it read
	// still holds what the read returned and no key appeared in or left a
	// range it scanned; otherwise it writes nothing and returns an error
	// wrapping ErrConflict. A Txn that wrote nothing commits nothing and
	// returns nil. The Txn must not be used after Commit.
	Commit(ctx context.Context) error
}

// Key names a key of a bucket, for GetAll.
type Key struct {
	Bucket, Key []byte
}

// Change is a committed change of one key, as Watch delivers it: Key is
// the whole key within its bucket; Value is its new value, nil when the
// key was deleted.
type Change struct {
	Key     []byte
	Value   []byte
	Deleted bool
}

var (
	// ErrReadOnly is returned by a write in a View transaction.
	ErrReadOnly = errors.New("kv: write in a read-only transaction")
	// ErrTooLarge is returned by Update and Commit when a transaction
	// reads or writes more keys than the store can commit at once.
	ErrTooLarge = errors.New("kv: transaction too large")
	// ErrCommitUnknown is returned by Update and Commit when the store
	// lost the answer to a commit and could not learn whether it took
	// effect.
	ErrCommitUnknown = errors.New("kv: commit outcome unknown")
	// ErrConflict is returned by Txn.Commit when something the Txn read
	// changed before it committed: nothing was written.
	ErrConflict = errors.New("kv: conflict: data read changed before the commit")
)
