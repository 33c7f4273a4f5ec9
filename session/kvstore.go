package session

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// Bucket names in the kv store.
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
	bucketInboxClaims  = []byte("inboxclaims")  // platform, update id (8 bytes) → holder (8 bytes), time kept (timeKey)
	bucketUpdates      = []byte("updates")      // platform, update id → updateRecord of a handled update
	bucketUpdateTimes  = []byte("updatetimes")  // time marked, platform, update id → nothing
	bucketFocus        = []byte("focus")        // platform, chat, user → id of the game the user last saw or touched
	bucketHistory      = []byte("history")      // platform, user, inverted end time, id → id of a finished game the user played
	bucketChatHistory  = []byte("chathistory")  // platform, chat, user, inverted end time, id → id of a finished game the user played in the chat
	bucketEnded        = []byte("ended")        // end time, id → the game's platform, chat and players (endedRecord)
	allBuckets         = [][]byte{
		bucketGames, bucketRunning, bucketLive, bucketDeadlines, bucketLast,
		bucketStats, bucketChatPlayers, bucketChatSettings, bucketUserSettings,
		bucketUserLive, bucketInbox, bucketUpdates, bucketUpdateTimes, bucketFocus,
		bucketInboxClaims, bucketHistory, bucketChatHistory, bucketEnded,
	}
)

// KVStore is the Store of the game logic on a kv.Store: it lays games,
// their indexes, stats and settings out in the kv store's buckets.
type KVStore struct{ kv kv.Store }

// NewStore returns the Store on k; closing it closes k. When k keeps
// buckets that must exist before they are read by tools outside the
// store (bbolt's), NewStore creates them.
func NewStore(k kv.Store) (*KVStore, error) {
	if c, ok := k.(interface{ CreateBuckets(names ...[]byte) error }); ok {
		if err := c.CreateBuckets(allBuckets...); err != nil {
			return nil, fmt.Errorf("session: create buckets: %w", err)
		}
	}
	return &KVStore{kv: k}, nil
}

// KV returns the kv.Store under s.
func (s *KVStore) KV() kv.Store { return s.kv }

// View runs fn in a read-only transaction.
func (s *KVStore) View(ctx context.Context, fn func(Tx) error) error {
	return s.kv.View(ctx, func(tx kv.Tx) error { return fn(kvTx{tx}) })
}

// Update runs fn in a read-write transaction; fn may run more than once.
func (s *KVStore) Update(ctx context.Context, fn func(Tx) error) error {
	return s.kv.Update(ctx, func(tx kv.Tx) error { return fn(kvTx{tx}) })
}

// MaxOps returns how many keys one transaction of the kv store may read
// and write, or 0 for no limit.
func (s *KVStore) MaxOps() int {
	if m, ok := s.kv.(interface{ MaxOps() int }); ok {
		return m.MaxOps()
	}
	return 0
}

// Close closes the kv store.
func (s *KVStore) Close() error { return s.kv.Close() }

// LiveCount returns how many open challenges and running games the store
// holds, for metrics.
func (s *KVStore) LiveCount() (int, error) {
	n := 0
	err := s.kv.View(context.Background(), func(tx kv.Tx) error {
		var err error
		n, err = tx.Count(bucketLive)
		return err
	})
	return n, err
}

// kvTx implements Tx on a kv transaction.
type kvTx struct{ tx kv.Tx }

func (t kvTx) Game(id GameID) (Game, error) {
	data, err := t.tx.Get(bucketGames, []byte(id))
	if err != nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, err)
	}
	if data == nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, ErrNotFound)
	}
	g, err := decodeGame(data) // decoding copies
	if err != nil {
		return Game{}, fmt.Errorf("session: game %q: %w", id, err)
	}
	return g, nil
}

func (t kvTx) PutGame(g Game) error {
	var old *Game
	data, err := t.tx.Get(bucketGames, []byte(g.ID))
	if err != nil {
		return fmt.Errorf("session: put game %q: %w", g.ID, err)
	}
	if data != nil {
		prev, err := decodeGameHeader(data)
		if err != nil {
			return err
		}
		old = &prev
	}
	if (old == nil && g.Version != 1) || (old != nil && old.Version != g.Version-1) {
		return fmt.Errorf("session: put game %q version %d: %w", g.ID, g.Version, ErrConflict)
	}
	data, err = encodeGame(&g)
	if err != nil {
		return fmt.Errorf("session: put game %q: %w", g.ID, err)
	}
	if err := t.tx.Put(bucketGames, []byte(g.ID), data); err != nil {
		return fmt.Errorf("session: put game %q: %w", g.ID, err)
	}
	if err := t.index(old, &g); err != nil {
		return fmt.Errorf("session: put game %q: index: %w", g.ID, err)
	}
	return nil
}

// index keeps the indexes in step when a game goes from old (nil when new)
// to g: it deletes old's keys and puts g's.
func (t kvTx) index(old, g *Game) error {
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
		if old != nil {
			for _, k := range ix.keys(old) {
				// Another game may have taken the key since (a new game
				// against the AI while an idle one awaited expiry).
				v, err := t.tx.Get(ix.bucket, k)
				if err != nil {
					return err
				}
				if !bytes.Equal(v, []byte(old.ID)) {
					continue
				}
				if err := t.tx.Delete(ix.bucket, k); err != nil {
					return err
				}
			}
		}
		for _, k := range ix.keys(g) {
			if err := t.tx.Put(ix.bucket, k, []byte(g.ID)); err != nil {
				return err
			}
		}
	}
	if g.Status.Over() && g.Status.Played() && (old == nil || !old.Status.Over()) {
		for _, s := range g.Seats {
			if !s.IsAI() && s.User.ID != "" {
				if err := t.tx.Put(bucketLast, userKey(g.Platform, g.Chat, s.User.ID), []byte(g.ID)); err != nil {
					return err
				}
			}
		}
		return t.putHistory(g)
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

// getID returns the game id stored under key in bucket, or ErrNotFound
// wrapped with what.
func (t kvTx) getID(bucket, key []byte, what string) (GameID, error) {
	id, err := t.tx.Get(bucket, key)
	if err != nil {
		return "", fmt.Errorf("session: %s: %w", what, err)
	}
	if id == nil {
		return "", fmt.Errorf("session: %s: %w", what, ErrNotFound)
	}
	return GameID(id), nil // string conversion copies
}

// scanPrefix calls fn with the keys of bucket that start with prefix, in
// order, until fn returns false.
func (t kvTx) scanPrefix(bucket, prefix []byte, fn func(k, v []byte) bool) error {
	return t.tx.Scan(bucket, prefix, prefixEnd(prefix), fn)
}

// prefixEnd returns the least key above every key that starts with p, or
// nil when there is none.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

func (t kvTx) NewGameID() (GameID, error) {
	n, err := t.tx.NextSequence(bucketGames)
	if err != nil {
		return "", fmt.Errorf("session: new game id: %w", err)
	}
	return GameID(strconv.FormatUint(n, 36)), nil
}

func (t kvTx) RunningGame(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketRunning, userKey(p, chat, userID), fmt.Sprintf("running game of %q in %s chat %q", userID, p, chat))
}

func (t kvTx) LiveGames(p Platform, chat string) ([]GameID, error) {
	prefix := []byte(string(p) + "\x00" + chat + "\x00")
	var ids []GameID
	err := t.scanPrefix(bucketLive, prefix, func(k, v []byte) bool {
		// A chat id may itself be a prefix of another chat's: the rest of
		// the key is exactly a time and the id.
		if len(k) == len(prefix)+8+len(v) {
			ids = append(ids, GameID(v))
		}
		return true
	})
	return ids, err
}

func (t kvTx) UserLiveGames(p Platform, userID string) ([]GameID, error) {
	prefix := []byte(string(p) + "\x00" + userID + "\x00")
	var ids []GameID
	err := t.scanPrefix(bucketUserLive, prefix, func(k, v []byte) bool {
		// A user id may itself be a prefix of another's: the rest of the
		// key is exactly the id.
		if len(k) == len(prefix)+len(v) {
			ids = append(ids, GameID(v))
		}
		return true
	})
	return ids, err
}

// inboxKey returns the inbox key of update id of platform p: ids sort in
// order (offset so that negative ids sort first).
func inboxKey(p Platform, id int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(string(p)+"\x00"), uint64(id)^(1<<63))
}

func (t kvTx) PutInbox(p Platform, it InboxItem) error {
	return t.tx.Put(bucketInbox, inboxKey(p, it.ID), it.Data)
}

func (t kvTx) DeleteInbox(p Platform, id int64) error {
	if err := t.tx.Delete(bucketInboxClaims, inboxKey(p, id)); err != nil {
		return err
	}
	return t.tx.Delete(bucketInbox, inboxKey(p, id))
}

func (t kvTx) ClaimInbox(p Platform, id int64, holder uint64, at time.Time) error {
	return t.tx.Put(bucketInboxClaims, inboxKey(p, id), append(binary.BigEndian.AppendUint64(nil, holder), timeKey(at)...))
}

func (t kvTx) InboxClaim(p Platform, id int64) (uint64, time.Time, bool, error) {
	data, err := t.tx.Get(bucketInboxClaims, inboxKey(p, id))
	if err != nil || len(data) < 16 {
		return 0, time.Time{}, false, err
	}
	return binary.BigEndian.Uint64(data), time.Unix(0, int64(binary.BigEndian.Uint64(data[8:]))), true, nil
}

func (t kvTx) Inbox(p Platform) ([]InboxItem, error) {
	prefix := []byte(string(p) + "\x00")
	var items []InboxItem
	err := t.scanPrefix(bucketInbox, prefix, func(k, v []byte) bool {
		if len(k) == len(prefix)+8 {
			id := int64(binary.BigEndian.Uint64(k[len(prefix):]) ^ (1 << 63))
			items = append(items, InboxItem{ID: id, Data: bytes.Clone(v)})
		}
		return true
	})
	return items, err
}

// updateMarkKey returns the key of update id of platform p in bucketUpdates.
func updateMarkKey(p Platform, id string) []byte {
	return []byte(string(p) + "\x00" + id)
}

// An update mark is stored as its handling (8 bytes), its time (timeKey)
// and the game id.
const updateMarkHeader = 16

func (t kvTx) UpdateMark(p Platform, id string) (UpdateMark, bool, error) {
	data, err := t.tx.Get(bucketUpdates, updateMarkKey(p, id))
	if err != nil || data == nil {
		return UpdateMark{}, false, err
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

func (t kvTx) PutUpdateMark(p Platform, id string, m UpdateMark) error {
	key := updateMarkKey(p, id)
	old, err := t.tx.Get(bucketUpdates, key)
	if err != nil {
		return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
	}
	if len(old) >= updateMarkHeader {
		if err := t.tx.Delete(bucketUpdateTimes, append(bytes.Clone(old[8:16]), key...)); err != nil {
			return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
		}
	}
	at := timeKey(m.At)
	data := binary.BigEndian.AppendUint64(nil, m.Handling)
	data = append(append(data, at...), m.Game...)
	if err := t.tx.Put(bucketUpdates, key, data); err != nil {
		return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
	}
	if err := t.tx.Put(bucketUpdateTimes, append(at, key...), nil); err != nil {
		return fmt.Errorf("session: mark %s update %s: %w", p, id, err)
	}
	return nil
}

func (t kvTx) ForgetUpdateMarks(before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	end := timeKey(before)
	var keys [][]byte
	err := t.tx.Scan(bucketUpdateTimes, nil, end, func(k, _ []byte) bool {
		keys = append(keys, bytes.Clone(k))
		return len(keys) < limit
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := t.tx.Delete(bucketUpdateTimes, k); err != nil {
			return 0, err
		}
		if len(k) > 8 {
			if err := t.tx.Delete(bucketUpdates, k[8:]); err != nil {
				return 0, err
			}
		}
	}
	return len(keys), nil
}

func (t kvTx) LastGame(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketLast, userKey(p, chat, userID), fmt.Sprintf("last game of %q in %s chat %q", userID, p, chat))
}

func (t kvTx) Due(at time.Time, after DueGame, limit int) ([]DueGame, error) {
	if limit <= 0 {
		return nil, nil
	}
	end := timeKey(at)
	from := append(timeKey(after.Deadline), after.ID...)
	var due []DueGame
	err := t.tx.Scan(bucketDeadlines, from, prefixEnd(end), func(k, v []byte) bool {
		if len(k) < 8 || bytes.Equal(k, from) {
			return true
		}
		n := binary.BigEndian.Uint64(k)
		due = append(due, DueGame{ID: GameID(v), Deadline: time.Unix(0, int64(n)).UTC()})
		return len(due) < limit
	})
	return due, err
}

func (t kvTx) Stats(p Platform, userID string) (Stats, error) {
	data, err := t.tx.Get(bucketStats, []byte(string(p)+"\x00"+userID))
	if err != nil {
		return Stats{}, fmt.Errorf("session: stats of %q on %s: %w", userID, p, err)
	}
	if data == nil {
		return newStats(User{ID: userID}), nil
	}
	st, err := decodeStats(data)
	if err != nil {
		return Stats{}, fmt.Errorf("session: stats of %q on %s: %w", userID, p, err)
	}
	return st, nil
}

func (t kvTx) PutStats(p Platform, chat string, s Stats) error {
	if s.User.ID == "" {
		return fmt.Errorf("session: put stats: %w: no user", ErrBadRequest)
	}
	data, err := encodeStats(&s)
	if err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Put(bucketStats, []byte(string(p)+"\x00"+s.User.ID), data); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Put(bucketChatPlayers, userKey(p, chat, s.User.ID), nil); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	return nil
}

func (t kvTx) ChatPlayers(p Platform, chat string) ([]string, error) {
	prefix := []byte(string(p) + "\x00" + chat + "\x00")
	var ids []string
	err := t.scanPrefix(bucketChatPlayers, prefix, func(k, _ []byte) bool {
		if rest := k[len(prefix):]; bytes.IndexByte(rest, 0) < 0 {
			ids = append(ids, string(rest))
		}
		return true
	})
	return ids, err
}

func (t kvTx) ChatSettings(p Platform, chat string) (ChatSettings, error) {
	data, err := t.tx.Get(bucketChatSettings, []byte(string(p)+"\x00"+chat))
	if err != nil || data == nil {
		return ChatSettings{}, err
	}
	return decodeSettings[ChatSettings](data)
}

func (t kvTx) PutChatSettings(p Platform, chat string, s ChatSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Put(bucketChatSettings, []byte(string(p)+"\x00"+chat), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of chat %q: %w", chat, err)
	}
	return nil
}

func (t kvTx) UserSettings(p Platform, userID string) (UserSettings, error) {
	data, err := t.tx.Get(bucketUserSettings, []byte(string(p)+"\x00"+userID))
	if err != nil || data == nil {
		return UserSettings{}, err
	}
	return decodeSettings[UserSettings](data)
}

func (t kvTx) PutUserSettings(p Platform, userID string, s UserSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Put(bucketUserSettings, []byte(string(p)+"\x00"+userID), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of user %q: %w", userID, err)
	}
	return nil
}

func (t kvTx) Focus(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketFocus, userKey(p, chat, userID), fmt.Sprintf("focus of %q in %s chat %q", userID, p, chat))
}

func (t kvTx) PutFocus(p Platform, chat, userID string, id GameID) error {
	if err := t.tx.Put(bucketFocus, userKey(p, chat, userID), []byte(id)); err != nil {
		return fmt.Errorf("session: put focus of %q in %s chat %q: %w", userID, p, chat, err)
	}
	return nil
}
