package boltstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boardbot/boardbot/session/kv"
	bolt "go.etcd.io/bbolt"
)

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
