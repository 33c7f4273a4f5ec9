package telegram

import (
	"context"
	"errors"
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

// handle handles one update. It never panics: a panic is logged and the
// update dropped.
func (b *Bot) handle(ctx context.Context, u tgbotapi.Update) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("panic while handling an update", "update", u.UpdateID, "panic", p)
		}
	}()
	if b.cfg.OnUpdate != nil {
		b.cfg.OnUpdate(updateKind(u))
	}
	switch {
	case u.CallbackQuery != nil && u.CallbackQuery.InlineMessageID != "" && u.CallbackQuery.From != nil:
		b.onInlineTap(ctx, u.CallbackQuery)
	case u.CallbackQuery != nil:
		b.onTap(ctx, u.CallbackQuery)
	case u.Message != nil:
		b.onMessage(ctx, u.Message)
	case u.InlineQuery != nil:
		b.onInlineQuery(ctx, u.InlineQuery)
	case u.ChosenInlineResult != nil:
		b.onChosen(ctx, u.ChosenInlineResult)
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
func (b *Bot) onMessage(ctx context.Context, m *tgbotapi.Message) {
	if m.From == nil || m.From.IsBot || m.Chat == nil || m.Text == "" {
		return
	}
	chat := m.Chat.ID
	req := adapters.Request{Chat: chatKey(chat), User: userOf(m.From), Locale: m.From.LanguageCode, Admin: b.admin(m.Chat, m.From), Private: m.Chat.IsPrivate()}
	text := strings.TrimSpace(m.Text)
	if strings.HasPrefix(text, "/") {
		if b.disp.SlowText(ctx, req, text) {
			b.hint(ctx, chat)
		}
		r := b.command(ctx, req, m, text)
		var menu *tgbotapi.InlineKeyboardMarkup
		if cmd, err := adapters.ParseCommand(text, b.UserName()); err == nil && cmd.Name == adapters.CmdStart && r.Text != "" {
			r.Text += "\n\n" + render.T(r.Lang, render.MsgPickGame)
			menu = gamesMenu(r.Lang)
		}
		b.reply(ctx, chat, m.MessageID, r, menu)
		return
	}
	if b.disp.SlowText(ctx, req, text) {
		b.hint(ctx, chat)
	}
	b.reply(ctx, chat, m.MessageID, b.disp.Move(ctx, req, text), nil)
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

// command answers a typed command. A /duel that names its opponent by a
// text mention or by replying to their message is addressed to that
// member's id.
func (b *Bot) command(ctx context.Context, req adapters.Request, m *tgbotapi.Message, text string) adapters.Reply {
	cmd, err := adapters.ParseCommand(strings.Fields(text)[0], b.UserName())
	if err != nil || cmd.Name != adapters.CmdDuel {
		return b.disp.Command(ctx, req, text)
	}
	opp, rest, ok := duelOpponent(m, text)
	if !ok {
		return b.disp.Command(ctx, req, text)
	}
	cmd, err = adapters.ParseCommand(rest, b.UserName())
	switch {
	case err != nil:
		// The options around the mention are wrong: say so.
		return b.disp.Command(ctx, req, rest)
	case cmd.Duel.Opponent != "":
		// A second opponent: the grammar refuses the mention's name.
		return b.disp.Command(ctx, req, text)
	}
	return b.disp.Duel(ctx, req, cmd.Duel, userOf(opp))
}

// reply shows the answer to a typed message: its text (with menu, else
// the reply's buttons, as the keyboard), then its game.
func (b *Bot) reply(ctx context.Context, chat int64, replyTo int, r adapters.Reply, menu *tgbotapi.InlineKeyboardMarkup) {
	if menu == nil && r.Buttons != nil {
		menu = inlineKeyboard(*r.Buttons)
	}
	// The chart comes above the numbers of /stats.
	b.sendChart(ctx, chat, replyTo, &r)
	if r.Text != "" {
		if _, err := b.sendMessage(ctx, chat, replyTo, r.Text, menu); err != nil {
			b.log.Error("sending a reply failed", "chat", chat, "err", err)
		}
	}
	b.sendRecords(ctx, chat, replyTo, r)
	if r.Game != nil {
		if err := b.showGame(ctx, chat, replyTo, r.Lang, *r.Game, r.Edit, r.WindowIn(render.TelegramLayout)); err != nil {
			b.log.Error("showing a game failed", "chat", chat, "game", r.Game.ID(), "err", err)
		}
	}
}

// sendChart sends the reply's progress chart, if any, with 📈 under it,
// and takes it off r.
func (b *Bot) sendChart(ctx context.Context, chat int64, replyTo int, r *adapters.Reply) {
	if r.Chart == nil {
		return
	}
	if _, err := b.sendPhoto(ctx, chat, replyTo, r.Chart.PNG, truncate(r.Chart.Caption, maxCaption), inlineKeyboard(r.Chart.Buttons)); err != nil {
		b.log.Error("sending a chart failed", "chat", chat, "err", err)
	}
	r.Chart = nil
}

// sendRecords sends the chart, the record (render.Export) and the replay
// GIF of a finished game that the reply carries.
func (b *Bot) sendRecords(ctx context.Context, chat int64, replyTo int, r adapters.Reply) {
	b.sendChart(ctx, chat, replyTo, &r)
	if r.Record != "" {
		if _, err := b.sendMessage(ctx, chat, replyTo, r.Record, nil); err != nil {
			b.log.Error("sending a game's record failed", "chat", chat, "err", err)
		}
	}
	if r.Replay == nil {
		return
	}
	gif, err := render.Replay(*r.Replay)
	if err == nil {
		_, err = b.sendAnimation(ctx, chat, replyTo, gif, render.ReplayCaption(*r.Replay, r.Lang))
	}
	if err != nil {
		b.log.Error("sending a replay failed", "chat", chat, "game", r.Replay.ID(), "err", err)
	}
}

// showGame edits message edit to show v, or, when edit is "" or that
// message cannot be edited any more, sends a new board message and binds
// the game to it.
func (b *Bot) showGame(ctx context.Context, chat int64, replyTo int, l render.Lang, v session.View, edit string, window *engine.Point) error {
	if edit != "" {
		id, err := strconv.Atoi(edit)
		if err == nil {
			err = b.editBoard(ctx, chat, id, v, l, window, true)
		}
		var ae *APIError
		if err == nil || !errors.As(err, &ae) || ae.Code != 400 {
			return err
		}
		b.log.Info("the board message is gone; sending a new one", "chat", chat, "game", v.ID(), "err", err)
	}
	id, err := b.sendBoard(ctx, chat, replyTo, v, l, window)
	if err != nil {
		return err
	}
	return b.disp.Bind(ctx, v.ID(), strconv.Itoa(id))
}

// board returns what shows v (render.Compose), with the keyboard's window at window (nil:
// around the last move): the text, or, for a board larger than the
// keyboard, a caption and the PNG of the whole board; and the keyboard.
// Whether there is a picture depends on the rules alone, so a board
// message never changes kind.
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
func (b *Bot) sendBoard(ctx context.Context, chat int64, replyTo int, v session.View, l render.Lang, window *engine.Point) (int, error) {
	text, png, kb, err := b.board(v, l, window)
	if err != nil {
		return 0, err
	}
	if png != nil {
		return b.sendPhoto(ctx, chat, replyTo, png, text, kb)
	}
	return b.sendMessage(ctx, chat, replyTo, text, kb)
}

// editBoard edits message id to show v through the outbox, waiting for
// the outcome when wait is true (see editMessage).
func (b *Bot) editBoard(ctx context.Context, chat int64, id int, v session.View, l render.Lang, window *engine.Point, wait bool) error {
	text, png, kb, err := b.board(v, l, window)
	if err != nil {
		return err
	}
	if png != nil {
		return b.editPhoto(ctx, chat, id, png, text, kb, wait)
	}
	return b.editMessage(ctx, chat, id, text, kb, wait)
}

// onTap handles a tapped button: at most one edit of the board message,
// queued in the outbox, and exactly one answer, empty on success and the
// refusal otherwise; a refused tap on a board left behind (a stale move
// number) edits it to show the game as it is. The answer does not wait
// for the edit, which may wait for flood control.
func (b *Bot) onTap(ctx context.Context, q *tgbotapi.CallbackQuery) {
	if q.From == nil || q.Message == nil || q.Message.Chat == nil {
		// A button with neither a message nor an inline message.
		lang := render.English
		if q.From != nil {
			lang = b.disp.Lang(ctx, adapters.Request{User: userOf(q.From), Locale: q.From.LanguageCode})
		}
		b.answerLogged(ctx, q.ID, render.T(lang, render.MsgBadCallback))
		return
	}
	chat, msg := q.Message.Chat.ID, q.Message.MessageID
	req := adapters.Request{Chat: chatKey(chat), User: userOf(q.From), Locale: q.From.LanguageCode, Message: strconv.Itoa(msg)}
	if q.Data == menuPrefix || strings.HasPrefix(q.Data, menuPrefix+":") {
		b.onMenu(ctx, q, req)
		return
	}
	req.HasButton = hasButton(q.Message, q.Data)
	if b.disp.SlowTap(ctx, req, q.Data) {
		b.hint(ctx, chat)
	}
	r := b.disp.Tap(ctx, req, q.Data)
	notice := r.Notice
	if r.Record != "" || r.Replay != nil || r.Chart != nil {
		b.sendRecords(ctx, chat, 0, r)
		b.answerLogged(ctx, q.ID, notice)
		return
	}
	switch {
	case r.Game != nil && r.Edit == "" && len(q.Message.Photo) == 0 && hasPicture(*r.Game, r.Lang):
		// A text message, such as a question, cannot become a photo: the
		// board comes below.
		if err := b.showGame(ctx, chat, msg, r.Lang, *r.Game, "", r.WindowIn(render.TelegramLayout)); err != nil {
			b.log.Error("showing a game after a tap failed", "chat", chat, "game", r.Game.ID(), "err", err)
		}
	case r.Game != nil:
		target := r.Edit
		if target == "" {
			target = req.Message
		}
		if err := b.editTapped(ctx, chat, target, r); err != nil {
			b.log.Error("editing the board after a tap failed", "chat", chat, "game", r.Game.ID(), "err", err)
		}
	case notice == "":
		notice = r.Text
	}
	b.answerLogged(ctx, q.ID, notice)
}

// hasPicture reports whether the message that shows v is a photo: a board
// larger than the keyboard.
func hasPicture(v session.View, l render.Lang) bool {
	return render.Compose(v, l, render.TelegramLayout, nil).HasPicture
}

// editTapped binds the reply's game to message target when the reply
// named no message (a game new to it), and queues the edit of target to
// show the game without waiting for it; a failed edit is logged.
func (b *Bot) editTapped(ctx context.Context, chat int64, target string, r adapters.Reply) error {
	id, err := strconv.Atoi(target)
	if err != nil {
		return err
	}
	if r.Edit == "" {
		if err := b.disp.Bind(ctx, r.Game.ID(), target); err != nil {
			return err
		}
	}
	return b.editBoard(ctx, chat, id, *r.Game, r.Lang, r.WindowIn(render.TelegramLayout), false)
}

// onMenu handles a button of the start menu: it edits the menu in place,
// and a level button starts the game (as "/play <level> <game>") and
// turns the menu message into its board.
func (b *Bot) onMenu(ctx context.Context, q *tgbotapi.CallbackQuery, req adapters.Request) {
	lang := b.disp.Lang(ctx, req)
	chat, msg := q.Message.Chat.ID, q.Message.MessageID
	c, ok := parseMenu(q.Data)
	if !ok || !hasButton(q.Message, q.Data) {
		b.answerLogged(ctx, q.ID, render.T(lang, render.MsgBadCallback))
		return
	}
	var err error
	switch {
	case c.game == nil:
		err = b.editMessage(ctx, chat, msg, render.T(lang, render.MsgPickGame), gamesMenu(lang), false)
	case c.level == 0:
		err = b.editMessage(ctx, chat, msg, render.T(lang, render.MsgPickLevel, c.game.label(lang)), levelsMenu(lang, c.game), false)
	default:
		play := "/play " + c.level.String() + " " + c.game.preset
		if b.disp.SlowText(ctx, req, play) {
			b.hint(ctx, chat)
		}
		r := b.disp.Command(ctx, req, play)
		if r.Game == nil || r.Text != "" {
			b.answerLogged(ctx, q.ID, r.Text)
			return
		}
		if hasPicture(*r.Game, r.Lang) {
			// A text message cannot become a photo: the board comes below.
			err = b.showGame(ctx, chat, msg, r.Lang, *r.Game, "", nil)
		} else {
			r.Edit = ""
			err = b.editTapped(ctx, chat, req.Message, r)
		}
	}
	if err != nil {
		b.log.Error("menu failed", "chat", chat, "err", err)
	}
	b.answerLogged(ctx, q.ID, "")
}

// hint sends the "typing" chat action, logging a failure.
func (b *Bot) hint(ctx context.Context, chat int64) {
	if err := b.typing(ctx, chat); err != nil {
		b.log.Warn("sendChatAction failed", "chat", chat, "err", err)
	}
}

// answerLogged answers a callback query, logging a failure.
func (b *Bot) answerLogged(ctx context.Context, id, text string) {
	if err := b.answer(ctx, id, text); err != nil {
		b.log.Warn("answerCallbackQuery failed", "err", err)
	}
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

// Expired edits the board message of a game the session's sweeper ended
// (session.Config.OnExpire), so that it shows the result and loses its
// live buttons, in its players' language (adapters.Dispatcher.Expired).
// Games of other platforms and games without a message are ignored; a
// failure is logged. It is safe to call from any goroutine, before,
// during and (to no effect but a logged error) after Run.
func (b *Bot) Expired(v session.View) {
	if v.Platform() != Platform || v.Message() == "" {
		return
	}
	if _, ok := adapters.IsInlineChat(v.Chat()); ok {
		b.expiredInline(v)
		return
	}
	chat, err := strconv.ParseInt(v.Chat(), 10, 64)
	if err != nil {
		b.log.Error("expired game in a chat that is not Telegram's", "game", v.ID(), "chat", v.Chat())
		return
	}
	ctx, cancel := context.WithTimeout(b.work, expireTimeout)
	defer cancel()
	r := b.disp.Expired(ctx, v)
	if r.Game == nil || r.Edit == "" {
		return
	}
	id, err := strconv.Atoi(r.Edit)
	if err == nil {
		err = b.editBoard(ctx, chat, id, *r.Game, r.Lang, nil, true)
	}
	if err != nil {
		b.log.Error("showing an expired game failed", "chat", chat, "game", v.ID(), "err", err)
	}
}
