package adapters

import (
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
			r := d.Command(ctx, ann, "/play easy")
			centre := engine.Point{X: 1, Y: 1}
			r = d.Tap(ctx, ann, cellData(t, *r.Game, centre))
			if r.Game == nil || r.Game.Board().At(centre) != engine.Black {
				t.Fatalf("first move: %+v", r)
			}
			if got := d.Tap(ctx, ann, cellData(t, *r.Game, centre)); got.Notice != render.T(l, render.MsgCellTaken) || got.Game != nil {
				t.Errorf("tap on a taken cell: %+v", got)
			}
			r = d.Command(ctx, ann, "/resign")
			if r.Game == nil || r.Game.Status() != session.Resigned {
				t.Fatalf("/resign: %+v", r)
			}
			for _, p := range []engine.Point{{X: 0, Y: 0}, centre} {
				if got := d.Tap(ctx, ann, cellData(t, *r.Game, p)); got.Notice != render.T(l, render.MsgGameOver) {
					t.Errorf("tap on %v of a finished game: %+v", p, got)
				}
			}
		})
	}
}
