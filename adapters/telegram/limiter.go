package telegram

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Rate is a flood-control limit: at most N messages in any span of Per.
// A negative N means no limit.
type Rate struct {
	N   int
	Per time.Duration
}

// unlimited reports whether r limits nothing.
func (r Rate) unlimited() bool { return r.N < 0 }

// limiter paces the calls that make or change messages so that Telegram's
// flood control never has to refuse them: at most Pace.Chat in one chat,
// Pace.Group more in one group chat (a negative chat id), and Pace.Global
// overall.
//
// A call holds one slot of each of its limits from before it is sent until
// Per after its answer arrived: the server counts the call at some instant
// in between, so however the network delays requests and answers, no span
// of Per at the server sees more than N of them.
//
// Waiting calls get their slots first come, first served among those whose
// chat and group allow them to go. A limiter is safe for concurrent use.
type limiter struct {
	chat, group, global Rate

	mu      sync.Mutex
	chats   map[int64]*window // per chat
	groups  map[int64]*window // per group chat, on top of its chat's
	all     window
	queue   []*waiter // waiting calls, oldest first
	timer   *time.Timer
	timerAt time.Time // when timer fires; zero when it is not set
	granted int       // slots granted since the last sweep of idle windows
}

// window holds the slots of one limit that still count.
type window struct {
	held []*slot
}

// slot is one call's place in a window: counted while the call is on its
// way (until zero) and until Per after its answer.
type slot struct {
	until time.Time
	per   time.Duration
}

// waiter is a call waiting for its slots; ready is closed once slots
// holds them.
type waiter struct {
	chat  int64
	ready chan struct{}
	slots []*slot
}

// newLimiter returns a limiter of the rates in p.
func newLimiter(p Pace) *limiter {
	return &limiter{chat: p.Chat, group: p.Group, global: p.Global, chats: map[int64]*window{}, groups: map[int64]*window{}}
}

// wait blocks until a message-producing call to chat may be sent, and
// returns the function to call once its answer (or failure) arrived. It
// returns ctx's error, holding nothing, when ctx ends first. A wait runs
// through lend when it is set, so that a call held by flood control
// lends its update's worker out and holds up no other chat meanwhile.
func (l *limiter) wait(ctx context.Context, chat int64, lend func(func())) (release func(), err error) {
	w := &waiter{chat: chat, ready: make(chan struct{})}
	l.mu.Lock()
	l.queue = append(l.queue, w)
	l.grantLocked(time.Now())
	l.mu.Unlock()
	granted := func() bool {
		select {
		case <-w.ready:
			return true
		default:
			return false
		}
	}
	if !granted() {
		wait := func() {
			select {
			case <-w.ready:
			case <-ctx.Done():
			}
		}
		if lend != nil {
			lend(wait)
		} else {
			wait()
		}
	}
	if granted() {
		return func() { l.release(w.slots) }, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-w.ready:
		// Granted meanwhile but never sent: the slots count for nothing.
		for _, s := range w.slots {
			s.until = time.Now()
		}
		l.grantLocked(time.Now())
	default:
		if i := slices.Index(l.queue, w); i >= 0 {
			l.queue = slices.Delete(l.queue, i, i+1)
		}
	}
	return nil, ctx.Err()
}

// release ends the slots of a call whose answer arrived now: each still
// counts for its window's Per.
func (l *limiter) release(slots []*slot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	for _, s := range slots {
		s.until = now.Add(s.per)
	}
	l.grantLocked(now)
}

// limits returns the windows and rates that apply to a call to chat;
// create adds the windows that do not exist yet.
func (l *limiter) limits(chat int64, create bool) (ws []*window, rs []Rate) {
	if !l.global.unlimited() {
		ws, rs = append(ws, &l.all), append(rs, l.global)
	}
	add := func(m map[int64]*window, r Rate) {
		if r.unlimited() {
			return
		}
		w := m[chat]
		if w == nil {
			w = &window{}
			if create {
				m[chat] = w
			}
		}
		ws, rs = append(ws, w), append(rs, r)
	}
	add(l.chats, l.chat)
	if chat < 0 {
		add(l.groups, l.group)
	}
	return ws, rs
}

// grantLocked gives slots to the waiting calls, oldest first, that may go
// at now, and sets the timer for when the next one may. l.mu must be held.
func (l *limiter) grantLocked(now time.Time) {
	var next time.Time
	later := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	kept := l.queue[:0]
	for i, w := range l.queue {
		if !l.global.unlimited() {
			if at := l.all.freeAt(l.global, now); !at.Equal(now) {
				// Nobody can go before the global limit allows it.
				later(at)
				kept = append(kept, l.queue[i:]...)
				break
			}
		}
		ws, rs := l.limits(w.chat, false)
		at := now
		for j, win := range ws {
			if t := win.freeAt(rs[j], now); t.IsZero() || t.After(at) {
				at = t
				if t.IsZero() {
					break
				}
			}
		}
		if !at.Equal(now) {
			later(at)
			kept = append(kept, w)
			continue
		}
		ws, rs = l.limits(w.chat, true)
		for j, win := range ws {
			s := &slot{per: rs[j].Per}
			win.held = append(win.held, s)
			w.slots = append(w.slots, s)
		}
		close(w.ready)
		l.granted++
	}
	clear(l.queue[len(kept):])
	l.queue = kept
	if l.granted >= 1024 {
		l.sweepLocked(now)
	}
	if next.IsZero() || (!l.timerAt.IsZero() && !next.Before(l.timerAt)) {
		return
	}
	l.timerAt = next
	if l.timer == nil {
		l.timer = time.AfterFunc(next.Sub(now), l.tick)
	} else {
		l.timer.Reset(next.Sub(now))
	}
}

// tick grants the slots that became free.
func (l *limiter) tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timerAt = time.Time{}
	l.grantLocked(time.Now())
}

// sweepLocked forgets the windows of chats with no slot left, so that
// the maps do not grow with every chat ever served. l.mu must be held.
func (l *limiter) sweepLocked(now time.Time) {
	l.granted = 0
	for _, m := range []map[int64]*window{l.chats, l.groups} {
		for chat, w := range m {
			if w.prune(now); len(w.held) == 0 {
				delete(m, chat)
			}
		}
	}
}

// prune drops the slots that stopped counting at now.
func (w *window) prune(now time.Time) {
	w.held = slices.DeleteFunc(w.held, func(s *slot) bool { return !s.until.IsZero() && !s.until.After(now) })
}

// freeAt returns when w has a free slot of rate r: now when it has one,
// the zero time when that depends on calls still on their way, else the
// instant enough counted slots expire.
func (w *window) freeAt(r Rate, now time.Time) time.Time {
	w.prune(now)
	if len(w.held) < r.N {
		return now
	}
	var known []time.Time
	for _, s := range w.held {
		if !s.until.IsZero() {
			known = append(known, s.until)
		}
	}
	// Enough of the counted slots must expire to leave N-1 in the window.
	drop := len(w.held) - r.N + 1
	if drop > len(known) {
		return time.Time{}
	}
	slices.SortFunc(known, func(a, b time.Time) int { return a.Compare(b) })
	return known[drop-1]
}
