package telegram_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// gatedPlayer is an AI that, at hard on boards larger than 4×4 (the
// searches that go through the session's AI pool), announces each search
// on entered and then waits until release is closed; elsewhere it plays
// the first legal move at once, as the real engine answers at once there.
type gatedPlayer struct {
	level   engine.Level
	entered chan<- struct{}
	release <-chan struct{}
}

func (p gatedPlayer) Move(ctx context.Context, b *engine.Board) (engine.Point, error) {
	if p.level == engine.Hard && b.Rules().Cells() > 16 {
		p.entered <- struct{}{}
		select {
		case <-p.release:
		case <-ctx.Done():
			return engine.Point{}, ctx.Err()
		}
	}
	return b.LegalMoves()[0], nil
}

// A flood of hard moves from more chats than the AI pool's workers and
// queue hold, on fewer update workers than that: the surplus is refused
// as busy at once, and while the admitted searches are stuck another
// chat's tic-tac-toe game starts and plays; once the searches go on,
// every admitted move completes.
func TestHardFloodDoesNotStarveOtherChats(t *testing.T) {
	const (
		flood     = 80
		aiWorkers = 1
		aiQueue   = 8
		admitted  = aiWorkers + aiQueue
	)
	entered, release := make(chan struct{}, flood), make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	h := newHarness(t, func(h *harness) {
		h.cfg.Workers = 4
		h.tune = func(c *session.Config) {
			c.AIWorkers, c.AIQueue = aiWorkers, aiQueue
			c.NewPlayer = func(l engine.Level, _ *rand.Rand) (engine.Player, error) {
				return gatedPlayer{level: l, entered: entered, release: release}, nil
			}
		}
	})
	t.Cleanup(unblock) // runs before the harness stops the bot

	chats := make([]tgbotapi.Chat, flood)
	for i := range chats {
		chats[i] = private(int64(5000 + i))
		h.fake.SendText(chats[i], user(chats[i].ID, "en"), "/play hard 7x7")
	}
	boards := make([]telegramtest.Message, flood)
	games := make([]session.GameID, flood)
	for i, chat := range chats {
		h.sync(chat)
		boards[i] = h.lastBot(chat)
		games[i] = h.game(chat, boards[i]).ID()
	}
	// Every chat taps a cell at once: each tap asks for a hard search.
	taps := make([]string, flood)
	for i, chat := range chats {
		taps[i] = h.fake.Tap(chat, user(chat.ID, "en"), boards[i].ID, placeButtons(boards[i])[0])
	}
	select {
	case <-entered:
	case <-t.Context().Done():
		t.Fatal("no search started")
	}

	// While the searches are stuck, a small game in another chat starts
	// and its moves are answered.
	other, me := private(6000), user(6000, "en")
	m := h.startGame(other, me, "/play hard ttt")
	if text := h.tap(other, me, m.ID, placeButtons(m)[0]); text != "" {
		t.Fatalf("tic-tac-toe tap refused: %q", text)
	}
	if v := h.game(other, h.lastBot(other)); v.MoveNo() != 2 {
		t.Fatalf("tic-tac-toe game at move %d, want 2", v.MoveNo())
	}

	// The moves beyond the pool's places are refused as busy; the admitted
	// ones are still waiting.
	busy := render.T(render.English, render.MsgBusy)
	answered := func(want string) int {
		n := 0
		for _, id := range taps {
			for _, a := range h.fake.Answers(id) {
				if a.Status == 200 && a.Params["text"] == want {
					n++
				}
			}
		}
		return n
	}
	h.wait("busy refusals", func() bool { return answered(busy) >= flood-admitted })
	if n := answered(busy); n != flood-admitted {
		t.Fatalf("%d taps refused as busy, want %d", n, flood-admitted)
	}
	if n := answered(""); n != 0 {
		t.Fatalf("%d hard moves completed while the searches were stuck", n)
	}
	if n := len(entered); n != 0 {
		t.Fatalf("%d more searches started on one AI worker", n)
	}

	unblock()
	h.wait("every tap answered", func() bool {
		for _, id := range taps {
			if !h.fake.Answered(id) {
				return false
			}
		}
		return true
	})
	if n := answered(""); n != admitted {
		t.Fatalf("%d hard moves completed, want %d", n, admitted)
	}
	played := 0
	for _, id := range games {
		v, err := h.svc.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		switch v.MoveNo() {
		case 2:
			played++
		case 0:
		default:
			t.Fatalf("game %s at move %d", id, v.MoveNo())
		}
	}
	if played != admitted {
		t.Fatalf("%d games got their moves, want %d", played, admitted)
	}
}

// TestSendsWaitingForTheLimitsHoldUpNoOtherChat has one update worker and
// a chat whose flood-control slot is taken for an hour: its next message
// waits for the slot, and meanwhile another chat's game still starts,
// because the waiting update lends its worker out.
func TestSendsWaitingForTheLimitsHoldUpNoOtherChat(t *testing.T) {
	h := newHarness(t, func(h *harness) {
		h.cfg.Workers = 1
		h.cfg.Pace = telegram.Pace{Chat: telegram.Rate{N: 1, Per: time.Hour}, Group: telegram.Rate{N: -1}, Global: telegram.Rate{N: -1}}
		h.cfg.ShutdownTimeout = 100 * time.Millisecond
	})
	busy, other := private(5200), private(5201)
	h.startGame(busy, user(5200, "en"), "/play easy ttt")
	h.fake.SendText(busy, user(5200, "en"), "/help")
	h.startGame(other, user(5201, "en"), "/play easy ttt")
	if n := len(h.fake.BotMessages(busy.ID)); n != 1 {
		t.Fatalf("the chat out of slots got %d messages, want 1 (its /help answer waits an hour)", n)
	}
}
