package session

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/boardbot/boardbot/session/kv"
)

// PaceRate is one flood-control window of a shared pace: at most N slots
// start within any span of Per. An N of 0 or less means no limit.
type PaceRate struct {
	N   int
	Per time.Duration
}

// limited reports whether r limits anything.
func (r PaceRate) limited() bool { return r.N > 0 && r.Per > 0 }

// PaceLimits are the windows a slot taken with Reserve fits.
type PaceLimits struct {
	// Chat bounds the slots of the chat.
	Chat PaceRate
	// Group bounds the slots of the chat too, as a second window kept
	// in the same record: a group's, on top of Chat. The zero value
	// for a chat that is not a group.
	Group PaceRate
	// Global bounds the slots of every chat of the platform.
	Global PaceRate
	// Margin lengthens every window's Per: a slot counts from its start
	// for Per + Margin, an allowance for the time between the instant
	// Reserve gives and the platform counting the message (the network,
	// clocks of processes that differ).
	Margin time.Duration
	// Lead puts the slot no earlier than Lead after now: about the time
	// Reserve takes to come back, so that the message can go at the
	// slot's instant, not after it.
	Lead time.Duration
}

// Reserve takes a slot of the flood-control budget that every process
// sharing the store shares for the messages of platform p, for one
// message to chat, and returns the instant at which it may be sent, by
// the Service's clock (Config.Now): the earliest one, now or later, at
// which one more slot fits every window of l among the slots all of them
// reserved. The slot counts from that instant whether or not the message
// is sent. The chat's record and the platform's are read and written in
// one transaction (calls made while another's commits go together into
// the next, as Handled's), so processes never hand out the same slot;
// with no window limited, Reserve returns now without one.
func (s *Service) Reserve(ctx context.Context, p Platform, chat int64, l PaceLimits) (time.Time, error) {
	if !l.Chat.limited() && !l.Group.limited() && !l.Global.limited() {
		return s.now(), nil
	}
	c := &paceCall{p: p, chat: chat, l: l}
	err := s.paces.do(c, s.groupSize(2), func(calls []*paceCall) []error {
		return s.reservePaces(ctx, calls)
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("session: reserve a %s slot for chat %d: %w", p, chat, err)
	}
	return c.at, nil
}

// paceCall is one Reserve in a group commit; at is its slot once the
// commit is made.
type paceCall struct {
	p    Platform
	chat int64
	l    PaceLimits
	at   time.Time
}

// paceEntry is a pace record as one run of reservePaces reads and
// changes it: span is the longest window its slots were fitted to in
// this run, which bounds how long they count.
type paceEntry struct {
	rec   paceRecord
	err   error
	span  int64
	dirty bool
}

// paceWindow is one window of a slot: the record's times, and at most n
// of them in any span.
type paceWindow struct {
	e    *paceEntry
	n    int
	span int64
}

// reservePaces reserves the slots of calls in one transaction, in order,
// and returns each one's error: a call whose record is unreadable fails
// alone, and takes no slot.
func (s *Service) reservePaces(ctx context.Context, calls []*paceCall) []error {
	errs := make([]error, len(calls))
	err := s.kv.Update(ctx, func(kt kv.Tx) error {
		clear(errs)
		now := s.now().UnixNano()
		tx := layout{kt}
		entries := map[string]*paceEntry{}
		var keys []kv.Key
		keysOf := func(c *paceCall) (chat, global []byte) {
			if c.l.Chat.limited() || c.l.Group.limited() {
				chat = paceKey(c.p, c.chat)
			}
			if c.l.Global.limited() {
				global = paceGlobalKey(c.p)
			}
			return chat, global
		}
		for _, c := range calls {
			chat, global := keysOf(c)
			for _, k := range [][]byte{chat, global} {
				if k != nil && entries[string(k)] == nil {
					entries[string(k)] = &paceEntry{}
					keys = append(keys, kv.Key{Bucket: bucketPace, Key: k})
				}
			}
		}
		tx.fetch(keys)
		for _, k := range keys {
			e := entries[string(k.Key)]
			e.rec, e.err = tx.Pace(k.Key)
			if e.err != nil && !errors.Is(e.err, ErrSchema) {
				return e.err
			}
		}
		for i, c := range calls {
			chat, global := keysOf(c)
			margin := max(c.l.Margin, 0)
			var ws []paceWindow
			add := func(k []byte, r PaceRate) {
				if k != nil && r.limited() {
					ws = append(ws, paceWindow{entries[string(k)], r.N, int64(r.Per + margin)})
				}
			}
			add(chat, c.l.Chat)
			add(chat, c.l.Group)
			add(global, c.l.Global)
			for _, w := range ws {
				if w.e.err != nil {
					errs[i] = w.e.err
				}
			}
			if errs[i] != nil {
				continue
			}
			at := earliestSlot(now+int64(max(c.l.Lead, 0)), ws)
			var touched []*paceEntry
			for _, w := range ws {
				w.e.span = max(w.e.span, w.span)
				w.e.rec.until = max(w.e.rec.until, at+w.span)
				if !slices.Contains(touched, w.e) {
					touched = append(touched, w.e)
				}
			}
			// One slot a record, however many of its windows it fits.
			for _, e := range touched {
				e.rec.times = insertTime(e.rec.times, at)
				e.dirty = true
			}
			c.at = time.Unix(0, at)
		}
		for _, k := range keys {
			e := entries[string(k.Key)]
			if !e.dirty {
				continue
			}
			e.rec.prune(now, e.span)
			if err := tx.PutPace(k.Key, e.rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

// earliestSlot returns the earliest instant at or after now at which one
// more slot fits every window of ws. A window refuses an instant t when
// n of its slots and t lie within less than its span; the instants it
// refuses are open intervals, each ending span after one of its slots,
// so the earliest instant that fits is now or one of those ends. The
// latest end fits every window.
func earliestSlot(now int64, ws []paceWindow) int64 {
	candidates := []int64{now}
	for _, w := range ws {
		for _, t := range w.e.rec.times {
			if end := t + w.span; end > now {
				candidates = append(candidates, end)
			}
		}
	}
	slices.Sort(candidates)
	for _, t := range candidates {
		fits := true
		for _, w := range ws {
			if !fitsWindow(w.e.rec.times, w.n, w.span, t) {
				fits = false
				break
			}
		}
		if fits {
			return t
		}
	}
	return candidates[len(candidates)-1]
}

// fitsWindow reports whether one more slot at t leaves at most n of the
// slots times (ascending) and t in every span shorter than span: with t
// in its place, no n+1 consecutive slots around it lie closer together.
func fitsWindow(times []int64, n int, span, t int64) bool {
	i := sort.Search(len(times), func(k int) bool { return times[k] > t })
	at := func(k int) int64 {
		switch {
		case k < i:
			return times[k]
		case k == i:
			return t
		}
		return times[k-1]
	}
	for j := max(0, i-n); j <= i && j+n <= len(times); j++ {
		if at(j+n)-at(j) < span {
			return false
		}
	}
	return true
}

// insertTime returns times (ascending) with t in its place.
func insertTime(times []int64, t int64) []int64 {
	i := sort.Search(len(times), func(k int) bool { return times[k] > t })
	return slices.Insert(times, i, t)
}

// paceRecord is the stored pace of a chat, or of all chats of a
// platform: the start times of the slots that may still count (unix
// nanoseconds, ascending), and until, the instant after which none of
// them counts any longer, by which ForgetPaces knows a record it may
// delete.
type paceRecord struct {
	until int64
	times []int64
}

// prune drops the times that stopped counting at now for windows of at
// most span.
func (r *paceRecord) prune(now, span int64) {
	r.times = slices.DeleteFunc(r.times, func(t int64) bool { return t+span <= now })
}

// paceSchema is the version of pace records: the byte they start with,
// then until and the first time as uvarints, then the gap from each time
// to the next.
const paceSchema = 1

// maxPaceTimes bounds the times of a pace record, well above any count
// of slots a window holds, against reading a bad record.
const maxPaceTimes = 1 << 16

// encodePace returns the stored form of r.
func encodePace(r paceRecord) []byte {
	b := make([]byte, 0, 2+binary.MaxVarintLen64*(1+min(len(r.times), 2))+4*len(r.times))
	b = append(b, paceSchema)
	b = binary.AppendUvarint(b, uint64(max(r.until, 0)))
	prev := int64(0)
	for _, t := range r.times {
		b = binary.AppendUvarint(b, uint64(t-prev))
		prev = t
	}
	return b
}

// decodePace parses a stored pace record; nil data is an empty one. It
// returns an error wrapping ErrSchema for a newer schema or malformed
// data.
func decodePace(data []byte) (paceRecord, error) {
	var r paceRecord
	if data == nil {
		return r, nil
	}
	bad := func(what string) (paceRecord, error) {
		return paceRecord{}, fmt.Errorf("session: decode pace: %w: %s", ErrSchema, what)
	}
	if len(data) == 0 || data[0] != paceSchema {
		return bad("unknown schema")
	}
	rest := data[1:]
	next := func() (int64, bool) {
		v, n := binary.Uvarint(rest)
		if n <= 0 || v > math.MaxInt64 {
			return 0, false
		}
		rest = rest[n:]
		return int64(v), true
	}
	var ok bool
	if r.until, ok = next(); !ok {
		return bad("until")
	}
	prev := int64(0)
	for len(rest) > 0 {
		gap, ok := next()
		if !ok || gap > math.MaxInt64-prev || len(r.times) >= maxPaceTimes {
			return bad("times")
		}
		prev += gap
		r.times = append(r.times, prev)
	}
	return r, nil
}

// Pace returns the pace record under key (paceKey, paceGlobalKey); an
// unreadable one is an error wrapping ErrSchema.
func (t layout) Pace(key []byte) (paceRecord, error) {
	data, err := t.tx.Get(bucketPace, key)
	if err != nil {
		return paceRecord{}, fmt.Errorf("session: pace: %w", err)
	}
	return decodePace(data)
}

// PutPace stores r under key.
func (t layout) PutPace(key []byte, r paceRecord) error {
	if err := t.tx.Put(bucketPace, key, encodePace(r)); err != nil {
		return fmt.Errorf("session: put pace: %w", err)
	}
	return nil
}

// ForgetPaces deletes the pace records (see Reserve) none of whose slots
// counts any longer, so that the store keeps records only of the chats
// that had messages lately, and returns how many it deleted; unreadable
// records are left alone. RunSweeper calls it on every tick. On a store
// no other process shares, where nothing needs a shared pace, it does
// nothing, not even read.
func (s *Service) ForgetPaces(ctx context.Context) (int, error) {
	if !s.kv.Shared() {
		return 0, nil
	}
	now := s.now().UnixNano()
	stale := func(v []byte) bool {
		r, err := decodePace(v)
		return err == nil && r.until <= now
	}
	var keys [][]byte
	err := s.kv.View(ctx, func(tx kv.Tx) error {
		keys = keys[:0]
		return tx.Scan(bucketPace, nil, nil, func(k, v []byte) bool {
			if stale(v) {
				keys = append(keys, bytes.Clone(k))
			}
			return true
		})
	})
	if err != nil {
		return 0, fmt.Errorf("session: forget paces: %w", err)
	}
	total := 0
	for batch := s.groupSize(1); len(keys) > 0; keys = keys[min(batch, len(keys)):] {
		chunk := keys[:min(batch, len(keys))]
		n := 0
		// Each key is read again, so that a slot reserved since the scan
		// keeps its record.
		err := s.kv.Update(ctx, func(kt kv.Tx) error {
			n = 0
			ks := make([]kv.Key, len(chunk))
			for i, k := range chunk {
				ks[i] = kv.Key{Bucket: bucketPace, Key: k}
			}
			vs, err := kt.GetAll(ks)
			if err != nil {
				return err
			}
			for i, v := range vs {
				if v == nil || !stale(v) {
					continue
				}
				if err := kt.Delete(bucketPace, chunk[i]); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("session: forget paces: %w", err)
		}
		total += n
	}
	return total, nil
}
