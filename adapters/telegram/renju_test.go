package telegram_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters"
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// A renju duel played by typed moves up to a double three for Black: the
// board marks it ⛔, and Black's tap and typed move there are refused with
// the reason in Black's language, changing nothing.
func TestRenjuDuelRefusesForbiddenPoint(t *testing.T) {
	h := newHarness(t, nil)
	chat := group(-4100)
	alice, bob := named(4101, "alice", "en"), named(4102, "bob", "zh")
	ch := h.startGame(chat, alice, "/duel @bob renju first")
	if got := h.tap(chat, bob, ch.ID, button(t, ch, "a:")); got != "" {
		t.Fatalf("bob's accept answered %q", got)
	}
	v := h.gameOf(ch)
	r := v.Rules()
	if !r.Renju || v.Status() != session.Running || v.Seat(engine.Black).User.ID != "4101" {
		t.Fatalf("duel: rules %v, %s, black %+v", r, v.Status(), v.Seat(engine.Black))
	}
	moves := []engine.Point{{X: 5, Y: 7}, {X: 0, Y: 0}, {X: 6, Y: 7}, {X: 14, Y: 0}, {X: 7, Y: 5}, {X: 0, Y: 14}, {X: 7, Y: 6}, {X: 14, Y: 14}}
	for i, p := range moves {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		h.say(chat, who, render.FormatCoord(p, r))
	}
	v, _ = h.svc.Game(context.Background(), v.ID())
	if v.MoveNo() != len(moves) {
		t.Fatalf("after the typed moves the game is at move %d", v.MoveNo())
	}
	board, _ := h.fake.Message(chat.ID, ch.ID)
	foul := engine.Point{X: 7, Y: 7}
	// The board speaks the language of whoever acted last: bob's.
	if !strings.Contains(board.Caption+board.Text, "连珠 15×15") {
		t.Fatalf("board does not name renju: %q", board.Caption+board.Text)
	}
	marked := false
	for _, row := range board.Buttons() {
		for _, b := range row {
			marked = marked || b.Text == "⛔"
		}
	}
	if !marked {
		t.Fatalf("no ⛔ button on the board: %v", board.Buttons())
	}

	want := "Forbidden for Black: double three."
	data := adapters.EncodeAction(render.Action{Kind: render.Place, Game: v.ID(), MoveNo: v.MoveNo(), Cell: foul})
	h.refused(chat, alice, ch.ID, data, v.ID(), want)

	before := len(h.fake.BotMessages(chat.ID))
	h.say(chat, alice, render.FormatCoord(foul, r))
	if ms := h.fake.BotMessages(chat.ID); len(ms) != before+1 || ms[len(ms)-1].Text != want {
		t.Fatalf("typed %s: bot said %v, want %q", render.FormatCoord(foul, r), ms[before:], want)
	}
	if now, _ := h.svc.Game(context.Background(), v.ID()); now.Version() != v.Version() || now.MoveNo() != v.MoveNo() {
		t.Fatalf("the refused move changed the game")
	}
	// A legal move goes on; White to move: no more marks.
	h.say(chat, alice, render.FormatCoord(engine.Point{X: 8, Y: 7}, r))
	board, _ = h.fake.Message(chat.ID, ch.ID)
	for _, row := range board.Buttons() {
		for _, b := range row {
			if b.Text == "⛔" {
				t.Fatalf("⛔ with White to move: %v", board.Buttons())
			}
		}
	}
}
