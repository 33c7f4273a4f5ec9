package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"github.com/boardbot/boardbot/adapters/web/webtest"
	"github.com/boardbot/boardbot/render"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
)

// TestBrowserPlaysFromALink opens a game's link in Chromium, taps a cell,
// and sees the move and the AI's reply on the page without a reload, and
// the chat's board message edited.
func TestBrowserPlaysFromALink(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("900", "9", "7x7 k4 easy")
	ctx := webtest.Browser(t, 800, 900)
	webtest.Open(t, ctx, h.srv.URL+"/#t="+h.token("9", v.ID()), 49)
	webtest.Tap(t, ctx, 3, 3, 2)
	if n := webtest.Count(t, ctx, webtest.Cell(3, 3)+" .stone.s0"); n != 1 {
		t.Errorf("the tapped cell shows %d black stones", n)
	}
	if h.chat.editCount() != 1 {
		t.Errorf("the chat's board was edited %d times, want once", h.chat.editCount())
	}
	webtest.Screenshot(t, ctx, "board-7x7")
	// The page follows the system's theme as it changes.
	background := func() string {
		bg, err := chromedp.Run(ctx, chromedp.Evaluate[string]("getComputedStyle(document.body).backgroundColor"))
		if err != nil {
			t.Fatal(err)
		}
		return bg
	}
	light := background()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	webtest.WaitFor(t, ctx, "the dark theme", `getComputedStyle(document.body).backgroundColor === "rgb(23, 24, 27)"`)
	if light == background() {
		t.Errorf("light and dark backgrounds are both %s", light)
	}
}

// TestBrowserSignsInAgainAfterTheSessionRanOut opens a game's link, then
// moves the server's clock past the session's life (a phone asleep for
// two hours) but within the link's: a tap signs in again with the link
// and lands, once.
func TestBrowserSignsInAgainAfterTheSessionRanOut(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("901", "9", "7x7 k4 easy")
	link := h.signer.Sign(Grant{Platform: "telegram", User: "9", Game: v.ID(), Expires: h.now.Load() + 24*3600})
	ctx := webtest.Browser(t, 800, 900)
	webtest.Open(t, ctx, h.srv.URL+"/#t="+link, 49)
	h.now.Add(2 * 3600)
	webtest.Tap(t, ctx, 3, 3, 2)
	if n := webtest.Count(t, ctx, webtest.Cell(3, 3)+" .stone.s0"); n != 1 {
		t.Errorf("the tapped cell shows %d black stones", n)
	}
	g, err := h.svc.Game(context.Background(), v.ID())
	if err != nil || len(g.Moves()) != 2 {
		t.Errorf("stored game after the tap: %v moves, %v; want the tap and the reply", len(g.Moves()), err)
	}
}

// TestBrowserTapLandsThroughARedraw presses a cell, lets the page draw
// the game again (as a state from its event stream makes it do), and
// releases: the tap still lands, as a person's would.
func TestBrowserTapLandsThroughARedraw(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("906", "96", "7x7 k4 easy")
	ctx := webtest.Browser(t, 800, 900)
	webtest.Open(t, ctx, h.srv.URL+"/#t="+h.token("96", v.ID()), 49)
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const r = document.querySelector(`+strconv.Quote(webtest.Cell(2, 4))+`).getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	mouse := func(kind input.DispatchMouseEventType) {
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: kind, X: at[0], Y: at[1], Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			t.Fatal(err)
		}
	}
	mouse(input.DispatchMouseEventTypeMousePressed)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("draw(), true")); err != nil {
		t.Fatal(err)
	}
	mouse(input.DispatchMouseEventTypeMouseReleased)
	webtest.WaitFor(t, ctx, "the move and the reply", `document.querySelectorAll("#board .stone").length === 2`)
	if n := webtest.Count(t, ctx, webtest.Cell(2, 4)+" .stone.s0"); n != 1 {
		t.Errorf("the pressed cell shows %d black stones", n)
	}
}

// TestBrowserMiniAppInChineseAndDark opens the page as Telegram opens a
// Mini App, from the launch parameters alone (Telegram's script cannot
// load): the user's initData, signed by the test with the bot token, and
// a dark theme. The page signs in, speaks Chinese, is dark, and a
// refused tap (a cell taken) says why in Chinese and changes nothing.
func TestBrowserMiniAppInChineseAndDark(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("901", "91", "ttt easy first")
	init := webtest.SignInitData(telegramtest.Token, map[string]string{
		"auth_date": strconv.FormatInt(h.now.Load(), 10), "query_id": "AAE1",
		"user": `{"id":91,"first_name":"Lin","language_code":"zh"}`,
	})
	theme, _ := json.Marshal(map[string]string{"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499", "button_color": "#5288c1", "secondary_bg_color": "#232e3c"})
	launch := url.Values{"tgWebAppData": {init}, "tgWebAppThemeParams": {string(theme)}, "tgWebAppVersion": {"8.0"}}
	ctx := webtest.Browser(t, 390, 800)
	webtest.Open(t, ctx, h.srv.URL+"/?game="+url.QueryEscape(string(v.ID()))+"#"+launch.Encode(), 9)
	undo, err1 := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#resign")))
	lang, err2 := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.lang"))
	dark, err3 := chromedp.Run(ctx, chromedp.Evaluate[string]("getComputedStyle(document.body).backgroundColor"))
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if undo != "🏳 认输" || lang != "zh" || dark != "rgb(23, 33, 43)" {
		t.Errorf("resign %q, lang %q, background %q; want Chinese and Telegram's dark theme", undo, lang, dark)
	}
	webtest.Tap(t, ctx, 1, 1, 2)
	webtest.Screenshot(t, ctx, "board-3x3-dark-zh")
}

// TestBrowser19x19FitsAPhone opens a 19×19 game at 360×640: every one of
// its 361 cells is on screen, at least 16 px wide, and is what a tap at
// its centre reaches.
func TestBrowser19x19FitsAPhone(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("902", "92", "19x19 easy")
	ctx := webtest.Browser(t, 360, 640)
	webtest.Open(t, ctx, h.srv.URL+"/#t="+h.token("92", v.ID()), 361)
	bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const bad = [];
		for (const c of document.querySelectorAll("#board .cell")) {
			const r = c.getBoundingClientRect();
			if (r.width < 16 || r.right > window.innerWidth + 0.5 || r.left < 0) { bad.push(c.getAttribute("aria-label") + " " + r.width.toFixed(1)); continue; }
			c.scrollIntoView({block: "center"});
			const r2 = c.getBoundingClientRect();
			const hit = document.elementFromPoint(r2.left + r2.width / 2, r2.top + r2.height / 2);
			if (!hit || hit.closest(".cell") !== c) bad.push(c.getAttribute("aria-label") + " hidden");
		}
		return bad;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 0 {
		t.Errorf("%d cells not tappable at 360 px: %v", len(bad), bad[:min(len(bad), 10)])
	}
	webtest.Tap(t, ctx, 9, 9, 2)
	webtest.Screenshot(t, ctx, "board-19x19-phone")
}

// TestBrowserRefusesABadLink opens the page with a forged token: it shows
// the sign-in message and no board.
func TestBrowserRefusesABadLink(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("903", "93", "ttt easy")
	other, _ := NewSigner([]byte("a secret that is not the server's"))
	forged := other.Sign(Grant{Platform: "telegram", User: "93", Game: v.ID(), Expires: h.now.Load() + 3600})
	ctx := webtest.Browser(t, 390, 700)
	if err := chromedp.Do(ctx, chromedp.Navigate(h.srv.URL+"/#t="+forged)); err != nil {
		t.Fatal(err)
	}
	webtest.WaitFor(t, ctx, "the sign-in message", `!document.getElementById("signin").hidden`)
	if n := webtest.Count(t, ctx, "#board .cell"); n != 0 {
		t.Errorf("a forged link shows %d cells", n)
	}
}

// TestBrowserFinishedGameReplays shows a game that ended while the page
// was open (resigned in the chat): the page hears of it, offers the
// rematch and the replay instead of the game's buttons, and steps back
// and forth through its moves.
func TestBrowserFinishedGameReplays(t *testing.T) {
	h := newWebHarness(t)
	v := h.play("904", "94", "7x7 k4 easy")
	ctx := webtest.Browser(t, 600, 900)
	webtest.Open(t, ctx, h.srv.URL+"/#t="+h.token("94", v.ID()), 49)
	visible := func(id string) bool {
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("getComputedStyle(document.getElementById(%q)).display !== 'none'", id)))
		if err != nil {
			t.Fatal(err)
		}
		return shown
	}
	if visible("replay") || visible("rematch") || !visible("resign") {
		t.Errorf("a running game shows replay %v, rematch %v, resign %v", visible("replay"), visible("rematch"), visible("resign"))
	}
	for range 2 {
		n := webtest.Count(t, ctx, "#board .stone")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#board .cell:not([disabled])"))); err != nil {
			t.Fatal(err)
		}
		webtest.WaitFor(t, ctx, "the move and the reply", fmt.Sprintf(`document.querySelectorAll("#board .stone").length === %d`, n+2))
	}
	moves := webtest.Count(t, ctx, "#board .stone")
	// The player resigns in the chat.
	dec := h.d.Text(context.Background(), adapters.Request{Chat: "904", User: session.User{ID: "94"}, Locale: "en"}, "/resign")
	adapters.Carry(context.Background(), h.chat, dec, nil)
	webtest.WaitFor(t, ctx, "the end of the game", `getComputedStyle(document.getElementById("replay")).display !== "none"`)
	if !visible("rematch") || visible("resign") {
		t.Errorf("a finished game shows rematch %v, resign %v", visible("rematch"), visible("resign"))
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#back"))); err != nil {
		t.Fatal(err)
	}
	if n := webtest.Count(t, ctx, "#board .stone"); n != moves-1 {
		t.Errorf("one step back shows %d stones, want %d", n, moves-1)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first"))); err != nil {
		t.Fatal(err)
	}
	if n := webtest.Count(t, ctx, "#board .stone"); n != 0 {
		t.Errorf("the first step shows %d stones", n)
	}
	webtest.Screenshot(t, ctx, "board-7x7-replay")
}

// TestBrowserShowsRenjuForbiddenPoints plays a renju duel from two pages,
// one for each player: with Black to move, the page marks Black's double
// three; a tap on it is refused, saying why, and changes nothing. The
// game then ends with a five, and the page shows the winning line.
func TestBrowserShowsRenjuForbiddenPoints(t *testing.T) {
	h := newWebHarness(t)
	black, white := session.User{ID: "81", Name: "Black"}, session.User{ID: "82", Name: "White"}
	game := h.duel("-905", black, white, "renju")
	tokens := map[int]string{0: h.token(black.ID, game.ID()), 1: h.token(white.ID, game.ID())}
	// Black's two twos meet at (8,7), a double three; White plays far off.
	for i, c := range [][2]int{{6, 7}, {0, 0}, {7, 7}, {0, 2}, {8, 5}, {0, 4}, {8, 6}, {14, 14}} {
		ans := h.act(tokens[i%2], actRequest{Kind: "place", X: c[0], Y: c[1], MoveNo: i, Nonce: fmt.Sprintf("renju-move-%02d", i)})
		if len(ans.State.Moves) != i+1 {
			t.Fatalf("move %d at %v: %+v", i, c, ans)
		}
	}
	page := webtest.Browser(t, 420, 820)
	webtest.Open(t, page, h.srv.URL+"/#t="+tokens[0], 225)
	if n := webtest.Count(t, page, webtest.Cell(8, 7)+".forbidden"); n != 1 {
		t.Fatalf("the double three at (8,7) is not marked forbidden")
	}
	if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(webtest.Cell(8, 7)))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitFor(t, page, "the refusal", `document.getElementById("notice").textContent !== ""`)
	if n := webtest.Count(t, page, "#board .stone"); n != 8 {
		t.Errorf("after the refused tap the page shows %d stones", n)
	}
	webtest.Screenshot(t, page, "board-15x15-renju-forbidden")
	// Black makes five on row 12, far from its other stones; White
	// answers far off.
	for i, c := range [][2]int{{3, 12}, {1, 0}, {4, 12}, {1, 2}, {5, 12}, {1, 4}, {6, 12}, {2, 0}, {7, 12}} {
		n := 8 + i
		if i%2 == 0 {
			if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(webtest.Cell(c[0], c[1])))); err != nil {
				t.Fatal(err)
			}
			webtest.WaitFor(t, page, "black's move", fmt.Sprintf(`document.querySelectorAll("#board .stone").length === %d`, n+1))
			continue
		}
		h.act(tokens[1], actRequest{Kind: "place", X: c[0], Y: c[1], MoveNo: n, Nonce: fmt.Sprintf("renju-white-%02d", i)})
		webtest.WaitFor(t, page, "white's move", fmt.Sprintf(`document.querySelectorAll("#board .stone").length === %d`, n+1))
	}
	webtest.WaitFor(t, page, "the winning line", `document.querySelectorAll("#board .stone.win").length === 5`)
	webtest.Screenshot(t, page, "board-15x15-renju-won")
}

// duel starts a duel of the given /duel arguments in chat, black
// challenging and white accepting, and returns the game.
func (h *webHarness) duel(chat string, black, white session.User, args string) session.View {
	h.t.Helper()
	ctx := context.Background()
	dec := h.d.Text(ctx, adapters.Request{Chat: chat, User: black, Locale: "en"}, "/duel "+args+" first")
	if err := h.d.Bind(ctx, adapters.Carry(ctx, h.chat, dec, nil)); err != nil {
		h.t.Fatal(err)
	}
	var id session.GameID
	for _, e := range dec.Effects {
		if s, ok := e.(adapters.Show); ok {
			id = s.Game.ID()
		}
	}
	game, err := h.svc.Game(ctx, id)
	if err != nil {
		h.t.Fatalf("/duel %s: %v (%+v)", args, err, dec.Effects)
	}
	accept := adapters.EncodeAction(render.Action{Kind: render.Accept, Game: game.ID()})
	adapters.Carry(ctx, h.chat, h.d.Tap(ctx, adapters.Request{Chat: chat, User: white, Locale: "en", Message: game.Message()}, accept), nil)
	return game
}

// TestBrowser19x19FinishedShowsTheWinningLine plays a 19×19 duel to a
// five through the API and opens it at phone size: the page marks the
// five and offers the replay.
func TestBrowser19x19FinishedShowsTheWinningLine(t *testing.T) {
	h := newWebHarness(t)
	black, white := session.User{ID: "71", Name: "Mei"}, session.User{ID: "72", Name: "Kai"}
	game := h.duel("-906", black, white, "19x19")
	tokens := [2]string{h.token(black.ID, game.ID()), h.token(white.ID, game.ID())}
	// Black's five on row 9; White's four on row 12 comes too late.
	moves := [][2]int{{5, 9}, {5, 12}, {6, 9}, {6, 12}, {7, 9}, {7, 12}, {8, 9}, {8, 12}, {9, 9}}
	for i, c := range moves {
		if ans := h.act(tokens[i%2], actRequest{Kind: "place", X: c[0], Y: c[1], MoveNo: i, Nonce: fmt.Sprintf("nineteen-%02d", i)}); len(ans.State.Moves) != i+1 {
			t.Fatalf("move %d at %v: %+v", i, c, ans)
		}
	}
	page := webtest.Browser(t, 360, 640)
	webtest.Open(t, page, h.srv.URL+"/#t="+tokens[0], 361)
	if n := webtest.Count(t, page, "#board .stone.win"); n != 5 {
		t.Errorf("the winning line shows %d stones, want 5", n)
	}
	webtest.WaitFor(t, page, "the replay", `getComputedStyle(document.getElementById("replay")).display !== "none"`)
	webtest.Screenshot(t, page, "board-19x19-won")
}
