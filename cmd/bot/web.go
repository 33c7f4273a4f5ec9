package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/web"
	"github.com/boardbot/boardbot/session"
)

// WebConfig is the web section: the web board, a page that shows a game
// as a real board and plays it on the same session as the chat.
type WebConfig struct {
	// Listen is the address the web board is served on; empty serves it
	// only for the terminal game, on 127.0.0.1:8080 or, when that port
	// is taken, another free one.
	Listen string `yaml:"listen"`
	// PublicURL is the address users reach the web board at (https for
	// Telegram and Discord); empty means http:// and the address served.
	PublicURL string `yaml:"public_url"`
	// Secret signs the board's links; empty means one the bot makes and
	// keeps in the store.
	Secret Secret `yaml:"secret"`
	// LinkTTL is how long a board's link stays valid.
	LinkTTL time.Duration `yaml:"link_ttl"`
}

// forChats reports whether the web board serves the chats' players
// (web.listen is set), whose boards then carry its 🌐 button; without it,
// it serves the terminal alone, on loopback.
func (w WebConfig) forChats() bool { return w.Listen != "" }

// terminalWebAddr is where the terminal's web board is served when the
// port is free.
const terminalWebAddr = "127.0.0.1:8080"

// webBoard is a web board bound to its address, ready to serve.
type webBoard struct {
	ln     net.Listener
	srv    *web.Server
	public string
	ttl    time.Duration
}

// listenWeb binds the web board's address: web.listen, or for the
// terminal alone (terminal set, no web.listen) 127.0.0.1:8080 when free
// and another free port when not. It returns nil when no web board is to
// be served.
func listenWeb(cfg WebConfig, terminal bool) (net.Listener, error) {
	addr := cfg.Listen
	if addr == "" {
		if !terminal {
			return nil, nil
		}
		if ln, err := net.Listen("tcp", terminalWebAddr); err == nil {
			return ln, nil
		}
		addr = "127.0.0.1:0" // a busy port never stops the terminal game
	}
	return net.Listen("tcp", addr)
}

// newWebBoard makes the web board served on ln: its moves are decided by
// the dispatchers and shown in the chats by the fronts.
func newWebBoard(ctx context.Context, cfg Config, ln net.Listener, svc *session.Service, dispatchers map[session.Platform]*adapters.Dispatcher, fronts adapters.Fronts, log *slog.Logger) (*webBoard, error) {
	secret := []byte(cfg.Web.Secret)
	if len(secret) == 0 {
		var err error
		if secret, err = svc.Secret(ctx, "web"); err != nil {
			return nil, err
		}
	}
	signer, err := web.NewSigner(secret)
	if err != nil {
		return nil, err
	}
	srv, err := web.NewServer(web.Config{
		Service: svc, Dispatchers: dispatchers, Fronts: fronts, Signer: signer,
		TelegramToken: string(cfg.Telegram.Token), Log: log.With("platform", "web"),
	})
	if err != nil {
		return nil, err
	}
	public := strings.TrimSuffix(cfg.Web.PublicURL, "/")
	if public == "" {
		public = "http://" + ln.Addr().String()
	}
	return &webBoard{ln: ln, srv: srv, public: public, ttl: cfg.Web.LinkTTL}, nil
}

// link returns the link that lets user act in game, on platform p, until
// the link's lifetime has passed.
func (w *webBoard) link(p session.Platform, game session.GameID, user string) string {
	return w.public + w.srv.Link(web.Grant{Platform: p, User: user, Game: game, Expires: time.Now().Add(w.ttl).Unix()})
}

// serve serves the web board until ctx is done.
func (w *webBoard) serve(ctx context.Context) error {
	// Requests live in ctx: when it ends, the event streams, which never
	// go idle, end too, and Shutdown waits only for moves in progress
	// (the server carries those out whatever their request's context).
	hs := &http.Server{Handler: w.srv, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(w.ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("web: %w", err)
		}
		return nil
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	hs.Close()
	return nil
}
