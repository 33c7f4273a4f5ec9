package telegramtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Inline mode: a test sends an inline query (InlineQuery), reads the
// bot's answer (InlineAnswer), posts one of its results as a user would
// (Choose), and taps the buttons of the posted inline message
// (InlineTap), which the bot edits through inline_message_id.

// Telegram's limits on answers to inline queries.
const (
	// MaxInlineResults is the most results one answer may carry.
	MaxInlineResults = 50
	// MaxResultID is the longest result id, in bytes.
	MaxResultID = 64
	// InlineAnswerWindow is how long after an inline query its answer is
	// taken; ExpireInlineQuery ends it at once.
	InlineAnswerWindow = 10 * time.Second
)

// InlineResult is one result of an answer to an inline query: an article
// that posts Text with its keyboard.
type InlineResult struct {
	ID, Title, Description, Text string
	Markup                       *tgbotapi.InlineKeyboardMarkup
}

// InlineAnswer is the bot's answer to an inline query.
type InlineAnswer struct {
	Results    []InlineResult
	CacheTime  int
	IsPersonal bool
	// Button is the text of the button above the results; "" for none.
	Button string
}

// inlineQuery is an inline query the server sent.
type inlineQuery struct {
	from     tgbotapi.User
	query    string
	deadline time.Time
	answer   *InlineAnswer
}

// inlineState is the server's inline mode.
type inlineState struct {
	queries  map[string]*inlineQuery
	messages map[string]*Message
	next     int
}

// inlineLocked returns the server's inline state, made on first use.
func (s *Server) inlineLocked() *inlineState {
	if s.inline.queries == nil {
		s.inline.queries = map[string]*inlineQuery{}
		s.inline.messages = map[string]*Message{}
	}
	return &s.inline
}

// InlineQuery queues a user's inline query with the words after the
// bot's name, and returns the query's id.
func (s *Server) InlineQuery(from tgbotapi.User, query string) string {
	s.mu.Lock()
	st := s.inlineLocked()
	st.next++
	id := "iq" + strconv.Itoa(st.next)
	st.queries[id] = &inlineQuery{from: from, query: query, deadline: time.Now().Add(InlineAnswerWindow)}
	s.mu.Unlock()
	s.PushUpdate(tgbotapi.Update{InlineQuery: &tgbotapi.InlineQuery{ID: id, From: &from, Query: query, ChatType: "group"}})
	return id
}

// ExpireInlineQuery ends the answer window of query id: an answer now is
// refused as too late.
func (s *Server) ExpireInlineQuery(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := s.inlineLocked().queries[id]; ok {
		q.deadline = time.Time{}
	}
}

// InlineAnswer returns the answer to query id, and whether there is one.
func (s *Server) InlineAnswer(id string) (InlineAnswer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.inlineLocked().queries[id]
	if !ok || q.answer == nil {
		return InlineAnswer{}, false
	}
	a := *q.answer
	a.Results = append([]InlineResult(nil), a.Results...)
	return a, true
}

// Choose posts the result with resultID of the answer to query id as the
// querying user, in a chat the bot need not be in, and returns the
// inline message's id. Telegram gives a posted result an inline message
// id only when it has a keyboard. With feedback (BotFather's
// /setinlinefeedback) it queues the chosen_inline_result update.
func (s *Server) Choose(queryID, resultID string, feedback bool) (string, error) {
	s.mu.Lock()
	st := s.inlineLocked()
	q, ok := st.queries[queryID]
	if !ok || q.answer == nil {
		s.mu.Unlock()
		return "", fmt.Errorf("telegramtest: query %q has no answer", queryID)
	}
	var res *InlineResult
	for i := range q.answer.Results {
		if q.answer.Results[i].ID == resultID {
			res = &q.answer.Results[i]
		}
	}
	if res == nil || res.Markup == nil {
		s.mu.Unlock()
		return "", fmt.Errorf("telegramtest: query %q has no result %q with a keyboard", queryID, resultID)
	}
	st.next++
	id := "AgAAAI" + strconv.Itoa(st.next) + "-inline"
	st.messages[id] = &Message{FromBot: true, Text: res.Text, Markup: cloneMarkup(res.Markup)}
	from, query := q.from, q.query
	s.mu.Unlock()
	if feedback {
		s.PushUpdate(tgbotapi.Update{ChosenInlineResult: &tgbotapi.ChosenInlineResult{ResultID: resultID, From: &from, Query: query, InlineMessageID: id}})
	}
	return id, nil
}

// NewInlineTapUpdate returns an update of a user tapping the button with
// data on inline message id (which need not exist: forged taps are
// welcome), and the callback query's id. It carries the inline message's
// id and no message, as Telegram sends it.
func (s *Server) NewInlineTapUpdate(from tgbotapi.User, id, data string) (tgbotapi.Update, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextCallback++
	cb := "cb" + strconv.Itoa(s.nextCallback)
	s.answered[cb] = 0
	return tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: cb, From: &from, InlineMessageID: id, ChatInstance: "inline-" + id, Data: data}}, cb
}

// InlineTap queues a user's tap on the button with data on inline message
// id and returns the callback query's id.
func (s *Server) InlineTap(from tgbotapi.User, id, data string) string {
	u, cb := s.NewInlineTapUpdate(from, id, data)
	s.PushUpdate(u)
	return cb
}

// InlineMessage returns the state of inline message id.
func (s *Server) InlineMessage(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.inlineLocked().messages[id]
	if !ok {
		return Message{}, false
	}
	return m.clone(), true
}

// answerInline answers answerInlineQuery. s.mu must be held.
func (s *Server) answerInline(p map[string]string) (any, *apiError) {
	q, ok := s.inlineLocked().queries[p["inline_query_id"]]
	if !ok || q.answer != nil || !time.Now().Before(q.deadline) {
		return nil, badRequest("query is too old and response timeout expired or query ID is invalid")
	}
	var raw []struct {
		Type                string `json:"type"`
		ID                  string `json:"id"`
		Title               string `json:"title"`
		Description         string `json:"description"`
		InputMessageContent struct {
			MessageText string `json:"message_text"`
		} `json:"input_message_content"`
		ReplyMarkup json.RawMessage `json:"reply_markup"`
	}
	if err := json.Unmarshal([]byte(p["results"]), &raw); err != nil || p["results"] == "" {
		return nil, badRequest("can't parse inline query results JSON object")
	}
	if len(raw) > MaxInlineResults {
		return nil, badRequest("RESULTS_TOO_MUCH")
	}
	a := &InlineAnswer{IsPersonal: p["is_personal"] == "true"}
	a.CacheTime, _ = strconv.Atoi(p["cache_time"])
	seen := map[string]bool{}
	for _, r := range raw {
		if r.ID == "" || len(r.ID) > MaxResultID || seen[r.ID] {
			return nil, badRequest("RESULT_ID_INVALID")
		}
		seen[r.ID] = true
		if r.Type != "article" || r.Title == "" || r.InputMessageContent.MessageText == "" {
			return nil, badRequest("can't parse inline query result")
		}
		var markup *tgbotapi.InlineKeyboardMarkup
		if len(r.ReplyMarkup) > 0 {
			var err *apiError
			if markup, _, err = parseMarkup(string(r.ReplyMarkup), 0); err != nil {
				return nil, err
			}
		}
		a.Results = append(a.Results, InlineResult{ID: r.ID, Title: r.Title, Description: r.Description, Text: r.InputMessageContent.MessageText, Markup: markup})
	}
	if b := p["button"]; b != "" {
		var btn struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(b), &btn); err != nil || btn.Text == "" {
			return nil, badRequest("can't parse inline query results button")
		}
		a.Button = btn.Text
	}
	q.answer = a
	return true, nil
}

// editInline edits inline message id with editMessageText or
// editMessageReplyMarkup; an inline message takes no upload. s.mu must
// be held.
func (s *Server) editInline(method, id string, p map[string]string) (any, *apiError) {
	m, ok := s.inlineLocked().messages[id]
	if !ok {
		return nil, badRequest("MESSAGE_ID_INVALID")
	}
	if method == "editMessageMedia" {
		return nil, badRequest("can't use file upload for inline messages")
	}
	markup, _, err := parseMarkup(p["reply_markup"], 0)
	if err != nil {
		return nil, err
	}
	next := m.clone()
	next.Markup = markup
	if method == "editMessageText" {
		if p["text"] == "" {
			return nil, badRequest("message text is empty")
		}
		if n := len([]rune(p["text"])); n > 4096 {
			return nil, badRequest("MESSAGE_TOO_LONG")
		}
		next.Text = p["text"]
	}
	if next.Text == m.Text && sameMarkup(next, *m) {
		return nil, badRequest("%s", "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message")
	}
	next.Edits++
	*m = next
	return true, nil
}
