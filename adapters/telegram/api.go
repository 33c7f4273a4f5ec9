package telegram

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// ctxClient binds every request of the client library, which makes them
// without a context, to ctx, so that ending ctx aborts a long poll.
type ctxClient struct {
	ctx    context.Context
	client *http.Client
}

// Do sends r under the client's context.
func (c ctxClient) Do(r *http.Request) (*http.Response, error) {
	return c.client.Do(r.WithContext(c.ctx))
}

// call runs one Bot API call, retrying it after flood control (waiting
// retry_after) and, when idempotent, after temporary failures (with
// back-off). Calls that may have taken effect, such as sendMessage after a
// network error, are not repeated. The error is typed (see classify).
func (b *Bot) call(ctx context.Context, method string, idempotent bool, do func() error) error {
	for attempt := 0; ; attempt++ {
		err := classify(method, b.cfg.Token, do())
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			// The client's RequestTimeout, not the caller's deadline: a
			// network failure like any other.
			err = &APIError{Method: method, Description: "no answer within the request timeout", kind: ErrTransient}
		}
		if err == nil || errors.Is(err, ErrNotModified) {
			return err
		}
		b.reportAPIError(err)
		var ae *APIError
		if !errors.As(err, &ae) || attempt >= b.cfg.MaxRetries {
			return err
		}
		var wait = ae.RetryAfter
		switch {
		case errors.Is(err, ErrFlood):
			if wait > b.cfg.MaxFloodWait {
				return err
			}
		case errors.Is(err, ErrTransient) && idempotent:
			wait = b.cfg.Backoff(attempt)
		default:
			return err
		}
		b.log.Warn("bot api call failed; retrying", "method", method, "err", err, "wait", wait)
		if serr := b.cfg.Sleep(ctx, wait); serr != nil {
			return err
		}
	}
}

// reportAPIError passes the code of a failed call (0 when it got no
// answer) to Config.OnAPIError.
func (b *Bot) reportAPIError(err error) {
	if b.cfg.OnAPIError == nil {
		return
	}
	code := 0
	var ae *APIError
	if errors.As(err, &ae) {
		code = ae.Code
	}
	b.cfg.OnAPIError(code)
}

// paced returns do, made to wait first for a flood-control slot of chat
// (see limiter) and to hold it until its answer: every call that makes or
// changes a message goes through it, each attempt anew. The wait for the
// slot runs through lend when it is set (see front.lend).
func (b *Bot) paced(ctx context.Context, chat int64, lend func(func()), do func() error) func() error {
	return func() error {
		release, err := b.limit.wait(ctx, chat, lend)
		if err != nil {
			return err
		}
		defer release()
		return do()
	}
}

// request makes an idempotent call whose result is not needed.
func (b *Bot) request(ctx context.Context, method string, c tgbotapi.Chattable) error {
	return b.call(ctx, method, true, func() error {
		_, err := b.api.Request(c)
		return err
	})
}

// sendMessage sends a text message with an optional inline keyboard, as a
// reply to message replyTo when it is not 0, and returns its id.
func (f *front) sendMessage(ctx context.Context, chat int64, replyTo int, text string, kb *tgbotapi.InlineKeyboardMarkup) (int, error) {
	m := tgbotapi.NewMessage(chat, text)
	m.ReplyToMessageID = replyTo
	m.AllowSendingWithoutReply = true
	if kb != nil {
		m.ReplyMarkup = *kb
	}
	var sent tgbotapi.Message
	err := f.b.call(ctx, "sendMessage", false, f.b.paced(ctx, chat, f.lend, func() error {
		var err error
		sent, err = f.b.api.Send(m)
		return err
	}))
	return sent.MessageID, err
}

// sendPhoto sends a PNG with a caption and an optional keyboard and
// returns the message's id.
func (f *front) sendPhoto(ctx context.Context, chat int64, replyTo int, png []byte, caption string, kb *tgbotapi.InlineKeyboardMarkup) (int, error) {
	p := tgbotapi.NewPhoto(chat, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	p.Caption = caption
	p.ReplyToMessageID = replyTo
	p.AllowSendingWithoutReply = true
	if kb != nil {
		p.ReplyMarkup = *kb
	}
	var sent tgbotapi.Message
	err := f.b.call(ctx, "sendPhoto", false, f.b.paced(ctx, chat, f.lend, func() error {
		var err error
		sent, err = f.b.api.Send(p)
		return err
	}))
	return sent.MessageID, err
}

// maxCaption is the most bytes of a caption sent: Telegram takes 1024
// characters, and bytes are never fewer.
const maxCaption = 1024

// sendAnimation sends a GIF (a replay) with a caption and returns the
// message's id; it waits for flood control as sendPhoto does.
func (f *front) sendAnimation(ctx context.Context, chat int64, replyTo int, gif []byte, caption string) (int, error) {
	a := tgbotapi.NewAnimation(chat, tgbotapi.FileBytes{Name: "replay.gif", Bytes: gif})
	a.Caption = truncate(caption, maxCaption)
	a.ReplyToMessageID = replyTo
	a.AllowSendingWithoutReply = true
	var sent tgbotapi.Message
	err := f.b.call(ctx, "sendAnimation", false, f.b.paced(ctx, chat, f.lend, func() error {
		var err error
		sent, err = f.b.api.Send(a)
		return err
	}))
	return sent.MessageID, err
}

// answer answers a callback query, with a toast when text is not empty.
func (b *Bot) answer(ctx context.Context, id, text string) error {
	if len(text) > 200 {
		text = truncate(text, 200)
	}
	return b.request(ctx, "answerCallbackQuery", tgbotapi.NewCallback(id, text))
}

// typing shows "typing…" in a chat.
func (b *Bot) typing(ctx context.Context, chat int64) error {
	return b.request(ctx, "sendChatAction", tgbotapi.NewChatAction(chat, tgbotapi.ChatTyping))
}

// isAdmin reports whether user is the creator or an administrator of
// chat, as getChatMember says.
func (b *Bot) isAdmin(ctx context.Context, chat, user int64) (bool, error) {
	var m tgbotapi.ChatMember
	err := b.call(ctx, "getChatMember", true, func() error {
		var err error
		m, err = b.api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chat, UserID: user}})
		return err
	})
	return err == nil && (m.IsCreator() || m.IsAdministrator()), err
}

// makeRequest calls a method by name with raw parameters, for fields the
// client library does not know (setWebhook's secret_token).
func (b *Bot) makeRequest(ctx context.Context, method string, params tgbotapi.Params) error {
	return b.call(ctx, method, true, func() error {
		_, err := b.api.MakeRequest(method, params)
		return err
	})
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// chatKey is the session chat id of a Telegram chat.
func chatKey(id int64) string { return strconv.FormatInt(id, 10) }
