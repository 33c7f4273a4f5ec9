package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
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
// /start also shows the start menu. Full-width forms read as their ASCII
// (adapters.FoldWidth).
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
	text := adapters.FoldWidth(strings.TrimSpace(m.Text))
	if cmd, err := adapters.ParseCommand(text, b.UserName()); err == nil && cmd.Name == adapters.CmdStart {
		lang := b.disp.Lang(ctx, req)
		welcome := render.T(lang, render.MsgWelcome) + "\n\n" + render.T(lang, render.MsgPickGame)
		if _, err := f.sendMessage(ctx, chat, m.MessageID, welcome, markup{kb: gamesMenu(lang)}); err != nil {
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
	rest = adapters.FoldWidth(rest)
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
func (b *Bot) board(v session.View, l render.Lang, window *engine.Point) (text string, png []byte, kb markup, err error) {
	c := render.Compose(v, l, render.TelegramLayout, window)
	kb.kb = inlineKeyboard(c.Keyboard)
	if b.cfg.WebBoard != nil && v.Status() != session.Open {
		kb.web = b.cfg.WebBoard(v)
	}
	if !c.HasPicture {
		return c.Text, nil, kb, nil
	}
	if png, err = render.Picture(v); err != nil {
		return "", nil, markup{}, err
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

// Front returns the front that edits the bot's board messages, and posts
// new ones, for requests that came through another front: the web
// board's moves. It is safe for concurrent use.
func (b *Bot) Front() adapters.Front { return editor{b} }

// editor is the Bot's front for requests of other fronts: each call is a
// front of its own, in the chat it names when it posts.
type editor struct{ b *Bot }

func (e editor) Platform() session.Platform { return Platform }
func (e editor) Notify(ctx context.Context, text string) error {
	return (&front{b: e.b, wait: true}).Notify(ctx, text)
}

// Send posts m in chat, a chat of the bot's (a rematch's board).
func (e editor) Send(ctx context.Context, chat string, m adapters.Message) (string, error) {
	id, err := strconv.ParseInt(chat, 10, 64)
	if err != nil {
		return "", fmt.Errorf("telegram: post in chat %q: not a chat the bot posts in", chat)
	}
	return (&front{b: e.b, chat: id, wait: true}).Send(ctx, chat, m)
}

// Edit queues the edit in the outbox, as a tap in the chat does: the
// request that asked for it (a move on the web board) does not wait for
// flood control, and edits of one message that queue up go as the
// latest. The outbox logs a failure.
func (e editor) Edit(ctx context.Context, at adapters.Place, m adapters.Message) error {
	return (&front{b: e.b, detached: true}).Edit(ctx, at, m)
}
func (e editor) Attach(ctx context.Context, f adapters.File) error {
	return (&front{b: e.b, wait: true}).Attach(ctx, f)
}

// InlineChatPrefix begins the session chat of an inline message.
//
// Inline games are played in a message that a user posts through the
// bot into any chat (Telegram's inline mode). The message is its own
// chat: the session chat InlineChat(id) holds the games of inline
// message id, and their message is id, so that taps, stale and doubled
// taps, strangers, expiry, stats and languages work as in any chat; the
// dispatcher treats it as a chat that is one message
// (adapters.Request.Alone).
const InlineChatPrefix = "inline:"

// InlineChat returns the session chat of the inline message id.
func InlineChat(id string) string { return InlineChatPrefix + id }

// IsInlineChat reports whether a session chat is an inline message's,
// and returns that message's id.
func IsInlineChat(chat string) (id string, ok bool) {
	id, ok = strings.CutPrefix(chat, InlineChatPrefix)
	return id, ok && id != ""
}

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
	// wait makes edits wait for their outcome; detached leaves their
	// outcome to the outbox, which logs a failure (no update waits for
	// it: a move from the web board).
	wait, detached bool
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
		_, err := f.sendMessage(ctx, f.chat, f.replyTo, text, markup{})
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
		var kb markup
		if m.Buttons != nil {
			kb.kb = inlineKeyboard(*m.Buttons)
		}
		id, err := f.sendMessage(ctx, f.chat, f.replyTo, m.Text, kb)
		return strconv.Itoa(id), f.b.logged("sending a reply", err)
	}
	if f.tapped != nil && (len(f.tapped.Photo) > 0) == hasPicture(*m.Game, m.Lang) {
		id := strconv.Itoa(f.tapped.MessageID)
		return id, f.Edit(ctx, adapters.Place{Platform: Platform, Chat: chatKey(f.chat), Message: id}, m)
	}
	if m.Text != "" {
		if _, err := f.sendMessage(ctx, f.chat, f.replyTo, m.Text, markup{}); err != nil {
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
	k := messageKey{chat: chat, id: id}
	e := editText(k, text, kb)
	if png != nil {
		e = editPhoto(k, png, text, kb)
	}
	if !f.wait {
		f.queue(k, e)
		return nil
	}
	err = f.waitEdit(ctx, k, e)
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
	k := messageKey{chat: inlineKey(id), inline: id}
	e := editText(k, c.Text, markup{kb: inlineKeyboard(c.Keyboard)})
	if !f.wait {
		f.queue(k, e)
		return nil
	}
	return f.b.logged("editing an inline board", f.waitEdit(ctx, k, e))
}

// queue queues an edit in the outbox, its outcome kept in f.edits (or,
// detached, left to the outbox).
func (f *front) queue(k messageKey, e edit) {
	if f.detached {
		f.b.outbox.put(k, e, nil)
		return
	}
	done := make(chan error, 1)
	f.mu.Lock()
	f.edits = append(f.edits, done)
	f.mu.Unlock()
	f.b.outbox.put(k, e, done)
}

// waitEdit queues an edit and waits for its outcome, or for ctx; the
// wait for the edit's turn under flood control runs through f.lend, so
// that it holds up no other chat.
func (f *front) waitEdit(ctx context.Context, k messageKey, e edit) error {
	f.ack(ctx)
	done := make(chan error, 1)
	f.b.outbox.put(k, e, done)
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
		var kb markup
		if file.Buttons != nil {
			kb.kb = inlineKeyboard(*file.Buttons)
		}
		_, err = f.sendPhoto(ctx, f.chat, f.replyTo, file.Data, truncate(file.Caption, maxCaption), kb)
	case adapters.Animation:
		_, err = f.sendAnimation(ctx, f.chat, f.replyTo, file.Data, file.Caption)
	case adapters.Record:
		_, err = f.sendMessage(ctx, f.chat, f.replyTo, file.Caption, markup{})
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
func (o *outbox) put(k messageKey, e edit, done chan error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	m, busy := o.pending[k]
	if !busy {
		m = &outgoing{}
		o.pending[k] = m
		go o.send(k, m)
	}
	m.next = &e
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
			return o.b.make(*e)
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
