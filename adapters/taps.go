package adapters

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// Tap decides what the tap of a button with callback data does on
// message req.Message: the data is decoded once, and the game it names is
// read with the rest of the request's reads, once. The message must show
// that game: be the game's own message, or come with that button
// (req.HasButton), and then become the game's own; any other tap is
// refused and changes nothing, so that forged data cannot repaint someone
// else's message.
func (d *Dispatcher) Tap(ctx context.Context, req Request, data string) Decision {
	a, err := DecodeAction(data)
	return d.decide(ctx, req, a.Game, func(b *builder) Decision {
		if err != nil {
			b.refused(ReasonBadCallback)
			return b.notice(render.T(b.lang, render.MsgBadCallback))
		}
		return b.tap(a)
	})
}

// tap decides a decoded tap.
func (b *builder) tap(a render.Action) Decision {
	switch {
	case a.Kind == render.Noop && a.Game == "":
		return b.done()
	case a.Kind == render.ReplayGame || a.Kind == render.ExportGame:
		return b.send(a)
	case a.Kind == render.StatsChart:
		return b.chartAgain()
	}
	shown, err := b.t.Game(a.Game)
	if err == nil && (shown.Platform() != b.d.platform || shown.Chat() != b.req.Chat) {
		err = fmt.Errorf("adapters: tap on game %s from another chat: %w", a.Game, session.ErrNotFound)
	}
	if err != nil {
		return b.refuse(session.View{}, err, false)
	}
	if b.req.Message == "" || (b.req.Message != shown.Message() && !b.req.HasButton) {
		// Data naming a game that the tapped message does not show: a
		// forged button must not repaint someone else's message.
		b.refused(ReasonBadCallback)
		return b.notice(render.T(b.lang, render.MsgBadCallback))
	}
	dec := b.apply(a, shown)
	tapped := Place{Platform: b.d.platform, Chat: b.req.Chat, Message: b.req.Message}
	for _, e := range dec.Effects {
		if s, ok := e.(Show); ok && s.Game.ID() == a.Game && s.At == tapped && s.Game.Message() != b.req.Message {
			// A board the game was not bound to, such as one sent just
			// before a crash: it becomes the game's own message.
			b.t.Bind(a.Game, b.req.Message)
		}
	}
	return dec
}

// apply applies action a, tapped on message req.Message, which shows
// game shown.
func (b *builder) apply(a render.Action, shown session.View) Decision {
	t := b.t
	tapped := Place{Platform: b.d.platform, Chat: b.req.Chat, Message: b.req.Message}
	var v session.View
	var err error
	switch a.Kind {
	case render.Place:
		v, err = t.Place(session.PlaceRequest{Game: a.Game, MoveNo: a.MoveNo, Cell: a.Cell})
	case render.Resign:
		v, err = t.Resign(a.Game)
	case render.Accept:
		v, err = t.Accept(a.Game)
	case render.Decline:
		v, err = t.Decline(a.Game)
	case render.Cancel:
		v, err = t.Cancel(a.Game)
	case render.Undo:
		v, err = t.Undo(session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.UndoAccept:
		v, err = t.AcceptUndo(session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.UndoDecline:
		v, err = t.DeclineUndo(session.UndoRequest{Game: a.Game, MoveNo: a.MoveNo})
	case render.Hint:
		return b.hint(session.HintRequest{Game: a.Game, MoveNo: a.MoveNo}, tapped, false)
	case render.Rematch:
		return b.rematch(a.Game, false)
	case render.Scroll:
		// Moving the window changes no game; anyone in the game's chat
		// may move it.
		return b.showAt(shown, tapped, &a.Window, false)
	case render.Noop:
		return b.noop(a, shown, tapped)
	case render.Show:
		return b.showGame(shown)
	default:
		return b.done()
	}
	// A cell keeps the window it was tapped in (while that holds the last
	// move); other buttons show the window around the last move.
	var window *engine.Point
	if a.Kind == render.Place {
		window = &a.Window
	}
	if err != nil {
		if v.ID() == "" && (errors.Is(err, session.ErrStale) || errors.Is(err, session.ErrGameOver)) {
			// A board left behind (say by a crash between the commit of
			// a move and the edit of its message) catches up.
			v = b.current(a.Game)
		}
		if v.ID() != "" {
			b.showAt(v, tapped, window, window != nil)
		}
		if errors.Is(err, session.ErrDuplicate) {
			return b.done()
		}
		return b.refuse(session.View{}, err, false)
	}
	return b.showAt(v, tapped, window, window != nil)
}

// current returns the game of a stale tap as it is now, to refresh the
// tapped message with; the zero View when it cannot be read.
func (b *builder) current(id session.GameID) session.View {
	v, err := b.t.Game(id)
	if err != nil {
		return session.View{}
	}
	return v
}

// hint asks for a hint and shows the game with it at message at, its
// window moved to the hint. A refusal for the hints used up says how many
// the game had.
func (b *builder) hint(req session.HintRequest, at Place, typed bool) Decision {
	v, err := b.t.Hint(req)
	if errors.Is(err, session.ErrHintLimit) && v.Hints() > 0 {
		msg := render.T(b.lang, render.MsgHintLimit, v.Hints())
		if typed {
			return b.say(msg, nil)
		}
		return b.notice(msg)
	}
	if err != nil {
		if !typed && v.ID() == "" && errors.Is(err, session.ErrStale) {
			if cur := b.current(req.Game); cur.ID() != "" {
				b.showAt(cur, at, nil, false)
			}
		}
		return b.refuse(v, err, typed)
	}
	return b.showAt(v, at, nil, false)
}

// showGame answers an answer of render.MsgWhichGame: the game, as a new
// message (then the one on the actor's screen), while it runs and the
// tapper plays it.
func (b *builder) showGame(v session.View) Decision {
	switch {
	case v.SideOf(b.req.User.ID) == 0:
		return b.notice(render.T(b.lang, render.MsgNotAPlayer))
	case v.Status() != session.Running:
		return b.notice(render.T(b.lang, render.MsgGameOver))
	}
	return b.showNew(v, "")
}

// noop answers the tap of a cell that takes no stone: the game is over,
// or the cell is taken. A cell found empty in a running game is on a board
// left behind, which is shown again. A control that does nothing answers
// nothing.
func (b *builder) noop(a render.Action, v session.View, tapped Place) Decision {
	switch {
	case v.Status().Over():
		return b.notice(render.T(b.lang, render.MsgGameOver))
	case v.Status() != session.Running:
		return b.done()
	case a.Cell.X >= v.Rules().Width || a.Cell.Y >= v.Rules().Height:
		return b.notice(render.T(b.lang, render.MsgOffBoard))
	case v.Board().At(a.Cell) != engine.Empty:
		return b.notice(render.T(b.lang, render.MsgCellTaken))
	}
	return b.showAt(v, tapped, nil, false)
}
