package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// HintRequest asks for a hint in a game. MoveNo is the game's move number
// as the caller saw it: a request about a board that has changed since is
// refused with ErrStale.
type HintRequest struct {
	Game   GameID
	MoveNo int
}

// hintStream keeps the random choices of a hint apart from those of the
// AI's move at the same move number.
const hintStream = 1 << 32

// Hint marks the move the hard AI would play for the caller, who plays
// the AI and is to move, and stores it with the game until the next move
// (View.Hint). Asking again for the same position returns the same hint
// and counts once. The search goes through the AI pool like the AI's own
// hard moves. Refusals, which change nothing: ErrNotFound, ErrNotStarted,
// ErrGameOver, ErrNotAPlayer, ErrHintDuel, ErrStale, ErrNotYourTurn,
// ErrBusy, and ErrHintLimit, returned with the game's view, when the game
// had its hints (View.HintsLeft; a game started with no hints allowed has
// none). A game past its deadline is ended as expired and returned with
// ErrExpired.
func (t *Turn) Hint(req HintRequest) (shown View, err error) {
	who, s := t.req.Actor, t.s
	defer t.verdict(&shown, &err)
	defer s.locks.lock(string(req.Game))()
	for attempt := 0; ; attempt++ {
		g, me, v, err := t.loadInPlay(req.Game, req.MoveNo, "hint")
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
			return v, err
		}
		switch {
		case g.IsDuel():
			return View{}, fmt.Errorf("session: hint in duel %s: %w", g.ID, ErrHintDuel)
		case me != g.ToMove():
			return View{}, fmt.Errorf("session: hint in game %s by %q: %w", g.ID, who.User.ID, ErrNotYourTurn)
		case g.Hint != nil:
			// A doubled tap: the hint of this position is shown already.
			return s.view(&g)
		case g.Hints >= g.HintLimit:
			v, verr := s.view(&g)
			if verr != nil {
				return View{}, verr
			}
			return v, fmt.Errorf("session: hint in game %s: %d of %d hints: %w", g.ID, g.Hints, g.HintLimit, ErrHintLimit)
		}
		b, err := g.board()
		if err != nil {
			return View{}, err
		}
		p, err := t.search(position(&g, "hint"), Expensive(engine.Hard.Rung(), g.Rules), func() (engine.Point, error) { return s.suggest(t.ctx, &g, b) })
		if err != nil {
			return View{}, fmt.Errorf("session: hint in game %s: %w", g.ID, err)
		}
		g.Hint = &p
		g.Hints++
		v, err = t.commitGame(&g, b, Running, nil)
		if err != nil {
			if t.conflicted(err, attempt) {
				continue
			}
			return t.duplicated(v, fmt.Errorf("session: commit game %s: %w", g.ID, err))
		}
		return v, nil
	}
}

// suggest returns the move the hard AI would play on b for the side to
// move.
func (s *Service) suggest(ctx context.Context, g *Game, b *engine.Board) (engine.Point, error) {
	ai, err := s.player(Seat{AI: engine.Hard}, rand.New(rand.NewPCG(g.Seed, hintStream+uint64(g.MoveNo()))))
	if err != nil {
		return engine.Point{}, fmt.Errorf("session: game %s: %w", g.ID, err)
	}
	start := time.Now()
	p, err := ai.Move(ctx, b.Clone())
	s.observer.Thought(engine.Hard, g.Rules, time.Since(start))
	if err != nil {
		return engine.Point{}, fmt.Errorf("session: game %s: hint: %w", g.ID, err)
	}
	return p, nil
}
