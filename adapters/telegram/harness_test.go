package telegram_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// waitLimit is how long a test waits for the bot before failing; the
// tests synchronise on the fake server's state, never on time.
const waitLimit = 60 * time.Second

// sleeper records the waits the bot asks for and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// harness is a bot on a real bbolt file talking to a fake Bot API.
type harness struct {
	t      testing.TB
	fake   *telegramtest.Server
	dbPath string
	store  *boltstore.Store
	svc    *session.Service
	bot    *telegram.Bot
	sleep  *sleeper
	cfg    telegram.Config
	cancel context.CancelFunc
	done   chan error
	seed   atomic.Uint64 // games start concurrently in many chats
	last   session.GameID
	// noSync opens the bbolt file without fsync (benchmarks that say so).
	noSync bool
	// now is the session's clock (nil: the real one); think bounds the
	// hard AI's search (0: the session's default).
	now   func() time.Time
	think time.Duration
	// tune, when set, adjusts the session's config before it is made.
	tune func(c *session.Config)
}

// newHarness starts a fake server and a bot polling it; edit adjusts the
// bot's config (h.cfg) or the fake before the bot starts.
func newHarness(t testing.TB, edit func(h *harness)) *harness {
	t.Helper()
	h := &harness{t: t, fake: telegramtest.NewServer(), dbPath: filepath.Join(t.TempDir(), "bot.db"), sleep: &sleeper{}, think: 20 * time.Millisecond}
	t.Cleanup(h.fake.Close)
	h.cfg = telegram.Config{
		Token:       telegramtest.Token,
		APIEndpoint: h.fake.Endpoint(),
		Workers:     4,
		PollTimeout: 5 * time.Second,
		Sleep:       h.sleep.Sleep,
		Backoff:     func(attempt int) time.Duration { return time.Duration(attempt+1) * time.Second },
		// Telegram's flood control, a thousand times faster.
		Pace: telegram.Pace{
			Chat:   telegram.Rate{N: 1, Per: time.Millisecond},
			Group:  telegram.Rate{N: 20, Per: 60 * time.Millisecond},
			Global: telegram.Rate{N: 30, Per: time.Millisecond},
		},
	}
	if edit != nil {
		edit(h)
	}
	h.open()
	h.start()
	t.Cleanup(func() {
		if h.cancel != nil {
			h.stop()
		}
		h.closeStore()
	})
	return h
}

// open opens the bbolt file and a Service with seeded games.
func (h *harness) open() {
	h.t.Helper()
	store, err := boltstore.Open(h.dbPath, &boltstore.Options{NoSync: h.noSync})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = store
	cfg := &session.Config{
		NewSeed:   func() uint64 { return h.seed.Add(1) },
		Now:       h.now,
		ThinkTime: h.think,
		// As cmd/bot wires it; Sweep runs on the test's goroutine.
		OnExpire: func(v session.View) { h.bot.Expired(v) },
	}
	if h.tune != nil {
		h.tune(cfg)
	}
	h.svc = session.New(store, cfg)
}

// closeStore checks the bbolt file's consistency and closes it.
func (h *harness) closeStore() {
	h.t.Helper()
	if h.store == nil {
		return
	}
	err := h.store.DB().View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
	if err != nil {
		h.t.Errorf("bbolt check: %v", err)
	}
	if err := h.store.Close(); err != nil {
		h.t.Error(err)
	}
	h.store = nil
}

// start creates the bot and runs it in the background.
func (h *harness) start() {
	h.t.Helper()
	bot, err := telegram.New(context.Background(), h.svc, h.cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.bot = bot
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() { h.done <- bot.Run(ctx) }()
}

// stop ends Run and checks it returned nil.
func (h *harness) stop() {
	h.t.Helper()
	h.cancel()
	h.cancel = nil
	if err := <-h.done; err != nil {
		h.t.Errorf("Run: %v", err)
	}
}

// restart stops the bot, reopens the database and starts a new bot.
func (h *harness) restart() {
	h.t.Helper()
	h.stop()
	h.closeStore()
	h.open()
	h.start()
}

// wait blocks until cond holds, failing the test after waitLimit.
func (h *harness) wait(what string, cond func() bool) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := h.fake.Wait(ctx, cond); err != nil {
		h.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// sync waits until every update already queued for chat was handled: it
// taps a do-nothing button in the chat and waits for the answer, which
// comes after them because a chat's updates are handled in order.
func (h *harness) sync(chat tgbotapi.Chat) {
	h.t.Helper()
	id := h.fake.Tap(chat, tgbotapi.User{ID: 1, FirstName: "sync"}, 0, "n")
	h.wait("sync answer", func() bool { return h.fake.Answered(id) })
	h.flush(chat)
}

// say sends a text message and waits until it was handled.
func (h *harness) say(chat tgbotapi.Chat, from tgbotapi.User, text string) {
	h.t.Helper()
	h.fake.SendText(chat, from, text)
	h.sync(chat)
}

// tap taps a button and waits for its answer, returning the answer's
// text.
func (h *harness) tap(chat tgbotapi.Chat, from tgbotapi.User, message int, data string) string {
	h.t.Helper()
	id := h.fake.Tap(chat, from, message, data)
	h.wait("answer to "+data, func() bool { return h.fake.Answered(id) })
	h.flush(chat)
	answers := h.fake.Answers(id)
	ok := 0
	for _, a := range answers {
		if a.Status == 200 {
			ok++
		}
	}
	if ok != 1 {
		h.t.Fatalf("tap %q got %d successful answers", data, ok)
	}
	return answers[len(answers)-1].Params["text"]
}

// flush waits until the edits the bot queued for chat were made: a tap's
// answer does not wait for its edit.
func (h *harness) flush(chat tgbotapi.Chat) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := telegram.Flush(ctx, h.bot, chat.ID); err != nil {
		h.t.Fatalf("flushing the edits: %v", err)
	}
}

// lastBot returns the newest message the bot sent to chat, failing when
// there is none.
func (h *harness) lastBot(chat tgbotapi.Chat) telegramtest.Message {
	h.t.Helper()
	m, ok := h.fake.LastBotMessage(chat.ID)
	if !ok {
		h.t.Fatalf("chat %d: no bot message", chat.ID)
	}
	return m
}

// game returns the stored game shown by message m of chat.
func (h *harness) game(chat tgbotapi.Chat, m telegramtest.Message) session.View {
	h.t.Helper()
	data := ""
	for _, row := range m.Buttons() {
		for _, b := range row {
			if d := *b.CallbackData; strings.HasPrefix(d, "p:") || strings.HasPrefix(d, "r:") {
				data = d
			}
		}
	}
	if data == "" {
		h.t.Fatalf("message %d has no live button:\n%s", m.ID, m.Text)
	}
	id := strings.Split(data, ":")[1]
	v, err := h.svc.Game(context.Background(), session.GameID(id))
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// placeButtons returns the callback data of the message's live cells.
func placeButtons(m telegramtest.Message) []string {
	var out []string
	for _, row := range m.Buttons() {
		for _, b := range row {
			if strings.HasPrefix(*b.CallbackData, "p:") {
				out = append(out, *b.CallbackData)
			}
		}
	}
	return out
}

// checkBoardMatches fails unless the message's keyboard shows v cell for
// cell (row r, column c is cell c, r) and its text is v's text.
func checkBoardMatches(t testing.TB, m telegramtest.Message, v session.View) {
	t.Helper()
	r := v.Rules()
	b := v.Board()
	rows := m.Buttons()
	want := render.BoardKeyboard(v, render.English, render.TelegramLayout, nil)
	if len(rows) < r.Height {
		t.Fatalf("keyboard has %d rows for a %d-row board", len(rows), r.Height)
	}
	for y := 0; y < r.Height; y++ {
		if len(rows[y]) != r.Width {
			t.Fatalf("row %d has %d buttons for a %d-column board", y, len(rows[y]), r.Width)
		}
		for x := 0; x < r.Width; x++ {
			btn := rows[y][x]
			stone := b.At(pt(x, y))
			data := *btn.CallbackData
			// A stone's button shows it (marked when it is the last move or
			// in the winning line, as render draws it) and does nothing.
			if stone != 0 && (btn.Text != want.Rows[y][x].Label || data != "n:"+string(v.ID())+":"+itoa(x)+":"+itoa(y)) {
				t.Fatalf("cell %d,%d holds %v but its button is %q → %q", x, y, stone, btn.Text, data)
			}
			if stone == 0 && v.Status() == session.Running && !strings.HasSuffix(data, ":"+itoa(x)+":"+itoa(y)) {
				t.Fatalf("empty cell %d,%d has button data %q", x, y, data)
			}
		}
	}
	if text := render.Text(v, render.English); m.Text != text {
		t.Fatalf("message text\n%s\nwant\n%s", m.Text, text)
	}
}

// playByTaps plays the game on message msg by tapping random live cells
// until it ends, checking each tap's answer and edit.
func (h *harness) playByTaps(chat tgbotapi.Chat, from tgbotapi.User, msg int, rng *rand.Rand) session.View {
	h.t.Helper()
	var id session.GameID
	for range 400 {
		m, _ := h.fake.Message(chat.ID, msg)
		live := placeButtons(m)
		if len(live) == 0 {
			break
		}
		id = session.GameID(strings.Split(live[0], ":")[1])
		before := len(h.fake.BotMessages(chat.ID))
		if text := h.tap(chat, from, msg, live[rng.IntN(len(live))]); text != "" {
			h.t.Fatalf("tap refused: %q", text)
		}
		after, _ := h.fake.Message(chat.ID, msg)
		if after.Edits != m.Edits+1 {
			h.t.Fatalf("tap made %d edits", after.Edits-m.Edits)
		}
		if n := len(h.fake.BotMessages(chat.ID)); n != before {
			h.t.Fatalf("a tap added %d messages to the chat", n-before)
		}
	}
	m, _ := h.fake.Message(chat.ID, msg)
	v, err := h.svc.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	checkBoardMatches(h.t, m, v)
	if v.Status() == session.Running {
		h.t.Fatalf("game still running:\n%s", m.Text)
	}
	return v
}

func pt(x, y int) engine.Point { return engine.Point{X: x, Y: y} }

func itoa(n int) string { return strconv.Itoa(n) }

// named returns a user with a Telegram username.
func named(id int64, username, lang string) tgbotapi.User {
	u := user(id, lang)
	u.UserName = username
	return u
}

func user(id int64, lang string) tgbotapi.User {
	return tgbotapi.User{ID: id, FirstName: "User" + strconv.FormatInt(id, 10), LanguageCode: lang}
}

func private(id int64) tgbotapi.Chat { return tgbotapi.Chat{ID: id, Type: "private"} }

func group(id int64) tgbotapi.Chat {
	return tgbotapi.Chat{ID: id, Type: "supergroup", Title: "Players"}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
