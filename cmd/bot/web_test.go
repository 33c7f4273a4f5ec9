package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/discord"
	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/adapters/web/webtest"
	"github.com/boardbot/boardbot/render"
)

// watchedBuffer is output written and read at once, which a test can
// wait on: every write wakes wait. Its zero value is ready to use.
type watchedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{} // closed and replaced by every write
}

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if w.changed != nil {
		close(w.changed)
	}
	w.changed = make(chan struct{})
	return len(p), nil
}

// String returns what was written so far.
func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// wait waits until cond holds of the output.
func (w *watchedBuffer) wait(t *testing.T, what string, cond func(string) bool) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		w.mu.Lock()
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		s, ch := w.b.String(), w.changed
		w.mu.Unlock()
		if cond(s) {
			return s
		}
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("waiting for %s; output:\n%s", what, s)
		}
	}
}

// resignAndRematch resigns the game the signed link opens, after its
// second move, and asks for a rematch, as the page's buttons do.
func resignAndRematch(t *testing.T, addr, link, nonce string) {
	t.Helper()
	token := link[strings.Index(link, "#t=")+3:]
	for _, kind := range []string{"resign", "rematch"} {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/act", strings.NewReader(fmt.Sprintf(`{"kind":%q,"nonce":"%s-%s","moveNo":2}`, kind, nonce, kind)))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s from the page: %v %v", kind, res, err)
		}
		res.Body.Close()
	}
}

var linkRE = regexp.MustCompile(`🌐 [^:]+: (http://[^/\s]+)/#t=(\S+)`)

// TestTerminalPrintsAWorkingWebLink runs the terminal game: a new board
// prints its web link, the link's token reads the game, and a move made
// through it is shown in the terminal.
func TestTerminalPrintsAWorkingWebLink(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	in, typed := io.Pipe()
	out := &watchedBuffer{}
	var errOut strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"-db", db}, env(map[string]string{"USER": "ann"}), in, out, &errOut)
	}()
	io.WriteString(typed, "/play 7x7 easy\n")
	m := linkRE.FindStringSubmatch(out.wait(t, "the web link", linkRE.MatchString))
	base, token := m[1], m[2]
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&v) != nil {
			t.Fatalf("%s %s: %d", method, path, res.StatusCode)
		}
		return v
	}
	if g := call("GET", "/api/game", ""); g["width"] != 7.0 || g["you"] != 0.0 {
		t.Fatalf("the game through the link: %v", g)
	}
	before := strings.Count(out.wait(t, "the board", func(string) bool { return true }), "Last move")
	ans := call("POST", "/api/act", `{"kind":"place","x":3,"y":3,"moveNo":0,"nonce":"terminal-web-move"}`)
	if moves := ans["state"].(map[string]any)["moves"].([]any); len(moves) != 2 {
		t.Fatalf("after the web move: %v", ans)
	}
	out.wait(t, "the board redrawn in the terminal", func(s string) bool { return strings.Count(s, "Last move") > before })
	typed.Close()
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
}

// runWithWeb runs the bot with the config yaml and the environment
// vars, and the web board on a free loopback port, until the test ends.
// It returns the board's address and what the bot wrote to stderr.
func runWithWeb(t *testing.T, yaml string, vars map[string]string) (string, *watchedBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	config := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	vars["BOT_WEB_LISTEN"] = addr
	if vars["BOT_WEB_PUBLIC_URL"] == "" {
		vars["BOT_WEB_PUBLIC_URL"] = "http://" + addr
	}
	ctx, cancel := context.WithCancel(context.Background())
	errOut := &watchedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-db", filepath.Join(dir, "bot.db"), "-config", config}, env(vars), strings.NewReader(""), io.Discard, errOut)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v\n%s", err, errOut.String())
		}
	})
	return addr, errOut
}

// startTelegramWeb runs the bot on a fake Bot API with the web board and
// the Mini App "board", until the test ends.
func startTelegramWeb(t *testing.T) (*telegramtest.Server, string, *watchedBuffer) {
	t.Helper()
	fake := telegramtest.NewServer()
	t.Cleanup(fake.Close)
	addr, errOut := runWithWeb(t, "telegram:\n  mini_app: board\n", map[string]string{
		"TELEGRAM_TOKEN": telegramtest.Token, "TELEGRAM_API_ENDPOINT": fake.Endpoint(),
	})
	return fake, addr, errOut
}

// TestTelegramBoardOpensOnTheWeb runs the bot on the fake Bot API with
// the web board: a board in a private chat carries a 🌐 button with the
// user's signed link; the link opens the board in Chromium, a tap there
// shows the AI's reply on the page without a reload, and the chat's
// board message is edited in the fake Bot API.
func TestTelegramBoardOpensOnTheWeb(t *testing.T) {
	fake, addr, errOut := startTelegramWeb(t)
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	// webButton plays in chat and returns the board and its 🌐 link.
	webButton := func(chat tgbotapi.Chat, user tgbotapi.User) (telegramtest.Message, string) {
		t.Helper()
		fake.SendText(chat, user, "/play 7x7 easy")
		var board telegramtest.Message
		if err := fake.Wait(wctx, func() bool {
			board, _ = fake.LastBotMessage(chat.ID)
			return board.Link("🌐") != ""
		}); err != nil {
			t.Fatalf("no 🌐 button under the board: %+v\n%s", board, errOut.String())
		}
		return board, board.Link("🌐")
	}
	// In a group, the button opens the Mini App, which proves who opens
	// it.
	_, groupLink := webButton(tgbotapi.Chat{ID: -4200, Type: "group"}, tgbotapi.User{ID: 4200, FirstName: "G"})
	if !regexp.MustCompile(`^https://t\.me/` + fake.Bot.UserName + `/board\?startapp=\w+$`).MatchString(groupLink) {
		t.Errorf("a group board's 🌐 opens %q, want the Mini App", groupLink)
	}
	chat, user := tgbotapi.Chat{ID: 4100, Type: "private"}, tgbotapi.User{ID: 4100, FirstName: "Web", LanguageCode: "en"}
	board, link := webButton(chat, user)
	if !strings.HasPrefix(link, "http://"+addr+"/#t=") {
		t.Fatalf("the 🌐 button opens %q", link)
	}
	page := webtest.Browser(t, 420, 800)
	webtest.Open(t, page, link, 49)
	webtest.Tap(t, page, 3, 3, 2)
	if err := fake.Wait(wctx, func() bool { m, _ := fake.Message(chat.ID, board.ID); return m.Edits > 0 }); err != nil {
		t.Fatalf("the chat's board was not edited: %v", err)
	}
	if n := len(fake.BotMessages(chat.ID)); n != 1 {
		t.Errorf("the web move added %d messages to the chat", n-1)
	}
	// Resigned and rematched from the page: the rematch's board is
	// posted in the chat.
	resignAndRematch(t, addr, link, "telegram-web")
	if err := fake.Wait(wctx, func() bool {
		ms := fake.BotMessages(chat.ID)
		return len(ms) == 2 && len(placeButtons(ms[1])) > 0
	}); err != nil {
		t.Fatalf("the rematch's board was not posted in the chat: %v\n%s", err, errOut.String())
	}
}

// TestDiscordWebButtonGivesALinkToTheBoard runs the bot on the fake
// Discord with the web board: the board's 🌐 button answers the tapper
// alone with their link, which opens the board in Chromium; a tap there
// shows the AI's reply and edits the channel's board message, and a
// rematch made on the page is posted in the channel.
func TestDiscordWebButtonGivesALinkToTheBoard(t *testing.T) {
	const token = "MTAy.fake-discord-token.web-test"
	fake := discordtest.New(discordtest.Options{Token: token})
	t.Cleanup(fake.Close)
	t.Cleanup(func() { discord.SetAPIBase(discord.DefaultAPIBase) })
	yaml := fmt.Sprintf("discord:\n  app_id: %q\n  guild_id: %q\n  api_base: %q\n", discordtest.AppID, discordtest.GuildID, fake.URL)
	addr, _ := runWithWeb(t, yaml, map[string]string{"DISCORD_TOKEN": token})
	if err := fake.WaitFor(20*time.Second, "guild commands", func() bool { return len(fake.Commands(discordtest.GuildID)) > 0 }); err != nil {
		t.Fatal(err)
	}
	ann := discordtest.User{ID: "300000000000000001", Name: "ann", Locale: "en-US"}
	id, err := fake.Command(ann, "c9", "play", discordtest.StringOption("game", "ttt"), discordtest.StringOption("level", "easy"))
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitFor(20*time.Second, "the board", func() bool { return fake.Response(id).Type == 4 }); err != nil {
		t.Fatal(err)
	}
	board, _ := fake.Message(fake.Response(id).Original)
	web, ok := board.Button("🌐")
	if !ok {
		t.Fatalf("no 🌐 button on the board: %+v", board.Buttons())
	}
	tap, err := fake.Tap(ann, board.ID, web.CustomID)
	if err != nil {
		t.Fatal(err)
	}
	var reply discordtest.Message
	if err := fake.WaitFor(20*time.Second, "the link", func() bool {
		reply, _ = fake.Message(fake.Response(tap).Original)
		return reply.Content != ""
	}); err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`http://\S+/#t=\S+`).FindString(reply.Content)
	if !reply.Ephemeral || reply.VisibleTo != ann.ID || link == "" {
		t.Fatalf("the 🌐 tap answered %+v", reply)
	}
	page := webtest.Browser(t, 420, 800)
	webtest.Open(t, page, link, 9)
	webtest.Tap(t, page, 1, 1, 2)
	if err := fake.WaitFor(20*time.Second, "the channel's board edited", func() bool { m, _ := fake.Message(board.ID); return m.Edits > 0 }); err != nil {
		t.Fatal(err)
	}
	// Resigned and rematched from the page: the rematch's board is
	// posted in the channel.
	resignAndRematch(t, addr, link, "discord-web")
	if err := fake.WaitFor(20*time.Second, "the rematch's board in the channel", func() bool {
		for _, m := range fake.Messages("c9") {
			if _, ok := m.Button("🌐"); ok && m.ID != board.ID {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
}

// TestDuelAcrossTheWebAndTheChat plays a Telegram group duel where one
// player moves on the web board, opened as the Mini App (initData signed
// by the test with the bot token), and the other in the chat: each sees
// the other's moves, the page live and the chat's board edited.
func TestDuelAcrossTheWebAndTheChat(t *testing.T) {
	fake, addr, errOut := startTelegramWeb(t)
	chat := tgbotapi.Chat{ID: -4300, Type: "group"}
	ann, bob := tgbotapi.User{ID: 4301, FirstName: "Ann", LanguageCode: "en"}, tgbotapi.User{ID: 4302, FirstName: "Bob", LanguageCode: "en"}
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	fake.SendText(chat, ann, "/duel 7x7 k4 first")
	var challenge telegramtest.Message
	accept := ""
	if err := fake.Wait(wctx, func() bool {
		challenge, _ = fake.LastBotMessage(chat.ID)
		if b := buttonsOf(challenge, render.Accept); len(b) > 0 {
			accept = b[0]
		}
		return accept != ""
	}); err != nil {
		t.Fatalf("no challenge: %v\n%s", err, errOut.String())
	}
	fake.Tap(chat, bob, challenge.ID, accept)
	var board telegramtest.Message
	game := ""
	if err := fake.Wait(wctx, func() bool {
		board, _ = fake.Message(chat.ID, challenge.ID)
		_, game, _ = strings.Cut(board.Link("🌐"), "startapp=")
		return game != "" && len(placeButtons(board)) > 0
	}); err != nil {
		t.Fatalf("no board with its Mini App link: %+v\n%s", board, errOut.String())
	}
	init := webtest.SignInitData(telegramtest.Token, map[string]string{
		"auth_date": strconv.FormatInt(time.Now().Unix(), 10), "user": `{"id":4301,"first_name":"Ann","language_code":"en"}`,
	})
	page := webtest.Browser(t, 420, 800)
	webtest.Open(t, page, "http://"+addr+"/?game="+game+"#"+url.Values{"tgWebAppData": {init}}.Encode(), 49)
	// Ann moves on the page: the chat's board shows it.
	webtest.Tap(t, page, 3, 3, 1)
	edits := board.Edits
	if err := fake.Wait(wctx, func() bool { m, _ := fake.Message(chat.ID, board.ID); board = m; return m.Edits > edits }); err != nil {
		t.Fatalf("Ann's web move did not edit the chat's board: %v", err)
	}
	// Bob moves in the chat: the page shows it live.
	fake.Tap(chat, bob, board.ID, placeButtons(board)[0])
	webtest.WaitFor(t, page, "Bob's move from the chat", `document.querySelectorAll("#board .stone").length === 2`)
}

// TestPrivateBoardOpensAsAMiniApp serves the web board behind an HTTPS
// address (a TLS proxy in front of the loopback listener, as in
// production): a private chat's board then carries a web_app button,
// which opens the board inside Telegram, and no link that a forwarded
// message would give away. The page, opened as Telegram opens it (the
// button's address with the launch data in the fragment), plays the
// chat's user's game; the same address with another user's launch data
// gives no seat.
func TestPrivateBoardOpensAsAMiniApp(t *testing.T) {
	fake := telegramtest.NewServer()
	t.Cleanup(fake.Close)
	const public = "https://board.example"
	addr, errOut := runWithWeb(t, "telegram:\n  mini_app: board\n", map[string]string{
		"TELEGRAM_TOKEN": telegramtest.Token, "TELEGRAM_API_ENDPOINT": fake.Endpoint(), "BOT_WEB_PUBLIC_URL": public,
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	chat, user := tgbotapi.Chat{ID: 4500, Type: "private"}, tgbotapi.User{ID: 4500, FirstName: "Pia", LanguageCode: "en"}
	fake.SendText(chat, user, "/play 7x7 easy")
	var board telegramtest.Message
	if err := fake.Wait(wctx, func() bool {
		board, _ = fake.LastBotMessage(chat.ID)
		return board.WebApp("🌐") != ""
	}); err != nil {
		t.Fatalf("no 🌐 Mini App button under the board: %+v\n%s", board, errOut.String())
	}
	app, err := url.Parse(board.WebApp("🌐"))
	game := app.Query().Get("game")
	if err != nil || app.Scheme+"://"+app.Host != public || app.Path != "/" || game == "" || board.Link("🌐") != "" {
		t.Fatalf("the 🌐 button opens %q as a Mini App and %q as a link", board.WebApp("🌐"), board.Link("🌐"))
	}
	initData := func(id int64) string {
		return webtest.SignInitData(telegramtest.Token, map[string]string{
			"auth_date": strconv.FormatInt(time.Now().Unix(), 10), "user": fmt.Sprintf(`{"id":%d,"first_name":"P","language_code":"en"}`, id),
		})
	}
	// Someone else with the same address has no seat in the game.
	body, _ := json.Marshal(map[string]string{"initData": initData(4501), "game": game})
	if res, err := http.Post("http://"+addr+"/api/session", "application/json", bytes.NewReader(body)); err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("another user's sign-in to the game: %v %v", res, err)
	}
	page := webtest.Browser(t, 420, 800)
	webtest.Open(t, page, "http://"+addr+app.RequestURI()+"#"+url.Values{"tgWebAppData": {initData(user.ID)}}.Encode(), 49)
	webtest.Tap(t, page, 3, 3, 2)
	if err := fake.Wait(wctx, func() bool {
		m, _ := fake.Message(chat.ID, board.ID)
		return m.Edits > 0 && m.WebApp("🌐") == app.String()
	}); err != nil {
		t.Fatalf("the chat's board was not edited, its Mini App button kept: %v", err)
	}
}

// TestTerminalOnlyWebBoardGivesChatsNoButton runs Telegram beside the
// terminal game with no web.listen: the web board is served for the
// terminal alone, on loopback, so a chat's board carries no 🌐 button to
// an address its player cannot reach.
func TestTerminalOnlyWebBoardGivesChatsNoButton(t *testing.T) {
	fake := telegramtest.NewServer()
	t.Cleanup(fake.Close)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte("console:\n  enabled: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdin, typing := io.Pipe() // the terminal waits for input until the end
	ctx, cancel := context.WithCancel(context.Background())
	errOut := &watchedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-db", filepath.Join(dir, "bot.db"), "-config", config}, env(map[string]string{
			"TELEGRAM_TOKEN": telegramtest.Token, "TELEGRAM_API_ENDPOINT": fake.Endpoint(),
		}), stdin, io.Discard, errOut)
	}()
	t.Cleanup(func() {
		cancel()
		typing.Close()
		if err := <-done; err != nil {
			t.Errorf("run: %v\n%s", err, errOut.String())
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	chat, user := tgbotapi.Chat{ID: 4600, Type: "private"}, tgbotapi.User{ID: 4600, FirstName: "T", LanguageCode: "en"}
	fake.SendText(chat, user, "/play 7x7 easy")
	var board telegramtest.Message
	if err := fake.Wait(wctx, func() bool {
		board, _ = fake.LastBotMessage(chat.ID)
		return len(placeButtons(board)) > 0
	}); err != nil {
		t.Fatalf("no board: %v\n%s", err, errOut.String())
	}
	if board.Link("🌐") != "" || board.WebApp("🌐") != "" {
		t.Errorf("the chat's board links to the terminal's web board: %q %q", board.Link("🌐"), board.WebApp("🌐"))
	}
}

// TestTerminalWebBoardTakesAnotherPortWhenBusy holds 127.0.0.1:8080 (or
// finds it held): the terminal's web board still binds, elsewhere, so a
// second terminal side by side starts.
func TestTerminalWebBoardTakesAnotherPortWhenBusy(t *testing.T) {
	if held, err := net.Listen("tcp", terminalWebAddr); err == nil {
		defer held.Close()
	}
	ln, err := listenWeb(WebConfig{}, true)
	if err != nil || ln == nil {
		t.Fatalf("listenWeb with 8080 taken: %v, %v", ln, err)
	}
	defer ln.Close()
	if ln.Addr().String() == terminalWebAddr {
		t.Errorf("bound %s, which is held", ln.Addr())
	}
	if none, err := listenWeb(WebConfig{}, false); none != nil || err != nil {
		t.Errorf("without the terminal and web.listen: %v, %v; want no web board", none, err)
	}
}
