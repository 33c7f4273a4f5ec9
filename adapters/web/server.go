package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

//go:embed page
var pageFiles embed.FS

// Config configures the web board's server.
type Config struct {
	// Service holds the games.
	Service *session.Service
	// Dispatchers decide the moves made on the page, by the game's
	// platform: a move on a Telegram game is a tap on its Telegram board.
	Dispatchers map[session.Platform]*adapters.Dispatcher
	// Fronts edit the chats' board messages (and post a rematch's), by
	// platform; a platform without one keeps its messages as they are.
	Fronts adapters.Fronts
	// Signer checks the tokens of links and sessions.
	Signer *Signer
	// TelegramToken is the bot token a Mini App's initData is checked
	// with; empty refuses every Mini App.
	TelegramToken string
	// InitDataAge is how old a Mini App's initData may be; zero means a
	// day.
	InitDataAge time.Duration
	// SessionTTL is how long a session token lives; the page renews it
	// while it is open. Zero means an hour.
	SessionTTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives errors; nil discards them. Tokens, secrets and
	// initData are never logged.
	Log *slog.Logger
}

// Server serves the web board: the page, its API and its event stream.
type Server struct {
	cfg     Config
	log     *slog.Logger
	mux     *http.ServeMux
	limit   *userLimits
	streams *userLimits
}

// NewServer returns the web board's server.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Service == nil || cfg.Signer == nil {
		return nil, errors.New("web: a server needs a Service and a Signer")
	}
	if cfg.InitDataAge <= 0 {
		cfg.InitDataAge = 24 * time.Hour
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, mux: http.NewServeMux(), limit: newUserLimits(), streams: newUserLimits()}
	static, _ := fs.Sub(pageFiles, "page")
	files := http.FileServerFS(static)
	s.mux.Handle("GET /{$}", files)
	s.mux.Handle("GET /app.js", files)
	s.mux.Handle("GET /app.css", files)
	s.mux.HandleFunc("POST /api/session", s.session)
	s.mux.HandleFunc("GET /api/game", s.game)
	s.mux.HandleFunc("POST /api/act", s.act)
	s.mux.HandleFunc("GET /api/events", s.events)
	return s, nil
}

// contentPolicy lets the page load its own files, and Telegram's script;
// Telegram's web clients may frame it.
const contentPolicy = "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"frame-ancestors 'self' https://web.telegram.org https://*.telegram.org; base-uri 'none'; form-action 'none'"

// ServeHTTP serves one request, with the security headers every answer
// carries.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("web: a request panicked", "path", r.URL.Path, "panic", fmt.Sprint(p))
			refuse(w, http.StatusInternalServerError, "something went wrong")
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// maxBody bounds a request's body.
const maxBody = 16 << 10

// Link returns the path and query of the page for grant g, to put after
// the server's public URL: the token rides in the fragment, which
// browsers send to no server.
func (s *Server) Link(g Grant) string {
	return "/#t=" + s.cfg.Signer.Sign(g)
}

// apiError is an answer that is not a game: a refusal of the request.
type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// refuse answers status with a short reason.
func refuse(w http.ResponseWriter, status int, why string) {
	writeJSON(w, status, apiError{Error: why})
}

// grant returns the request's grant from its bearer token (or, for the
// event stream, which cannot set headers, its t parameter), or refuses
// the request with 401.
func (s *Server) grant(w http.ResponseWriter, r *http.Request) (Grant, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		tok = r.URL.Query().Get("t")
	}
	g, err := s.cfg.Signer.Verify(tok, s.cfg.Now())
	if err != nil {
		refuse(w, http.StatusUnauthorized, "not signed in, or the link expired")
		return Grant{}, false
	}
	return g, true
}

// sessionRequest asks for a session token: with a Mini App's initData,
// or with a token held (to renew it, or to move to a rematch of its
// game).
type sessionRequest struct {
	InitData string         `json:"initData"`
	Token    string         `json:"token"`
	Game     session.GameID `json:"game"`
}

// sessionAnswer is a session token and when it expires (unix seconds).
type sessionAnswer struct {
	Token   string         `json:"token"`
	Game    session.GameID `json:"game"`
	Expires int64          `json:"expires"`
}

// session exchanges proof of a user for a session token of a game they
// hold a seat in.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	var req sessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		refuse(w, http.StatusBadRequest, "bad request")
		return
	}
	now := s.cfg.Now()
	var g Grant
	var v session.View // the game, when read on the way
	switch {
	case req.InitData != "":
		d, err := VerifyInitData(req.InitData, s.cfg.TelegramToken, s.cfg.InitDataAge, now)
		if err != nil {
			refuse(w, http.StatusUnauthorized, "the Telegram sign-in is not valid")
			return
		}
		g = Grant{Platform: "telegram", User: strconv.FormatInt(d.User.ID, 10), Game: req.Game}
		if g.Game == "" {
			g.Game = session.GameID(d.StartParam)
		}
	case req.Token != "":
		held, err := s.cfg.Signer.Verify(req.Token, now)
		if err != nil {
			refuse(w, http.StatusUnauthorized, "not signed in, or the link expired")
			return
		}
		g = held
		if req.Game != "" && req.Game != held.Game {
			// Another game of the same chat, such as a rematch.
			old, err := s.cfg.Service.Game(r.Context(), held.Game)
			if err != nil {
				refuse(w, http.StatusForbidden, "no such game")
				return
			}
			if v, err = s.cfg.Service.Game(r.Context(), req.Game); err != nil || v.Platform() != old.Platform() || v.Chat() != old.Chat() {
				refuse(w, http.StatusForbidden, "no such game")
				return
			}
			g.Game = req.Game
		}
	default:
		refuse(w, http.StatusBadRequest, "bad request")
		return
	}
	if !s.limit.allow(g, now) {
		refuse(w, http.StatusTooManyRequests, "too many requests")
		return
	}
	if v.ID() == "" {
		v, _ = s.cfg.Service.Game(r.Context(), g.Game) // none: refused below
	}
	if v.ID() != g.Game || v.Platform() != g.Platform || v.SideOf(g.User) == engine.Empty {
		refuse(w, http.StatusForbidden, "you have no seat in this game")
		return
	}
	g.Expires = now.Add(s.cfg.SessionTTL).Unix()
	writeJSON(w, http.StatusOK, sessionAnswer{Token: s.cfg.Signer.Sign(g), Game: g.Game, Expires: g.Expires})
}

// game answers the state of the grant's game.
func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	g, ok := s.grant(w, r)
	if !ok {
		return
	}
	v, err := s.cfg.Service.Game(r.Context(), g.Game)
	if err != nil {
		refuse(w, http.StatusNotFound, "no such game")
		return
	}
	writeJSON(w, http.StatusOK, stateOf(v, g.User, s.lang(r, g, v)))
}

// lang returns the language to show the game in to the grant's user:
// their setting, else the page's locale parameter.
func (s *Server) lang(r *http.Request, g Grant, v session.View) render.Lang {
	d := s.cfg.Dispatchers[g.Platform]
	locale := r.URL.Query().Get("locale")
	if d == nil {
		return render.LangOf(locale)
	}
	return d.Lang(r.Context(), adapters.Request{Chat: v.Chat(), User: session.User{ID: g.User}, Locale: locale})
}

// actRequest is a move or a button of the page.
type actRequest struct {
	// Kind is place, undo, hint, resign, rematch, undoAccept or
	// undoDecline.
	Kind   string `json:"kind"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	MoveNo int    `json:"moveNo"`
	// Nonce names the request, so that it takes effect once however
	// often it arrives.
	Nonce  string `json:"nonce"`
	Locale string `json:"locale"`
}

// actAnswer is what an act came to: the texts for the actor alone (a
// refusal, say) and the game as it is now.
type actAnswer struct {
	Notices []string `json:"notices"`
	State   state    `json:"state"`
}

var nonceRE = regexp.MustCompile(`^[A-Za-z0-9_-]{8,40}$`)

// actKinds are the page's acts and the buttons they are.
var actKinds = map[string]render.ActionKind{
	"place": render.Place, "undo": render.Undo, "hint": render.Hint, "resign": render.Resign,
	"rematch": render.Rematch, "undoAccept": render.UndoAccept, "undoDecline": render.UndoDecline,
}

// act decides a move or a button of the page as the tap of that button
// on the chat's board, and carries it out: the chat's message is edited,
// and the page hears what is for the actor alone.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	g, ok := s.grant(w, r)
	if !ok {
		return
	}
	if !s.limit.allow(g, s.cfg.Now()) {
		refuse(w, http.StatusTooManyRequests, "too many requests")
		return
	}
	var req actRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !nonceRE.MatchString(req.Nonce) {
		refuse(w, http.StatusBadRequest, "bad request")
		return
	}
	kind, known := actKinds[req.Kind]
	d := s.cfg.Dispatchers[g.Platform]
	if !known || d == nil {
		refuse(w, http.StatusBadRequest, "bad request")
		return
	}
	v, err := s.cfg.Service.Game(r.Context(), g.Game)
	if err != nil {
		refuse(w, http.StatusNotFound, "no such game")
		return
	}
	var seat session.Seat
	if side := v.SideOf(g.User); side != engine.Empty {
		seat = v.Seat(side)
	}
	data := adapters.EncodeAction(render.Action{Kind: kind, Game: g.Game, MoveNo: req.MoveNo, Cell: engine.Point{X: req.X, Y: req.Y}})
	areq := adapters.Request{
		Chat: v.Chat(), User: session.User{ID: g.User, Name: seat.User.Name, Handle: seat.User.Handle}, Locale: req.Locale,
		Message: v.Message(), HasButton: true, Update: "web:" + g.User + ":" + req.Nonce,
	}
	// A page that gives up waiting does not undo what was decided: the
	// chat's board is shown all the same.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), actTimeout)
	defer cancel()
	f := &pageFront{platform: g.Platform, chat: s.cfg.Fronts[g.Platform]}
	dec := d.Tap(ctx, areq, data)
	if binds := adapters.Carry(ctx, f, dec, s.cfg.Fronts); len(binds) > 0 {
		if err := d.Bind(ctx, binds); err != nil {
			s.log.Error("web: binding a posted board failed", "game", g.Game, "err", err)
		}
	}
	// The game as the decision shows it; read only when it shows none
	// (a refusal that says why and redraws nothing).
	now, shown := shownGame(dec, g.Game)
	if !shown {
		if now, err = s.cfg.Service.Game(ctx, g.Game); err != nil {
			refuse(w, http.StatusNotFound, "no such game")
			return
		}
	}
	ans := actAnswer{Notices: f.said(), State: stateOf(now, g.User, dec.Lang)}
	if ans.Notices == nil {
		ans.Notices = []string{}
	}
	writeJSON(w, http.StatusOK, ans)
}

// shownGame returns game as decision d shows it, if it does.
func shownGame(d adapters.Decision, game session.GameID) (session.View, bool) {
	for _, e := range d.Effects {
		if s, ok := e.(adapters.Show); ok && s.Game.ID() == game {
			return s.Game, true
		}
	}
	return session.View{}, false
}

// actTimeout bounds the carrying out of one act.
const actTimeout = time.Minute

// events streams the grant's game to the page as server-sent events: an
// event "state" with the game each time it changes, its version as the
// event's id. A page that reconnects sends the last id it saw and gets
// the game at once if it changed since.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	g, ok := s.grant(w, r)
	if !ok {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		refuse(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	if !s.streams.open(g) {
		refuse(w, http.StatusTooManyRequests, "too many open boards")
		return
	}
	defer s.streams.close(g)
	ctx := r.Context()
	views, err := s.cfg.Service.Watch(ctx, g.Game)
	if err != nil {
		refuse(w, http.StatusServiceUnavailable, "the store does not answer")
		return
	}
	v, err := s.cfg.Service.Game(ctx, g.Game)
	if err != nil {
		refuse(w, http.StatusNotFound, "no such game")
		return
	}
	last, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	// One language for the stream: asking for it with every change would
	// read the user's settings once per change per viewer.
	lang := s.lang(r, g, v)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher.Flush() // the page knows at once that it is connected
	send := func(v session.View) bool {
		if v.Version() <= last {
			return true
		}
		last = v.Version()
		data, _ := json.Marshal(stateOf(v, g.User, lang))
		if _, err := fmt.Fprintf(w, "id: %d\nevent: state\ndata: %s\n\n", v.Version(), data); err != nil {
			return false
		}
		flusher.Flush()
		return true
	}
	if !send(v) {
		return
	}
	keepAlive := time.NewTicker(25 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case v, ok := <-views:
			if !ok {
				return // the page reconnects and reads afresh
			}
			if !send(v) {
				return
			}
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			flusher.Flush()
		case <-ctx.Done():
			return
		}
	}
}

// userLimits are per-user limits: a rate of requests (allow) and a
// number of open streams (open, close).
type userLimits struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	streams map[string]int
}

// bucket is a token bucket.
type bucket struct {
	tokens float64
	at     time.Time
}

// Per-user limits: requests a second, the burst, and open streams.
const (
	userRate    = 5
	userBurst   = 20
	userStreams = 8
)

func newUserLimits() *userLimits {
	return &userLimits{buckets: map[string]*bucket{}, streams: map[string]int{}}
}

func userKey(g Grant) string { return string(g.Platform) + ":" + g.User }

// allow reports whether the grant's user may make one more request now.
func (l *userLimits) allow(g Grant, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := userKey(g)
	b := l.buckets[k]
	if b == nil {
		if len(l.buckets) > 100000 {
			clear(l.buckets) // forget the idle rather than grow
		}
		b = &bucket{tokens: userBurst, at: now}
		l.buckets[k] = b
	}
	b.tokens = min(userBurst, b.tokens+now.Sub(b.at).Seconds()*userRate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// open counts one more stream of the grant's user, unless they have
// userStreams open.
func (l *userLimits) open(g Grant) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := userKey(g)
	if l.streams[k] >= userStreams {
		return false
	}
	l.streams[k]++
	return true
}

// close counts one stream of the grant's user less.
func (l *userLimits) close(g Grant) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := userKey(g)
	if l.streams[k]--; l.streams[k] <= 0 {
		delete(l.streams, k)
	}
}
