package adapters

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
	"github.com/boardbot/boardbot/session/boltstore"
)

// newHintDispatcher returns a dispatcher whose games against the AI allow
// hints hints each, with a short think time.
func newHintDispatcher(t *testing.T, hints int) *Dispatcher {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "bot.db"), &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	seed := uint64(0)
	c := &fakeClock{t: time.Unix(1e9, 0)}
	svc := session.New(st, &session.Config{
		Now: c.Now, NewSeed: func() uint64 { seed++; return seed },
		ThinkTime: 20 * time.Millisecond, Limits: session.Limits{HintsPerGame: hints},
	})
	return NewDispatcher(svc, "test", "", nil)
}

// TestHintByCommandAndButton asks for hints by 💡 and /hint against the
// AI: the board marks 🎯 on an empty cell and says so, a doubled tap gives
// one hint, and the refusals (a stranger, the limit with its count, in
// both languages, a duel, a finished game) change nothing.
func TestHintByCommandAndButton(t *testing.T) {
	d := newHintDispatcher(t, 2)
	alice := req("alice")
	if r := read(d.Text(ctx, alice, "/hint")); r.Text != render.T(render.English, render.MsgNoGame) {
		t.Fatalf("/hint with no game: %+v", r)
	}
	g := *read(d.Text(ctx, alice, "/play easy")).Game
	if err := bind(d, g.ID(), "m1"); err != nil {
		t.Fatal(err)
	}
	g, _ = d.svc.Game(ctx, g.ID())
	r := tapAction(t, d, alice, g, render.Hint)
	if r.Game == nil || r.Edit != "m1" || r.Notice != "" || r.Game.Hints() != 1 {
		t.Fatalf("💡: %+v", r)
	}
	h, ok := r.Game.Hint()
	if !ok || r.Game.Board().At(h) != engine.Empty {
		t.Fatalf("hint %v %v", h, ok)
	}
	text, kb := render.Message(*r.Game, render.English, render.ConsoleLayout, nil)
	if !strings.Contains(text, "🎯") || !strings.Contains(text, "Hint: 🎯 "+render.FormatCoord(h, g.Rules())+" (hints left: 1).") {
		t.Errorf("board with a hint:\n%s", text)
	}
	if b := kb.Rows[h.Y-kb.Window.Origin.Y][h.X-kb.Window.Origin.X]; b.Label != "🎯" || b.Action.Kind != render.Place {
		t.Errorf("the hinted cell's button: %+v", b)
	}
	for _, row := range kb.Rows {
		for _, b := range row {
			if b.Action.Kind == render.Hint {
				t.Errorf("💡 beside a hint shown: %+v", b)
			}
		}
	}
	// A doubled tap (the same button once more) gives the same hint.
	if again := read(d.Tap(ctx, alice, EncodeAction(render.Action{Kind: render.Hint, Game: g.ID(), MoveNo: g.MoveNo()}))); again.Game == nil || again.Game.Hints() != 1 {
		t.Fatalf("doubled 💡: %+v", again)
	}
	if r := read(d.Text(ctx, req("bob"), "/hint")); r.Text != render.T(render.English, render.MsgNoGame) {
		t.Fatalf("bob's /hint: %+v", r)
	}
	if r := tapAction(t, d, req("bob"), g, render.Hint); r.Notice != "This is not your game." {
		t.Fatalf("bob's 💡: %+v", r)
	}
	// The move clears the hint; typed /hint gives the second.
	r = read(d.Text(ctx, alice, render.FormatCoord(h, g.Rules())))
	if _, ok := r.Game.Hint(); ok || r.Game == nil {
		t.Fatalf("the hint outlived the move: %+v", r)
	}
	r = read(d.Text(ctx, alice, "/hint"))
	if r.Game == nil || r.Game.Hints() != 2 || r.Edit != "m1" {
		t.Fatalf("/hint: %+v", r)
	}
	h, _ = r.Game.Hint()
	r = read(d.Text(ctx, alice, render.FormatCoord(h, g.Rules())))
	if r.Game.Status() != session.Running {
		t.Skipf("the game ended early: %s", r.Game.Status())
	}
	if r := read(d.Text(ctx, alice, "/hint")); r.Text != "No hints left in this game (2 used)." || r.Game != nil {
		t.Fatalf("third /hint: %+v", r)
	}
	read(d.Text(ctx, alice, "/lang zh"))
	if r := tapAction(t, d, alice, *r.Game, render.Resign); r.Game == nil {
		t.Fatalf("resign: %+v", r)
	}
	if r := read(d.Text(ctx, alice, "/hint")); r.Text != render.T(render.Chinese, render.MsgTypedGameOver) {
		t.Fatalf("/hint after the end: %+v", r)
	}
	if r := read(d.Text(ctx, alice, "/stats")); !strings.Contains(r.Text, "有提示：1 局") {
		t.Errorf("/stats in Chinese:\n%s", r.Text)
	}
	read(d.Text(ctx, alice, "/lang en"))
	if r := read(d.Text(ctx, alice, "/stats")); !strings.Contains(r.Text, "(games with hints: 1;") {
		t.Errorf("/stats:\n%s", r.Text)
	}
	if r := read(d.Text(ctx, alice, "/help")); !strings.Contains(r.Text, "/hint") {
		t.Errorf("/help says nothing of /hint:\n%s", r.Text)
	}
	// In a duel.
	read(d.Text(ctx, alice, "/duel @carol"))
	read(d.Text(ctx, req("carol"), "/accept"))
	if r := read(d.Text(ctx, alice, "/hint")); r.Text != render.T(render.English, render.MsgHintDuel) {
		t.Fatalf("/hint in a duel: %+v", r)
	}
}

// TestHintMovesTheWindow asks for a hint on gomoku, whose keyboard is a
// window: the window shows the hinted cell.
func TestHintMovesTheWindow(t *testing.T) {
	d := newHintDispatcher(t, 3)
	alice := req("alice")
	g := *read(d.Text(ctx, alice, "/play easy gomoku")).Game
	// Move the window to a corner first.
	corner := engine.Point{}
	read(d.Tap(ctx, alice, EncodeAction(render.Action{Kind: render.Scroll, Game: g.ID(), Window: corner})))
	r := read(d.Text(ctx, alice, "/hint"))
	if r.Game == nil {
		t.Fatalf("/hint: %+v", r)
	}
	h, _ := r.Game.Hint()
	_, kb := render.Message(*r.Game, render.English, render.TelegramLayout, r.WindowIn(render.TelegramLayout))
	if !kb.Partial || !kb.Window.Contains(h) {
		t.Fatalf("window %+v does not show the hint %v", kb.Window, h)
	}
	if off := read(d.Text(ctx, alice, "/hint")); off.Game == nil || off.Game.Hints() != 1 {
		t.Fatalf("/hint again: %+v", off)
	}
}

// TestHintsOff refuses hints when the bot allows none, and shows no 💡.
func TestHintsOff(t *testing.T) {
	d := newHintDispatcher(t, 0)
	alice := req("alice")
	g := *read(d.Text(ctx, alice, "/play easy")).Game
	_, kb := render.Message(g, render.English, render.ConsoleLayout, nil)
	for _, row := range kb.Rows {
		for _, b := range row {
			if b.Action.Kind == render.Hint {
				t.Fatalf("💡 with hints off: %+v", b)
			}
		}
	}
	if r := read(d.Text(ctx, alice, "/hint")); r.Text != render.T(render.English, render.MsgHintsOff) {
		t.Fatalf("/hint with hints off: %+v", r)
	}
}

// TestChosenGameTakesTheHint checks the question of which game a /hint
// is for: its answer marks the hint in the game chosen, on a new message,
// once however often it is tapped; the answer for a duel is refused with
// why and changes nothing.
func TestChosenGameTakesTheHint(t *testing.T) {
	d := newHintDispatcher(t, 1)
	alice, bob := req("alice"), req("bob")
	ai := *read(d.Text(ctx, alice, "/play easy")).Game
	read(d.Text(ctx, alice, "/duel @bob first"))
	duel := *read(d.Text(ctx, bob, "/accept")).Game
	read(d.Text(ctx, alice, "/duel"))
	read(d.Text(ctx, alice, "/cancel"))
	q := read(d.Text(ctx, alice, "/hint"))
	if q.Text != "Which game do you want a hint in?" || q.Buttons == nil || len(q.Buttons.Rows) != 2 {
		t.Fatalf("/hint with two games: %+v", q)
	}
	if got := read(d.Tap(ctx, alice, answer(t, q, duel.ID()))); got.Notice != render.T(render.English, render.MsgHintDuel) || got.Game != nil {
		t.Fatalf("a hint in the duel: %+v", got)
	}
	got := read(d.Tap(ctx, alice, answer(t, q, ai.ID())))
	if got.Game == nil || got.Game.ID() != ai.ID() || got.Game.Hints() != 1 || got.Edit != "" {
		t.Fatalf("a hint in the AI game: %+v", got)
	}
	// The answer tapped again is the same hint, as a doubled 💡 is.
	if got := read(d.Tap(ctx, alice, answer(t, q, ai.ID()))); got.Game == nil || got.Game.Hints() != 1 || got.Notice != "" {
		t.Fatalf("the answer again: %+v", got)
	}
}
