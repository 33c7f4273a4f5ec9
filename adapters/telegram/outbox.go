package telegram

import (
	"context"
	"errors"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/session"
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

// put queues an edit of message id of chat, replacing the one of that
// message still waiting, and returns at once. When done is not nil, it
// gets the outcome of the edit that carries this one's content or a newer
// one (nil for "message is not modified"); otherwise a failure is logged.
// done must have room for one value.
func (o *outbox) put(chat int64, id int, method string, c tgbotapi.Chattable, done chan error) {
	o.putKey(messageKey{chat: chat, id: id}, method, c, done)
}

// putKey queues an edit of message k, as put.
func (o *outbox) putKey(k messageKey, method string, c tgbotapi.Chattable, done chan error) {
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

// wait queues an edit like put and waits for its outcome, or for ctx.
func (o *outbox) wait(ctx context.Context, chat int64, id int, method string, c tgbotapi.Chattable) error {
	return o.waitKey(ctx, messageKey{chat: chat, id: id}, method, c)
}

// waitKey queues an edit of message k and waits for it, as wait.
func (o *outbox) waitKey(ctx context.Context, k messageKey, method string, c tgbotapi.Chattable) error {
	done := make(chan error, 1)
	o.putKey(k, method, c, done)
	var err error
	// The wait for the edit's turn under flood control lends the update
	// worker out (session.Lend), so that it holds up no other chat.
	session.Lend(ctx, func() {
		select {
		case err = <-done:
		case <-ctx.Done():
			err = ctx.Err()
		}
	})
	return err
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
		err := o.b.call(o.ctx, method, true, o.b.paced(o.ctx, k.chat, take))
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

// pendingEdits collects the outcomes of the edits one update queued
// without waiting for them, so that the update leaves the inbox only once
// they were made: a stop in between replays it.
type pendingEdits struct {
	mu   sync.Mutex
	done []chan error
}

type pendingEditsKey struct{}

// withPendingEdits returns ctx carrying p, which the edits queued under it
// without waiting report to.
func withPendingEdits(ctx context.Context, p *pendingEdits) context.Context {
	return context.WithValue(ctx, pendingEditsKey{}, p)
}

// track returns a channel for the outcome of an edit queued under ctx
// without waiting, or nil when ctx carries no pendingEdits.
func track(ctx context.Context) chan error {
	p, _ := ctx.Value(pendingEditsKey{}).(*pendingEdits)
	if p == nil {
		return nil
	}
	done := make(chan error, 1)
	p.mu.Lock()
	p.done = append(p.done, done)
	p.mu.Unlock()
	return done
}

// empty reports whether no edit was tracked.
func (p *pendingEdits) empty() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.done) == 0
}

// wait waits for the outcome of every tracked edit, logs the failures,
// and reports whether each edit was made or failed for good, rather than
// cut short by the Bot's stop.
func (p *pendingEdits) wait(b *Bot) bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	final := true
	for _, d := range done {
		err := <-d
		switch {
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			final = false
		case err != nil:
			b.log.Error("editing a message failed", "err", err)
		}
	}
	return final
}
