package adapters

import (
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// cellData returns the callback data of the button of cell p on the board
// message of v.
func cellData(t *testing.T, v session.View, p engine.Point) string {
	t.Helper()
	_, kb := render.Message(v, render.English, render.ConsoleLayout, nil)
	for _, row := range kb.Rows {
		for _, b := range row {
			if b.Action.Cell == p && (b.Action.Kind == render.Place || b.Action.Kind == render.Noop) && b.Action.Game != "" {
				return EncodeAction(b.Action)
			}
		}
	}
	t.Fatalf("no button of cell %v on game %s", p, v.ID())
	return ""
}

// TestTapOnTakenCellOrFinishedGameSaysWhy checks that a tap that places
// nothing is answered with why, in the player's language: the cell is
// taken, or the game is over.
func TestTapOnTakenCellOrFinishedGameSaysWhy(t *testing.T) {
	for _, l := range render.Langs {
		t.Run(string(l), func(t *testing.T) {
			d, _ := newDispatcher(t, &fakeClock{})
			ann := req("ann")
			ann.Locale = string(l)
			r := read(d.Text(ctx, ann, "/play easy"))
			centre := engine.Point{X: 1, Y: 1}
			r = read(d.Tap(ctx, ann, cellData(t, *r.Game, centre)))
			if r.Game == nil || r.Game.Board().At(centre) != engine.Black {
				t.Fatalf("first move: %+v", r)
			}
			if got := read(d.Tap(ctx, ann, cellData(t, *r.Game, centre))); got.Notice != render.T(l, render.MsgCellTaken) || got.Game != nil {
				t.Errorf("tap on a taken cell: %+v", got)
			}
			r = read(d.Text(ctx, ann, "/resign"))
			if r.Game == nil || r.Game.Status() != session.Resigned {
				t.Fatalf("/resign: %+v", r)
			}
			for _, p := range []engine.Point{{X: 0, Y: 0}, centre} {
				if got := read(d.Tap(ctx, ann, cellData(t, *r.Game, p))); got.Notice != render.T(l, render.MsgGameOver) {
					t.Errorf("tap on %v of a finished game: %+v", p, got)
				}
			}
		})
	}
}

// TestTypedMoveGoesToTheGameOnScreen checks that a typed move goes to the
// game the player last saw or touched, not to another of their games; and
// that when that game has ended while another runs, the player is asked
// which, with a button per running game.
func TestTypedMoveGoesToTheGameOnScreen(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{})
	alice, bob := req("alice"), req("bob")
	ai := *read(d.Text(ctx, alice, "/play easy")).Game
	duel := *read(d.Text(ctx, alice, "/duel @bob first")).Game
	if r := read(d.Text(ctx, bob, "/accept")); r.Game == nil || r.Game.ID() != duel.ID() {
		t.Fatalf("/accept: %+v", r)
	}
	// The accepted duel is on screen: alice's b2 is its first move.
	r := read(d.Text(ctx, alice, "b2"))
	if r.Game == nil || r.Game.ID() != duel.ID() || r.Game.MoveNo() != 1 {
		t.Fatalf("b2 after /accept went to %+v, want the duel %s", r.Game, duel.ID())
	}
	if r := read(d.Text(ctx, bob, "a3")); r.Game == nil || r.Game.ID() != duel.ID() {
		t.Fatalf("bob's a3 went to %+v, want the duel", r.Game)
	}
	// A tap in the game against the AI brings it back on screen.
	tapped := read(d.Tap(ctx, alice, cellData(t, ai, engine.Point{X: 0, Y: 0})))
	if tapped.Game == nil || tapped.Game.ID() != ai.ID() {
		t.Fatalf("tap in the AI game: %+v", tapped)
	}
	if r := read(d.Text(ctx, alice, "c3")); r.Game == nil || r.Game.ID() != ai.ID() {
		t.Fatalf("c3 after a tap in the AI game went to %+v", r.Game)
	}
	if r := read(d.Text(ctx, alice, "/resign")); r.Game == nil || r.Game.ID() != ai.ID() || r.Game.Status() != session.Resigned {
		t.Fatalf("/resign went to %+v, want the AI game", r.Game)
	}
	// The game on screen is over and the duel runs: which game?
	for _, text := range []string{"a1", "/resign"} {
		var r reply
		if text == "/resign" {
			r = read(d.Text(ctx, alice, text))
		} else {
			r = read(d.Text(ctx, alice, text))
		}
		if r.Text != "Which game?" || r.Game != nil || r.Buttons == nil || len(r.Buttons.Rows) != 1 {
			t.Fatalf("%s after the game on screen ended: %+v", text, r)
		}
		show := r.Buttons.Rows[0][0]
		if show.Action.Kind != render.Show || show.Action.Game != duel.ID() || !strings.Contains(show.Label, "alice") {
			t.Fatalf("answer %+v, want the duel", show)
		}
	}
	if got := read(d.Tap(ctx, bob, EncodeAction(render.Action{Kind: render.Show, Game: ai.ID()}))); got.Notice == "" || got.Game != nil {
		t.Fatalf("bob showing alice's AI game: %+v", got)
	}
	shown := read(d.Tap(ctx, alice, EncodeAction(render.Action{Kind: render.Show, Game: duel.ID()})))
	if shown.Game == nil || shown.Game.ID() != duel.ID() || shown.Edit != "" {
		t.Fatalf("showing the duel: %+v", shown)
	}
	if r := read(d.Text(ctx, alice, "a1")); r.Game == nil || r.Game.ID() != duel.ID() || r.Game.MoveNo() != 3 {
		t.Fatalf("a1 after choosing the duel went to %+v", r)
	}
	// With the duel over too, a typed move says the game is over.
	read(d.Text(ctx, alice, "/resign"))
	if r := read(d.Text(ctx, alice, "a2")); r.Text != "That game is over; /rematch or /play." {
		t.Fatalf("a2 after every game ended: %+v", r)
	}
	if r := read(d.Text(ctx, alice, "hello")); !r.empty() {
		t.Fatalf("chat after every game ended: %+v", r)
	}
}

// TestTappedCellKeepsItsWindow checks that a cell tapped in a window of a
// large board carries the window in its callback data, and that the reply
// keeps it while it holds the last move and moves it when the last move
// falls outside.
func TestTappedCellKeepsItsWindow(t *testing.T) {
	d, _ := newDispatcher(t, &fakeClock{})
	alice, bob := req("alice"), req("bob")
	read(d.Text(ctx, alice, "/duel @bob gomoku first"))
	duel := *read(d.Text(ctx, bob, "/accept")).Game
	origin := engine.Point{X: 0, Y: 2}
	_, kb := render.Message(duel, render.English, render.TelegramLayout, &origin)
	cell := kb.Rows[0][0].Action
	if cell.Kind != render.Place || cell.Window != origin || cell.Cell != origin {
		t.Fatalf("top-left cell of the window at %v: %+v", origin, cell)
	}
	r := read(d.Tap(ctx, alice, EncodeAction(cell)))
	if r.Game == nil || r.Window == nil || *r.Window != origin || !r.Follow {
		t.Fatalf("tap in the window: %+v", r)
	}
	for _, layout := range []render.Layout{render.TelegramLayout, render.DiscordLayout, render.ConsoleLayout} {
		if w := r.WindowIn(layout); w == nil || *w != origin {
			t.Errorf("window after a move inside it: %v, want %v", w, origin)
		}
	}
	// bob answers far away, at o1: the window moves to show it.
	far := read(d.Text(ctx, bob, "o1"))
	if far.Game == nil {
		t.Fatalf("o1: %+v", far)
	}
	r.Game = far.Game
	if w := r.WindowIn(render.TelegramLayout); w != nil {
		t.Errorf("window kept at %v though the last move is outside it", *w)
	}
	if text, _ := render.Message(*far.Game, render.English, render.TelegramLayout, &origin); !strings.Contains(text, "The buttons are columns a–h, rows 3–13.") {
		t.Errorf("window at %v not named:\n%s", origin, text)
	}
}
