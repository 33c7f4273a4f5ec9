package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/adapters/web/webtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// chatFront records the edits of the chat's messages a web move makes.
type chatFront struct {
	mu    sync.Mutex
	edits []adapters.Place
	sent  []string
}

func (f *chatFront) Platform() session.Platform                  { return "telegram" }
func (f *chatFront) Notify(context.Context, string) error        { return nil }
func (f *chatFront) Attach(context.Context, adapters.File) error { return nil }
func (f *chatFront) Send(_ context.Context, chat string, m adapters.Message) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, chat)
	return "m" + strconv.Itoa(100+len(f.sent)), nil
}
func (f *chatFront) Edit(_ context.Context, at adapters.Place, _ adapters.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.edits = append(f.edits, at)
	return nil
}
func (f *chatFront) editCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.edits)
}

// webHarness is a web server on a bbolt store, its games on the
// "telegram" platform, with a clock the test sets.
type webHarness struct {
	t      testing.TB
	svc    *session.Service
	d      *adapters.Dispatcher
	chat   *chatFront
	signer *Signer
	srv    *httptest.Server
	now    atomic.Int64
}

func newWebHarness(t testing.TB) *webHarness {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var seed atomic.Uint64
	h := &webHarness{t: t, chat: &chatFront{}}
	// The clock starts at the wall clock's time, so that links the
	// browser tests open are not long expired for the page, and is the
	// test's from there on.
	h.now.Store(time.Now().Unix())
	h.svc = session.New(st, &session.Config{NewSeed: func() uint64 { return seed.Add(1) }, ThinkTime: 10 * time.Millisecond})
	h.d = adapters.NewDispatcher(h.svc, "telegram", "bot", nil)
	h.signer, _ = NewSigner([]byte("the web tests' server secret"))
	s, err := NewServer(Config{
		Service: h.svc, Dispatchers: map[session.Platform]*adapters.Dispatcher{"telegram": h.d},
		Fronts: adapters.Fronts{"telegram": h.chat}, Signer: h.signer, TelegramToken: telegramtest.Token,
		Now: func() time.Time { return time.Unix(h.now.Load(), 0) },
	})
	if err != nil {
		t.Fatal(err)
	}
	h.srv = httptest.NewServer(s)
	t.Cleanup(h.srv.Close)
	return h
}

// play starts a game in chat for user (telegram ids) with /play args and
// binds it to a message, as a chat would.
func (h *webHarness) play(chat, user, args string) session.View {
	h.t.Helper()
	req := adapters.Request{Chat: chat, User: session.User{ID: user, Name: "U" + user}, Locale: "en"}
	dec := h.d.Text(context.Background(), req, "/play "+args)
	binds := adapters.Carry(context.Background(), h.chat, dec, nil)
	if err := h.d.Bind(context.Background(), binds); err != nil || len(binds) != 1 {
		h.t.Fatalf("/play %s: binds %v, %v", args, binds, err)
	}
	v, err := h.svc.Game(context.Background(), binds[0].Game)
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// token returns a token for user in game, valid for an hour.
func (h *webHarness) token(user string, game session.GameID) string {
	return h.signer.Sign(Grant{Platform: "telegram", User: user, Game: game, Expires: h.now.Load() + 3600})
}

// call makes an API call with token and returns the status and body.
func (h *webHarness) call(method, path, token string, body any) (int, []byte) {
	h.t.Helper()
	var r io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		r = strings.NewReader(string(data))
	}
	req, _ := http.NewRequest(method, h.srv.URL+path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// act posts an act and returns the answer.
func (h *webHarness) act(token string, a actRequest) actAnswer {
	h.t.Helper()
	if a.Nonce == "" {
		a.Nonce = fmt.Sprintf("nonce-%d-%d-%d", a.X, a.Y, a.MoveNo) + a.Kind
	}
	status, body := h.call("POST", "/api/act", token, a)
	if status != http.StatusOK {
		h.t.Fatalf("act %+v: %d %s", a, status, body)
	}
	var ans actAnswer
	if err := json.Unmarshal(body, &ans); err != nil {
		h.t.Fatal(err)
	}
	return ans
}

// TestWebMoveIsATapOnTheChatsBoard plays from the page: the move and the
// AI's reply are stored, the chat's board message is edited, and the
// page gets the game; the same act again, a stale move and an occupied
// cell change nothing and are refused in the user's words.
func TestWebMoveIsATapOnTheChatsBoard(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("500", "5", "7x7 k4 easy")
	tok := h.token("5", v.ID())
	status, body := h.call("GET", "/api/game", tok, nil)
	var s state
	if status != http.StatusOK || json.Unmarshal(body, &s) != nil || s.Width != 7 || s.You != 0 || !s.Running || len(s.Moves) != 0 {
		t.Fatalf("game: %d %s", status, body)
	}
	a := actRequest{Kind: "place", X: 3, Y: 3, MoveNo: 0, Nonce: "first-move-nonce"}
	ans := h.act(tok, a)
	if len(ans.State.Moves) != 2 || ans.State.Moves[0] != [2]int{3, 3} || len(ans.Notices) != 0 {
		t.Fatalf("after the move: %+v", ans)
	}
	if h.chat.editCount() != 1 || h.chat.edits[0] != (adapters.Place{Platform: "telegram", Chat: "500", Message: v.Message()}) {
		t.Fatalf("chat edits %+v, want one of the game's message", h.chat.edits)
	}
	// The same request again (a doubled POST): nothing changes.
	again := h.act(tok, a)
	if len(again.State.Moves) != 2 {
		t.Errorf("the doubled act changed the game: %+v", again.State.Moves)
	}
	// A stale move and an occupied cell are refused with a notice.
	for _, bad := range []actRequest{
		{Kind: "place", X: 0, Y: 0, MoveNo: 0},
		{Kind: "place", X: 3, Y: 3, MoveNo: 2},
	} {
		ans := h.act(tok, bad)
		if len(ans.Notices) == 0 || len(ans.State.Moves) != 2 {
			t.Errorf("%+v: notices %q, %d moves; want a refusal and no change", bad, ans.Notices, len(ans.State.Moves))
		}
	}
	stored, _ := h.svc.Game(context.Background(), v.ID())
	if stored.MoveNo() != 2 {
		t.Errorf("stored game at move %d, want 2", stored.MoveNo())
	}
}

// TestWebRefusesForgedExpiredAndStrangers checks who may do what: no
// token, a forged one and an expired one get 401; a token of another
// user acts as that user, who has no seat, and is refused; nothing
// changes.
func TestWebRefusesForgedExpiredAndStrangers(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("600", "6", "ttt easy")
	other, _ := NewSigner([]byte("not the server's secret at all"))
	forged := other.Sign(Grant{Platform: "telegram", User: "6", Game: v.ID(), Expires: h.now.Load() + 3600})
	expired := h.signer.Sign(Grant{Platform: "telegram", User: "6", Game: v.ID(), Expires: h.now.Load() - 1})
	move := actRequest{Kind: "place", X: 1, Y: 1, Nonce: "a-stranger-move"}
	for name, tok := range map[string]string{"none": "", "forged": forged, "expired": expired} {
		for _, path := range []string{"/api/game", "/api/act", "/api/events"} {
			method := "GET"
			var body any
			if path == "/api/act" {
				method, body = "POST", move
			}
			if status, _ := h.call(method, path, tok, body); status != http.StatusUnauthorized {
				t.Errorf("%s token on %s: %d, want 401", name, path, status)
			}
		}
	}
	stranger := h.token("7", v.ID())
	ans := h.act(stranger, move)
	if len(ans.Notices) == 0 || len(ans.State.Moves) != 0 || ans.State.You != -1 {
		t.Errorf("a stranger's move: %+v; want a refusal", ans)
	}
	if h.chat.editCount() != 0 {
		t.Errorf("the chat's board was edited %d times", h.chat.editCount())
	}
	// A session for a game the user has no seat in is refused.
	if status, _ := h.call("POST", "/api/session", "", sessionRequest{Token: stranger}); status != http.StatusForbidden {
		t.Errorf("a stranger's session: %d, want 403", status)
	}
	// Bad bodies.
	for _, body := range []any{"not json", actRequest{Kind: "fly", Nonce: "a-good-nonce"}, actRequest{Kind: "place", Nonce: "x"}} {
		if status, _ := h.call("POST", "/api/act", h.token("6", v.ID()), body); status != http.StatusBadRequest {
			t.Errorf("act %v: %d, want 400", body, status)
		}
	}
}

// TestWebMiniAppSessionAndRenewal exchanges a Mini App's initData for a
// session token of the game it opened, renews it, and refuses initData
// signed with another token or too old.
func TestWebMiniAppSessionAndRenewal(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("700", "7", "gomoku easy")
	init := webtest.SignInitData(telegramtest.Token, map[string]string{
		"auth_date": strconv.FormatInt(h.now.Load(), 10), "start_param": string(v.ID()),
		"user": `{"id":7,"first_name":"Seven","language_code":"zh"}`,
	})
	status, body := h.call("POST", "/api/session", "", sessionRequest{InitData: init})
	var ans sessionAnswer
	if status != http.StatusOK || json.Unmarshal(body, &ans) != nil || ans.Game != v.ID() {
		t.Fatalf("session: %d %s", status, body)
	}
	if status, body := h.call("GET", "/api/game?locale=zh", ans.Token, nil); status != http.StatusOK || !strings.Contains(string(body), `"lang":"zh"`) {
		t.Errorf("game with the session: %d %s", status, body)
	}
	h.now.Add(1800)
	status, body = h.call("POST", "/api/session", "", sessionRequest{Token: ans.Token})
	var renewed sessionAnswer
	if status != http.StatusOK || json.Unmarshal(body, &renewed) != nil || renewed.Expires <= ans.Expires {
		t.Fatalf("renewal: %d %s", status, body)
	}
	h.now.Add(3000) // past the first token's hour, within the renewed one's
	if status, _ := h.call("GET", "/api/game", ans.Token, nil); status != http.StatusUnauthorized {
		t.Errorf("the old session token: %d, want 401", status)
	}
	if status, _ := h.call("GET", "/api/game", renewed.Token, nil); status != http.StatusOK {
		t.Errorf("the renewed session token: %d, want 200", status)
	}
	wrong := webtest.SignInitData("654321:another-bot", map[string]string{"auth_date": strconv.FormatInt(h.now.Load(), 10), "start_param": string(v.ID()), "user": `{"id":7}`})
	old := webtest.SignInitData(telegramtest.Token, map[string]string{"auth_date": strconv.FormatInt(h.now.Load()-2*86400, 10), "start_param": string(v.ID()), "user": `{"id":7}`})
	for name, d := range map[string]string{"another bot's": wrong, "two days old": old} {
		if status, _ := h.call("POST", "/api/session", "", sessionRequest{InitData: d}); status != http.StatusUnauthorized {
			t.Errorf("%s initData: %d, want 401", name, status)
		}
	}
}

// TestWebEventsFollowTheGame opens the event stream and makes moves
// through the chat: each shows on the stream, and a reconnect with the
// last id seen gets nothing it saw.
func TestWebEventsFollowTheGame(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("800", "8", "ttt easy")
	tok := h.token("8", v.ID())
	// A stream whose awaited event never comes ends, and the test fails.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/events?t="+url.QueryEscape(tok), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %v %v", res, err)
	}
	defer res.Body.Close()
	events := readEvents(res.Body)
	first := <-events
	if first.State.Version != v.Version() || len(first.State.Moves) != 0 {
		t.Fatalf("first event %+v", first)
	}
	// A move in the chat: a tap on its board.
	tap := adapters.EncodeAction(renderPlace(v.ID(), 0, engine.Point{X: 1, Y: 1}))
	dec := h.d.Tap(context.Background(), adapters.Request{Chat: "800", User: session.User{ID: "8"}, Message: v.Message()}, tap)
	adapters.Carry(context.Background(), h.chat, dec, nil)
	for e := range events {
		if len(e.State.Moves) == 2 {
			if strconv.Itoa(e.State.Version) != e.ID {
				t.Errorf("event id %s, version %d", e.ID, e.State.Version)
			}
			return
		}
	}
	t.Fatal("the stream ended before the move showed")
}

// event is one server-sent event.
type event struct {
	ID    string
	State state
}

// readEvents reads the "state" events of a stream until it ends.
func readEvents(r io.Reader) <-chan event {
	out := make(chan event)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
		var e event
		var data string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				e.ID = line[4:]
			case strings.HasPrefix(line, "data: "):
				data = line[6:]
			case line == "" && data != "":
				if json.Unmarshal([]byte(data), &e.State) == nil {
					out <- e
				}
				e, data = event{}, ""
			}
		}
	}()
	return out
}

// TestWebPageAndHeaders serves the page with its security headers and
// refuses a body too large.
func TestWebPageAndHeaders(t *testing.T) {
	h := newWebHarness(t)
	res, err := http.Get(h.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	if res.StatusCode != 200 || !strings.Contains(string(page), `<div id="board"`) || !strings.Contains(csp, "script-src 'self' https://telegram.org") || !strings.Contains(csp, "frame-ancestors") {
		t.Fatalf("page: %d, CSP %q", res.StatusCode, csp)
	}
	for _, f := range []string{"/app.js", "/app.css"} {
		if status, _ := h.call("GET", f, "", nil); status != 200 {
			t.Errorf("%s: %d", f, status)
		}
	}
	big := strings.Repeat("x", maxBody+1)
	if status, _ := h.call("POST", "/api/session", "", map[string]string{"initData": big}); status != http.StatusBadRequest {
		t.Errorf("a big body: %d, want 400", status)
	}
	if status, _ := h.call("GET", "/api/nothing", "", nil); status != http.StatusNotFound {
		t.Errorf("an unknown path: %d, want 404", status)
	}
}

// renderPlace is the Place action of a cell at move moveNo.
func renderPlace(game session.GameID, moveNo int, p engine.Point) render.Action {
	return render.Action{Kind: render.Place, Game: game, MoveNo: moveNo, Cell: p}
}

// TestWebLimitsEachUsersRate sends one user's acts faster than the limit
// allows: past the burst they get 429 and change nothing; another user
// is not held up, and a second later the first may act again.
func TestWebLimitsEachUsersRate(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("990", "99", "gomoku easy")
	tok := h.token("99", v.ID())
	refused := 0
	for i := range userBurst + 5 {
		a := actRequest{Kind: "place", X: 7, Y: 7, MoveNo: 99, Nonce: fmt.Sprintf("rate-limit-%03d", i)}
		if status, _ := h.call("POST", "/api/act", tok, a); status == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused != 5 {
		t.Errorf("%d of %d acts refused, want the 5 past the burst of %d", refused, userBurst+5, userBurst)
	}
	if status, _ := h.call("POST", "/api/act", h.token("98", v.ID()), actRequest{Kind: "place", MoveNo: 99, Nonce: "another-user-act"}); status != http.StatusOK {
		t.Errorf("another user's act: %d", status)
	}
	h.now.Add(1)
	if status, _ := h.call("POST", "/api/act", tok, actRequest{Kind: "place", MoveNo: 99, Nonce: "a-second-later"}); status != http.StatusOK {
		t.Errorf("a second later: %d", status)
	}
	if stored, _ := h.svc.Game(context.Background(), v.ID()); stored.MoveNo() != 0 {
		t.Errorf("the refused acts moved the game to %d", stored.MoveNo())
	}
}

// TestWebEventsResumeFromTheLastVersionSeen reconnects with the version
// last seen as Last-Event-ID: the stream sends nothing it saw, and the
// next change.
func TestWebEventsResumeFromTheLastVersionSeen(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("810", "81", "ttt easy")
	// A stream whose awaited event never comes ends, and the test fails.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", h.srv.URL+"/api/events?t="+url.QueryEscape(h.token("81", v.ID())), nil)
	req.Header.Set("Last-Event-ID", strconv.Itoa(v.Version()))
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("events: %v %v", res, err)
	}
	defer res.Body.Close()
	events := readEvents(res.Body)
	ans := h.act(h.token("81", v.ID()), actRequest{Kind: "place", X: 1, Y: 1, Nonce: "resume-after-move"})
	first := <-events
	if first.State.Version != ans.State.Version || len(first.State.Moves) != 2 {
		t.Errorf("the first event after resuming at version %d: %+v", v.Version(), first.State)
	}
}

// TestWebRefusesLikeTheChat checks the refusals the page gets for a
// finished game and for a hint with none left: each says why, in the
// user's words, and changes nothing.
func TestWebRefusesLikeTheChat(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("820", "82", "7x7 k4 easy")
	tok := h.token("82", v.ID())
	// This harness's games allow no hints.
	if ans := h.act(tok, actRequest{Kind: "hint", MoveNo: 0, Nonce: "hint-with-none-left"}); len(ans.Notices) == 0 || ans.State.Hint != nil {
		t.Errorf("a hint with none left: %+v", ans)
	}
	for _, c := range [][2]int{{-1, 3}, {3, 7}, {99, 99}} {
		if ans := h.act(tok, actRequest{Kind: "place", X: c[0], Y: c[1], MoveNo: 0, Nonce: fmt.Sprintf("off-the-board-%d-%d", c[0]+1, c[1])}); len(ans.Notices) == 0 || len(ans.State.Moves) != 0 {
			t.Errorf("a move off the board at %v: %+v", c, ans)
		}
	}
	if ans := h.act(tok, actRequest{Kind: "resign", Nonce: "resign-the-game"}); ans.State.Running {
		t.Fatalf("resign: %+v", ans)
	}
	ans := h.act(tok, actRequest{Kind: "place", X: 3, Y: 3, MoveNo: 0, Nonce: "move-after-the-end"})
	if len(ans.Notices) == 0 || len(ans.State.Moves) != 0 {
		t.Errorf("a move in a finished game: %+v", ans)
	}
}
