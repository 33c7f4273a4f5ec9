package telegram_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// paceOf returns the Bot's pacing for the limits a fake enforces.
func paceOf(l telegramtest.Limits) telegram.Pace {
	rate := func(r telegramtest.Rate) telegram.Rate { return telegram.Rate{N: r.N, Per: r.Per} }
	return telegram.Pace{Chat: rate(l.Chat), Group: rate(l.Group), Global: rate(l.Global)}
}

// floodLimits are Telegram's limits with short windows: the global one
// is scaled less than the others so that it binds with a few dozen chats.
func floodLimits() telegramtest.Limits {
	l := telegramtest.TelegramLimits()
	l.Chat.Per = 10 * time.Millisecond
	l.Group.Per = 500 * time.Millisecond
	l.Global.Per = 100 * time.Millisecond
	return l
}

// player taps in a chat from a goroutine other than the test's: it
// reports failures with Errorf and stops, never with Fatal.
type player struct {
	h    *harness
	ctx  context.Context
	chat tgbotapi.Chat
	// hub, when not nil, delivers the answers instead of the fake's Wait
	// (for a thousand players at once).
	hub *answerHub
}

// answerHub hands each answerCallbackQuery call the fake records to
// whoever waits for it, so that a thousand players do not all re-check
// the fake after every call.
type answerHub struct{ waiting sync.Map } // callback query id → chan telegramtest.Call

// newAnswerHub returns a hub fed by the fake's calls.
func newAnswerHub(fake *telegramtest.Server) *answerHub {
	a := &answerHub{}
	fake.OnCall(func(c telegramtest.Call) {
		if ch, ok := a.waiting.Load(c.Params["callback_query_id"]); ok && c.Method == "answerCallbackQuery" {
			ch.(chan telegramtest.Call) <- c
		}
	})
	return a
}

// await waits until cond holds.
func (p player) await(what string, cond func() bool) error {
	if err := p.h.fake.Wait(p.ctx, cond); err != nil {
		return fmt.Errorf("chat %d: waiting for %s: %w", p.chat.ID, what, err)
	}
	return nil
}

// say sends text and waits until it was handled (as harness.sync).
func (p player) say(from tgbotapi.User, text string) error {
	p.h.fake.SendText(p.chat, from, text)
	if p.hub != nil {
		return p.tap(tgbotapi.User{ID: 1, FirstName: "sync"}, 0, "n")
	}
	id := p.h.fake.Tap(p.chat, tgbotapi.User{ID: 1, FirstName: "sync"}, 0, "n")
	return p.await("sync", func() bool { return p.h.fake.Answered(id) })
}

// tap taps data on message msg and waits for the answer, which must be
// empty (the tap took effect).
func (p player) tap(from tgbotapi.User, msg int, data string) error {
	var text string
	if p.hub != nil {
		u, id := p.h.fake.NewTapUpdate(p.chat, from, msg, data)
		ch := make(chan telegramtest.Call, 1)
		p.hub.waiting.Store(id, ch)
		defer p.hub.waiting.Delete(id)
		p.h.fake.PushUpdate(u)
		select {
		case c := <-ch:
			text = c.Params["text"]
		case <-p.ctx.Done():
			return fmt.Errorf("chat %d: waiting for the answer to %s: %w", p.chat.ID, data, p.ctx.Err())
		}
	} else {
		id := p.h.fake.Tap(p.chat, from, msg, data)
		if err := p.await("answer to "+data, func() bool { return p.h.fake.Answered(id) && len(p.h.fake.Answers(id)) > 0 }); err != nil {
			return err
		}
		a := p.h.fake.Answers(id)
		text = a[len(a)-1].Params["text"]
	}
	if text != "" {
		return fmt.Errorf("chat %d: tap %s refused: %q", p.chat.ID, data, text)
	}
	return nil
}

// play taps random empty cells of the stored game (not of its message,
// which may lag behind) as the player to move until the game ends, each
// tap as soon as the previous one was answered.
func (p player) play(id session.GameID, users map[string]tgbotapi.User, rng *rand.Rand) (session.View, int, error) {
	taps := 0
	for {
		v, err := p.h.svc.Game(p.ctx, id)
		if err != nil || v.Status() != session.Running {
			return v, taps, err
		}
		msg, _ := strconv.Atoi(v.Message())
		var cells []string
		for _, row := range render.BoardKeyboard(v, render.English, render.TelegramLayout, nil).Rows {
			for _, b := range row {
				if b.Action.Kind == render.Place {
					cells = append(cells, adapters.EncodeAction(b.Action))
				}
			}
		}
		if err := p.tap(users[v.Seat(v.ToMove()).User.ID], msg, cells[rng.IntN(len(cells))]); err != nil {
			return v, taps, err
		}
		taps++
	}
}

// gameIn returns the id of the game whose buttons message m shows.
func gameIn(m telegramtest.Message) session.GameID {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if f := strings.Split(*b.CallbackData, ":"); len(f) > 1 {
				return session.GameID(f[1])
			}
		}
	}
	return ""
}

// TestFloodStaysUnderFloodControl plays 40 private games against the AI
// and 3 duels in groups, every player tapping as fast as the answers
// come, against a fake server that enforces Telegram's limits (with short
// windows): no call is refused, and every board message ends up showing
// its stored game.
func TestFloodStaysUnderFloodControl(t *testing.T) {
	limits := floodLimits()
	h := newHarness(t, func(h *harness) {
		h.fake.Enforce(limits)
		h.cfg.Pace = paceOf(limits)
		h.cfg.Workers = 16
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	type board struct {
		chat tgbotapi.Chat
		game session.GameID
		taps int
	}
	var mu sync.Mutex
	var boards []board
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			id := int64(3000 + i)
			p, me := player{h, ctx, private(id), nil}, user(id, "en")
			rng := rand.New(rand.NewPCG(uint64(id), 1))
			if err := p.say(me, "/play easy 4x4"); err != nil {
				t.Error(err)
				return
			}
			v, err := h.svc.Begin(ctx, session.Request{Actor: session.Actor{Platform: telegram.Platform, Chat: itoa64(id), User: session.User{ID: itoa64(id)}}}).Running()
			if err != nil {
				t.Errorf("chat %d: %v", id, err)
				return
			}
			v, taps, err := p.play(v.ID(), map[string]tgbotapi.User{itoa64(id): me}, rng)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			boards = append(boards, board{p.chat, v.ID(), taps})
			mu.Unlock()
		})
	}
	for i := range 3 {
		wg.Go(func() {
			id := int64(-4000 - i)
			alice, bob := named(4100+int64(i), "alice"+itoa(i), "en"), named(4200+int64(i), "bob"+itoa(i), "en")
			p := player{h, ctx, group(id), nil}
			rng := rand.New(rand.NewPCG(uint64(-id), 2))
			if err := p.say(alice, "/duel@BoardTestBot 5x5"); err != nil {
				t.Error(err)
				return
			}
			ch, ok := h.fake.LastBotMessage(id)
			if !ok {
				t.Errorf("chat %d: no challenge", id)
				return
			}
			game := gameIn(ch)
			if err := p.tap(bob, ch.ID, "a:"+string(game)); err != nil {
				t.Error(err)
				return
			}
			users := map[string]tgbotapi.User{itoa64(alice.ID): alice, itoa64(bob.ID): bob}
			v, taps, err := p.play(game, users, rng)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			boards = append(boards, board{p.chat, v.ID(), taps})
			mu.Unlock()
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	h.flush(tgbotapi.Chat{})
	for _, b := range boards {
		v, err := h.svc.Game(ctx, b.game)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := strconv.Atoi(v.Message())
		m, ok := h.fake.Message(b.chat.ID, id)
		if !ok || v.Status() == session.Running {
			t.Fatalf("chat %d: game %s is %v, message %q found %v", b.chat.ID, v.ID(), v.Status(), v.Message(), ok)
		}
		checkBoardMatches(t, m, v)
	}
	if n := h.fake.Flooded(); n != 0 {
		t.Fatalf("the fake refused %d calls with 429", n)
	}
	taps := 0
	for _, b := range boards {
		taps += b.taps
	}
	edits := len(h.fake.Calls("editMessageText"))
	if edits > taps+3 {
		t.Fatalf("%d taps made %d edits", taps, edits)
	}
	t.Logf("%d taps in %d chats made %d edits and %d messages", taps, len(boards), edits, len(h.fake.Calls("sendMessage")))
	if w := h.sleep.Waits(); len(w) != 0 {
		t.Fatalf("the bot waited out refusals or failures: %v", w)
	}
}

// TestEditsCoalesceAndAnswersDoNotWait holds the first edit of a board in
// flight, so that the chat's flood-control slot stays taken, and taps five
// more moves: each tap is answered at once, and once the edit is released
// the board gets one more edit, showing the latest state, instead of five.
func TestEditsCoalesceAndAnswersDoNotWait(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.fake.Enforce(floodLimits())
		h.cfg.Pace = paceOf(floodLimits())
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	chat, me := private(5000), user(5000, "en")
	m := h.startGame(chat, me, "/play easy 7x7")
	game := gameIn(m)
	hold := make(chan struct{})
	h.fake.Fail("editMessageText", telegramtest.Fault{Hold: hold})
	p := player{h, ctx, chat, nil}
	rng := rand.New(rand.NewPCG(5, 5))
	next := func() string {
		v, err := h.svc.Game(ctx, game)
		if err != nil {
			t.Fatal(err)
		}
		keys := render.BoardKeyboard(v, render.English, render.TelegramLayout, nil)
		var cells []string
		for _, row := range keys.Rows {
			for _, b := range row {
				if b.Action.Kind == render.Place {
					cells = append(cells, adapters.EncodeAction(b.Action))
				}
			}
		}
		return cells[rng.IntN(len(cells))]
	}
	const taps = 6
	for i := range taps {
		if err := p.tap(me, m.ID, next()); err != nil {
			t.Fatalf("tap %d while the board's edit is held: %v", i, err)
		}
		if i == 0 {
			h.wait("the held edit", func() bool { return h.fake.Held() == 1 })
		}
	}
	if n := len(h.fake.Calls("editMessageText")); n != 0 || h.fake.Held() != 1 {
		t.Fatalf("%d edits made, %d held, while the first was held", n, h.fake.Held())
	}
	close(hold)
	h.flush(chat)
	after, _ := h.fake.Message(chat.ID, m.ID)
	v, err := h.svc.Game(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	if after.Edits != 2 || len(v.Moves()) != 2*taps {
		t.Fatalf("%d taps (%d moves) made %d edits, want 2", taps, len(v.Moves()), after.Edits)
	}
	checkBoardMatches(t, after, v)
	if n := h.fake.Flooded(); n != 0 {
		t.Fatalf("the fake refused %d calls with 429", n)
	}
}

// TestAStopBeforeATapsEditReplaysTheTap stops the bot while a tap's edit
// is held (its answer already given): the tap stays in the inbox, and the
// next run replays it, which redraws the board to the stored game.
func TestAStopBeforeATapsEditReplaysTheTap(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.ShutdownTimeout = 100 * time.Millisecond })
	chat, me := private(5100), user(5100, "en")
	m := h.startGame(chat, me, "/play easy ttt")
	h.fake.Fail("editMessageText", telegramtest.Fault{Hold: make(chan struct{})})
	cb := h.fake.Tap(chat, me, m.ID, placeButtons(m)[0])
	h.wait("the answer while the edit is held", func() bool { return h.fake.Answered(cb) && h.fake.Held() == 1 })
	h.restart()
	h.sync(chat)
	if n := len(h.fake.Answers(cb)); n != 2 {
		t.Fatalf("the tap was handled %d times, want a replay", n)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	checkBoardMatches(t, after, h.game(chat, after))
	if len(h.game(chat, after).Moves()) != 2 {
		t.Fatalf("moves after the replay: %v", h.game(chat, after).Moves())
	}
}
