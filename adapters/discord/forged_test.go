package discord

import (
	"context"
	"strings"
	"testing"

	"github.com/boardbot/boardbot/adapters/discord/discordtest"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// A forged button on ann's board naming carol's game, whatever it does
// (scroll, move, stale move, resign, rematch, a move in a finished game),
// is refused privately: ann's message is never edited and neither game
// changes.
func TestForgedButtonsCannotRepaintAnotherBoard(t *testing.T) {
	h := newHarness(t, nil)
	annBoard := h.play(ann, "c", discordtest.StringOption(optLevel, "easy"))
	carolBoard := h.play(carol, "c", discordtest.StringOption(optLevel, "easy"))
	gameOf := func(m discordtest.Message) session.View {
		t.Helper()
		v, err := h.svc.Game(context.Background(), session.GameID(strings.Split(placeButtons(m)[0], ":")[1]))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	annGame, carolGame := gameOf(annBoard), gameOf(carolBoard)
	stale := placeButtons(carolBoard)[1]
	h.tap(carol, carolBoard.ID, placeButtons(carolBoard)[0])
	now := h.message(carolBoard.ID)
	bad := render.T(render.English, render.MsgBadCallback)

	forge := func(what, data string) {
		outer := h.t
		t.Run(what, func(t *testing.T) {
			h.t = t
			defer func() { h.t = outer }()
			before := h.message(annBoard.ID)
			c, _ := h.svc.Game(context.Background(), carolGame.ID())
			id, err := h.fake.TapForged(carol, annBoard.ID, data)
			if err != nil {
				t.Fatal(err)
			}
			h.await(id)
			after := h.message(annBoard.ID)
			if after.Edits != before.Edits || after.Content != before.Content {
				t.Fatalf("forged %s %q edited ann's board: %d → %d edits:\n%s\n→\n%s", what, data, before.Edits, after.Edits, before.Content, after.Content)
			}
			a, err1 := h.svc.Game(context.Background(), annGame.ID())
			c2, err2 := h.svc.Game(context.Background(), carolGame.ID())
			if err1 != nil || err2 != nil || a.Version() != annGame.Version() || c2.Version() != c.Version() {
				t.Fatalf("forged %s %q changed a game: ann's version %d → %d, carol's %d → %d (%v, %v)",
					what, data, annGame.Version(), a.Version(), c.Version(), c2.Version(), err1, err2)
			}
			if got := h.ephemeral(h.fake.Response(id), carol); got != bad {
				t.Fatalf("forged %s %q answered %q, want %q", what, data, got, bad)
			}
		})
	}
	forge("scroll", "s:"+string(carolGame.ID())+":0:0")
	forge("move", placeButtons(now)[0])
	forge("stale move", stale)
	forge("resign", "r:"+string(carolGame.ID()))
	forge("rematch", "R:"+string(carolGame.ID()))

	// carol resigns on her own board; a move of her finished game
	// forged on ann's board is refused the same way.
	h.tap(carol, carolBoard.ID, "r:"+string(carolGame.ID()))
	if v, _ := h.svc.Game(context.Background(), carolGame.ID()); v.Status() != session.Resigned {
		t.Fatalf("carol's game after resigning: %v", v.Status())
	}
	forge("move in a finished game", placeButtons(now)[1])
	forge("rematch of a finished game", "R:"+string(carolGame.ID()))
}
