package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
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
	bolt "go.etcd.io/bbolt"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/adapters/telegram"
	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

var (
	killCycles = flag.Int("killcycles", 0, "kill test: SIGKILL and restart cycles (0: 3, or 25 with -long)")
	killLong   = flag.Bool("long", false, "run the long kill test")
)

// TestKill runs the real bot binary against the fake Telegram server,
// with many chats playing at once, and kills it with SIGKILL at random
// instants (after a random number of acknowledged moves), restarting it
// each time. Between a kill and the restart it checks the database file:
// bbolt's consistency check, every acknowledged move stored, every game
// replaying to its stored status, stats equal to what the finished games
// imply. After each restart it plays on a board sent before the kill, and
// at the end it checks that every board message shows its stored game.
func TestKill(t *testing.T) {
	cycles := *killCycles
	if cycles == 0 {
		cycles = 3
		if *killLong {
			cycles = 25
		}
	}
	if testing.Short() {
		t.Skip("builds and runs the bot binary")
	}
	h := newKillHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(2+cycles)*time.Minute)
	defer cancel()
	h.start()
	var wg sync.WaitGroup
	kinds := []string{"easy 3x3", "medium 3x3", "easy 7x7 k4", "medium 7x7 k4", "easy 3x3", "medium 7x7 k4", "easy 7x7 k4", "medium 3x3"}
	for i, k := range kinds {
		d := h.newDriver(int64(1000+i), k, false)
		wg.Add(1)
		go func() { defer wg.Done(); h.drive(ctx, d) }()
	}
	for i := range 3 {
		d := h.newDriver(int64(-2000-i), "", true)
		wg.Add(1)
		go func() { defer wg.Done(); h.drive(ctx, d) }()
	}
	probe := h.newDriver(5000, "easy 7x7 k5", false)
	h.probe(ctx, probe)

	for cycle := range cycles {
		target := h.ackCount() + 5 + h.rng.IntN(40)
		if err := h.waitUntil(ctx, func() bool { return h.ackCount() >= target || h.exited() }); err != nil {
			h.fatalf("cycle %d: waiting for %d acknowledged moves (have %d): %v", cycle, target, h.ackCount(), err)
		}
		h.kill()
		h.verify(ctx, nil)
		if cycle == 0 {
			h.redeliverAcked(3)
		}
		h.start()
		// A board sent before the kill still plays.
		h.probe(ctx, probe)
	}
	h.stopDrivers()
	wg.Wait()
	for _, r := range h.redelivered {
		if err := h.waitUntil(ctx, func() bool { return len(h.fake.Answers(r)) >= 2 }); err != nil {
			h.fatalf("the re-delivered tap %s was not handled again: %v", r, err)
		}
	}
	h.kill()
	h.verify(ctx, h.drivers())
	moves, games := h.checked()
	t.Logf("kill test: %d cycles survived, %d acknowledged moves checked (%d on boards sent before a restart), %d games in the store checked, %d updates delivered more than once, %d duplicates forced, every update handled, %d duels abandoned after a refused accept",
		cycles, moves, h.oldBoardAcks(), games, h.fake.Redelivered(), len(h.redelivered), h.abandoned())
	if h.fake.Redelivered() == 0 {
		t.Errorf("no update was delivered twice: the at-least-once path went untested")
	}
}

// killHarness runs the bot binary against the fake server and drives
// the chats.
type killHarness struct {
	t    *testing.T
	fake *telegramtest.Server
	bin  string
	db   string
	logf *os.File
	rng  *rand.Rand

	mu       sync.Mutex
	changed  chan struct{}
	cmd      *exec.Cmd
	waited   chan struct{}
	gen      int
	acks     []ack
	pending  map[int]*op
	stopping bool
	all      []*driver
	dropped  int
	nChecked int

	redelivered []string
}

// op is an update pushed for the bot and waited on.
type op struct {
	done func() bool
}

// ack is a move the fake saw acknowledged: the board edited and the
// callback answered without a refusal.
type ack struct {
	game   session.GameID
	moveNo int
	cell   engine.Point
	update tgbotapi.Update
	old    bool // made on a board sent before the latest restart
	// callback and board name the tap and the message tapped, with
	// its edits before the tap, for the report of a failure.
	callback string
	board    int
	edits    int
}

func newKillHarness(t *testing.T) *killHarness {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bot")
	// go test puts its own GOROOT/bin first in PATH.
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	logf, err := os.Create(filepath.Join(dir, "bot.log"))
	if err != nil {
		t.Fatal(err)
	}
	h := &killHarness{
		t: t, fake: telegramtest.NewServer(), bin: bin, db: filepath.Join(dir, "bot.db"), logf: logf,
		rng: rand.New(rand.NewPCG(8, 2026)), changed: make(chan struct{}), pending: map[int]*op{},
	}
	h.fake.OnCall(func(telegramtest.Call) { h.broadcast() })
	t.Cleanup(func() {
		h.mu.Lock()
		cmd, waited := h.cmd, h.waited
		h.mu.Unlock()
		if cmd != nil {
			cmd.Process.Kill()
			<-waited
		}
		h.fake.Close()
		logf.Close()
	})
	return h
}

// fatalf fails the test with the bot's log.
func (h *killHarness) fatalf(format string, args ...any) {
	h.t.Helper()
	logs, _ := os.ReadFile(h.logf.Name())
	if len(logs) > 8000 {
		logs = logs[len(logs)-8000:]
	}
	h.t.Fatalf(format+"\nbot log (tail):\n%s", append(args, logs)...)
}

func (h *killHarness) broadcast() {
	h.mu.Lock()
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
}

// waitUntil waits until cond holds, checking it after every call the fake
// records and every change of the harness.
func (h *killHarness) waitUntil(ctx context.Context, cond func() bool) error {
	for {
		h.mu.Lock()
		ch := h.changed
		h.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// killConfig lifts the game limits and the challenge cooldown: every kill
// can leave a challenge whose message was never sent, and the drivers
// start new chats with the same users, so limits would refuse them in the
// end, which is not what this test is about.
const killConfig = "limits:\n  games_per_user: 0\n  games_per_chat: 0\n  challenge_cooldown: 0s\n"

// start runs the bot binary.
func (h *killHarness) start() {
	config := filepath.Join(filepath.Dir(h.db), "config.yaml")
	if err := os.WriteFile(config, []byte(killConfig), 0o600); err != nil {
		h.fatalf("write the config: %v", err)
	}
	cmd := exec.Command(h.bin, "-db", h.db, "-config", config)
	cmd.Env = []string{
		"TELEGRAM_TOKEN=" + telegramtest.Token,
		"TELEGRAM_API_ENDPOINT=" + h.fake.Endpoint(),
		"BOT_LOG_LEVEL=warn",
		"HOME=" + filepath.Dir(h.db),
	}
	cmd.Stdout, cmd.Stderr = h.logf, h.logf
	fmt.Fprintf(h.logf, "=== start %d\n", h.gen+1)
	if err := cmd.Start(); err != nil {
		h.t.Fatalf("start the bot: %v", err)
	}
	waited := make(chan struct{})
	h.mu.Lock()
	h.cmd, h.waited = cmd, waited
	h.gen++
	h.mu.Unlock()
	go func() {
		cmd.Wait()
		close(waited)
		h.broadcast()
	}()
}

// exited reports whether the running bot has exited.
func (h *killHarness) exited() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.waited:
		return true
	default:
		return false
	}
}

// kill sends SIGKILL to the bot and waits for it to die; a bot that died
// before fails the test.
func (h *killHarness) kill() {
	h.t.Helper()
	if h.exited() {
		h.fatalf("the bot exited by itself: %v", h.cmd.ProcessState)
	}
	h.cmd.Process.Signal(syscall.SIGKILL)
	<-h.waited
	if ws, ok := h.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		h.fatalf("the bot ended with %v, not by SIGKILL", h.cmd.ProcessState)
	}
}

// push queues an update for the bot, done telling when it was handled.
func (h *killHarness) push(u tgbotapi.Update, done func() bool) int {
	id := h.fake.PushUpdate(u)
	h.mu.Lock()
	h.pending[id] = &op{done: done}
	h.mu.Unlock()
	return id
}

// await waits until the update was handled: every update pushed, even
// one the bot was killed while handling, must be handled by a later run
// (the bot keeps received updates in its inbox until handled).
func (h *killHarness) await(ctx context.Context, id int) {
	h.mu.Lock()
	o := h.pending[id]
	h.mu.Unlock()
	if err := h.waitUntil(ctx, o.done); err != nil {
		h.fatalf("waiting for update %d: %v", id, err)
	}
	h.mu.Lock()
	delete(h.pending, id)
	h.mu.Unlock()
}

func (h *killHarness) ackCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.acks)
}

func (h *killHarness) generation() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen
}

func (h *killHarness) stopDrivers() {
	h.mu.Lock()
	h.stopping = true
	h.mu.Unlock()
}

func (h *killHarness) stopped() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopping
}

func (h *killHarness) drivers() []*driver {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.all)
}

func (h *killHarness) abandoned() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped
}

func (h *killHarness) oldBoardAcks() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, a := range h.acks {
		if a.old {
			n++
		}
	}
	return n
}

func (h *killHarness) checked() (moves, games int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.acks), h.nChecked
}

// driver plays in one chat: against the AI (what is "/play what"), or a
// duel between two people.
type driver struct {
	chat     tgbotapi.Chat
	users    [2]tgbotapi.User
	what     string
	duel     bool
	rng      *rand.Rand
	board    int // the board message, 0 for none
	boardGen int // the generation that sent it
	refusals int
}

func (h *killHarness) newDriver(chat int64, what string, duel bool) *driver {
	d := &driver{what: what, duel: duel, rng: rand.New(rand.NewPCG(uint64(chat), 7))}
	d.users[0] = tgbotapi.User{ID: chat*10 + 1, FirstName: "P" + strconv.FormatInt(chat, 10)}
	d.users[1] = tgbotapi.User{ID: chat*10 + 2, FirstName: "Q" + strconv.FormatInt(chat, 10)}
	d.chat = tgbotapi.Chat{ID: chat, Type: "private"}
	if duel {
		d.chat.Type = "group"
	}
	h.mu.Lock()
	h.all = append(h.all, d)
	h.mu.Unlock()
	return d
}

// abandon moves the driver to a new chat: its duel's accept was refused
// (after a kill the challenge may have been answered already).
func (h *killHarness) abandon(d *driver) {
	h.mu.Lock()
	h.dropped++
	d.chat.ID += 100000 * sign(d.chat.ID)
	h.mu.Unlock()
	d.board = 0
}

func sign(x int64) int64 {
	if x < 0 {
		return -1
	}
	return 1
}

// drive plays games in the driver's chat until the harness stops.
func (h *killHarness) drive(ctx context.Context, d *driver) {
	for !h.stopped() && ctx.Err() == nil && !h.t.Failed() {
		if d.board == 0 {
			h.startGame(ctx, d)
			continue
		}
		h.playOne(ctx, d)
	}
}

// probe makes one move on the probe driver's board, which was sent before
// the latest restart, and checks it is acknowledged; a finished game is
// followed by a new one for the next restart.
func (h *killHarness) probe(ctx context.Context, d *driver) {
	if d.board != 0 {
		if !h.playOne(ctx, d) {
			h.fatalf("the board sent before the restart did not take a move")
		}
	}
	for d.board == 0 || len(placeButtons(h.message(d))) == 0 {
		d.board = 0
		h.startGame(ctx, d)
	}
}

func (h *killHarness) message(d *driver) telegramtest.Message {
	m, _ := h.fake.Message(d.chat.ID, d.board)
	return m
}

// startGame starts a game in the driver's chat and finds its board.
func (h *killHarness) startGame(ctx context.Context, d *driver) {
	before := 0
	if m, ok := h.fake.LastBotMessage(d.chat.ID); ok {
		before = m.ID
	}
	want := render.Place
	text := "/play " + d.what
	if d.duel {
		want, text = render.Accept, "/duel first"
	}
	find := func() int {
		ms := h.fake.BotMessages(d.chat.ID)
		for i := len(ms) - 1; i >= 0 && ms[i].ID > before; i-- {
			if len(buttonsOf(ms[i], want)) > 0 {
				return ms[i].ID
			}
		}
		return 0
	}
	id := h.push(h.fake.NewTextUpdate(d.chat, d.users[0], text), func() bool { return find() != 0 })
	h.await(ctx, id)
	d.board, d.boardGen = find(), h.generation()
	if !d.duel {
		return
	}
	accept := buttonsOf(h.message(d), render.Accept)[0]
	u, cb := h.fake.NewTapUpdate(d.chat, d.users[1], d.board, accept)
	// The challenge becomes the board after the answer (flood control
	// may hold the edit), unless the bot is killed in between.
	gen := h.generation()
	id = h.push(u, func() bool {
		return h.fake.Answered(cb) && (answerText(h.fake, cb) != "" || len(placeButtons(h.message(d))) > 0 || h.exited() || h.generation() != gen)
	})
	h.await(ctx, id)
	if answerText(h.fake, cb) != "" || len(placeButtons(h.message(d))) == 0 {
		h.abandon(d)
	}
}

// playOne taps a random empty cell of the driver's board as the player to
// move, and records the move when it is acknowledged. It reports whether
// it was.
func (h *killHarness) playOne(ctx context.Context, d *driver) bool {
	m := h.message(d)
	places := placeButtons(m)
	if len(places) == 0 {
		d.board = 0
		return false
	}
	data := places[d.rng.IntN(len(places))]
	a, err := adapters.DecodeAction(data)
	if err != nil {
		h.fatalf("board button %q: %v", data, err)
	}
	who := d.users[0]
	if d.duel && a.MoveNo%2 == 1 {
		who = d.users[1]
	}
	u, cb := h.fake.NewTapUpdate(d.chat, who, d.board, data)
	// The answer does not wait for the board's edit (flood control may
	// hold it): wait for both, or for the bot to be killed in between.
	gen := h.generation()
	killed := func() bool { return h.exited() || h.generation() != gen }
	edited := func() bool { return h.message(d).Edits > m.Edits }
	id := h.push(u, func() bool {
		return h.fake.Answered(cb) && (answerText(h.fake, cb) != "" || edited() || killed())
	})
	u.UpdateID = id
	h.await(ctx, id)
	if text := answerText(h.fake, cb); text != "" {
		// A stale board (its last move was stored but not shown before a
		// kill) is refused and redrawn; anything else repeating is a bug.
		d.refusals++
		if text == render.T(render.English, render.MsgStale) || text == render.T(render.English, render.MsgGameOver) {
			// The redraw of the board follows the answer.
			if err := h.waitUntil(ctx, func() bool { return edited() || killed() }); err != nil {
				h.fatalf("chat %d: waiting for the redraw of a stale board: %v", d.chat.ID, err)
			}
		}
		if d.refusals > 5 {
			h.t.Errorf("chat %d: taps refused again and again, last with %q", d.chat.ID, text)
		}
		return false
	}
	d.refusals = 0
	after := h.message(d)
	if after.Edits <= m.Edits && killed() {
		// Killed before the edit: the board is stale, and the next tap
		// on it is refused and redraws it.
		return false
	}
	if after.Edits <= m.Edits || slices.Contains(placeButtons(after), data) {
		h.t.Errorf("chat %d: tap %s answered without its board edited", d.chat.ID, data)
		return false
	}
	h.mu.Lock()
	h.acks = append(h.acks, ack{game: a.Game, moveNo: a.MoveNo, cell: a.Cell, update: u, old: d.boardGen < h.gen, callback: cb, board: d.board, edits: m.Edits})
	h.mu.Unlock()
	h.broadcast()
	return true
}

// redeliverAcked queues the updates of the last n acknowledged taps again,
// as Telegram would after a crash before their offset was confirmed.
func (h *killHarness) redeliverAcked(n int) {
	h.mu.Lock()
	acks := h.acks[max(0, len(h.acks)-n):]
	h.mu.Unlock()
	for _, a := range acks {
		h.fake.Redeliver(a.update)
		h.redelivered = append(h.redelivered, a.update.CallbackQuery.ID)
	}
}

// answerText returns the text of the successful answer to a callback.
func answerText(fake *telegramtest.Server, cb string) string {
	for _, c := range fake.Answers(cb) {
		if c.Status == 200 {
			return c.Params["text"]
		}
	}
	return ""
}

// buttonsOf returns the callback data of the message's buttons of a kind.
func buttonsOf(m telegramtest.Message, kind render.ActionKind) []string {
	var out []string
	for _, row := range m.Buttons() {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			if a, err := adapters.DecodeAction(*b.CallbackData); err == nil && a.Kind == kind {
				out = append(out, *b.CallbackData)
			}
		}
	}
	return out
}

func placeButtons(m telegramtest.Message) []string { return buttonsOf(m, render.Place) }

// verify checks the database file of the stopped bot; with drivers, also
// that their board messages show the stored games.
func (h *killHarness) verify(ctx context.Context, boards []*driver) {
	h.t.Helper()
	db, err := bolt.Open(h.db, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		h.fatalf("open the database read-only: %v", err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
	db.Close()
	if err != nil {
		h.fatalf("bbolt consistency check: %v", err)
	}

	store, err := boltstore.Open(h.db, nil)
	if err != nil {
		h.fatalf("open the store: %v", err)
	}
	defer store.Close()
	var ids []session.GameID
	store.DB().View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games")).ForEach(func(k, _ []byte) error {
			ids = append(ids, session.GameID(k))
			return nil
		})
	})
	// The killed process wrote its last; a service on the file reads
	// what it left.
	svc := session.New(store, nil)
	games := map[session.GameID]session.View{}
	want := map[string]*session.Stats{}
	for _, id := range ids {
		g, err := svc.Game(ctx, id)
		if err == nil {
			err = replays(g)
		}
		if err != nil {
			h.fatalf("store: game %s: %v", id, err)
		}
		games[id] = g
		addResult(want, g)
	}
	var dev float64
	for uid, w := range want {
		got, err := svc.Stats(ctx, telegram.Platform, uid)
		if err != nil {
			h.fatalf("store: %v", err)
		}
		if got.Results != w.Results || got.Duels != w.Duels {
			h.fatalf("store: stats of %s: stored %+v %d duels, the finished games imply %+v %d duels", uid, got.Results, got.Duels, w.Results, w.Duels)
		}
		dev += got.Rating - session.InitialRating
	}
	if math.Abs(dev) > 1e-6 {
		h.fatalf("store: duel ratings sum to %v more than the initial ratings: a duel was rated once", dev)
	}
	h.mu.Lock()
	acks := slices.Clone(h.acks)
	h.nChecked = len(games)
	h.mu.Unlock()
	for _, a := range acks {
		g, ok := games[a.game]
		if !ok || len(g.Moves()) <= a.moveNo || g.Moves()[a.moveNo] != a.cell {
			h.fatalf("acknowledged move %d at %v of game %s is not stored (stored moves %v)\n%s", a.moveNo, a.cell, a.game, g.Moves(), h.story(a))
		}
	}
	for _, d := range boards {
		if d.board == 0 {
			continue
		}
		m := h.message(d)
		places := placeButtons(m)
		var game session.GameID
		for _, row := range m.Buttons() {
			for _, b := range row {
				if a, err := adapters.DecodeAction(*b.CallbackData); err == nil && a.Game != "" {
					game = a.Game
				}
			}
		}
		g, ok := games[game]
		if !ok {
			h.fatalf("chat %d: board message %d shows no stored game", d.chat.ID, d.board)
		}
		if err := boardMatches(g, places); err != nil {
			h.fatalf("chat %d: board message %d: %v", d.chat.ID, d.board, err)
		}
	}
}

// replays checks that the game's moves replay through the engine to its
// stored status and winner.
func replays(g session.View) error {
	b, err := engine.Replay(g.Rules(), g.Moves())
	if err != nil {
		return fmt.Errorf("moves %v do not replay: %w", g.Moves(), err)
	}
	o := b.Outcome()
	switch g.Status() {
	case session.Won:
		if o.Status != engine.Won || o.Winner != g.Winner() {
			return fmt.Errorf("stored won by %v, the board is %v won by %v", g.Winner(), o.Status, o.Winner)
		}
	case session.Drawn:
		if o.Status != engine.Draw {
			return fmt.Errorf("stored drawn, the board is %v", o.Status)
		}
	case session.Running, session.Resigned, session.Expired:
		if o.Status != engine.Ongoing {
			return fmt.Errorf("stored %s, the board is %v", g.Status(), o.Status)
		}
	}
	return nil
}

// addResult adds what a finished game implies to the stats of its people.
func addResult(want map[string]*session.Stats, g session.View) {
	if !g.Status().Played() || !g.Status().Over() || (g.Status() == session.Expired && g.Winner() == engine.Empty) {
		return
	}
	f := max(0, slices.Index(session.Families, g.Rules().Family()))
	for _, side := range []engine.Stone{engine.Black, engine.White} {
		seat := g.Seat(side)
		if seat.IsAI() {
			continue
		}
		st := want[seat.User.ID]
		if st == nil {
			st = &session.Stats{}
			want[seat.User.ID] = st
		}
		opp := session.VsPeople
		if o := g.Seat(side.Opponent()); o.IsAI() {
			opp = session.Opponent(o.AI - 1)
		}
		t := &st.Results[f][opp]
		switch g.Winner() {
		case engine.Empty:
			t.Draws++
		case side:
			t.Wins++
		default:
			t.Losses++
		}
		if g.IsDuel() {
			st.Duels++
		}
	}
}

// boardMatches checks that a board message's place buttons are the empty
// cells of the stored game at its move number, and that a finished game
// has none.
func boardMatches(g session.View, places []string) error {
	if g.Status() != session.Running {
		if len(places) > 0 {
			return fmt.Errorf("game %s is %s, the message still offers %d cells", g.ID(), g.Status(), len(places))
		}
		return nil
	}
	b, err := engine.Replay(g.Rules(), g.Moves())
	if err != nil {
		return err
	}
	var want []string
	for _, p := range b.LegalMoves() {
		want = append(want, adapters.EncodeAction(render.Action{Kind: render.Place, Game: g.ID(), MoveNo: len(g.Moves()), Cell: p}))
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(places))
	if !slices.Equal(got, want) {
		return fmt.Errorf("game %s at move %d: the message offers %v, the stored game %v", g.ID(), len(g.Moves()), got, want)
	}
	return nil
}

// story tells what the fake saw of an acknowledged tap's chat: the
// bot's calls on its messages and the tap's answers, for the report of a
// failure.
func (h *killHarness) story(a ack) string {
	chat := a.update.CallbackQuery.Message.Chat.ID
	var b strings.Builder
	fmt.Fprintf(&b, "tap: update %d, callback %s, message %d (%d edits before), old board %v\n", a.update.UpdateID, a.callback, a.board, a.edits, a.old)
	for _, c := range h.fake.Answers(a.callback) {
		fmt.Fprintf(&b, "  answer %d %q\n", c.Status, c.Params["text"])
	}
	for _, m := range []string{"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage"} {
		for _, c := range h.fake.Calls(m) {
			if c.Params["chat_id"] != strconv.FormatInt(chat, 10) {
				continue
			}
			text, _, _ := strings.Cut(c.Params["text"], "\n")
			fmt.Fprintf(&b, "  %s %s message %s %q, tapped button shown: %v\n", c.At.Format("15:04:05.000"), m, c.Params["message_id"], text,
				strings.Contains(c.Params["reply_markup"], a.update.CallbackQuery.Data))
		}
	}
	return b.String()
}
