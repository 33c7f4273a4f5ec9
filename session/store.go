package session

import (
	"context"
	"time"
)

// Store keeps games, stats and settings. Every change goes through Update,
// whose function runs in one transaction: all its writes commit together
// or none do. A Store is safe for concurrent use.
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

// DueGame is an entry of the deadline index: a live game and the deadline
// it is indexed under.
type DueGame struct {
	ID       GameID
	Deadline time.Time
}

// Tx is a transaction on a Store. It must not be used after the function
// it was given to returns.
type Tx interface {
	// Game returns the game with the id, or ErrNotFound, or an error
	// wrapping ErrSchema and naming the id when its record is unreadable.
	Game(id GameID) (Game, error)
	// PutGame stores g. When g.Version is above 1 the stored game must
	// have version g.Version-1, else PutGame returns ErrConflict. It keeps
	// the indexes (running AI games, live games of a chat, deadlines, last
	// finished game of a user) in step with g.
	PutGame(g Game) error
	// NewGameID returns an id no game has had.
	NewGameID() (GameID, error)
	// RunningGame returns the id of the user's running game against the AI
	// in the chat, or ErrNotFound.
	RunningGame(p Platform, chat, userID string) (GameID, error)
	// PutInbox keeps an update of platform p received but not handled.
	PutInbox(p Platform, it InboxItem) error
	// ClaimInbox records that process holder kept update id of platform
	// p at time at, and handles it.
	ClaimInbox(p Platform, id int64, holder uint64, at time.Time) error
	// InboxClaim returns the holder and time of the claim on update id of
	// platform p, and whether there is one.
	InboxClaim(p Platform, id int64) (holder uint64, at time.Time, ok bool, err error)
	// DeleteInbox removes update id of platform p, and its claim; a
	// missing one is no error.
	DeleteInbox(p Platform, id int64) error
	// Inbox returns the kept updates of platform p, lowest id first.
	Inbox(p Platform) ([]InboxItem, error)
	// UpdateMark returns the mark of update id of platform p, and whether
	// there is one.
	UpdateMark(p Platform, id string) (UpdateMark, bool, error)
	// PutUpdateMark records that update id of platform p was handled,
	// replacing its mark if it has one.
	PutUpdateMark(p Platform, id string, m UpdateMark) error
	// ForgetUpdateMarks deletes up to limit update marks written before t,
	// oldest first, and returns how many it deleted.
	ForgetUpdateMarks(before time.Time, limit int) (int, error)
	// History returns the ids of up to limit games the user finished,
	// latest first: in the chat, or in every chat of the platform when
	// chat is empty.
	History(p Platform, chat, userID string, limit int) ([]GameID, error)
	// ForgetGames deletes up to limit games that finished before t,
	// oldest first, with their history and last-game entries, and returns
	// how many it deleted.
	ForgetGames(before time.Time, limit int) (int, error)
	// UserLiveGames returns the ids of the open challenges and running
	// games the user plays in any chat of the platform.
	UserLiveGames(p Platform, userID string) ([]GameID, error)
	// LiveGames returns the ids of the chat's open challenges and running
	// games, oldest first.
	LiveGames(p Platform, chat string) ([]GameID, error)
	// LastGame returns the id of the last game the user finished in the
	// chat, or ErrNotFound.
	LastGame(p Platform, chat, userID string) (GameID, error)
	// Due returns up to limit live games whose deadline is not after t
	// and that come after the entry after in (deadline, id) order,
	// earliest first; the zero DueGame starts from the first. Paging with
	// the last entry returned reaches every due game once, however many
	// of them stay due.
	Due(t time.Time, after DueGame, limit int) ([]DueGame, error)
	// Stats returns the user's stats on the platform; a user with none
	// gets the stats of someone who has played nothing. An unreadable
	// record gives an error wrapping ErrSchema and naming the user.
	Stats(p Platform, userID string) (Stats, error)
	// PutStats stores the stats of s.User and records that the user has
	// played in the chat, for the chat's leaderboards.
	PutStats(p Platform, chat string, s Stats) error
	// ChatPlayers returns the ids of the users who have finished a game in
	// the chat.
	ChatPlayers(p Platform, chat string) ([]string, error)
	// ChatSettings returns the chat's settings; the zero value when none
	// are stored.
	ChatSettings(p Platform, chat string) (ChatSettings, error)
	// PutChatSettings stores the chat's settings.
	PutChatSettings(p Platform, chat string, s ChatSettings) error
	// UserSettings returns the user's settings; the zero value when none
	// are stored.
	UserSettings(p Platform, userID string) (UserSettings, error)
	// PutUserSettings stores the user's settings.
	PutUserSettings(p Platform, userID string, s UserSettings) error
	// Focus returns the id of the game the user last saw or touched in
	// the chat, or ErrNotFound.
	Focus(p Platform, chat, userID string) (GameID, error)
	// PutFocus records id as the game the user last saw or touched in the
	// chat.
	PutFocus(p Platform, chat, userID string, id GameID) error
}
