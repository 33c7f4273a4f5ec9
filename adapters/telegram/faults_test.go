package telegram_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
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

// TestFaultStorms plays whole games while the Bot API answers with 429
// storms, 5xx errors, connection resets and timeouts on every method the
// bot uses. The bot stays up, waits what flood control asks, retries with
// back-off without busy-looping, leaves every board showing its stored
// game, and leaks no goroutines.
func TestFaultStorms(t *testing.T) {
	before := runtime.NumGoroutine()
	h := newHarness(t, func(h *harness) {
		// Timeouts are the client giving up on a held answer.
		h.cfg.RequestTimeout = 200 * time.Millisecond
	})
	rng := rand.New(rand.NewPCG(8, 1))
	chat, me := private(4200), user(4200, "en")
	flood := telegramtest.TooManyRequests(3)
	faults := []telegramtest.Fault{flood, flood, telegramtest.ServerError(), telegramtest.ConnectionReset(), telegramtest.Timeout()}
	injected := 0
	for game := range len(faults) {
		m := h.startGame(chat, me, "/play easy ttt")
		// Every method fails before it works: edits and answers up to
		// three times in a row (Config.MaxRetries), the long poll four.
		f := faults[game%len(faults)]
		h.fake.Fail("editMessageText", f, telegramtest.TooManyRequests(1), telegramtest.ServerError())
		h.fake.Fail("answerCallbackQuery", telegramtest.TooManyRequests(2), f)
		h.fake.Fail("getUpdates", f, flood, telegramtest.ServerError(), telegramtest.ConnectionReset())
		injected += 9
		h.playByTaps(chat, me, m.ID, rng)
	}
	waits := h.sleep.Waits()
	for _, want := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} {
		if !slices.Contains(waits, want) {
			t.Errorf("waits %v do not include %v", waits, want)
		}
	}
	// No busy loop: each call the bot makes beyond the faults is one the
	// games need (an edit and an answer per tap, a poll per update).
	calls := len(h.fake.Calls(""))
	taps := len(h.fake.Calls("answerCallbackQuery"))
	if limit := injected + 6*taps + 40; calls > limit {
		t.Errorf("%d calls for %d taps and %d faults: a busy loop", calls, taps, injected)
	}
	if len(waits) > injected {
		t.Errorf("%d waits for %d faults", len(waits), injected)
	}
	h.stop()
	h.closeStore()
	h.fake.Close()
	if n := settledGoroutines(before); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after the bot stopped, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
	t.Logf("%d calls, %d taps, %d faults injected, waits %v", calls, taps, injected, waits)
}

// TestFloodLongerThanMaxWaitFailsTheCall checks that a retry_after above
// Config.MaxFloodWait is not waited out: the edit fails at once, the tap
// is still answered, and the next tap shows the game as stored.
func TestFloodLongerThanMaxWaitFailsTheCall(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.MaxFloodWait = 10 * time.Second })
	chat, me := private(4300), user(4300, "en")
	m := h.startGame(chat, me, "/play easy 7x7")
	h.fake.Fail("editMessageText", telegramtest.TooManyRequests(3600))
	if got := h.tap(chat, me, m.ID, placeButtons(m)[0]); got != "" {
		t.Fatalf("tap answered %q", got)
	}
	if w := h.sleep.Waits(); slices.Contains(w, time.Hour) {
		t.Fatalf("waited out an hour's flood: %v", w)
	}
	after, _ := h.fake.Message(chat.ID, m.ID)
	if after.Edits != m.Edits {
		t.Fatalf("edit went through the flood")
	}
	// The board was left behind; the next tap on it catches up.
	h.tap(chat, me, m.ID, placeButtons(m)[1])
	after, _ = h.fake.Message(chat.ID, m.ID)
	checkBoardMatches(t, after, h.game(chat, after))
	_ = telegram.ErrFlood
}
