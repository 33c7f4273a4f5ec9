package telegram

import (
	"context"
	"hash/fnv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Inline mode: a user types @bot in any chat and picks a game from the
// results of the inline query; the chosen result posts a message with a
// ▶️ Start or 🤝 Join button, through which the bot hears of it (the
// chosen result, when inline feedback is on, and every tap carry its
// inline_message_id). The message is the game's chat and board (see
// adapters.InlineChat); it is edited through inline_message_id, always as
// text (an inline message cannot take a new upload), with the movable
// window on boards wider than the keyboard.

// allowedUpdates are the kinds of update the bot asks Telegram for.
var allowedUpdates = []string{"message", "callback_query", "inline_query", "chosen_inline_result"}

// allowedUpdatesJSON is allowedUpdates as setWebhook takes them.
const allowedUpdatesJSON = `["message","callback_query","inline_query","chosen_inline_result"]`

// inlineCacheTime is how long, in seconds, Telegram may keep the results
// of an inline query for the same user and words: they change only with
// the user's language.
const inlineCacheTime = 60

// maxQueryShown is how many runes of a query the no-match answer quotes.
const maxQueryShown = 24

// inlineKey returns the key an inline message is ordered and paced by, as
// a chat is by its id: at least 2^62, above every chat id, and positive,
// so that it is paced as one private chat.
func inlineKey(id string) int64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int64(h.Sum64()>>2) | 1<<62
}

// onInlineQuery answers an inline query with the games its words offer
// (adapters.InlineOffers), each with its button, or, when none matches,
// with no result and a button that says so. The results name the user,
// so they are personal.
func (b *Bot) onInlineQuery(ctx context.Context, q *tgbotapi.InlineQuery) {
	if q.From == nil {
		return
	}
	user := userOf(q.From)
	lang := b.disp.Lang(ctx, adapters.Request{User: user, Locale: q.From.LanguageCode})
	offers, _ := adapters.InlineOffers(q.Query)
	results := []any{}
	for _, o := range offers {
		btn := tgbotapi.NewInlineKeyboardButtonData(render.T(lang, render.MsgInlineJoinButton), adapters.InlineJoinData)
		if o.Level != 0 {
			data := o.StartData(user.ID)
			if data == "" {
				continue
			}
			btn = tgbotapi.NewInlineKeyboardButtonData(render.T(lang, render.MsgInlineStartButton), data)
		}
		r := tgbotapi.NewInlineQueryResultArticle(o.ID(), adapters.InlineTitle(lang, o), adapters.InlineIntro(lang, o, user))
		kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(btn))
		r.ReplyMarkup = &kb
		results = append(results, r)
	}
	params := tgbotapi.Params{"inline_query_id": q.ID}
	if err := params.AddInterface("results", results); err != nil {
		b.log.Error("encoding inline results failed", "err", err)
		return
	}
	params.AddNonZero("cache_time", inlineCacheTime)
	params.AddBool("is_personal", true)
	if len(results) == 0 {
		shown := []rune(strings.TrimSpace(q.Query))
		if len(shown) > maxQueryShown {
			shown = append(shown[:maxQueryShown], '…')
		}
		button := map[string]string{"text": render.T(lang, render.MsgInlineNoMatch, string(shown)), "start_parameter": "inline"}
		if err := params.AddInterface("button", button); err != nil {
			b.log.Error("encoding the inline button failed", "err", err)
			return
		}
	}
	err := b.call(ctx, "answerInlineQuery", false, func() error {
		_, err := b.api.MakeRequest("answerInlineQuery", params)
		return err
	})
	if err != nil {
		b.log.Warn("answerInlineQuery failed", "err", err)
	}
}

// inlineRequest returns the request of a user acting on inline message id.
func inlineRequest(id string, from *tgbotapi.User) adapters.Request {
	return adapters.Request{Chat: adapters.InlineChat(id), User: userOf(from), Locale: from.LanguageCode, Message: id}
}

// onChosen handles a result the user posted (inline feedback): its game
// starts, or its challenge opens, in the posted message at once.
func (b *Bot) onChosen(ctx context.Context, c *tgbotapi.ChosenInlineResult) {
	if c.From == nil || c.InlineMessageID == "" {
		return
	}
	r := b.disp.InlineChosen(ctx, inlineRequest(c.InlineMessageID, c.From), c.ResultID)
	if r.Game == nil {
		// A refusal, such as too many games: the message keeps its
		// ▶️ Start, whose tap says why.
		if r.Notice != "" {
			b.log.Info("a chosen inline result was refused", "reason", r.Notice)
		}
		return
	}
	if err := b.editInline(ctx, c.InlineMessageID, *r.Game, r.Lang, r.WindowIn(render.TelegramLayout), false); err != nil {
		b.log.Error("showing a chosen inline game failed", "game", r.Game.ID(), "err", err)
	}
}

// onInlineTap handles a tap on a button of an inline message: ▶️ Start,
// 🤝 Join, or a button of the game the message shows. As onTap, it
// queues at most one edit of the message and answers exactly once.
func (b *Bot) onInlineTap(ctx context.Context, q *tgbotapi.CallbackQuery) {
	id := q.InlineMessageID
	req := inlineRequest(id, q.From)
	var r adapters.Reply
	switch {
	case q.Data == adapters.InlineJoinData:
		r = b.disp.InlineJoin(ctx, req)
	case strings.HasPrefix(q.Data, "I:"):
		r = b.disp.InlineStart(ctx, req, q.Data)
	default:
		r = b.disp.Tap(ctx, req, q.Data)
	}
	notice := r.Notice
	switch {
	case r.Game != nil && r.Game.Chat() == req.Chat:
		if r.Game.Message() != id {
			// A game new to the message, such as its rematch.
			if err := b.disp.Bind(ctx, r.Game.ID(), id); err != nil {
				b.log.Error("binding a game to its inline message failed", "game", r.Game.ID(), "err", err)
			}
		}
		if err := b.editInline(ctx, id, *r.Game, r.Lang, r.WindowIn(render.TelegramLayout), false); err != nil {
			b.log.Error("editing an inline board failed", "game", r.Game.ID(), "err", err)
		}
	case notice == "":
		notice = r.Text
	}
	b.answerLogged(ctx, q.ID, notice)
}

// editInline edits inline message id to show v, with the keyboard's
// window at window, through the outbox paced as the message's own chat
// (inlineKey), waiting for the outcome when wait is true (see
// editMessage). The board is always text: the emoji board of the whole
// game, with the window's buttons on larger boards.
func (b *Bot) editInline(ctx context.Context, id string, v session.View, l render.Lang, window *engine.Point, wait bool) error {
	c := render.Compose(v, l, render.TelegramLayout, window)
	e := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: id, ReplyMarkup: inlineKeyboard(c.Keyboard)}, Text: c.Text}
	k := messageKey{chat: inlineKey(id), inline: id}
	if wait {
		return b.outbox.waitKey(ctx, k, "editMessageText", e)
	}
	b.outbox.putKey(k, "editMessageText", e, track(ctx))
	return nil
}

// expiredInline edits the inline message of a game the sweeper ended.
func (b *Bot) expiredInline(v session.View) {
	ctx, cancel := context.WithTimeout(b.work, expireTimeout)
	defer cancel()
	r := b.disp.Expired(ctx, v)
	if r.Game == nil || r.Edit == "" {
		return
	}
	if err := b.editInline(ctx, r.Edit, *r.Game, r.Lang, nil, true); err != nil {
		b.log.Error("showing an expired inline game failed", "game", v.ID(), "err", err)
	}
}
