package telegram_test

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
)

// tapWatch hears, for the benchmarks, when the bot edited a message and
// answered a tap in each chat, as the fake records them.
type tapWatch struct {
	chats map[int64]chatEvents
	// tapChat holds the chat of each callback query id (tapped).
	tapChat sync.Map
}

// chatEvents are the times of a chat's edits and tap answers.
type chatEvents struct{ edit, answer chan time.Time }

// watchTaps starts watching the n chats from first on, each with room
// for buf events of a kind.
func watchTaps(fake *telegramtest.Server, first int64, n, buf int) *tapWatch {
	w := &tapWatch{chats: make(map[int64]chatEvents, n)}
	for i := range n {
		w.chats[first+int64(i)] = chatEvents{make(chan time.Time, buf), make(chan time.Time, buf)}
	}
	fake.OnCall(func(c telegramtest.Call) {
		if c.Status != http.StatusOK {
			return
		}
		id, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		if chat, ok := w.tapChat.Load(c.Params["callback_query_id"]); ok {
			id = chat.(int64)
		}
		e, ok := w.chats[id]
		switch {
		case !ok:
		case c.Method == "editMessageText":
			e.edit <- c.At
		case c.Method == "answerCallbackQuery":
			e.answer <- c.At
		}
	})
	return w
}

// tapped records that callback query cb is a tap in chat.
func (w *tapWatch) tapped(cb string, chat int64) { w.tapChat.Store(cb, chat) }

// percentile returns the p-th quantile (0 to 1) of sorted latencies, in
// milliseconds.
func percentile(sorted []time.Duration, p float64) float64 {
	return float64(sorted[int(p*float64(len(sorted)-1))]) / float64(time.Millisecond)
}
