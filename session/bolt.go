package session

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names of the bbolt file.
var (
	bucketGames        = []byte("games")        // game id → gameRecord (JSON)
	bucketRunning      = []byte("running")      // platform, chat, user → id of the running AI game
	bucketLive         = []byte("live")         // platform, chat, created, id → id of an open or running game
	bucketDeadlines    = []byte("deadlines")    // deadline, id → id of a live game
	bucketLast         = []byte("last")         // platform, chat, user → id of the user's last finished game
	bucketStats        = []byte("stats")        // platform, user → statsRecord
	bucketChatPlayers  = []byte("chatplayers")  // platform, chat, user → nothing
	bucketChatSettings = []byte("chatsettings") // platform, chat → settingsRecord
	bucketUserSettings = []byte("usersettings") // platform, user → settingsRecord
	bucketUserLive     = []byte("userlive")     // platform, user, id → id of an open or running game the user plays
	bucketInbox        = []byte("inbox")        // platform, update id (8 bytes) → the update, received but not handled
	bucketUpdates      = []byte("updates")      // platform, update id → updateRecord of a handled update
	bucketUpdateTimes  = []byte("updatetimes")  // time marked, platform, update id → nothing
	bucketFocus        = []byte("focus")        // platform, chat, user → id of the game the user last saw or touched
	allBuckets         = [][]byte{
		bucketGames, bucketRunning, bucketLive, bucketDeadlines, bucketLast,
		bucketStats, bucketChatPlayers, bucketChatSettings, bucketUserSettings,
		bucketUserLive, bucketInbox, bucketUpdates, bucketUpdateTimes, bucketFocus,
	}
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

// BoltStore is a Store in one bbolt file. Its Update uses group commit:
// an Update that finds no commit in progress commits at once; those that
// arrive while one is in progress queue up and commit together in the
// next transaction, so many games' changes share one fsync without
// waiting on a timer.
type BoltStore struct {
	db *bolt.DB

	mu sync.Mutex
	// queue holds the calls waiting for the next group commit.
	queue []*call
	// leading is set while some Update is committing a group.
	leading bool
}

// call is one Update waiting in a group commit.
type call struct {
	fn func(*bolt.Tx) error
	// done receives the call's result, or errLead when the call is to
	// commit the next group itself.
	done chan error
}

// errLead tells a waiting call that it leads the next group commit.
var errLead = errors.New("session: lead the next group commit")

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
		for _, b := range allBuckets {
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

// Update runs fn in a read-write bbolt transaction, grouped with the
// other Updates that arrived while the previous group was committing. fn
// may run more than once: when another function of its group fails, the
// group is rolled back and run again without it; a function that fails
// is run again alone, and its error there is the result.
func (s *BoltStore) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c := &call{fn: func(tx *bolt.Tx) error { return fn(boltTx{tx}) }, done: make(chan error, 1)}
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
// its own, and the others are committed again without it.
func (s *BoltStore) commitGroup(group []*call) {
	failed := -1
	err := s.db.Update(func(tx *bolt.Tx) error {
		for i, c := range group {
			if err := safeCall(c.fn, tx); err != nil {
				failed = i
				return err
			}
		}
		return nil
	})
	if failed < 0 || len(group) == 1 {
		for _, c := range group {
			c.done <- err
		}
		return
	}
	bad := group[failed]
	bad.done <- s.db.Update(func(tx *bolt.Tx) error { return safeCall(bad.fn, tx) })
	s.commitGroup(append(group[:failed:failed], group[failed+1:]...))
}

// safeCall runs fn, turning a panic into an error so that one bad
// function cannot take its group down with it.
func safeCall(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("session: update panicked: %v", p)
		}
	}()
	return fn(tx)
}

// Close closes the bbolt file.
func (s *BoltStore) Close() error { return s.db.Close() }

// LiveCount returns how many open challenges and running games the store
// holds, for metrics.
func (s *BoltStore) LiveCount() (int, error) {
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketLive).Stats().KeyN
		return nil
	})
	return n, err
}

// boltTx implements Tx on a bbolt transaction.
type boltTx struct{ tx *bolt.Tx }

func (t boltTx) Game(id GameID) (Game, error) {
	data := t.tx.Bucket(bucketGames).Get([]byte(id))
	if data == nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, ErrNotFound)
	}
	g, err := decodeGame(data) // decoding copies out of the mmap
	if err != nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, err)
	}
	return g, nil
}

func (t boltTx) PutGame(g Game) error {
	games := t.tx.Bucket(bucketGames)
	var old *Game
	if data := games.Get([]byte(g.ID)); data != nil {
		prev, err := decodeGameHeader(data)
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
	if err := t.index(old, &g); err != nil {
		return fmt.Errorf("session: put game %q: index: %w", g.ID, err)
	}
	return nil
}

// index keeps the indexes in step when a game goes from old (nil when new)
// to g: it deletes old's keys and puts g's.
func (t boltTx) index(old, g *Game) error {
	indexes := []struct {
		bucket []byte
		keys   func(*Game) [][]byte
	}{
		{bucketRunning, runningKeys},
		{bucketLive, liveKeys},
		{bucketUserLive, userLiveKeys},
		{bucketDeadlines, deadlineKeys},
	}
	for _, ix := range indexes {
		b := t.tx.Bucket(ix.bucket)
		if old != nil {
			for _, k := range ix.keys(old) {
				// Another game may have taken the key since (a new game
				// against the AI while an idle one awaited expiry).
				if !bytes.Equal(b.Get(k), []byte(old.ID)) {
					continue
				}
				if err := b.Delete(k); err != nil {
					return err
				}
			}
		}
		for _, k := range ix.keys(g) {
			if err := b.Put(k, []byte(g.ID)); err != nil {
				return err
			}
		}
	}
	if g.Status.Over() && g.Status.Played() && (old == nil || !old.Status.Over()) {
		last := t.tx.Bucket(bucketLast)
		for _, s := range g.Seats {
			if !s.IsAI() && s.User.ID != "" {
				if err := last.Put(userKey(g.Platform, g.Chat, s.User.ID), []byte(g.ID)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// liveKeys returns the live-game index key of an open or running game.
func liveKeys(g *Game) [][]byte {
	if g.Status.Over() {
		return nil
	}
	k := append([]byte(string(g.Platform)+"\x00"+g.Chat+"\x00"), timeKey(g.Created)...)
	return [][]byte{append(k, g.ID...)}
}

// userLiveKeys returns the per-user live-game index keys of an open or
// running game: one for each person in it whose id is known.
func userLiveKeys(g *Game) [][]byte {
	if g.Status.Over() {
		return nil
	}
	var keys [][]byte
	for _, s := range g.Seats {
		if !s.IsAI() && s.User.ID != "" {
			keys = append(keys, []byte(string(g.Platform)+"\x00"+s.User.ID+"\x00"+string(g.ID)))
		}
	}
	return keys
}

// deadlineKeys returns the deadline index key of a live game with a
// deadline.
func deadlineKeys(g *Game) [][]byte {
	if g.Status.Over() || g.Deadline.IsZero() {
		return nil
	}
	return [][]byte{append(timeKey(g.Deadline), g.ID...)}
}

// timeKey returns t as 8 bytes that sort in time order, for times from
// 1970 to 2262; earlier times sort first.
func timeKey(t time.Time) []byte {
	n := t.UnixNano()
	if t.Before(time.Unix(0, 0)) {
		n = 0
	}
	return binary.BigEndian.AppendUint64(nil, uint64(n))
}

// userKey joins platform, chat and user with NUL bytes.
func userKey(p Platform, chat, userID string) []byte {
	return []byte(string(p) + "\x00" + chat + "\x00" + userID)
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
			keys = append(keys, userKey(g.Platform, g.Chat, s.User.ID))
		}
	}
	return keys
}

func (t boltTx) NewGameID() (GameID, error) {
	n, err := t.tx.Bucket(bucketGames).NextSequence()
	if err != nil {
		return "", fmt.Errorf("session: new game id: %w", err)
	}
	return GameID(strconv.FormatUint(n, 36)), nil
}

func (t boltTx) RunningGame(p Platform, chat, userID string) (GameID, error) {
	id := t.tx.Bucket(bucketRunning).Get(userKey(p, chat, userID))
	if id == nil {
		return "", fmt.Errorf("session: running game of %q in %s chat %q: %w", userID, p, chat, ErrNotFound)
	}
	return GameID(id), nil // string conversion copies
}

func (t boltTx) LiveGames(p Platform, chat string) ([]GameID, error) {
	prefix := []byte(string(p) + "\x00" + chat + "\x00")
	var ids []GameID
	c := t.tx.Bucket(bucketLive).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		// A chat id may itself be a prefix of another chat's: the rest of
		// the key is exactly a time and the id.
		if len(k) == len(prefix)+8+len(v) {
			ids = append(ids, GameID(v))
		}
	}
	return ids, nil
}

func (t boltTx) UserLiveGames(p Platform, userID string) ([]GameID, error) {
	prefix := []byte(string(p) + "\x00" + userID + "\x00")
	var ids []GameID
	c := t.tx.Bucket(bucketUserLive).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		// A user id may itself be a prefix of another's: the rest of the
		// key is exactly the id.
		if len(k) == len(prefix)+len(v) {
			ids = append(ids, GameID(v))
		}
	}
	return ids, nil
}

// inboxKey returns the inbox key of update id of platform p: ids sort in
// order (offset so that negative ids sort first).
func inboxKey(p Platform, id int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(string(p)+"\x00"), uint64(id)^(1<<63))
}

func (t boltTx) PutInbox(p Platform, it InboxItem) error {
	return t.tx.Bucket(bucketInbox).Put(inboxKey(p, it.ID), it.Data)
}

func (t boltTx) DeleteInbox(p Platform, id int64) error {
	return t.tx.Bucket(bucketInbox).Delete(inboxKey(p, id))
}

func (t boltTx) Inbox(p Platform) ([]InboxItem, error) {
	prefix := []byte(string(p) + "\x00")
	var items []InboxItem
	c := t.tx.Bucket(bucketInbox).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		id := int64(binary.BigEndian.Uint64(k[len(prefix):]) ^ (1 << 63))
		items = append(items, InboxItem{ID: id, Data: bytes.Clone(v)})
	}
	return items, nil
}

// updateMarkKey returns the key of update id of platform p in bucketUpdates.
func updateMarkKey(p Platform, id string) []byte {
	return []byte(string(p) + "\x00" + id)
}

// An update mark is stored as its handling (8 bytes), its time (timeKey)
// and the game id.
const updateMarkHeader = 16

func (t boltTx) UpdateMark(p Platform, id string) (UpdateMark, bool, error) {
	data := t.tx.Bucket(bucketUpdates).Get(updateMarkKey(p, id))
	if data == nil {
		return UpdateMark{}, false, nil
	}
	if len(data) < updateMarkHeader {
		return UpdateMark{}, false, fmt.Errorf("session: mark of %s update %s: %w", p, id, ErrSchema)
	}
	return UpdateMark{
		Handling: binary.BigEndian.Uint64(data),
		At:       time.Unix(0, int64(binary.BigEndian.Uint64(data[8:]))),
		Game:     GameID(data[updateMarkHeader:]),
	}, true, nil
}

func (t boltTx) PutUpdateMark(p Platform, id string, m UpdateMark) error {
	key := updateMarkKey(p, id)
	marks, times := t.tx.Bucket(bucketUpdates), t.tx.Bucket(bucketUpdateTimes)
	if old := marks.Get(key); len(old) >= updateMarkHeader {
		if err := times.Delete(append(bytes.Clone(old[8:16]), key...)); err != nil {
			return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
		}
	}
	at := timeKey(m.At)
	data := binary.BigEndian.AppendUint64(nil, m.Handling)
	data = append(append(data, at...), m.Game...)
	if err := marks.Put(key, data); err != nil {
		return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
	}
	if err := times.Put(append(at, key...), nil); err != nil {
		return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
	}
	return nil
}

func (t boltTx) ForgetUpdateMarks(before time.Time, limit int) (int, error) {
	end := timeKey(before)
	marks, times := t.tx.Bucket(bucketUpdates), t.tx.Bucket(bucketUpdateTimes)
	var keys [][]byte
	c := times.Cursor()
	for k, _ := c.First(); k != nil && len(keys) < limit && bytes.Compare(k[:min(8, len(k))], end) < 0; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := times.Delete(k); err != nil {
			return 0, err
		}
		if len(k) > 8 {
			if err := marks.Delete(k[8:]); err != nil {
				return 0, err
			}
		}
	}
	return len(keys), nil
}

func (t boltTx) LastGame(p Platform, chat, userID string) (GameID, error) {
	id := t.tx.Bucket(bucketLast).Get(userKey(p, chat, userID))
	if id == nil {
		return "", fmt.Errorf("session: last game of %q in %s chat %q: %w", userID, p, chat, ErrNotFound)
	}
	return GameID(id), nil
}

func (t boltTx) Due(at time.Time, after DueGame, limit int) ([]DueGame, error) {
	end := timeKey(at)
	from := append(timeKey(after.Deadline), after.ID...)
	var due []DueGame
	c := t.tx.Bucket(bucketDeadlines).Cursor()
	for k, v := c.Seek(from); k != nil && len(due) < limit && bytes.Compare(k[:min(8, len(k))], end) <= 0; k, v = c.Next() {
		if len(k) < 8 || bytes.Equal(k, from) {
			continue
		}
		n := binary.BigEndian.Uint64(k)
		due = append(due, DueGame{ID: GameID(v), Deadline: time.Unix(0, int64(n)).UTC()})
	}
	return due, nil
}

func (t boltTx) Stats(p Platform, userID string) (Stats, error) {
	data := t.tx.Bucket(bucketStats).Get([]byte(string(p) + "\x00" + userID))
	if data == nil {
		return newStats(User{ID: userID}), nil
	}
	st, err := decodeStats(data)
	if err != nil {
		return Stats{}, fmt.Errorf("session: stats of %q on %s: %w", userID, p, err)
	}
	return st, nil
}

func (t boltTx) PutStats(p Platform, chat string, s Stats) error {
	if s.User.ID == "" {
		return fmt.Errorf("session: put stats: %w: no user", ErrBadRequest)
	}
	data, err := encodeStats(&s)
	if err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Bucket(bucketStats).Put([]byte(string(p)+"\x00"+s.User.ID), data); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Bucket(bucketChatPlayers).Put(userKey(p, chat, s.User.ID), nil); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	return nil
}

func (t boltTx) ChatPlayers(p Platform, chat string) ([]string, error) {
	prefix := []byte(string(p) + "\x00" + chat + "\x00")
	var ids []string
	c := t.tx.Bucket(bucketChatPlayers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if rest := k[len(prefix):]; bytes.IndexByte(rest, 0) < 0 {
			ids = append(ids, string(rest))
		}
	}
	return ids, nil
}

func (t boltTx) ChatSettings(p Platform, chat string) (ChatSettings, error) {
	data := t.tx.Bucket(bucketChatSettings).Get([]byte(string(p) + "\x00" + chat))
	if data == nil {
		return ChatSettings{}, nil
	}
	return decodeSettings[ChatSettings](data)
}

func (t boltTx) PutChatSettings(p Platform, chat string, s ChatSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Bucket(bucketChatSettings).Put([]byte(string(p)+"\x00"+chat), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of chat %q: %w", chat, err)
	}
	return nil
}

func (t boltTx) UserSettings(p Platform, userID string) (UserSettings, error) {
	data := t.tx.Bucket(bucketUserSettings).Get([]byte(string(p) + "\x00" + userID))
	if data == nil {
		return UserSettings{}, nil
	}
	return decodeSettings[UserSettings](data)
}

func (t boltTx) PutUserSettings(p Platform, userID string, s UserSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Bucket(bucketUserSettings).Put([]byte(string(p)+"\x00"+userID), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of user %q: %w", userID, err)
	}
	return nil
}

func (t boltTx) Focus(p Platform, chat, userID string) (GameID, error) {
	id := t.tx.Bucket(bucketFocus).Get(userKey(p, chat, userID))
	if id == nil {
		return "", fmt.Errorf("session: focus of %q in %s chat %q: %w", userID, p, chat, ErrNotFound)
	}
	return GameID(id), nil
}

func (t boltTx) PutFocus(p Platform, chat, userID string, id GameID) error {
	if err := t.tx.Bucket(bucketFocus).Put(userKey(p, chat, userID), []byte(id)); err != nil {
		return fmt.Errorf("session: put focus of %q in %s chat %q: %w", userID, p, chat, err)
	}
	return nil
}
