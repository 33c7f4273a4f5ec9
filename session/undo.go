package session

import (
	"fmt"

	"github.com/boardbot/boardbot/engine"
)

// UndoRequest asks for a takeback in a game, or answers one. MoveNo is
// the game's move number as the caller saw it: a request about a board
// that has changed since is refused with ErrStale.
type UndoRequest struct {
	Game   GameID
	MoveNo int
}

// Undo takes back the caller's last move. Against the AI it happens at
// once: the caller's last move and the AI's reply to it are taken off.
// In a duel it asks the opponent (AcceptUndo, DeclineUndo); asking again
// returns the game as it is, and when the opponent has asked already,
// Undo accepts their request. A move by either player withdraws a
// request. Refusals, which change nothing: ErrNotFound, ErrNotStarted,
// ErrGameOver, ErrNotAPlayer, ErrStale, ErrNoUndo (no move of the
// caller's to take back), and ErrUndoLimit when the game had
// Limits.UndosPerGame takebacks. A game past its deadline is ended as
// expired and returned with ErrExpired.
func (t *Turn) Undo(req UndoRequest) (shown View, err error) {
	who, s := t.req.Actor, t.s
	defer t.verdict(&shown, &err)
	return t.undo(req, "undo", func(g *Game, me engine.Stone) error {
		switch g.UndoAsk {
		case me:
			return nil
		case me.Opponent():
			return s.takeBack(g, me.Opponent())
		}
		if _, ok := g.undoSpan(me); !ok {
			return fmt.Errorf("session: undo in game %s by %q: %w", g.ID, who.User.ID, ErrNoUndo)
		}
		if err := s.checkUndoLimit(g); err != nil {
			return err
		}
		if g.IsDuel() {
			g.UndoAsk = me
			return nil
		}
		return s.takeBack(g, me)
	})
}

// AcceptUndo grants the opponent's pending takeback request in a duel:
// the opponent's last move (and the caller's reply to it, if any) is
// taken off. Refusals: those of Undo, and ErrNoUndoRequest when the
// opponent has asked for nothing.
func (t *Turn) AcceptUndo(req UndoRequest) (shown View, err error) {
	who, s := t.req.Actor, t.s
	defer t.verdict(&shown, &err)
	return t.undo(req, "accept undo", func(g *Game, me engine.Stone) error {
		if g.UndoAsk != me.Opponent() || g.UndoAsk == engine.Empty {
			return fmt.Errorf("session: accept undo in game %s by %q: %w", g.ID, who.User.ID, ErrNoUndoRequest)
		}
		return s.takeBack(g, me.Opponent())
	})
}

// DeclineUndo turns down the opponent's pending takeback request in a
// duel; the game goes on as it was. Refusals: as AcceptUndo.
func (t *Turn) DeclineUndo(req UndoRequest) (shown View, err error) {
	who := t.req.Actor
	defer t.verdict(&shown, &err)
	return t.undo(req, "decline undo", func(g *Game, me engine.Stone) error {
		if g.UndoAsk != me.Opponent() || g.UndoAsk == engine.Empty {
			return fmt.Errorf("session: decline undo in game %s by %q: %w", g.ID, who.User.ID, ErrNoUndoRequest)
		}
		g.UndoAsk = engine.Empty
		return nil
	})
}

// undo loads the running game of req for a player, checks req's move
// number, applies change with the actor's side, and commits the result.
// A change that leaves the game as it was commits nothing.
func (t *Turn) undo(req UndoRequest, what string, change func(g *Game, me engine.Stone) error) (View, error) {
	defer t.s.locks.lock(string(req.Game))()
	var me engine.Stone
	load := func() (Game, View, error) {
		g, side, v, err := t.loadInPlay(req.Game, req.MoveNo, what)
		me = side
		return g, v, err
	}
	return t.change(load, func(g *Game) (Status, bool, error) {
		before := g.clone()
		if err := change(g, me); err != nil {
			return "", false, err
		}
		return Running, g.UndoAsk != before.UndoAsk || len(g.Moves) != len(before.Moves), nil
	})
}

// checkUndoLimit returns ErrUndoLimit when g had Limits.UndosPerGame
// takebacks already.
func (s *Service) checkUndoLimit(g *Game) error {
	if n := s.lim.UndosPerGame; n > 0 && g.Takebacks >= n {
		return fmt.Errorf("session: undo in game %s: %d of %d takebacks: %w", g.ID, g.Takebacks, n, ErrUndoLimit)
	}
	return nil
}

// takeBack takes side's last move (and the reply to it) off g, so that
// it is side's turn again, counts the takeback, withdraws any request and
// restarts the game's clock. The position left is one the game went on
// from, so it is running.
func (s *Service) takeBack(g *Game, side engine.Stone) error {
	k, ok := g.undoSpan(side)
	if !ok {
		return fmt.Errorf("session: undo in game %s: %w", g.ID, ErrNoUndo)
	}
	if err := s.checkUndoLimit(g); err != nil {
		return err
	}
	g.Moves = g.Moves[:len(g.Moves)-k]
	g.Takebacks++
	g.UndoAsk, g.Hint = engine.Empty, nil
	s.touch(g)
	return nil
}
