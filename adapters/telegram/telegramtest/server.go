package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/gif"
	"image/png"
	"io"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Token is the bot token the Server accepts; any other gets 401.
const Token = "123456:TEST-token-for-the-fake-server"

// NotModifiedDescription is what Telegram answers to an edit that changes
// nothing.
const NotModifiedDescription = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"

// Call is one request the bot made.
type Call struct {
	Method string
	// Params holds the form fields (the first value of each).
	Params map[string]string
	// Files holds the uploaded files by form field name.
	Files map[string][]byte
	// Status is the HTTP status answered.
	Status int
	// At is when the request arrived.
	At time.Time
}

// Message is the state of one message in a chat.
type Message struct {
	Chat int64
	ID   int
	// FromBot is true for messages the bot sent.
	FromBot bool
	Text    string
	Caption string
	// Photo is the PNG of a photo message.
	Photo []byte
	// Animation is the GIF of an animation message (sendAnimation).
	Animation []byte
	// Markup is the inline keyboard; nil when the message has none. A
	// web_app button, which the client library's markup lacks, is in it
	// with its text only, and its address in WebApps.
	Markup *tgbotapi.InlineKeyboardMarkup
	// WebApps holds the address of each web_app button, by its text.
	WebApps map[string]string
	// Edits counts the successful edits.
	Edits int
}

// Buttons returns the message's buttons row by row.
func (m Message) Buttons() [][]tgbotapi.InlineKeyboardButton {
	if m.Markup == nil {
		return nil
	}
	return m.Markup.InlineKeyboard
}

// Link returns the address of the message's link button labelled text,
// "" when it has none.
func (m Message) Link(text string) string {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.Text == text && b.URL != nil {
				return *b.URL
			}
		}
	}
	return ""
}

// WebApp returns the address of the message's web_app button labelled
// text, "" when it has none.
func (m Message) WebApp(text string) string { return m.WebApps[text] }

// Fault is a failure the Server answers a call with instead of doing it.
type Fault struct {
	// Status is the HTTP status; default 400.
	Status int
	// Description is the Bot API error description.
	Description string
	// RetryAfter, when positive, is sent as parameters.retry_after.
	RetryAfter int
	// Raw, when set, is sent as the body instead of a JSON error, like a
	// proxy's error page.
	Raw string
	// Hold, when not nil, delays the answer until it is closed; a Fault
	// with only Hold (or Delay) set then performs the call normally.
	Hold <-chan struct{}
	// Delay, when positive, delays the answer by that long, like a slow
	// network (for benchmarks and demos; tests synchronise with Hold).
	Delay time.Duration
	// Reset, when true, drops the connection without an answer (a TCP
	// reset), after Hold and Delay; the call is recorded with Status 0
	// and not performed.
	Reset bool
}

// ConnectionReset is a connection dropped before the answer.
func ConnectionReset() Fault { return Fault{Reset: true} }

// Timeout is a call that gets no answer until the client gives up (or
// the Server closes); it is not performed.
func Timeout() Fault { return Fault{Hold: never, Reset: true} }

// never is a channel nobody closes.
var never = make(chan struct{})

// TooManyRequests is the flood-control answer asking to wait
// retryAfter seconds.
func TooManyRequests(retryAfter int) Fault {
	return Fault{Status: http.StatusTooManyRequests, Description: fmt.Sprintf("Too Many Requests: retry after %d", retryAfter), RetryAfter: retryAfter}
}

// NotModified is Telegram's refusal of an edit that changes nothing.
func NotModified() Fault {
	return Fault{Status: http.StatusBadRequest, Description: NotModifiedDescription}
}

// ServerError is an internal error of the Bot API.
func ServerError() Fault {
	return Fault{Status: http.StatusInternalServerError, Description: "Internal Server Error"}
}

// Server is a fake Bot API server. Create it with NewServer and stop it
// with Close.
type Server struct {
	// Bot is the bot's own user, answered by getMe.
	Bot tgbotapi.User

	srv       *httptest.Server
	closing   chan struct{}
	closeOnce sync.Once

	mu           sync.Mutex
	changed      chan struct{}
	queue        []tgbotapi.Update
	nextUpdate   int
	offset       int
	calls        []Call
	messages     map[int64]map[int]*Message
	nextMessage  map[int64]int
	chats        map[int64]tgbotapi.Chat
	answered     map[string]int
	nextCallback int
	faults       map[string][]Fault
	webhookURL   string
	webhookToken string
	onCall       func(Call)
	held         int
	polling      int
	delivered    map[int]int
	limits       *Limits
	arrived      arrivals
	flooded      int
	// statuses holds the status of the members SetMember named, by chat
	// and user.
	statuses map[int64]map[int64]string
	// inline holds the inline queries and messages (inlineLocked).
	inline inlineState
}

// NewServer starts a Server on a loopback port.
func NewServer() *Server {
	s := &Server{
		Bot:         tgbotapi.User{ID: 777, IsBot: true, FirstName: "Board Bot", UserName: "BoardTestBot"},
		closing:     make(chan struct{}),
		changed:     make(chan struct{}),
		nextUpdate:  1000,
		messages:    map[int64]map[int]*Message{},
		nextMessage: map[int64]int{},
		chats:       map[int64]tgbotapi.Chat{},
		answered:    map[string]int{},
		faults:      map[string][]Fault{},
		delivered:   map[int]int{},
		statuses:    map[int64]map[int64]string{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close ends pending long polls and held answers, and stops the server.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closing) })
	s.srv.Close()
}

// URL returns the server's base URL.
func (s *Server) URL() string { return s.srv.URL }

// Endpoint returns the API endpoint in go-telegram-bot-api's format,
// "<url>/bot%s/%s".
func (s *Server) Endpoint() string { return s.srv.URL + "/bot%s/%s" }

// OnCall sets a function called after every recorded call (outside the
// Server's lock); nil removes it.
func (s *Server) OnCall(f func(Call)) {
	s.mu.Lock()
	s.onCall = f
	s.mu.Unlock()
}

// Fail makes the next calls of method fail (or wait) with faults, one per
// call, in order.
func (s *Server) Fail(method string, faults ...Fault) {
	s.mu.Lock()
	s.faults[method] = append(s.faults[method], faults...)
	s.mu.Unlock()
}

// notifyLocked wakes everyone waiting for a change. s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Wait blocks until cond returns true, re-checking it after every change
// of the Server's state, or until ctx ends. cond may call the Server's
// methods.
func (s *Server) Wait(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("telegramtest: wait: %w", ctx.Err())
		}
	}
}

// SetMember sets the status getChatMember answers for user in chat:
// "creator", "administrator", "member", "restricted", "left" or "kicked".
// Users not set are members.
func (s *Server) SetMember(chat, user int64, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.statuses[chat] == nil {
		s.statuses[chat] = map[int64]string{}
	}
	s.statuses[chat][user] = status
}

// rememberChat notes a chat's type for the messages sent to it.
func (s *Server) rememberChat(c tgbotapi.Chat) {
	if _, ok := s.chats[c.ID]; !ok || c.Type != "" {
		s.chats[c.ID] = c
	}
}

// chat returns the chat with the id, private unless told otherwise.
func (s *Server) chat(id int64) *tgbotapi.Chat {
	c, ok := s.chats[id]
	if !ok {
		c = tgbotapi.Chat{ID: id, Type: "private"}
	}
	return &c
}

// newMessageLocked adds a message to a chat and returns it.
func (s *Server) newMessageLocked(chat int64, fromBot bool) *Message {
	s.nextMessage[chat]++
	m := &Message{Chat: chat, ID: s.nextMessage[chat], FromBot: fromBot}
	if s.messages[chat] == nil {
		s.messages[chat] = map[int]*Message{}
	}
	s.messages[chat][m.ID] = m
	return m
}

// PushUpdate queues an update for getUpdates, giving it the next update
// id, which it returns.
func (s *Server) PushUpdate(u tgbotapi.Update) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextUpdate++
	u.UpdateID = s.nextUpdate
	s.queue = append(s.queue, u)
	s.notifyLocked()
	return u.UpdateID
}

// NewTextUpdate returns an update of a user's text message in chat, which
// it records as the chat's next message.
func (s *Server) NewTextUpdate(chat tgbotapi.Chat, from tgbotapi.User, text string) tgbotapi.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rememberChat(chat)
	m := s.newMessageLocked(chat.ID, false)
	m.Text = text
	c := *s.chat(chat.ID)
	return tgbotapi.Update{Message: &tgbotapi.Message{MessageID: m.ID, From: &from, Date: int(time.Now().Unix()), Chat: &c, Text: text}}
}

// NewTapUpdate returns an update of a user tapping the button with data
// on message id of chat (which need not exist: forged taps are welcome),
// and the callback query's id.
func (s *Server) NewTapUpdate(chat tgbotapi.Chat, from tgbotapi.User, message int, data string) (tgbotapi.Update, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rememberChat(chat)
	s.nextCallback++
	id := "cb" + strconv.Itoa(s.nextCallback)
	s.answered[id] = 0
	c := *s.chat(chat.ID)
	msg := &tgbotapi.Message{MessageID: message, Chat: &c, From: &s.Bot}
	if m, ok := s.messages[chat.ID][message]; ok {
		msg.Text, msg.Caption, msg.ReplyMarkup = m.Text, m.Caption, cloneMarkup(m.Markup)
	}
	return tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: id, From: &from, Message: msg, ChatInstance: strconv.FormatInt(chat.ID, 10), Data: data}}, id
}

// SendText queues a user's text message in chat and returns the update id.
func (s *Server) SendText(chat tgbotapi.Chat, from tgbotapi.User, text string) int {
	return s.PushUpdate(s.NewTextUpdate(chat, from, text))
}

// Tap queues a user's tap on the button with data on message id of chat
// and returns the callback query's id.
func (s *Server) Tap(chat tgbotapi.Chat, from tgbotapi.User, message int, data string) string {
	u, id := s.NewTapUpdate(chat, from, message, data)
	s.PushUpdate(u)
	return id
}

// Redeliver queues u again under its own update id, as Telegram keeps an
// update whose offset no getUpdates confirmed: a bot that restarts and
// polls from offset 0 gets it a second time.
func (s *Server) Redeliver(u tgbotapi.Update) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.queue), func(i int) bool { return s.queue[i].UpdateID >= u.UpdateID })
	if i < len(s.queue) && s.queue[i].UpdateID == u.UpdateID {
		return
	}
	s.queue = append(s.queue[:i], append([]tgbotapi.Update{u}, s.queue[i:]...)...)
	s.notifyLocked()
}

// Deliveries returns how many getUpdates answers carried the update id.
func (s *Server) Deliveries(updateID int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delivered[updateID]
}

// Redelivered returns the number of updates that getUpdates answered
// with more than once.
func (s *Server) Redelivered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, d := range s.delivered {
		if d > 1 {
			n++
		}
	}
	return n
}

// Offset returns the offset of the latest getUpdates: every update below
// it is confirmed.
func (s *Server) Offset() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offset
}

// Pending returns the number of queued updates not yet confirmed.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Calls returns the recorded calls of method, or all calls when method is
// "".
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// Answers returns the answerCallbackQuery calls for the callback query id.
func (s *Server) Answers(callbackID string) []Call {
	var out []Call
	for _, c := range s.Calls("answerCallbackQuery") {
		if c.Params["callback_query_id"] == callbackID {
			out = append(out, c)
		}
	}
	return out
}

// Answered reports whether the callback query id got a successful answer.
func (s *Server) Answered(callbackID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered[callbackID] > 0
}

// Message returns the state of message id of chat.
func (s *Server) Message(chat int64, id int) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[chat][id]
	if !ok {
		return Message{}, false
	}
	return m.clone(), true
}

// BotMessages returns the messages the bot sent to chat, oldest first.
func (s *Server) BotMessages(chat int64) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages[chat] {
		if m.FromBot {
			out = append(out, m.clone())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LastBotMessage returns the newest message the bot sent to chat.
func (s *Server) LastBotMessage(chat int64) (Message, bool) {
	ms := s.BotMessages(chat)
	if len(ms) == 0 {
		return Message{}, false
	}
	return ms[len(ms)-1], true
}

// Webhook returns the URL and secret token of the webhook set with
// setWebhook; the URL is "" when none is set.
func (s *Server) Webhook() (url, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.webhookURL, s.webhookToken
}

// Deliver posts u to the webhook as Telegram does, under the next update
// id, with the secret token header set to secret (none when ""), and
// returns the HTTP status.
func (s *Server) Deliver(ctx context.Context, u tgbotapi.Update, secret string) (int, error) {
	u.UpdateID = s.NextUpdateID()
	return s.Post(ctx, u, secret)
}

// NextUpdateID returns a new update id, as Deliver and PushUpdate give
// their updates.
func (s *Server) NextUpdateID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextUpdate++
	return s.nextUpdate
}

// Post posts u to the webhook under its own update id, as Telegram does
// when it delivers an update again (its answer to the first delivery was
// lost or not 200), with the secret token header set to secret (none when
// ""), and returns the HTTP status.
func (s *Server) Post(ctx context.Context, u tgbotapi.Update, secret string) (int, error) {
	target, _ := s.Webhook()
	if target == "" {
		return 0, errors.New("telegramtest: no webhook set")
	}
	body, err := json.Marshal(u)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (m *Message) clone() Message {
	c := *m
	c.Photo = bytes.Clone(m.Photo)
	c.Markup = cloneMarkup(m.Markup)
	c.WebApps = maps.Clone(m.WebApps)
	return c
}

func cloneMarkup(k *tgbotapi.InlineKeyboardMarkup) *tgbotapi.InlineKeyboardMarkup {
	if k == nil {
		return nil
	}
	c := &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: make([][]tgbotapi.InlineKeyboardButton, len(k.InlineKeyboard))}
	for i, row := range k.InlineKeyboard {
		c.InlineKeyboard[i] = append([]tgbotapi.InlineKeyboardButton(nil), row...)
	}
	return c
}

// apiError is a Bot API refusal.
type apiError struct {
	status      int
	description string
	retryAfter  int
}

func badRequest(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, description: "Bad Request: " + fmt.Sprintf(format, args...)}
}

// serve answers one Bot API request.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot")
	token, method, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || token != Token {
		writeError(w, &apiError{status: http.StatusUnauthorized, description: "Unauthorized"})
		return
	}
	call := Call{Method: method, Params: map[string]string{}, Files: map[string][]byte{}, At: time.Now()}
	if err := parseRequest(r, &call); err != nil {
		s.finish(call, w, nil, badRequest("%v", err))
		return
	}

	s.mu.Lock()
	if s.limits != nil && messageMethods[method] {
		chat, _ := strconv.ParseInt(call.Params["chat_id"], 10, 64)
		if retry := s.arriveLocked(chat, time.Now()); retry > 0 {
			s.flooded++
			s.mu.Unlock()
			s.finish(call, w, nil, &apiError{status: http.StatusTooManyRequests, description: fmt.Sprintf("Too Many Requests: retry after %d", retry), retryAfter: retry})
			return
		}
	}
	var fault *Fault
	if fs := s.faults[method]; len(fs) > 0 {
		fault = &fs[0]
		s.faults[method] = fs[1:]
	}
	s.mu.Unlock()
	if fault != nil {
		if fault.Delay > 0 {
			t := time.NewTimer(fault.Delay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		if fault.Hold != nil && !s.hold(r.Context(), fault.Hold) {
			return
		}
		if fault.Reset {
			call.Status = 0
			s.record(call)
			reset(w)
			return
		}
		if fault.Raw != "" {
			call.Status = fault.Status
			s.record(call)
			w.WriteHeader(fault.Status)
			io.WriteString(w, fault.Raw)
			return
		}
		if fault.Description != "" {
			status := fault.Status
			if status == 0 {
				status = http.StatusBadRequest
			}
			s.finish(call, w, nil, &apiError{status: status, description: fault.Description, retryAfter: fault.RetryAfter})
			return
		}
	}
	if method == "getUpdates" {
		s.getUpdates(r.Context(), w, call)
		return
	}
	// The call's effect and its record show together: a waiter never
	// sees a callback answered (Answered) without the answer (Answers).
	s.mu.Lock()
	result, aerr := s.perform(call)
	call.Status = http.StatusOK
	if aerr != nil {
		call.Status = aerr.status
	}
	f := s.recordLocked(call)
	s.mu.Unlock()
	if f != nil {
		f(call)
	}
	s.reply(w, result, aerr)
}

// hold waits until release is closed, counted in Held; it reports false
// when the request or the server ended first.
func (s *Server) hold(ctx context.Context, release <-chan struct{}) bool {
	s.mu.Lock()
	s.held++
	s.notifyLocked()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.held--
		s.notifyLocked()
		s.mu.Unlock()
	}()
	select {
	case <-release:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

// Polling returns the number of getUpdates calls waiting for updates.
func (s *Server) Polling() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polling
}

// Held returns the number of calls being held by a Fault's Hold.
func (s *Server) Held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held
}

// finish records the call and writes its answer.
func (s *Server) finish(call Call, w http.ResponseWriter, result any, aerr *apiError) {
	call.Status = http.StatusOK
	if aerr != nil {
		call.Status = aerr.status
	}
	s.record(call)
	s.reply(w, result, aerr)
}

// reply writes the answer to a call: result, or the error.
func (s *Server) reply(w http.ResponseWriter, result any, aerr *apiError) {
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	data, err := json.Marshal(result)
	if err != nil {
		writeError(w, &apiError{status: http.StatusInternalServerError, description: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(tgbotapi.APIResponse{Ok: true, Result: data})
}

// record appends a call and tells the waiters.
func (s *Server) record(call Call) {
	s.mu.Lock()
	f := s.recordLocked(call)
	s.mu.Unlock()
	if f != nil {
		f(call)
	}
}

// recordLocked appends a call and wakes the waiters, with s.mu held; it
// returns the OnCall hook, to call once s.mu is released.
func (s *Server) recordLocked(call Call) func(Call) {
	s.calls = append(s.calls, call)
	s.notifyLocked()
	return s.onCall
}

// reset drops the request's connection with a TCP reset.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

func writeError(w http.ResponseWriter, e *apiError) {
	resp := tgbotapi.APIResponse{Ok: false, ErrorCode: e.status, Description: e.description}
	if e.retryAfter > 0 {
		resp.Parameters = &tgbotapi.ResponseParameters{RetryAfter: e.retryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(resp)
}

// parseRequest reads a form or multipart request into call.
func parseRequest(r *http.Request, call *Call) error {
	if r.Method != http.MethodPost && r.Method != http.MethodGet {
		return fmt.Errorf("method %s", r.Method)
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "multipart/form-data" {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			return err
		}
		for name, fhs := range r.MultipartForm.File {
			f, err := fhs[0].Open()
			if err != nil {
				return err
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				return err
			}
			call.Files[name] = data
		}
	} else if err := r.ParseForm(); err != nil {
		return err
	}
	for k, v := range r.Form {
		call.Params[k] = v[0]
	}
	return nil
}

// getUpdates answers a long poll: the queued updates at or above offset,
// waiting up to the timeout for one to arrive.
func (s *Server) getUpdates(ctx context.Context, w http.ResponseWriter, call Call) {
	offset, _ := strconv.Atoi(call.Params["offset"])
	limit, _ := strconv.Atoi(call.Params["limit"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := strconv.Atoi(call.Params["timeout"])
	timer := time.NewTimer(time.Duration(timeout) * time.Second)
	defer timer.Stop()
	s.mu.Lock()
	if s.webhookURL != "" {
		s.mu.Unlock()
		s.finish(call, w, nil, &apiError{status: http.StatusConflict, description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"})
		return
	}
	if offset > 0 {
		s.offset = offset
		keep := s.queue[:0]
		for _, u := range s.queue {
			if u.UpdateID >= offset {
				keep = append(keep, u)
			}
		}
		s.queue = keep
	}
	s.polling++
	defer func() {
		s.mu.Lock()
		s.polling--
		s.notifyLocked()
		s.mu.Unlock()
	}()
	s.notifyLocked()
	for {
		if len(s.queue) > 0 {
			out := append([]tgbotapi.Update(nil), s.queue[:min(limit, len(s.queue))]...)
			for _, u := range out {
				s.delivered[u.UpdateID]++
			}
			s.mu.Unlock()
			s.finish(call, w, out, nil)
			return
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			s.finish(call, w, []tgbotapi.Update{}, nil)
			return
		case <-ctx.Done():
			return
		case <-s.closing:
			s.finish(call, w, []tgbotapi.Update{}, nil)
			return
		}
		s.mu.Lock()
	}
}

// perform does a call other than getUpdates. s.mu must be held.
func (s *Server) perform(c Call) (any, *apiError) {
	p := c.Params
	switch c.Method {
	case "getMe":
		return s.Bot, nil
	case "setMyCommands":
		var cmds []tgbotapi.BotCommand
		if err := json.Unmarshal([]byte(p["commands"]), &cmds); err != nil || len(cmds) == 0 {
			return nil, badRequest("commands must be a non-empty JSON array")
		}
		return true, nil
	case "setWebhook":
		if p["url"] == "" {
			return nil, badRequest("bad webhook: an HTTPS URL must be provided for webhook")
		}
		s.webhookURL, s.webhookToken = p["url"], p["secret_token"]
		return true, nil
	case "deleteWebhook":
		s.webhookURL, s.webhookToken = "", ""
		return true, nil
	case "sendChatAction":
		if _, err := chatID(p); err != nil {
			return nil, err
		}
		if p["action"] == "" {
			return nil, badRequest("wrong parameter action in request")
		}
		return true, nil
	case "getChatMember":
		chat, err := chatID(p)
		if err != nil {
			return nil, err
		}
		user, perr := strconv.ParseInt(p["user_id"], 10, 64)
		if perr != nil || user == 0 {
			return nil, badRequest("PARTICIPANT_ID_INVALID")
		}
		status := s.statuses[chat][user]
		if status == "" {
			status = "member"
		}
		return tgbotapi.ChatMember{User: &tgbotapi.User{ID: user}, Status: status}, nil
	case "answerCallbackQuery":
		id := p["callback_query_id"]
		n, ok := s.answered[id]
		if !ok || n > 0 {
			return nil, badRequest("query is too old and response timeout expired or query ID is invalid")
		}
		if len(p["text"]) > 200 {
			return nil, badRequest("MESSAGE_TOO_LONG")
		}
		s.answered[id]++
		return true, nil
	case "sendMessage":
		chat, err := chatID(p)
		if err != nil {
			return nil, err
		}
		if p["text"] == "" {
			return nil, badRequest("message text is empty")
		}
		markup, apps, err := parseMarkup(p["reply_markup"], chat)
		if err != nil {
			return nil, err
		}
		m := s.newMessageLocked(chat, true)
		m.Text, m.Markup, m.WebApps = p["text"], markup, apps
		return s.apiMessage(m), nil
	case "sendPhoto":
		chat, err := chatID(p)
		if err != nil {
			return nil, err
		}
		photo, err := pngFile(c.Files["photo"])
		if err != nil {
			return nil, err
		}
		markup, apps, err := parseMarkup(p["reply_markup"], chat)
		if err != nil {
			return nil, err
		}
		m := s.newMessageLocked(chat, true)
		m.Photo, m.Caption, m.Markup, m.WebApps = photo, p["caption"], markup, apps
		return s.apiMessage(m), nil
	case "sendAnimation":
		chat, err := chatID(p)
		if err != nil {
			return nil, err
		}
		anim, err := gifFile(c.Files["animation"])
		if err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(p["caption"]) > MaxCaption {
			return nil, badRequest("message caption is too long")
		}
		markup, apps, err := parseMarkup(p["reply_markup"], chat)
		if err != nil {
			return nil, err
		}
		m := s.newMessageLocked(chat, true)
		m.Animation, m.Caption, m.Markup, m.WebApps = anim, p["caption"], markup, apps
		return s.apiMessage(m), nil
	case "editMessageText", "editMessageReplyMarkup", "editMessageMedia":
		if id := p["inline_message_id"]; id != "" {
			return s.editInline(c.Method, id, p)
		}
		return s.edit(c)
	case "answerInlineQuery":
		return s.answerInline(p)
	}
	return nil, &apiError{status: http.StatusNotFound, description: "Not Found: method " + c.Method}
}

// edit changes a message the bot sent.
func (s *Server) edit(c Call) (any, *apiError) {
	p := c.Params
	chat, err := chatID(p)
	if err != nil {
		return nil, err
	}
	id, _ := strconv.Atoi(p["message_id"])
	m, ok := s.messages[chat][id]
	if !ok || !m.FromBot {
		return nil, badRequest("message to edit not found")
	}
	markup, apps, err := parseMarkup(p["reply_markup"], chat)
	if err != nil {
		return nil, err
	}
	next := m.clone()
	next.Markup, next.WebApps = markup, apps
	switch c.Method {
	case "editMessageText":
		if m.Photo != nil {
			return nil, badRequest("there is no text in the message to edit")
		}
		if p["text"] == "" {
			return nil, badRequest("message text is empty")
		}
		next.Text = p["text"]
	case "editMessageMedia":
		var media struct {
			Type    string `json:"type"`
			Media   string `json:"media"`
			Caption string `json:"caption"`
		}
		if err := json.Unmarshal([]byte(p["media"]), &media); err != nil || media.Type != "photo" {
			return nil, badRequest("can't parse InputMedia")
		}
		name, ok := strings.CutPrefix(media.Media, "attach://")
		if !ok {
			return nil, badRequest("wrong file identifier/HTTP URL specified")
		}
		photo, err := pngFile(c.Files[name])
		if err != nil {
			return nil, err
		}
		next.Photo, next.Caption, next.Text = photo, media.Caption, ""
	}
	if next.Text == m.Text && next.Caption == m.Caption && bytes.Equal(next.Photo, m.Photo) && sameMarkup(next, *m) {
		return nil, badRequest("%s", strings.TrimPrefix(NotModifiedDescription, "Bad Request: "))
	}
	next.Edits++
	*m = next
	return s.apiMessage(m), nil
}

// apiMessage returns m as the Bot API shows it.
func (s *Server) apiMessage(m *Message) tgbotapi.Message {
	out := tgbotapi.Message{MessageID: m.ID, From: &s.Bot, Date: int(time.Now().Unix()), Chat: s.chat(m.Chat), Text: m.Text, Caption: m.Caption, ReplyMarkup: cloneMarkup(m.Markup)}
	if m.Animation != nil {
		out.Animation = &tgbotapi.Animation{FileID: fmt.Sprintf("animation-%d-%d", m.Chat, m.ID), FileUniqueID: fmt.Sprintf("a%d", len(m.Animation)), Width: 1, Height: 1, FileSize: len(m.Animation)}
	}
	if m.Photo != nil {
		out.Photo = []tgbotapi.PhotoSize{{FileID: fmt.Sprintf("photo-%d-%d-%d", m.Chat, m.ID, m.Edits), FileUniqueID: fmt.Sprintf("u%d", len(m.Photo)), Width: 1, Height: 1, FileSize: len(m.Photo)}}
	}
	return out
}

func chatID(p map[string]string) (int64, *apiError) {
	id, err := strconv.ParseInt(p["chat_id"], 10, 64)
	if err != nil || id == 0 {
		return 0, badRequest("chat not found")
	}
	return id, nil
}

// parseMarkup reads an inline keyboard of a message in chat (0: an
// inline message) and checks it the way Telegram does. It returns the
// address of each web_app button by its text: Telegram takes them in
// private chats only, and over HTTPS only.
func parseMarkup(s string, chat int64) (*tgbotapi.InlineKeyboardMarkup, map[string]string, *apiError) {
	if s == "" || s == "null" {
		return nil, nil, nil
	}
	var k struct {
		InlineKeyboard [][]struct {
			tgbotapi.InlineKeyboardButton
			WebApp *struct {
				URL string `json:"url"`
			} `json:"web_app"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(s), &k); err != nil {
		return nil, nil, badRequest("can't parse reply keyboard markup JSON object")
	}
	out := &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: make([][]tgbotapi.InlineKeyboardButton, len(k.InlineKeyboard))}
	var apps map[string]string
	n := 0
	for i, row := range k.InlineKeyboard {
		if len(row) > 8 {
			return nil, nil, badRequest("too many buttons in a row")
		}
		for _, b := range row {
			n++
			out.InlineKeyboard[i] = append(out.InlineKeyboard[i], b.InlineKeyboardButton)
			if b.Text == "" {
				return nil, nil, badRequest("text buttons are unallowed in the inline keyboard")
			}
			kinds := 0
			for _, set := range []bool{b.URL != nil, b.CallbackData != nil, b.WebApp != nil} {
				if set {
					kinds++
				}
			}
			if kinds != 1 {
				return nil, nil, badRequest("can't parse inline keyboard button: exactly one of the optional fields must be used")
			}
			switch {
			case b.WebApp != nil:
				if chat <= 0 {
					return nil, nil, badRequest("BUTTON_TYPE_INVALID")
				}
				if u, err := url.Parse(b.WebApp.URL); err != nil || u.Scheme != "https" || u.Host == "" {
					return nil, nil, badRequest("BUTTON_URL_INVALID")
				}
				if apps == nil {
					apps = map[string]string{}
				}
				apps[b.Text] = b.WebApp.URL
			case b.URL != nil:
				// A link button: Telegram takes http, https and tg links.
				if u, err := url.Parse(*b.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "tg") || (u.Scheme != "tg" && u.Host == "") {
					return nil, nil, badRequest("BUTTON_URL_INVALID")
				}
			case len(*b.CallbackData) == 0 || len(*b.CallbackData) > 64:
				return nil, nil, badRequest("BUTTON_DATA_INVALID")
			}
		}
	}
	if n > 100 {
		return nil, nil, badRequest("reply markup is too long")
	}
	return out, apps, nil
}

// sameMarkup reports whether a and b have the same inline keyboard.
func sameMarkup(a, b Message) bool {
	x, _ := json.Marshal(a.Markup)
	y, _ := json.Marshal(b.Markup)
	if a.Markup != nil && len(a.Markup.InlineKeyboard) == 0 {
		x = []byte("null")
	}
	if b.Markup != nil && len(b.Markup.InlineKeyboard) == 0 {
		y = []byte("null")
	}
	return bytes.Equal(x, y) && maps.Equal(a.WebApps, b.WebApps)
}

// pngFile checks that data is a PNG image.
// MaxCaption is the most characters of a caption, and MaxUpload the
// largest file a bot may send, as Telegram takes them.
const (
	MaxCaption = 1024
	MaxUpload  = 50 << 20
)

// gifFile checks an uploaded animation: a GIF of at most MaxUpload bytes.
func gifFile(data []byte) ([]byte, *apiError) {
	switch {
	case len(data) == 0:
		return nil, badRequest("there is no animation in the request")
	case len(data) > MaxUpload:
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, description: "Request Entity Too Large"}
	}
	if _, err := gif.DecodeConfig(bytes.NewReader(data)); err != nil {
		return nil, badRequest("wrong type of the web page content")
	}
	return data, nil
}

func pngFile(data []byte) ([]byte, *apiError) {
	if len(data) == 0 {
		return nil, badRequest("there is no photo in the request")
	}
	if _, err := png.DecodeConfig(bytes.NewReader(data)); err != nil {
		return nil, badRequest("IMAGE_PROCESS_FAILED")
	}
	return data, nil
}
