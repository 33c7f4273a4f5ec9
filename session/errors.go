package session

import "errors"

// Refusals and store errors returned by Service and Store methods; callers
// match them with errors.Is and map them to messages.
var (
	// ErrNotFound is returned when no game has the given id, or the chat
	// has no game for the user or message asked about.
	ErrNotFound = errors.New("no such game")
	// ErrGameOver is returned by Place and Resign when the game has
	// already ended.
	ErrGameOver = errors.New("game is over")
	// ErrNotAPlayer is returned when the caller is not one of the game's
	// players.
	ErrNotAPlayer = errors.New("not a player in this game")
	// ErrNotYourTurn is returned by Place when the caller plays but it is
	// the other side's turn.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrStale is returned by Place when the move number in the request is
	// not the game's current one: a doubled or outdated tap.
	ErrStale = errors.New("stale move")
	// ErrOffBoard is returned by Place for a cell outside the board.
	ErrOffBoard = errors.New("cell is off the board")
	// ErrCellTaken is returned by Place for a cell that holds a stone.
	ErrCellTaken = errors.New("cell is taken")
	// ErrAlreadyPlaying is returned by Start, together with a view of that
	// game, when the user already has a running game against the AI in
	// the chat.
	ErrAlreadyPlaying = errors.New("already in a game")
	// ErrBadRequest is returned when a request's fields are invalid, such
	// as an unknown level or out-of-range rules.
	ErrBadRequest = errors.New("bad request")
	// ErrConflict is returned by a store when a game changed since it was
	// read: another writer committed first.
	ErrConflict = errors.New("game changed concurrently")
	// ErrSchema is returned when a stored record has a schema this
	// release does not know, or cannot be decoded.
	ErrSchema = errors.New("unreadable record")
	// ErrLocked is returned by OpenBolt when another process holds the
	// database file.
	ErrLocked = errors.New("database is in use by another process")
)
