package engine

import "errors"

// Sentinel errors returned by the engine; callers match them with errors.Is.
var (
	// ErrBadRules is returned by Rules.Validate and NewBoard when the board
	// size or K is out of range.
	ErrBadRules = errors.New("rules out of range")
	// ErrOffBoard is returned by Board.Play for a point outside the board.
	ErrOffBoard = errors.New("cell is off the board")
	// ErrOccupied is returned by Board.Play for a cell that holds a stone.
	ErrOccupied = errors.New("cell is taken")
	// ErrGameOver is returned by Board.Play and by players when the game has
	// already been won or drawn.
	ErrGameOver = errors.New("game is over")
	// ErrBadLevel is returned by ParseLevel for a name that is no level.
	ErrBadLevel = errors.New("unknown level")
	// ErrForbidden is returned by Board.Play, wrapped in a *FoulError that
	// names the foul, when Black plays a forbidden point under renju.
	ErrForbidden = errors.New("forbidden for black")
	// ErrBadSetup is returned by Setup when the stone counts do not
	// alternate.
	ErrBadSetup = errors.New("stone counts do not alternate")
	// ErrNoMoves is returned by Board.Undo on an empty board.
	ErrNoMoves = errors.New("no move to undo")
)
