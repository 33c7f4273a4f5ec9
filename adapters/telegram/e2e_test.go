package telegram_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// startGame types a /play command and returns the board message it sent.
func (h *harness) startGame(chat tgbotapi.Chat, from tgbotapi.User, command string) telegramtest.Message {
	h.t.Helper()
	before := len(h.fake.BotMessages(chat.ID))
	h.say(chat, from, command)
	ms := h.fake.BotMessages(chat.ID)
	if len(ms) != before+1 {
		h.t.Fatalf("%s sent %d messages", command, len(ms)-before)
	}
	return ms[len(ms)-1]
}

func TestWholeGamesByTaps(t *testing.T) {
	h := newHarness(t, nil)
	chatID := int64(100)
	for _, board := range []string{"ttt", "7x7"} {
		for _, level := range engine.Levels {
			t.Run(board+"/"+level.String(), func(t *testing.T) {
				h.t = t
				chatID++
				chat, me := private(chatID), user(chatID, "en")
				m := h.startGame(chat, me, "/play "+level.String()+" "+board)
				v := h.playByTaps(chat, me, m.ID, rand.New(rand.NewPCG(uint64(chatID), 1)))
				if v.Seat(engine.White).AI != level || v.Message() != itoa(m.ID) {
					t.Fatalf("game %s: level %v, message %q", v.ID(), v.Seat(engine.White).AI, v.Message())
				}
				final, _ := h.fake.Message(chat.ID, m.ID)
				if !strings.Contains(final.Text, "Winner") && !strings.Contains(final.Text, "Draw") {
					t.Fatalf("final board has no result:\n%s", final.Text)
				}
				if len(h.fake.BotMessages(chat.ID)) != 1 {
					t.Fatalf("the game added messages: %d", len(h.fake.BotMessages(chat.ID)))
				}
			})
		}
	}
}

func TestGomokuByTypedCoordinatesWithPicture(t *testing.T) {
	h := newHarness(t, nil)
	for i, level := range engine.Levels {
		t.Run(level.String(), func(t *testing.T) {
			h.t = t
			chat, me := private(int64(200+i)), user(int64(200+i), "en")
			m := h.startGame(chat, me, "/play gomoku "+level.String())
			if m.Photo == nil || m.Text != "" || !strings.Contains(m.Caption, "to move") {
				t.Fatalf("gomoku board is not a photo with a caption: %+v", m)
			}
			// 15 columns do not fit a keyboard row: the keyboard is an
			// 8-wide window of cells with arrows, the photo the whole board.
			if rows := m.Buttons(); len(rows) < 2 || len(rows[0]) != 8 || !strings.HasPrefix(*rows[0][0].CallbackData, "p:") {
				t.Fatalf("gomoku keyboard: %v", rows)
			}
			if cfg, err := png.DecodeConfig(bytes.NewReader(m.Photo)); err != nil || cfg.Width < 15*20 {
				t.Fatalf("gomoku photo: %+v, %v", cfg, err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 15))
			var v session.View
			for range 120 {
				v = h.gameOfRunning(chat, me)
				if v.Status() != session.Running {
					break
				}
				empty := emptyCells(v)
				cell := render.FormatCoord(empty[rng.IntN(len(empty))], v.Rules())
				edits := len(h.fake.Calls("editMessageMedia"))
				h.say(chat, me, cell)
				if got := len(h.fake.Calls("editMessageMedia")); got != edits+1 {
					t.Fatalf("typed %s: %d picture edits", cell, got-edits)
				}
			}
			final, _ := h.fake.Message(chat.ID, m.ID)
			if final.Edits == 0 || !strings.Contains(final.Caption, "Winner") && !strings.Contains(final.Caption, "Draw") {
				t.Fatalf("final picture caption %q after %d edits", final.Caption, final.Edits)
			}
			// The caption is the board's text but the emoji board
			// (render.Compose), as on every platform: the last move too.
			last, _ := v.LastMove()
			if want := render.T(render.English, render.MsgLastMove, "", render.FormatCoord(last, v.Rules()))[len("Last move: "):]; !strings.Contains(final.Caption, "Last move: ") || !strings.Contains(final.Caption, want) {
				t.Fatalf("final picture caption %q lacks the last move %s", final.Caption, want)
			}
			if n := len(h.fake.BotMessages(chat.ID)); n != 1 {
				t.Fatalf("typed moves added %d messages", n-1)
			}
		})
	}
}

// gameOfRunning returns the user's latest game in chat: the running one,
// or the one the last board message shows.
func (h *harness) gameOfRunning(chat tgbotapi.Chat, from tgbotapi.User) session.View {
	h.t.Helper()
	who := session.Actor{Platform: telegram.Platform, Chat: itoa64(chat.ID), User: session.User{ID: itoa64(from.ID)}}
	v, err := h.svc.Begin(context.Background(), session.Request{Actor: who}).Running()
	if err == nil {
		h.last = v.ID()
		return v
	}
	v, err = h.svc.Game(context.Background(), h.last)
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

func emptyCells(v session.View) []engine.Point {
	var out []engine.Point
	b := v.Board()
	r := v.Rules()
	for y := range r.Height {
		for x := range r.Width {
			if b.At(pt(x, y)) == engine.Empty {
				out = append(out, pt(x, y))
			}
		}
	}
	return out
}

func TestTypedCoordinatesOnSmallBoard(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(300), user(300, "en")
	m := h.startGame(chat, me, "/play easy ttt")
	h.say(chat, me, "b2")
	after, _ := h.fake.Message(chat.ID, m.ID)
	v := h.game(chat, after)
	if got := v.Board().At(pt(1, 1)); got != engine.Black || after.Edits != 1 {
		t.Fatalf("b2 gave %v at the centre, %d edits:\n%s", got, after.Edits, after.Text)
	}
	checkBoardMatches(t, after, v)
	// Off the board: a short reply, nothing changes.
	h.say(chat, me, "z9")
	last := h.lastBot(chat)
	if !strings.Contains(last.Text, "not a cell") {
		t.Fatalf("z9 answered %q", last.Text)
	}
	if v2 := h.game(chat, after); v2.Version() != v.Version() {
		t.Fatal("a bad coordinate changed the game")
	}
	// Ordinary chat is left alone.
	n := len(h.fake.BotMessages(chat.ID))
	h.say(chat, me, "hello there")
	if len(h.fake.BotMessages(chat.ID)) != n {
		t.Fatal("the bot answered small talk")
	}
}

func TestDoubledTapAppliesOnce(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(400), user(400, "en")
	m := h.startGame(chat, me, "/play medium ttt")
	data := placeButtons(m)[0]
	// Both taps are queued before either is handled.
	id1 := h.fake.Tap(chat, me, m.ID, data)
	id2 := h.fake.Tap(chat, me, m.ID, data)
	h.wait("both answers", func() bool { return h.fake.Answered(id1) && h.fake.Answered(id2) })
	a1, a2 := h.fake.Answers(id1), h.fake.Answers(id2)
	if len(a1) != 1 || len(a2) != 1 || a1[0].Params["text"] != "" || a2[0].Params["text"] != render.T(render.English, render.MsgStale) {
		t.Fatalf("answers %v / %v", a1, a2)
	}
	h.flush(chat) // the answers do not wait for the edit
	after, _ := h.fake.Message(chat.ID, m.ID)
	v := h.game(chat, after)
	if after.Edits != 1 || len(v.Moves()) != 2 {
		t.Fatalf("%d edits, %d moves", after.Edits, len(v.Moves()))
	}
	checkBoardMatches(t, after, v)
}

func TestTapOnFinishedGame(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(500), user(500, "en")
	m := h.startGame(chat, me, "/play easy ttt")
	stale := placeButtons(m)[0]
	h.say(chat, me, "/resign")
	after, _ := h.fake.Message(chat.ID, m.ID)
	if !strings.Contains(after.Text, "resigned") || len(placeButtons(after)) != 0 || after.Edits != 1 {
		t.Fatalf("after /resign:\n%s\n%v", after.Text, after.Buttons())
	}
	if got := h.tap(chat, me, m.ID, stale); got != render.T(render.English, render.MsgGameOver) {
		t.Fatalf("tap on a finished game answered %q", got)
	}
	if again, _ := h.fake.Message(chat.ID, m.ID); again.Edits != after.Edits {
		t.Fatal("a tap on a finished game edited the board")
	}
}

func TestForgedCallbacksChangeNothing(t *testing.T) {
	h := newHarness(t, nil)
	chatA, alice := private(600), user(600, "en")
	chatB, bob := private(601), user(601, "zh-hans")
	mA := h.startGame(chatA, alice, "/play hard ttt")
	mB := h.startGame(chatB, bob, "/play hard ttt")
	vA, vB := h.game(chatA, mA), h.game(chatB, mB)
	calls := len(h.fake.Calls(""))
	for _, tc := range []struct {
		name, data, want string
		msg              int
	}{
		{"another chat's game", placeButtons(mA)[0], render.T(render.Chinese, render.MsgNotFound), mB.ID},
		{"another chat's resign", "r:" + string(vA.ID()), render.T(render.Chinese, render.MsgNotFound), mB.ID},
		{"garbage", "\x00garbage\xff", render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"oversize", "p:" + string(vB.ID()) + ":0:0:0" + strings.Repeat("9", 80), render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"bad menu", "m:chess:hard", render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"bad menu level", "m:ttt:insane", render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"menu data on a board", "m", render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"menu level on a board", "m:ttt:easy", render.T(render.Chinese, render.MsgBadCallback), mB.ID},
		{"off the board", "p:" + string(vB.ID()) + ":0:7:7", render.T(render.Chinese, render.MsgOffBoard), mB.ID},
	} {
		if got := h.tap(chatB, bob, tc.msg, tc.data); got != tc.want {
			t.Errorf("%s: answered %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, c := range h.fake.Calls("")[calls:] {
		if c.Method != "answerCallbackQuery" && c.Method != "getUpdates" {
			t.Errorf("a forged tap caused %s %v", c.Method, c.Params)
		}
	}
	for _, v := range []session.View{vA, vB} {
		now, err := h.svc.Game(context.Background(), v.ID())
		if err != nil || now.Version() != v.Version() {
			t.Errorf("game %s changed: version %d → %d (%v)", v.ID(), v.Version(), now.Version(), err)
		}
	}
}

func TestRestartMidGameContinuesOnTheOldMessage(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(700), user(700, "en")
	m := h.startGame(chat, me, "/play medium 7x7")
	if got := h.tap(chat, me, m.ID, placeButtons(m)[0]); got != "" {
		t.Fatalf("first tap: %q", got)
	}
	h.restart()
	v := h.playByTaps(chat, me, m.ID, rand.New(rand.NewPCG(7, 7)))
	if v.Message() != itoa(m.ID) || len(h.fake.BotMessages(chat.ID)) != 1 {
		t.Fatalf("after restart: game on message %q, %d bot messages", v.Message(), len(h.fake.BotMessages(chat.ID)))
	}
}

func TestFloodWaitOnEditHonoursRetryAfter(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(800), user(800, "en")
	m := h.startGame(chat, me, "/play medium ttt")
	h.fake.Fail("editMessageText", telegramtest.TooManyRequests(7))
	if got := h.tap(chat, me, m.ID, placeButtons(m)[4]); got != "" {
		t.Fatalf("tap answered %q", got)
	}
	if !slices.Contains(h.sleep.Waits(), 7*time.Second) {
		t.Fatalf("waits %v do not include retry_after 7s", h.sleep.Waits())
	}
	edits := h.fake.Calls("editMessageText")
	if len(edits) != 2 || edits[0].Status != http.StatusTooManyRequests || edits[1].Status != http.StatusOK {
		t.Fatalf("edit calls: %v", edits)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	checkBoardMatches(t, after, h.game(chat, after))
}

func TestNotModifiedIsSuccess(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(900), user(900, "en")
	m := h.startGame(chat, me, "/play medium ttt")
	h.fake.Fail("editMessageText", telegramtest.NotModified())
	if got := h.tap(chat, me, m.ID, placeButtons(m)[0]); got != "" {
		t.Fatalf("tap answered %q", got)
	}
	if n := len(h.fake.Calls("editMessageText")); n != 1 {
		t.Fatalf("not modified was retried: %d edits", n)
	}
	if len(h.sleep.Waits()) != 0 {
		t.Fatalf("waited %v", h.sleep.Waits())
	}
}

func TestPollingBacksOffAndConfirms(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.fake.Fail("getUpdates", telegramtest.ServerError(), telegramtest.TooManyRequests(4), telegramtest.Fault{Status: http.StatusBadGateway, Raw: "<html>502 Bad Gateway</html>"})
	})
	chat, me := private(1000), user(1000, "en")
	h.fake.SendText(chat, me, "/play")
	h.sync(chat)
	if n := len(h.fake.BotMessages(chat.ID)); n != 1 {
		t.Fatalf("%d bot messages after the errors", n)
	}
	waits := h.sleep.Waits()
	if !slices.Contains(waits, 4*time.Second) || len(waits) < 3 {
		t.Fatalf("waits %v: want a back-off per failure and retry_after 4s", waits)
	}
	h.stop()
	if h.fake.Pending() != 0 {
		t.Fatalf("%d handled updates left unconfirmed", h.fake.Pending())
	}
}

// TestTypingFollowsTheAIPoolRule checks that "typing…" comes before a
// tap, a typed move and a /play exactly when the AI answers with a search
// of the AI pool (session.Expensive): hard from 5×5 up, not on 4×4.
func TestTypingFollowsTheAIPoolRule(t *testing.T) {
	h := newHarness(t, nil)
	for i, tt := range []struct {
		play string
		slow bool
	}{
		{"/play 4x4 hard", false},
		{"/play 5x5 hard", true},
		{"/play 7x7 medium", false},
	} {
		chat, me := private(1100+int64(i)), user(1100+int64(i), "en")
		typing := func() []string {
			var order []string
			for _, c := range h.fake.Calls("") {
				if c.Params["chat_id"] != itoa64(chat.ID) {
					continue
				}
				switch c.Method {
				case "sendChatAction", "editMessageText", "sendMessage":
					order = append(order, c.Method)
				}
			}
			return order
		}
		want := func(what string, n int, last string) {
			t.Helper()
			order := typing()
			exp := []string{last}
			if tt.slow {
				exp = []string{"sendChatAction", last}
			}
			if len(order) < n || !slices.Equal(order[n:], exp) {
				t.Fatalf("%s, %s: calls %v, want %v", tt.play, what, order[n:], exp)
			}
		}
		m := h.startGame(chat, me, tt.play)
		n := len(typing())
		h.tap(chat, me, m.ID, placeButtons(m)[0])
		h.flush(chat)
		want("tap", n, "editMessageText")
		v := h.game(chat, h.lastBot(chat))
		n = len(typing())
		h.say(chat, me, render.FormatCoord(v.Board().LegalMoves()[0], v.Rules()))
		h.flush(chat)
		want("typed move", n, "editMessageText")
		h.say(chat, me, "/resign")
		h.flush(chat)
		n = len(typing())
		h.say(chat, me, tt.play+" second")
		h.flush(chat)
		want("/play second", n, "sendMessage")
	}
}

func TestStartMenu(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(1200), user(1200, "zh-CN")
	h.say(chat, me, "/start")
	menu := h.lastBot(chat)
	if !strings.Contains(menu.Text, "选择棋盘") || len(menu.Buttons()) == 0 {
		t.Fatalf("menu:\n%s\n%v", menu.Text, menu.Buttons())
	}
	find := func(m telegramtest.Message, data string) {
		t.Helper()
		for _, row := range m.Buttons() {
			for _, b := range row {
				if *b.CallbackData == data {
					return
				}
			}
		}
		t.Fatalf("no button %q in %v", data, m.Buttons())
	}
	find(menu, "m:ttt")
	if got := h.tap(chat, me, menu.ID, "m:ttt"); got != "" {
		t.Fatal(got)
	}
	levels, _ := h.fake.Message(chat.ID, menu.ID)
	find(levels, "m:ttt:hard")
	find(levels, "m")
	if got := h.tap(chat, me, menu.ID, "m:ttt:hard"); got != "" {
		t.Fatal(got)
	}
	board, _ := h.fake.Message(chat.ID, menu.ID)
	v := h.game(chat, board)
	if v.Seat(engine.White).AI != engine.Hard || v.Message() != itoa(menu.ID) || len(h.fake.BotMessages(chat.ID)) != 1 {
		t.Fatalf("menu start: %v, message %q, %d bot messages", v.Seat(engine.White), v.Message(), len(h.fake.BotMessages(chat.ID)))
	}
	if want := render.Text(v, render.Chinese); board.Text != want {
		t.Fatalf("board text:\n%s\nwant\n%s", board.Text, want)
	}
	// A second start from the menu while playing: a toast, nothing else.
	h.say(chat, me, "/start")
	menu2 := h.lastBot(chat)
	h.tap(chat, me, menu2.ID, "m:7x7")
	if got := h.tap(chat, me, menu2.ID, "m:7x7:easy"); got != render.T(render.Chinese, render.MsgAlreadyPlaying) {
		t.Fatalf("second game from the menu answered %q", got)
	}
}

func TestGroupsGiveEachUserTheirOwnBoard(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-1300)
	alice, bob := user(1301, "en"), user(1302, "en")
	mA := h.startGame(chat, alice, "/play@BoardTestBot hard")
	mB := h.startGame(chat, bob, "/play@boardtestbot easy 7x7")
	if mA.ID == mB.ID || h.game(chat, mA).Rules().Width != 3 || h.game(chat, mB).Rules().Width != 7 {
		t.Fatal("the two users do not have their own boards")
	}
	n := len(h.fake.BotMessages(chat.ID))
	h.say(chat, alice, "/play@SomeOtherBot")
	if len(h.fake.BotMessages(chat.ID)) != n {
		t.Fatal("answered a command for another bot")
	}
	if got := h.tap(chat, bob, mA.ID, placeButtons(mA)[0]); got != render.T(render.English, render.MsgNotAPlayer) {
		t.Fatalf("bob tapping alice's board: %q", got)
	}
	if m, _ := h.fake.Message(chat.ID, mA.ID); m.Edits != 0 {
		t.Fatal("bob's tap edited alice's board")
	}
	if got := h.tap(chat, alice, mA.ID, placeButtons(mA)[0]); got != "" {
		t.Fatalf("alice's own tap: %q", got)
	}
}

func TestCommandsRegisteredInEnglishAndChinese(t *testing.T) {
	h := newHarness(t, nil)
	h.sync(private(1))
	calls := h.fake.Calls("setMyCommands")
	langs := map[string]string{}
	for _, c := range calls {
		langs[c.Params["language_code"]] = c.Params["commands"]
	}
	for _, lang := range []string{"", "zh"} {
		// Every command of the grammar, as the README lists them.
		for _, cmd := range []string{
			adapters.CmdPlay, adapters.CmdStart, adapters.CmdHelp, adapters.CmdResign, adapters.CmdDuel, adapters.CmdAccept,
			adapters.CmdDecline, adapters.CmdCancel, adapters.CmdRematch, adapters.CmdStats, adapters.CmdTop, adapters.CmdLang, adapters.CmdUndo,
			adapters.CmdChatLang, adapters.CmdGames,
		} {
			if !strings.Contains(langs[lang], `"command":"`+cmd+`"`) {
				t.Errorf("language %q: no /%s in %s", lang, cmd, langs[lang])
			}
		}
	}
	if !strings.Contains(langs["zh"], "认输") {
		t.Errorf("Chinese commands: %s", langs["zh"])
	}
}

func TestWebhookChecksTheSecret(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const secret = "s3cret-Token_1"
	h := newHarness(t, func(h *harness) {
		c := &h.cfg
		c.Mode = telegram.ModeWebhook
		c.Webhook = telegram.WebhookConfig{URL: "http://" + ln.Addr().String() + "/tg/hook", Secret: secret, Listener: ln}
	})
	h.wait("setWebhook", func() bool { u, _ := h.fake.Webhook(); return u != "" })
	if u, s := h.fake.Webhook(); !strings.HasSuffix(u, "/tg/hook") || s != secret {
		t.Fatalf("webhook %q secret %q", u, s)
	}
	chat, me := private(1400), user(1400, "en")
	ctx := context.Background()
	for _, bad := range []string{"", "wrong"} {
		status, err := h.fake.Deliver(ctx, h.fake.NewTextUpdate(chat, me, "/play"), bad)
		if err != nil || status != http.StatusUnauthorized {
			t.Fatalf("secret %q: status %d, %v", bad, status, err)
		}
	}
	status, err := h.fake.Deliver(ctx, h.fake.NewTextUpdate(chat, me, "/play"), secret)
	if err != nil || status != http.StatusOK {
		t.Fatalf("right secret: status %d, %v", status, err)
	}
	h.wait("board", func() bool { return len(h.fake.BotMessages(chat.ID)) == 1 })
	m := h.lastBot(chat)
	u, cb := h.fake.NewTapUpdate(chat, me, m.ID, placeButtons(m)[0])
	if status, err := h.fake.Deliver(ctx, u, secret); err != nil || status != http.StatusOK {
		t.Fatalf("tap: %d %v", status, err)
	}
	h.wait("tap answer", func() bool { return h.fake.Answered(cb) })
	h.stop()
	if len(h.fake.BotMessages(chat.ID)) != 1 || len(h.fake.Calls("getUpdates")) != 0 {
		t.Fatalf("wrong secrets were processed or polling ran: %d messages", len(h.fake.BotMessages(chat.ID)))
	}
	if after, _ := h.fake.Message(chat.ID, m.ID); after.Edits != 1 {
		t.Fatalf("%d edits after one tap", after.Edits)
	}
}

func TestPerChatOrderWithParallelChats(t *testing.T) {
	h := newHarness(t, nil)
	chatA, alice := private(1500), user(1500, "en")
	chatB, bob := private(1501), user(1501, "en")
	mA := h.startGame(chatA, alice, "/play easy 7x7")
	mB := h.startGame(chatB, bob, "/play easy 7x7")
	hold := make(chan struct{})
	h.fake.Fail("editMessageText", telegramtest.Fault{Hold: hold})
	// Alice's tap hangs in its edit; her typed move must come after it,
	// though the tap's answer does not wait for the edit.
	tapA := h.fake.Tap(chatA, alice, mA.ID, placeButtons(mA)[0])
	h.wait("alice's held edit", func() bool {
		return h.fake.Held() == 1
	})
	h.fake.SendText(chatA, alice, "g1")
	// Bob's chat goes on meanwhile.
	if got := h.tap(chatB, bob, mB.ID, placeButtons(mB)[0]); got != "" {
		t.Fatalf("bob: %q", got)
	}
	h.wait("alice's answer while her edit is held", func() bool { return h.fake.Answered(tapA) })
	close(hold)
	h.sync(chatA)
	// Had the typed move overtaken the tap, it would have been move 0 and
	// the tap refused as stale.
	if a := h.fake.Answers(tapA); a[0].Params["text"] != "" {
		t.Fatalf("alice's tap answered %q", a[0].Params["text"])
	}
	board, _ := h.fake.Message(chatA.ID, mA.ID)
	moves := h.game(chatA, board).Moves()
	typed := len(moves) == 4 && moves[2] == pt(6, 6)
	taken := h.lastBot(chatA).Text == render.T(render.English, render.MsgCellTaken)
	if moves[0] != pt(0, 0) || !typed && !taken {
		t.Fatalf("alice's moves out of order: %v", moves)
	}
}

func TestWrongTokenIsATypedErrorWithoutTheToken(t *testing.T) {
	fake := telegramtest.NewServer()
	defer fake.Close()
	_, err := telegram.New(context.Background(), nil, telegram.Config{Token: "999:not-the-token", APIEndpoint: fake.Endpoint()})
	var ae *telegram.APIError
	if !errors.As(err, &ae) || ae.Code != http.StatusUnauthorized || strings.Contains(err.Error(), "not-the-token") {
		t.Fatalf("New with a wrong token: %v", err)
	}
}

func TestPollingStopsWhenTheTokenIsRevoked(t *testing.T) {
	fake := telegramtest.NewServer()
	defer fake.Close()
	store, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s := &sleeper{}
	var codes []int // Run calls OnAPIError from its polling goroutine only
	bot, err := telegram.New(context.Background(), session.New(store, nil), telegram.Config{Token: telegramtest.Token, APIEndpoint: fake.Endpoint(), Sleep: s.Sleep,
		OnAPIError: func(code int) { codes = append(codes, code) }})
	if err != nil {
		t.Fatal(err)
	}
	fake.Fail("getUpdates", telegramtest.ServerError(), telegramtest.Fault{Status: http.StatusUnauthorized, Description: "Unauthorized"})
	err = bot.Run(context.Background())
	var ae *telegram.APIError
	if !errors.As(err, &ae) || ae.Code != http.StatusUnauthorized {
		t.Fatalf("Run with a revoked token: %v", err)
	}
	if !slices.Equal(codes, []int{http.StatusInternalServerError, http.StatusUnauthorized}) {
		t.Fatalf("OnAPIError heard %v", codes)
	}
}

func TestServerErrorsAreRetriedWithBackoff(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(1600), user(1600, "en")
	h.fake.Fail("sendMessage", telegramtest.TooManyRequests(2))
	m := h.startGame(chat, me, "/play medium ttt")
	h.fake.Fail("editMessageText", telegramtest.ServerError(), telegramtest.Fault{Status: http.StatusBadGateway, Raw: "<html>bad gateway</html>"})
	if got := h.tap(chat, me, m.ID, placeButtons(m)[0]); got != "" {
		t.Fatalf("tap answered %q", got)
	}
	// retry_after 2 s for the flood, then the back-off's 1 s and 2 s.
	if waits := h.sleep.Waits(); !slices.Equal(waits, []time.Duration{2 * time.Second, time.Second, 2 * time.Second}) {
		t.Fatalf("waits %v", waits)
	}
	if sends := h.fake.Calls("sendMessage"); len(sends) != 2 || len(h.fake.BotMessages(chat.ID)) != 1 {
		t.Fatalf("a flood-refused send was not retried once: %d calls", len(sends))
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	checkBoardMatches(t, after, h.game(chat, after))
}

// TestTapsThatPlaceNothingSayWhy checks that a tap on a taken cell, and on
// a cell of a finished game, is answered with a toast saying why.
func TestTapsThatPlaceNothingSayWhy(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(700), user(700, "en")
	m := h.startGame(chat, me, "/play easy")
	v := h.game(chat, m)
	centre := "p:" + string(v.ID()) + ":0:1:1"
	if got := h.tap(chat, me, m.ID, centre); got != "" {
		t.Fatalf("first move answered %q", got)
	}
	m, _ = h.fake.Message(chat.ID, m.ID)
	taken := *m.Buttons()[1][1].CallbackData
	if got := h.tap(chat, me, m.ID, taken); got != "That cell is taken." {
		t.Errorf("tap on the taken centre (%q) answered %q", taken, got)
	}
	h.say(chat, me, "/resign")
	m, _ = h.fake.Message(chat.ID, m.ID)
	for _, b := range []string{*m.Buttons()[0][0].CallbackData, taken} {
		if got := h.tap(chat, me, m.ID, b); got != "This game is over." {
			t.Errorf("tap on %q of a finished game answered %q", b, got)
		}
	}
}

func TestStartMenuFollowsTheLangSetting(t *testing.T) {
	h := newHarness(t, nil)
	chat, me := private(1300), user(1300, "en")
	h.say(chat, me, "/lang zh")
	h.say(chat, me, "/start")
	menu := h.lastBot(chat)
	if got := h.tap(chat, me, menu.ID, "m:ttt"); got != "" {
		t.Fatal(got)
	}
	levels, _ := h.fake.Message(chat.ID, menu.ID)
	want := render.T(render.Chinese, render.MsgPickLevel, render.GameName(render.Chinese, engine.TicTacToe()))
	var labels []string
	for _, row := range levels.Buttons() {
		for _, b := range row {
			labels = append(labels, b.Text)
		}
	}
	if levels.Text != want || !slices.Contains(labels, render.LevelName(render.Chinese, engine.Hard)) || !slices.Contains(labels, render.T(render.Chinese, render.MsgBack)) {
		t.Fatalf("levels menu of a user who chose Chinese: %q %v", levels.Text, labels)
	}
}

// TestPollingKeepsAReclaimTickOffItsUpdates ticks the reclaim while a
// polled tap is being handled (its AI waits at a gate): the tick leaves
// the tap to its handling, so that it is answered, and its board edited,
// once.
func TestPollingKeepsAReclaimTickOffItsUpdates(t *testing.T) {
	reclaim := make(chan time.Time)
	entered, release := make(chan struct{}, 1), make(chan struct{})
	h := newHarness(t, func(h *harness) {
		h.cfg.Reclaim = reclaim
		h.tune = func(c *session.Config) {
			c.NewPlayer = func(l engine.Level, _ *rand.Rand) (engine.Player, error) {
				return gatedPlayer{level: l, entered: entered, release: release}, nil
			}
		}
	})
	chat, me := private(1200), user(1200, "en")
	m := h.startGame(chat, me, "/play hard 5x5 first")
	cb := h.fake.Tap(chat, me, m.ID, placeButtons(m)[0])
	<-entered
	// The second tick is taken only once the first was dealt with.
	reclaim <- time.Now()
	reclaim <- time.Now()
	close(release)
	h.sync(chat)
	if n := len(h.fake.Answers(cb)); n != 1 {
		t.Errorf("the tap was answered %d times, want once", n)
	}
	if got, _ := h.fake.Message(chat.ID, m.ID); got.Edits != 1 {
		t.Errorf("the board was edited %d times, want once", got.Edits)
	}
}
