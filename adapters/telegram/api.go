package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
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
// (see limiter) and to hold it until its answer, and then, on a store
// other processes share, for its slot of the budget they share (see
// reserve): every call that makes or changes a message goes through it,
// each attempt anew. The waits run through lend when it is set (see
// front.lend).
func (b *Bot) paced(ctx context.Context, chat int64, lend func(func()), do func() error) func() error {
	return func() error {
		release, err := b.limit.wait(ctx, chat, lend)
		if err != nil {
			return err
		}
		defer release()
		if b.shared {
			if err := b.reserve(ctx, chat, lend); err != nil {
				return err
			}
		}
		return do()
	}
}

// reserve takes a slot for a message to chat of the flood-control budget
// the replicas sharing the store share (session.Service.Reserve), and
// waits until it begins, through lend when it is set, taking the
// Service's clock for the wall clock. A slot is placed ahead by about
// the time a reserve takes (b.lag); one that came back later than half
// the margin after its instant, so that the message would go too late
// for the window it was fitted to, is given up and another taken, twice
// at most. It returns ctx's error when ctx ends first. When the store
// fails, it logs and returns nil: the message goes under the Bot's own
// pacing alone, rather than not at all.
func (b *Bot) reserve(ctx context.Context, chat int64, lend func(func())) error {
	l := b.cfg.Pace.shared(chat)
	var at time.Time
	for try := 0; ; try++ {
		l.Lead = time.Duration(b.lag.Load())
		start := time.Now()
		var err error
		at, err = b.svc.Reserve(ctx, Platform, chat, l)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			b.log.Warn("reserving a flood-control slot among the replicas failed; sending under this replica's pacing alone", "chat", chat, "err", err)
			return nil
		}
		took := time.Since(start)
		b.lag.Store(int64(max(took, time.Duration(b.lag.Load())*7/8)))
		if late := time.Since(at); late <= l.Margin/2 || try == 2 {
			break
		}
	}
	d := time.Until(at)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	begun := false
	wait := func() {
		select {
		case <-t.C:
			begun = true
		case <-ctx.Done():
		}
	}
	if lend != nil {
		lend(wait)
	} else {
		wait()
	}
	if !begun {
		return ctx.Err()
	}
	return nil
}

// shared returns the windows of p for a message to chat in the budget
// replicas share: Group only for a group chat (a negative id).
func (p Pace) shared(chat int64) session.PaceLimits {
	rate := func(r Rate) session.PaceRate {
		if r.unlimited() {
			return session.PaceRate{}
		}
		return session.PaceRate{N: r.N, Per: r.Per}
	}
	l := session.PaceLimits{Chat: rate(p.Chat), Global: rate(p.Global), Margin: max(p.Margin, 0)}
	if chat < 0 {
		l.Group = rate(p.Group)
	}
	return l
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
func (f *front) sendMessage(ctx context.Context, chat int64, replyTo int, text string, kb markup) (int, error) {
	m := tgbotapi.NewMessage(chat, text)
	m.ReplyToMessageID = replyTo
	m.AllowSendingWithoutReply = true
	if !kb.empty() {
		m.ReplyMarkup = kb
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
func (f *front) sendPhoto(ctx context.Context, chat int64, replyTo int, png []byte, caption string, kb markup) (int, error) {
	p := tgbotapi.NewPhoto(chat, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	p.Caption = caption
	p.ReplyToMessageID = replyTo
	p.AllowSendingWithoutReply = true
	if !kb.empty() {
		p.ReplyMarkup = kb
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

// Kinds of Bot API failure; an *APIError wraps one of them when it applies.
var (
	// ErrFlood is returned when Telegram's flood control refused a call
	// (HTTP 429); APIError.RetryAfter says how long to wait.
	ErrFlood = errors.New("telegram: flood control")
	// ErrNotModified is returned by an edit that would change nothing;
	// callers count it as success.
	ErrNotModified = errors.New("telegram: message is not modified")
	// ErrTransient is returned for failures worth retrying later: server
	// errors (5xx), network errors and unreadable answers.
	ErrTransient = errors.New("telegram: temporary failure")
	// ErrConfig is returned by New for an unusable configuration.
	ErrConfig = errors.New("telegram: bad configuration")
)

// APIError is a failed Bot API call.
type APIError struct {
	// Method is the Bot API method called, such as "editMessageText".
	Method string
	// Code is the Bot API error code (an HTTP status), or 0 when the call
	// did not get an answer.
	Code int
	// Description is Telegram's explanation, or the network error.
	Description string
	// RetryAfter is how long flood control asks to wait.
	RetryAfter time.Duration
	kind       error
}

// Error describes the failed call; it never contains the token.
func (e *APIError) Error() string {
	s := fmt.Sprintf("telegram: %s: ", e.Method)
	if e.Code != 0 {
		s += fmt.Sprintf("%d ", e.Code)
	}
	s += e.Description
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %v)", e.RetryAfter)
	}
	return s
}

// Unwrap returns the kind of failure (ErrFlood, ErrNotModified,
// ErrTransient, or context.Canceled or context.DeadlineExceeded when the
// call's context ended or its time ran out), or nil for a plain refusal.
func (e *APIError) Unwrap() error { return e.kind }

// classify turns an error of the client library into an *APIError of the
// right kind. Whatever err is, the result holds neither the request's URL
// (which contains the token) nor the token: a failure without an answer
// keeps only what went wrong, and the token is cut from any text. A
// context's end stays visible to errors.Is, without the URL.
func classify(method, token string, err error) error {
	if err == nil {
		return nil
	}
	var te *tgbotapi.Error
	var tv tgbotapi.Error
	switch {
	case errors.As(err, &te):
		return apiError(method, te.Code, redactToken(te.Message, token), te.RetryAfter)
	case errors.As(err, &tv):
		return apiError(method, tv.Code, redactToken(tv.Message, token), tv.RetryAfter)
	}
	text := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		// The URL holds the token; keep only what went wrong.
		text = ue.Err.Error()
	}
	e := &APIError{Method: method, Description: redactToken(text, token), kind: ErrTransient}
	switch {
	case errors.Is(err, context.Canceled):
		e.kind = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		e.kind = context.DeadlineExceeded
	}
	return e
}

// redactToken replaces the token, as it is and as it would be escaped in
// a URL, with "<token>" in text.
func redactToken(text, token string) string {
	if token == "" {
		return text
	}
	for _, form := range []string{token, url.PathEscape(token), url.QueryEscape(token)} {
		text = strings.ReplaceAll(text, form, "<token>")
	}
	return text
}

// apiError builds the typed error of a Bot API refusal.
func apiError(method string, code int, description string, retryAfter int) *APIError {
	e := &APIError{Method: method, Code: code, Description: description, RetryAfter: time.Duration(retryAfter) * time.Second}
	switch {
	case retryAfter > 0 || code == 429 || strings.HasPrefix(description, "Too Many Requests"):
		e.kind = ErrFlood
		if e.RetryAfter <= 0 {
			e.RetryAfter = time.Second
		}
	case strings.Contains(description, "message is not modified"):
		e.kind = ErrNotModified
	case code >= 500:
		e.kind = ErrTransient
	}
	return e
}

// Rate is a flood-control limit: at most N messages in any span of Per.
// A negative N means no limit.
type Rate struct {
	N   int
	Per time.Duration
}

// unlimited reports whether r limits nothing.
func (r Rate) unlimited() bool { return r.N < 0 }

// limiter paces the calls that make or change messages so that Telegram's
// flood control never has to refuse them: at most Pace.Chat in one chat,
// Pace.Group more in one group chat (a negative chat id), and Pace.Global
// overall.
//
// A call holds one slot of each of its limits from before it is sent until
// Per after its answer arrived: the server counts the call at some instant
// in between, so however the network delays requests and answers, no span
// of Per at the server sees more than N of them.
//
// Waiting calls get their slots first come, first served among those whose
// chat and group allow them to go. A limiter is safe for concurrent use.
type limiter struct {
	chat, group, global Rate

	mu      sync.Mutex
	chats   map[int64]*window // per chat
	groups  map[int64]*window // per group chat, on top of its chat's
	all     window
	queue   []*waiter // waiting calls, oldest first
	timer   *time.Timer
	timerAt time.Time // when timer fires; zero when it is not set
	granted int       // slots granted since the last sweep of idle windows
}

// window holds the slots of one limit that still count.
type window struct {
	held []*slot
}

// slot is one call's place in a window: counted while the call is on its
// way (until zero) and until Per after its answer.
type slot struct {
	until time.Time
	per   time.Duration
}

// waiter is a call waiting for its slots; ready is closed once slots
// holds them.
type waiter struct {
	chat  int64
	ready chan struct{}
	slots []*slot
}

// newLimiter returns a limiter of the rates in p.
func newLimiter(p Pace) *limiter {
	return &limiter{chat: p.Chat, group: p.Group, global: p.Global, chats: map[int64]*window{}, groups: map[int64]*window{}}
}

// wait blocks until a message-producing call to chat may be sent, and
// returns the function to call once its answer (or failure) arrived. It
// returns ctx's error, holding nothing, when ctx ends first. A wait runs
// through lend when it is set, so that a call held by flood control
// lends its update's worker out and holds up no other chat meanwhile.
func (l *limiter) wait(ctx context.Context, chat int64, lend func(func())) (release func(), err error) {
	w := &waiter{chat: chat, ready: make(chan struct{})}
	l.mu.Lock()
	l.queue = append(l.queue, w)
	l.grantLocked(time.Now())
	l.mu.Unlock()
	granted := func() bool {
		select {
		case <-w.ready:
			return true
		default:
			return false
		}
	}
	if !granted() {
		wait := func() {
			select {
			case <-w.ready:
			case <-ctx.Done():
			}
		}
		if lend != nil {
			lend(wait)
		} else {
			wait()
		}
	}
	if granted() {
		return func() { l.release(w.slots) }, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-w.ready:
		// Granted meanwhile but never sent: the slots count for nothing.
		for _, s := range w.slots {
			s.until = time.Now()
		}
		l.grantLocked(time.Now())
	default:
		if i := slices.Index(l.queue, w); i >= 0 {
			l.queue = slices.Delete(l.queue, i, i+1)
		}
	}
	return nil, ctx.Err()
}

// release ends the slots of a call whose answer arrived now: each still
// counts for its window's Per.
func (l *limiter) release(slots []*slot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	for _, s := range slots {
		s.until = now.Add(s.per)
	}
	l.grantLocked(now)
}

// limits returns the windows and rates that apply to a call to chat;
// create adds the windows that do not exist yet.
func (l *limiter) limits(chat int64, create bool) (ws []*window, rs []Rate) {
	if !l.global.unlimited() {
		ws, rs = append(ws, &l.all), append(rs, l.global)
	}
	add := func(m map[int64]*window, r Rate) {
		if r.unlimited() {
			return
		}
		w := m[chat]
		if w == nil {
			w = &window{}
			if create {
				m[chat] = w
			}
		}
		ws, rs = append(ws, w), append(rs, r)
	}
	add(l.chats, l.chat)
	if chat < 0 {
		add(l.groups, l.group)
	}
	return ws, rs
}

// grantLocked gives slots to the waiting calls, oldest first, that may go
// at now, and sets the timer for when the next one may. l.mu must be held.
func (l *limiter) grantLocked(now time.Time) {
	var next time.Time
	later := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	kept := l.queue[:0]
	for i, w := range l.queue {
		if !l.global.unlimited() {
			if at := l.all.freeAt(l.global, now); !at.Equal(now) {
				// Nobody can go before the global limit allows it.
				later(at)
				kept = append(kept, l.queue[i:]...)
				break
			}
		}
		ws, rs := l.limits(w.chat, false)
		at := now
		for j, win := range ws {
			if t := win.freeAt(rs[j], now); t.IsZero() || t.After(at) {
				at = t
				if t.IsZero() {
					break
				}
			}
		}
		if !at.Equal(now) {
			later(at)
			kept = append(kept, w)
			continue
		}
		ws, rs = l.limits(w.chat, true)
		for j, win := range ws {
			s := &slot{per: rs[j].Per}
			win.held = append(win.held, s)
			w.slots = append(w.slots, s)
		}
		close(w.ready)
		l.granted++
	}
	clear(l.queue[len(kept):])
	l.queue = kept
	if l.granted >= 1024 {
		l.sweepLocked(now)
	}
	if next.IsZero() || (!l.timerAt.IsZero() && !next.Before(l.timerAt)) {
		return
	}
	l.timerAt = next
	if l.timer == nil {
		l.timer = time.AfterFunc(next.Sub(now), l.tick)
	} else {
		l.timer.Reset(next.Sub(now))
	}
}

// tick grants the slots that became free.
func (l *limiter) tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timerAt = time.Time{}
	l.grantLocked(time.Now())
}

// sweepLocked forgets the windows of chats with no slot left, so that
// the maps do not grow with every chat ever served. l.mu must be held.
func (l *limiter) sweepLocked(now time.Time) {
	l.granted = 0
	for _, m := range []map[int64]*window{l.chats, l.groups} {
		for chat, w := range m {
			if w.prune(now); len(w.held) == 0 {
				delete(m, chat)
			}
		}
	}
}

// prune drops the slots that stopped counting at now.
func (w *window) prune(now time.Time) {
	w.held = slices.DeleteFunc(w.held, func(s *slot) bool { return !s.until.IsZero() && !s.until.After(now) })
}

// freeAt returns when w has a free slot of rate r: now when it has one,
// the zero time when that depends on calls still on their way, else the
// instant enough counted slots expire.
func (w *window) freeAt(r Rate, now time.Time) time.Time {
	w.prune(now)
	if len(w.held) < r.N {
		return now
	}
	var known []time.Time
	for _, s := range w.held {
		if !s.until.IsZero() {
			known = append(known, s.until)
		}
	}
	// Enough of the counted slots must expire to leave N-1 in the window.
	drop := len(w.held) - r.N + 1
	if drop > len(known) {
		return time.Time{}
	}
	slices.SortFunc(known, func(a, b time.Time) int { return a.Compare(b) })
	return known[drop-1]
}

// Telegram's limits on inline keyboards.
const (
	// MaxRowButtons is the most buttons Telegram shows in one row.
	MaxRowButtons = 8
	// MaxButtons is the most buttons of one inline keyboard.
	MaxButtons = 100
)

// inlineKeyboard maps a render keyboard onto an inline keyboard within
// Telegram's limits: a row wider than MaxRowButtons is left out whole (a
// board row must not wrap, or taps would land on the wrong cells), then
// rows are left out from the top until at most MaxButtons remain, so the
// control rows, which come last, stay. Cells left out are still reached
// by typed coordinates. It returns nil for a keyboard with no buttons.
func inlineKeyboard(kb render.Keyboard) *tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	total := 0
	for _, r := range kb.Rows {
		if len(r) == 0 || len(r) > MaxRowButtons {
			continue
		}
		row := make([]tgbotapi.InlineKeyboardButton, len(r))
		for i, b := range r {
			label := b.Label
			if strings.TrimSpace(label) == "" {
				label = "·"
			}
			row[i] = tgbotapi.NewInlineKeyboardButtonData(label, adapters.EncodeAction(b.Action))
		}
		rows = append(rows, row)
		total += len(row)
	}
	for total > MaxButtons {
		total -= len(rows[0])
		rows = rows[1:]
	}
	if len(rows) == 0 {
		return nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// WebButton is the 🌐 button under a board, which opens the game's web
// board.
type WebButton struct {
	// URL is the address it opens; "" for no button.
	URL string
	// App opens URL inside Telegram as a Mini App (a web_app button),
	// whose launch data proves who opened it. Telegram takes such buttons
	// in private chats only, and HTTPS addresses only; otherwise the
	// button is a link.
	App bool
}

// markup is the inline keyboard a message is sent with: kb's buttons
// and, when web has an address and Telegram's limit on buttons leaves
// room, a last row with the 🌐 button. The client library's buttons
// cannot open a Mini App, so markup writes its own JSON.
type markup struct {
	kb  *tgbotapi.InlineKeyboardMarkup
	web WebButton
}

// webButtonJSON is a link or web_app button as the Bot API takes it.
type webButtonJSON struct {
	Text   string `json:"text"`
	URL    string `json:"url,omitempty"`
	WebApp *struct {
		URL string `json:"url"`
	} `json:"web_app,omitempty"`
}

// rows returns the markup's rows, the 🌐 button's included.
func (m markup) rows() [][]any {
	var rows [][]any
	total := 0
	if m.kb != nil {
		for _, r := range m.kb.InlineKeyboard {
			row := make([]any, len(r))
			for i, b := range r {
				row[i] = b
			}
			rows = append(rows, row)
			total += len(r)
		}
	}
	if m.web.URL != "" && total < MaxButtons {
		b := webButtonJSON{Text: "🌐"}
		if m.web.App {
			b.WebApp = &struct {
				URL string `json:"url"`
			}{m.web.URL}
		} else {
			b.URL = m.web.URL
		}
		rows = append(rows, []any{b})
	}
	return rows
}

// empty reports whether the markup has no button.
func (m markup) empty() bool {
	return (m.kb == nil || len(m.kb.InlineKeyboard) == 0) && m.web.URL == ""
}

// MarshalJSON writes the markup as the Bot API's InlineKeyboardMarkup.
func (m markup) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		InlineKeyboard [][]any `json:"inline_keyboard"`
	}{m.rows()})
}

// add sets the reply_markup of params unless the markup has no button.
func (m markup) add(params tgbotapi.Params) {
	if m.empty() {
		return
	}
	// Strings and the library's buttons only: marshalling cannot fail.
	b, _ := json.Marshal(m)
	params["reply_markup"] = string(b)
}

// edit is one edit call: its method, its parameters, and the file it
// uploads, if any. The bot builds edits' parameters itself, for its
// markup.
type edit struct {
	method string
	params tgbotapi.Params
	file   *tgbotapi.RequestFile
}

// editText returns the edit of message k to show text and kb.
func editText(k messageKey, text string, kb markup) edit {
	p := k.params()
	p["text"] = text
	kb.add(p)
	return edit{method: "editMessageText", params: p}
}

// editPhoto returns the edit of photo message k to show png with
// caption, and kb.
func editPhoto(k messageKey, png []byte, caption string, kb markup) edit {
	p := k.params()
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileURL("attach://board"))
	media.Caption = caption
	b, _ := json.Marshal(media) // strings only: it cannot fail
	p["media"] = string(b)
	kb.add(p)
	return edit{method: "editMessageMedia", params: p, file: &tgbotapi.RequestFile{Name: "board", Data: tgbotapi.FileBytes{Name: "board.png", Bytes: png}}}
}

// params returns the parameters naming message k.
func (k messageKey) params() tgbotapi.Params {
	if k.inline != "" {
		return tgbotapi.Params{"inline_message_id": k.inline}
	}
	return tgbotapi.Params{"chat_id": strconv.FormatInt(k.chat, 10), "message_id": strconv.Itoa(k.id)}
}

// make makes edit e once.
func (b *Bot) make(e edit) error {
	var err error
	if e.file != nil {
		_, err = b.api.UploadFiles(e.method, e.params, []tgbotapi.RequestFile{*e.file})
	} else {
		_, err = b.api.MakeRequest(e.method, e.params)
	}
	return err
}
