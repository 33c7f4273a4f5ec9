package adapters

import (
	"context"
	"fmt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// rematch answers a Rematch tap on a finished game against the AI: a new
// game with the same rules and level, the tapper on the other side. The
// reply shows the new game as a new message. A game between two people
// gives an empty reply: rematching those is a new challenge.
func (d *Dispatcher) rematch(ctx context.Context, req Request, lang render.Lang, id session.GameID) Reply {
	old, err := d.svc.Game(ctx, id)
	if err == nil && (old.Platform() != d.platform || old.Chat() != req.Chat) {
		err = fmt.Errorf("adapters: rematch of game %s from another chat: %w", id, session.ErrNotFound)
	}
	if err != nil {
		return d.refuse(lang, err, false)
	}
	me := old.SideOf(req.User.ID)
	if me == engine.Empty {
		return d.refuse(lang, fmt.Errorf("adapters: rematch of game %s: %w", id, session.ErrNotAPlayer), false)
	}
	ai := old.Seat(me.Opponent())
	if !ai.IsAI() {
		return Reply{Lang: lang}
	}
	side := session.First
	if me == engine.Black {
		side = session.Second
	}
	v, err := d.svc.Start(ctx, d.actor(req), session.StartRequest{Rules: old.Rules(), Level: ai.AI, Side: side})
	if err != nil {
		return d.refuse(lang, err, false)
	}
	return Reply{Lang: lang, Game: &v}
}
