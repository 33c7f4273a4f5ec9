// Package boltstore is the single-process store: a kv.Store in one bbolt
// file, with group commit. It is the default store of the bot.
package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardbot/boardbot/session/kv"
	bolt "go.etcd.io/bbolt"
)

// ErrLocked is returned by Open when another process holds the database
// file.
var ErrLocked = errors.New("boltstore: database is in use by another process")

// Options tunes Open. The zero value (or nil) means the documented
// defaults.
type Options struct {
	// LockTimeout is how long Open waits for another process to release
	// the file before failing with ErrLocked. Default 1 s.
	LockTimeout time.Duration
	// NoSync skips fsync on commit: faster, but a crash can lose committed
	// games. Only for tests and benchmarks that say so.
	NoSync bool
}

// Store is a kv.Store in one bbolt file; a bucket of the store is a bbolt
// bucket of the same name. Its Update and the Commit of its Txns use
// group commit: a commit that finds no commit in progress commits at
// once; those that arrive while one is in progress queue up and commit
// together in the next transaction, so many games' changes share one
// fsync without waiting on a timer. Its Watch is fed in the process, from
// the commits made through the Store.
type Store struct {
	db *bolt.DB

	mu sync.Mutex
	// queue holds the calls waiting for the next group commit.
	queue []*call
	// leading is set while some call is committing a group.
	leading bool
	// groupTxs counts the bbolt write transactions of group commits.
	groupTxs atomic.Uint64

	seqMu sync.Mutex
	// seqs holds, by bucket, the sequence numbers reserved for Txns.
	seqs map[string]*seqBlock

	wmu      sync.Mutex
	watchers map[*watcher]struct{}
	closed   bool
}

// call is one Update, or the commit of one Txn, waiting in a group
// commit.
type call struct {
	// fn runs the call's function on the group's transaction and records
	// the changes it makes in changes.
	fn func(*bolt.Tx) error
	// changes holds the writes of the last run of fn, for watchers.
	changes []change
	// done receives the call's result, or errLead when the call is to
	// commit the next group itself.
	done chan error
}

// change is a write of a committed function, as watchers receive it.
type change struct {
	bucket  string
	key     []byte
	value   []byte
	deleted bool
}

// errLead tells a waiting call that it leads the next group commit.
var errLead = errors.New("boltstore: lead the next group commit")

// Open opens (creating it and its directory when missing) the bbolt file
// at path with mode 0600. It returns an error wrapping ErrLocked when
// another process holds the file for longer than the lock timeout.
func Open(path string, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("boltstore: open %s: %w (waited %v)", path, ErrLocked, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	return &Store{db: db, seqs: map[string]*seqBlock{}, watchers: map[*watcher]struct{}{}}, nil
}

// DB returns the underlying bbolt database, for consistency checks and
// backups.
func (s *Store) DB() *bolt.DB { return s.db }

// View runs fn in a read-only bbolt transaction.
func (s *Store) View(ctx context.Context, fn func(kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(tx *bolt.Tx) error { return fn(boltTx{tx: tx}) })
}

// Update runs fn in a read-write bbolt transaction, grouped with the
// other Updates and Txn commits that arrived while the previous group was
// committing. fn may run more than once: when another function of its
// group fails, the group is rolled back and run again without it; a
// function that fails is run again alone, and its error there is the
// result.
func (s *Store) Update(ctx context.Context, fn func(kv.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &call{done: make(chan error, 1)}
	c.fn = func(tx *bolt.Tx) error { return fn(boltTx{tx: tx, rec: &c.changes}) }
	return s.submit(c)
}

// submit queues c for the next group commit, leading the commit itself
// when no other call does, and returns c's result.
func (s *Store) submit(c *call) error {
	s.mu.Lock()
	s.queue = append(s.queue, c)
	if s.leading {
		s.mu.Unlock()
		if err := <-c.done; err != errLead {
			return err
		}
		s.mu.Lock()
	}
	// This call leads: commit everything queued, then hand the lead to the
	// first call that queued meanwhile.
	s.leading = true
	group := s.queue
	s.queue = nil
	s.mu.Unlock()

	s.commitGroup(group)

	s.mu.Lock()
	if len(s.queue) > 0 {
		s.queue[0].done <- errLead
	} else {
		s.leading = false
	}
	s.mu.Unlock()
	return <-c.done
}

// commitGroup runs the calls' functions in one transaction and sends each
// its result. When one fails, it alone is run again in a transaction of
// its own, and the others are committed again without it. The changes of
// each transaction that commits go to the watchers before the calls learn
// their results.
func (s *Store) commitGroup(group []*call) {
	failed := -1
	err := s.db.Update(func(tx *bolt.Tx) error {
		s.groupTxs.Add(1)
		for i, c := range group {
			if err := safeCall(c, tx); err != nil {
				failed = i
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.publish(group)
	}
	if failed < 0 || len(group) == 1 {
		for _, c := range group {
			c.done <- err
		}
		return
	}
	bad := group[failed]
	err = s.db.Update(func(tx *bolt.Tx) error {
		s.groupTxs.Add(1)
		return safeCall(bad, tx)
	})
	if err == nil {
		s.publish(group[failed : failed+1])
	}
	bad.done <- err
	s.commitGroup(append(group[:failed:failed], group[failed+1:]...))
}

// safeCall runs c's function, turning a panic into an error so that one
// bad function cannot take its group down with it. The changes of an
// earlier run are forgotten first.
func safeCall(c *call, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("boltstore: update panicked: %v", p)
		}
	}()
	c.changes = nil
	return c.fn(tx)
}

// CreateBuckets creates the named buckets that do not exist yet, so that
// tools reading the file (consistency checks, backups) find every bucket
// of the layout.
func (s *Store) CreateBuckets(names ...[]byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range names {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("boltstore: create bucket %q: %w", b, err)
			}
		}
		return nil
	})
}

// Check runs bbolt's consistency check of the whole file (every page
// reachable once, none both used and free) and returns the first
// inconsistency found, or nil. It runs in a write transaction that it
// rolls back, as bbolt's check of a read-only transaction is unsafe while
// others write: commits wait until it is done.
func (s *Store) Check() error {
	tx, err := s.db.Begin(true)
	if err != nil {
		return fmt.Errorf("boltstore: check: %w", err)
	}
	defer tx.Rollback()
	var first error
	for err := range tx.Check() {
		if first == nil {
			first = fmt.Errorf("boltstore: check: %w", err)
		}
	}
	return first
}

// Backup writes a consistent copy of the database, as of one moment, to
// w and returns how many bytes it wrote; commits go on meanwhile. The copy
// is a bbolt file that Open opens.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("boltstore: backup: %w", err)
	}
	return n, nil
}

// MaxOps returns 0: a bbolt transaction may read and write any number of
// keys.
func (s *Store) MaxOps() int { return 0 }

// Close closes the watchers' channels and the bbolt file.
func (s *Store) Close() error {
	s.wmu.Lock()
	s.closed = true
	for w := range s.watchers {
		s.dropLocked(w)
	}
	s.wmu.Unlock()
	return s.db.Close()
}

// boltTx implements kv.Tx on a bbolt transaction; buckets are created on
// their first write. In an Update, rec collects the writes for watchers.
type boltTx struct {
	tx  *bolt.Tx
	rec *[]change
}

// writable returns the bucket, creating it, or kv.ErrReadOnly.
func (t boltTx) writable(bucket []byte) (*bolt.Bucket, error) {
	if !t.tx.Writable() {
		return nil, kv.ErrReadOnly
	}
	return t.tx.CreateBucketIfNotExists(bucket)
}

func (t boltTx) Get(bucket, key []byte) ([]byte, error) {
	b := t.tx.Bucket(bucket)
	if b == nil {
		return nil, nil
	}
	return b.Get(key), nil
}

func (t boltTx) GetAll(keys []kv.Key) ([][]byte, error) {
	vs := make([][]byte, len(keys))
	for i, k := range keys {
		vs[i], _ = t.Get(k.Bucket, k.Key)
	}
	return vs, nil
}

func (t boltTx) Put(bucket, key, value []byte) error {
	b, err := t.writable(bucket)
	if err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	if err := b.Put(key, value); err != nil {
		return err
	}
	if t.rec != nil {
		*t.rec = append(*t.rec, change{bucket: string(bucket), key: bytes.Clone(key), value: bytes.Clone(value)})
	}
	return nil
}

func (t boltTx) Delete(bucket, key []byte) error {
	if !t.tx.Writable() {
		return kv.ErrReadOnly
	}
	b := t.tx.Bucket(bucket)
	if b == nil || b.Get(key) == nil {
		return nil
	}
	if err := b.Delete(key); err != nil {
		return err
	}
	if t.rec != nil {
		*t.rec = append(*t.rec, change{bucket: string(bucket), key: bytes.Clone(key), deleted: true})
	}
	return nil
}

func (t boltTx) Scan(bucket, from, to []byte, fn func(k, v []byte) bool) error {
	b := t.tx.Bucket(bucket)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.Seek(from); k != nil && (to == nil || bytes.Compare(k, to) < 0); k, v = c.Next() {
		if !fn(k, v) {
			return nil
		}
	}
	return nil
}

func (t boltTx) Count(bucket []byte) (int, error) {
	b := t.tx.Bucket(bucket)
	if b == nil {
		return 0, nil
	}
	return b.Stats().KeyN, nil
}

func (t boltTx) NextSequence(bucket []byte) (uint64, error) {
	b, err := t.writable(bucket)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// Path returns the path of the bbolt file.
func (s *Store) Path() string { return s.db.Path() }
