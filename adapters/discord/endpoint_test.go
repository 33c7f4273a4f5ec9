package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
	"github.com/boardbot/boardbot/session/etcdstore"
	"github.com/boardbot/boardbot/session/etcdstore/etcdtest"
	"github.com/boardbot/boardbot/session/kv"
)

// replica is a bot serving the Interactions Endpoint URL on a store.
type replica struct {
	url string
	svc *session.Service
	// reclaim ticks the endpoint's reclaim, on a shared store.
	reclaim chan time.Time
	cancel  context.CancelFunc
	done    chan error
	handled signals
}

// testKey is the application key of the endpoint tests, from a fixed
// seed.
var testKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

// startReplica runs a bot on st serving the endpoint on a loopback port
// until the test ends.
func startReplica(t *testing.T, st kv.Store, seed uint64) *replica {
	t.Helper()
	return startReplicaWith(t, st, seed, nil)
}

// startReplicaWith is startReplica with edit changing the session's and
// the bot's configs first.
func startReplicaWith(t *testing.T, st kv.Store, seed uint64, edit func(*session.Config, *Config)) *replica {
	t.Helper()
	r := &replica{done: make(chan error, 1), reclaim: make(chan time.Time)}
	var mu sync.Mutex
	scfg := session.Config{NewSeed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed }}
	cfg := Config{Token: testToken, AppID: discordtest.AppID, Handled: r.markHandled}
	if edit != nil {
		edit(&scfg, &cfg)
	}
	r.svc = session.New(st, &scfg)
	bot, err := New(r.svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ecfg := EndpointConfig{PublicKey: testKey.Public().(ed25519.PublicKey)}
	if st.Shared() {
		ecfg.Reclaim = r.reclaim
	}
	e, err := bot.Endpoint(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.url = "http://" + ln.Addr().String() + "/interactions"
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- e.Serve(ctx, ln, "/interactions") }()
	t.Cleanup(func() {
		cancel()
		if err := <-r.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return r
}

// handledChan returns the channel closed once interaction id was
// answered completely.
func (r *replica) handledChan(id string) chan struct{} { return r.handled.of(id) }

// markHandled is the bot's Config.Handled.
func (r *replica) markHandled(id string) { r.handled.fire(id) }

// endpointFake starts a fake Discord for endpoint tests.
func endpointFake(t *testing.T) *discordtest.Server {
	t.Helper()
	fake := discordtest.New(discordtest.Options{Token: testToken, Deadline: func() <-chan time.Time { return nil }})
	if err := SetAPIBase(fake.URL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fake.Close()
		SetAPIBase(DefaultAPIBase)
	})
	return fake
}

func boltStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestEndpointRefusesUnsignedStaleAndReplayed posts to the endpoint
// requests with a bad signature, a tampered body, a stale or future
// timestamp and a replay of a handled interaction: each gets 401 and
// changes nothing; a signed PING gets PONG.
func TestEndpointRefusesUnsignedStaleAndReplayed(t *testing.T) {
	fake := endpointFake(t)
	r := startReplica(t, boltStore(t), 1)
	fake.UseEndpoint(func() string { return r.url }, testKey, time.Now)

	ping := []byte(`{"id":"1","type":1,"application_id":"` + discordtest.AppID + `","token":"t","version":1}`)
	status, body, err := discordtest.PostSigned(r.url, discordtest.Sign(testKey, time.Now(), ping), ping)
	if err != nil || status != 200 || !strings.Contains(string(body), `"type":1`) {
		t.Fatalf("PING: %d %s %v, want 200 and PONG", status, body, err)
	}

	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{8}, ed25519.SeedSize))
	tampered := discordtest.Sign(testKey, time.Now(), ping)
	for name, c := range map[string]struct {
		h    http.Header
		body []byte
	}{
		"no signature":    {http.Header{"Content-Type": {"application/json"}}, ping},
		"another key":     {discordtest.Sign(other, time.Now(), ping), ping},
		"tampered body":   {tampered, bytes.Replace(ping, []byte(`"type":1`), []byte(`"type":2`), 1)},
		"stale timestamp": {discordtest.Sign(testKey, time.Now().Add(-6*time.Minute), ping), ping},
		"future":          {discordtest.Sign(testKey, time.Now().Add(6*time.Minute), ping), ping},
	} {
		status, _, err := discordtest.PostSigned(r.url, c.h, c.body)
		if err != nil || status != http.StatusUnauthorized {
			t.Errorf("%s: %d %v, want 401", name, status, err)
		}
	}

	id, err := fake.Command(ann, "c1", cmdPlay)
	if err != nil {
		t.Fatal(err)
	}
	<-r.handledChan(id)
	before := len(fake.Messages("c1"))
	ev, _ := fake.Event(id)
	status, _, err = discordtest.PostSigned(r.url, discordtest.Sign(testKey, time.Now(), ev), ev)
	if err != nil || status != http.StatusUnauthorized {
		t.Errorf("replayed /play: %d %v, want 401", status, err)
	}
	if after := len(fake.Messages("c1")); after != before {
		t.Errorf("the replay posted %d messages", after-before)
	}
}

// TestEndpointGameAcrossReplicas plays whole games through the endpoint
// of two replicas on one etcd cluster, each interaction sent to a replica
// picked at random (seeded): every tap moves the game once and the board
// shown is the stored game's.
func TestEndpointGameAcrossReplicas(t *testing.T) {
	fake := endpointFake(t)
	c := etcdtest.Start(t, 1)
	rs := []*replica{startReplica(t, c.Store(t, "discord/"), 1), startReplica(t, c.Store(t, "discord/"), 1000)}
	rng, pick := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	var last *replica
	fake.UseEndpoint(func() string {
		mu.Lock()
		defer mu.Unlock()
		last = rs[pick.IntN(len(rs))]
		return last.url
	}, testKey, time.Now)
	wait := func(id string) {
		t.Helper()
		mu.Lock()
		r := last
		mu.Unlock()
		select {
		case <-r.handledChan(id):
		case <-time.After(waitLimit):
			t.Fatalf("interaction %s not handled", id)
		}
	}
	used := map[*replica]bool{}
	for game := range 2 {
		id, err := fake.Command(ann, "c1", cmdPlay)
		if err != nil {
			t.Fatal(err)
		}
		wait(id)
		board, ok := fake.Message(fake.Response(id).Original)
		if !ok || len(placeButtons(board)) == 0 {
			t.Fatalf("game %d: /play showed %+v; calls %+v", game, board, fake.Calls())
		}
		taps := 0
		for ; len(placeButtons(board)) > 0; taps++ {
			if taps > 9 {
				t.Fatalf("game %d: still running after 9 taps", game)
			}
			cells := placeButtons(board)
			id, err := fake.Tap(ann, board.ID, cells[rng.IntN(len(cells))])
			if err != nil {
				t.Fatal(err)
			}
			wait(id)
			mu.Lock()
			used[last] = true
			mu.Unlock()
			board, _ = fake.Message(board.ID)
		}
		v, err := rs[0].svc.Begin(context.Background(), session.Request{Actor: session.Actor{Platform: Platform, Chat: "c1", User: session.User{ID: ann.ID}}}).Last()
		if err != nil {
			t.Fatal(err)
		}
		if !v.Status().Over() {
			t.Errorf("game %d: the board shows no cell to tap, the store has %v", game, v.Status())
		}
		human := 0
		for i := range v.Moves() {
			if (i%2 == 0) == (v.SideOf(ann.ID) == engine.Black) {
				human++
			}
		}
		if human != taps {
			t.Errorf("game %d: %d taps, the stored game has %d moves of ann", game, taps, human)
		}
	}
	if len(used) != 2 {
		t.Errorf("taps went to %d replicas, want both: %s %s", len(used), rs[0].url, rs[1].url)
	}
}

// play types /play as ann in channel c1 through replica r, waits until r
// answered it, and returns the board: a fresh 3×3 game.
func (r *replica) play(t *testing.T, fake *discordtest.Server) discordtest.Message {
	t.Helper()
	id, err := fake.Command(ann, "c1", cmdPlay)
	if err != nil {
		t.Fatal(err)
	}
	r.waitHandled(t, id)
	board, ok := fake.Message(fake.Response(id).Original)
	if !ok || len(placeButtons(board)) != 9 {
		t.Fatalf("/play: %+v, board %+v", fake.Response(id), board)
	}
	return board
}

// tick ticks r's reclaim.
func (r *replica) tick(t *testing.T) {
	t.Helper()
	select {
	case r.reclaim <- time.Now():
	case <-time.After(waitLimit):
		t.Fatal("the endpoint does not reclaim")
	}
}

// waitHandled waits until r has answered interaction id completely.
func (r *replica) waitHandled(t *testing.T, id string) {
	t.Helper()
	select {
	case <-r.handledChan(id):
	case <-time.After(waitLimit):
		t.Fatalf("interaction %s not handled", id)
	}
}

// TestEndpointAnswersATapInItsHTTPResponse checks that a tap on a small
// board, whose AI reply is cheap, is carried out whole in the answer to
// Discord's POST: the board is updated (type 7) with the tap and the
// AI's reply, and the bot makes no REST call for it.
func TestEndpointAnswersATapInItsHTTPResponse(t *testing.T) {
	fake := endpointFake(t)
	r := startReplica(t, boltStore(t), 1)
	fake.UseEndpoint(func() string { return r.url }, testKey, time.Now)
	board := r.play(t, fake)
	calls := len(fake.Calls())
	id, err := fake.Tap(ann, board.ID, placeButtons(board)[4])
	if err != nil {
		t.Fatal(err)
	}
	r.waitHandled(t, id)
	if resp := fake.Response(id); resp.Type != 7 || resp.Original != board.ID {
		t.Errorf("tap answered %+v, want an update (7) of the board", resp)
	}
	m, _ := fake.Message(board.ID)
	if m.Edits != 1 || len(placeButtons(m)) != 7 {
		t.Errorf("board after the tap: %d edits, %d cells free; want 1 edit, 7 free", m.Edits, len(placeButtons(m)))
	}
	if extra := fake.Calls()[calls:]; len(extra) != 0 {
		t.Errorf("the tap made REST calls: %+v", extra)
	}
}

// holdAI configures a replica whose AI, while held is set, waits at gate
// before it moves, and whose deferral deadline is fire.
func holdAI(held *atomic.Bool, gate <-chan struct{}, fire chan time.Time) func(*session.Config, *Config) {
	return func(s *session.Config, c *Config) {
		s.NewPlayer = func(l engine.Level, rng *rand.Rand) (engine.Player, error) {
			p, err := engine.NewPlayer(l, rng)
			if err != nil {
				return nil, err
			}
			return engine.PlayerFunc(func(ctx context.Context, b *engine.Board) (engine.Point, error) {
				if held.Load() {
					select {
					case <-gate:
					case <-ctx.Done():
						return engine.Point{}, ctx.Err()
					}
				}
				return p.Move(ctx, b)
			}), nil
		}
		c.After = func(time.Duration) <-chan time.Time {
			if held.Load() {
				return fire
			}
			return nil
		}
	}
}

// TestEndpointDefersATapStillThinkingAtTheDeadline checks the HTTP path
// of a tap whose AI reply outlasts DeferAfter: the POST is answered with
// a deferred update (type 6) once the deadline passes, and the board is
// edited once, through the interaction's webhook, when the AI has moved.
func TestEndpointDefersATapStillThinkingAtTheDeadline(t *testing.T) {
	fake := endpointFake(t)
	gate, fire := make(chan struct{}), make(chan time.Time)
	var held atomic.Bool
	r := startReplicaWith(t, boltStore(t), 1, holdAI(&held, gate, fire))
	fake.UseEndpoint(func() string { return r.url }, testKey, time.Now)
	board := r.play(t, fake)
	calls := len(fake.Calls())
	// DeferAfter has passed before the tap arrives, and the AI is held
	// until the POST is answered.
	held.Store(true)
	close(fire)
	id, err := fake.Tap(ann, board.ID, placeButtons(board)[4])
	if err != nil {
		t.Fatal(err)
	}
	if resp := fake.Response(id); resp.Type != 6 {
		t.Fatalf("tap answered %+v, want a deferred update (6)", resp)
	}
	if m, _ := fake.Message(board.ID); m.Edits != 0 {
		t.Fatal("board edited before the AI moved")
	}
	close(gate)
	r.waitHandled(t, id)
	m, _ := fake.Message(board.ID)
	if m.Edits != 1 || len(placeButtons(m)) != 7 {
		t.Errorf("board after the deferred tap: %d edits, %d cells free; want 1 edit, 7 free", m.Edits, len(placeButtons(m)))
	}
	extra := fake.Calls()[calls:]
	if len(extra) != 1 || extra[0].Method != "PATCH" || !strings.HasSuffix(extra[0].Path, "/messages/@original") {
		t.Errorf("REST calls of the deferred tap: %+v, want one edit of the original", extra)
	}
}

// TestEndpointRefusesReplaysOfAnyID posts interactions whose ids are not
// canonical numbers ("abc", "0800…") twice: each is answered once and its
// replay is refused, as for any other id.
func TestEndpointRefusesReplaysOfAnyID(t *testing.T) {
	endpointFake(t)
	r := startReplica(t, boltStore(t), 1)
	for _, id := range []string{"abc", "0800000000000000001"} {
		body := []byte(`{"id":"` + id + `","type":2,"application_id":"` + discordtest.AppID + `","token":"t-` + id +
			`","version":1,"channel_id":"c9","user":{"id":"501","username":"ann"},"locale":"en-US","data":{"id":"cmd","name":"help","type":1}}`)
		status, answer, err := discordtest.PostSigned(r.url, discordtest.Sign(testKey, time.Now(), body), body)
		if err != nil || status != http.StatusOK || !strings.Contains(string(answer), `"type":4`) {
			t.Fatalf("interaction %q: %d %s %v, want 200 and a message", id, status, answer, err)
		}
		r.waitHandled(t, id)
		status, answer, err = discordtest.PostSigned(r.url, discordtest.Sign(testKey, time.Now(), body), body)
		if err != nil || status != http.StatusUnauthorized {
			t.Errorf("replay of interaction %q: %d %s %v, want 401", id, status, answer, err)
		}
	}
}

// TestEndpointAnswersWhatItDoesNotHandleAtOnce posts interactions the bot
// does not handle: each gets an immediate answer, an ephemeral refusal
// where one is valid and a 400 otherwise, and never a deferral left open.
func TestEndpointAnswersWhatItDoesNotHandleAtOnce(t *testing.T) {
	endpointFake(t)
	r := startReplica(t, boltStore(t), 1)
	const who = `"user":{"id":"501","username":"ann"},"locale":"zh-CN"`
	for _, c := range []struct {
		name, body string
		ephemeral  bool
	}{
		{"autocomplete", `"type":4,"channel_id":"c9",` + who + `,"data":{"id":"cmd","name":"play","type":1,"options":[{"name":"game","type":3,"value":"go","focused":true}]}`, false},
		{"unknown type", `"type":42,"channel_id":"c9",` + who, false},
		{"modal submit", `"type":5,"channel_id":"c9",` + who + `,"data":{"custom_id":"form","components":[]}`, true},
		{"command without a channel", `"type":2,` + who + `,"data":{"id":"cmd","name":"help","type":1}`, true},
		{"command without a user", `"type":2,"channel_id":"c9","locale":"zh-CN","data":{"id":"cmd","name":"help","type":1}`, true},
		{"component without its message", `"type":3,"channel_id":"c9",` + who + `,"data":{"custom_id":"p:1:0:0","component_type":2}`, true},
	} {
		id := strings.ReplaceAll(c.name, " ", "-")
		body := []byte(`{"id":"` + id + `","application_id":"` + discordtest.AppID + `","token":"t-` + id + `","version":1,` + c.body + `}`)
		status, answer, err := discordtest.PostSigned(r.url, discordtest.Sign(testKey, time.Now(), body), body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var resp struct {
			Type int `json:"type"`
			Data struct {
				Content string `json:"content"`
				Flags   int    `json:"flags"`
			} `json:"data"`
		}
		json.Unmarshal(answer, &resp)
		switch {
		case c.ephemeral && (status != http.StatusOK || resp.Type != 4 || resp.Data.Flags&64 == 0 || resp.Data.Content != render.T(render.Chinese, render.MsgUnsupported)):
			t.Errorf("%s: %d %s, want an ephemeral refusal in Chinese", c.name, status, answer)
		case !c.ephemeral && status != http.StatusBadRequest:
			t.Errorf("%s: %d %s, want 400", c.name, status, answer)
		}
	}
}

// TestEndpointOnASlowStoreAnswersInTimeAndKeepsPrivateAnswersPrivate
// runs the endpoint on an etcd cluster whose every reply comes 800 ms
// late, with Discord's real deadline and the bot's real deferral timer:
// every interaction gets its first response in time (deferred when its
// commits take longer than Config.DeferAfter), and a refusal to a
// stranger's tap, private, never shows in a public message.
func TestEndpointOnASlowStoreAnswersInTimeAndKeepsPrivateAnswersPrivate(t *testing.T) {
	fake := discordtest.New(discordtest.Options{Token: testToken})
	if err := SetAPIBase(fake.URL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fake.Close()
		SetAPIBase(DefaultAPIBase)
	})
	c := etcdtest.Start(t, 1)
	slow := c.Proxy(t, 0, func() time.Duration { return 800 * time.Millisecond }).URL
	st, err := etcdstore.Open(etcdstore.Options{Endpoints: []string{slow}, Prefix: "slow/", DialTimeout: 10 * time.Second, RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := startReplicaWith(t, st, 1, func(_ *session.Config, c *Config) { c.After = nil })
	fake.UseEndpoint(func() string { return r.url }, testKey, time.Now)

	board := r.play(t, fake)
	stranger := discordtest.User{ID: "100000000000000009", Name: "eve", Locale: "en-US"}
	tap, err := fake.Tap(stranger, board.ID, placeButtons(board)[4])
	if err != nil {
		t.Fatal(err)
	}
	r.waitHandled(t, tap)
	stats, err := fake.Command(ann, "c1", cmdStats)
	if err != nil {
		t.Fatal(err)
	}
	r.waitHandled(t, stats)

	for _, id := range []string{board.Interaction, tap, stats} {
		t.Logf("%s: %+v", id, fake.Response(id))
		if resp := fake.Response(id); resp.Failed || resp.Type == 0 {
			t.Errorf("interaction %s: %+v, want a first response in time", id, resp)
		}
	}
	if leaks := fake.Leaks(); len(leaks) != 0 {
		t.Errorf("public messages edited as ephemeral: %v", leaks)
	}
	refusal := render.T(render.English, render.MsgNotAPlayer)
	for _, m := range fake.Messages("c1") {
		if !m.Ephemeral && strings.Contains(m.Content, refusal) {
			t.Errorf("the refusal shows in public message %s: %q", m.ID, m.Content)
		}
	}
	if m, _ := fake.Message(board.ID); len(placeButtons(m)) != 9 {
		t.Errorf("the stranger's tap changed the board: %+v", m)
	}
}

// TestEndpointFinishesWhatADeadReplicaDeferred has replica A defer a tap
// (the deadline passed, its AI waits at a gate) and die before it answers
// it; replica B, once A's claim expired, finishes the tap through the
// interaction's token: the board is edited once, through the original,
// with the tap and the AI's reply, and the stored game has the tap once.
func TestEndpointFinishesWhatADeadReplicaDeferred(t *testing.T) {
	fake := endpointFake(t)
	c := etcdtest.Start(t, 1)
	gate, fire := make(chan struct{}), make(chan time.Time)
	var held atomic.Bool
	a := startReplicaWith(t, c.Store(t, "discord/"), 1, holdAI(&held, gate, fire))
	// B's clock runs a claim's life ahead: A's claims look expired to it,
	// as they do once A is dead long enough.
	b := startReplicaWith(t, c.Store(t, "discord/"), 1000, func(s *session.Config, _ *Config) {
		s.Now = func() time.Time { return time.Now().Add(session.ClaimTTL) }
	})
	t.Cleanup(func() { close(gate) }) // A's handling ends before A stops
	fake.UseEndpoint(func() string { return a.url }, testKey, time.Now)
	board := a.play(t, fake)
	held.Store(true)
	close(fire)
	changes := c.Client(t).Watch(t.Context(), "discord/", clientv3.WithPrefix())
	id, err := fake.Tap(ann, board.ID, placeButtons(board)[4])
	if err != nil {
		t.Fatal(err)
	}
	if resp := fake.Response(id); resp.Type != 6 {
		t.Fatalf("tap answered %+v, want a deferred update (6)", resp)
	}
	// The deferral is kept as it is written: wait for the keeping.
	waitKept(t, changes, b.svc, id)
	calls := len(fake.Calls())
	// A is stuck for good: B takes the tap over on its next tick.
	b.tick(t)
	b.waitHandled(t, id)
	m, _ := fake.Message(board.ID)
	if m.Edits != 1 || len(placeButtons(m)) != 7 {
		t.Errorf("board after the finished tap: %d edits, %d cells free; want 1 edit, 7 free", m.Edits, len(placeButtons(m)))
	}
	var patches int
	for _, call := range fake.Calls()[calls:] {
		if call.Method == "PATCH" && strings.HasSuffix(call.Path, "/messages/@original") {
			patches++
		}
	}
	if patches != 1 {
		t.Errorf("the tap's original was edited %d times, want once: %+v", patches, fake.Calls()[calls:])
	}
	if left, err := b.svc.Reclaim(context.Background(), Platform, nil); err != nil || len(left) != 0 {
		t.Errorf("inbox after the finish: %v, %v; want it empty", left, err)
	}
}

// TestEndpointDropsADeferralDiscordNeverGot keeps a deferral in the inbox
// as a replica does just before it writes it, for an interaction Discord
// got no answer to (the replica died in between): the replica that takes
// it over finds no original, marks it handled and changes nothing.
func TestEndpointDropsADeferralDiscordNeverGot(t *testing.T) {
	fake := endpointFake(t)
	c := etcdtest.Start(t, 1)
	r := startReplica(t, c.Store(t, "discord/"), 1)
	fake.UseEndpoint(func() string { return r.url }, testKey, time.Now)
	board := r.play(t, fake)
	// The tap reaches a replica that never answers.
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }))
	t.Cleanup(dead.Close)
	fake.UseEndpoint(func() string { return dead.URL }, testKey, time.Now)
	id, err := fake.Tap(ann, board.ID, placeButtons(board)[4])
	if err == nil {
		t.Fatal("the tap was answered")
	}
	event, ok := fake.Event(id)
	if !ok {
		t.Fatal("no event of the tap")
	}
	data, _ := json.Marshal(deferred{Event: event, Type: 6, At: time.Now()})
	n, _ := strconv.ParseInt(id, 10, 64)
	if _, _, err := r.svc.Receive(context.Background(), Platform, []session.InboxItem{{ID: n, Data: data}}); err != nil {
		t.Fatal(err)
	}
	calls := len(fake.Calls())
	r.tick(t)
	r.waitHandled(t, id)
	for _, call := range fake.Calls()[calls:] {
		if call.Method != "GET" {
			t.Errorf("call for a deferral Discord never got: %s %s", call.Method, call.Path)
		}
	}
	if m, _ := fake.Message(board.ID); m.Edits != 0 {
		t.Errorf("board edited %d times", m.Edits)
	}
	if seen, err := r.svc.Seen(context.Background(), Platform, id); err != nil || !seen {
		t.Errorf("the dropped interaction is not marked handled: %v, %v", seen, err)
	}
	if left, err := r.svc.Reclaim(context.Background(), Platform, nil); err != nil || len(left) != 0 {
		t.Errorf("inbox after the drop: %v, %v; want it empty", left, err)
	}
}

// TestEndpointLateHandlingKeepsTheBoardAnotherPosted has replica A
// defer a /play whose AI moves first (the deadline passed, the AI waits
// at a gate); replica B, once A's claim looks expired, finishes it: the
// game starts and its board replaces the "thinking…" of the original.
// Then A's AI is let go: A's handling finds the game started already and
// shows it. The original is B's board now, not a placeholder, so A
// leaves it: nothing is deleted, and the board stays playable.
func TestEndpointLateHandlingKeepsTheBoardAnotherPosted(t *testing.T) {
	fake := endpointFake(t)
	c := etcdtest.Start(t, 1)
	gate, fire := make(chan struct{}), make(chan time.Time)
	var held atomic.Bool
	held.Store(true)
	close(fire)
	a := startReplicaWith(t, c.Store(t, "discord/"), 1, holdAI(&held, gate, fire))
	b := startReplicaWith(t, c.Store(t, "discord/"), 1000, func(s *session.Config, _ *Config) {
		s.Now = func() time.Time { return time.Now().Add(session.ClaimTTL) }
	})
	fake.UseEndpoint(func() string { return a.url }, testKey, time.Now)
	changes := c.Client(t).Watch(t.Context(), "discord/", clientv3.WithPrefix())
	id, err := fake.Command(ann, "c1", cmdPlay, discordtest.StringOption(optSide, "second"))
	if err != nil {
		t.Fatal(err)
	}
	if resp := fake.Response(id); resp.Type != 5 {
		t.Fatalf("/play answered %+v, want a deferral (5)", resp)
	}
	waitKept(t, changes, b.svc, id)
	b.tick(t)
	b.waitHandled(t, id)
	board, ok := fake.Message(fake.Response(id).Original)
	if !ok || len(placeButtons(board)) != 8 {
		t.Fatalf("B's board: %+v", board)
	}
	calls := len(fake.Calls())
	close(gate)
	a.waitHandled(t, id)
	for _, call := range fake.Calls()[calls:] {
		if call.Method == "DELETE" {
			t.Errorf("A's late handling deleted %s", call.Path)
		}
	}
	if m, ok := fake.Message(board.ID); !ok || m.Deleted || len(placeButtons(m)) != 8 {
		t.Errorf("the board after A's late handling: %+v", m)
	}
}

// waitKept waits, on the store's changes, until interaction id is kept
// in the inbox.
func waitKept(t *testing.T, changes clientv3.WatchChan, svc *session.Service, id string) {
	t.Helper()
	for !kept(t, svc, id) {
		select {
		case <-changes:
		case <-time.After(waitLimit):
			t.Fatal("the deferral is not kept")
		}
	}
}

// kept reports whether interaction id is kept in the inbox.
func kept(t *testing.T, svc *session.Service, id string) bool {
	t.Helper()
	pending, err := svc.Pending(context.Background(), Platform)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(pending, func(it session.InboxItem) bool { return strconv.FormatInt(it.ID, 10) == id })
}
