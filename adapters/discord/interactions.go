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
	e.mu.Lock()
	if e.pending[i.ID] {
		e.mu.Unlock()
		http.Error(w, "interaction already in progress", http.StatusUnauthorized)
		return
	}
	e.pending[i.ID] = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.pending, i.ID)
		e.mu.Unlock()
	}()

	first, written := make(chan *discordgo.InteractionResponse), make(chan struct{})
	respond := func(ctx context.Context, resp *discordgo.InteractionResponse) error {
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
		e.b.serve(&i, responder{respond: respond, http: true}, deadline, true)
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
