package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session/kv"
	"github.com/boardbot/boardbot/session/rating"
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
	bucketInbox        = []byte("inbox")        // platform, update id (8 bytes) → inboxRecord: its claim and the update, received but not handled
	bucketUpdates      = []byte("updates")      // platform, update id → updateRecord of a handled update
	bucketUpdateTimes  = []byte("updatetimes")  // time marked, platform, update id → nothing
	bucketFocus        = []byte("focus")        // platform, chat, user → id of the game the user last saw or touched
	bucketHistory      = []byte("history")      // platform, user, inverted end time, id → id of a finished game the user played
	bucketChatHistory  = []byte("chathistory")  // platform, chat, user, inverted end time, id → id of a finished game the user played in the chat
	bucketEnded        = []byte("ended")        // end time, id → the game's platform, chat and players (endedRecord)
	bucketPace         = []byte("pace")         // platform → paceRecord of all its chats; platform, chat (8 bytes) → paceRecord of the chat
	bucketSecrets      = []byte("secrets")      // name → random bytes the bot made for itself
	allBuckets         = [][]byte{
		bucketGames, bucketRunning, bucketLive, bucketDeadlines, bucketLast,
		bucketStats, bucketChatPlayers, bucketChatSettings, bucketUserSettings,
		bucketUserLive, bucketInbox, bucketUpdates, bucketUpdateTimes, bucketFocus,
		bucketHistory, bucketChatHistory, bucketEnded, bucketPace, bucketSecrets,
	}
)

// layout is the game layout on a kv transaction: games, their indexes,
// stats, settings, update marks and the inbox, in the buckets above. It
// is the one place that knows the keys and records.
type layout struct{ tx kv.Tx }

// DueGame is an entry of the deadline index: a live game and the deadline
// it is indexed under.
type DueGame struct {
	ID       GameID
	Deadline time.Time
}

// Game returns the game with the id, or ErrNotFound, or an error
// wrapping ErrSchema and naming the id when its record is unreadable.
func (t layout) Game(id GameID) (Game, error) {
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

// PutGame stores g. When g.Version is above 1 the stored game must
// have version g.Version-1, else PutGame returns ErrConflict. It keeps
// the indexes (running AI games, live games of a chat, deadlines, last
// finished game of a user) in step with g.
func (t layout) PutGame(g Game) error {
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

// gameIndexes are the indexes of live games: their bucket, the keys a
// game has in it, and whether a key may name another game (a user's
// running game against the AI in a chat: a new game takes the key from
// an idle one awaiting expiry); the keys of the others hold the game's
// own id.
var gameIndexes = []struct {
	bucket []byte
	keys   func(*Game) [][]byte
	shared bool
}{
	{bucketRunning, runningKeys, true},
	{bucketLive, liveKeys, false},
	{bucketUserLive, userLiveKeys, false},
	{bucketDeadlines, deadlineKeys, false},
}

// index keeps the indexes in step when a game goes from old (nil when new)
// to g: it deletes the keys old had and g has not, and puts those g has
// and old had not; a key both have is left alone. A shared key is
// deleted only while it still names the game.
func (t layout) index(old, g *Game) error {
	for _, ix := range gameIndexes {
		var was [][]byte
		if old != nil {
			was = ix.keys(old)
		}
		now := ix.keys(g)
		for _, k := range was {
			if slices.ContainsFunc(now, func(n []byte) bool { return bytes.Equal(n, k) }) {
				continue
			}
			if ix.shared {
				v, err := t.tx.Get(ix.bucket, k)
				if err != nil {
					return err
				}
				if !bytes.Equal(v, []byte(old.ID)) {
					continue
				}
			}
			if err := t.tx.Delete(ix.bucket, k); err != nil {
				return err
			}
		}
		for _, k := range now {
			if slices.ContainsFunc(was, func(w []byte) bool { return bytes.Equal(w, k) }) {
				continue
			}
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
func (t layout) getID(bucket, key []byte, what string) (GameID, error) {
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
func (t layout) scanPrefix(bucket, prefix []byte, fn func(k, v []byte) bool) error {
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

// NewGameID returns an id no game has had.
func (t layout) NewGameID() (GameID, error) {
	n, err := t.tx.NextSequence(bucketGames)
	if err != nil {
		return "", fmt.Errorf("session: new game id: %w", err)
	}
	return GameID(strconv.FormatUint(n, 36)), nil
}

// RunningGame returns the id of the user's running game against the AI
// in the chat, or ErrNotFound.
func (t layout) RunningGame(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketRunning, userKey(p, chat, userID), fmt.Sprintf("running game of %q in %s chat %q", userID, p, chat))
}

// LiveGames returns the ids of the chat's open challenges and running
// games, oldest first.
func (t layout) LiveGames(p Platform, chat string) ([]GameID, error) {
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

// UserLiveGames returns the ids of the open challenges and running
// games the user plays in any chat of the platform.
func (t layout) UserLiveGames(p Platform, userID string) ([]GameID, error) {
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

// paceKey returns the pace key of chat of platform p: the chat as 8
// bytes that sort in order, as in inboxKey.
func paceKey(p Platform, chat int64) []byte {
	return binary.BigEndian.AppendUint64([]byte(string(p)+"\x00"), uint64(chat)^(1<<63))
}

// paceGlobalKey returns the key of the pace of all chats of platform p:
// the platform alone, which no chat's key is.
func paceGlobalKey(p Platform) []byte { return []byte(p) }

// An inbox record is inboxSchema, the claim on the update (the holder,
// 8 bytes, and the time it was kept, timeKey) and the update's bytes. A
// record of an earlier release is the update's bytes alone, unclaimed.
const (
	inboxSchema = 1
	inboxHeader = 1 + 8 + 8
)

// PutInbox keeps an update of platform p received but not handled,
// claimed by process holder at time at: another process sharing the
// store leaves it to holder for a while (ClaimTTL).
func (t layout) PutInbox(p Platform, it InboxItem, holder uint64, at time.Time) error {
	rec := make([]byte, 0, inboxHeader+len(it.Data))
	rec = append(rec, inboxSchema)
	rec = binary.BigEndian.AppendUint64(rec, holder)
	rec = append(append(rec, timeKey(at)...), it.Data...)
	return t.tx.Put(bucketInbox, inboxKey(p, it.ID), rec)
}

// DeleteInbox removes update id of platform p; a missing one is no error.
func (t layout) DeleteInbox(p Platform, id int64) error {
	return t.tx.Delete(bucketInbox, inboxKey(p, id))
}

// InboxClaim returns the holder and time of the claim on update id of
// platform p, and whether there is one.
func (t layout) InboxClaim(p Platform, id int64) (uint64, time.Time, bool, error) {
	rec, err := t.tx.Get(bucketInbox, inboxKey(p, id))
	holder, at, ok := inboxClaim(rec)
	return holder, at, ok, err
}

// inboxClaim returns the holder and time of the claim of an inbox
// record, and whether it has one.
func inboxClaim(rec []byte) (uint64, time.Time, bool) {
	if len(rec) < inboxHeader || rec[0] != inboxSchema {
		return 0, time.Time{}, false
	}
	return binary.BigEndian.Uint64(rec[1:]), time.Unix(0, int64(binary.BigEndian.Uint64(rec[9:]))), true
}

// inboxData returns the update's bytes of an inbox record.
func inboxData(rec []byte) []byte {
	if len(rec) >= inboxHeader && rec[0] == inboxSchema {
		return rec[inboxHeader:]
	}
	return rec
}

// Inbox returns the kept updates of platform p, lowest id first.
func (t layout) Inbox(p Platform) ([]InboxItem, error) {
	kept, err := t.InboxClaims(p)
	items := make([]InboxItem, len(kept))
	for i, k := range kept {
		items[i] = k.InboxItem
	}
	return items, err
}

// keptItem is an update of the inbox with its claim.
type keptItem struct {
	InboxItem
	// holder kept the update at time at; claimed is false for a record
	// of an earlier release, which has no claim.
	holder  uint64
	at      time.Time
	claimed bool
}

// InboxClaims returns the kept updates of platform p with their claims,
// lowest id first.
func (t layout) InboxClaims(p Platform) ([]keptItem, error) {
	prefix := []byte(string(p) + "\x00")
	var items []keptItem
	err := t.scanPrefix(bucketInbox, prefix, func(k, v []byte) bool {
		if len(k) != len(prefix)+8 {
			return true
		}
		it := keptItem{InboxItem: InboxItem{ID: int64(binary.BigEndian.Uint64(k[len(prefix):]) ^ (1 << 63)), Data: bytes.Clone(inboxData(v))}}
		it.holder, it.at, it.claimed = inboxClaim(v)
		items = append(items, it)
		return true
	})
	return items, err
}

// updateMarkKey returns the key of update id of platform p in bucketUpdates.
func updateMarkKey(p Platform, id string) []byte { return platformKey(p, id) }

// platformKey returns the key of a user's or a chat's record of platform
// p (stats, settings): the platform, a zero byte and the id.
func platformKey(p Platform, id string) []byte {
	return []byte(string(p) + "\x00" + id)
}

// An update mark is stored as its handling (8 bytes), its time (timeKey)
// and the game id.
const updateMarkHeader = 16

// UpdateMark returns the mark of update id of platform p, and whether
// there is one.
func (t layout) UpdateMark(p Platform, id string) (UpdateMark, bool, error) {
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

// PutUpdateMark records that update id of platform p was handled,
// replacing its mark if it has one.
func (t layout) PutUpdateMark(p Platform, id string, m UpdateMark) error {
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

// markHandled records that update id of platform p was handled at at,
// replacing its mark without reading it. The time entry of the mark it
// replaces, if any, stays behind, and ForgetUpdateMarks drops it alone.
func (t layout) markHandled(p Platform, id string, at time.Time) error {
	key := updateMarkKey(p, id)
	data := append(binary.BigEndian.AppendUint64(nil, 0), timeKey(at)...)
	if err := t.tx.Put(bucketUpdates, key, data); err != nil {
		return fmt.Errorf("session: mark %s update %s handled: %w", p, id, err)
	}
	if err := t.tx.Put(bucketUpdateTimes, append(timeKey(at), key...), nil); err != nil {
		return fmt.Errorf("session: mark %s update %s handled: %w", p, id, err)
	}
	return nil
}

// fetchChunk is how many keys fetch reads in one request.
const fetchChunk = 64

// fetch reads keys, a chunk at a time, so that the reads of them that
// follow find them read: one request to the store instead of one a key.
// A failure is left to the reads that follow.
func (t layout) fetch(keys []kv.Key) {
	for len(keys) > 0 {
		n := min(len(keys), fetchChunk)
		t.tx.GetAll(keys[:n])
		keys = keys[n:]
	}
}

// ForgetUpdateMarks deletes up to limit update marks written before t,
// oldest first, and returns how many it deleted.
func (t layout) ForgetUpdateMarks(before time.Time, limit int) (int, error) {
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
	marks := make([]kv.Key, 0, len(keys))
	for _, k := range keys {
		if len(k) > 8 {
			marks = append(marks, kv.Key{Bucket: bucketUpdates, Key: k[8:]})
		}
	}
	t.fetch(marks)
	for _, k := range keys {
		if err := t.tx.Delete(bucketUpdateTimes, k); err != nil {
			return 0, err
		}
		if len(k) <= 8 {
			continue
		}
		// A mark written again since (markHandled) has a time entry of
		// its own, and stays until that one is past.
		mark, err := t.tx.Get(bucketUpdates, k[8:])
		if err != nil {
			return 0, err
		}
		if len(mark) >= updateMarkHeader && !bytes.Equal(mark[8:16], k[:8]) {
			continue
		}
		if err := t.tx.Delete(bucketUpdates, k[8:]); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// LastGame returns the id of the last game the user finished in the
// chat, or ErrNotFound.
func (t layout) LastGame(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketLast, userKey(p, chat, userID), fmt.Sprintf("last game of %q in %s chat %q", userID, p, chat))
}

// Due returns up to limit live games whose deadline is not after t
// and that come after the entry after in (deadline, id) order,
// earliest first; the zero DueGame starts from the first. Paging with
// the last entry returned reaches every due game once, however many
// of them stay due.
func (t layout) Due(at time.Time, after DueGame, limit int) ([]DueGame, error) {
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

// Stats returns the user's stats on the platform; a user with none
// gets the stats of someone who has played nothing. An unreadable
// record gives an error wrapping ErrSchema and naming the user.
func (t layout) Stats(p Platform, userID string) (Stats, error) {
	data, err := t.tx.Get(bucketStats, platformKey(p, userID))
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

// PutStats stores the stats of s.User and records that the user has
// played in the chat, for the chat's leaderboards.
func (t layout) PutStats(p Platform, chat string, s Stats) error {
	if s.User.ID == "" {
		return fmt.Errorf("session: put stats: %w: no user", ErrBadRequest)
	}
	data, err := encodeStats(&s)
	if err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Put(bucketStats, platformKey(p, s.User.ID), data); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	if err := t.tx.Put(bucketChatPlayers, userKey(p, chat, s.User.ID), nil); err != nil {
		return fmt.Errorf("session: put stats of %q: %w", s.User.ID, err)
	}
	return nil
}

// ChatPlayers returns the ids of the users who have finished a game in
// the chat.
func (t layout) ChatPlayers(p Platform, chat string) ([]string, error) {
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

// ChatSettings returns the chat's settings; the zero value when none
// are stored.
func (t layout) ChatSettings(p Platform, chat string) (ChatSettings, error) {
	data, err := t.tx.Get(bucketChatSettings, platformKey(p, chat))
	if err != nil || data == nil {
		return ChatSettings{}, err
	}
	return decodeSettings[ChatSettings](data)
}

// PutChatSettings stores the chat's settings.
func (t layout) PutChatSettings(p Platform, chat string, s ChatSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Put(bucketChatSettings, platformKey(p, chat), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of chat %q: %w", chat, err)
	}
	return nil
}

// UserSettings returns the user's settings; the zero value when none
// are stored.
func (t layout) UserSettings(p Platform, userID string) (UserSettings, error) {
	data, err := t.tx.Get(bucketUserSettings, platformKey(p, userID))
	if err != nil || data == nil {
		return UserSettings{}, err
	}
	return decodeSettings[UserSettings](data)
}

// PutUserSettings stores the user's settings.
func (t layout) PutUserSettings(p Platform, userID string, s UserSettings) error {
	data, err := encodeSettings(s)
	if err == nil {
		err = t.tx.Put(bucketUserSettings, platformKey(p, userID), data)
	}
	if err != nil {
		return fmt.Errorf("session: put settings of user %q: %w", userID, err)
	}
	return nil
}

// Focus returns the id of the game the user last saw or touched in
// the chat, or ErrNotFound.
func (t layout) Focus(p Platform, chat, userID string) (GameID, error) {
	return t.getID(bucketFocus, userKey(p, chat, userID), fmt.Sprintf("focus of %q in %s chat %q", userID, p, chat))
}

// PutFocus records id as the game the user last saw or touched in the
// chat.
func (t layout) PutFocus(p Platform, chat, userID string, id GameID) error {
	if err := t.tx.Put(bucketFocus, userKey(p, chat, userID), []byte(id)); err != nil {
		return fmt.Errorf("session: put focus of %q in %s chat %q: %w", userID, p, chat, err)
	}
	return nil
}

// schemaVersion is the version of the records this release writes. A
// record with a higher version was written by a newer release and is not
// read, so that an older binary never overwrites data it does not
// understand. Version 2 added challenges, deadlines and rematches to game
// records; version 1 game records read as games with none of them.
// Version 3 gave users a handle apart from their name; in older game
// records the addressee of a challenge, a seat with a name but no id, was
// named by handle, and reads as that handle (migrateHandles).
const schemaVersion = 3

// renjuSchema is the version of the game records of renju games, which a
// release before renju would read as freestyle games and must refuse;
// every other record is still written as schemaVersion, so that older
// releases keep reading it. Stats records keep their renju row only when
// it holds a result, for the same reason (encodeStats).
const renjuSchema = 4

// oldestStats is the oldest schema of stats and settings records this
// release reads; older game records are read from version 1.
const oldestStats = 2

// gameRecord is the stored form of a Game. Moves are cell indices
// (y*width + x) to keep finished gomoku games small.
type gameRecord struct {
	Schema   int          `json:"v"`
	ID       GameID       `json:"id"`
	Platform Platform     `json:"p"`
	Chat     string       `json:"chat"`
	Message  string       `json:"msg,omitempty"`
	Rules    engine.Rules `json:"rules"`
	Seats    [2]Seat      `json:"seats"`
	// Challenger is the challenger's side in a duel.
	Challenger engine.Stone `json:"from,omitempty"`
	Moves      []int        `json:"moves"`
	Status     Status       `json:"status"`
	Winner     engine.Stone `json:"winner,omitempty"`
	Version    int          `json:"ver"`
	Seed       uint64       `json:"seed"`
	Deadline   time.Time    `json:"due,omitzero"`
	Rematch    GameID       `json:"rematch,omitempty"`
	Created    time.Time    `json:"created"`
	Updated    time.Time    `json:"updated"`
	// Takebacks and UndoAsk are omitted when zero, so that records of
	// games without takebacks are as before. An older release reads a
	// record with them but drops them when it rewrites it.
	Takebacks int          `json:"tb,omitempty"`
	UndoAsk   engine.Stone `json:"undo,omitempty"`
	// HintLimit, Hints and Hint (a cell index) are omitted when zero or
	// none, likewise.
	HintLimit int  `json:"hl,omitempty"`
	Hints     int  `json:"hints,omitempty"`
	Hint      *int `json:"hint,omitempty"`
}

// decodeFault says why json.Unmarshal refused a record without quoting
// it (json's own errors quote a character or a number of the input), so
// that an error about a bad record, which may be logged, never carries
// the record's contents.
func decodeFault(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("not JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q of the wrong type at byte %d", typ.Field, typ.Offset)
	}
	return fmt.Sprintf("not a record (%T)", err)
}

// encodeGame returns the stored form of g.
func encodeGame(g *Game) ([]byte, error) {
	schema := schemaVersion
	if g.Rules.Renju {
		schema = renjuSchema
	}
	r := gameRecord{
		Schema: schema, ID: g.ID, Platform: g.Platform, Chat: g.Chat, Message: g.Message,
		Rules: g.Rules, Seats: g.Seats, Challenger: g.Challenger, Moves: make([]int, len(g.Moves)), Status: g.Status,
		Winner: g.Winner, Version: g.Version, Seed: g.Seed, Deadline: g.Deadline, Rematch: g.Rematch,
		Takebacks: g.Takebacks, UndoAsk: g.UndoAsk, Created: g.Created, Updated: g.Updated,
		HintLimit: g.HintLimit, Hints: g.Hints,
	}
	if g.Hint != nil {
		c := g.Hint.Y*g.Rules.Width + g.Hint.X
		r.Hint = &c
	}
	for i, m := range g.Moves {
		r.Moves[i] = m.Y*g.Rules.Width + m.X
	}
	return json.Marshal(r)
}

// decodeGame parses a stored game. It returns an error wrapping ErrSchema
// when the record is from a newer schema, malformed, or describes a game
// the rules cannot replay.
func decodeGame(data []byte) (Game, error) {
	var r gameRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Game{}, fmt.Errorf("session: decode game: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < 1 || r.Schema > renjuSchema || r.Rules.Renju != (r.Schema == renjuSchema) {
		return Game{}, fmt.Errorf("session: decode game %q: %w: schema %d with renju %v, this release reads %d (%d for renju)", r.ID, ErrSchema, r.Schema, r.Rules.Renju, schemaVersion, renjuSchema)
	}
	if r.Schema < 3 {
		migrateHandles(&r.Seats)
	}
	if err := r.Rules.Validate(); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	g := Game{
		ID: r.ID, Platform: r.Platform, Chat: r.Chat, Message: r.Message, Rules: r.Rules,
		Seats: r.Seats, Challenger: r.Challenger, Moves: make([]engine.Point, len(r.Moves)), Status: r.Status,
		Winner: r.Winner, Version: r.Version, Seed: r.Seed, Deadline: r.Deadline, Rematch: r.Rematch,
		Takebacks: r.Takebacks, UndoAsk: r.UndoAsk, Created: r.Created, Updated: r.Updated,
		HintLimit: r.HintLimit, Hints: r.Hints,
	}
	if r.Hint != nil {
		c := *r.Hint
		if c < 0 || c >= r.Rules.Cells() {
			return Game{}, fmt.Errorf("session: decode game %q: %w: hint at cell %d", r.ID, ErrSchema, c)
		}
		g.Hint = &engine.Point{X: c % r.Rules.Width, Y: c / r.Rules.Width}
	}
	for i, c := range r.Moves {
		if c < 0 || c >= r.Rules.Cells() {
			return Game{}, fmt.Errorf("session: decode game %q: %w: move %d at cell %d", r.ID, ErrSchema, i+1, c)
		}
		g.Moves[i] = engine.Point{X: c % r.Rules.Width, Y: c / r.Rules.Width}
	}
	b, err := g.board()
	if err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	if err := consistent(&g, b.Outcome()); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	if err := wellFormed(&g); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	return g, nil
}

// migrateHandles reads the seats of a record older than schema 3, whose
// users had no handle: a seat with a name but no id was the addressee of
// a challenge as "/duel @name" named it, so that name is its handle.
func migrateHandles(seats *[2]Seat) {
	for i := range seats {
		if u := &seats[i].User; u.ID == "" && u.Handle == "" && u.Name != "" {
			u.Handle = strings.TrimPrefix(u.Name, "@")
		}
	}
}

// wellFormed checks the parts of a game its board does not: levels, seats,
// the challenger, and the version.
func wellFormed(g *Game) error {
	ai := 0
	for _, s := range g.Seats {
		if s.IsAI() {
			ai++
			if !s.AI.Valid() {
				return fmt.Errorf("AI level %d", s.AI)
			}
		}
		if (s.AI == engine.Adaptive) != s.Rung.Valid() || (s.Rung != 0 && !s.Rung.Valid()) {
			return fmt.Errorf("AI level %v at rung %d", s.AI, s.Rung)
		}
	}
	switch {
	case ai == 2:
		return fmt.Errorf("two AI seats")
	case g.Version < 1:
		return fmt.Errorf("version %d", g.Version)
	case g.Winner > engine.White:
		return fmt.Errorf("winner %d", g.Winner)
	case g.Challenger > engine.White || (g.Challenger != engine.Empty && ai > 0):
		return fmt.Errorf("challenger %d in a game with %d AI seats", g.Challenger, ai)
	case g.Status == Open && g.Challenger == engine.Empty:
		return fmt.Errorf("open challenge without a challenger")
	case g.Status == Open && g.Seat(g.Challenger).User.ID == "":
		return fmt.Errorf("open challenge without a challenger's id")
	case g.Takebacks < 0:
		return fmt.Errorf("%d takebacks", g.Takebacks)
	case g.Hints < 0 || g.HintLimit < 0 || g.Hints > g.HintLimit || (g.HintLimit > 0 && ai == 0):
		return fmt.Errorf("%d of %d hints in a game with %d AI seats", g.Hints, g.HintLimit, ai)
	case g.Hint != nil && (g.Status != Running || g.Hints == 0):
		return fmt.Errorf("hint shown in a %s game with %d hints", g.Status, g.Hints)
	case g.UndoAsk > engine.White || (g.UndoAsk != engine.Empty && (ai > 0 || g.Status != Running)):
		return fmt.Errorf("takeback asked by %d in a %s game with %d AI seats", g.UndoAsk, g.Status, ai)
	}
	if g.Status != Open && g.Status.Played() {
		for _, s := range g.Seats {
			if !s.IsAI() && s.User.ID == "" {
				return fmt.Errorf("%s game with an empty seat", g.Status)
			}
		}
	}
	return nil
}

// consistent checks that a game's status and winner agree with the outcome
// of its moves on the board.
func consistent(g *Game, o engine.Outcome) error {
	var want Status
	switch o.Status {
	case engine.Won:
		want = Won
	case engine.Draw:
		want = Drawn
	default:
		want = Running
	}
	switch {
	case !g.Status.valid():
		return fmt.Errorf("status %q", g.Status)
	case !g.Status.Played():
		if len(g.Moves) > 0 || g.Winner != engine.Empty {
			return fmt.Errorf("%s challenge with %d moves and winner %v", g.Status, len(g.Moves), g.Winner)
		}
	case g.Status == Resigned || g.Status == Expired || g.Status == Aborted:
		if want != Running || (g.Status == Resigned && g.Winner == engine.Empty) || (g.Status == Aborted && g.Winner != engine.Empty) {
			return fmt.Errorf("%s game with board %v and winner %v", g.Status, o.Status, g.Winner)
		}
	case g.Status != want || g.Winner != o.Winner:
		return fmt.Errorf("status %q winner %v, but the board is %v with winner %v", g.Status, g.Winner, o.Status, o.Winner)
	}
	return nil
}

// statsRecord is the stored form of Stats.
type statsRecord struct {
	Schema int  `json:"v"`
	User   User `json:"user"`
	// Results is indexed by family and opponent; decoding checks its
	// shape, which a fixed-size array would not.
	Results [][]Tally `json:"res"`
	Rating  float64   `json:"elo"`
	Duels   int       `json:"duels,omitempty"`
	// Ratings are Stats.Ratings as whole points; older records have
	// none, and older releases ignore them.
	Ratings []int `json:"hist,omitempty"`
	// VsAI and AIGames are Stats.VsAI and Stats.AIGames, by family, when
	// a game against the AI counted; older records have none.
	VsAI    []rating.Rating `json:"vsai,omitempty"`
	AIGames []int           `json:"aig,omitempty"`
}

// encodeStats returns the stored form of s.
func encodeStats(s *Stats) ([]byte, error) {
	r := statsRecord{Schema: schemaVersion, User: s.User, Rating: s.Rating, Duels: s.Duels}
	for _, x := range s.Ratings {
		r.Ratings = append(r.Ratings, int(math.Round(x)))
	}
	if s.AIGames != ([4]int{}) {
		r.VsAI, r.AIGames = s.VsAI[:], s.AIGames[:]
	}
	for _, f := range s.Results {
		r.Results = append(r.Results, f[:])
	}
	// The renju row, last, only when it counts something: a release before
	// renju reads three families.
	if s.Results[len(s.Results)-1] == ([numOpponents]Tally{}) {
		r.Results = r.Results[:len(r.Results)-1]
	}
	return json.Marshal(r)
}

// plausible reports whether a stored rating against the AI after games
// games is one the bot could have written: finite, on the Elo scale
// (below 0 for a player who lost early games to the weakest rungs), with
// a deviation and a volatility in their ranges, and a streak no longer
// than the games.
func plausible(x rating.Rating, games int) bool {
	return x.Value >= -10000 && x.Value <= 10000 && x.Deviation > 0 && x.Deviation <= 1000 && x.Volatility > 0 && x.Volatility < 1 &&
		x.Streak >= -games && x.Streak <= games
}

// decodeStats parses stored stats. It returns an error wrapping ErrSchema
// for a newer schema, malformed data, or counts out of range.
func decodeStats(data []byte) (Stats, error) {
	var r statsRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Stats{}, fmt.Errorf("session: decode stats: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < oldestStats || r.Schema > schemaVersion {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: schema %d, this release reads %d", r.User.ID, ErrSchema, r.Schema, schemaVersion)
	}
	if r.User.ID == "" || r.Duels < 0 || r.Rating < 0 || r.Rating > 10000 {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: user, %d duels, rating %v", r.User.ID, ErrSchema, r.Duels, r.Rating)
	}
	s := Stats{User: r.User, Rating: r.Rating, Duels: r.Duels}
	if len(r.Ratings) > MaxRatings {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d ratings", r.User.ID, ErrSchema, len(r.Ratings))
	}
	for _, x := range r.Ratings {
		if x < 0 || x > 10000 {
			return Stats{}, fmt.Errorf("session: decode stats of %q: %w: rating %d", r.User.ID, ErrSchema, x)
		}
		s.Ratings = append(s.Ratings, float64(x))
	}
	if r.VsAI != nil || r.AIGames != nil {
		if len(r.VsAI) != len(s.VsAI) || len(r.AIGames) != len(s.AIGames) {
			return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d ratings against the AI", r.User.ID, ErrSchema, len(r.VsAI))
		}
		for f, x := range r.VsAI {
			if n := r.AIGames[f]; n < 0 || (n == 0) != (x == rating.Rating{}) || (n > 0 && !plausible(x, n)) {
				return Stats{}, fmt.Errorf("session: decode stats of %q: %w: rating against the AI %+v after %d games", r.User.ID, ErrSchema, x, n)
			}
			s.VsAI[f], s.AIGames[f] = x, r.AIGames[f]
		}
	}
	if len(r.Results) != len(s.Results) && len(r.Results) != len(s.Results)-1 {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d families", r.User.ID, ErrSchema, len(r.Results))
	}
	for f, row := range r.Results {
		if len(row) != len(s.Results[f]) {
			return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d opponents", r.User.ID, ErrSchema, len(row))
		}
		for o, t := range row {
			if t.Wins < 0 || t.Losses < 0 || t.Draws < 0 || t.Takebacks < 0 || t.TakebackWins < 0 ||
				t.Takebacks > t.Games() || t.TakebackWins > min(t.Wins, t.Takebacks) ||
				t.Hinted < 0 || t.HintedWins < 0 || t.Hinted > t.Games() || t.HintedWins > min(t.Wins, t.Hinted) ||
				t.TakebackWins+t.HintedWins > t.Wins {
				return Stats{}, fmt.Errorf("session: decode stats of %q: %w: counts out of range", r.User.ID, ErrSchema)
			}
			s.Results[f][o] = t
		}
	}
	return s, nil
}

// settingsRecord is the stored form of chat and user settings.
type settingsRecord[T any] struct {
	Schema   int `json:"v"`
	Settings T   `json:"s"`
}

// encodeSettings returns the stored form of settings s.
func encodeSettings[T any](s T) ([]byte, error) {
	return json.Marshal(settingsRecord[T]{Schema: schemaVersion, Settings: s})
}

// decodeSettings parses stored settings and checks them with validate. It
// returns an error wrapping ErrSchema for a newer schema, malformed data,
// or fields out of range.
func decodeSettings[T interface{ validate() error }](data []byte) (T, error) {
	var r settingsRecord[T]
	var zero T
	if err := json.Unmarshal(data, &r); err != nil {
		return zero, fmt.Errorf("session: decode settings: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < oldestStats || r.Schema > schemaVersion {
		return zero, fmt.Errorf("session: decode settings: %w: schema %d, this release reads %d", ErrSchema, r.Schema, schemaVersion)
	}
	if err := r.Settings.validate(); err != nil {
		return zero, fmt.Errorf("session: decode settings: %w: %v", ErrSchema, err)
	}
	return r.Settings, nil
}

// decodeGameHeader parses the parts of a stored game its indexes use (id,
// place, seats, status, version, times), skipping its moves and their
// replay: a write only needs these of the version it replaces. It returns
// an error wrapping ErrSchema when the record is from a newer schema or
// malformed.
func decodeGameHeader(data []byte) (Game, error) {
	var r struct {
		Schema   int       `json:"v"`
		ID       GameID    `json:"id"`
		Platform Platform  `json:"p"`
		Chat     string    `json:"chat"`
		Seats    [2]Seat   `json:"seats"`
		Status   Status    `json:"status"`
		Version  int       `json:"ver"`
		Deadline time.Time `json:"due,omitzero"`
		Created  time.Time `json:"created"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return Game{}, fmt.Errorf("session: decode game: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < 1 || r.Schema > renjuSchema || !r.Status.valid() {
		return Game{}, fmt.Errorf("session: decode game %q: %w: schema %d, status %q", r.ID, ErrSchema, r.Schema, r.Status)
	}
	if r.Schema < 3 {
		migrateHandles(&r.Seats)
	}
	return Game{
		ID: r.ID, Platform: r.Platform, Chat: r.Chat, Seats: r.Seats, Status: r.Status,
		Version: r.Version, Deadline: r.Deadline, Created: r.Created,
	}, nil
}
