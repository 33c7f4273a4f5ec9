package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// front is the adapters.Front of one Telegram update, or of none (the
// sweeper's expiries): how a decision reaches Telegram. A tap is answered
// by Notify, exactly once; a board new to a tapped message takes that
// message's place when it can (a text board on a text message, a picture
// on a photo), and an inline message is always edited in place. The
// edits of a tap are queued in the outbox and not waited for (edits),
// so that the next update of the chat need not wait for flood control;
// the update leaves the inbox once they are made. The edits of a typed
// command and of an expiry are waited for, so that a board whose message
// is gone is posted anew.
type front struct {
	b *Bot
	// chat is the request's chat; 0 for none.
	chat int64
	// replyTo is the typed message a reply answers; 0 for none.
	replyTo int
	// query is the callback query of a tap, which Notify answers; ""
	// for none.
	query string
	// tapped is the message of a tap; nil for none.
	tapped *tgbotapi.Message
	// inline is the inline message that is the request's whole chat; ""
	// for none.
	inline string
	// wait makes edits wait for their outcome.
	wait bool
	// lend runs a long wait of the update's job (the scheduler's lend);
	// nil outside a job.
	lend func(wait func())

	mu       sync.Mutex
	answered bool
	// notice is the answer a tap is owed: it goes once the decision was
	// carried out, after the messages and files it sent, so that an
	// answered tap has its effects out but the edits it queued, which the
	// answer never waits for.
	notice string
	owed   bool
	// edits are the outcomes of the edits queued without waiting.
	edits []chan error
}

// Platform returns Telegram's platform.
func (f *front) Platform() session.Platform { return Platform }

// Notify owes the tap's callback query the answer text, a toast (none
// when empty), once (see ack); for a typed message, a non-empty text is
// a reply.
func (f *front) Notify(ctx context.Context, text string) error {
	f.mu.Lock()
	first := !f.answered
	f.answered = true
	if f.query != "" && first {
		f.notice, f.owed = text, true
	}
	f.mu.Unlock()
	if f.query == "" && text != "" && f.chat != 0 {
		_, err := f.sendMessage(ctx, f.chat, f.replyTo, text, nil)
		return f.b.logged("sending a notice", err)
	}
	return nil
}

// ack answers the tap's callback query, when the answer is owed.
func (f *front) ack(ctx context.Context) {
	f.mu.Lock()
	owed, text := f.owed, f.notice
	f.owed = false
	f.mu.Unlock()
	if owed {
		f.b.answerLogged(ctx, f.query, text)
	}
}

// Send posts m in the request's chat: text with the answers to its
// question, or a board (after its note). A board new to a tapped message
// takes its place when the message is of the board's kind; in an inline
// message it always does.
func (f *front) Send(ctx context.Context, _ string, m adapters.Message) (string, error) {
	if f.inline != "" {
		if m.Game == nil {
			return "", f.b.logged("saying something in an inline message", errors.New("telegram: an inline message takes no new message"))
		}
		return f.inline, f.editInline(ctx, f.inline, m)
	}
	if f.chat == 0 {
		return "", errors.New("telegram: no chat to post in")
	}
	if m.Game == nil {
		var kb *tgbotapi.InlineKeyboardMarkup
		if m.Buttons != nil {
			kb = inlineKeyboard(*m.Buttons)
		}
		id, err := f.sendMessage(ctx, f.chat, f.replyTo, m.Text, kb)
		return strconv.Itoa(id), f.b.logged("sending a reply", err)
	}
	if f.tapped != nil && (len(f.tapped.Photo) > 0) == hasPicture(*m.Game, m.Lang) {
		id := strconv.Itoa(f.tapped.MessageID)
		return id, f.Edit(ctx, adapters.Place{Platform: Platform, Chat: chatKey(f.chat), Message: id}, m)
	}
	if m.Text != "" {
		if _, err := f.sendMessage(ctx, f.chat, f.replyTo, m.Text, nil); err != nil {
			f.b.logged("sending a note", err)
		}
	}
	replyTo := f.replyTo
	if f.tapped != nil {
		replyTo = f.tapped.MessageID
	}
	id, err := f.sendBoard(ctx, f.chat, replyTo, *m.Game, m.Lang, m.WindowIn(render.TelegramLayout))
	return strconv.Itoa(id), f.b.logged("sending a board", err)
}

// Edit changes message at to show m's board: a board message keeps its
// kind (text or photo) for good. A message Telegram no longer has (400)
// is gone, which only waited edits learn.
func (f *front) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	if m.Game == nil {
		return fmt.Errorf("telegram: edit %s: %w", at.Message, adapters.ErrGone)
	}
	if id, ok := IsInlineChat(at.Chat); ok {
		return f.editInline(ctx, id, m)
	}
	chat, err1 := strconv.ParseInt(at.Chat, 10, 64)
	id, err2 := strconv.Atoi(at.Message)
	if err1 != nil || err2 != nil {
		return f.b.logged("editing a board", fmt.Errorf("telegram: edit message %q of chat %q: not Telegram's", at.Message, at.Chat))
	}
	text, png, kb, err := f.b.board(*m.Game, m.Lang, m.WindowIn(render.TelegramLayout))
	if err != nil {
		return f.b.logged("drawing a board", err)
	}
	var method string
	var c tgbotapi.Chattable
	if png != nil {
		media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: png})
		media.Caption = text
		method, c = "editMessageMedia", tgbotapi.EditMessageMediaConfig{BaseEdit: tgbotapi.BaseEdit{ChatID: chat, MessageID: id, ReplyMarkup: kb}, Media: media}
	} else {
		e := tgbotapi.NewEditMessageText(chat, id, text)
		e.ReplyMarkup = kb
		method, c = "editMessageText", e
	}
	k := messageKey{chat: chat, id: id}
	if !f.wait {
		f.queue(k, method, c)
		return nil
	}
	err = f.waitEdit(ctx, k, method, c)
	var ae *APIError
	if errors.As(err, &ae) && ae.Code == 400 {
		f.b.log.Info("the board message is gone; sending a new one", "chat", chat, "game", m.Game.ID(), "err", err)
		return fmt.Errorf("telegram: edit message %d: %w: %w", id, adapters.ErrGone, err)
	}
	return f.b.logged("editing a board", err)
}

// editInline edits inline message id to show m's board, always as text:
// the emoji board of the whole game, with the window's buttons on boards
// larger than the keyboard.
func (f *front) editInline(ctx context.Context, id string, m adapters.Message) error {
	c := render.Compose(*m.Game, m.Lang, render.TelegramLayout, m.WindowIn(render.TelegramLayout))
	e := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: id, ReplyMarkup: inlineKeyboard(c.Keyboard)}, Text: c.Text}
	k := messageKey{chat: inlineKey(id), inline: id}
	if !f.wait {
		f.queue(k, "editMessageText", e)
		return nil
	}
	return f.b.logged("editing an inline board", f.waitEdit(ctx, k, "editMessageText", e))
}

// queue queues an edit in the outbox, its outcome kept in f.edits.
func (f *front) queue(k messageKey, method string, c tgbotapi.Chattable) {
	done := make(chan error, 1)
	f.mu.Lock()
	f.edits = append(f.edits, done)
	f.mu.Unlock()
	f.b.outbox.put(k, method, c, done)
}

// waitEdit queues an edit and waits for its outcome, or for ctx; the
// wait for the edit's turn under flood control runs through f.lend, so
// that it holds up no other chat.
func (f *front) waitEdit(ctx context.Context, k messageKey, method string, c tgbotapi.Chattable) error {
	f.ack(ctx)
	done := make(chan error, 1)
	f.b.outbox.put(k, method, c, done)
	var err error
	wait := func() {
		select {
		case err = <-done:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if f.lend != nil {
		f.lend(wait)
	} else {
		wait()
	}
	return err
}

// Attach sends what the actor asked for to the chat: a photo (the chart,
// with its 📈 button), an animation (a replay) or a message (a record).
func (f *front) Attach(ctx context.Context, file adapters.File) error {
	if f.chat == 0 {
		return f.b.logged("sending a file", errors.New("telegram: no chat to send a file to"))
	}
	var err error
	switch file.Kind {
	case adapters.Picture:
		var kb *tgbotapi.InlineKeyboardMarkup
		if file.Buttons != nil {
			kb = inlineKeyboard(*file.Buttons)
		}
		_, err = f.sendPhoto(ctx, f.chat, f.replyTo, file.Data, truncate(file.Caption, maxCaption), kb)
	case adapters.Animation:
		_, err = f.sendAnimation(ctx, f.chat, f.replyTo, file.Data, file.Caption)
	case adapters.Record:
		_, err = f.sendMessage(ctx, f.chat, f.replyTo, file.Caption, nil)
	}
	return f.b.logged("sending a file", err)
}

// made waits for the outcome of every edit queued without waiting, logs
// the failures, and reports whether each was made or failed for good,
// rather than cut short by the Bot's stop.
func (f *front) made() bool {
	f.mu.Lock()
	edits := f.edits
	f.mu.Unlock()
	final := true
	for _, d := range edits {
		err := <-d
		switch {
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			final = false
		case err != nil:
			f.b.log.Error("editing a message failed", "err", err)
		}
	}
	return final
}

// queued reports whether edits were queued without waiting.
func (f *front) queued() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.edits) > 0
}

// logged logs err, when not nil, as the failure of what, and returns it.
func (b *Bot) logged(what string, err error) error {
	if err != nil {
		b.log.Error(what+" failed", "err", err)
	}
	return err
}

// hasPicture reports whether the message that shows v is a photo: a board
// larger than the keyboard.
func hasPicture(v session.View, l render.Lang) bool {
	return render.Compose(v, l, render.TelegramLayout, nil).HasPicture
}
