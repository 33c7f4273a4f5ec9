package adapters

import (
	"context"
	"strings"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// SlowTap reports whether handling the tap of data (Tap) may wait for an
// AI search that takes its think time (session.Expensive): a cell of a
// running game whose AI answers with such a search, or the rematch of a
// game where such an AI moves first. Platforms ask it before Tap, to show
// at once that the answer may take a while (Telegram's "typing…",
// Discord's deferral). It changes nothing.
func (d *Dispatcher) SlowTap(ctx context.Context, req Request, data string) bool {
	a, err := DecodeAction(data)
	if err != nil || (a.Kind != render.Place && a.Kind != render.Rematch && a.Kind != render.Hint) {
		return false
	}
	v, err := d.svc.Game(ctx, a.Game)
	if err != nil || v.Platform() != d.platform || v.Chat() != req.Chat {
		return false
	}
	if a.Kind == render.Rematch {
		return rematchThinks(v)
	}
	if a.Kind == render.Hint {
		return v.MoveNo() == a.MoveNo && hintThinks(v)
	}
	return v.MoveNo() == a.MoveNo && answerThinks(v)
}

// SlowText reports whether handling typed text (Command, or Move for text
// that is not a command) may wait for an AI search that takes its think
// time (session.Expensive): a /play or /rematch whose AI moves first, or
// a coordinate in a game whose AI answers with such a search. Like
// SlowTap it is asked first and changes nothing.
func (d *Dispatcher) SlowText(ctx context.Context, req Request, text string) bool {
	text = strings.TrimSpace(text)
	who := d.actor(req)
	if !strings.HasPrefix(text, "/") {
		if len(text) == 0 || len(text) > 4 {
			return false
		}
		t, err := d.target(ctx, who)
		if err != nil || t.game.ID() == "" {
			return false
		}
		_, err = render.ParseCoord(text, t.game.Rules())
		return err == nil && answerThinks(t.game)
	}
	cmd, err := ParseCommand(text, d.botName)
	if err != nil {
		return false
	}
	switch cmd.Name {
	case CmdPlay:
		p := cmd.Play
		if len(strings.Fields(text)) == 1 {
			p = d.chatDefaults(ctx, who, p)
		}
		return p.Side != session.First && session.Expensive(p.Level, p.Rules)
	case CmdRematch:
		last, err := d.svc.Last(ctx, who)
		return err == nil && rematchThinks(last)
	case CmdHint:
		t, err := d.target(ctx, who)
		return err == nil && hintThinks(t.game)
	}
	return false
}

// answerThinks reports whether the move of the player to move in v is
// answered by an AI search that takes its think time.
func answerThinks(v session.View) bool {
	ai := v.Seat(v.ToMove().Opponent())
	return v.Status() == session.Running && ai.IsAI() && session.Expensive(ai.AI, v.Rules())
}

// hintThinks reports whether a hint in v is a hard search that takes
// its think time.
func hintThinks(v session.View) bool {
	return v.Status() == session.Running && v.HintsLeft() > 0 && session.Expensive(engine.Hard, v.Rules())
}

// rematchThinks reports whether the rematch of v starts with an AI
// search that takes its think time: colours swap, so the AI that played
// second moves first.
func rematchThinks(v session.View) bool {
	ai := v.Seat(engine.White)
	return v.Status().Over() && v.Rematch() == "" && ai.IsAI() && session.Expensive(ai.AI, v.Rules())
}
