package telegram

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// handling is what handling one update left to do: the games shown in new
// messages, to bind when the update is marked handled (and whether its
// change marked it already), and the front whose queued edits must be
// made first.
type handling struct {
	binds  []session.Binding
	marked bool
	front  *front
}

// handle handles one update on a job of the scheduler, which lends its
// worker through lend during long waits. It never panics: a panic is
// logged and the update dropped.
func (b *Bot) handle(ctx context.Context, u tgbotapi.Update, lend func(func())) (h handling) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic while handling an update", "update", u.UpdateID, "panic", p)
		}
	}()
	if b.cfg.OnUpdate != nil {
		b.cfg.OnUpdate(updateKind(u))
	}
	id := strconv.Itoa(u.UpdateID)
	switch {
	case u.CallbackQuery != nil && u.CallbackQuery.InlineMessageID != "" && u.CallbackQuery.From != nil:
		return b.onInlineTap(ctx, id, u.CallbackQuery, lend)
	case u.CallbackQuery != nil:
		return b.onTap(ctx, id, u.CallbackQuery, lend)
	case u.Message != nil:
		return b.onMessage(ctx, id, u.Message, lend)
	case u.InlineQuery != nil:
		b.onInlineQuery(ctx, u.InlineQuery)
	case u.ChosenInlineResult != nil:
		return b.onChosen(ctx, id, u.ChosenInlineResult, lend)
	}
	return handling{}
}

// carry carries decision d out through f, answers a tap that is still
// owed its answer, and returns what is left to do. A tap's new boards are
// bound to their messages before it is answered, so that an answered tap
// has its board in place; a typed message's are bound when it is marked
// handled.
func (b *Bot) carry(ctx context.Context, f *front, d adapters.Decision) handling {
	binds := adapters.Carry(ctx, f, d, nil)
	if f.query != "" && len(binds) > 0 {
		if err := b.disp.Bind(ctx, binds); err != nil {
			b.log.Error("binding boards to their messages failed", "err", err)
		}
		binds = nil
	}
	f.ack(ctx)
	return handling{binds: binds, marked: d.Marked, front: f}
}

// think returns the Request.Think of an update in chat (0: none): it
// shows "typing…" in the chat, and lends the job's worker while the AI
// thinks.
func (b *Bot) think(ctx context.Context, chat int64, lend func(func())) func(wait func()) {
	return func(wait func()) {
		if chat != 0 {
			b.hint(ctx, chat)
		}
		if lend != nil {
			lend(wait)
			return
		}
		wait()
	}
}

// updateKind names the kind of an update for Config.OnUpdate.
func updateKind(u tgbotapi.Update) string {
	switch {
	case u.CallbackQuery != nil:
		return "callback"
	case u.Message != nil:
		return "message"
	case u.InlineQuery != nil:
		return "inline_query"
	case u.ChosenInlineResult != nil:
		return "chosen_inline_result"
	}
	return "other"
}

// userOf returns the session user of a Telegram user: its handle is the
// username (empty when the user has none), which "/duel @username" is
// matched against; its name, what boards show, is the username too when
// there is one, else the user's full name, which anyone may take and
// which no challenge is ever matched against.
func userOf(u *tgbotapi.User) session.User {
	name := u.UserName
	if name == "" {
		name = strings.TrimSpace(u.FirstName + " " + u.LastName)
	}
	return session.User{ID: strconv.FormatInt(u.ID, 10), Name: name, Handle: u.UserName}
}

// duelOpponent returns the member a /duel message names by id, if any:
// the user of a text mention in it (a member picked by name, who may
// have no username) with the text without that mention, else, when the
// command names no @username, the sender of the message it replies to,
// unless that is a bot. ok is false when the message names no one that
// way and the command grammar decides.
func duelOpponent(m *tgbotapi.Message, text string) (opp *tgbotapi.User, rest string, ok bool) {
	units := utf16.Encode([]rune(m.Text))
	for _, e := range m.Entities {
		if e.Type != "text_mention" || e.User == nil || e.Offset < 0 || e.Length <= 0 || e.Offset > len(units) || e.Length > len(units)-e.Offset {
			continue
		}
		rest = string(utf16.Decode(units[:e.Offset])) + " " + string(utf16.Decode(units[e.Offset+e.Length:]))
		return e.User, strings.TrimSpace(rest), true
	}
	if r := m.ReplyToMessage; r != nil && r.From != nil && !r.From.IsBot {
		if fields := strings.Fields(text); len(fields) < 2 || !strings.HasPrefix(fields[1], "@") {
			return r.From, text, true
		}
	}
	return nil, text, false
}

// onMessage handles a typed message: a command, or maybe a coordinate.
// /start also shows the start menu.
func (b *Bot) onMessage(ctx context.Context, update string, m *tgbotapi.Message, lend func(func())) handling {
	if m.From == nil || m.From.IsBot || m.Chat == nil || m.Text == "" {
		return handling{}
	}
	chat := m.Chat.ID
	req := adapters.Request{
		Chat: chatKey(chat), User: userOf(m.From), Locale: m.From.LanguageCode, Admin: b.admin(m.Chat, m.From),
		Private: m.Chat.IsPrivate(), Update: update, Think: b.think(ctx, chat, lend),
	}
	f := &front{b: b, chat: chat, replyTo: m.MessageID, wait: true, lend: lend}
	text := strings.TrimSpace(m.Text)
	if cmd, err := adapters.ParseCommand(text, b.UserName()); err == nil && cmd.Name == adapters.CmdStart {
		lang := b.disp.Lang(ctx, req)
		welcome := render.T(lang, render.MsgWelcome) + "\n\n" + render.T(lang, render.MsgPickGame)
		if _, err := f.sendMessage(ctx, chat, m.MessageID, welcome, gamesMenu(lang)); err != nil {
			b.log.Error("sending the start menu failed", "chat", chat, "err", err)
		}
		return handling{}
	}
	return b.carry(ctx, f, b.text(ctx, req, m, text))
}

// admin returns the Request.Admin of a user in a chat: anyone in a
// private chat, else the chat's creator and administrators, asked of
// Telegram when a command needs to know.
func (b *Bot) admin(chat *tgbotapi.Chat, from *tgbotapi.User) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		if chat.IsPrivate() {
			return true, nil
		}
		return b.isAdmin(ctx, chat.ID, from.ID)
	}
}

// text decides typed text. A /duel that names its opponent by a text
// mention or by replying to their message is addressed to that member's
// id.
func (b *Bot) text(ctx context.Context, req adapters.Request, m *tgbotapi.Message, text string) adapters.Decision {
	cmd, err := adapters.ParseCommand(strings.Fields(text + " ")[0], b.UserName())
	if err != nil || cmd.Name != adapters.CmdDuel {
		return b.disp.Text(ctx, req, text)
	}
	opp, rest, ok := duelOpponent(m, text)
	if !ok {
		return b.disp.Text(ctx, req, text)
	}
	cmd, err = adapters.ParseCommand(rest, b.UserName())
	switch {
	case err != nil:
		// The options around the mention are wrong: say so.
		return b.disp.Text(ctx, req, rest)
	case cmd.Duel.Opponent != "":
		// A second opponent: the grammar refuses the mention's name.
		return b.disp.Text(ctx, req, text)
	}
	return b.disp.Duel(ctx, req, cmd.Duel, userOf(opp))
}

// board returns what shows v (render.Compose), with the keyboard's window
// at window (nil: around the last move): the text, or, for a board larger
// than the keyboard, a caption and the PNG of the whole board; and the
// keyboard. Whether there is a picture depends on the rules alone, so a
// board message never changes kind.
func (b *Bot) board(v session.View, l render.Lang, window *engine.Point) (text string, png []byte, kb *tgbotapi.InlineKeyboardMarkup, err error) {
	c := render.Compose(v, l, render.TelegramLayout, window)
	kb = inlineKeyboard(c.Keyboard)
	if !c.HasPicture {
		return c.Text, nil, kb, nil
	}
	if png, err = render.Picture(v); err != nil {
		return "", nil, nil, err
	}
	return c.Caption, png, kb, nil
}

// sendBoard sends a new message showing v and returns its id.
func (f *front) sendBoard(ctx context.Context, chat int64, replyTo int, v session.View, l render.Lang, window *engine.Point) (int, error) {
	text, png, kb, err := f.b.board(v, l, window)
	if err != nil {
		return 0, err
	}
	if png != nil {
		return f.sendPhoto(ctx, chat, replyTo, png, text, kb)
	}
	return f.sendMessage(ctx, chat, replyTo, text, kb)
}

// onTap handles a tapped button: exactly one answer, empty on success and
// the refusal otherwise, and at most one edit of the board message,
// queued in the outbox; a refused tap on a board left behind (a stale
// move number) edits it to show the game as it is. The answer does not
// wait for the edit, which may wait for flood control.
func (b *Bot) onTap(ctx context.Context, update string, q *tgbotapi.CallbackQuery, lend func(func())) handling {
	if q.From == nil || q.Message == nil || q.Message.Chat == nil {
		// A button with neither a message nor an inline message.
		lang := render.English
		if q.From != nil {
			lang = b.disp.Lang(ctx, adapters.Request{User: userOf(q.From), Locale: q.From.LanguageCode})
		}
		b.answerLogged(ctx, q.ID, render.T(lang, render.MsgBadCallback))
		return handling{}
	}
	chat, msg := q.Message.Chat.ID, q.Message.MessageID
	req := adapters.Request{
		Chat: chatKey(chat), User: userOf(q.From), Locale: q.From.LanguageCode, Message: strconv.Itoa(msg),
		Update: update, Think: b.think(ctx, chat, lend),
	}
	f := &front{b: b, chat: chat, query: q.ID, tapped: q.Message, lend: lend}
	if q.Data == menuPrefix || strings.HasPrefix(q.Data, menuPrefix+":") {
		return b.onMenu(ctx, f, q, req)
	}
	req.HasButton = hasButton(q.Message, q.Data)
	return b.carry(ctx, f, b.disp.Tap(ctx, req, q.Data))
}

// onMenu handles a button of the start menu: it edits the menu in place,
// and a level button starts the game, whose board takes the menu's place
// (or comes below it when the board is a picture).
func (b *Bot) onMenu(ctx context.Context, f *front, q *tgbotapi.CallbackQuery, req adapters.Request) handling {
	c, ok := parseMenu(q.Data)
	if !ok || !hasButton(q.Message, q.Data) || c.game == nil || c.level == 0 {
		lang := b.disp.Lang(ctx, req)
		switch {
		case !ok || !hasButton(q.Message, q.Data):
			b.answerLogged(ctx, q.ID, render.T(lang, render.MsgBadCallback))
			return handling{}
		case c.game == nil:
			f.editMenu(ctx, render.T(lang, render.MsgPickGame), gamesMenu(lang))
		default:
			f.editMenu(ctx, render.T(lang, render.MsgPickLevel, c.game.label(lang)), levelsMenu(lang, c.game))
		}
		b.answerLogged(ctx, q.ID, "")
		return handling{front: f}
	}
	args := adapters.DefaultPlay()
	args.Level = c.level
	args.Rules, _ = engine.Preset(c.game.preset)
	return b.carry(ctx, f, b.disp.Play(ctx, req, args))
}

// editMenu edits the tapped menu message to show text and kb.
func (f *front) editMenu(ctx context.Context, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	e := tgbotapi.NewEditMessageText(f.chat, f.tapped.MessageID, text)
	e.ReplyMarkup = kb
	f.queue(messageKey{chat: f.chat, id: f.tapped.MessageID}, "editMessageText", e)
}

// hint sends the "typing" chat action, logging a failure.
func (b *Bot) hint(ctx context.Context, chat int64) {
	if err := b.typing(ctx, chat); err != nil {
		b.log.Warn("sendChatAction failed", "chat", chat, "err", err)
	}
}

// answerLogged answers a callback query, logging a failure.
func (b *Bot) answerLogged(ctx context.Context, id, text string) error {
	err := b.answer(ctx, id, text)
	if err != nil {
		b.log.Warn("answerCallbackQuery failed", "err", err)
	}
	return err
}

// hasButton reports whether the message, as Telegram delivered it with
// the callback query, has a button with the callback data: menu data is
// only taken from the menu it belongs to, and game data only edits a
// message that shows the game, so a forged tap cannot repaint another
// message, such as someone's board.
func hasButton(m *tgbotapi.Message, data string) bool {
	if m.ReplyMarkup == nil {
		return false
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData != nil && *b.CallbackData == data {
				return true
			}
		}
	}
	return false
}

// expireTimeout bounds showing one game the sweeper ended, retries
// included.
const expireTimeout = 2 * time.Minute

// Expired shows the end of a game the session's sweeper ended on its
// board message (session.Config.OnExpire), in its players' language, so
// that it loses its live buttons: the decision of the dispatcher's
// Expired, carried by a front of no request, which edits board messages
// in chats and inline messages and waits for each edit. Games of other
// platforms and games without a message are ignored; a failure is
// logged. It is safe to call from any goroutine, before, during and (to
// no effect but a logged error) after Run.
func (b *Bot) Expired(v session.View) {
	if v.Platform() != Platform {
		return
	}
	ctx, cancel := context.WithTimeout(b.work, expireTimeout)
	defer cancel()
	adapters.Carry(ctx, nil, b.disp.Expired(ctx, v), adapters.Fronts{Platform: &front{b: b, wait: true}})
}
