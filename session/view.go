package session

import (
	"fmt"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// View is an immutable snapshot of a game as committed. Its getters return
// copies, so holding or changing what they return never touches the game.
type View struct {
	g       Game
	outcome engine.Outcome
}

// newView snapshots g, whose moves replay to board b.
func newView(g *Game, b *engine.Board) View {
	return View{g: g.clone(), outcome: b.Outcome()}
}

// ID returns the game's id.
func (v View) ID() GameID { return v.g.ID }

// Platform returns the platform the game is played on.
func (v View) Platform() Platform { return v.g.Platform }

// Chat returns the chat the game belongs to.
func (v View) Chat() string { return v.g.Chat }

// Message returns the id of the message that shows the board, or "".
func (v View) Message() string { return v.g.Message }

// Rules returns the game's rules.
func (v View) Rules() engine.Rules { return v.g.Rules }

// Seat returns the seat playing side s (engine.Black or engine.White).
func (v View) Seat(s engine.Stone) Seat { return v.g.Seat(s) }

// SideOf returns the side the user plays, or engine.Empty.
func (v View) SideOf(userID string) engine.Stone { return v.g.SideOf(userID) }

// Moves returns the moves played, in order.
func (v View) Moves() []engine.Point { return append([]engine.Point(nil), v.g.Moves...) }

// MoveNo returns the number of the next move: a tap must carry it.
func (v View) MoveNo() int { return v.g.MoveNo() }

// LastMove returns the last move and whether there is one.
func (v View) LastMove() (engine.Point, bool) {
	if len(v.g.Moves) == 0 {
		return engine.Point{}, false
	}
	return v.g.Moves[len(v.g.Moves)-1], true
}

// ToMove returns the side whose turn it is.
func (v View) ToMove() engine.Stone { return v.g.ToMove() }

// Status returns the game's status.
func (v View) Status() Status { return v.g.Status }

// Winner returns the winning side, or engine.Empty while running and for a
// draw.
func (v View) Winner() engine.Stone { return v.g.Winner }

// WinningLine returns the cells of the winning line when the game was won
// on the board, or nil.
func (v View) WinningLine() []engine.Point {
	return append([]engine.Point(nil), v.outcome.Line...)
}

// Fouls returns the points forbidden to Black, with their fouls, while a
// renju game runs and Black is to move; nil otherwise.
func (v View) Fouls() map[engine.Point]engine.Foul {
	if !v.g.Rules.Renju || v.g.Status != Running || v.g.ToMove() != engine.Black {
		return nil
	}
	return v.Board().Fouls()
}

// Board returns a fresh engine board holding the game's position.
func (v View) Board() *engine.Board {
	b, err := v.g.board()
	if err != nil {
		// A view is only made from a game whose moves replayed.
		panic("session: view of an unplayable game: " + err.Error())
	}
	return b
}

// Version returns the number of committed changes to the game.
func (v View) Version() int { return v.g.Version }

// Created returns when the game started.
func (v View) Created() time.Time { return v.g.Created }

// Updated returns when the game last changed.
func (v View) Updated() time.Time { return v.g.Updated }

// IsDuel reports whether two people play the game.
func (v View) IsDuel() bool { return v.g.IsDuel() }

// Challenger returns the side of the person who proposed the duel, or
// engine.Empty for a game against the AI.
func (v View) Challenger() engine.Stone { return v.g.Challenger }

// Deadline returns when the live game expires if nothing happens, or the
// zero time once it is over.
func (v View) Deadline() time.Time { return v.g.Deadline }

// Rematch returns the id of the game started as this one's rematch, or "".
func (v View) Rematch() GameID { return v.g.Rematch }

// Takebacks returns how many takebacks the game had.
func (v View) Takebacks() int { return v.g.Takebacks }

// UndoAsk returns the side whose takeback request awaits its opponent's
// answer in a duel, or engine.Empty.
func (v View) UndoAsk() engine.Stone { return v.g.UndoAsk }

// Hint returns the move suggested by a hint for the position on the
// board, and whether there is one.
func (v View) Hint() (engine.Point, bool) {
	if v.g.Hint == nil {
		return engine.Point{}, false
	}
	return *v.g.Hint, true
}

// Hints returns how many hints the game had.
func (v View) Hints() int { return v.g.Hints }

// HintsLeft returns how many more hints the game allows.
func (v View) HintsLeft() int { return max(0, v.g.HintLimit-v.g.Hints) }

// ViewOf returns the view of game g as the session would show it once
// stored, for a front that shows a game it made up (a preview, a
// picture of a position); an error when its moves do not replay under
// its rules.
func ViewOf(g Game) (View, error) {
	b, err := g.board()
	if err != nil {
		return View{}, fmt.Errorf("session: view of game %q: %w", g.ID, err)
	}
	return newView(&g, b), nil
}
