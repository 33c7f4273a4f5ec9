package render

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// layouts are the layouts every keyboard test runs on.
var layouts = map[string]Layout{"telegram": TelegramLayout, "discord": DiscordLayout, "console": ConsoleLayout}

// checkLimits fails when kb does not fit layout.
func checkLimits(t *testing.T, what string, kb Keyboard, layout Layout) {
	t.Helper()
	if layout.Rows > 0 && len(kb.Rows) > layout.Rows {
		t.Errorf("%s: %d rows, limit %d", what, len(kb.Rows), layout.Rows)
	}
	if layout.Buttons > 0 && kb.Buttons() > layout.Buttons {
		t.Errorf("%s: %d buttons, limit %d", what, kb.Buttons(), layout.Buttons)
	}
	for i, row := range kb.Rows {
		if len(row) == 0 || (layout.Columns > 0 && len(row) > layout.Columns) {
			t.Errorf("%s: row %d has %d buttons, limit %d", what, i, len(row), layout.Columns)
		}
		for _, b := range row {
			if b.Label == "" {
				t.Errorf("%s: a button without a label", what)
			}
		}
	}
}

// checkCallbackFields fails when an action's fields leave the ranges the
// callback codec carries in 64 bytes: moves below 361, cells and windows
// on a 19×19 board. (The codec itself is tested in package adapters.)
func checkCallbackFields(t *testing.T, what string, a Action) {
	t.Helper()
	ok := a.MoveNo >= 0 && a.MoveNo < engine.MaxSize*engine.MaxSize &&
		a.Cell.X >= 0 && a.Cell.X < engine.MaxSize && a.Cell.Y >= 0 && a.Cell.Y < engine.MaxSize &&
		a.Window.X >= 0 && a.Window.X < engine.MaxSize && a.Window.Y >= 0 && a.Window.Y < engine.MaxSize &&
		len(a.Game) <= 16
	if !ok {
		t.Errorf("%s: action out of the codec's range: %+v", what, a)
	}
}

// explore taps every arrow from the first keyboard of v, following Scroll
// actions as an adapter would, and returns the cells reachable by a Place
// tap. It checks every keyboard on the way.
func explore(t *testing.T, what string, v session.View, layout Layout) map[engine.Point]bool {
	t.Helper()
	r := v.Rules()
	b := v.Board()
	placeable := map[engine.Point]bool{}
	seen := map[engine.Point]bool{}
	queue := []*engine.Point{nil}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		kb := BoardKeyboard(v, English, layout, w)
		if seen[kb.Window.Origin] {
			continue
		}
		seen[kb.Window.Origin] = true
		name := fmt.Sprintf("%s window %v", what, kb.Window)
		checkLimits(t, name, kb, layout)
		if kb.Partial != (kb.Window.Width < r.Width || kb.Window.Height < r.Height) {
			t.Errorf("%s: Partial %v", name, kb.Partial)
		}
		for i, row := range kb.Rows {
			for j, btn := range row {
				checkCallbackFields(t, name, btn.Action)
				if btn.Action.Kind != Noop && btn.Action.Game != v.ID() {
					t.Errorf("%s: button for game %q", name, btn.Action.Game)
				}
				switch btn.Action.Kind {
				case Place:
					want := engine.Point{X: kb.Window.Origin.X + j, Y: kb.Window.Origin.Y + i}
					if i >= kb.Window.Height || btn.Action.Cell != want {
						t.Errorf("%s: row %d col %d places at %v, want %v", name, i, j, btn.Action.Cell, want)
					}
					if b.At(btn.Action.Cell) != engine.Empty || btn.Action.MoveNo != v.MoveNo() {
						t.Errorf("%s: live button on %v (move %d)", name, btn.Action.Cell, btn.Action.MoveNo)
					}
					placeable[btn.Action.Cell] = true
				case Scroll:
					to := btn.Action.Window
					queue = append(queue, &to)
				}
			}
		}
	}
	return placeable
}

func TestEveryEmptyCellIsReachableByTaps(t *testing.T) {
	svc, st := fixtureStore(t)
	for _, name := range append(engine.PresetNames(), "19x5", "4x19", "9x9", "8x13") {
		r, ok := engine.Preset(name)
		if !ok {
			var w, h int
			fmt.Sscanf(name, "%dx%d", &w, &h)
			r = engine.Rules{Width: w, Height: h, K: min(w, h, 5)}
		}
		for _, state := range []string{"new", inProgress} {
			var v session.View
			if state == "new" {
				v = storedView(t, svc, st, r, nil, session.Running, engine.Empty)
			} else {
				v = fixture(t, svc, st, r, state)
			}
			b := v.Board()
			for lname, layout := range layouts {
				what := fmt.Sprintf("%s %s on %s", name, state, lname)
				got := explore(t, what, v, layout)
				for y := range r.Height {
					for x := range r.Width {
						p := engine.Point{X: x, Y: y}
						if b.At(p) == engine.Empty && !got[p] {
							t.Errorf("%s: empty cell %s unreachable", what, FormatCoord(p, r))
						}
					}
				}
			}
		}
	}
}

func TestFinishedGamesHaveNoLiveCells(t *testing.T) {
	svc, st := fixtureStore(t)
	for _, name := range engine.PresetNames() {
		r, _ := engine.Preset(name)
		for _, state := range []string{won, drawn} {
			v := fixture(t, svc, st, r, state)
			for lname, layout := range layouts {
				what := fmt.Sprintf("%s %s on %s", name, state, lname)
				if got := explore(t, what, v, layout); len(got) != 0 {
					t.Errorf("%s: %d live cells", what, len(got))
				}
				kb := BoardKeyboard(v, Chinese, layout, nil)
				last := kb.Rows[len(kb.Rows)-1]
				if c := last[len(last)-1]; c.Action.Kind != Rematch || c.Label != T(Chinese, MsgRematchButton) {
					t.Errorf("%s: last control %+v, want rematch", what, c)
				}
			}
		}
	}
}

func TestWholeBoardsAndWindows(t *testing.T) {
	svc, st := fixtureStore(t)
	tests := []struct {
		preset  string
		layout  Layout
		partial bool
		w, h    int
	}{
		{"ttt", DiscordLayout, false, 3, 3},
		{"4x4", DiscordLayout, false, 4, 4},
		{"5x5", DiscordLayout, true, 5, 4},
		{"7x7", DiscordLayout, true, 5, 4},
		{"gomoku19", DiscordLayout, true, 5, 4},
		{"7x7", TelegramLayout, false, 7, 7},
		{"gomoku", TelegramLayout, true, 8, 11},
		{"gomoku19", TelegramLayout, true, 8, 11},
	}
	for _, tt := range tests {
		r, _ := engine.Preset(tt.preset)
		v := fixture(t, svc, st, r, inProgress)
		kb := BoardKeyboard(v, English, tt.layout, nil)
		if kb.Partial != tt.partial || kb.Window.Width != tt.w || kb.Window.Height != tt.h {
			t.Errorf("%s on %+v: window %+v partial %v, want %dx%d partial %v", tt.preset, tt.layout, kb.Window, kb.Partial, tt.w, tt.h, tt.partial)
		}
		last, _ := v.LastMove()
		if !kb.Window.Contains(last) {
			t.Errorf("%s on %+v: window %+v misses the last move %v", tt.preset, tt.layout, kb.Window, last)
		}
		// The last move is marked on its button.
		btn := kb.Rows[last.Y-kb.Window.Origin.Y][last.X-kb.Window.Origin.X]
		if g := glyphsFor(r); btn.Label != g.marked[engine.White-1] {
			t.Errorf("%s: last move labelled %q", tt.preset, btn.Label)
		}
		// A window shows coordinates on its empty cells.
		if tt.partial {
			o := kb.Window.Origin
			for y := range kb.Window.Height {
				for x := range kb.Window.Width {
					p := engine.Point{X: o.X + x, Y: o.Y + y}
					if b := kb.Rows[y][x]; b.Live() && b.Label != FormatCoord(p, r) {
						t.Errorf("%s: cell %v labelled %q", tt.preset, p, b.Label)
					}
				}
			}
		}
	}
}

func TestWindowStartsAtCentreAndClampsToTheBoard(t *testing.T) {
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("gomoku19")
	v := storedView(t, svc, st, r, nil, session.Running, engine.Empty)
	kb := BoardKeyboard(v, English, DiscordLayout, nil)
	if !kb.Window.Contains(engine.Point{X: 9, Y: 9}) {
		t.Errorf("empty board window %+v misses the centre", kb.Window)
	}
	far := engine.Point{X: 99, Y: 99}
	kb = BoardKeyboard(v, English, DiscordLayout, &far)
	if kb.Window.Origin != (engine.Point{X: 14, Y: 15}) {
		t.Errorf("window at %v, want clamped to 14,15", kb.Window.Origin)
	}
	// At the bottom-right corner the right and down arrows are dead.
	controls := kb.Rows[len(kb.Rows)-1]
	labels := []string{}
	for _, b := range controls {
		labels = append(labels, b.Label)
	}
	if got := strings.Join(labels, " "); got != "⬅️ ⬆️ · · 🏳 Resign" {
		t.Errorf("controls %q", got)
	}
}

func TestChallengeKeyboard(t *testing.T) {
	svc, _ := fixtureStore(t)
	alice := session.Actor{Platform: "t", Chat: "c", User: session.User{ID: "1", Name: "alice"}}
	v, err := svc.Begin(context.Background(), session.Request{Actor: alice}).Challenge(session.ChallengeRequest{Rules: engine.TicTacToe(), Opponent: session.User{Handle: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	kb := ChallengeKeyboard(v, Chinese, DiscordLayout)
	if len(kb.Rows) != 1 || kb.Buttons() != 3 {
		t.Fatalf("rows %+v", kb.Rows)
	}
	if a, d := kb.Rows[0][0], kb.Rows[0][1]; a.Action != (Action{Kind: Accept, Game: v.ID()}) || d.Action != (Action{Kind: Decline, Game: v.ID()}) || a.Label != "✅ 接受" {
		t.Errorf("buttons %+v", kb.Rows[0])
	}
	if kb := ChallengeKeyboard(v, English, Layout{Columns: 1}); len(kb.Rows) != 3 {
		t.Errorf("one column: %d rows, want one button a row", len(kb.Rows))
	}
}

func TestKeyboardText(t *testing.T) {
	svc, st := fixtureStore(t)
	v := fixture(t, svc, st, engine.TicTacToe(), inProgress)
	text, buttons := KeyboardText(BoardKeyboard(v, English, ConsoleLayout, nil))
	if len(buttons) != 11 || buttons[4].Label != "❌" || buttons[9].Action.Kind != Resign || buttons[10].Action.Kind != Undo {
		t.Fatalf("buttons %+v", buttons)
	}
	lines := strings.Split(text, "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[3], "[10] 🏳 Resign [11] ↩️ Undo") || !strings.Contains(lines[1], " ❌ ") {
		t.Errorf("text:\n%s", text)
	}
}
