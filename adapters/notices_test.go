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
// that when that game has ended while one other runs, it goes to that one
// without asking which.
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
	// The game on screen is over and only the duel runs: a1 goes to it.
	if r := read(d.Text(ctx, alice, "a1")); r.Game == nil || r.Game.ID() != duel.ID() || r.Game.MoveNo() != 3 || r.Buttons != nil {
		t.Fatalf("a1 after the game on screen ended: %+v", r)
	}
	if got := read(d.Tap(ctx, bob, EncodeAction(render.Action{Kind: render.Show, Game: ai.ID()}))); got.Notice == "" || got.Game != nil {
		t.Fatalf("bob showing alice's AI game: %+v", got)
	}
	shown := read(d.Tap(ctx, alice, EncodeAction(render.Action{Kind: render.Show, Game: duel.ID()})))
	if shown.Game == nil || shown.Game.ID() != duel.ID() || shown.Edit != "" {
		t.Fatalf("showing the duel: %+v", shown)
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

// TestOneRunningGameIsActedOn checks that a command or typed move for a
// game, when the game on screen is over (here a challenge withdrawn), goes
// to the user's one running game instead of asking "Which game?" with one
// answer.
func TestOneRunningGameIsActedOn(t *testing.T) {
	for _, text := range []string{"/resign", "b2", "/undo"} {
		t.Run(text, func(t *testing.T) {
			d, _ := newDispatcher(t, &fakeClock{})
			alice := req("alice")
			read(d.Text(ctx, alice, "/play easy"))
			ai := *read(d.Text(ctx, alice, "c3")).Game
			read(d.Text(ctx, alice, "/duel"))
			if r := read(d.Text(ctx, alice, "/cancel")); r.Game == nil || r.Game.Status() != session.Cancelled {
				t.Fatalf("/cancel: %+v", r)
			}
			r := read(d.Text(ctx, alice, text))
			if r.Game == nil || r.Game.ID() != ai.ID() || r.Buttons != nil || r.Text != "" {
				t.Fatalf("%s: %+v, want it done in the AI game %s", text, r, ai.ID())
			}
			want := map[string]bool{
				"/resign": r.Game.Status() == session.Resigned,
				"b2":      r.Game.MoveNo() == 4 && r.Game.Board().At(engine.Point{X: 1, Y: 1}) == engine.Black,
				"/undo":   r.Game.MoveNo() == 0,
			}
			if !want[text] {
				t.Errorf("%s did not happen: %s at move %d", text, r.Game.Status(), r.Game.MoveNo())
			}
		})
	}
}

// answer returns the callback data of the answer for game id to the
// question of reply r.
func answer(t *testing.T, r reply, id session.GameID) string {
	t.Helper()
	if r.Buttons == nil {
		t.Fatalf("no answers to %q", r.Text)
	}
	for _, row := range r.Buttons.Rows {
		for _, b := range row {
			if b.Action.Game == id {
				return EncodeAction(b.Action)
			}
		}
	}
	t.Fatalf("no answer for game %s to %q", id, r.Text)
	return ""
}

// TestChosenGameTakesTheAction checks that when the user plays several
// games and none is on screen, the question of which one a /resign or a
// typed cell is for carries it: the answer does it in the game chosen and
// shows that game as a new message. A stranger's answer changes nothing.
func TestChosenGameTakesTheAction(t *testing.T) {
	for _, l := range render.Langs {
		t.Run(string(l), func(t *testing.T) {
			d, _ := newDispatcher(t, &fakeClock{})
			alice, bob, carol := req("alice"), req("bob"), req("carol")
			alice.Locale = string(l)
			ai := *read(d.Text(ctx, alice, "/play easy")).Game
			var duels []session.View
			for _, opp := range []Request{bob, carol} {
				read(d.Text(ctx, alice, "/duel @"+opp.User.Handle+" first"))
				duels = append(duels, *read(d.Text(ctx, opp, "/accept")).Game)
			}
			// A withdrawn challenge is on alice's screen; three games run.
			read(d.Text(ctx, alice, "/duel"))
			read(d.Text(ctx, alice, "/cancel"))

			q := read(d.Text(ctx, alice, "/resign"))
			if want := map[render.Lang]string{render.English: "Which game do you resign?", render.Chinese: "你要认输哪一局？"}[l]; q.Text != want || q.Game != nil || q.Buttons == nil || len(q.Buttons.Rows) != 3 {
				t.Fatalf("/resign with three games: %+v", q)
			}
			if got := read(d.Tap(ctx, bob, answer(t, q, ai.ID()))); got.Notice != render.T(render.English, render.MsgNotAPlayer) || got.Game != nil {
				t.Fatalf("bob answering alice's question: %+v", got)
			}
			// Resigned before both moved, the duel is aborted.
			got := read(d.Tap(ctx, alice, answer(t, q, duels[0].ID())))
			if got.Game == nil || got.Game.ID() != duels[0].ID() || got.Game.Status() != session.Aborted || got.Edit != "" || got.Notice != "" {
				t.Fatalf("answering the duel with bob: %+v, want it resigned on a new message", got)
			}

			// The resigned duel is on screen now; two games run.
			q = read(d.Text(ctx, alice, "b2"))
			if want := map[render.Lang]string{render.English: `Which game is "b2" for?`, render.Chinese: `"b2" 下在哪一局？`}[l]; q.Text != want || q.Buttons == nil || len(q.Buttons.Rows) != 2 {
				t.Fatalf("b2 with two games: %+v", q)
			}
			got = read(d.Tap(ctx, alice, answer(t, q, duels[1].ID())))
			if got.Game == nil || got.Game.ID() != duels[1].ID() || got.Game.MoveNo() != 1 || got.Game.Board().At(engine.Point{X: 1, Y: 1}) != engine.Black || got.Edit != "" {
				t.Fatalf("answering the duel with carol: %+v, want b2 played on a new message", got)
			}
			// The AI game was left alone, and is what /games still lists.
			if r := read(d.Text(ctx, alice, "/resign")); r.Game == nil || r.Game.ID() != duels[1].ID() {
				t.Fatalf("/resign after the answer went to %+v, want the duel on screen", r.Game)
			}
			if r := read(d.Text(ctx, alice, "a1")); r.Game == nil || r.Game.ID() != ai.ID() || r.Game.MoveNo() != 2 {
				t.Fatalf("a1 with the AI game left: %+v", r)
			}
		})
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
