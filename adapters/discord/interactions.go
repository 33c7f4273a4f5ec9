package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/boardbot/boardbot/session"
)

// MaxInteractionSkew is how far an interaction's signed timestamp may be
// from the clock before the endpoint refuses it as a replay.
const MaxInteractionSkew = 5 * time.Minute

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
	// Reclaim, when set, ticks the renewal of the claims on the deferred
	// interactions this replica keeps, and the finishing of those a
	// replica that died (or stopped) left (see Endpoint). Replicas
	// sharing a store set it; a single process needs none.
	Reclaim <-chan time.Time
}

// Endpoint serves Discord's HTTP interactions, the stateless alternative
// to the gateway that lets replicas behind a load balancer share the
// work: every request's Ed25519 signature and timestamp are checked
// (401 otherwise), PING is answered with PONG, and every other
// interaction is handled as one from the gateway, its first answer being
// the HTTP answer, written once the effects it shows committed: a tap's
// updated board (type 7), a command's message (type 4), or, when the
// answer cannot be ready within Config.DeferAfter of the request's
// arrival (the AI thinks long), a deferral (type 6 or 5) followed by one
// edit of the original. A first answer with files (a board with its
// picture, a chart) is a deferral and an edit, as Discord takes no files
// in an HTTP answer. An interaction id that was handled (on any replica
// sharing the store) is refused.
//
// A deferral is kept in the session's inbox, with the interaction and
// its token, as it is written, until the interaction was answered to
// its end: when its replica dies meanwhile, a replica that lives takes
// it over on a tick of EndpointConfig.Reclaim once its claim expired
// (session.ClaimTTL), and finishes it through the interaction's token,
// which Discord keeps for fifteen minutes; its effect commits once, with
// the interaction's mark.
type Endpoint struct {
	b   *Bot
	cfg EndpointConfig

	mu      sync.Mutex
	pending map[string]bool // interactions in progress, by id
}

// Endpoint returns the Interactions Endpoint of the bot.
func (b *Bot) Endpoint(cfg EndpointConfig) (*Endpoint, error) {
	if len(cfg.PublicKey) != ed25519.PublicKeySize {
		return nil, ErrBadPublicKey
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Endpoint{b: b, cfg: cfg, pending: map[string]bool{}}, nil
}

// ServeHTTP answers one interaction request.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Discord's three seconds run from here.
	deadline := e.b.cfg.After(e.b.cfg.DeferAfter)
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
	release, ok := e.hold(i.ID)
	if !ok {
		http.Error(w, "interaction already in progress", http.StatusUnauthorized)
		return
	}
	defer release()

	first, written := make(chan *discordgo.InteractionResponse), make(chan struct{})
	var keeping sync.WaitGroup
	respond := func(ctx context.Context, resp *discordgo.InteractionResponse) error {
		if isDeferral(resp) && e.cfg.Reclaim != nil {
			// Kept while it is written, so that a slow store does not
			// hold up the deferral past Discord's deadline.
			keeping.Add(1)
			go func() {
				defer keeping.Done()
				e.keep(ctx, &i, body, resp)
			}()
		}
		select {
		case first <- resp:
		case <-r.Context().Done():
			return fmt.Errorf("discord: answer interaction %s: %w", i.ID, r.Context().Err())
		case <-ctx.Done():
			return ctx.Err()
		}
		<-written
		return nil
	}
	handled := make(chan struct{})
	go func() {
		defer close(handled)
		e.b.serve(&i, responder{respond: respond, http: true, settle: keeping.Wait}, deadline, true)
	}()
	select {
	case resp := <-first:
		writeJSON(w, resp)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		close(written)
	case <-handled:
		// No answer at all: an interaction the bot does not handle.
		http.Error(w, "unsupported interaction", http.StatusBadRequest)
	case <-r.Context().Done():
	}
}

// tokenLife is how long Discord keeps an interaction's token.
const tokenLife = 15 * time.Minute

// deferred is a deferred interaction as the inbox keeps it: the request's
// body, the deferral it got and when.
type deferred struct {
	Event     json.RawMessage                   `json:"event"`
	Type      discordgo.InteractionResponseType `json:"type"`
	Ephemeral bool                              `json:"ephemeral,omitempty"`
	At        time.Time                         `json:"at"`
}

// isDeferral reports whether resp is a deferral (type 5 or 6).
func isDeferral(resp *discordgo.InteractionResponse) bool {
	return resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource || resp.Type == discordgo.InteractionResponseDeferredMessageUpdate
}

// keep keeps interaction i, whose request body was body, in the inbox
// with the deferral resp that answers it. A deferral the store could not
// keep, or that its replica died before it kept, goes all the same, as
// the interaction would fail without it, but no other replica can finish
// it.
func (e *Endpoint) keep(ctx context.Context, i *discordgo.Interaction, body []byte, resp *discordgo.InteractionResponse) {
	id, err := strconv.ParseInt(i.ID, 10, 64)
	if err != nil {
		return // not a Discord id: nothing to keep it under
	}
	d := deferred{Event: body, Type: resp.Type, At: e.cfg.Now()}
	d.Ephemeral = resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
	data, err := json.Marshal(d)
	if err == nil {
		_, _, err = e.b.svc.Receive(ctx, Platform, []session.InboxItem{{ID: id, Data: data}})
	}
	if err != nil {
		e.b.log.Error("discord: keeping a deferred interaction failed; no other replica can finish it", "interaction", i.ID, "err", err)
	}
}

// reclaim, on each tick of EndpointConfig.Reclaim until ctx ends, renews
// the claims on the deferred interactions this replica keeps and
// finishes those another replica left, and those of its own whose
// handling ended before their end was recorded.
func (e *Endpoint) reclaim(ctx context.Context) {
	handling := func(id int64) bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.pending[strconv.FormatInt(id, 10)]
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.cfg.Reclaim:
		}
		taken, err := e.b.svc.Reclaim(ctx, Platform, handling)
		if err != nil {
			e.b.log.Error("discord: reclaiming deferred interactions failed", "err", err)
			continue
		}
		for _, it := range taken {
			go e.finish(it)
		}
	}
}

// finish answers to its end a deferred interaction another replica kept:
// its original is edited as the deferring replica would have. One whose
// token expired, or whose deferral never reached Discord (it has no
// original: the user saw the interaction fail), is only marked handled,
// so that nothing commits for it.
func (e *Endpoint) finish(it session.InboxItem) {
	var d deferred
	var i discordgo.Interaction
	if err := json.Unmarshal(it.Data, &d); err != nil || json.Unmarshal(d.Event, &i) != nil || i.ID != strconv.FormatInt(it.ID, 10) {
		e.b.log.Error("discord: an unreadable deferred interaction was dropped", "interaction", it.ID)
		e.drop(strconv.FormatInt(it.ID, 10))
		return
	}
	release, ok := e.hold(i.ID)
	if !ok {
		return
	}
	defer release()
	if e.cfg.Now().Sub(d.At) >= tokenLife {
		e.drop(i.ID)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), handleTimeout)
	defer cancel()
	if _, err := e.b.s.InteractionResponse(&i, discordgo.WithContext(ctx)); err != nil {
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound {
			e.drop(i.ID)
			return
		}
		e.b.logErr("find a deferred answer", &i, err) // tried again on the next tick
		return
	}
	e.b.log.Info("discord: finishing an interaction another replica deferred", "interaction", i.ID)
	e.b.serve(&i, responder{deferred: d.Type, ephemeral: d.Ephemeral, respond: func(context.Context, *discordgo.InteractionResponse) error {
		return errors.New("discord: the interaction was answered already")
	}}, nil, true)
}

// drop marks interaction id handled and leaves it out of the inbox.
func (e *Endpoint) drop(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), handleTimeout)
	defer cancel()
	if err := e.b.svc.Handled(ctx, Platform, session.Finished{Update: id}); err != nil {
		e.b.log.Error("discord: dropping a deferred interaction failed", "interaction", id, "err", err)
	}
	if e.b.cfg.Handled != nil {
		e.b.cfg.Handled(id)
	}
}

// hold marks interaction id in progress in this process and returns the
// function that ends that, or false when it is in progress already.
func (e *Endpoint) hold(id string) (release func(), ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending[id] {
		return nil, false
	}
	e.pending[id] = true
	return func() {
		e.mu.Lock()
		delete(e.pending, id)
		e.mu.Unlock()
	}, true
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
	if e.cfg.Reclaim != nil {
		reclaimed := make(chan struct{})
		defer func() { <-reclaimed }()
		go func() {
			defer close(reclaimed)
			e.reclaim(ctx)
		}()
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
	if e.cfg.Reclaim != nil {
		// What is left unfinished goes to another replica at once.
		rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if rerr := e.b.svc.Release(rctx, Platform); rerr != nil {
			e.b.log.Error("discord: releasing the deferred interactions failed; another replica finishes them when their claims expire", "err", rerr)
		}
	}
	return err
}
