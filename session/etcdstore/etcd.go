// Package etcdstore is the store of replicas: a kv.Store on an etcd
// cluster, so that several bot processes share one set of games.
//
// A transaction reads at one revision of the cluster and commits in one
// etcd Txn whose If compares the mod revision of every key it read (and,
// for each range it scanned, that nothing in the range is newer than the
// snapshot): a commit succeeds only if nothing it read changed, and the
// function runs again otherwise. There is no global lock. A Txn of Begin
// is the same transaction, committed by its caller, and a conflict is
// returned to it instead of running anything again.
//
// A commit whose answer is lost (the connection drops after the cluster
// applied it) is resolved, not guessed: every commit also creates a unique
// token key, and after an ambiguous error the store asks the cluster, in
// one Txn, whether the token exists and, if not, creates it as aborted so
// that the lost commit can never apply later. Only when the cluster stays
// unreachable do Update and Commit return kv.ErrCommitUnknown.
package etcdstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardbot/boardbot/session/kv"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Defaults of Options.
const (
	DefaultPrefix         = "boardbot/"
	DefaultDialTimeout    = 5 * time.Second
	DefaultRequestTimeout = 5 * time.Second
	// DefaultMaxTxnOps is etcd's default --max-txn-ops: how many compares,
	// and how many writes, one Txn may carry.
	DefaultMaxTxnOps = 128
)

// ErrUnreachable is returned by Open when the cluster does not answer
// within the dial timeout: it may not have started yet, or be too busy;
// trying again later may succeed.
var ErrUnreachable = errors.New("etcdstore: the cluster does not answer")

// tokenTTL is how long a commit token outlives its commit (seconds of
// its lease); tokens are only read while resolving a lost answer, which
// gives up well before.
const tokenTTL = 600

// leaseEvery is how often a new token lease is granted.
const leaseEvery = time.Minute

// scanPage is how many keys a Scan fetches per request.
const scanPage = 64

// Options configures Open.
type Options struct {
	// Endpoints are the cluster members' client URLs.
	Endpoints []string
	// Prefix is put before every key; default DefaultPrefix.
	Prefix string
	// Username and Password authenticate to the cluster when set.
	Username, Password string
	// TLS secures the connection when not nil.
	TLS *tls.Config
	// DialTimeout bounds connecting; default DefaultDialTimeout.
	DialTimeout time.Duration
	// RequestTimeout bounds each request to the cluster; default
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// ResolveTimeout bounds how long Update tries to learn the outcome of
	// a commit whose answer was lost before returning
	// kv.ErrCommitUnknown; default three request timeouts.
	ResolveTimeout time.Duration
	// MaxTxnOps is the cluster's --max-txn-ops; default DefaultMaxTxnOps.
	MaxTxnOps int
	// Client, when set, is used instead of dialling Endpoints; Close does
	// not close it.
	Client *clientv3.Client
}

// Stats counts what the store's transactions met, for benchmarks and
// metrics.
type Stats struct {
	// Commits is how many Updates and Txns committed writes.
	Commits uint64
	// Conflicts is how many commits were refused because something read
	// had changed: each was followed by a rerun of its Update, or
	// returned kv.ErrConflict to its Txn.
	Conflicts uint64
	// Resolved is how many commits lost their answer and had their
	// outcome learnt from the cluster.
	Resolved uint64
	// Unknown is how many Updates and Txns returned kv.ErrCommitUnknown.
	Unknown uint64
}

// Store is a kv.Store on an etcd cluster: bucket b, key k is the etcd key
// prefix + b + "/" + k.
type Store struct {
	cli     *clientv3.Client
	own     bool
	prefix  string
	timeout time.Duration
	resolve time.Duration
	maxOps  int

	mu      sync.Mutex
	lease   clientv3.LeaseID
	leaseAt time.Time

	seqMu sync.Mutex
	seqs  map[string]block

	// closing ends when the store closes, and with it every watch.
	closing  context.Context
	closeAll context.CancelFunc

	commits, conflicts, resolved, unknown atomic.Uint64
}

// Open connects to the cluster the options name.
func Open(opts Options) (*Store, error) {
	s := &Store{
		prefix: opts.Prefix, timeout: opts.RequestTimeout, resolve: opts.ResolveTimeout,
		maxOps: opts.MaxTxnOps, cli: opts.Client,
	}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.timeout <= 0 {
		s.timeout = DefaultRequestTimeout
	}
	if s.resolve <= 0 {
		s.resolve = 3 * s.timeout
	}
	if s.maxOps <= 0 {
		s.maxOps = DefaultMaxTxnOps
	}
	s.closing, s.closeAll = context.WithCancel(context.Background())
	if s.cli == nil {
		if len(opts.Endpoints) == 0 {
			return nil, errors.New("etcdstore: no endpoints")
		}
		dial := opts.DialTimeout
		if dial <= 0 {
			dial = DefaultDialTimeout
		}
		cli, err := clientv3.New(clientv3.Config{
			Endpoints: opts.Endpoints, DialTimeout: dial, TLS: opts.TLS,
			Username: opts.Username, Password: opts.Password, Logger: zap.NewNop(),
		})
		if err != nil {
			return nil, fmt.Errorf("etcdstore: connect to %v: %w", opts.Endpoints, err)
		}
		s.cli, s.own = cli, true
		ctx, cancel := context.WithTimeout(context.Background(), dial)
		_, err = cli.Get(ctx, s.prefix, clientv3.WithCountOnly())
		cancel()
		if err != nil {
			cli.Close()
			return nil, fmt.Errorf("etcdstore: reach %v: %w: %w", opts.Endpoints, ErrUnreachable, err)
		}
	}
	return s, nil
}

// Client returns the etcd client of the store, for elections and locks.
func (s *Store) Client() *clientv3.Client { return s.cli }

// Prefix returns the prefix of the store's keys.
func (s *Store) Prefix() string { return s.prefix }

// MaxOps returns how many keys one transaction may read, and how many it
// may write.
func (s *Store) MaxOps() int { return s.maxOps - 1 } // one of each is the commit token

// Shared returns true: replicas share the cluster.
func (s *Store) Shared() bool { return true }

// Stats returns the counts so far.
func (s *Store) Stats() Stats {
	return Stats{Commits: s.commits.Load(), Conflicts: s.conflicts.Load(), Resolved: s.resolved.Load(), Unknown: s.unknown.Load()}
}

// Close ends the store's watches and closes the client when Open dialled
// it.
func (s *Store) Close() error {
	s.closeAll()
	if s.own {
		return s.cli.Close()
	}
	return nil
}

// bucketKey returns the etcd key of key in bucket.
func (s *Store) bucketKey(bucket, key []byte) string {
	return s.prefix + string(bucket) + "/" + string(key)
}

// bucketEnd returns the etcd key after every key of bucket.
func (s *Store) bucketEnd(bucket []byte) string {
	return s.prefix + string(bucket) + "0" // '0' follows '/'
}

// View runs fn on one snapshot of the cluster.
func (s *Store) View(ctx context.Context, fn func(kv.Tx) error) error {
	for {
		t := s.newTx(ctx, false)
		err := safeCall(fn, t)
		if errors.Is(err, rpctypes.ErrCompacted) {
			continue // the snapshot went away under a long read
		}
		return err
	}
}

// Update runs fn and commits its writes if nothing it read has changed,
// running it again otherwise.
func (s *Store) Update(ctx context.Context, fn func(kv.Tx) error) error {
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if attempt > 2 {
			// Many writers on the same keys: back off a little, at random,
			// so that they stop colliding.
			d := time.Duration(mrand.N(int64(min(attempt, 20)))+1) * time.Millisecond
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
		}
		t := s.newTx(ctx, true)
		err := safeCall(fn, t)
		if errors.Is(err, rpctypes.ErrCompacted) {
			continue
		}
		if err != nil {
			return err
		}
		if out, err := s.commit(ctx, t); err != nil || out == committed {
			return err
		}
	}
}

// Begin starts an optimistic transaction: its reads are made at the
// revision of its first read and remembered, with their mod revisions,
// for the compares of its commit; its writes wait in the Txn.
func (s *Store) Begin(ctx context.Context) kv.Txn {
	return &txn{tx: s.newTx(ctx, true)}
}

// txn is a kv.Txn: a writable tx that its caller commits.
type txn struct{ *tx }

// Commit sends the writes in one etcd Txn guarded by the reads. When the
// answer is lost and the cluster says the commit did not apply (and now
// never will), it is sent again, still guarded by the same reads.
func (t txn) Commit(ctx context.Context) error {
	if t.done {
		return errCommitted
	}
	t.done = true
	for {
		out, err := t.s.commit(ctx, t.tx)
		switch {
		case err != nil:
			return err
		case out == committed:
			return nil
		case out == conflict:
			return fmt.Errorf("etcdstore: commit: %w", kv.ErrConflict)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("etcdstore: commit: %w", err)
		}
	}
}

// errCommitted is returned by a Txn used after its Commit.
var errCommitted = errors.New("etcdstore: transaction used after Commit")

// safeCall runs fn, turning a panic into an error.
func safeCall(fn func(kv.Tx) error, t *tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("etcdstore: update panicked: %v", p)
		}
	}()
	return fn(t)
}

// outcome is what became of a commit that returned no error.
type outcome int

const (
	// committed: the writes applied.
	committed outcome = iota
	// conflict: something read had changed; nothing applied.
	conflict
	// fenced: the answer was lost, and the cluster said the commit had
	// not applied; it never will.
	fenced
)

// commit sends t's writes in one Txn guarded by its reads, and counts
// the outcome in the Stats.
func (s *Store) commit(ctx context.Context, t *tx) (outcome, error) {
	if len(t.writes) == 0 {
		return committed, nil
	}
	cmps := t.compares()
	if len(cmps)+1 > s.maxOps || len(t.writes)+1 > s.maxOps {
		return conflict, fmt.Errorf("etcdstore: %w: %d reads and %d writes, etcd takes at most %d of each per transaction (one is the commit token)",
			kv.ErrTooLarge, len(cmps), len(t.writes), s.maxOps-1)
	}
	lease, err := s.tokenLease(ctx)
	if err != nil {
		return conflict, err
	}
	token := s.prefix + "_commit/" + newToken()
	ops := make([]clientv3.Op, 0, len(t.writes)+1)
	for _, k := range slices.Sorted(mapKeys(t.writes)) {
		if v := t.writes[k]; v.deleted {
			ops = append(ops, clientv3.OpDelete(k))
		} else {
			ops = append(ops, clientv3.OpPut(k, string(v.value)))
		}
	}
	ops = append(ops, clientv3.OpPut(token, "committed", clientv3.WithLease(lease)))
	cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(token), "=", 0))

	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	resp, err := s.cli.Txn(rctx).If(cmps...).Then(ops...).Commit()
	cancel()
	switch {
	case err == nil && resp.Succeeded:
		s.commits.Add(1)
		return committed, nil
	case err == nil:
		s.conflicts.Add(1)
		return conflict, nil
	case definite(err):
		return conflict, fmt.Errorf("etcdstore: commit: %w", err)
	}
	// The answer is lost: the commit may or may not have applied.
	applied, rerr := s.settle(ctx, token, lease)
	if rerr != nil {
		s.unknown.Add(1)
		return conflict, fmt.Errorf("etcdstore: commit: %w: %v; then: %v", kv.ErrCommitUnknown, err, rerr)
	}
	s.resolved.Add(1)
	if applied {
		s.commits.Add(1)
		return committed, nil
	}
	return fenced, nil
}

// settle learns whether the commit with token applied, and if it did not,
// makes sure it never will by creating the token as aborted. It tries
// until the resolve timeout, even when ctx is done: the caller must not
// be told a guess.
func (s *Store) settle(ctx context.Context, token string, lease clientv3.LeaseID) (bool, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.resolve)
	defer cancel()
	var last error
	for wait := time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		rctx, rcancel := context.WithTimeout(ctx, s.timeout)
		resp, err := s.cli.Txn(rctx).
			If(clientv3.Compare(clientv3.Value(token), "=", "committed")).
			Else(clientv3.OpPut(token, "aborted", clientv3.WithLease(lease))).
			Commit()
		rcancel()
		if err == nil {
			return resp.Succeeded, nil
		}
		last = err
		select {
		case <-ctx.Done():
			return false, last
		case <-time.After(wait):
		}
	}
}

// definite reports whether err says the cluster refused a request
// without applying it.
func definite(err error) bool {
	for _, e := range []error{
		rpctypes.ErrTooManyOps, rpctypes.ErrDuplicateKey, rpctypes.ErrRequestTooLarge,
		rpctypes.ErrLeaseNotFound, rpctypes.ErrPermissionDenied, rpctypes.ErrAuthFailed,
		rpctypes.ErrUserEmpty, rpctypes.ErrInvalidAuthToken, rpctypes.ErrAuthNotEnabled,
		rpctypes.ErrKeyNotFound, rpctypes.ErrEmptyKey, rpctypes.ErrCompacted,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// tokenLease returns the lease commit tokens are put under: a new one
// every leaseEvery, so that tokens expire tokenTTL after their commit.
func (s *Store) tokenLease(ctx context.Context) (clientv3.LeaseID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lease != 0 && time.Since(s.leaseAt) < leaseEvery {
		return s.lease, nil
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	resp, err := s.cli.Grant(rctx, tokenTTL)
	if err != nil {
		return 0, fmt.Errorf("etcdstore: grant token lease: %w", err)
	}
	s.lease, s.leaseAt = resp.ID, time.Now()
	return s.lease, nil
}

// newToken returns a random commit token.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// nonNil returns v, or an empty value for nil: etcd keeps no difference
// between the two, and nil means absent.
func nonNil(v []byte) []byte {
	if v == nil {
		return []byte{}
	}
	return v
}

// write is a pending write of a transaction.
type write struct {
	value   []byte
	deleted bool
}

// span is a range a transaction scanned: [start, end).
type span struct{ start, end string }

// tx is a transaction: reads at one revision, writes buffered until
// commit.
type tx struct {
	s        *Store
	ctx      context.Context
	writable bool
	// rev is the snapshot's revision, fixed by the first read.
	rev int64
	// reads holds the mod revision (0 when absent) of every key read.
	reads map[string]int64
	// vals holds the value (nil when absent) of keys read, by etcd key.
	vals  map[string][]byte
	spans []span
	// writes holds the pending writes by etcd key.
	writes map[string]write
	// done is set by the Commit of a Txn.
	done bool
}

func (s *Store) newTx(ctx context.Context, writable bool) *tx {
	return &tx{s: s, ctx: ctx, writable: writable, reads: map[string]int64{}, vals: map[string][]byte{}, writes: map[string]write{}}
}

// get runs a range request at the snapshot's revision.
func (t *tx) get(key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	if t.done {
		return nil, errCommitted
	}
	if t.rev != 0 {
		opts = append(opts, clientv3.WithRev(t.rev))
	}
	ctx, cancel := context.WithTimeout(t.ctx, t.s.timeout)
	defer cancel()
	resp, err := t.s.cli.Get(ctx, key, opts...)
	if err != nil {
		return nil, fmt.Errorf("etcdstore: read: %w", err)
	}
	if t.rev == 0 {
		t.rev = resp.Header.Revision
	}
	return resp, nil
}

// compares returns the Txn conditions that hold when nothing t read has
// changed.
func (t *tx) compares() []clientv3.Cmp {
	cmps := make([]clientv3.Cmp, 0, len(t.reads)+len(t.spans))
	for _, k := range slices.Sorted(mapKeys(t.reads)) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(k), "=", t.reads[k]))
	}
	for _, sp := range t.spans {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(sp.start).WithRange(sp.end), "<", t.rev+1))
	}
	return cmps
}

// known returns what t returns for etcd key k without asking the
// cluster: its pending write, or what it read before.
func (t *tx) known(k string) ([]byte, bool) {
	if w, ok := t.writes[k]; ok {
		if w.deleted {
			return nil, true
		}
		return w.value, true
	}
	v, ok := t.vals[k]
	return v, ok
}

// found records what a read of etcd key k returned (p nil: nothing).
func (t *tx) found(k string, p *mvccpb.KeyValue) {
	if p == nil {
		t.reads[k], t.vals[k] = 0, nil
		return
	}
	t.reads[k], t.vals[k] = p.ModRevision, nonNil(p.Value)
}

// AssumeAbsent records key as read and absent (mod revision 0), unless
// t read it or wrote it already; Commit compares it as any read.
func (t *tx) AssumeAbsent(bucket, key []byte) {
	k := t.s.bucketKey(bucket, key)
	if _, ok := t.known(k); !ok {
		t.found(k, nil)
	}
}

func (t *tx) Get(bucket, key []byte) ([]byte, error) {
	if t.done {
		return nil, errCommitted
	}
	k := t.s.bucketKey(bucket, key)
	if v, ok := t.known(k); ok {
		return v, nil
	}
	resp, err := t.get(k)
	if err != nil {
		return nil, err
	}
	var p *mvccpb.KeyValue
	if len(resp.Kvs) > 0 {
		p = resp.Kvs[0]
	}
	t.found(k, p)
	return t.vals[k], nil
}

// GetAll reads the keys t knows nothing of yet in one etcd Txn of range
// requests, at t's revision (etcd reads each request of a Txn at the
// revision it names, as a lone Range).
func (t *tx) GetAll(keys []kv.Key) ([][]byte, error) {
	if t.done {
		return nil, errCommitted
	}
	ek := make([]string, len(keys))
	var fetch []string
	distinct := map[string]bool{}
	for i, k := range keys {
		ek[i] = t.s.bucketKey(k.Bucket, k.Key)
		if distinct[ek[i]] {
			continue
		}
		distinct[ek[i]] = true
		if _, ok := t.known(ek[i]); !ok {
			fetch = append(fetch, ek[i])
		}
	}
	if len(distinct) > t.s.MaxOps() {
		return nil, fmt.Errorf("etcdstore: read: %w: %d keys at once, etcd takes at most %d per transaction",
			kv.ErrTooLarge, len(distinct), t.s.MaxOps())
	}
	if len(fetch) > 0 {
		var opts []clientv3.OpOption
		if t.rev != 0 {
			opts = append(opts, clientv3.WithRev(t.rev))
		}
		ops := make([]clientv3.Op, len(fetch))
		for i, k := range fetch {
			ops[i] = clientv3.OpGet(k, opts...)
		}
		ctx, cancel := context.WithTimeout(t.ctx, t.s.timeout)
		resp, err := t.s.cli.Txn(ctx).Then(ops...).Commit()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("etcdstore: read: %w", err)
		}
		if len(resp.Responses) != len(fetch) {
			return nil, fmt.Errorf("etcdstore: read: %d answers to %d reads", len(resp.Responses), len(fetch))
		}
		if t.rev == 0 {
			t.rev = resp.Header.Revision
		}
		for i, k := range fetch {
			var p *mvccpb.KeyValue
			if r := resp.Responses[i].GetResponseRange(); r != nil && len(r.Kvs) > 0 {
				p = r.Kvs[0]
			}
			t.found(k, p)
		}
	}
	vs := make([][]byte, len(keys))
	for i, k := range ek {
		vs[i], _ = t.known(k)
	}
	return vs, nil
}

func (t *tx) Put(bucket, key, value []byte) error {
	if t.done {
		return errCommitted
	}
	if !t.writable {
		return kv.ErrReadOnly
	}
	t.writes[t.s.bucketKey(bucket, key)] = write{value: nonNil(bytes.Clone(value))}
	return nil
}

func (t *tx) Delete(bucket, key []byte) error {
	if t.done {
		return errCommitted
	}
	if !t.writable {
		return kv.ErrReadOnly
	}
	t.writes[t.s.bucketKey(bucket, key)] = write{deleted: true}
	return nil
}

// Scan merges the cluster's keys, a page at a time, with the pending
// writes. In an Update, every key given to fn counts as read, and so does
// the absence of other keys in the range it covered.
func (t *tx) Scan(bucket, from, to []byte, fn func(k, v []byte) bool) error {
	base := t.s.prefix + string(bucket) + "/"
	start, end := base+string(from), t.s.bucketEnd(bucket)
	if to != nil {
		end = base + string(to)
	}
	if start >= end {
		return nil
	}
	var pending []string
	for k := range t.writes {
		if k >= start && k < end {
			pending = append(pending, k)
		}
	}
	slices.Sort(pending)
	covered := end // the end of the range read, once fn stops
	next := start
	var page []*kvPair
	more := true
	stop := false
	for !stop {
		if len(page) == 0 && more {
			resp, err := t.get(next, clientv3.WithRange(end), clientv3.WithLimit(scanPage))
			if err != nil {
				return err
			}
			for _, p := range resp.Kvs {
				page = append(page, &kvPair{key: string(p.Key), value: nonNil(p.Value), rev: p.ModRevision})
			}
			more = resp.More
			if len(page) > 0 {
				next = page[len(page)-1].key + "\x00"
			}
		}
		// The next key: from the cluster or from the pending writes,
		// whichever sorts first; a pending write hides the cluster's.
		var k string
		var v []byte
		switch {
		case len(page) == 0 && len(pending) == 0:
			stop = true
			continue
		case len(pending) > 0 && (len(page) == 0 || pending[0] <= page[0].key):
			k = pending[0]
			pending = pending[1:]
			if len(page) > 0 && page[0].key == k {
				t.read(page[0])
				page = page[1:]
			}
			w := t.writes[k]
			if w.deleted {
				continue
			}
			v = w.value
		default:
			p := page[0]
			page = page[1:]
			t.read(p)
			k, v = p.key, p.value
		}
		if !fn([]byte(k[len(base):]), v) {
			covered = k + "\x00"
			stop = true
		}
	}
	if t.writable {
		t.spans = append(t.spans, span{start, covered})
	}
	return nil
}

// kvPair is a key read by a Scan.
type kvPair struct {
	key   string
	value []byte
	rev   int64
}

// read records that p was read, unless t wrote it first.
func (t *tx) read(p *kvPair) {
	if !t.writable {
		return
	}
	if _, ok := t.reads[p.key]; !ok {
		t.reads[p.key], t.vals[p.key] = p.rev, p.value
	}
}

func (t *tx) Count(bucket []byte) (int, error) {
	if t.writable {
		n := 0
		err := t.Scan(bucket, nil, nil, func(_, _ []byte) bool { n++; return true })
		return n, err
	}
	resp, err := t.get(t.s.prefix+string(bucket)+"/", clientv3.WithRange(t.s.bucketEnd(bucket)), clientv3.WithCountOnly())
	if err != nil {
		return 0, err
	}
	return int(resp.Count), nil
}

func (t *tx) NextSequence(bucket []byte) (uint64, error) {
	if t.done {
		return 0, errCommitted
	}
	if !t.writable {
		return 0, kv.ErrReadOnly
	}
	return t.s.nextSequence(t.ctx, string(bucket))
}

// seqBlock is how many numbers of a sequence a Store reserves at once.
const seqBlock = 100

// block is the part of a sequence a Store reserved: next up to limit.
type block struct{ next, limit uint64 }

// nextSequence returns the next number of the bucket's sequence from the
// block this Store reserved, reserving another (in a commit of its own,
// so that transactions that take numbers never conflict over them) when
// it is used up. A number is never given twice; numbers of a transaction
// that does not commit are skipped.
func (s *Store) nextSequence(ctx context.Context, bucket string) (uint64, error) {
	s.seqMu.Lock()
	defer s.seqMu.Unlock()
	if b := s.seqs[bucket]; b.next < b.limit {
		b.next++
		s.seqs[bucket] = b
		return b.next, nil
	}
	k := s.prefix + "_seq/" + bucket
	for {
		rctx, cancel := context.WithTimeout(ctx, s.timeout)
		resp, err := s.cli.Get(rctx, k)
		cancel()
		if err != nil {
			return 0, fmt.Errorf("etcdstore: sequence of %s: %w", bucket, err)
		}
		var n uint64
		var rev int64
		if len(resp.Kvs) > 0 {
			rev = resp.Kvs[0].ModRevision
			if n, err = strconv.ParseUint(string(resp.Kvs[0].Value), 10, 64); err != nil {
				return 0, fmt.Errorf("etcdstore: sequence of %s: %w", bucket, err)
			}
		}
		rctx, cancel = context.WithTimeout(ctx, s.timeout)
		tr, err := s.cli.Txn(rctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", rev)).
			Then(clientv3.OpPut(k, strconv.FormatUint(n+seqBlock, 10))).Commit()
		cancel()
		// A lost answer only wastes a block: the next try reserves anew.
		if err != nil && definite(err) {
			return 0, fmt.Errorf("etcdstore: sequence of %s: %w", bucket, err)
		}
		if err == nil && tr.Succeeded {
			if s.seqs == nil {
				s.seqs = map[string]block{}
			}
			s.seqs[bucket] = block{next: n + 1, limit: n + seqBlock}
			return n + 1, nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
}
