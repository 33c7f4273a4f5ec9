package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names of the bbolt file.
var (
	bucketGames   = []byte("games")   // game id → gameRecord (JSON)
	bucketRunning = []byte("running") // platform, chat, user → id of the running AI game
)

// BoltOptions tunes OpenBolt. The zero value (or nil) means the documented
// defaults.
type BoltOptions struct {
	// LockTimeout is how long OpenBolt waits for another process to release
	// the file before failing with ErrLocked. Default 1 s.
	LockTimeout time.Duration
	// NoSync skips fsync on commit: faster, but a crash can lose committed
	// games. Only for tests and benchmarks that say so.
	NoSync bool
}

// BoltStore is a Store in one bbolt file.
type BoltStore struct {
	db *bolt.DB
}

// OpenBolt opens (creating it and its directory when missing) the bbolt file
// at path with mode 0600. It returns an error wrapping ErrLocked when
// another process holds the file for longer than the lock timeout.
func OpenBolt(path string, opts *BoltOptions) (*BoltStore, error) {
	if opts == nil {
		opts = &BoltOptions{}
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("session: open %s: %w", path, err)
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("session: open %s: %w (waited %v)", path, ErrLocked, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("session: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketGames, bucketRunning} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("session: open %s: create buckets: %w", path, err)
	}
	return &BoltStore{db: db}, nil
}

// DB returns the underlying bbolt database, for consistency checks and
// backups.
func (s *BoltStore) DB() *bolt.DB { return s.db }

// View runs fn in a read-only bbolt transaction.
func (s *BoltStore) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(tx *bolt.Tx) error { return fn(boltTx{tx}) })
}

// Update runs fn in a read-write bbolt transaction.
func (s *BoltStore) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return fn(boltTx{tx}) })
}

// Close closes the bbolt file.
func (s *BoltStore) Close() error { return s.db.Close() }

// boltTx implements Tx on a bbolt transaction.
type boltTx struct{ tx *bolt.Tx }

func (t boltTx) Game(id GameID) (Game, error) {
	data := t.tx.Bucket(bucketGames).Get([]byte(id))
	if data == nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, ErrNotFound)
	}
	return decodeGame(data) // decoding copies out of the mmap
}

func (t boltTx) PutGame(g Game) error {
	games := t.tx.Bucket(bucketGames)
	var old *Game
	if data := games.Get([]byte(g.ID)); data != nil {
		prev, err := decodeGame(data)
		if err != nil {
			return err
		}
		old = &prev
	}
	if (old == nil && g.Version != 1) || (old != nil && old.Version != g.Version-1) {
		return fmt.Errorf("session: put game %q version %d: %w", g.ID, g.Version, ErrConflict)
	}
	data, err := encodeGame(&g)
	if err != nil {
		return fmt.Errorf("session: put game %q: %w", g.ID, err)
	}
	if err := games.Put([]byte(g.ID), data); err != nil {
		return fmt.Errorf("session: put game %q: %w", g.ID, err)
	}
	return t.indexRunning(old, &g)
}

// indexRunning keeps the running-game index in step when a game goes from
// old (nil when new) to g.
func (t boltTx) indexRunning(old, g *Game) error {
	running := t.tx.Bucket(bucketRunning)
	if old != nil {
		for _, k := range runningKeys(old) {
			if err := running.Delete(k); err != nil {
				return err
			}
		}
	}
	for _, k := range runningKeys(g) {
		if err := running.Put(k, []byte(g.ID)); err != nil {
			return err
		}
	}
	return nil
}

// runningKeys returns the index keys of a running game against the AI:
// one for its human player.
func runningKeys(g *Game) [][]byte {
	if g.Status != Running || !(g.Seats[0].IsAI() || g.Seats[1].IsAI()) {
		return nil
	}
	var keys [][]byte
	for _, s := range g.Seats {
		if !s.IsAI() {
			keys = append(keys, runningKey(g.Platform, g.Chat, s.User.ID))
		}
	}
	return keys
}

// runningKey joins platform, chat and user with NUL bytes, which none of
// them contains.
func runningKey(p Platform, chat, userID string) []byte {
	return []byte(string(p) + "\x00" + chat + "\x00" + userID)
}

func (t boltTx) NewGameID() (GameID, error) {
	n, err := t.tx.Bucket(bucketGames).NextSequence()
	if err != nil {
		return "", fmt.Errorf("session: new game id: %w", err)
	}
	return GameID(strconv.FormatUint(n, 36)), nil
}

func (t boltTx) RunningGame(p Platform, chat, userID string) (GameID, error) {
	id := t.tx.Bucket(bucketRunning).Get(runningKey(p, chat, userID))
	if id == nil {
		return "", fmt.Errorf("session: running game of %q in %s chat %q: %w", userID, p, chat, ErrNotFound)
	}
	return GameID(id), nil // string conversion copies
}
