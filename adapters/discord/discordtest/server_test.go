package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// client is a bare gateway and REST client of the fake, without discordgo.
type client struct {
	t  *testing.T
	s  *Server
	ws *websocket.Conn
}

// connect identifies on the gateway and reads READY.
func connect(t *testing.T, s *Server) *client {
	ws, _, err := websocket.DefaultDialer.Dial(s.gatewayURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	c := &client{t: t, s: s, ws: ws}
	if p := c.read(); p.Op != opHello {
		t.Fatalf("first payload %+v", p)
	}
	ws.WriteJSON(map[string]any{"op": opIdentify, "d": map[string]any{"token": "Bot tok", "intents": 1}})
	if p := c.read(); p.T != "READY" {
		t.Fatalf("after IDENTIFY: %+v", p)
	}
	return c
}

func (c *client) read() payload {
	c.t.Helper()
	var p payload
	if err := c.ws.ReadJSON(&p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// do makes a REST request and returns the status and body.
func (c *client) do(method, path, auth, body string) (int, string, http.Header) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.s.URL+"api/v10/"+path, strings.NewReader(body))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// interaction sends a /play and returns its id and token.
func (c *client) interaction() (string, string) {
	id, err := c.s.Command(User{ID: "1", Name: "ann"}, "c", "play")
	if err != nil {
		c.t.Fatal(err)
	}
	p := c.read()
	var d struct{ ID, Token string }
	json.Unmarshal(p.D, &d)
	if p.T != "INTERACTION_CREATE" || d.ID != id {
		c.t.Fatalf("dispatched %+v", p)
	}
	return d.ID, d.Token
}

// buttons returns n rows of m buttons as JSON, with custom_ids from id.
func buttons(n, m int, id func(r, b int) string) string {
	var rows []string
	for r := range n {
		var bs []string
		for b := range m {
			bs = append(bs, fmt.Sprintf(`{"type":2,"style":2,"label":"x","custom_id":%q}`, id(r, b)))
		}
		rows = append(rows, `{"type":1,"components":[`+strings.Join(bs, ",")+`]}`)
	}
	return "[" + strings.Join(rows, ",") + "]"
}

func TestFakeEnforcesDiscordsRules(t *testing.T) {
	s := New(Options{Token: "tok"})
	defer s.Close()
	if _, err := s.Command(User{ID: "1"}, "c", "play"); err != ErrNotConnected {
		t.Errorf("command without a client: %v", err)
	}
	c := connect(t, s)
	if st, _, _ := c.do("GET", "gateway", "", ""); st != 401 {
		t.Errorf("gateway without a token: %d", st)
	}
	if st, body, _ := c.do("GET", "gateway", "Bot tok", ""); st != 200 || !strings.Contains(body, "/gateway-ws/") {
		t.Errorf("gateway: %d %s", st, body)
	}

	id, token := c.interaction()
	cb := "interactions/" + id + "/" + token + "/callback"
	unique := func(r, b int) string { return fmt.Sprint(r, b) }
	for name, comps := range map[string]string{
		"six rows":           buttons(6, 1, unique),
		"six buttons":        buttons(1, 6, unique),
		"duplicate ids":      buttons(2, 2, func(int, int) string { return "n" }),
		"long custom_id":     buttons(1, 1, func(int, int) string { return strings.Repeat("x", 101) }),
		"button outside row": `[{"type":2,"style":2,"label":"x","custom_id":"a"}]`,
	} {
		if st, body, _ := c.do("POST", cb, "", `{"type":4,"data":{"content":"hi","components":`+comps+`}}`); st != 400 || !strings.Contains(body, "50035") {
			t.Errorf("%s: %d %s", name, st, body)
		}
	}
	if st, _, _ := c.do("POST", cb, "", `{"type":7,"data":{"content":"hi"}}`); st != 400 {
		t.Errorf("update message on a command: %d", st)
	}
	if st, _, _ := c.do("POST", cb, "", `{"type":4,"data":{"content":"`+strings.Repeat("a", 2001)+`"}}`); st != 400 {
		t.Errorf("2001 characters: %d", st)
	}
	if st, body, _ := c.do("POST", cb, "", `{"type":4,"data":{"content":"hi","components":`+buttons(5, 5, unique)+`}}`); st != 204 {
		t.Fatalf("a full message: %d %s", st, body)
	}
	if st, body, _ := c.do("POST", cb, "", `{"type":4,"data":{"content":"again"}}`); st != 400 || !strings.Contains(body, "40060") {
		t.Errorf("second answer: %d %s", st, body)
	}
	orig := "webhooks/" + AppID + "/" + token + "/messages/@original"
	if st, body, _ := c.do("PATCH", orig, "", `{"content":"edited"}`); st != 200 || !strings.Contains(body, `"edited"`) {
		t.Errorf("edit original: %d %s", st, body)
	}
	m, _ := s.Message(s.Response(id).Original)
	if m.Content != "edited" || len(m.Rows) != 5 || m.Edits != 1 {
		t.Errorf("message %+v", m)
	}

	s.RateLimit("GET", "channels/", 1, 1.5)
	st, body, h := c.do("GET", "channels/c/messages/"+m.ID, "Bot tok", "")
	if st != 429 || !strings.Contains(body, `"retry_after":1.5`) || h.Get("Retry-After") != "2" || h.Get("X-RateLimit-Reset-After") != "1.500" {
		t.Errorf("rate limited: %d %s %v", st, body, h)
	}
	if st, _, _ := c.do("GET", "channels/c/messages/"+m.ID, "Bot tok", ""); st != 200 {
		t.Errorf("after the limit: %d", st)
	}

	c.ws.WriteJSON(map[string]any{"op": opHeartbeat, "d": 1})
	if p := c.read(); p.Op != opHeartbeatAck {
		t.Errorf("heartbeat answered %+v", p)
	}
	if err := s.WaitFor(5*time.Second, "the heartbeat count", func() bool { return s.Heartbeats() == 1 }); err != nil {
		t.Error(err)
	}
	if got := len(s.Calls()); got != 14 {
		t.Errorf("%d calls recorded, want 14", got)
	}
}

// upload makes a multipart REST request as discordgo does: payload_json,
// then each file as files[n].
func (c *client) upload(method, path, payload string, files ...string) (int, string) {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="payload_json"`)
	h.Set("Content-Type", "application/json")
	p, _ := w.CreatePart(h)
	io.WriteString(p, payload)
	for i, name := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files[%d]"; filename=%q`, i, name))
		h.Set("Content-Type", "image/png")
		p, _ := w.CreatePart(h)
		io.WriteString(p, "data of "+name)
	}
	w.Close()
	req, _ := http.NewRequest(method, c.s.URL+"api/v9/"+path, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// names returns the file names of a message's attachments.
func names(m Message) string {
	var ns []string
	for _, a := range m.Attachments {
		if string(a.Data) != "data of "+a.Filename {
			ns = append(ns, "corrupt "+a.Filename)
			continue
		}
		ns = append(ns, a.Filename)
	}
	return strings.Join(ns, " ")
}

func TestFakeTakesUploadsAndReplacesAttachments(t *testing.T) {
	s := New(Options{Token: "tok"})
	defer s.Close()
	c := connect(t, s)
	id, token := c.interaction()
	cb := "interactions/" + id + "/" + token + "/callback"
	if st, body := c.upload("POST", cb, `{"type":4,"data":{}}`, "a.png"); st != 204 {
		t.Fatalf("callback with a file: %d %s", st, body)
	}
	m, _ := s.Message(s.Response(id).Original)
	if names(m) != "a.png" || m.Attachments[0].ContentType != "image/png" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	first := m.Attachments[0].ID
	orig := "webhooks/" + AppID + "/" + token + "/messages/@original"
	for _, step := range []struct {
		payload string
		files   []string
		status  int
		want    string
	}{
		// API v9: uploads add to the attachments kept, all when none are
		// named.
		{`{"content":"x"}`, []string{"b.png"}, 200, "a.png b.png"},
		{`{"attachments":[{"id":"` + first + `"}]}`, []string{"c.png"}, 200, "a.png c.png"},
		{`{"attachments":[]}`, []string{"d.png"}, 200, "d.png"},
		// An upload named by its index, as API v10 wants, is not a kept one.
		{`{"attachments":[{"id":0,"filename":"e.png"}]}`, []string{"e.png"}, 200, "e.png"},
		{`{"attachments":[{"id":"99"}]}`, nil, 400, "e.png"},
		{`{"content":"y"}`, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, 400, "e.png"},
	} {
		var st int
		var body string
		if step.files == nil {
			st, body, _ = c.do("PATCH", orig, "", step.payload)
		} else {
			st, body = c.upload("PATCH", orig, step.payload, step.files...)
		}
		m, _ := s.Message(m.ID)
		if st != step.status || names(m) != step.want {
			t.Errorf("PATCH %s %v: %d %s; attachments %q, want %d %q", step.payload, step.files, st, body, names(m), step.status, step.want)
		}
	}
	if st, body, _ := c.do("GET", "channels/c/messages/"+m.ID, "Bot tok", ""); st != 200 || !strings.Contains(body, `"filename":"e.png"`) {
		t.Errorf("GET: %d %s", st, body)
	}
	for name, payload := range map[string]string{"empty payload_json": "", "not JSON": "{"} {
		if st, _ := c.upload("PATCH", orig, payload, "f.png"); st != 400 {
			t.Errorf("%s: %d", name, st)
		}
	}
	if got := s.Calls(); got[len(got)-1].Files[0] != "f.png" {
		t.Errorf("last call %+v does not record its file", got[len(got)-1])
	}
}

// TestFakeFailsInteractionsPastTheDeadline checks the fake's deadline:
// once it fires, an unanswered interaction fails and a first response is
// refused, through the gateway's callback and over HTTP alike; an
// interaction answered in time is not failed by it.
func TestFakeFailsInteractionsPastTheDeadline(t *testing.T) {
	fire := make(chan chan time.Time, 4)
	s := New(Options{Token: "tok", Deadline: func() <-chan time.Time {
		c := make(chan time.Time)
		fire <- c
		return c
	}})
	defer s.Close()
	c := connect(t, s)

	late, token := c.interaction()
	close(<-fire)
	if err := s.WaitFor(time.Minute, "the failure", func() bool { return s.Response(late).Failed }); err != nil {
		t.Fatal(err)
	}
	if st, body, _ := c.do("POST", "interactions/"+late+"/"+token+"/callback", "", `{"type":4,"data":{"content":"late"}}`); st != 404 || !strings.Contains(body, "10062") {
		t.Errorf("answer after the deadline: %d %s, want 404 Unknown interaction", st, body)
	}

	early, token := c.interaction()
	deadline := <-fire
	if st, _, _ := c.do("POST", "interactions/"+early+"/"+token+"/callback", "", `{"type":5}`); st != 204 {
		t.Fatalf("deferral in time: %d", st)
	}
	close(deadline)
	if r := s.Response(early); r.Failed || r.Type != 5 {
		t.Errorf("an interaction answered in time: %+v", r)
	}

	// Over HTTP: an endpoint that answers after the deadline.
	answered := make(chan struct{})
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-answered
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":4,"data":{"content":"late"}}`)
	}))
	defer ep.Close()
	defer close(answered)
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	s.UseEndpoint(func() string { return ep.URL }, key, time.Now)
	go func() { close(<-fire) }()
	id, err := s.Command(User{ID: "1", Name: "ann"}, "c", "play")
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("HTTP answer after the deadline: %v, want a failure", err)
	}
	if id != "" && !s.Response(id).Failed {
		t.Errorf("interaction %s not failed", id)
	}
}

// TestFakeReportsEphemeralEditsOfPublicMessages checks Leaks: an edit
// with the ephemeral flag of a public message is taken, and reported.
func TestFakeReportsEphemeralEditsOfPublicMessages(t *testing.T) {
	s := New(Options{Token: "tok", Deadline: func() <-chan time.Time { return nil }})
	defer s.Close()
	c := connect(t, s)
	id, token := c.interaction()
	if st, _, _ := c.do("POST", "interactions/"+id+"/"+token+"/callback", "", `{"type":5}`); st != 204 {
		t.Fatalf("deferral: %d", st)
	}
	orig := "webhooks/" + AppID + "/" + token + "/messages/@original"
	if st, _, _ := c.do("PATCH", orig, "", `{"content":"only for you","flags":64}`); st != 200 {
		t.Fatalf("edit: %d", st)
	}
	m, _ := s.Message(s.Response(id).Original)
	if leaks := s.Leaks(); len(leaks) != 1 || leaks[0] != m.ID || m.Ephemeral {
		t.Errorf("leaks %v, message %+v", leaks, m)
	}
}
