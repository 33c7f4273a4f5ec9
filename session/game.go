package session

import (
	"time"

	"github.com/boardbot/boardbot/engine"
)

// GameID identifies a game across platforms; it is short enough to travel
// in callback data.
type GameID string

// Platform names the chat platform a game is played on, such as
// "telegram", "discord" or "console".
type Platform string

// User is a person on a platform: an opaque id, a display name, and the
// platform handle (a username such as Telegram's @alice, without the '@';
// empty when the user has none). A display name identifies nobody: anyone
// may take any name, so challenges never match on it.
type User struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Handle string `json:"handle,omitempty"`
}

// Seat is one side of a game: a person, or the AI at some level.
type Seat struct {
	User User `json:"user,omitzero"`
	// AI is the level of the AI in this seat; zero for a person.
	AI engine.Level `json:"ai,omitempty"`
}

// IsAI reports whether the AI plays this seat.
func (s Seat) IsAI() bool { return s.AI != 0 }

// Status is where a game is in its life.
type Status string

// The statuses of a game. Open and Running are live; every other status
// is final. Open, Declined, Cancelled and Lapsed are challenges that never
// became a game.
const (
	// Open is a duel challenge waiting for its opponent.
	Open Status = "open"
	// Running is a game being played.
	Running Status = "running"
	// Won is a game won on the board; Winner says by whom.
	Won Status = "won"
	// Drawn is a full board with no winner.
	Drawn Status = "drawn"
	// Resigned is a game given up; Winner is the side that did not resign.
	Resigned Status = "resigned"
	// Expired is a game nobody moved in for too long. In a duel the side
	// whose turn it was loses (Winner is the other side); against the AI
	// there is no winner.
	Expired Status = "expired"
	// Aborted is a duel that ended, by resignation or expiry, before both
	// players had moved: nobody wins, and it counts in no stats or rating.
	Aborted Status = "aborted"
	// Declined is a challenge its addressee turned down.
	Declined Status = "declined"
	// Cancelled is a challenge its challenger withdrew.
	Cancelled Status = "cancelled"
	// Lapsed is a challenge nobody accepted in time.
	Lapsed Status = "lapsed"
)

// Over reports whether the status is final.
func (s Status) Over() bool { return s != Running && s != Open }

// Played reports whether a game with this status was played (so it can be
// rematched, and counts in stats unless it was aborted), rather than
// being a challenge that never started.
func (s Status) Played() bool {
	switch s {
	case Running, Won, Drawn, Resigned, Expired, Aborted:
		return true
	}
	return false
}

// valid reports whether s is one of the statuses.
func (s Status) valid() bool {
	switch s {
	case Open, Running, Won, Drawn, Resigned, Expired, Aborted, Declined, Cancelled, Lapsed:
		return true
	}
	return false
}

// Game is the stored state of one game. Only Service changes it.
type Game struct {
	ID       GameID
	Platform Platform
	Chat     string
	// Message is the platform's id of the message that shows the board;
	// empty until the adapter binds it.
	Message string
	Rules   engine.Rules
	// Seats are the players: Seats[0] plays black and moves first. In an
	// open challenge the challenged seat is the addressee: a user with an
	// id, or with only a handle; or nobody (anyone may accept).
	Seats [2]Seat
	// Challenger is the side of the person who proposed a duel; Empty for
	// games against the AI.
	Challenger engine.Stone
	Moves      []engine.Point
	// Status and Winner say how the game ended; Winner is engine.Empty
	// while running and for a draw.
	Status Status
	Winner engine.Stone
	// Version counts committed changes; a store refuses to overwrite a
	// game whose version moved on.
	Version int
	// Seed makes the AI's random choices in this game replayable.
	Seed uint64
	// Deadline is when a live game expires if nothing happens: an open
	// challenge unanswered, or a running game with no move. Zero once the
	// game is over.
	Deadline time.Time
	// Rematch is the id of the game started as this one's rematch, once
	// someone asked for it.
	Rematch GameID
	// Takebacks counts the takebacks done in this game; a game with any
	// is marked in stats.
	Takebacks int
	// UndoAsk is the side that asked its opponent in a duel for a
	// takeback not yet answered; Empty when none is pending.
	UndoAsk engine.Stone
	// HintLimit is how many hints the player may ask for in a game
	// against the AI (Limits.HintsPerGame when it started); Hints counts
	// those given, and a game with any is marked in stats. Hint is the
	// move suggested for the position on the board, nil once a move is
	// played; it is never changed in place.
	HintLimit int
	Hints     int
	Hint      *engine.Point
	Created   time.Time
	Updated   time.Time
}

// IsDuel reports whether two people play the game.
func (g *Game) IsDuel() bool { return !g.Seats[0].IsAI() && !g.Seats[1].IsAI() }

// MoveNo returns the number of the next move, counting from zero: the
// number of stones on the board.
func (g *Game) MoveNo() int { return len(g.Moves) }

// ToMove returns the side whose turn it is.
func (g *Game) ToMove() engine.Stone {
	if len(g.Moves)%2 == 0 {
		return engine.Black
	}
	return engine.White
}

// SideOf returns the side user plays, or engine.Empty when the user has no
// seat.
func (g *Game) SideOf(userID string) engine.Stone {
	if userID == "" {
		return engine.Empty
	}
	for i, s := range g.Seats {
		if !s.IsAI() && s.User.ID == userID {
			return engine.Stone(i + 1)
		}
	}
	return engine.Empty
}

// abortable reports whether ending g now, other than on the board, aborts
// it: a duel in which not both players have moved yet.
func (g *Game) abortable() bool { return g.IsDuel() && len(g.Moves) < 2 }

// undoSpan returns how many moves a takeback by side takes off the end of
// g's moves: back to before side's last move, so that it is side's turn
// again (its move, and the reply to it if there is one). It reports false
// when side has no move to take back.
func (g *Game) undoSpan(side engine.Stone) (int, bool) {
	n := len(g.Moves)
	if n == 0 {
		return 0, false
	}
	k := 1
	if lastBy := engine.Stone((n-1)%2 + 1); lastBy != side {
		k = 2
	}
	return k, n >= k
}

// Seat returns the seat of side s (Black or White).
func (g *Game) Seat(s engine.Stone) Seat { return g.Seats[s-1] }

// clone returns a deep copy.
func (g *Game) clone() Game {
	c := *g
	c.Moves = append([]engine.Point(nil), g.Moves...)
	if g.Hint != nil {
		h := *g.Hint
		c.Hint = &h
	}
	return c
}

// board replays the game's moves through the engine.
func (g *Game) board() (*engine.Board, error) { return engine.Replay(g.Rules, g.Moves) }
