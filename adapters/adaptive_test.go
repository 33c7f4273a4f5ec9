package adapters

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
)

// TestPlayAdaptive starts a game at the adaptive level by its word and
// its alias: the board names the AI by the Elo of the rung it plays at,
// and a second level word is a conflict like any other.
func TestPlayAdaptive(t *testing.T) {
	for _, word := range []string{"adaptive", engine.AdaptiveAlias} {
		cmd, err := ParseCommand("/play gomoku "+word, "")
		if err != nil || cmd.Play.Level != engine.Adaptive {
			t.Fatalf("/play gomoku %s: %+v, %v", word, cmd.Play, err)
		}
	}
	var ce *CommandError
	if _, err := ParseCommand("/play easy adaptive", ""); !errors.As(err, &ce) || ce.Key != render.MsgPlayTwoLevels {
		t.Errorf("/play easy adaptive: %v, want two levels named", err)
	}
	d, _ := newDispatcher(t, &fakeClock{t: time.Unix(1e9, 0)})
	r := read(d.Text(ctx, req("alice"), "/play adaptive gomoku"))
	if r.Game == nil {
		t.Fatalf("/play adaptive: %+v", r)
	}
	seat := r.Game.Seat(engine.White)
	want := render.T(render.English, render.MsgAI, render.T(render.English, render.MsgAdaptiveAt, int(seat.Rung.Elo()+0.5)))
	if seat.AI != engine.Adaptive || !strings.Contains(render.Status(*r.Game, render.English)+render.Compose(*r.Game, render.English, render.TelegramLayout, nil).Text, want) {
		t.Errorf("the adaptive AI is not shown as %q:\n%s", want, render.Compose(*r.Game, render.English, render.TelegramLayout, nil).Text)
	}
}
