package session

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// schemaVersion is the version of the records this release writes. A
// record with a higher version was written by a newer release and is not
// read, so that an older binary never overwrites data it does not
// understand.
const schemaVersion = 1

// gameRecord is the stored form of a Game. Moves are cell indices
// (y*width + x) to keep finished gomoku games small.
type gameRecord struct {
	Schema   int          `json:"v"`
	ID       GameID       `json:"id"`
	Platform Platform     `json:"p"`
	Chat     string       `json:"chat"`
	Message  string       `json:"msg,omitempty"`
	Rules    engine.Rules `json:"rules"`
	Seats    [2]Seat      `json:"seats"`
	Moves    []int        `json:"moves"`
	Status   Status       `json:"status"`
	Winner   engine.Stone `json:"winner,omitempty"`
	Version  int          `json:"ver"`
	Seed     uint64       `json:"seed"`
	Created  time.Time    `json:"created"`
	Updated  time.Time    `json:"updated"`
}

// encodeGame returns the stored form of g.
func encodeGame(g *Game) ([]byte, error) {
	r := gameRecord{
		Schema: schemaVersion, ID: g.ID, Platform: g.Platform, Chat: g.Chat, Message: g.Message,
		Rules: g.Rules, Seats: g.Seats, Moves: make([]int, len(g.Moves)), Status: g.Status,
		Winner: g.Winner, Version: g.Version, Seed: g.Seed, Created: g.Created, Updated: g.Updated,
	}
	for i, m := range g.Moves {
		r.Moves[i] = m.Y*g.Rules.Width + m.X
	}
	return json.Marshal(r)
}

// decodeGame parses a stored game. It returns an error wrapping ErrSchema
// when the record is from a newer schema, malformed, or describes a game
// the rules cannot replay.
func decodeGame(data []byte) (Game, error) {
	var r gameRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Game{}, fmt.Errorf("session: decode game: %w: %v", ErrSchema, err)
	}
	if r.Schema != schemaVersion {
		return Game{}, fmt.Errorf("session: decode game %q: %w: schema %d, this release reads %d", r.ID, ErrSchema, r.Schema, schemaVersion)
	}
	if err := r.Rules.Validate(); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	g := Game{
		ID: r.ID, Platform: r.Platform, Chat: r.Chat, Message: r.Message, Rules: r.Rules,
		Seats: r.Seats, Moves: make([]engine.Point, len(r.Moves)), Status: r.Status,
		Winner: r.Winner, Version: r.Version, Seed: r.Seed, Created: r.Created, Updated: r.Updated,
	}
	for i, c := range r.Moves {
		if c < 0 || c >= r.Rules.Cells() {
			return Game{}, fmt.Errorf("session: decode game %q: %w: move %d at cell %d", r.ID, ErrSchema, i+1, c)
		}
		g.Moves[i] = engine.Point{X: c % r.Rules.Width, Y: c / r.Rules.Width}
	}
	b, err := g.board()
	if err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	if err := consistent(&g, b.Outcome()); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	for _, s := range g.Seats {
		if s.IsAI() && !s.AI.Valid() {
			return Game{}, fmt.Errorf("session: decode game %q: %w: AI level %d", r.ID, ErrSchema, s.AI)
		}
	}
	return g, nil
}

// consistent checks that a game's status and winner agree with the outcome
// of its moves on the board.
func consistent(g *Game, o engine.Outcome) error {
	var want Status
	switch o.Status {
	case engine.Won:
		want = Won
	case engine.Draw:
		want = Drawn
	default:
		want = Running
	}
	switch {
	case g.Status == Resigned || g.Status == Expired:
		if want != Running || (g.Status == Resigned && g.Winner == engine.Empty) {
			return fmt.Errorf("%s game with board %v and winner %v", g.Status, o.Status, g.Winner)
		}
	case g.Status != want || g.Winner != o.Winner:
		return fmt.Errorf("status %q winner %v, but the board is %v with winner %v", g.Status, g.Winner, o.Status, o.Winner)
	}
	return nil
}
