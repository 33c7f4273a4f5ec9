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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/session/kv"
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

// Shared returns false: the file is locked by this process alone.
func (s *Store) Shared() bool { return false }

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

// errCommitted is returned by a Txn used after its Commit.
var errCommitted = errors.New("boltstore: transaction used after Commit")

// Begin starts an optimistic transaction. Each of its reads runs in a
// short bbolt read transaction of its own and is remembered with what it
// returned; nothing stays open between them. Its writes wait in the Txn
// until Commit, which checks the reads again and applies the writes in
// the group commit that Update uses.
func (s *Store) Begin(ctx context.Context) kv.Txn {
	return &txn{s: s, ctx: ctx, reads: map[bkey][]byte{}, writes: map[bkey]write{}}
}

// bkey names a key of a bucket.
type bkey struct{ bucket, key string }

// write is a pending write of a Txn.
type write struct {
	value   []byte
	deleted bool
}

// scanRead is a range a Txn scanned: the keys and values the store held
// from from up to end (exclusive; nil for the end of the bucket).
type scanRead struct {
	bucket     []byte
	from, end  []byte
	keys, vals [][]byte
}

// txn is a kv.Txn on a Store.
type txn struct {
	s   *Store
	ctx context.Context
	// reads holds what each key read returned (a copy; nil when absent).
	reads map[bkey][]byte
	scans []*scanRead
	// writes holds the pending writes.
	writes    map[bkey]write
	committed bool
}

// view runs fn in a read-only bbolt transaction of its own.
func (t *txn) view(fn func(*bolt.Tx) error) error {
	if t.committed {
		return errCommitted
	}
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if err := t.s.db.View(fn); err != nil {
		return fmt.Errorf("boltstore: read: %w", err)
	}
	return nil
}

// known returns what t returns for k without reading the store: its
// pending write, or what it read before.
func (t *txn) known(k bkey) ([]byte, bool) {
	if w, ok := t.writes[k]; ok {
		if w.deleted {
			return nil, true
		}
		return w.value, true
	}
	v, ok := t.reads[k]
	return v, ok
}

func (t *txn) Get(bucket, key []byte) ([]byte, error) {
	vs, err := t.GetAll([]kv.Key{{Bucket: bucket, Key: key}})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

func (t *txn) GetAll(keys []kv.Key) ([][]byte, error) {
	if t.committed {
		return nil, errCommitted
	}
	vs := make([][]byte, len(keys))
	var missing []int
	for i, k := range keys {
		if v, ok := t.known(bkey{string(k.Bucket), string(k.Key)}); ok {
			vs[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return vs, nil
	}
	err := t.view(func(tx *bolt.Tx) error {
		for _, i := range missing {
			k := keys[i]
			bk := bkey{string(k.Bucket), string(k.Key)}
			if v, ok := t.reads[bk]; ok { // a key asked twice
				vs[i] = v
				continue
			}
			if b := tx.Bucket(k.Bucket); b != nil {
				vs[i] = bytes.Clone(b.Get(k.Key))
			}
			t.reads[bk] = vs[i]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return vs, nil
}

// AssumeAbsent records key as read and absent, unless t read it or
// wrote it already; Commit checks it as any read.
func (t *txn) AssumeAbsent(bucket, key []byte) {
	bk := bkey{string(bucket), string(key)}
	if _, ok := t.known(bk); !ok {
		t.reads[bk] = nil
	}
}

func (t *txn) Put(bucket, key, value []byte) error {
	if t.committed {
		return errCommitted
	}
	if len(bucket) == 0 {
		return fmt.Errorf("boltstore: put: %w", bolt.ErrBucketNameRequired)
	}
	if len(key) == 0 {
		return fmt.Errorf("boltstore: put: %w", bolt.ErrKeyRequired)
	}
	t.writes[bkey{string(bucket), string(key)}] = write{value: append([]byte{}, value...)}
	return nil
}

func (t *txn) Delete(bucket, key []byte) error {
	if t.committed {
		return errCommitted
	}
	t.writes[bkey{string(bucket), string(key)}] = write{deleted: true}
	return nil
}

// firstPage and lastPage bound how many keys a Scan copies out of the
// file in one read transaction: few at first, in case fn stops early,
// more as it goes on.
const (
	firstPage = 64
	lastPage  = 4096
)

// Scan reads the store a page at a time, each page in a read transaction
// of its own, and merges the keys with the pending writes; fn runs
// outside any bbolt transaction. What the store held in the range up to
// where fn stopped is remembered for Commit.
func (t *txn) Scan(bucket, from, to []byte, fn func(k, v []byte) bool) error {
	if t.committed {
		return errCommitted
	}
	if to != nil && bytes.Compare(from, to) >= 0 {
		return nil
	}
	bs := string(bucket)
	var pending []string
	for k := range t.writes {
		if k.bucket == bs && k.key >= string(from) && (to == nil || k.key < string(to)) {
			pending = append(pending, k.key)
		}
	}
	slices.Sort(pending)
	rec := &scanRead{bucket: bytes.Clone(bucket), from: bytes.Clone(from), end: bytes.Clone(to)}
	next := rec.from
	var page []kvPair
	more, size := true, firstPage
	for {
		if len(page) == 0 && more {
			var err error
			if page, more, err = t.readPage(bucket, next, to, size); err != nil {
				return err
			}
			size = min(2*size, lastPage)
			if len(page) > 0 {
				next = append(bytes.Clone(page[len(page)-1].key), 0)
			}
		}
		// The next key: from the store or from the pending writes,
		// whichever sorts first; a pending write hides the store's.
		var k, v []byte
		switch {
		case len(page) == 0 && len(pending) == 0:
			t.scans = append(t.scans, rec)
			return nil
		case len(pending) > 0 && (len(page) == 0 || pending[0] <= string(page[0].key)):
			k = []byte(pending[0])
			pending = pending[1:]
			if len(page) > 0 && bytes.Equal(page[0].key, k) {
				rec.add(page[0])
				page = page[1:]
			}
			w := t.writes[bkey{bs, string(k)}]
			if w.deleted {
				continue
			}
			v = w.value
		default:
			k, v = page[0].key, page[0].value
			rec.add(page[0])
			page = page[1:]
		}
		if !fn(k, v) {
			rec.end = append(bytes.Clone(k), 0)
			t.scans = append(t.scans, rec)
			return nil
		}
	}
}

// kvPair is a key and its value, copied out of the file.
type kvPair struct{ key, value []byte }

func (r *scanRead) add(p kvPair) {
	r.keys = append(r.keys, p.key)
	r.vals = append(r.vals, p.value)
}

// readPage returns up to n keys of bucket from from up to to (nil: no
// bound), and whether more follow.
func (t *txn) readPage(bucket, from, to []byte, n int) (page []kvPair, more bool, err error) {
	err = t.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(from); k != nil && (to == nil || bytes.Compare(k, to) < 0); k, v = c.Next() {
			if len(page) == n {
				more = true
				break
			}
			page = append(page, kvPair{bytes.Clone(k), bytes.Clone(v)})
		}
		return nil
	})
	return page, more, err
}

// Count counts the keys by scanning them, so that the count is checked
// at Commit like any read.
func (t *txn) Count(bucket []byte) (int, error) {
	n := 0
	err := t.Scan(bucket, nil, nil, func(_, _ []byte) bool { n++; return true })
	return n, err
}

// NextSequence takes a number from the block of the bucket's sequence
// that the Store reserved.
func (t *txn) NextSequence(bucket []byte) (uint64, error) {
	if t.committed {
		return 0, errCommitted
	}
	if err := t.ctx.Err(); err != nil {
		return 0, err
	}
	return t.s.nextSequence(bucket)
}

// Commit checks every read again and applies the writes, in one
// transaction of the group commit.
func (t *txn) Commit(ctx context.Context) error {
	if t.committed {
		return errCommitted
	}
	t.committed = true
	if len(t.writes) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &call{done: make(chan error, 1)}
	c.fn = func(tx *bolt.Tx) error {
		if err := t.check(tx); err != nil {
			return err
		}
		return t.apply(tx, &c.changes)
	}
	return t.s.submit(c)
}

// check returns an error wrapping kv.ErrConflict when tx no longer holds
// what t read.
func (t *txn) check(tx *bolt.Tx) error {
	for k, v := range t.reads {
		var cur []byte
		if b := tx.Bucket([]byte(k.bucket)); b != nil {
			cur = b.Get([]byte(k.key))
		}
		if (cur == nil) != (v == nil) || !bytes.Equal(cur, v) {
			return fmt.Errorf("boltstore: commit: %w (key %q of bucket %q)", kv.ErrConflict, k.key, k.bucket)
		}
	}
	for _, r := range t.scans {
		if !r.current(tx) {
			return fmt.Errorf("boltstore: commit: %w (range %q to %q of bucket %q)", kv.ErrConflict, r.from, r.end, r.bucket)
		}
	}
	return nil
}

// current reports whether tx holds exactly the keys and values r read.
func (r *scanRead) current(tx *bolt.Tx) bool {
	b := tx.Bucket(r.bucket)
	if b == nil {
		return len(r.keys) == 0
	}
	c := b.Cursor()
	i := 0
	for k, v := c.Seek(r.from); k != nil && (r.end == nil || bytes.Compare(k, r.end) < 0); k, v = c.Next() {
		if i == len(r.keys) || !bytes.Equal(k, r.keys[i]) || !bytes.Equal(v, r.vals[i]) {
			return false
		}
		i++
	}
	return i == len(r.keys)
}

// apply makes t's writes in tx, in key order, creating buckets as
// needed, and records them in rec.
func (t *txn) apply(tx *bolt.Tx, rec *[]change) error {
	keys := slices.SortedFunc(mapKeys(t.writes), func(a, b bkey) int {
		if c := strings.Compare(a.bucket, b.bucket); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	w := boltTx{tx: tx, rec: rec}
	for _, k := range keys {
		var err error
		if v := t.writes[k]; v.deleted {
			err = w.Delete([]byte(k.bucket), []byte(k.key))
		} else {
			err = w.Put([]byte(k.bucket), []byte(k.key), v.value)
		}
		if err != nil {
			return fmt.Errorf("boltstore: commit: %w", err)
		}
	}
	return nil
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// seqReserve is how many numbers of a bucket's sequence a Store reserves
// at once for its Txns.
const seqReserve = 100

// seqBlock is a reserved part of a sequence: next up to limit.
type seqBlock struct{ next, limit uint64 }

// nextSequence returns the next number of the bucket's sequence from the
// block the Store reserved, reserving another when it is used up by
// advancing the bucket's own bbolt sequence past it in a commit of its
// own. Update's NextSequence takes its numbers from the same bbolt
// sequence, so no number is given twice; numbers of Txns that do not
// commit, and those left in a block when the Store closes, are skipped.
func (s *Store) nextSequence(bucket []byte) (uint64, error) {
	s.seqMu.Lock()
	defer s.seqMu.Unlock()
	if b := s.seqs[string(bucket)]; b != nil && b.next < b.limit {
		b.next++
		return b.next, nil
	}
	var first uint64
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		first = b.Sequence() + 1
		return b.SetSequence(b.Sequence() + seqReserve)
	})
	if err != nil {
		return 0, fmt.Errorf("boltstore: sequence of %q: %w", bucket, err)
	}
	s.seqs[string(bucket)] = &seqBlock{next: first, limit: first + seqReserve - 1}
	return first, nil
}

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
