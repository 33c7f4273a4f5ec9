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

// User is a person on a platform: an opaque id and a display name.
type User struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
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

// The statuses of a game. Every status but Running is final.
const (
	Running  Status = "running"
	Won      Status = "won"
	Drawn    Status = "drawn"
	Resigned Status = "resigned"
	Expired  Status = "expired"
)

// Over reports whether the status is final.
func (s Status) Over() bool { return s != Running }

// Game is the stored state of one game. Only Service changes it.
type Game struct {
	ID       GameID
	Platform Platform
	Chat     string
	// Message is the platform's id of the message that shows the board;
	// empty until the adapter binds it.
	Message string
	Rules   engine.Rules
	// Seats are the players: Seats[0] plays black and moves first.
	Seats [2]Seat
	Moves []engine.Point
	// Status and Winner say how the game ended; Winner is engine.Empty
	// while running and for a draw.
	Status Status
	Winner engine.Stone
	// Version counts committed changes; a store refuses to overwrite a
	// game whose version moved on.
	Version int
	// Seed makes the AI's random choices in this game replayable.
	Seed    uint64
	Created time.Time
	Updated time.Time
}

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
	for i, s := range g.Seats {
		if !s.IsAI() && s.User.ID == userID {
			return engine.Stone(i + 1)
		}
	}
	return engine.Empty
}

// Seat returns the seat of side s (Black or White).
func (g *Game) Seat(s engine.Stone) Seat { return g.Seats[s-1] }

// clone returns a deep copy.
func (g *Game) clone() Game {
	c := *g
	c.Moves = append([]engine.Point(nil), g.Moves...)
	return c
}

// board replays the game's moves through the engine.
func (g *Game) board() (*engine.Board, error) { return engine.Replay(g.Rules, g.Moves) }
