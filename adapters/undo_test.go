package adapters

import (
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestUndoAgainstTheAIByCommandAndButton takes back moves against the AI
// by /undo and by the ↩️ button, and checks the refusals: nothing to take
// back, a stale button, a finished game, and someone else's game.
func TestUndoAgainstTheAIByCommandAndButton(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	alice := req("alice")
	if r := read(d.Text(ctx, alice, "/undo")); r.Text != render.T(render.English, render.MsgNoGame) {
		t.Fatalf("/undo with no game: %+v", r)
	}
	g := *read(d.Text(ctx, alice, "/play easy")).Game
	if err := bind(d, g.ID(), "m1"); err != nil {
		t.Fatal(err)
	}
	if r := read(d.Text(ctx, alice, "/undo")); r.Text != "You have no move to take back." || r.Game != nil {
		t.Fatalf("/undo before any move: %+v", r)
	}
	r := read(d.Text(ctx, alice, "b2"))
	if r.Game == nil || r.Game.MoveNo() != 2 {
		t.Fatalf("b2: %+v", r)
	}
	played := *r.Game
	// The ↩️ button: the move and the reply are gone, the message edited.
	r = tapAction(t, d, alice, played, render.Undo)
	if r.Game == nil || r.Game.MoveNo() != 0 || r.Edit != "m1" || r.Game.Takebacks() != 1 || r.Notice != "" {
		t.Fatalf("↩️: %+v", r)
	}
	text, _ := render.Message(*r.Game, render.English, render.ConsoleLayout, nil)
	if !strings.Contains(text, "Takebacks: 1.") {
		t.Errorf("board after a takeback:\n%s", text)
	}
	// The same button again is stale: refused, and the board redrawn.
	r = tapAction(t, d, alice, played, render.Undo)
	if r.Notice != render.T(render.English, render.MsgStale) || r.Game == nil || r.Game.MoveNo() != 0 {
		t.Fatalf("stale ↩️: %+v", r)
	}
	// Someone else's ↩️.
	read(d.Text(ctx, alice, "a1"))
	now, _ := d.svc.Game(ctx, g.ID())
	if r := tapAction(t, d, req("bob"), now, render.Undo); r.Notice != "This is not your game." {
		t.Fatalf("bob's ↩️: %+v", r)
	}
	// Typed /undo.
	if r := read(d.Text(ctx, alice, "/undo")); r.Game == nil || r.Game.MoveNo() != 0 || r.Edit != "m1" || r.Game.Takebacks() != 2 {
		t.Fatalf("/undo: %+v", r)
	}
	// Never after the end.
	read(d.Text(ctx, alice, "a1"))
	now, _ = d.svc.Game(ctx, g.ID())
	end := read(d.Text(ctx, alice, "/resign"))
	if r := tapAction(t, d, alice, now, render.Undo); r.Notice != render.T(render.English, render.MsgGameOver) {
		t.Fatalf("↩️ after the end: %+v", r)
	}
	if r := read(d.Text(ctx, alice, "/undo")); r.Text != render.T(render.English, render.MsgTypedGameOver) {
		t.Fatalf("/undo after the end: %+v", r)
	}
	if end.Game == nil || end.Game.Status() != session.Resigned {
		t.Fatalf("/resign: %+v", end)
	}
	// The game is marked in /stats, in both languages.
	if r := read(d.Text(ctx, alice, "/stats")); !strings.Contains(r.Text, "(games with takebacks: 1, won: 0;") {
		t.Errorf("/stats:\n%s", r.Text)
	}
	read(d.Text(ctx, alice, "/lang zh"))
	if r := read(d.Text(ctx, alice, "/stats")); !strings.Contains(r.Text, "有悔棋：1 局，胜 0") {
		t.Errorf("/stats in Chinese:\n%s", r.Text)
	}
	if r := read(d.Text(ctx, alice, "/help")); !strings.Contains(r.Text, "/undo") {
		t.Errorf("/help says nothing of /undo:\n%s", r.Text)
	}
}

// TestDuelTakebackIsAskedAndAnswered asks for takebacks in a duel and
// answers them by button and by typing /undo; a move withdraws a request.
func TestDuelTakebackIsAskedAndAnswered(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	alice, bob := req("alice"), req("bob")
	ch := *read(d.Text(ctx, alice, "/duel @bob first")).Game
	if err := bind(d, ch.ID(), "m1"); err != nil {
		t.Fatal(err)
	}
	read(d.Text(ctx, bob, "/accept"))
	read(d.Text(ctx, alice, "b2"))
	// alice asks by button: nothing is taken back yet, bob sees the
	// question and the answers.
	g, _ := d.svc.Game(ctx, ch.ID())
	r := tapAction(t, d, alice, g, render.Undo)
	if r.Game == nil || r.Game.MoveNo() != 1 || r.Game.UndoAsk() != engine.Black || r.Edit != "m1" {
		t.Fatalf("alice asks: %+v", r)
	}
	asked := *r.Game
	text, _ := render.Message(asked, render.English, render.ConsoleLayout, nil)
	if !strings.Contains(text, "Takeback asked by ❌ alice. ⭕ bob: accept or refuse") {
		t.Errorf("board with a request:\n%s", text)
	}
	if r := tapAction(t, d, alice, asked, render.UndoAccept); r.Notice != "There is no takeback request for you to answer." {
		t.Fatalf("alice allows her own: %+v", r)
	}
	if r := tapAction(t, d, req("carol"), asked, render.UndoAccept); r.Notice != "This is not your game." {
		t.Fatalf("carol allows: %+v", r)
	}
	r = tapAction(t, d, bob, asked, render.UndoAccept)
	if r.Game == nil || r.Game.MoveNo() != 0 || r.Game.UndoAsk() != engine.Empty || r.Game.Takebacks() != 1 {
		t.Fatalf("bob allows: %+v", r)
	}
	// Refused by button.
	read(d.Text(ctx, alice, "b2"))
	read(d.Text(ctx, bob, "a1"))
	asked = *read(d.Text(ctx, alice, "/undo")).Game
	r = tapAction(t, d, bob, asked, render.UndoDecline)
	if r.Game == nil || r.Game.MoveNo() != 2 || r.Game.UndoAsk() != engine.Empty {
		t.Fatalf("bob refuses: %+v", r)
	}
	// Accepted by typing /undo.
	read(d.Text(ctx, bob, "/undo")) // bob asks now: a1 would go
	if r := read(d.Text(ctx, alice, "/undo")); r.Game == nil || r.Game.MoveNo() != 1 || r.Game.Takebacks() != 2 {
		t.Fatalf("alice types /undo to allow bob's request: %+v", r)
	}
	// A move withdraws a request: the answer buttons go stale.
	read(d.Text(ctx, bob, "a1"))
	asked = *read(d.Text(ctx, bob, "/undo")).Game
	read(d.Text(ctx, alice, "c3"))
	if r := tapAction(t, d, alice, asked, render.UndoAccept); r.Notice != render.T(render.English, render.MsgStale) {
		t.Fatalf("allowing a withdrawn request: %+v", r)
	}
	if g, _ := d.svc.Game(ctx, ch.ID()); g.UndoAsk() != engine.Empty || g.MoveNo() != 3 {
		t.Fatalf("after the move: request by %v, %d moves", g.UndoAsk(), g.MoveNo())
	}
}
