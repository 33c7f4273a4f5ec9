package discord

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// The tests of this package share discordgo's process-global endpoint
// variables: each harness points them at its own fake, so the tests run
// one after another (none calls t.Parallel).

const testToken = "MTAx.fake-bot-token.never-print"

// harnesses numbers the harnesses, so that each has its own bot token
// (harnessToken).
var harnesses atomic.Int64

// harnessToken returns a bot token of its own for harness n. discordgo
// keeps reconnecting a session whose connection dropped even after it is
// closed, through the package-wide API base (SetAPIBase), which by then
// points at a later test's fake server; with the same token there, such a
// session identified and took that test's gateway connection, and the
// test's interactions went to a stopped bot. The fake server refuses a
// token other than its own, as Discord does.
func harnessToken(n int64) string {
	return "MTAx.fake-bot-token-" + strconv.FormatInt(n, 10) + ".never-print"
}

// waitLimit only bounds a failing test; nothing waits for it to pass.
const waitLimit = 20 * time.Second

var (
	ann   = discordtest.User{ID: "100000000000000001", Name: "ann", Locale: "en-US"}
	bob   = discordtest.User{ID: "100000000000000002", Name: "bob", Locale: "zh-CN"}
	carol = discordtest.User{ID: "100000000000000003", Name: "carol", Locale: "en-GB"}
	robot = discordtest.User{ID: "100000000000000004", Name: "robot", Bot: true}
)

// harness runs a Bot on a bbolt file against a fake Discord.
type harness struct {
	t     testing.TB
	fake  *discordtest.Server
	token string
	db    string
	cfg   Config
	logs  syncBuffer

	store  *boltstore.Store
	svc    *session.Service
	bot    *Bot
	cancel context.CancelFunc
	done   chan error

	mu      sync.Mutex
	handled signals
	// handledN counts the answers to each interaction id (markHandled).
	handledN map[string]int
	// gate, when set, holds every AI move until it is closed.
	gate chan struct{}
	// fire is what Config.After returns: nil never fires, so no
	// interaction is deferred by the clock unless a test says so.
	fire chan time.Time
	seed uint64
	// now is the session's clock; it moves only when a test advances it.
	now time.Time
}

// clock returns the session's time.
func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// advance moves the session's clock forward by d.
func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.now = h.now.Add(d)
}

// syncBuffer is a bytes.Buffer for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newHarness starts a fake Discord and a bot on a fresh database; edit
// changes the bot's config first.
func newHarness(t testing.TB, edit func(*Config)) *harness {
	t.Helper()
	h := &harness{t: t, db: filepath.Join(t.TempDir(), "bot.db"), now: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)}
	// Time is up for an interaction only when a test says so, as the
	// bot defers only when its Config.After fires.
	h.token = harnessToken(harnesses.Add(1))
	h.fake = discordtest.New(discordtest.Options{Token: h.token, Deadline: func() <-chan time.Time { return nil }})
	if err := SetAPIBase(h.fake.URL); err != nil {
		t.Fatal(err)
	}
	h.cfg = Config{
		Token: h.token, AppID: discordtest.AppID,
		After:   func(time.Duration) <-chan time.Time { h.mu.Lock(); defer h.mu.Unlock(); return h.fire },
		Handled: h.markHandled,
		Log:     slog.New(slog.NewTextHandler(&h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(&h.cfg)
	}
	t.Cleanup(func() {
		if h.cancel != nil {
			h.stop()
		}
		h.fake.Close()
		if err := SetAPIBase(DefaultAPIBase); err != nil {
			t.Error(err)
		}
		if logs := h.logs.String(); strings.Contains(logs, h.token) || strings.Contains(logs, "itoken-") {
			t.Errorf("a token was logged:\n%s", logs)
		}
	})
	h.boot()
	return h
}

// handledChan returns the channel closed when the interaction id has been
// answered completely.
func (h *harness) handledChan(id string) chan struct{} { return h.handled.of(id) }

// signals hands out, per key, a channel that fire closes: a test waits
// on it for an event another goroutine reports. Safe for concurrent use.
type signals struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// of returns key's channel.
func (s *signals) of(key string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[string]chan struct{})
	}
	c, ok := s.m[key]
	if !ok {
		c = make(chan struct{})
		s.m[key] = c
	}
	return c
}

// fire closes key's channel; it may be called once per key.
func (s *signals) fire(key string) { close(s.of(key)) }

// markHandled closes the channel of interaction id's answer: the first
// time handledChan(id), the n-th time (a redelivery) handledChan of
// "id#n".
func (h *harness) markHandled(id string) {
	h.mu.Lock()
	if h.handledN == nil {
		h.handledN = make(map[string]int)
	}
	h.handledN[id]++
	key := id
	if n := h.handledN[id]; n > 1 {
		key += "#" + strconv.Itoa(n)
	}
	h.mu.Unlock()
	h.handled.fire(key)
}

// newPlayer is the session's AI: the engine's, held at the gate when one
// is set.
func (h *harness) newPlayer(l engine.Level, rng *rand.Rand) (engine.Player, error) {
	p, err := engine.NewPlayer(l, rng)
	if err != nil {
		return nil, err
	}
	return engine.PlayerFunc(func(ctx context.Context, b *engine.Board) (engine.Point, error) {
		h.mu.Lock()
		gate := h.gate
		h.mu.Unlock()
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
				return engine.Point{}, ctx.Err()
			}
		}
		return p.Move(ctx, b)
	}), nil
}

// boot opens the database and runs a bot until stop, returning once its
// commands are registered.
func (h *harness) boot() {
	h.t.Helper()
	store, err := boltstore.Open(h.db, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = store
	h.svc = session.New(store, &session.Config{
		NewSeed:   func() uint64 { h.mu.Lock(); defer h.mu.Unlock(); h.seed++; return h.seed },
		NewPlayer: h.newPlayer,
		Now:       h.clock,
		Limits:    session.Limits{HintsPerGame: 3},
		// Sweep runs on the test's goroutine, after boot set h.bot.
		OnExpire: func(v session.View) { h.bot.Expired(v) },
	})
	bot, err := New(h.svc, h.cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.bot = bot
	registered := h.countCalls("PUT", "/commands")
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() { h.done <- bot.Run(ctx) }()
	err = h.fake.WaitFor(waitLimit, "commands registered", func() bool {
		return h.countCalls("PUT", "/commands") > registered
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// stop stops the bot and closes the database.
func (h *harness) stop() {
	h.t.Helper()
	h.cancel()
	if err := <-h.done; err != nil {
		h.t.Errorf("Run: %v", err)
	}
	h.cancel = nil
	if err := h.store.Close(); err != nil {
		h.t.Error(err)
	}
}

// countCalls counts REST calls with the method whose path ends with
// suffix and that succeeded.
func (h *harness) countCalls(method, suffix string) int {
	n := 0
	for _, c := range h.fake.Calls() {
		if c.Method == method && strings.HasSuffix(c.Path, suffix) && c.Status < 300 {
			n++
		}
	}
	return n
}

// await waits until the bot has answered interaction id completely.
func (h *harness) await(id string) {
	h.t.Helper()
	select {
	case <-h.handledChan(id):
	case <-time.After(waitLimit):
		h.t.Fatalf("interaction %s not handled; calls: %+v", id, h.fake.Calls())
	}
}

// command sends a slash command and waits for its answer.
func (h *harness) command(u discordtest.User, channel, name string, opts ...discordtest.Option) (string, discordtest.Response) {
	h.t.Helper()
	id, err := h.fake.Command(u, channel, name, opts...)
	if err != nil {
		h.t.Fatal(err)
	}
	h.await(id)
	return id, h.fake.Response(id)
}

// tap taps a button and waits for the answer.
func (h *harness) tap(u discordtest.User, message, customID string) discordtest.Response {
	h.t.Helper()
	id, err := h.fake.Tap(u, message, customID)
	if err != nil {
		h.t.Fatal(err)
	}
	h.await(id)
	return h.fake.Response(id)
}

// play starts a game by /play and returns the board message.
func (h *harness) play(u discordtest.User, channel string, opts ...discordtest.Option) discordtest.Message {
	h.t.Helper()
	_, r := h.command(u, channel, cmdPlay, opts...)
	m, ok := h.fake.Message(r.Original)
	if r.Type != 4 || !ok || m.Ephemeral {
		h.t.Fatalf("/play answered %+v, message %+v", r, m)
	}
	return m
}

// message returns the message with the id.
func (h *harness) message(id string) discordtest.Message {
	h.t.Helper()
	m, ok := h.fake.Message(id)
	if !ok {
		h.t.Fatalf("no message %s", id)
	}
	return m
}

// ephemeral returns the text of the ephemeral message answering r, and
// checks that only u sees it.
func (h *harness) ephemeral(r discordtest.Response, u discordtest.User) string {
	h.t.Helper()
	ids := append([]string{r.Original}, r.Followups...)
	for _, id := range ids {
		if m, ok := h.fake.Message(id); ok && m.Ephemeral && !m.Deleted {
			if m.VisibleTo != u.ID {
				h.t.Fatalf("ephemeral message %+v is not for %s", m, u.Name)
			}
			return m.Content
		}
	}
	h.t.Fatalf("no ephemeral message in %+v", r)
	return ""
}

// texts returns the texts of the ephemeral messages answering r, the
// answer first, and checks that only u sees them.
func (h *harness) texts(r discordtest.Response, u discordtest.User) []string {
	h.t.Helper()
	var out []string
	for _, id := range append([]string{r.Original}, r.Followups...) {
		if m, ok := h.fake.Message(id); ok && m.Ephemeral && !m.Deleted {
			if m.VisibleTo != u.ID {
				h.t.Fatalf("ephemeral message %+v is not for %s", m, u.Name)
			}
			out = append(out, m.Content)
		}
	}
	return out
}

// posted returns the message everyone sees that answer r posted: the
// answer itself (type 4), or its one follow-up.
func (h *harness) posted(r discordtest.Response) discordtest.Message {
	h.t.Helper()
	id := r.Original
	if r.Type != 4 {
		if len(r.Followups) != 1 {
			h.t.Fatalf("answer %+v posts no one message", r)
		}
		id = r.Followups[0]
	}
	m := h.message(id)
	if m.Ephemeral || m.Deleted {
		h.t.Fatalf("posted message %+v is not for everyone", m)
	}
	return m
}

// placeButtons returns the custom_ids of a message's live cell buttons.
func placeButtons(m discordtest.Message) []string {
	var ids []string
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, "p:") && !b.Disabled {
			ids = append(ids, b.CustomID)
		}
	}
	return ids
}

// tapDeferred has ann tap the button customID on board while the AI is held: the
// DeferAfter deadline fires first, so the bot must defer the update, and
// only then is the AI let go. It returns the interaction's id once
// handled.
func (h *harness) tapDeferred(board discordtest.Message, customID string) string {
	h.t.Helper()
	gate, fire := make(chan struct{}), make(chan time.Time)
	h.mu.Lock()
	h.gate, h.fire = gate, fire
	h.mu.Unlock()
	id, err := h.fake.Tap(ann, board.ID, customID)
	if err != nil {
		h.t.Fatal(err)
	}
	close(fire) // DeferAfter has passed, and the AI is still thinking.
	if err := h.fake.WaitFor(waitLimit, "the deferral", func() bool { return h.fake.Response(id).Type == 6 }); err != nil {
		h.t.Fatal(err)
	}
	close(gate)
	h.await(id)
	return id
}
