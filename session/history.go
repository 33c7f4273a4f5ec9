package session

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// HistoryLen is how many finished games History returns.
const HistoryLen = 10

// historyPrefix returns the prefix of a user's history keys: across the
// platform's chats when chat is empty, else in the chat.
func historyPrefix(p Platform, chat, userID string) (bucket, prefix []byte) {
	if chat == "" {
		return bucketHistory, []byte(string(p) + "\x00" + userID + "\x00")
	}
	return bucketChatHistory, []byte(string(p) + "\x00" + chat + "\x00" + userID + "\x00")
}

// invertedTime returns t as 8 bytes that sort latest first.
func invertedTime(t time.Time) []byte {
	k := timeKey(t)
	for i := range k {
		k[i] = ^k[i]
	}
	return k
}

// endedValue encodes what forgetting a finished game needs besides its id
// and end time: its platform, chat and the ids of its players, joined
// with NUL bytes.
func endedValue(g *Game) []byte {
	parts := []string{string(g.Platform), g.Chat}
	for _, s := range g.Seats {
		if !s.IsAI() && s.User.ID != "" {
			parts = append(parts, s.User.ID)
		}
	}
	return []byte(strings.Join(parts, "\x00"))
}

// historyKeys returns the history index keys of a game of platform p in
// chat that ended at end, for each of users.
func historyKeys(p Platform, chat string, users []string, end time.Time, id GameID) (keys [][2][]byte) {
	inv := invertedTime(end)
	for _, u := range users {
		for _, c := range []string{"", chat} {
			b, prefix := historyPrefix(p, c, u)
			keys = append(keys, [2][]byte{b, append(append(prefix, inv...), id...)})
		}
	}
	return keys
}

// putHistory writes the history index entries of g, which has just
// ended: one per player across chats, one per player in the chat, and the
// entry by end time that ForgetGames reads.
func (t layout) putHistory(g *Game) error {
	var users []string
	for _, s := range g.Seats {
		if !s.IsAI() && s.User.ID != "" {
			users = append(users, s.User.ID)
		}
	}
	for _, k := range historyKeys(g.Platform, g.Chat, users, g.Updated, g.ID) {
		if err := t.tx.Put(k[0], k[1], []byte(g.ID)); err != nil {
			return err
		}
	}
	return t.tx.Put(bucketEnded, append(timeKey(g.Updated), g.ID...), endedValue(g))
}

// History returns the ids of up to limit games the user finished,
// latest first: in the chat, or in every chat of the platform when
// chat is empty.
func (t layout) History(p Platform, chat, userID string, limit int) ([]GameID, error) {
	if limit <= 0 {
		return nil, nil
	}
	bucket, prefix := historyPrefix(p, chat, userID)
	var ids []GameID
	err := t.scanPrefix(bucket, prefix, func(k, v []byte) bool {
		// An id may itself be a prefix of another's: the rest of the key
		// is exactly a time and the game id.
		if len(k) == len(prefix)+8+len(v) {
			ids = append(ids, GameID(v))
		}
		return len(ids) < limit
	})
	if err != nil {
		return nil, fmt.Errorf("session: history of %q in %s chat %q: %w", userID, p, chat, err)
	}
	return ids, nil
}

// ForgetGames deletes up to limit games that finished before t,
// oldest first, with their history and last-game entries, and returns
// how many it deleted.
func (t layout) ForgetGames(before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	type ended struct {
		key, value []byte
	}
	var batch []ended
	err := t.tx.Scan(bucketEnded, nil, timeKey(before), func(k, v []byte) bool {
		batch = append(batch, ended{bytes.Clone(k), bytes.Clone(v)})
		return len(batch) < limit
	})
	if err != nil {
		return 0, fmt.Errorf("session: forget games: %w", err)
	}
	for _, e := range batch {
		if len(e.key) <= 8 {
			continue
		}
		end := time.Unix(0, int64(binary.BigEndian.Uint64(e.key)))
		id := GameID(e.key[8:])
		parts := strings.Split(string(e.value), "\x00")
		if len(parts) < 2 {
			return 0, fmt.Errorf("session: forget game %q: %w", id, ErrSchema)
		}
		p, chat, users := Platform(parts[0]), parts[1], parts[2:]
		for _, k := range historyKeys(p, chat, users, end, id) {
			if err := t.tx.Delete(k[0], k[1]); err != nil {
				return 0, fmt.Errorf("session: forget game %q: %w", id, err)
			}
		}
		for _, u := range users {
			last := userKey(p, chat, u)
			v, err := t.tx.Get(bucketLast, last)
			if err == nil && string(v) == string(id) {
				err = t.tx.Delete(bucketLast, last)
			}
			if err != nil {
				return 0, fmt.Errorf("session: forget game %q: %w", id, err)
			}
		}
		if err := t.tx.Delete(bucketGames, []byte(id)); err != nil {
			return 0, fmt.Errorf("session: forget game %q: %w", id, err)
		}
		if err := t.tx.Delete(bucketEnded, e.key); err != nil {
			return 0, fmt.Errorf("session: forget game %q: %w", id, err)
		}
	}
	return len(batch), nil
}

// History returns the last HistoryLen games the actor finished, latest
// first: in the actor's chat, or in every chat of the platform when
// across is set (a private chat, the terminal). It reads one short range
// of an index, not the games of the chat. Games whose records are
// unreadable are left out and reported to Config.OnUnreadable.
func (t *Turn) History(across bool) ([]View, error) {
	who := t.req.Actor
	chat := who.Chat
	if across {
		chat = ""
	}
	lt := t.tx()
	ids, err := lt.History(who.Platform, chat, who.User.ID, HistoryLen)
	if err != nil {
		return nil, fmt.Errorf("session: history of %q on %s: %w", who.User.ID, who.Platform, err)
	}
	var views []View
	for _, id := range ids {
		g, err := lt.Game(id)
		switch {
		case errors.Is(err, ErrSchema):
			t.s.onUnreadable(UnreadableGame, string(id))
			continue
		case errors.Is(err, ErrNotFound):
			continue
		case err != nil:
			return nil, fmt.Errorf("session: history of %q on %s: %w", who.User.ID, who.Platform, err)
		}
		v, err := t.s.view(&g)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

// forgetBatchOps is how many keys forgetting one finished game reads and
// writes at most: its entry by end time and its record, and for each of
// two players two history entries and the last-game entry read and
// deleted.
const forgetBatchOps = 2 + 2*4

// ForgetGames deletes the games that finished more than Config.HistoryKeep
// ago, with their history entries, and returns how many it deleted; with
// no HistoryKeep it deletes nothing. RunSweeper calls it on every tick.
func (s *Service) ForgetGames(ctx context.Context) (int, error) {
	if s.historyKeep <= 0 {
		return 0, nil
	}
	before := s.now().Add(-s.historyKeep)
	batch := forgetBatch
	if m := s.kv.MaxOps(); m > 0 {
		batch = max(1, min(batch, m/forgetBatchOps))
	}
	total := 0
	for {
		n := 0
		err := s.kv.Update(ctx, func(tx kv.Tx) error {
			var err error
			n, err = layout{tx}.ForgetGames(before, batch)
			return err
		})
		if err != nil {
			return total, fmt.Errorf("session: forget finished games: %w", err)
		}
		total += n
		if n < batch {
			return total, nil
		}
	}
}

// SendGap is how long after a replay or record of a game was sent to a
// user in a chat ClaimSend refuses to send it again: a doubled tap sends
// one.
const SendGap = 10 * time.Second

// ClaimSend records that what (such as "replay") of game id is being
// sent to the actor, and reports whether to send it: not when the turn's
// update already took effect in another handling (a redelivered update),
// which is no error, nor when the same was claimed within SendGap (a
// doubled tap), which is ErrSentRecently. Sending changes no game, so the
// claim is an update mark of its own, forgotten with the others after
// Config.UpdateTTL.
func (t *Turn) ClaimSend(id GameID, what string) (bool, error) {
	who := t.req.Actor
	key := "send\x00" + what + "\x00" + who.Chat + "\x00" + who.User.ID + "\x00" + string(id)
	for attempt := 0; ; attempt++ {
		now := t.s.now()
		recent := false
		err := t.commit(id, func(lt layout) error {
			m, ok, err := lt.UpdateMark(who.Platform, key)
			if err != nil || (ok && now.Sub(m.At) < SendGap && !m.At.After(now)) {
				recent = err == nil
				return err
			}
			return lt.PutUpdateMark(who.Platform, key, UpdateMark{At: now, Game: id})
		})
		switch {
		case errors.Is(err, ErrDuplicate):
			return false, nil
		case t.conflicted(err, attempt):
			continue
		case err != nil:
			return false, fmt.Errorf("session: send %s of game %s: %w", what, id, err)
		case recent:
			return false, fmt.Errorf("session: send %s of game %s: %w", what, id, ErrSentRecently)
		}
		return true, nil
	}
}
