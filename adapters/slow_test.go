package adapters

import (
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// TestSlowIsTheAIPoolRule checks SlowTap and SlowText against the AI
// pool's rule (session.Expensive) at its boundary: hard on 4×4 answers at
// once, hard on 5×5 searches; easy and medium never do.
func TestSlowIsTheAIPoolRule(t *testing.T) {
	for _, tt := range []struct {
		preset string
		level  engine.Level
		slow   bool
	}{
		{"4x4", engine.Hard, false},
		{"5x5", engine.Hard, true},
		{"gomoku", engine.Hard, true},
		{"gomoku", engine.Medium, false},
		{"ttt", engine.Easy, false},
	} {
		rules, _ := engine.Preset(tt.preset)
		if got := session.Expensive(tt.level, rules); got != tt.slow {
			t.Errorf("Expensive(%v, %s) = %v", tt.level, tt.preset, got)
		}
		d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
		me := req("alice")
		play := "/play " + tt.level.String() + " " + tt.preset
		if d.SlowText(ctx, me, play) || d.SlowText(ctx, me, play+" first") {
			t.Errorf("%s: slow, but the player moves first", play)
		}
		if got := d.SlowText(ctx, me, play+" second"); got != tt.slow {
			t.Errorf("%s second: slow %v", play, got)
		}
		r := d.Command(ctx, me, play)
		if r.Game == nil {
			t.Fatalf("%s: %+v", play, r)
		}
		v := *r.Game
		if err := d.Bind(ctx, v.ID(), "m1"); err != nil {
			t.Fatal(err)
		}
		_, kb := render.Message(v, render.English, render.ConsoleLayout, nil)
		var cell render.Action
		for _, row := range kb.Rows {
			for _, b := range row {
				if b.Action.Kind == render.Place {
					cell = b.Action
				}
			}
		}
		if got := d.SlowTap(ctx, me, EncodeAction(cell)); got != tt.slow {
			t.Errorf("%s: tap slow %v", play, got)
		}
		stale := cell
		stale.MoveNo++
		if d.SlowTap(ctx, me, EncodeAction(stale)) || d.SlowTap(ctx, req("bob"), "junk") {
			t.Errorf("%s: a stale or bad tap is slow", play)
		}
		other := me
		other.Chat = "elsewhere"
		if d.SlowTap(ctx, other, EncodeAction(cell)) {
			t.Errorf("%s: a tap from another chat is slow", play)
		}
		coord := render.FormatCoord(cell.Cell, v.Rules())
		if got := d.SlowText(ctx, me, coord); got != tt.slow {
			t.Errorf("%s: typed %s slow %v", play, coord, got)
		}
		if d.SlowText(ctx, me, "hello") || d.SlowText(ctx, me, "/undo") {
			t.Errorf("%s: chat or /undo is slow", play)
		}
		// The rematch swaps colours: the AI, White here, moves first.
		if d.SlowText(ctx, me, "/rematch") {
			t.Errorf("%s: /rematch of a running game is slow", play)
		}
		if r := d.Command(ctx, me, "/resign"); r.Game == nil || !r.Game.Status().Over() {
			t.Fatalf("/resign: %+v", r)
		}
		if got := d.SlowText(ctx, me, "/rematch"); got != tt.slow {
			t.Errorf("%s: /rematch slow %v", play, got)
		}
		if got := d.SlowTap(ctx, me, EncodeAction(render.Action{Kind: render.Rematch, Game: v.ID()})); got != tt.slow {
			t.Errorf("%s: rematch button slow %v", play, got)
		}
	}
}
