package telegram_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// longReplicas runs the replica tests with more chats and games.
var longReplicas = flag.Bool("replicas.long", false, "run the replica tests with many chats and games")

// tgReplica is one bot process of a replica set: its Service on its own
// etcd client, its Bot in webhook mode on its own listener.
type tgReplica struct {
	url     string
	svc     *session.Service
	bot     *telegram.Bot
	reclaim chan time.Time
	cancel  context.CancelFunc
	done    chan error
}

// replicaSet is several replicas on one etcd cluster behind a load
// balancer that sends each webhook post to a replica picked by a seeded
// random source.
type replicaSet struct {
	t       *testing.T
	fake    *telegramtest.Server
	cluster *etcdtest.Cluster
	lb      *httptest.Server

	mu   sync.Mutex
	rng  *rand.Rand
	reps []*tgReplica
	live []bool
	seed atomic.Uint64
	// shutdown is the replicas' Config.ShutdownTimeout: short, so that a
	// stop cuts the handling short, unless a test waits for it.
	shutdown time.Duration
	// pace is the replicas' Config.Pace: Telegram's, a thousand times
	// faster, unless a test enforces flood control.
	pace telegram.Pace
}

func newReplicaSet(t *testing.T, n int, seed uint64) *replicaSet {
	t.Helper()
	s := &replicaSet{t: t, fake: telegramtest.NewServer(), cluster: etcdtest.Start(t, 3), rng: rand.New(rand.NewPCG(seed, 1)), shutdown: time.Millisecond,
		pace: telegram.Pace{
			Chat:   telegram.Rate{N: 1, Per: time.Millisecond},
			Group:  telegram.Rate{N: 20, Per: 60 * time.Millisecond},
			Global: telegram.Rate{N: 30, Per: time.Millisecond},
			Margin: 250 * time.Microsecond,
		}}
	t.Cleanup(s.fake.Close)
	s.lb = httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		u, _ := url.Parse(s.pick().url)
		r.SetURL(u)
		r.Out.URL.Path = r.In.URL.Path
	}})
	t.Cleanup(s.lb.Close)
	for i := range n {
		s.start(i, nil)
	}
	return s
}

// pick returns a live replica at random.
func (s *replicaSet) pick() *tgReplica {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		i := s.rng.IntN(len(s.reps))
		if s.live[i] {
			return s.reps[i]
		}
	}
}

// start starts replica i (again), with the AI players newPlayer makes
// (nil: the engine's).
func (s *replicaSet) start(i int, newPlayer func(engine.Level, *rand.Rand) (engine.Player, error)) {
	t := s.t
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &tgReplica{url: "http://" + ln.Addr().String(), reclaim: make(chan time.Time), done: make(chan error, 1)}
	r.svc = session.New(s.cluster.Store(t, "tg/"), &session.Config{
		NewSeed: func() uint64 { return s.seed.Add(1) }, NewPlayer: newPlayer, ThinkTime: 20 * time.Millisecond,
	})
	r.bot, err = telegram.New(context.Background(), r.svc, telegram.Config{
		Token: telegramtest.Token, APIEndpoint: s.fake.Endpoint(), Mode: telegram.ModeWebhook,
		Webhook: telegram.WebhookConfig{URL: s.lb.URL + "/hook", Secret: webhookSecret, Listener: ln},
		Workers: 4, Reclaim: r.reclaim, ShutdownTimeout: s.shutdown, Pace: s.pace,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	before := len(s.fake.Calls("setWebhook"))
	go func() { r.done <- r.bot.Run(ctx) }()
	s.wait("setWebhook", func() bool { return len(s.fake.Calls("setWebhook")) > before })
	s.mu.Lock()
	if i < len(s.reps) {
		s.reps[i], s.live[i] = r, true
	} else {
		s.reps, s.live = append(s.reps, r), append(s.live, true)
	}
	s.mu.Unlock()
	t.Cleanup(func() { s.stop(i, r) })
}

// stop stops replica r (number i), if it runs.
func (s *replicaSet) stop(i int, r *tgReplica) {
	s.mu.Lock()
	if s.reps[i] == r {
		s.live[i] = false
	}
	s.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
		<-r.done
	}
}

func (s *replicaSet) wait(what string, cond func() bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := s.fake.Wait(ctx, cond); err != nil {
		s.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// post posts u to the replica's webhook and returns the status.
func post(t *testing.T, r *tgReplica, u tgbotapi.Update) int {
	body, err := json.Marshal(u)
	if err != nil {
		t.Error(err)
		return 0
	}
	req, _ := http.NewRequest(http.MethodPost, r.url+"/hook", bytes.NewReader(body))
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", webhookSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// deliver sends u through the load balancer, or, when twice, straight to
// two replicas at once, as a retry racing the first delivery does; it
// reports whether a replica kept it (200).
func (s *replicaSet) deliver(u tgbotapi.Update, twice bool) bool {
	s.t.Helper()
	u.UpdateID = s.fake.NextUpdateID()
	if !twice {
		status, err := s.fake.Post(context.Background(), u, webhookSecret)
		return err == nil && status == http.StatusOK
	}
	a, b := s.pick(), s.pick()
	var wg sync.WaitGroup
	var ok atomic.Bool
	for _, r := range []*tgReplica{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if post(s.t, r, u) == http.StatusOK {
				ok.Store(true)
			}
		}()
	}
	wg.Wait()
	return ok.Load()
}

// playChat plays a game against the AI in chat by taps delivered at
// random, each duplicated with probability dup, and returns the number
// of taps that were kept and answered without a refusal. hook runs
// before each tap.
func (s *replicaSet) playChat(chat tgbotapi.Chat, from tgbotapi.User, rng *rand.Rand, dup float64, hook func()) (accepted int) {
	t := s.t
	if !s.deliver(s.fake.NewTextUpdate(chat, from, "/play"), rng.Float64() < dup) {
		t.Errorf("chat %d: /play not kept", chat.ID)
		return 0
	}
	s.wait("the board", func() bool { _, ok := s.fake.LastBotMessage(chat.ID); return ok })
	board, _ := s.fake.LastBotMessage(chat.ID)
	for range 9 {
		m, _ := s.fake.Message(chat.ID, board.ID)
		live := placeButtons(m)
		if len(live) == 0 {
			break
		}
		if hook != nil {
			hook()
		}
		u, cb := s.fake.NewTapUpdate(chat, from, board.ID, live[rng.IntN(len(live))])
		if !s.deliver(u, rng.Float64() < dup) {
			// Not kept: Telegram would deliver it again.
			continue
		}
		s.wait("the answer of "+cb, func() bool { return s.fake.Answered(cb) })
		refused := false
		for _, a := range s.fake.Answers(cb) {
			if a.Status == 200 && a.Params["text"] != "" {
				refused = true
			}
		}
		if !refused {
			accepted++
		}
		// The board's edit follows the answer: wait for the board to
		// show the stored game.
		s.wait("the edit of "+cb, func() bool { return s.boardIsStored(chat, board.ID) })
	}
	return accepted
}

// boardIsStored reports whether message id of chat shows its stored
// game: its text, and a live button for each empty cell while it runs.
func (s *replicaSet) boardIsStored(chat tgbotapi.Chat, id int) bool {
	m, _ := s.fake.Message(chat.ID, id)
	v, ok := s.storedGame(m)
	if !ok || m.Text != render.Text(v, render.English) {
		return false
	}
	empty := 0
	if v.Status() == session.Running {
		empty = v.Rules().Width*v.Rules().Height - len(v.Moves())
	}
	return len(placeButtons(m)) == empty
}

// storedGame returns the game message m shows, from the store.
func (s *replicaSet) storedGame(m telegramtest.Message) (session.View, bool) {
	for _, row := range m.Buttons() {
		for _, b := range row {
			if d := *b.CallbackData; strings.Count(d, ":") >= 1 && (strings.HasPrefix(d, "p:") || strings.HasPrefix(d, "n:") || strings.HasPrefix(d, "r:")) {
				v, err := s.reps[0].svc.Game(context.Background(), session.GameID(strings.Split(d, ":")[1]))
				return v, err == nil
			}
		}
	}
	return session.View{}, false
}

// humanMoves counts the moves of user id in v.
func humanMoves(v session.View, id string) int {
	n := 0
	for i := range v.Moves() {
		if (i%2 == 0) == (v.SideOf(id) == engine.Black) {
			n++
		}
	}
	return n
}

// checkChats checks every chat's one board against its stored game: the
// human's moves are the accepted taps.
func (s *replicaSet) checkChats(chats []tgbotapi.Chat, from []tgbotapi.User, accepted []int) {
	t := s.t
	for i, chat := range chats {
		msgs := s.fake.BotMessages(chat.ID)
		if len(msgs) != 1 {
			t.Errorf("chat %d: %d bot messages, want the one board: %+v", chat.ID, len(msgs), msgs)
			continue
		}
		v, ok := s.storedGame(msgs[0])
		if !ok {
			t.Errorf("chat %d: the board shows no stored game", chat.ID)
			continue
		}
		if n := humanMoves(v, itoa64(from[i].ID)); n != accepted[i] {
			t.Errorf("chat %d: %d moves stored, %d taps accepted", chat.ID, n, accepted[i])
		}
		checkBoardMatches(t, msgs[0], v)
	}
}

// TestReplicasApplyEveryUpdateOnce plays games in several chats at once
// on three replicas behind a load balancer, a third of the updates
// delivered to two replicas at once, and stops the etcd leader halfway:
// every kept update takes effect once, the games hold exactly the
// accepted taps, and every board shows its stored game.
func TestReplicasApplyEveryUpdateOnce(t *testing.T) {
	chatsN := 4
	if *longReplicas {
		chatsN = 24
	}
	s := newReplicaSet(t, 3, 11)
	var taps atomic.Int64
	var killed atomic.Bool
	kill := func() {
		if taps.Add(1) == int64(chatsN) { // a few taps in, in some chat
			s.cluster.Stop(s.cluster.Leader())
			killed.Store(true)
		}
	}
	chats := make([]tgbotapi.Chat, chatsN)
	from := make([]tgbotapi.User, chatsN)
	accepted := make([]int, chatsN)
	var wg sync.WaitGroup
	for i := range chatsN {
		chats[i], from[i] = private(int64(7000+i)), user(int64(7000+i), "en")
		wg.Add(1)
		go func() {
			defer wg.Done()
			accepted[i] = s.playChat(chats[i], from[i], rand.New(rand.NewPCG(uint64(i), 2)), 0.33, kill)
		}()
	}
	wg.Wait()
	// Anything a failed handling left in the inbox is reclaimed.
	r := s.pick()
	r.reclaim <- time.Now()
	r.reclaim <- time.Now()
	s.checkChats(chats, from, accepted)
	if !killed.Load() {
		t.Error("the etcd leader was not stopped: too few taps")
	}
}

// TestReplicaStoppedAfterKeepingAnUpdate stops a replica after it kept a
// tap (answered the webhook 200) and before it handled it: the stopping
// replica gives the tap up, and the other finishes it on its next
// reclaim tick.
func TestReplicaStoppedAfterKeepingAnUpdate(t *testing.T) {
	s := newReplicaSet(t, 2, 3)
	chat, from := private(8000), user(8000, "en")
	// Replica 0's AI waits at the gate, so its handling of the tap
	// stays unfinished until the replica stops.
	entered := make(chan struct{}, 1)
	s.stop(0, s.reps[0])
	s.start(0, func(l engine.Level, rng *rand.Rand) (engine.Player, error) {
		return engine.PlayerFunc(func(ctx context.Context, b *engine.Board) (engine.Point, error) {
			select {
			case entered <- struct{}{}:
			default:
			}
			<-ctx.Done()
			return engine.Point{}, ctx.Err()
		}), nil
	})
	// The game starts on replica 1 (the human moves first: no AI yet).
	if post(t, s.reps[1], withID(s, s.fake.NewTextUpdate(chat, from, "/play"))) != http.StatusOK {
		t.Fatal("/play not kept")
	}
	s.wait("the board", func() bool { _, ok := s.fake.LastBotMessage(chat.ID); return ok })
	board, _ := s.fake.LastBotMessage(chat.ID)
	live := placeButtons(board)
	u, cb := s.fake.NewTapUpdate(chat, from, board.ID, live[0])
	u = withID(s, u)
	if post(t, s.reps[0], u) != http.StatusOK {
		t.Fatal("tap not kept")
	}
	<-entered
	s.stop(0, s.reps[0])
	if !inInbox(t, s.reps[1].svc, u.UpdateID) {
		t.Fatal("the tap is not in the inbox after the stop")
	}
	// One tick: the stop released the tap.
	s.reps[1].reclaim <- time.Now()
	s.wait("the reclaimed tap's edit", func() bool {
		m, _ := s.fake.Message(chat.ID, board.ID)
		v, ok := s.storedGame(m)
		return ok && humanMoves(v, itoa64(from.ID)) == 1 && s.boardIsStored(chat, board.ID)
	})
	s.wait("the tap's answer", func() bool { return s.fake.Answered(cb) })
}

// TestStartingReplicaLeavesALiveReplicasUpdates starts a replica while
// another is handling a tap it kept (its AI waits at a gate): the
// starting replica's replay leaves the tap to its keeper, so that the
// tap is handled, and answered, once.
func TestStartingReplicaLeavesALiveReplicasUpdates(t *testing.T) {
	s := newReplicaSet(t, 2, 5)
	chat, from := private(8100), user(8100, "en")
	gate, entered, moved := make(chan struct{}), make(chan struct{}, 1), make(chan struct{}, 1)
	s.stop(0, s.reps[0])
	s.start(0, func(l engine.Level, rng *rand.Rand) (engine.Player, error) {
		p, err := engine.NewPlayer(l, rng)
		if err != nil {
			return nil, err
		}
		return engine.PlayerFunc(func(ctx context.Context, b *engine.Board) (engine.Point, error) {
			select {
			case entered <- struct{}{}:
			default:
			}
			select {
			case <-gate:
			case <-ctx.Done():
				return engine.Point{}, ctx.Err()
			}
			defer func() {
				select {
				case moved <- struct{}{}:
				default:
				}
			}()
			return p.Move(ctx, b)
		}), nil
	})
	if post(t, s.reps[1], withID(s, s.fake.NewTextUpdate(chat, from, "/play"))) != http.StatusOK {
		t.Fatal("/play not kept")
	}
	s.wait("the board", func() bool { _, ok := s.fake.LastBotMessage(chat.ID); return ok })
	board, _ := s.fake.LastBotMessage(chat.ID)
	u, cb := s.fake.NewTapUpdate(chat, from, board.ID, placeButtons(board)[0])
	if post(t, s.reps[0], withID(s, u)) != http.StatusOK {
		t.Fatal("tap not kept")
	}
	<-entered
	// A deploy restarts replica 1 while replica 0 is in the tap; the new
	// replica 1 counts the moves its AI is asked for.
	var asked atomic.Int64
	s.stop(1, s.reps[1])
	s.start(1, func(l engine.Level, rng *rand.Rand) (engine.Player, error) {
		p, err := engine.NewPlayer(l, rng)
		if err != nil {
			return nil, err
		}
		return engine.PlayerFunc(func(ctx context.Context, b *engine.Board) (engine.Point, error) {
			asked.Add(1)
			return p.Move(ctx, b)
		}), nil
	})
	close(gate)
	<-moved
	s.wait("the tap's answer and edit", func() bool {
		m, _ := s.fake.Message(chat.ID, board.ID)
		return s.fake.Answered(cb) && m.Edits > 0
	})
	// Both stop, so that every handling of the tap is over.
	s.stop(0, s.reps[0])
	s.stop(1, s.reps[1])
	if n := asked.Load(); n != 0 {
		t.Errorf("the starting replica handled the tap (its AI moved %d times)", n)
	}
	if n := len(s.fake.Answers(cb)); n != 1 {
		t.Errorf("the tap was answered %d times, want once", n)
	}
	m, _ := s.fake.Message(chat.ID, board.ID)
	if v, ok := s.storedGame(m); !ok || humanMoves(v, itoa64(from.ID)) != 1 || m.Edits != 1 {
		t.Errorf("after the tap: board edited %d times, stored game %v", m.Edits, v.Moves())
	}
}

// TestReclaimHandlesWhatALiveReplicaLeftUnfinished keeps a tap in the
// inbox under a live replica's claim without its handling it, as when
// marking it handled failed: the replica's next reclaim tick handles it.
func TestReclaimHandlesWhatALiveReplicaLeftUnfinished(t *testing.T) {
	s := newReplicaSet(t, 0, 7)
	s.shutdown = time.Minute // the stop lets the handling end
	s.start(0, nil)
	r := s.reps[0]
	chat, from := private(8200), user(8200, "en")
	if post(t, r, withID(s, s.fake.NewTextUpdate(chat, from, "/play"))) != http.StatusOK {
		t.Fatal("/play not kept")
	}
	s.wait("the board", func() bool { _, ok := s.fake.LastBotMessage(chat.ID); return ok })
	board, _ := s.fake.LastBotMessage(chat.ID)
	u, cb := s.fake.NewTapUpdate(chat, from, board.ID, placeButtons(board)[0])
	u = withID(s, u)
	data, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.Receive(context.Background(), telegram.Platform, []session.InboxItem{{ID: int64(u.UpdateID), Data: data}}); err != nil {
		t.Fatal(err)
	}
	r.reclaim <- time.Now()
	s.wait("the tap's answer and edit", func() bool {
		m, _ := s.fake.Message(chat.ID, board.ID)
		return s.fake.Answered(cb) && m.Edits > 0
	})
	s.stop(0, r)
	if inInbox(t, r.svc, u.UpdateID) {
		t.Error("the tap is still in the inbox")
	}
}

// TestReplicasKeepFloodControlTogether has three replicas each answer,
// at once, two /help in one group chat and one in one private chat while
// the fake enforces flood control, scaled down: each replica's own
// pacing keeps its own answers within the limits but lets the three
// replicas' go together, too many for a chat and for a group; the budget
// the replicas share in etcd spaces them. Nothing is refused (429), and
// every answer arrives.
func TestReplicasKeepFloodControlTogether(t *testing.T) {
	limits := telegramtest.Limits{
		Chat:   telegramtest.Rate{N: 1, Per: 100 * time.Millisecond},
		Group:  telegramtest.Rate{N: 3, Per: 600 * time.Millisecond},
		Global: telegramtest.Rate{N: 30, Per: 100 * time.Millisecond},
	}
	s := newReplicaSet(t, 0, 13)
	s.pace = paceOf(limits)
	// Room for a loaded machine between a slot's start and the fake's
	// count of its message.
	s.pace.Margin = 100 * time.Millisecond
	for i := range 3 {
		s.start(i, nil)
	}
	s.fake.Enforce(limits)
	grp, priv := group(-9100), private(9100)
	var updates [][]tgbotapi.Update // by replica
	for i := range s.reps {
		member := user(9101+int64(i), "en")
		updates = append(updates, []tgbotapi.Update{
			withID(s, s.fake.NewTextUpdate(grp, member, "/help")),
			withID(s, s.fake.NewTextUpdate(grp, member, "/help")),
			withID(s, s.fake.NewTextUpdate(priv, user(9100, "en"), "/help")),
		})
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, r := range s.reps {
		for _, u := range updates[i] {
			wg.Go(func() {
				<-start
				if status := post(t, r, u); status != http.StatusOK {
					t.Errorf("replica %d: update %d not kept: %d", i, u.UpdateID, status)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	s.wait("every answer", func() bool {
		return len(s.fake.BotMessages(grp.ID)) == 6 && len(s.fake.BotMessages(priv.ID)) == 3
	})
	if n := s.fake.Flooded(); n != 0 {
		t.Errorf("flood control refused %d messages of the replicas", n)
	}
	for _, chat := range []int64{grp.ID, priv.ID} {
		for _, m := range s.fake.BotMessages(chat) {
			if !strings.HasPrefix(m.Text, "/play") {
				t.Errorf("chat %d: %q, want the help", chat, m.Text)
			}
		}
	}
}

// inInbox reports whether update id is kept unhandled in the store.
func inInbox(t *testing.T, svc *session.Service, id int) bool {
	t.Helper()
	pending, err := svc.Pending(context.Background(), telegram.Platform)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range pending {
		if it.ID == int64(id) {
			return true
		}
	}
	return false
}

// withID gives u the next update id.
func withID(s *replicaSet, u tgbotapi.Update) tgbotapi.Update {
	u.UpdateID = s.fake.NextUpdateID()
	return u
}
