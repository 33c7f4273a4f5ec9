package telegram_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardbot/boardbot/adapters/telegram/telegramtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// clock is a settable fake clock for the session.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestSweptGamesShowTheirEndOnTheBoardMessage(t *testing.T) {
	clk := &clock{now: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)}
	h := newHarness(t, func(h *harness) { h.now = clk.Now })
	ctx := context.Background()
	// A game against the AI on a text board, one on a picture, a duel
	// and an open challenge.
	chatA, ann := private(3000), named(3000, "ann", "en")
	mA := h.startGame(chatA, ann, "/play medium ttt")
	h.tap(chatA, ann, mA.ID, placeButtons(mA)[0])
	chatB, ben := private(3001), named(3001, "ben", "zh")
	mB := h.startGame(chatB, ben, "/play easy gomoku")
	h.say(chatB, ben, "/lang zh")
	chatG := group(-3002)
	cy, dee, eve := named(3003, "cy", "en"), named(3004, "dee", "en"), named(3005, "eve", "en")
	duel := h.startGame(chatG, cy, "/duel")
	h.tap(chatG, dee, duel.ID, button(t, duel, "a:"))
	open := h.startGame(chatG, eve, "/duel 7x7")
	type key struct {
		chat int64
		id   int
	}
	before := map[key]telegramtest.Message{}
	for _, k := range []key{{chatA.ID, mA.ID}, {chatB.ID, mB.ID}, {chatG.ID, duel.ID}, {chatG.ID, open.ID}} {
		before[k], _ = h.fake.Message(k.chat, k.id)
	}
	vA, vB := h.gameOf(before[key{chatA.ID, mA.ID}]), h.gameOf(before[key{chatB.ID, mB.ID}])
	vD, vO := h.gameOf(before[key{chatG.ID, duel.ID}]), h.gameOf(before[key{chatG.ID, open.ID}])

	// Nothing is due yet.
	if n, err := h.svc.Sweep(ctx); n != 0 || err != nil {
		t.Fatalf("early sweep ended %d: %v", n, err)
	}
	clk.Add(session.DefaultIdleAI)
	if n, err := h.svc.Sweep(ctx); n != 4 || err != nil {
		t.Fatalf("sweep ended %d: %v", n, err)
	}
	game := func(v session.View) session.View {
		t.Helper()
		v, err := h.svc.Game(ctx, v.ID())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		chat int64
		id   int
		v    session.View
		lang render.Lang
	}{
		{"text board", chatA.ID, mA.ID, game(vA), render.English},
		{"duel", chatG.ID, duel.ID, game(vD), render.English},
		{"challenge", chatG.ID, open.ID, game(vO), render.English},
	} {
		m, _ := h.fake.Message(tc.chat, tc.id)
		want, _ := render.Message(tc.v, tc.lang, render.TelegramLayout, nil)
		if b := before[key{tc.chat, tc.id}]; m.Edits != b.Edits+1 || m.Text != want || len(placeButtons(m)) != 0 {
			t.Errorf("%s (%v) after the sweep, %d edits:\n%s\nwant\n%s", tc.name, tc.v.Status(), m.Edits, m.Text, want)
		}
	}
	if v := game(vA); v.Status() != session.Expired || !strings.Contains(render.Text(v, render.English), render.T(render.English, render.MsgExpired)) {
		t.Errorf("ttt game %v:\n%s", v.Status(), render.Text(v, render.English))
	}
	// Nobody moved in the duel: it is aborted, with no winner.
	if v := game(vD); v.Status() != session.Aborted || v.Winner() != 0 || game(vO).Status() != session.Lapsed {
		t.Errorf("the duel is %v with winner %v; the challenge %v", v.Status(), v.Winner(), game(vO).Status())
	}
	// The picture board: a new picture and caption, no live cells.
	m, _ := h.fake.Message(chatB.ID, mB.ID)
	png, err := render.Picture(game(vB))
	if err != nil {
		t.Fatal(err)
	}
	// Ben asked for Chinese: his game against the AI ends in it.
	if m.Edits != 1 || !bytes.Equal(m.Photo, png) || !strings.Contains(m.Caption, render.T(render.Chinese, render.MsgExpired)) || len(placeButtons(m)) != 0 {
		t.Errorf("gomoku after the sweep: %d edits, caption %q, %d live cells", m.Edits, m.Caption, len(placeButtons(m)))
	}
	// Swept again, nothing more happens.
	edits := len(h.fake.Calls("editMessageText")) + len(h.fake.Calls("editMessageMedia"))
	if n, err := h.svc.Sweep(ctx); n != 0 || err != nil || len(h.fake.Calls("editMessageText"))+len(h.fake.Calls("editMessageMedia")) != edits {
		t.Fatalf("second sweep ended %d: %v", n, err)
	}
}
