package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MaxInteractionSkew is how far an interaction's signed timestamp may be
// from the clock before the endpoint refuses it as a replay.
const MaxInteractionSkew = 5 * time.Minute

// answerWithin is how long the endpoint waits for the bot's first answer
// before it defers by itself: Discord wants the HTTP answer within 3 s.
const answerWithin = 2500 * time.Millisecond

// maxInteractionBytes bounds the body of an interaction request.
const maxInteractionBytes = 1 << 20

// ErrBadPublicKey is returned by Endpoint for a key that is not an
// Ed25519 public key.
var ErrBadPublicKey = errors.New("discord: interactions public key is not an Ed25519 public key")

// EndpointConfig configures the Interactions Endpoint URL.
type EndpointConfig struct {
	// PublicKey is the application's public key (General Information in
	// the developer portal).
	PublicKey ed25519.PublicKey
	// Now is the clock the signed timestamps are checked against; nil
	// means time.Now.
	Now func() time.Time
}

// Endpoint serves Discord's HTTP interactions, the stateless alternative
// to the gateway that lets replicas behind a load balancer share the
// work: every request's Ed25519 signature and timestamp are checked
// (401 otherwise), PING is answered with PONG, and every other
// interaction is handled as one from the gateway. The bot's first answer
// becomes the HTTP answer, as a deferral (type 5 or 6) whose content
// then edits @original through the REST API; an interaction the bot has
// not answered after about 2.5 s is deferred all the same. An interaction
// id that was handled (on any replica sharing the store) is refused.
type Endpoint struct {
	b   *Bot
	cfg EndpointConfig

	mu      sync.Mutex
	pending map[string]*httpAnswer // by interaction id
	tokens  map[string]*httpAnswer // by interaction token
}

// httpAnswer is the HTTP answer of an interaction in progress: the first
// callback the bot makes goes to it.
type httpAnswer struct {
	first chan discordgo.InteractionResponse
	// sent is closed once the HTTP answer is written: only then may the
	// bot edit @original or follow up.
	sent chan struct{}
	// deferredAs is the deferral the HTTP answer carried; 0 until sent.
	deferredAs discordgo.InteractionResponseType
}

// Endpoint returns the Interactions Endpoint of the bot. It reroutes the
// bot's interaction callbacks, so it is made before the bot serves.
func (b *Bot) Endpoint(cfg EndpointConfig) (*Endpoint, error) {
	if len(cfg.PublicKey) != ed25519.PublicKeySize {
		return nil, ErrBadPublicKey
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	e := &Endpoint{b: b, cfg: cfg, pending: map[string]*httpAnswer{}, tokens: map[string]*httpAnswer{}}
	c := *b.s.Client
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &callbacks{e: e, next: next}
	b.s.Client = &c
	return e, nil
}

// ServeHTTP answers one interaction request.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxInteractionBytes)
	if !discordgo.VerifyInteraction(r, e.cfg.PublicKey) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	sec, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
	if skew := e.cfg.Now().Sub(time.Unix(sec, 0)); err != nil || skew > MaxInteractionSkew || skew < -MaxInteractionSkew {
		http.Error(w, "stale request timestamp", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil || i.ID == "" {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	// Discord sends an interaction once: one that was handled already is
	// a replay.
	if seen, err := e.b.svc.Seen(r.Context(), Platform, i.ID); err != nil || seen {
		http.Error(w, "interaction already handled", http.StatusUnauthorized)
		return
	}
	a := &httpAnswer{first: make(chan discordgo.InteractionResponse, 1), sent: make(chan struct{})}
	e.mu.Lock()
	if _, dup := e.pending[i.ID]; dup {
		e.mu.Unlock()
		http.Error(w, "interaction already in progress", http.StatusUnauthorized)
		return
	}
	e.pending[i.ID], e.tokens[i.Token] = a, a
	e.mu.Unlock()
	defer close(a.sent)

	handled := make(chan struct{})
	go func() {
		defer close(handled)
		e.b.onInteraction(e.b.s, &discordgo.InteractionCreate{Interaction: &i})
		if id, err := strconv.ParseInt(i.ID, 10, 64); err == nil {
			// Handled whatever its effect, so that a replay is refused.
			if err := e.b.svc.Handled(context.WithoutCancel(r.Context()), Platform, id); err != nil {
				e.b.log.Warn("discord: marking an interaction handled failed", "interaction", i.ID, "err", err)
			}
		}
		e.mu.Lock()
		delete(e.pending, i.ID)
		delete(e.tokens, i.Token)
		e.mu.Unlock()
	}()

	timer := time.NewTimer(answerWithin)
	defer timer.Stop()
	select {
	case resp := <-a.first:
		writeJSON(w, resp)
		flush(w)
		return
	case <-handled: // no answer at all (a request the bot ignores)
	case <-timer.C:
	}
	if d, ok := e.claim(&i, a, discordgo.InteractionResponse{}); ok {
		writeJSON(w, d)
	} else {
		writeJSON(w, <-a.first) // the bot's answer came meanwhile
	}
	flush(w)
}

// claim decides the HTTP answer of interaction i from the bot's first
// answer resp (zero when it has none yet): a deferral of the same kind.
// It returns false when the answer was decided already.
func (e *Endpoint) claim(i *discordgo.Interaction, a *httpAnswer, resp discordgo.InteractionResponse) (discordgo.InteractionResponse, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a.deferredAs != 0 {
		return discordgo.InteractionResponse{}, false
	}
	d := discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	switch resp.Type {
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		d.Type = discordgo.InteractionResponseDeferredMessageUpdate
	case 0:
		if i.Type == discordgo.InteractionMessageComponent {
			d.Type = discordgo.InteractionResponseDeferredMessageUpdate
		}
	}
	if d.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource && resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		d.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	a.deferredAs = d.Type
	return d, true
}

// flush sends what w holds.
func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeJSON writes v as the JSON answer.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// Serve registers the commands through the REST API and serves the
// endpoint on ln at path until ctx is done, then waits for the
// interactions in progress. It replaces Run: no gateway connection is
// opened.
func (e *Endpoint) Serve(ctx context.Context, ln net.Listener, path string) error {
	e.b.mu.Lock()
	e.b.ctx, e.b.stopped = ctx, false
	e.b.mu.Unlock()
	if err := e.b.register(); err != nil {
		ln.Close()
		return err
	}
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.Handle(path, e)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
		err = fmt.Errorf("discord: interactions endpoint: %w", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	e.b.mu.Lock()
	e.b.stopped = true
	e.b.mu.Unlock()
	e.b.inFlight.Wait()
	return err
}

// callbacks is the bot's HTTP transport while it serves the endpoint: an
// interaction callback of an interaction the endpoint holds becomes the
// HTTP answer (as a deferral) and, when it carries a message, an edit of
// @original (or a follow-up when the deferral was of the tapped message
// and the callback posts a new one).
type callbacks struct {
	e    *Endpoint
	next http.RoundTripper
}

func (c *callbacks) RoundTrip(r *http.Request) (*http.Response, error) {
	p := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	n := len(p)
	if w := slices.Index(p, "webhooks"); w >= 0 && w+2 < n {
		c.e.mu.Lock()
		a := c.e.tokens[p[w+2]]
		c.e.mu.Unlock()
		if a != nil {
			return c.afterAnswer(r, a)
		}
	}
	if r.Method != http.MethodPost || n < 4 || p[n-4] != "interactions" || p[n-1] != "callback" {
		return c.next.RoundTrip(r)
	}
	id, token := p[n-3], p[n-2]
	c.e.mu.Lock()
	a := c.e.pending[id]
	c.e.mu.Unlock()
	if a == nil {
		return c.next.RoundTrip(r)
	}
	payload, files, err := readCallback(r)
	if err != nil {
		return nil, fmt.Errorf("discord: reroute callback: %w", err)
	}
	var head struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data *struct {
			Flags discordgo.MessageFlags `json:"flags"`
		} `json:"data"`
	}
	if err := json.Unmarshal(payload, &head); err != nil {
		return nil, fmt.Errorf("discord: reroute callback: %w", err)
	}
	resp := discordgo.InteractionResponse{Type: head.Type}
	if head.Data != nil {
		resp.Data = &discordgo.InteractionResponseData{Flags: head.Data.Flags}
	}
	i := &discordgo.Interaction{ID: id, Type: discordgo.InteractionApplicationCommand}
	if resp.Type == discordgo.InteractionResponseDeferredMessageUpdate || resp.Type == discordgo.InteractionResponseUpdateMessage {
		i.Type = discordgo.InteractionMessageComponent
	}
	if d, ok := c.e.claim(i, a, resp); ok {
		a.first <- d
	}
	c.e.mu.Lock()
	deferredAs := a.deferredAs
	c.e.mu.Unlock()
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource && resp.Type != discordgo.InteractionResponseUpdateMessage {
		return noContent(r), nil
	}
	// The message itself: an edit of the deferred original, or a
	// follow-up when the original is the tapped message and this is a
	// new one.
	var data json.RawMessage
	var raw struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(payload, &raw); err != nil {
		return nil, fmt.Errorf("discord: reroute callback: %w", err)
	}
	data = raw.Data
	method, path := http.MethodPatch, "messages/@original"
	if deferredAs == discordgo.InteractionResponseDeferredMessageUpdate && resp.Type == discordgo.InteractionResponseChannelMessageWithSource {
		method, path = http.MethodPost, ""
	}
	app := c.e.b.cfg.AppID
	base := r.URL.String()[:strings.Index(r.URL.String(), "/interactions/")]
	target := base + "/webhooks/" + app + "/" + token
	if path != "" {
		target += "/" + path
	}
	body, ctype, err := writeCallback(data, files)
	if err != nil {
		return nil, fmt.Errorf("discord: reroute callback: %w", err)
	}
	req, err := http.NewRequestWithContext(r.Context(), method, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = r.Header.Clone()
	req.Header.Set("Content-Type", ctype)
	req.Header.Del("Content-Length")
	return c.afterAnswer(req, a)
}

// afterAnswer sends r, a webhook request on an interaction whose HTTP
// answer is a, once that answer is sent; while Discord has not taken the
// answer in (404), it tries again a few times.
func (c *callbacks) afterAnswer(r *http.Request, a *httpAnswer) (*http.Response, error) {
	select {
	case <-a.sent:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	var body []byte
	if r.Body != nil {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
		r.Body.Close()
	}
	wait := 5 * time.Millisecond
	for try := 0; ; try++ {
		req := r.Clone(r.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		resp, err := c.next.RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusNotFound || try == 8 {
			return resp, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		select {
		case <-time.After(wait):
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
		wait *= 2
	}
}

// noContent returns a 204 answer to r.
func noContent(r *http.Request) *http.Response {
	return &http.Response{
		Status: "204 No Content", StatusCode: http.StatusNoContent, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: http.NoBody, Request: r,
	}
}

// file is a file part of a multipart callback.
type file struct {
	field, name, ctype string
	data               []byte
}

// readCallback returns the JSON of a callback request and its files.
func readCallback(r *http.Request) ([]byte, []file, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return body, nil, nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var payload []byte
	var files []file
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, err
		}
		if part.FormName() == "payload_json" {
			payload = data
			continue
		}
		files = append(files, file{field: part.FormName(), name: part.FileName(), ctype: part.Header.Get("Content-Type"), data: data})
	}
	return payload, files, nil
}

// writeCallback returns the body of a webhook request with the JSON
// data (only the fields a webhook message takes) and the files.
func writeCallback(data json.RawMessage, files []file) ([]byte, string, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, "", err
	}
	kept := map[string]json.RawMessage{}
	for _, k := range []string{"content", "components", "embeds", "allowed_mentions", "attachments", "flags"} {
		if v, ok := fields[k]; ok {
			kept[k] = v
		}
	}
	js, err := json.Marshal(kept)
	if err != nil {
		return nil, "", err
	}
	if len(files) == 0 {
		return js, "application/json", nil
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	pw, err := mw.CreateFormField("payload_json")
	if err != nil {
		return nil, "", err
	}
	pw.Write(js)
	for _, f := range files {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name=%q; filename=%q`, f.field, f.name)}
		h["Content-Type"] = []string{f.ctype}
		fw, err := mw.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		fw.Write(f.data)
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), mw.FormDataContentType(), nil
}
