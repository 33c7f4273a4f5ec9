package discordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Fixed ids of the fake's world.
const (
	// GuildID is the server every interaction comes from.
	GuildID = "900000000000000001"
	// BotID is the bot user's id, and AppID the application's.
	BotID = "900000000000000002"
	AppID = "900000000000000003"
)

// Discord's limits the fake enforces on messages.
const (
	maxContent  = 2000
	maxRows     = 5
	maxButtons  = 5
	maxCustomID = 100
	maxLabel    = 80
	// maxFiles is the most attachments on a message, and maxFileSize the
	// largest file a bot may upload without a boosted server.
	maxFiles    = 10
	maxFileSize = 10 << 20
	// maxBody bounds a request body the server reads.
	maxBody = maxFiles*maxFileSize + 1<<20
)

// apiPrefix is where the REST API lives under the server's URL, followed
// by the API version ("v9/", "v10/"), which the fake ignores.
const apiPrefix = "/api/"

// Server is a fake Discord: the REST API on an httptest server and a
// gateway websocket on the same server. Its methods are safe for
// concurrent use.
type Server struct {
	// URL is the origin to give discord.SetAPIBase, such as
	// "http://127.0.0.1:4321/".
	URL string

	token             string
	heartbeatInterval time.Duration
	srv               *httptest.Server

	mu           sync.Mutex
	changed      chan struct{}
	nextID       int64
	calls        []Call
	messages     map[string]*Message
	order        []string
	interactions map[string]*interaction
	commands     map[string][]json.RawMessage
	limits       []*rateLimit
	gw           gatewayState
	// endpoint, when set, receives interactions instead of the gateway.
	endpoint *endpoint
	// deadline returns the channel that fires when an interaction's time
	// for its first response is over (Options.Deadline).
	deadline func() <-chan time.Time
	// leaks are the ids of public messages that an edit asked to make
	// ephemeral: Discord keeps them public, text and all.
	leaks []string
}

// Options configure a Server.
type Options struct {
	// Token is the bot token the server accepts ("Bot " + Token in the
	// Authorization header, and in IDENTIFY). Required.
	Token string
	// HeartbeatInterval is sent in HELLO; zero means Discord's 41.25 s.
	HeartbeatInterval time.Duration
	// Deadline returns, for each interaction as it is delivered, a
	// channel that fires when its time for a first response is over: a
	// first response after it is refused (Unknown interaction), and the
	// interaction fails (Response.Failed), as Discord does. Nil means
	// Discord's three seconds on the clock; tests that decide when time
	// is up return their own channel (nil: never).
	Deadline func() <-chan time.Time
}

// DeadlineAfter is Discord's time for an interaction's first response.
const DeadlineAfter = 3 * time.Second

// New starts a fake Discord; Close stops it.
func New(opts Options) *Server {
	if opts.HeartbeatInterval == 0 {
		opts.HeartbeatInterval = 41250 * time.Millisecond
	}
	s := &Server{
		token:             opts.Token,
		heartbeatInterval: opts.HeartbeatInterval,
		changed:           make(chan struct{}),
		nextID:            910000000000000000,
		messages:          make(map[string]*Message),
		interactions:      make(map[string]*interaction),
		commands:          make(map[string][]json.RawMessage),
		deadline:          opts.Deadline,
	}
	if s.deadline == nil {
		s.deadline = func() <-chan time.Time { return time.After(DeadlineAfter) }
	}
	mux := http.NewServeMux()
	mux.HandleFunc(apiPrefix, s.serveREST)
	mux.HandleFunc("/gateway-ws/", s.serveGateway)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/"
	return s
}

// Close drops the gateway connection and stops the server.
func (s *Server) Close() {
	s.DropConnection()
	s.srv.Close()
}

// Call is one REST request the server received.
type Call struct {
	Method string
	// Path is the request path below /api/v<version>/, such as
	// "channels/1/messages".
	Path  string
	Query string
	// Body is the JSON body; for a multipart request, its payload_json.
	Body string
	// Files are the names of the files a multipart request uploaded.
	Files  []string
	Status int
}

// Attachment is a file attached to a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Data        []byte
}

// Button is a button of a message.
type Button struct {
	Style    int    `json:"style"`
	Label    string `json:"label"`
	CustomID string `json:"custom_id"`
	Disabled bool   `json:"disabled"`
}

// Message is a message as the server holds it.
type Message struct {
	ID        string
	ChannelID string
	Content   string
	Rows      [][]Button
	// Attachments are the message's files, in order.
	Attachments []Attachment
	// Ephemeral messages are seen only by VisibleTo.
	Ephemeral bool
	VisibleTo string
	// Interaction is the id of the interaction the message answers, if
	// any; Loading is set while it shows a deferred "thinking" state.
	Interaction string
	Loading     bool
	Deleted     bool
	Edits       int
}

// Buttons returns the message's buttons, row by row.
func (m Message) Buttons() []Button {
	var bs []Button
	for _, r := range m.Rows {
		bs = append(bs, r...)
	}
	return bs
}

// Button returns the message's first button labelled label, if any.
func (m Message) Button(label string) (Button, bool) {
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b, true
		}
	}
	return Button{}, false
}

// Response is how an interaction was answered.
type Response struct {
	// Type is the interaction callback type (4 message, 5 deferred
	// message, 6 deferred update, 7 update), 0 while unanswered.
	Type int
	// Original is the id of the message the original response is.
	Original string
	// Followups are the ids of follow-up messages, in order.
	Followups []string
	// Failed says that no first response came within the deadline:
	// Discord shows "interaction failed".
	Failed bool
}

// interaction is an interaction the server dispatched.
type interaction struct {
	id, token, channel, user string
	kind                     int
	message                  string
	resp                     Response
	// event is the INTERACTION_CREATE that delivered it, for Redeliver.
	event map[string]any
	// expired is closed when the deadline passed with no first response.
	expired chan struct{}
}

// rateLimit answers the next n requests matching method and path prefix
// with 429.
type rateLimit struct {
	method, prefix string
	n              int
	retryAfter     float64
}

// bump wakes every waiter; s.mu is held.
func (s *Server) bump() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// newID returns a fresh snowflake-like id; s.mu is held.
func (s *Server) newID() string {
	s.nextID++
	return strconv.FormatInt(s.nextID, 10)
}

// WaitFor returns once cond holds, checking it after every change to the
// server, or an error when timeout passes first. The timeout only guards
// a failing test; nothing waits on the clock when cond comes true.
func (s *Server) WaitFor(timeout time.Duration, what string, cond func() bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-deadline.C:
			return fmt.Errorf("discordtest: timed out waiting for %s", what)
		}
	}
}

// Calls returns every REST request so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Message returns the message with the id.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return m.copy(), true
}

// Messages returns the messages of a channel in the order they were
// created, deleted ones included.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ms []Message
	for _, id := range s.order {
		if m := s.messages[id]; m.ChannelID == channel {
			ms = append(ms, m.copy())
		}
	}
	return ms
}

// Response returns how the interaction with the id was answered.
func (s *Server) Response(interactionID string) Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.interactions {
		if in.id == interactionID {
			r := in.resp
			r.Followups = append([]string(nil), r.Followups...)
			return r
		}
	}
	return Response{}
}

// Commands returns the raw JSON of the commands registered by bulk
// overwrite, globally (guild "") or on a guild.
func (s *Server) Commands(guild string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.commands[guild]...)
}

// RateLimit makes the next n requests whose method is method and whose
// path below /api/v<version>/ starts with prefix fail with 429, Discord's body
// and headers, and retry_after seconds.
func (s *Server) RateLimit(method, prefix string, n int, retryAfter float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = append(s.limits, &rateLimit{method: method, prefix: prefix, n: n, retryAfter: retryAfter})
}

// copy returns a deep copy of m.
func (m *Message) copy() Message {
	c := *m
	c.Attachments = append([]Attachment(nil), m.Attachments...)
	c.Rows = make([][]Button, len(m.Rows))
	for i, r := range m.Rows {
		c.Rows[i] = append([]Button(nil), r...)
	}
	return c
}

// apiError is Discord's JSON error body.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Discord's error codes the fake uses.
const (
	codeUnknownMessage     = 10008
	codeUnknownWebhook     = 10015
	codeUnknownInteraction = 10062
	codeInvalidBody        = 50035
	codeAlreadyAnswered    = 40060
	codeUnauthorized       = 0
)

// serveREST answers a REST request and records it.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	body, files, err := readBody(r)
	path := strings.TrimPrefix(r.URL.Path, apiPrefix)
	if v, rest, ok := strings.Cut(path, "/"); ok && strings.HasPrefix(v, "v") {
		path = rest
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := Call{Method: r.Method, Path: path, Query: r.URL.RawQuery, Body: string(body)}
	for _, f := range files {
		call.Files = append(call.Files, f.Filename)
	}
	var status int
	var out any
	if err != nil {
		status, out = 400, apiError{codeInvalidBody, "Invalid Form Body: " + err.Error()}
	} else {
		status, out = s.route(r, path, request{body, files}, w.Header())
	}
	call.Status = status
	s.calls = append(s.calls, call)
	s.bump()
	if out == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(out)
}

// request is the body of a REST request: JSON, and the files a
// multipart request uploaded.
type request struct {
	json  []byte
	files []Attachment
}

// readBody reads a request's JSON body, or, for multipart/form-data as
// Discord takes it with uploads, the JSON of its payload_json part and the
// files of its files[n] parts, in order of n.
func readBody(r *http.Request) ([]byte, []Attachment, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return nil, nil, err
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return body, nil, nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var payload []byte
	byIndex := map[int]Attachment{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("multipart: %v", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, fmt.Errorf("multipart: %v", err)
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			payload = data
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 || n >= maxFiles || part.FileName() == "" {
				return nil, nil, fmt.Errorf("multipart: part %q (file name %q)", name, part.FileName())
			}
			if _, dup := byIndex[n]; dup {
				return nil, nil, fmt.Errorf("multipart: %s twice", name)
			}
			if len(data) > maxFileSize {
				return nil, nil, fmt.Errorf("%s: %d bytes, at most %d", name, len(data), maxFileSize)
			}
			byIndex[n] = Attachment{Filename: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data}
		default:
			return nil, nil, fmt.Errorf("multipart: unexpected part %q", name)
		}
	}
	if payload == nil {
		return nil, nil, errors.New("multipart: no payload_json")
	}
	idx := make([]int, 0, len(byIndex))
	for n := range byIndex {
		idx = append(idx, n)
	}
	slices.Sort(idx)
	files := make([]Attachment, 0, len(idx))
	for _, n := range idx {
		files = append(files, byIndex[n])
	}
	return payload, files, nil
}

// route dispatches a REST request; s.mu is held. It returns the status
// and the JSON to answer, nil for none.
func (s *Server) route(r *http.Request, path string, req request, h http.Header) (int, any) {
	body := req.json
	for _, l := range s.limits {
		if l.n > 0 && l.method == r.Method && strings.HasPrefix(path, l.prefix) {
			l.n--
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(l.retryAfter))))
			h.Set("X-RateLimit-Limit", "5")
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(l.retryAfter, 'f', 3, 64))
			h.Set("X-RateLimit-Bucket", "fake-bucket")
			h.Set("X-RateLimit-Scope", "user")
			return http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": l.retryAfter, "global": false}
		}
	}
	p := strings.Split(path, "/")
	// Interaction callbacks and webhooks authenticate by their token;
	// everything else needs the bot token.
	if p[0] != "interactions" && p[0] != "webhooks" && r.Header.Get("Authorization") != "Bot "+s.token {
		return http.StatusUnauthorized, apiError{codeUnauthorized, "401: Unauthorized"}
	}
	switch {
	case r.Method == "GET" && path == "gateway":
		return 200, map[string]any{"url": s.gatewayURL()}
	case r.Method == "GET" && path == "gateway/bot":
		return 200, map[string]any{"url": s.gatewayURL(), "shards": 1,
			"session_start_limit": map[string]int{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}
	case r.Method == "PUT" && len(p) == 3 && p[0] == "applications" && p[2] == "commands":
		return s.overwriteCommands(p[1], "", body)
	case r.Method == "PUT" && len(p) == 5 && p[0] == "applications" && p[2] == "guilds" && p[4] == "commands":
		return s.overwriteCommands(p[1], p[3], body)
	case r.Method == "POST" && len(p) == 4 && p[0] == "interactions" && p[3] == "callback":
		return s.callback(p[1], p[2], req)
	case len(p) >= 3 && p[0] == "webhooks":
		return s.webhook(r.Method, p[1], p[2], p[3:], r.URL.Query().Get("wait") == "true", req)
	case len(p) == 3 && p[0] == "channels" && p[2] == "messages" && r.Method == "POST":
		m, err := s.create(p[1], req, "", "")
		if err != nil {
			return 400, apiError{codeInvalidBody, err.Error()}
		}
		return 200, s.messageJSON(m)
	case len(p) == 4 && p[0] == "channels" && p[2] == "messages":
		m, ok := s.messages[p[3]]
		if !ok || m.ChannelID != p[1] || m.Deleted || m.Ephemeral {
			return 404, apiError{codeUnknownMessage, "Unknown Message"}
		}
		switch r.Method {
		case "GET":
			return 200, s.messageJSON(m)
		case "PATCH":
			if err := s.edit(m, req); err != nil {
				return 400, apiError{codeInvalidBody, err.Error()}
			}
			return 200, s.messageJSON(m)
		}
	}
	return 404, apiError{0, "404: Not Found"}
}

// overwriteCommands replaces an application's commands.
func (s *Server) overwriteCommands(app, guild string, body []byte) (int, any) {
	if app != AppID {
		return 403, apiError{50001, "Missing Access"}
	}
	var cmds []map[string]any
	if err := json.Unmarshal(body, &cmds); err != nil {
		return 400, apiError{codeInvalidBody, "Invalid Form Body"}
	}
	raw := make([]json.RawMessage, len(cmds))
	for i, c := range cmds {
		name, _ := c["name"].(string)
		desc, _ := c["description"].(string)
		if name == "" || len(name) > 32 || strings.ToLower(name) != name || desc == "" || len(desc) > 100 {
			return 400, apiError{codeInvalidBody, "Invalid Form Body: command " + strconv.Itoa(i)}
		}
		c["id"] = s.newID()
		c["application_id"] = app
		raw[i], _ = json.Marshal(c)
	}
	s.commands[guild] = raw
	return 200, cmds
}

// messageData is the part of a message body the fake understands. Absent
// fields leave an edited message's parts alone.
type messageData struct {
	Content    *string          `json:"content"`
	Components *[]componentJSON `json:"components"`
	Flags      *int             `json:"flags"`
	// Attachments, on an edit, are the attachments to keep by id; the
	// files uploaded with the edit are added to them (API v9). Absent, the
	// message keeps all of its attachments.
	Attachments *[]struct {
		ID json.RawMessage `json:"id"`
	} `json:"attachments"`
}

// componentJSON is an action row or a button on the wire.
type componentJSON struct {
	Type       int             `json:"type"`
	Components []componentJSON `json:"components,omitempty"`
	Style      int             `json:"style,omitempty"`
	Label      string          `json:"label,omitempty"`
	CustomID   string          `json:"custom_id,omitempty"`
	Disabled   bool            `json:"disabled,omitempty"`
}

// rows validates components against Discord's limits and returns them
// as rows of buttons.
func rows(comps []componentJSON) ([][]Button, error) {
	if len(comps) > maxRows {
		return nil, fmt.Errorf("components: %d action rows, at most %d", len(comps), maxRows)
	}
	seen := make(map[string]bool)
	var out [][]Button
	for i, row := range comps {
		if row.Type != 1 {
			return nil, fmt.Errorf("components[%d]: type %d is not an action row", i, row.Type)
		}
		if len(row.Components) == 0 || len(row.Components) > maxButtons {
			return nil, fmt.Errorf("components[%d]: %d buttons, want 1 to %d", i, len(row.Components), maxButtons)
		}
		var bs []Button
		for j, b := range row.Components {
			where := fmt.Sprintf("components[%d].components[%d]", i, j)
			switch {
			case b.Type != 2:
				return nil, fmt.Errorf("%s: type %d is not a button", where, b.Type)
			case b.Style < 1 || b.Style > 4:
				return nil, fmt.Errorf("%s: style %d", where, b.Style)
			case b.CustomID == "" || len(b.CustomID) > maxCustomID:
				return nil, fmt.Errorf("%s: custom_id of %d characters, want 1 to %d", where, len(b.CustomID), maxCustomID)
			case seen[b.CustomID]:
				return nil, fmt.Errorf("%s: custom_id %q is not unique", where, b.CustomID)
			case b.Label == "" || utf8.RuneCountInString(b.Label) > maxLabel:
				return nil, fmt.Errorf("%s: label of %d characters", where, utf8.RuneCountInString(b.Label))
			}
			seen[b.CustomID] = true
			bs = append(bs, Button{Style: b.Style, Label: b.Label, CustomID: b.CustomID, Disabled: b.Disabled})
		}
		out = append(out, bs)
	}
	return out, nil
}

// apply sets a message's parts from a request, after checking all of it.
func (s *Server) apply(m *Message, req request) error {
	var d messageData
	if err := json.Unmarshal(req.json, &d); err != nil {
		return fmt.Errorf("Invalid Form Body: %v", err)
	}
	atts, err := s.attachments(m, d, req.files)
	if err != nil {
		return err
	}
	if d.Content != nil && utf8.RuneCountInString(*d.Content) > maxContent {
		return fmt.Errorf("content: %d characters, at most %d", utf8.RuneCountInString(*d.Content), maxContent)
	}
	var rs [][]Button
	if d.Components != nil {
		var err error
		if rs, err = rows(*d.Components); err != nil {
			return err
		}
	}
	if d.Content != nil {
		m.Content = *d.Content
	}
	if d.Components != nil {
		m.Rows = rs
	}
	m.Attachments = atts
	if d.Flags != nil && *d.Flags&64 != 0 {
		m.Ephemeral = true
	}
	return nil
}

// attachments returns a message's attachments after a create or edit
// with d and the uploaded files: the kept ones (all when d names none),
// then the uploads, each with a fresh id.
func (s *Server) attachments(m *Message, d messageData, files []Attachment) ([]Attachment, error) {
	keep := m.Attachments
	if d.Attachments != nil {
		keep = nil
		for i, a := range *d.Attachments {
			var id string
			if json.Unmarshal(a.ID, &id) != nil {
				id = string(a.ID) // a number: the index of an upload
			}
			if n, err := strconv.Atoi(id); err == nil && n >= 0 && n < len(files) {
				continue // names an upload, which is added below
			}
			k := slices.IndexFunc(m.Attachments, func(a Attachment) bool { return a.ID == id })
			if k < 0 {
				return nil, fmt.Errorf("attachments[%d]: unknown attachment %s", i, id)
			}
			keep = append(keep, m.Attachments[k])
		}
	}
	out := append([]Attachment(nil), keep...)
	for _, f := range files {
		f.ID = s.newID()
		out = append(out, f)
	}
	if len(out) > maxFiles {
		return nil, fmt.Errorf("attachments: %d, at most %d", len(out), maxFiles)
	}
	return out, nil
}

// create stores a new message from a request.
func (s *Server) create(channel string, req request, interactionID, user string) (*Message, error) {
	m := &Message{ChannelID: channel, Interaction: interactionID}
	if err := s.apply(m, req); err != nil {
		return nil, err
	}
	if m.Ephemeral {
		if interactionID == "" {
			return nil, errors.New("flags: ephemeral messages answer interactions only")
		}
		m.VisibleTo = user
	}
	if m.Content == "" && len(m.Rows) == 0 && len(m.Attachments) == 0 {
		return nil, errors.New("Cannot send an empty message")
	}
	m.ID = s.newID()
	s.messages[m.ID] = m
	s.order = append(s.order, m.ID)
	return m, nil
}

// edit changes a message from a request.
func (s *Server) edit(m *Message, req request) error {
	var d messageData
	if json.Unmarshal(req.json, &d) == nil && d.Flags != nil && *d.Flags&64 != 0 && !m.Ephemeral {
		s.leaks = append(s.leaks, m.ID)
	}
	c := m.copy()
	if err := s.apply(&c, req); err != nil {
		return err
	}
	c.Ephemeral, c.Loading = m.Ephemeral, false
	c.Edits++
	*m = c
	return nil
}

// callback answers POST /interactions/{id}/{token}/callback.
func (s *Server) callback(id, token string, req request) (int, any) {
	in, ok := s.interactions[token]
	if !ok || in.id != id {
		return 404, apiError{codeUnknownInteraction, "Unknown interaction"}
	}
	if in.resp.Failed {
		return 404, apiError{codeUnknownInteraction, "Unknown interaction"}
	}
	if in.resp.Type != 0 {
		return 400, apiError{codeAlreadyAnswered, "Interaction has already been acknowledged."}
	}
	var resp struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(req.json, &resp); err != nil {
		return 400, apiError{codeInvalidBody, "Invalid Form Body"}
	}
	data := request{json: resp.Data, files: req.files}
	if len(data.json) == 0 || string(data.json) == "null" {
		data.json = []byte("{}")
	}
	if len(data.files) > 0 && resp.Type != 4 && resp.Type != 7 {
		return 400, apiError{codeInvalidBody, fmt.Sprintf("Invalid Form Body: files with a callback of type %d", resp.Type)}
	}
	switch {
	case resp.Type == 4:
		m, err := s.create(in.channel, data, in.id, in.user)
		if err != nil {
			return 400, apiError{codeInvalidBody, err.Error()}
		}
		in.resp.Original = m.ID
	case resp.Type == 5:
		m := &Message{ID: s.newID(), ChannelID: in.channel, Interaction: in.id, Loading: true}
		var d messageData
		if json.Unmarshal(data.json, &d) == nil && d.Flags != nil && *d.Flags&64 != 0 {
			m.Ephemeral, m.VisibleTo = true, in.user
		}
		s.messages[m.ID] = m
		s.order = append(s.order, m.ID)
		in.resp.Original = m.ID
	case resp.Type == 6 && in.kind == 3:
		in.resp.Original = in.message
	case resp.Type == 7 && in.kind == 3:
		m, ok := s.messages[in.message]
		if !ok || m.Deleted {
			return 404, apiError{codeUnknownMessage, "Unknown Message"}
		}
		if err := s.edit(m, data); err != nil {
			return 400, apiError{codeInvalidBody, err.Error()}
		}
		in.resp.Original = m.ID
	default:
		return 400, apiError{codeInvalidBody, fmt.Sprintf("Invalid Form Body: type %d for an interaction of type %d", resp.Type, in.kind)}
	}
	in.resp.Type = resp.Type
	return http.StatusNoContent, nil
}

// webhook answers the interaction webhook routes: follow-ups and the
// original response.
func (s *Server) webhook(method, app, token string, rest []string, wait bool, req request) (int, any) {
	in, ok := s.interactions[token]
	if app != AppID || !ok || in.resp.Type == 0 {
		return 404, apiError{codeUnknownWebhook, "Unknown Webhook"}
	}
	if len(rest) == 0 && method == "POST" {
		m, err := s.create(in.channel, req, in.id, in.user)
		if err != nil {
			return 400, apiError{codeInvalidBody, err.Error()}
		}
		in.resp.Followups = append(in.resp.Followups, m.ID)
		if !wait {
			return http.StatusNoContent, nil
		}
		return 200, s.messageJSON(m)
	}
	if len(rest) != 2 || rest[0] != "messages" {
		return 404, apiError{0, "404: Not Found"}
	}
	id := rest[1]
	if id == "@original" {
		id = in.resp.Original
	}
	m, ok := s.messages[id]
	if !ok || m.Deleted || (rest[1] != "@original" && !slices.Contains(in.resp.Followups, id)) {
		return 404, apiError{codeUnknownMessage, "Unknown Message"}
	}
	switch method {
	case "GET":
		return 200, s.messageJSON(m)
	case "PATCH":
		if err := s.edit(m, req); err != nil {
			return 400, apiError{codeInvalidBody, err.Error()}
		}
		return 200, s.messageJSON(m)
	case "DELETE":
		m.Deleted = true
		return http.StatusNoContent, nil
	}
	return 405, apiError{0, "405: Method Not Allowed"}
}

// messageJSON returns a message as Discord sends it.
func (s *Server) messageJSON(m *Message) map[string]any {
	comps := []componentJSON{}
	for _, r := range m.Rows {
		row := componentJSON{Type: 1}
		for _, b := range r {
			row.Components = append(row.Components, componentJSON{Type: 2, Style: b.Style, Label: b.Label, CustomID: b.CustomID, Disabled: b.Disabled})
		}
		comps = append(comps, row)
	}
	atts := []map[string]any{}
	for _, a := range m.Attachments {
		url := s.URL + "attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
		atts = append(atts, map[string]any{"id": a.ID, "filename": a.Filename, "content_type": a.ContentType,
			"size": len(a.Data), "url": url, "proxy_url": url})
	}
	flags := 0
	if m.Ephemeral {
		flags |= 64
	}
	if m.Loading {
		flags |= 128
	}
	return map[string]any{
		"id": m.ID, "channel_id": m.ChannelID, "content": m.Content, "components": comps, "flags": flags, "attachments": atts,
		"type": 0, "timestamp": "2026-01-01T00:00:00Z", "tts": false, "mention_everyone": false,
		"author": map[string]any{"id": BotID, "username": "boardbot", "bot": true, "discriminator": "0"},
	}
}

// DeleteMessage deletes a message as a moderator would.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.messages[id]; ok {
		m.Deleted = true
		s.bump()
	}
}

// Leaks returns the ids of public messages that an edit asked to make
// ephemeral (flags 64): Discord ignores the flag on an edit, so what the
// edit carried shows to everyone.
func (s *Server) Leaks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.leaks)
}
