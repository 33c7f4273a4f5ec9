package telegram

import (
	"context"
	"errors"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// outbox holds the edits of messages waiting for their flood-control
// slot (see limiter), at most one per message: an edit queued while an
// older edit of the same message still waits replaces it, so a message
// that changes faster than its chat may be edited skips the states in
// between and always ends up showing the latest one. Edits of one message
// are made one at a time, in the order queued; each queued message has a
// goroutine that ends when nothing is left to send for it.
//
// An outbox is safe for concurrent use.
type outbox struct {
	b   *Bot
	ctx context.Context // bounds every edit, as Bot.work

	mu      sync.Mutex
	pending map[messageKey]*outgoing
	changed chan struct{} // closed and replaced when a message leaves pending
}

// messageKey names a message: message id of chat, or the inline message
// inline, whose chat is its inlineKey.
type messageKey struct {
	chat   int64
	id     int
	inline string
}

// edit is one edit call.
type edit struct {
	method string
	c      tgbotapi.Chattable
}

// outgoing is the queue of one message: the newest edit not yet sent,
// who waits for it, and who waits for the edit being sent.
type outgoing struct {
	next    *edit
	waiting []chan error
	sending []chan error
}

// newOutbox returns an empty outbox of b's edits bounded by ctx.
func newOutbox(b *Bot, ctx context.Context) *outbox {
	return &outbox{b: b, ctx: ctx, pending: map[messageKey]*outgoing{}, changed: make(chan struct{})}
}

// put queues an edit of message k, replacing the one of that message
// still waiting, and returns at once. When done is not nil, it gets the
// outcome of the edit that carries this one's content or a newer one
// (nil for "message is not modified"); otherwise a failure is logged.
// done must have room for one value.
func (o *outbox) put(k messageKey, method string, c tgbotapi.Chattable, done chan error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	m, busy := o.pending[k]
	if !busy {
		m = &outgoing{}
		o.pending[k] = m
		go o.send(k, m)
	}
	m.next = &edit{method, c}
	m.waiting = append(m.waiting, done)
}

// send makes the edits of message k until none is left. Each call takes
// the newest edit only once its flood-control slot is granted, so that
// every edit queued while it waited is replaced by the newest; a retry
// (after a refusal or a failure) takes the newest edit again.
func (o *outbox) send(k messageKey, m *outgoing) {
	for {
		var last *edit
		take := func() error {
			o.mu.Lock()
			if m.next != nil {
				last, m.next = m.next, nil
				m.sending = append(m.sending, m.waiting...)
				m.waiting = nil
			}
			e := last
			o.mu.Unlock()
			_, err := o.b.api.Request(e.c)
			return err
		}
		o.mu.Lock()
		method := m.next.method
		o.mu.Unlock()
		err := o.b.call(o.ctx, method, true, o.b.paced(o.ctx, k.chat, nil, take))
		if errors.Is(err, ErrNotModified) {
			err = nil
		}

		o.mu.Lock()
		logged := false
		for _, done := range m.sending {
			if done != nil {
				done <- err
			} else if err != nil && !logged {
				logged = true
				o.b.log.Error("editing a message failed", "chat", k.chat, "message", k.id, "inline", k.inline != "", "err", err)
			}
		}
		m.sending = nil
		if last == nil {
			// The slot never came (the outbox's context ended): whoever
			// waits gets the error.
			for _, done := range m.waiting {
				if done != nil {
					done <- err
				}
			}
			m.waiting, m.next = nil, nil
		}
		if m.next == nil {
			delete(o.pending, k)
			close(o.changed)
			o.changed = make(chan struct{})
			o.mu.Unlock()
			return
		}
		o.mu.Unlock()
	}
}

// flush waits until every edit queued for chat (0: for any chat) was
// made (or failed), or for ctx.
func (o *outbox) flush(ctx context.Context, chat int64) error {
	for {
		o.mu.Lock()
		n, ch := 0, o.changed
		for k := range o.pending {
			if chat == 0 || k.chat == chat {
				n++
			}
		}
		o.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
