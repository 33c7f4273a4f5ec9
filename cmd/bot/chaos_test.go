package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
)

// TestChaos runs three replicas of the bot binary on an embedded
// three-member etcd cluster, with Telegram webhooks and Discord HTTP
// interactions from many chats at once; one replica reaches etcd through
// a proxy that delays every reply by 0–800 ms; replicas are killed with
// SIGKILL and started again at random, and the etcd leader is stopped
// twice. It checks that every Telegram update a replica accepted is
// applied, once; that no new board is posted twice but by a replica
// killed in between, at most one per kill; that every Discord interaction
// whose replica lived got its first response before the fake's deadline,
// and no private text went into a public message; that the fake Bot API,
// enforcing Telegram's limits, never had to answer 429. It reports the
// counts. The short form runs about 30 s of chaos; -long, 3 minutes.
func TestChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bot binary")
	}
	chaosFor := 30 * time.Second
	if *killLong {
		chaosFor = 3 * time.Minute
	}
	h := newChaos(t)
	for i := range h.reps {
		h.start(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), chaosFor+session.ClaimTTL+3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() { defer wg.Done(); h.telegramChat(ctx, int64(7000+i)) }()
	}
	for i := range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); h.discordChannel(ctx, fmt.Sprintf("ch%d", i)) }()
	}
	h.chaos(ctx, chaosFor)
	h.stopDrivers()
	wg.Wait()
	if t.Failed() {
		h.dumpLogs()
		return
	}
	h.check(ctx)
}

// chaos is the harness of TestChaos.
type chaos struct {
	t       *testing.T
	bin     string
	dir     string
	cluster *etcdtest.Cluster
	slow    []string // the slow replica's etcd endpoints
	tg      *telegramtest.Server
	dc      *discordtest.Server
	key     ed25519.PrivateKey
	lb      *httptest.Server // Discord's interactions balancer

	mu       sync.Mutex
	rng      *rand.Rand
	reps     [3]*chaosReplica
	stopping bool
	kills    int
	restarts int
	leaders  int
	// Telegram: updates accepted, taps acknowledged, boards posted
	// twice for one /play.
	accepted int
	acks     []chaosAck
	doubles  int
	// Discord: interactions by id, with the replica and generation each
	// was given to.
	routed    map[string]routed
	calls     int
	failed    int // failed while their replica was killed
	refused   int // taps refused
	deferrals int
	followups int
}

// chaosReplica is one replica's process.
type chaosReplica struct {
	cfg    string
	hook   string // its webhook URL
	disc   string // its interactions URL
	log    *os.File
	cmd    *exec.Cmd
	waited chan struct{}
	gen    int
	alive  bool
}

// chaosAck is a Telegram tap answered and shown.
type chaosAck struct {
	game   session.GameID
	moveNo int
	data   string
}

// routed is the replica an interaction was given to.
type routed struct {
	rep, gen int
}

const (
	chaosSecret  = "chaos-secret"
	chaosDiscord = "MTAy.chaos-discord-token"
)

func newChaos(t *testing.T) *chaos {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	h := &chaos{
		t: t, bin: bin, dir: dir, cluster: etcdtest.Start(t, 3), tg: telegramtest.NewServer(),
		dc:  discordtest.New(discordtest.Options{Token: chaosDiscord}),
		key: ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize)),
		rng: rand.New(rand.NewPCG(25, 2026)), routed: map[string]routed{},
	}
	h.tg.Enforce(telegramtest.TelegramLimits())
	t.Cleanup(h.tg.Close)
	t.Cleanup(h.dc.Close)
	delays := rand.New(rand.NewPCG(26, 2026))
	var dmu sync.Mutex
	delay := func() time.Duration {
		dmu.Lock()
		defer dmu.Unlock()
		return time.Duration(delays.IntN(800)) * time.Millisecond
	}
	for i := range 3 {
		h.slow = append(h.slow, h.cluster.Proxy(t, i, delay).URL)
	}
	h.lb = httptest.NewServer(http.HandlerFunc(h.balance))
	t.Cleanup(h.lb.Close)
	h.dc.UseEndpoint(func() string { return h.lb.URL + "/interactions" }, h.key, time.Now)
	for i := range h.reps {
		h.reps[i] = h.configure(i)
	}
	t.Cleanup(func() {
		for _, r := range h.reps {
			h.mu.Lock()
			cmd, waited := r.cmd, r.waited
			h.mu.Unlock()
			if cmd != nil {
				cmd.Process.Kill()
				<-waited
			}
			r.log.Close()
		}
	})
	return h
}

// configure writes replica i's configuration.
func (h *chaos) configure(i int) *chaosReplica {
	t := h.t
	endpoints := h.cluster.Endpoints()
	if i == 2 {
		endpoints = h.slow
	}
	addr := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	hook, disc, metrics := addr(), addr(), addr()
	quoted, _ := json.Marshal(endpoints)
	yaml := fmt.Sprintf(`database:
  backend: etcd
  etcd:
    endpoints: %s
    prefix: chaos/
    request_timeout: 5s
log:
  level: warn
limits:
  games_per_user: 0
  games_per_chat: 0
  challenge_cooldown: 0s
ai:
  think_time: 100ms
metrics:
  listen: %q
shutdown_timeout: 5s
telegram:
  api_endpoint: %q
  mode: webhook
  webhook:
    listen: %q
    url: https://bot.example/hook
    secret: %s
discord:
  app_id: %q
  api_base: %q
  # Two cores run etcd, three replicas and the race detector: leave a
  # second and a half of Discord's three for the machine's stalls.
  defer_after: 1500ms
  interactions:
    listen: %q
    path: /interactions
    public_key: %s
`, quoted, metrics, h.tg.Endpoint(), hook, chaosSecret, discordtest.AppID, h.dc.URL, disc, hex.EncodeToString(h.key.Public().(ed25519.PublicKey)))
	cfg := filepath.Join(h.dir, fmt.Sprintf("replica%d.yaml", i))
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(h.dir, fmt.Sprintf("replica%d.log", i)))
	if err != nil {
		t.Fatal(err)
	}
	return &chaosReplica{cfg: cfg, hook: "http://" + hook + "/hook", disc: "http://" + disc + "/interactions", log: logf}
}

// start starts replica i and waits until it set its webhook.
func (h *chaos) start(i int) {
	r := h.reps[i]
	before := len(h.tg.Calls("setWebhook"))
	cmd := exec.Command(h.bin, "-config", r.cfg)
	cmd.Env = []string{
		"TELEGRAM_TOKEN=" + telegramtest.Token, "DISCORD_TOKEN=" + chaosDiscord, "HOME=" + h.dir,
	}
	cmd.Stdout, cmd.Stderr = r.log, r.log
	fmt.Fprintf(r.log, "=== start\n")
	if err := cmd.Start(); err != nil {
		h.t.Fatalf("start replica %d: %v", i, err)
	}
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	h.mu.Lock()
	r.cmd, r.waited = cmd, waited
	r.gen++
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.tg.Wait(ctx, func() bool { return len(h.tg.Calls("setWebhook")) > before || exited(waited) }); err != nil || exited(waited) {
		h.dumpLogs()
		h.t.Fatalf("replica %d did not start: %v", i, err)
	}
	// Its listeners are bound before it sets its webhook: the balancers
	// may send it deliveries.
	h.mu.Lock()
	r.alive = true
	h.mu.Unlock()
}

// exited reports whether a process's wait ended.
func exited(waited chan struct{}) bool {
	select {
	case <-waited:
		return true
	default:
		return false
	}
}

// kill kills replica i with SIGKILL.
func (h *chaos) kill(i int) {
	h.mu.Lock()
	r := h.reps[i]
	r.alive = false
	r.gen++ // what it was handling belongs to a dead generation
	h.kills++
	cmd, waited := r.cmd, r.waited
	h.mu.Unlock()
	if exited(waited) {
		h.t.Errorf("replica %d exited by itself: %v", i, cmd.ProcessState)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-waited
}

// chaos kills and restarts replicas at random, and stops the etcd leader
// twice, for d.
func (h *chaos) chaos(ctx context.Context, d time.Duration) {
	end := time.Now().Add(d)
	leaderAt := []time.Time{time.Now().Add(d / 3), time.Now().Add(2 * d / 3)}
	for time.Now().Before(end) && ctx.Err() == nil && !h.t.Failed() {
		h.mu.Lock()
		pause := time.Duration(1000+h.rng.IntN(2000)) * time.Millisecond
		victim := h.rng.IntN(len(h.reps))
		down := time.Duration(500+h.rng.IntN(2000)) * time.Millisecond
		h.mu.Unlock()
		// The chaos runs on the clock; the checks wait on events.
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
		if len(leaderAt) > 0 && time.Now().After(leaderAt[0]) {
			leaderAt = leaderAt[1:]
			l := h.cluster.Leader()
			if l >= 0 {
				h.cluster.Stop(l)
				h.mu.Lock()
				h.leaders++
				h.mu.Unlock()
				h.cluster.WaitLeader()
				select {
				case <-time.After(down):
				case <-ctx.Done():
				}
				h.cluster.Restart(l)
			}
			continue
		}
		h.kill(victim)
		select {
		case <-time.After(down):
		case <-ctx.Done():
		}
		h.start(victim)
		h.mu.Lock()
		h.restarts++
		h.mu.Unlock()
	}
}

func (h *chaos) stopDrivers() {
	h.mu.Lock()
	h.stopping = true
	h.mu.Unlock()
}

func (h *chaos) stopped() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopping
}

// pick returns a live replica at random, with its generation.
func (h *chaos) pick() (int, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var live []int
	for i, r := range h.reps {
		if r.alive {
			live = append(live, i)
		}
	}
	if len(live) == 0 {
		return -1, 0
	}
	i := live[h.rng.IntN(len(live))]
	return i, h.reps[i].gen
}

// lived reports whether replica i is still in generation gen.
func (h *chaos) lived(i, gen int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reps[i].alive && h.reps[i].gen == gen
}

// post delivers u to a live replica's webhook, as Telegram does, again
// and again until one answers 200, and returns that replica and its
// generation.
func (h *chaos) post(ctx context.Context, u tgbotapi.Update) (int, int, bool) {
	body, _ := json.Marshal(u)
	for ctx.Err() == nil {
		i, gen := h.pick()
		if i < 0 {
			if h.tg.Wait(ctx, h.pickable) != nil {
				break
			}
			continue
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.reps[i].hook, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", chaosSecret)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				h.mu.Lock()
				h.accepted++
				h.mu.Unlock()
				return i, gen, true
			}
		}
		// Telegram delivers it again, to whichever replica.
	}
	return 0, 0, false
}

// pickable reports whether a replica lives.
func (h *chaos) pickable() bool {
	i, _ := h.pick()
	return i >= 0
}

// handledWait bounds the wait for an accepted update: a killed replica's
// updates are taken over once their claims expire.
const handledWait = session.ClaimTTL + time.Minute

// telegramChat plays games against the AI in one private chat until the
// drivers stop.
func (h *chaos) telegramChat(ctx context.Context, id int64) {
	chat := tgbotapi.Chat{ID: id, Type: "private"}
	user := tgbotapi.User{ID: id, FirstName: "P" + strconv.FormatInt(id, 10), LanguageCode: "en"}
	rng := rand.New(rand.NewPCG(uint64(id), 25))
	board := 0
	for !h.stopped() && ctx.Err() == nil && !h.t.Failed() {
		if board == 0 {
			board = h.telegramPlay(ctx, chat, user)
			continue
		}
		m, _ := h.tg.Message(chat.ID, board)
		places := placeButtons(m)
		if len(places) == 0 {
			board = 0
			continue
		}
		data := places[rng.IntN(len(places))]
		u, cb := h.tg.NewTapUpdate(chat, user, board, data)
		u.UpdateID = h.tg.NextUpdateID()
		if _, _, ok := h.post(ctx, u); !ok {
			return
		}
		wctx, cancel := context.WithTimeout(ctx, handledWait)
		err := h.tg.Wait(wctx, func() bool {
			now, _ := h.tg.Message(chat.ID, board)
			return h.tg.Answered(cb) && (answerText(h.tg, cb) != "" || now.Edits > m.Edits)
		})
		cancel()
		if err != nil {
			h.t.Errorf("chat %d: accepted tap %s not handled: %v", id, data, err)
			return
		}
		if answerText(h.tg, cb) != "" {
			continue // a stale board, redrawn
		}
		a, _ := adapters.DecodeAction(data)
		h.mu.Lock()
		h.acks = append(h.acks, chaosAck{game: a.Game, moveNo: a.MoveNo, data: data})
		h.mu.Unlock()
	}
}

// telegramPlay starts a game in chat and returns its board; a /play
// whose board shows twice is counted as a double.
func (h *chaos) telegramPlay(ctx context.Context, chat tgbotapi.Chat, user tgbotapi.User) int {
	before := 0
	if m, ok := h.tg.LastBotMessage(chat.ID); ok {
		before = m.ID
	}
	boards := func() []int {
		var ids []int
		for _, m := range h.tg.BotMessages(chat.ID) {
			if m.ID > before && len(placeButtons(m)) > 0 {
				ids = append(ids, m.ID)
			}
		}
		return ids
	}
	u := h.tg.NewTextUpdate(chat, user, "/play easy 7x7 k4")
	u.UpdateID = h.tg.NextUpdateID()
	if _, _, ok := h.post(ctx, u); !ok {
		return 0
	}
	wctx, cancel := context.WithTimeout(ctx, handledWait)
	defer cancel()
	if err := h.tg.Wait(wctx, func() bool { return len(boards()) > 0 }); err != nil {
		h.t.Errorf("chat %d: accepted /play shows no board: %v", chat.ID, err)
		return 0
	}
	if n := len(boards()); n > 1 {
		h.mu.Lock()
		h.doubles += n - 1
		h.mu.Unlock()
	}
	return boards()[0]
}

// balance is Discord's interactions balancer: it gives each interaction
// to a live replica and records which.
func (h *chaos) balance(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	var in struct {
		ID string `json:"id"`
	}
	json.Unmarshal(body, &in)
	i, gen := h.pick()
	if i < 0 {
		http.Error(w, "no replica", http.StatusBadGateway)
		return
	}
	h.mu.Lock()
	h.routed[in.ID] = routed{i, gen}
	h.mu.Unlock()
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, h.reps[i].disc, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, "replica unreachable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// discordChannel plays games against the AI in one channel until the
// drivers stop.
func (h *chaos) discordChannel(ctx context.Context, channel string) {
	user := discordtest.User{ID: "2000000000000" + strings.TrimPrefix(channel, "ch"), Name: channel, Locale: "en-US"}
	rng := rand.New(rand.NewPCG(uint64(len(channel)), uint64(channel[len(channel)-1])))
	board, refusals := "", 0
	for !h.stopped() && ctx.Err() == nil && !h.t.Failed() {
		if board == "" {
			start := time.Now()
			id, err := h.dc.Command(user, channel, "play")
			if h.interacted(id, err, time.Since(start)) {
				board = h.discordBoard(ctx, id)
			}
			continue
		}
		m, _ := h.dc.Message(board)
		var places []string
		for _, b := range m.Buttons() {
			if strings.HasPrefix(b.CustomID, "p:") && !b.Disabled {
				places = append(places, b.CustomID)
			}
		}
		if len(places) == 0 {
			board = ""
			continue
		}
		start := time.Now()
		id, err := h.dc.Tap(user, board, places[rng.IntN(len(places))])
		if !h.interacted(id, err, time.Since(start)) {
			continue
		}
		// The board changes with the answer, or with the edit of a
		// deferred one (a refusal is a private answer instead); a
		// replica killed after deferring leaves it to another.
		err = h.dc.WaitFor(handledWait, "the tap's answer", func() bool {
			now, _ := h.dc.Message(board)
			resp := h.dc.Response(id)
			return now.Edits > m.Edits || resp.Type == 4 || len(resp.Followups) > 0 || ctx.Err() != nil
		})
		if err != nil {
			h.mu.Lock()
			rt := h.routed[id]
			h.mu.Unlock()
			if h.lived(rt.rep, rt.gen) {
				h.t.Errorf("channel %s: the tap %s was answered but never finished", channel, id)
				return
			}
			continue
		}
		if now, _ := h.dc.Message(board); now.Edits > m.Edits {
			refusals = 0
			continue
		}
		// Refused: a stale board is redrawn with its refusal, so the
		// next tap is taken; refusals again and again are a bug.
		h.mu.Lock()
		h.refused++
		h.mu.Unlock()
		if refusals++; refusals > 3 {
			text, _ := h.dc.Message(h.dc.Response(id).Original)
			h.t.Errorf("channel %s: taps refused again and again, last with %q", channel, text.Content)
			return
		}
	}
}

// interacted records the end of one interaction's delivery, which took
// took: an interaction whose replica lived must have been answered in
// time.
func (h *chaos) interacted(id string, err error, took time.Duration) bool {
	resp := h.dc.Response(id)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls++
	if resp.Type == 5 || resp.Type == 6 {
		h.deferrals++
	}
	h.followups += len(resp.Followups)
	if err == nil {
		return true
	}
	rt, ok := h.routed[id]
	r := h.reps[rt.rep]
	if ok && r.alive && r.gen == rt.gen && !h.stopping {
		h.t.Errorf("interaction %s failed on replica %d, which lived, after %v: %q", id, rt.rep, took, err)
		return false
	}
	h.failed++
	return false
}

// discordBoard waits for the board a /play posted.
func (h *chaos) discordBoard(ctx context.Context, id string) string {
	var board string
	h.dc.WaitFor(handledWait, "the board", func() bool {
		m, ok := h.dc.Message(h.dc.Response(id).Original)
		if ok && slices.ContainsFunc(m.Buttons(), func(b discordtest.Button) bool { return strings.HasPrefix(b.CustomID, "p:") }) {
			board = m.ID
		}
		return board != "" || ctx.Err() != nil
	})
	return board
}

// check makes the final checks and reports the counts.
func (h *chaos) check(ctx context.Context) {
	t := h.t
	svc := session.New(h.cluster.Store(t, "chaos/"), nil)
	h.mu.Lock()
	acks := slices.Clone(h.acks)
	h.mu.Unlock()
	for _, a := range acks {
		g, err := svc.Game(ctx, a.game)
		act, _ := adapters.DecodeAction(a.data)
		if err != nil || len(g.Moves()) <= a.moveNo || g.Moves()[a.moveNo] != act.Cell {
			t.Errorf("acknowledged tap %s is not stored (game %v, %v)", a.data, g.Moves(), err)
		}
	}
	if n := h.tg.Flooded(); n != 0 {
		t.Errorf("the Bot API answered 429 %d times", n)
	}
	if leaks := h.dc.Leaks(); len(leaks) != 0 {
		t.Errorf("private text in public messages: %v", leaks)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.doubles > h.kills {
		t.Errorf("%d boards posted twice, more than the %d kills", h.doubles, h.kills)
	}
	t.Logf("chaos: %d kills, %d restarts, %d etcd leaders stopped; Telegram: %d updates accepted, %d taps acknowledged and stored, %d boards doubled, %d calls refused with 429; Discord: %d interactions, %d deferrals, %d follow-ups, %d taps refused, %d failed with their replica killed",
		h.kills, h.restarts, h.leaders, h.accepted, len(acks), h.doubles, h.tg.Flooded(), h.calls, h.deferrals, h.followups, h.refused, h.failed)
	if h.kills == 0 || h.leaders < 2 {
		t.Errorf("the chaos was too mild: %d kills, %d leaders stopped", h.kills, h.leaders)
	}
}

// dumpLogs prints the tail of every replica's log.
func (h *chaos) dumpLogs() {
	for i, r := range h.reps {
		if r == nil {
			continue
		}
		logs, _ := os.ReadFile(r.log.Name())
		if len(logs) > 4000 {
			logs = logs[len(logs)-4000:]
		}
		h.t.Logf("replica %d log (tail):\n%s", i, logs)
	}
}
