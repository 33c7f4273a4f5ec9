package telegram_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// inlineQuery sends an inline query and waits for the bot's answer.
func (h *harness) inlineQuery(from tgbotapi.User, query string) (string, telegramtest.InlineAnswer) {
	h.t.Helper()
	id := h.fake.InlineQuery(from, query)
	var a telegramtest.InlineAnswer
	h.wait("the answer to "+query, func() bool {
		var ok bool
		a, ok = h.fake.InlineAnswer(id)
		return ok
	})
	return id, a
}

// post posts result resultID of the answer to query as its user would,
// with or without inline feedback, and returns the inline message's id;
// with feedback it waits until the bot showed the game in it.
func (h *harness) post(query, resultID string, feedback bool) string {
	h.t.Helper()
	id, err := h.fake.Choose(query, resultID, feedback)
	if err != nil {
		h.t.Fatal(err)
	}
	if feedback {
		h.wait("the posted game", func() bool { m, _ := h.fake.InlineMessage(id); return m.Edits > 0 })
		h.flushInline(id)
	}
	return id
}

// flushInline waits until the edits queued for inline message id were made.
func (h *harness) flushInline(id string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := telegram.FlushInline(ctx, h.bot, id); err != nil {
		h.t.Fatalf("flushing the edits: %v", err)
	}
}

// inlineTap taps a button of inline message id and waits for its answer
// and edit, returning the answer's text.
func (h *harness) inlineTap(from tgbotapi.User, id, data string) string {
	h.t.Helper()
	cb := h.fake.InlineTap(from, id, data)
	h.wait("answer to "+data, func() bool { return h.fake.Answered(cb) })
	h.flushInline(id)
	a := h.fake.Answers(cb)
	return a[len(a)-1].Params["text"]
}

// inlineMessage returns inline message id, failing when there is none.
func (h *harness) inlineMessage(id string) telegramtest.Message {
	h.t.Helper()
	m, ok := h.fake.InlineMessage(id)
	if !ok {
		h.t.Fatalf("no inline message %q", id)
	}
	return m
}

// dataOf returns the callback data of the message's button labelled label.
func dataOf(t *testing.T, m telegramtest.Message, label string) string {
	t.Helper()
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.Text == label {
				return *b.CallbackData
			}
		}
	}
	t.Fatalf("no %q button on\n%s", label, m.Text)
	return ""
}

// TestInlineQueryOffersGames answers inline queries: every game, open to
// anyone or against the AI at each level; the words of /play filter;
// words that match nothing give no result and a button that says so.
func TestInlineQueryOffersGames(t *testing.T) {
	h := newHarness(t, nil)
	ann := named(9100, "ann", "en")
	_, a := h.inlineQuery(ann, "")
	if want := len(telegram.InlineGames()) * 4; len(a.Results) != want || !a.IsPersonal || a.CacheTime <= 0 {
		t.Fatalf("%d results (want %d), personal %v, cache %d", len(a.Results), want, a.IsPersonal, a.CacheTime)
	}
	for _, r := range a.Results {
		if len(r.Markup.InlineKeyboard) != 1 || len(r.Markup.InlineKeyboard[0]) != 1 {
			t.Errorf("result %s has keyboard %+v", r.ID, r.Markup)
		}
	}
	_, a = h.inlineQuery(ann, "gomoku hard")
	if len(a.Results) != 1 || a.Results[0].ID != "a.hard.gomoku.first" || a.Results[0].Title != "Gomoku 15×15 · against the AI (hard)" {
		t.Fatalf("gomoku hard: %+v", a.Results)
	}
	if !strings.Contains(a.Results[0].Text, "ann: Gomoku 15×15 against the AI (hard).") {
		t.Errorf("posted text %q", a.Results[0].Text)
	}
	_, a = h.inlineQuery(ann, "7x7 second")
	if len(a.Results) != 4 || a.Results[0].ID != "d.7x7.second" || a.Results[3].ID != "a.hard.7x7.second" {
		t.Fatalf("7x7 second: %+v", a.Results)
	}
	_, a = h.inlineQuery(ann, "chess")
	if len(a.Results) != 0 || a.Button != "No game matches “chess”" {
		t.Fatalf("chess: %+v", a)
	}
	_, a = h.inlineQuery(named(9101, "li", "zh-hans"), "ttt easy")
	if len(a.Results) != 1 || a.Results[0].Title != "井字棋 · 对战 AI（简单）" {
		t.Fatalf("in Chinese: %+v", a.Results)
	}
	polls := h.fake.Calls("getUpdates")
	if au := polls[len(polls)-1].Params["allowed_updates"]; !strings.Contains(au, `"inline_query"`) || !strings.Contains(au, `"chosen_inline_result"`) {
		t.Errorf("allowed_updates %s", au)
	}
}

// TestInlineGameAgainstTheAI plays a whole tic-tac-toe game against the AI
// in an inline message posted with inline feedback: the bot starts it as
// it is posted, the taps edit it through inline_message_id, strangers and
// stale taps are refused, and the result counts in /stats.
func TestInlineGameAgainstTheAI(t *testing.T) {
	h := newHarness(t, nil)
	ann, bob := named(9200, "ann", "en"), named(9201, "bob", "en")
	q, _ := h.inlineQuery(ann, "ttt easy")
	id := h.post(q, "a.easy.ttt.first", true)
	m := h.inlineMessage(id)
	v := h.game(tgbotapi.Chat{}, m)
	if v.Chat() != telegram.InlineChat(id) || v.Message() != id || v.Status() != session.Running {
		t.Fatalf("game %s in chat %q, message %q, %s", v.ID(), v.Chat(), v.Message(), v.Status())
	}
	checkBoardMatches(t, m, v)
	if got := h.inlineTap(bob, id, placeButtons(m)[0]); got != render.T(render.English, render.MsgNotAPlayer) {
		t.Fatalf("bob's tap answered %q", got)
	}
	stale := placeButtons(m)[0]
	for range 9 {
		m = h.inlineMessage(id)
		live := placeButtons(m)
		if len(live) == 0 {
			break
		}
		if got := h.inlineTap(ann, id, live[len(live)-1]); got != "" {
			t.Fatalf("tap answered %q", got)
		}
	}
	m = h.inlineMessage(id)
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Status() == session.Running {
		t.Fatalf("the game did not end:\n%s", m.Text)
	}
	checkBoardMatches(t, m, v)
	if got := h.inlineTap(ann, id, stale); got != render.T(render.English, render.MsgGameOver) && got != render.T(render.English, render.MsgStale) {
		t.Fatalf("a stale tap answered %q", got)
	}
	st, _ := h.svc.Stats(context.Background(), telegram.Platform, itoa64(ann.ID))
	if st.Against(session.VsEasy).Games() != 1 {
		t.Fatalf("ann's stats: %+v", st)
	}
}

// TestInlineGomokuReachesEveryCell starts gomoku in an inline message by
// ▶️ Start (no inline feedback): the message is the emoji board of the
// whole game with a window of buttons, whose arrows reach every cell, and
// a cell tapped in a far window takes the stone.
func TestInlineGomokuReachesEveryCell(t *testing.T) {
	h := newHarness(t, nil)
	ann := named(9300, "ann", "en")
	q, a := h.inlineQuery(ann, "gomoku easy")
	id := h.post(q, a.Results[0].ID, false)
	if got := h.inlineTap(ann, id, dataOf(t, h.inlineMessage(id), "▶️ Start")); got != "" {
		t.Fatalf("▶️ answered %q", got)
	}
	m := h.inlineMessage(id)
	v := h.game(tgbotapi.Chat{}, m)
	if !strings.Contains(m.Text, render.Grid(v)) || len(m.Photo) != 0 {
		t.Fatalf("the message is not the emoji board:\n%s", m.Text)
	}
	seen := map[engine.Point]bool{}
	windows := map[string]bool{}
	queue := []string{""}
	for len(queue) > 0 {
		scroll := queue[0]
		queue = queue[1:]
		if scroll != "" {
			if got := h.inlineTap(ann, id, scroll); got != "" {
				t.Fatalf("scroll %s answered %q", scroll, got)
			}
		}
		m = h.inlineMessage(id)
		for _, row := range m.Buttons() {
			for _, b := range row {
				d := *b.CallbackData
				f := strings.Split(d, ":")
				switch {
				case f[0] == "p" || (f[0] == "n" && len(f) == 4):
					x, y := cellOf(t, d)
					seen[pt(x, y)] = true
				case f[0] == "s" && !windows[d]:
					windows[d] = true
					queue = append(queue, d)
				}
			}
		}
	}
	for y := range 15 {
		for x := range 15 {
			if !seen[pt(x, y)] {
				t.Fatalf("cell %d,%d is on no window (%d windows)", x, y, len(windows))
			}
		}
	}
	// A stone in the top-left corner, tapped in its window.
	if got := h.inlineTap(ann, id, windowOf(t, h, ann, id, v, pt(0, 0))); got != "" {
		t.Fatalf("corner tap answered %q", got)
	}
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Board().At(pt(0, 0)) != engine.Black {
		t.Fatalf("the corner is empty:\n%s", h.inlineMessage(id).Text)
	}
}

// windowOf scrolls inline message id until cell p has a button and
// returns that button's data.
func windowOf(t *testing.T, h *harness, from tgbotapi.User, id string, v session.View, p engine.Point) string {
	t.Helper()
	for range 20 {
		m := h.inlineMessage(id)
		var left, up string
		for _, row := range m.Buttons() {
			for _, b := range row {
				d := *b.CallbackData
				if strings.HasPrefix(d, "p:") {
					if x, y := cellOf(t, d); pt(x, y) == p {
						return d
					}
				}
				switch b.Text {
				case "⬅️":
					left = d
				case "⬆️":
					up = d
				}
			}
		}
		next := left
		if next == "" || !strings.HasPrefix(next, "s:") {
			next = up
		}
		if !strings.HasPrefix(next, "s:") {
			t.Fatalf("no way to cell %v", p)
		}
		h.inlineTap(from, id, next)
	}
	t.Fatalf("cell %v not reached", p)
	return ""
}

// cellOf returns the cell of place or no-op data.
func cellOf(t *testing.T, data string) (int, int) {
	t.Helper()
	f := strings.Split(data, ":")
	switch {
	case f[0] == "p":
		return atoi(t, f[3]), atoi(t, f[4])
	case f[0] == "n" && len(f) == 4:
		return atoi(t, f[2]), atoi(t, f[3])
	}
	t.Fatalf("no cell in %q", data)
	return 0, 0
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestInlineDuel posts an open challenge inline: the challenger cannot
// join it, bob joins (his Join delivered twice takes effect once),
// strangers are refused, the two play it out by taps, and the result
// moves both ratings.
func TestInlineDuel(t *testing.T) {
	h := newHarness(t, nil)
	ann, bob, cat := named(9400, "ann", "en"), named(9401, "bob", "zh-hans"), named(9402, "cat", "en")
	q, _ := h.inlineQuery(ann, "ttt first")
	id := h.post(q, "d.ttt.first", true)
	m := h.inlineMessage(id)
	if !strings.Contains(m.Text, "ann") {
		t.Fatalf("challenge:\n%s", m.Text)
	}
	if got := h.inlineTap(ann, id, telegram.InlineJoinData); got != render.T(render.English, render.MsgInlineOwnChallenge) {
		t.Fatalf("ann joins her own challenge: %q", got)
	}
	u, cb := h.fake.NewInlineTapUpdate(bob, id, telegram.InlineJoinData)
	uid := h.fake.PushUpdate(u)
	h.wait("bob's join", func() bool { return h.fake.Answered(cb) })
	u.UpdateID = uid
	h.fake.Redeliver(u)
	h.wait("the join again", func() bool { return h.fake.Deliveries(uid) >= 2 })
	if got := h.inlineTap(cat, id, "n"); got != "" {
		t.Fatalf("sync tap answered %q", got)
	}
	m = h.inlineMessage(id)
	v := h.game(tgbotapi.Chat{}, m)
	if v.Status() != session.Running || v.MoveNo() != 0 || v.Seat(engine.White).User.ID != itoa64(bob.ID) {
		t.Fatalf("after bob's join: %s, %d moves, white %+v", v.Status(), v.MoveNo(), v.Seat(engine.White))
	}
	live, _ := h.svc.Begin(context.Background(), session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: telegram.InlineChat(id), User: userOf(bob)}}).Live()
	if len(live) != 1 {
		t.Fatalf("%d live games after a doubled join", len(live))
	}
	if got := h.inlineTap(cat, id, placeButtons(m)[0]); got != render.T(render.English, render.MsgNotAPlayer) {
		t.Fatalf("cat's tap answered %q", got)
	}
	if got := h.inlineTap(bob, id, placeButtons(m)[0]); got != render.T(render.Chinese, render.MsgNotYourTurn) {
		t.Fatalf("bob out of turn answered %q", got)
	}
	players := map[engine.Stone]tgbotapi.User{engine.Black: ann, engine.White: bob}
	for range 9 {
		m = h.inlineMessage(id)
		v, _ = h.svc.Game(context.Background(), v.ID())
		live := placeButtons(m)
		if v.Status() != session.Running || len(live) == 0 {
			break
		}
		if got := h.inlineTap(players[v.ToMove()], id, live[0]); got != "" {
			t.Fatalf("move answered %q", got)
		}
	}
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Status() == session.Running {
		t.Fatalf("the duel did not end:\n%s", h.inlineMessage(id).Text)
	}
	checkBoardMatches(t, h.inlineMessage(id), v)
	for _, p := range []tgbotapi.User{ann, bob} {
		st, _ := h.svc.Stats(context.Background(), telegram.Platform, itoa64(p.ID))
		if st.Duels != 1 {
			t.Errorf("%s has %d rated duels", p.UserName, st.Duels)
		}
	}
}

// userOf is the session user of a Telegram user, as the bot makes it.
func userOf(u tgbotapi.User) session.User {
	return session.User{ID: itoa64(u.ID), Name: u.UserName, Handle: u.UserName}
}

// TestInlineForgedDataChangesNothing taps forged ▶️ Start and 🤝 Join data
// on inline messages: another owner's start, a start on a message that
// holds someone's game, a join with no challenge, and game data of
// another chat are all refused, and no game starts or changes.
func TestInlineForgedDataChangesNothing(t *testing.T) {
	h := newHarness(t, nil)
	ann, cat := named(9500, "ann", "en"), named(9501, "cat", "en")
	q, _ := h.inlineQuery(ann, "ttt easy")
	id := h.post(q, "a.easy.ttt.first", true)
	v := h.game(tgbotapi.Chat{}, h.inlineMessage(id))
	chat := private(9501)
	other := h.game(chat, h.startGame(chat, cat, "/play easy ttt"))
	edits := h.inlineMessage(id).Edits
	for _, tc := range []struct{ name, msg, data, want string }{
		{"someone else's start", "AgAAAInowhere", "I:a.easy.ttt.first:" + itoa64(ann.ID), render.T(render.English, render.MsgNotAPlayer)},
		{"own start on someone's game", id, "I:a.hard.gomoku.first:" + itoa64(cat.ID), render.T(render.English, render.MsgNotAPlayer)},
		{"start of a challenge", id, "I:d.ttt.random:" + itoa64(cat.ID), render.T(render.English, render.MsgBadCallback)},
		{"join with no challenge", id, telegram.InlineJoinData, render.T(render.English, render.MsgBadCallback)},
		{"another chat's game", id, "r:" + string(other.ID()), render.T(render.English, render.MsgNotFound)},
	} {
		if got := h.inlineTap(cat, tc.msg, tc.data); got != tc.want {
			t.Errorf("%s: answered %q, want %q", tc.name, got, tc.want)
		}
	}
	if now := h.inlineMessage(id); now.Edits != edits {
		t.Errorf("forged taps edited the message %d times", now.Edits-edits)
	}
	for _, g := range []session.View{v, other} {
		now, _ := h.svc.Game(context.Background(), g.ID())
		if now.Version() != g.Version() {
			t.Errorf("game %s changed", g.ID())
		}
	}
	live, _ := h.svc.Begin(context.Background(), session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: telegram.InlineChat(id), User: userOf(cat)}}).Live()
	if len(live) != 0 {
		t.Errorf("cat plays %d games in ann's message", len(live))
	}
	if slices.ContainsFunc(h.fake.Calls("editMessageText"), func(c telegramtest.Call) bool { return c.Params["inline_message_id"] == "AgAAAInowhere" }) {
		t.Error("a forged start edited a message")
	}
}

// TestInlineExpiryAndRematch lets an inline game against the AI run out:
// the sweeper's edit reaches the inline message, in its player's
// language; 🔁 then starts the rematch in the same message.
func TestInlineExpiryAndRematch(t *testing.T) {
	clk := &clock{now: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)}
	h := newHarness(t, func(h *harness) { h.now = clk.Now })
	li := named(9600, "li", "zh-hans")
	q, _ := h.inlineQuery(li, "7x7 medium")
	id := h.post(q, "a.medium.7x7.first", true)
	v := h.game(tgbotapi.Chat{}, h.inlineMessage(id))
	h.say(private(9600), li, "/lang zh")
	clk.Add(session.DefaultIdleAI)
	if n, err := h.svc.Sweep(context.Background()); n != 1 || err != nil {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	m := h.inlineMessage(id)
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.Status() != session.Expired || m.Text != render.Text(v, render.Chinese) || len(placeButtons(m)) != 0 {
		t.Fatalf("after expiry (%s):\n%s", v.Status(), m.Text)
	}
	if got := h.inlineTap(li, id, dataOf(t, m, render.T(render.Chinese, render.MsgRematchButton))); got != "" {
		t.Fatalf("🔁 answered %q", got)
	}
	next := h.game(tgbotapi.Chat{}, h.inlineMessage(id))
	if next.ID() == v.ID() || next.Message() != id || next.Chat() != telegram.InlineChat(id) || next.Status() != session.Running {
		t.Fatalf("rematch %s in %q, message %q, %s", next.ID(), next.Chat(), next.Message(), next.Status())
	}
}

// TestInlineFinishedGameStaysItsPosters checks that once the poster's
// game in an inline message is over, another user's forged ▶️ Start data
// cannot put a game of theirs on that message.
func TestInlineFinishedGameStaysItsPosters(t *testing.T) {
	h := newHarness(t, nil)
	ann, cat := named(9700, "ann", "en"), named(9701, "cat", "en")
	q, _ := h.inlineQuery(ann, "ttt easy")
	id := h.post(q, "a.easy.ttt.first", true)
	v := h.game(tgbotapi.Chat{}, h.inlineMessage(id))
	if got := h.inlineTap(ann, id, "r:"+string(v.ID())); got != "" {
		t.Fatalf("ann's resign answered %q", got)
	}
	edits := h.inlineMessage(id).Edits
	forged := "I:a.hard.gomoku.first:" + itoa64(cat.ID)
	if got, want := h.inlineTap(cat, id, forged), render.T(render.English, render.MsgNotAPlayer); got != want {
		t.Fatalf("cat's start on ann's finished game answered %q, want %q", got, want)
	}
	if now := h.inlineMessage(id); now.Edits != edits {
		t.Fatalf("cat's forged start edited ann's message:\n%s", now.Text)
	}
	live, _ := h.svc.Begin(context.Background(), session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: telegram.InlineChat(id), User: userOf(cat)}}).Live()
	if len(live) != 0 {
		t.Fatalf("cat plays %d games in ann's message", len(live))
	}
}
