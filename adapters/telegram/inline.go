package telegram

import (
	"context"
	"hash/fnv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
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
	offers, _ := InlineOffers(q.Query)
	results := []any{}
	for _, o := range offers {
		btn := tgbotapi.NewInlineKeyboardButtonData(render.T(lang, render.MsgInlineJoinButton), InlineJoinData)
		if o.Level != 0 {
			data := o.StartData(user.ID)
			if data == "" {
				continue
			}
			btn = tgbotapi.NewInlineKeyboardButtonData(render.T(lang, render.MsgInlineStartButton), data)
		}
		r := tgbotapi.NewInlineQueryResultArticle(o.ID(), InlineTitle(lang, o), InlineIntro(lang, o, user))
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

// inlineRequest returns the request of a user acting on inline message
// id, a chat that is one message (adapters.Request.Alone).
func (b *Bot) inlineRequest(ctx context.Context, update, id string, from *tgbotapi.User, lend func(func())) adapters.Request {
	return adapters.Request{
		Chat: InlineChat(id), User: userOf(from), Locale: from.LanguageCode, Message: id, Alone: true,
		Update: update, Think: b.think(ctx, 0, lend),
	}
}

// onChosen handles a result the user posted (inline feedback): its game
// starts, or its challenge opens, in the posted message at once. A
// refusal, such as too many games, leaves the message its ▶️ Start,
// whose tap says why.
func (b *Bot) onChosen(ctx context.Context, update string, c *tgbotapi.ChosenInlineResult, lend func(func())) handling {
	if c.From == nil || c.InlineMessageID == "" {
		return handling{}
	}
	req := b.inlineRequest(ctx, update, c.InlineMessageID, c.From, lend)
	f := &front{b: b, inline: c.InlineMessageID, lend: lend}
	o, err := ParseInlineOffer(c.ResultID)
	if err != nil {
		b.svc.Refused(Platform, adapters.ReasonBadCallback)
		b.log.Info("a chosen inline result no offer made", "err", err)
		return handling{}
	}
	if o.Level == 0 {
		return b.carry(ctx, f, b.disp.Duel(ctx, req, adapters.DuelArgs{Rules: o.Rules, Side: o.Side}, session.User{}))
	}
	return b.carry(ctx, f, b.disp.Play(ctx, req, adapters.PlayArgs{Rules: o.Rules, Level: o.Level, Side: o.Side}))
}

// onInlineTap handles a tap on a button of an inline message: ▶️ Start
// (only its poster may, and it shows the poster's game there, or starts
// it when the bot heard nothing of the chosen result), 🤝 Join, or a
// button of the game the message shows. As onTap, it queues at most one
// edit of the message and answers exactly once.
func (b *Bot) onInlineTap(ctx context.Context, update string, q *tgbotapi.CallbackQuery, lend func(func())) handling {
	id := q.InlineMessageID
	req := b.inlineRequest(ctx, update, id, q.From, lend)
	f := &front{b: b, query: q.ID, inline: id, lend: lend}
	switch {
	case q.Data == InlineJoinData:
		return b.carry(ctx, f, b.disp.Join(ctx, req))
	case strings.HasPrefix(q.Data, "I:"):
		o, owner, err := ParseInlineStart(q.Data)
		if err != nil || owner != req.User.ID {
			lang := b.disp.Lang(ctx, req)
			msg := render.T(lang, render.MsgNotAPlayer)
			if err != nil {
				msg = render.T(lang, render.MsgBadCallback)
				b.svc.Refused(Platform, adapters.ReasonBadCallback)
			} else {
				b.svc.Refused(Platform, session.Reason(session.ErrNotAPlayer))
			}
			b.answerLogged(ctx, q.ID, msg)
			return handling{}
		}
		return b.carry(ctx, f, b.disp.Play(ctx, req, adapters.PlayArgs{Rules: o.Rules, Level: o.Level, Side: o.Side}))
	}
	return b.carry(ctx, f, b.disp.Tap(ctx, req, q.Data))
}
