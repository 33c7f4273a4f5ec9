package session

import "context"

// Store keeps games. Every change goes through Update, whose function runs
// in one transaction: all its writes commit together or none do. A Store
// is safe for concurrent use.
type Store interface {
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a read-write transaction and commits it when fn
	// returns nil. fn may run more than once (for group commit), so it
	// must compute its writes from what it reads, not from side effects of
	// an earlier run.
	Update(ctx context.Context, fn func(Tx) error) error
	// Close releases the store; calls after Close fail.
	Close() error
}

// Tx is a transaction on a Store. It must not be used after the function
// it was given to returns.
type Tx interface {
	// Game returns the game with the id, or ErrNotFound.
	Game(id GameID) (Game, error)
	// PutGame stores g. When g.Version is above 1 the stored game must
	// have version g.Version-1, else PutGame returns ErrConflict. It keeps
	// the indexes of running games and of board messages in step with g.
	PutGame(g Game) error
	// NewGameID returns an id no game has had.
	NewGameID() (GameID, error)
	// RunningGame returns the id of the user's running game against the AI
	// in the chat, or ErrNotFound.
	RunningGame(p Platform, chat, userID string) (GameID, error)
}
