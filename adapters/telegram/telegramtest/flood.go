package telegramtest

import (
	"math"
	"time"
)

// Rate is a flood-control limit: at most N calls in any span of Per.
type Rate struct {
	N   int
	Per time.Duration
}

// Limits are the flood-control limits a Server enforces (see Enforce) on
// the calls that make or change messages.
type Limits struct {
	// Chat bounds the calls of one chat.
	Chat Rate
	// Group bounds the calls of one group chat (a negative chat id), on
	// top of Chat.
	Group Rate
	// Global bounds the calls of all chats.
	Global Rate
}

// TelegramLimits returns about Telegram's own limits: one message a
// second in a chat, 20 a minute in a group and 30 a second overall.
func TelegramLimits() Limits {
	return Limits{Chat: Rate{1, time.Second}, Group: Rate{20, time.Minute}, Global: Rate{30, time.Second}}
}

// Scaled returns l with every span multiplied by f, for tests that cannot
// wait seconds.
func (l Limits) Scaled(f float64) Limits {
	scale := func(r Rate) Rate { return Rate{r.N, time.Duration(float64(r.Per) * f)} }
	return Limits{scale(l.Chat), scale(l.Group), scale(l.Global)}
}

// messageMethods are the calls that make or change a message, which
// flood control counts.
var messageMethods = map[string]bool{
	"sendMessage": true, "sendPhoto": true, "sendAnimation": true, "sendDocument": true, "sendMediaGroup": true,
	"copyMessage": true, "forwardMessage": true,
	"editMessageText": true, "editMessageCaption": true, "editMessageMedia": true, "editMessageReplyMarkup": true,
}

// arrivals are the arrival times of the calls that count, per limit.
type arrivals struct {
	chats, groups map[int64][]time.Time
	all           []time.Time
}

// Enforce makes the Server count the calls that make or change messages
// on arrival, per chat, per group and overall, and refuse those beyond l
// as Telegram does: 429 "Too Many Requests" with parameters.retry_after
// (whole seconds, at least 1). Refused calls do not count. Enforce
// replaces earlier limits and forgets the counts.
func (s *Server) Enforce(l Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = &l
	s.arrived = arrivals{chats: map[int64][]time.Time{}, groups: map[int64][]time.Time{}}
}

// Flooded returns the number of calls Enforce refused.
func (s *Server) Flooded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flooded
}

// arriveLocked counts a call to chat arriving at now and returns 0, or,
// when a limit refuses it, the seconds to wait. s.mu must be held.
func (s *Server) arriveLocked(chat int64, now time.Time) int {
	a := &s.arrived
	type counted struct {
		r     Rate
		times *[]time.Time
	}
	chatTimes, groupTimes := a.chats[chat], a.groups[chat]
	limits := []counted{{s.limits.Global, &a.all}, {s.limits.Chat, &chatTimes}}
	if chat < 0 {
		limits = append(limits, counted{s.limits.Group, &groupTimes})
	}
	var wait time.Duration
	for _, c := range limits {
		// Keep the arrivals less than Per ago.
		ts := *c.times
		i := 0
		for i < len(ts) && !ts[i].After(now.Add(-c.r.Per)) {
			i++
		}
		ts = ts[i:]
		*c.times = ts
		if len(ts) >= c.r.N {
			wait = max(wait, ts[len(ts)-c.r.N].Add(c.r.Per).Sub(now))
		}
	}
	if wait == 0 {
		for _, c := range limits {
			*c.times = append(*c.times, now)
		}
	}
	if len(chatTimes) > 0 {
		a.chats[chat] = chatTimes
	} else {
		delete(a.chats, chat)
	}
	if chat < 0 && len(groupTimes) > 0 {
		a.groups[chat] = groupTimes
	} else {
		delete(a.groups, chat)
	}
	if wait == 0 {
		return 0
	}
	return max(1, int(math.Ceil(wait.Seconds())))
}
