package discord

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/session"
)

// settledGoroutines waits, for a bounded number of scheduler rounds, until
// at most want goroutines run, and returns the count.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 2000 && n > want; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// TestGatewayDropsAndRateLimitsDuringAGame plays a whole 7×7 game while
// the gateway drops the websocket every few moves and interaction
// callbacks meet 429s: discordgo resumes each time, every tap is handled
// once, the final board is the stored game's, the REST calls stay within
// what the game needs, and no goroutine is left behind.
func TestGatewayDropsAndRateLimitsDuringAGame(t *testing.T) {
	before := runtime.NumGoroutine()
	h := newHarness(t, nil)
	board := h.play(ann, "c", discordtest.StringOption(optGame, "7x7"), discordtest.StringOption(optLevel, "easy"))
	rng := rand.New(rand.NewPCG(3, 4))
	drops, limits, taps := 0, 0, 0
	var game session.GameID
	for i := 0; ; i++ {
		ids := placeButtons(h.message(board.ID))
		if len(ids) == 0 {
			break
		}
		game = session.GameID(strings.Split(ids[0], ":")[1])
		if i%3 == 0 {
			n := len(h.fake.Connects())
			h.fake.DropConnection()
			drops++
			err := h.fake.WaitFor(waitLimit, "a resumed session", func() bool {
				return h.fake.Connected() && len(h.fake.Connects()) > n
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if i%2 == 1 {
			h.fake.RateLimit("POST", "interactions/", 2, 0)
			limits += 2
		}
		r := h.tap(ann, board.ID, ids[rng.IntN(len(ids))])
		if r.Type == 0 {
			t.Fatalf("tap %d not answered: %+v", i, r)
		}
		taps++
	}
	for i, c := range h.fake.Connects() {
		if i > 0 && !c.Resume {
			t.Errorf("connect %d identified again instead of resuming: %+v", i, c)
		}
	}
	v, err := h.svc.Game(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	final := h.message(board.ID)
	if v.Status() == session.Running || len(v.Moves()) < 2*taps-1 || final.Edits < taps {
		t.Fatalf("after %d taps: game %s with %d moves, board edited %d times", taps, v.Status(), len(v.Moves()), final.Edits)
	}
	// An interaction callback, a board edit and a retry per 429 for each
	// tap, and the start: anything much beyond is a loop.
	if calls := len(h.fake.Calls()); calls > 3*taps+limits+10 {
		t.Errorf("%d REST calls for %d taps and %d rate limits", calls, taps, limits)
	}
	h.stop()
	h.fake.Close()
	if n := settledGoroutines(before); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after the bot stopped, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
	t.Logf("%d taps, %d gateway drops resumed, %d rate limits", taps, drops, limits)
}
