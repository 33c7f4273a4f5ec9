package render

import (
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/session"
)

// TestHintIsMarkedEverywhere shows a gomoku game with a hint in a corner
// far from the last move: 🎯 on the emoji board and on its button, the
// keyboard's window around it, a line naming it, and a mark on the picture.
func TestHintIsMarkedEverywhere(t *testing.T) {
	svc, st := fixtureStore(t)
	r, _ := engine.Preset("gomoku")
	hint := engine.Point{X: 0, Y: 14}
	moves := []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 7}}
	plain := storedView(t, svc, st, r, moves, session.Running, engine.Empty)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := session.Game{
		ID: "hinted", Platform: "test", Chat: "c", Rules: r,
		Seats: [2]session.Seat{{User: alice}, {AI: engine.Hard}}, Moves: moves,
		Status: session.Running, Version: 1, Seed: 7, Created: at, Updated: at,
		HintLimit: 3, Hints: 1, Hint: &hint,
	}
	v, err := session.ViewOf(g)
	if err != nil {
		t.Fatal(err)
	}
	grid := strings.Split(Grid(v), "\n")
	if !strings.Contains(grid[15], hintGlyph) || strings.Count(Grid(v), hintGlyph) != 1 || strings.Contains(Grid(plain), hintGlyph) {
		t.Errorf("emoji board:\n%s", Grid(v))
	}
	if text := Text(v, English); !strings.Contains(text, "Hint: 🎯 a1 (hints left: 2).") {
		t.Errorf("text:\n%s", text)
	}
	kb := BoardKeyboard(v, English, TelegramLayout, nil)
	if !kb.Window.Contains(hint) {
		t.Fatalf("window %+v does not hold the hint", kb.Window)
	}
	if b := kb.Rows[hint.Y-kb.Window.Origin.Y][hint.X-kb.Window.Origin.X]; b.Label != hintGlyph || b.Action.Kind != Place {
		t.Errorf("hint button %+v", b)
	}
	if pixelAt(decodePicture(t, v), r, hint) == pixelAt(decodePicture(t, plain), r, hint) {
		t.Error("the picture does not mark the hint")
	}
}
