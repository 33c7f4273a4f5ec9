package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/boardbot/boardbot/engine"
)

// schemaVersion is the version of the records this release writes. A
// record with a higher version was written by a newer release and is not
// read, so that an older binary never overwrites data it does not
// understand. Version 2 added challenges, deadlines and rematches to game
// records; version 1 game records read as games with none of them.
// Version 3 gave users a handle apart from their name; in older game
// records the addressee of a challenge, a seat with a name but no id, was
// named by handle, and reads as that handle (migrateHandles).
const schemaVersion = 3

// renjuSchema is the version of the game records of renju games, which a
// release before renju would read as freestyle games and must refuse;
// every other record is still written as schemaVersion, so that older
// releases keep reading it. Stats records keep their renju row only when
// it holds a result, for the same reason (encodeStats).
const renjuSchema = 4

// oldestStats is the oldest schema of stats and settings records this
// release reads; older game records are read from version 1.
const oldestStats = 2

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
	// Challenger is the challenger's side in a duel.
	Challenger engine.Stone `json:"from,omitempty"`
	Moves      []int        `json:"moves"`
	Status     Status       `json:"status"`
	Winner     engine.Stone `json:"winner,omitempty"`
	Version    int          `json:"ver"`
	Seed       uint64       `json:"seed"`
	Deadline   time.Time    `json:"due,omitzero"`
	Rematch    GameID       `json:"rematch,omitempty"`
	Created    time.Time    `json:"created"`
	Updated    time.Time    `json:"updated"`
	// Takebacks and UndoAsk are omitted when zero, so that records of
	// games without takebacks are as before. An older release reads a
	// record with them but drops them when it rewrites it.
	Takebacks int          `json:"tb,omitempty"`
	UndoAsk   engine.Stone `json:"undo,omitempty"`
	// HintLimit, Hints and Hint (a cell index) are omitted when zero or
	// none, likewise.
	HintLimit int  `json:"hl,omitempty"`
	Hints     int  `json:"hints,omitempty"`
	Hint      *int `json:"hint,omitempty"`
}

// decodeFault says why json.Unmarshal refused a record without quoting
// it (json's own errors quote a character or a number of the input), so
// that an error about a bad record, which may be logged, never carries
// the record's contents.
func decodeFault(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("not JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q of the wrong type at byte %d", typ.Field, typ.Offset)
	}
	return fmt.Sprintf("not a record (%T)", err)
}

// encodeGame returns the stored form of g.
func encodeGame(g *Game) ([]byte, error) {
	schema := schemaVersion
	if g.Rules.Renju {
		schema = renjuSchema
	}
	r := gameRecord{
		Schema: schema, ID: g.ID, Platform: g.Platform, Chat: g.Chat, Message: g.Message,
		Rules: g.Rules, Seats: g.Seats, Challenger: g.Challenger, Moves: make([]int, len(g.Moves)), Status: g.Status,
		Winner: g.Winner, Version: g.Version, Seed: g.Seed, Deadline: g.Deadline, Rematch: g.Rematch,
		Takebacks: g.Takebacks, UndoAsk: g.UndoAsk, Created: g.Created, Updated: g.Updated,
		HintLimit: g.HintLimit, Hints: g.Hints,
	}
	if g.Hint != nil {
		c := g.Hint.Y*g.Rules.Width + g.Hint.X
		r.Hint = &c
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
		return Game{}, fmt.Errorf("session: decode game: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < 1 || r.Schema > renjuSchema || r.Rules.Renju != (r.Schema == renjuSchema) {
		return Game{}, fmt.Errorf("session: decode game %q: %w: schema %d with renju %v, this release reads %d (%d for renju)", r.ID, ErrSchema, r.Schema, r.Rules.Renju, schemaVersion, renjuSchema)
	}
	if r.Schema < 3 {
		migrateHandles(&r.Seats)
	}
	if err := r.Rules.Validate(); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	g := Game{
		ID: r.ID, Platform: r.Platform, Chat: r.Chat, Message: r.Message, Rules: r.Rules,
		Seats: r.Seats, Challenger: r.Challenger, Moves: make([]engine.Point, len(r.Moves)), Status: r.Status,
		Winner: r.Winner, Version: r.Version, Seed: r.Seed, Deadline: r.Deadline, Rematch: r.Rematch,
		Takebacks: r.Takebacks, UndoAsk: r.UndoAsk, Created: r.Created, Updated: r.Updated,
		HintLimit: r.HintLimit, Hints: r.Hints,
	}
	if r.Hint != nil {
		c := *r.Hint
		if c < 0 || c >= r.Rules.Cells() {
			return Game{}, fmt.Errorf("session: decode game %q: %w: hint at cell %d", r.ID, ErrSchema, c)
		}
		g.Hint = &engine.Point{X: c % r.Rules.Width, Y: c / r.Rules.Width}
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
	if err := wellFormed(&g); err != nil {
		return Game{}, fmt.Errorf("session: decode game %q: %w: %v", r.ID, ErrSchema, err)
	}
	return g, nil
}

// migrateHandles reads the seats of a record older than schema 3, whose
// users had no handle: a seat with a name but no id was the addressee of
// a challenge as "/duel @name" named it, so that name is its handle.
func migrateHandles(seats *[2]Seat) {
	for i := range seats {
		if u := &seats[i].User; u.ID == "" && u.Handle == "" && u.Name != "" {
			u.Handle = strings.TrimPrefix(u.Name, "@")
		}
	}
}

// wellFormed checks the parts of a game its board does not: levels, seats,
// the challenger, and the version.
func wellFormed(g *Game) error {
	ai := 0
	for _, s := range g.Seats {
		if s.IsAI() {
			ai++
			if !s.AI.Valid() {
				return fmt.Errorf("AI level %d", s.AI)
			}
		}
	}
	switch {
	case ai == 2:
		return fmt.Errorf("two AI seats")
	case g.Version < 1:
		return fmt.Errorf("version %d", g.Version)
	case g.Winner > engine.White:
		return fmt.Errorf("winner %d", g.Winner)
	case g.Challenger > engine.White || (g.Challenger != engine.Empty && ai > 0):
		return fmt.Errorf("challenger %d in a game with %d AI seats", g.Challenger, ai)
	case g.Status == Open && g.Challenger == engine.Empty:
		return fmt.Errorf("open challenge without a challenger")
	case g.Status == Open && g.Seat(g.Challenger).User.ID == "":
		return fmt.Errorf("open challenge without a challenger's id")
	case g.Takebacks < 0:
		return fmt.Errorf("%d takebacks", g.Takebacks)
	case g.Hints < 0 || g.HintLimit < 0 || g.Hints > g.HintLimit || (g.HintLimit > 0 && ai == 0):
		return fmt.Errorf("%d of %d hints in a game with %d AI seats", g.Hints, g.HintLimit, ai)
	case g.Hint != nil && (g.Status != Running || g.Hints == 0):
		return fmt.Errorf("hint shown in a %s game with %d hints", g.Status, g.Hints)
	case g.UndoAsk > engine.White || (g.UndoAsk != engine.Empty && (ai > 0 || g.Status != Running)):
		return fmt.Errorf("takeback asked by %d in a %s game with %d AI seats", g.UndoAsk, g.Status, ai)
	}
	if g.Status != Open && g.Status.Played() {
		for _, s := range g.Seats {
			if !s.IsAI() && s.User.ID == "" {
				return fmt.Errorf("%s game with an empty seat", g.Status)
			}
		}
	}
	return nil
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
	case !g.Status.valid():
		return fmt.Errorf("status %q", g.Status)
	case !g.Status.Played():
		if len(g.Moves) > 0 || g.Winner != engine.Empty {
			return fmt.Errorf("%s challenge with %d moves and winner %v", g.Status, len(g.Moves), g.Winner)
		}
	case g.Status == Resigned || g.Status == Expired || g.Status == Aborted:
		if want != Running || (g.Status == Resigned && g.Winner == engine.Empty) || (g.Status == Aborted && g.Winner != engine.Empty) {
			return fmt.Errorf("%s game with board %v and winner %v", g.Status, o.Status, g.Winner)
		}
	case g.Status != want || g.Winner != o.Winner:
		return fmt.Errorf("status %q winner %v, but the board is %v with winner %v", g.Status, g.Winner, o.Status, o.Winner)
	}
	return nil
}

// statsRecord is the stored form of Stats.
type statsRecord struct {
	Schema int  `json:"v"`
	User   User `json:"user"`
	// Results is indexed by family and opponent; decoding checks its
	// shape, which a fixed-size array would not.
	Results [][]Tally `json:"res"`
	Rating  float64   `json:"elo"`
	Duels   int       `json:"duels,omitempty"`
	// Ratings are Stats.Ratings as whole points; older records have
	// none, and older releases ignore them.
	Ratings []int `json:"hist,omitempty"`
}

// encodeStats returns the stored form of s.
func encodeStats(s *Stats) ([]byte, error) {
	r := statsRecord{Schema: schemaVersion, User: s.User, Rating: s.Rating, Duels: s.Duels}
	for _, x := range s.Ratings {
		r.Ratings = append(r.Ratings, int(math.Round(x)))
	}
	for _, f := range s.Results {
		r.Results = append(r.Results, f[:])
	}
	// The renju row, last, only when it counts something: a release before
	// renju reads three families.
	if s.Results[len(s.Results)-1] == ([numOpponents]Tally{}) {
		r.Results = r.Results[:len(r.Results)-1]
	}
	return json.Marshal(r)
}

// decodeStats parses stored stats. It returns an error wrapping ErrSchema
// for a newer schema, malformed data, or counts out of range.
func decodeStats(data []byte) (Stats, error) {
	var r statsRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Stats{}, fmt.Errorf("session: decode stats: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < oldestStats || r.Schema > schemaVersion {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: schema %d, this release reads %d", r.User.ID, ErrSchema, r.Schema, schemaVersion)
	}
	if r.User.ID == "" || r.Duels < 0 || r.Rating < 0 || r.Rating > 10000 {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: user, %d duels, rating %v", r.User.ID, ErrSchema, r.Duels, r.Rating)
	}
	s := Stats{User: r.User, Rating: r.Rating, Duels: r.Duels}
	if len(r.Ratings) > MaxRatings {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d ratings", r.User.ID, ErrSchema, len(r.Ratings))
	}
	for _, x := range r.Ratings {
		if x < 0 || x > 10000 {
			return Stats{}, fmt.Errorf("session: decode stats of %q: %w: rating %d", r.User.ID, ErrSchema, x)
		}
		s.Ratings = append(s.Ratings, float64(x))
	}
	if len(r.Results) != len(s.Results) && len(r.Results) != len(s.Results)-1 {
		return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d families", r.User.ID, ErrSchema, len(r.Results))
	}
	for f, row := range r.Results {
		if len(row) != len(s.Results[f]) {
			return Stats{}, fmt.Errorf("session: decode stats of %q: %w: %d opponents", r.User.ID, ErrSchema, len(row))
		}
		for o, t := range row {
			if t.Wins < 0 || t.Losses < 0 || t.Draws < 0 || t.Takebacks < 0 || t.TakebackWins < 0 ||
				t.Takebacks > t.Games() || t.TakebackWins > min(t.Wins, t.Takebacks) ||
				t.Hinted < 0 || t.HintedWins < 0 || t.Hinted > t.Games() || t.HintedWins > min(t.Wins, t.Hinted) ||
				t.TakebackWins+t.HintedWins > t.Wins {
				return Stats{}, fmt.Errorf("session: decode stats of %q: %w: counts out of range", r.User.ID, ErrSchema)
			}
			s.Results[f][o] = t
		}
	}
	return s, nil
}

// settingsRecord is the stored form of chat and user settings.
type settingsRecord[T any] struct {
	Schema   int `json:"v"`
	Settings T   `json:"s"`
}

// encodeSettings returns the stored form of settings s.
func encodeSettings[T any](s T) ([]byte, error) {
	return json.Marshal(settingsRecord[T]{Schema: schemaVersion, Settings: s})
}

// decodeSettings parses stored settings and checks them with validate. It
// returns an error wrapping ErrSchema for a newer schema, malformed data,
// or fields out of range.
func decodeSettings[T interface{ validate() error }](data []byte) (T, error) {
	var r settingsRecord[T]
	var zero T
	if err := json.Unmarshal(data, &r); err != nil {
		return zero, fmt.Errorf("session: decode settings: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < oldestStats || r.Schema > schemaVersion {
		return zero, fmt.Errorf("session: decode settings: %w: schema %d, this release reads %d", ErrSchema, r.Schema, schemaVersion)
	}
	if err := r.Settings.validate(); err != nil {
		return zero, fmt.Errorf("session: decode settings: %w: %v", ErrSchema, err)
	}
	return r.Settings, nil
}

// decodeGameHeader parses the parts of a stored game its indexes use (id,
// place, seats, status, version, times), skipping its moves and their
// replay: a write only needs these of the version it replaces. It returns
// an error wrapping ErrSchema when the record is from a newer schema or
// malformed.
func decodeGameHeader(data []byte) (Game, error) {
	var r struct {
		Schema   int       `json:"v"`
		ID       GameID    `json:"id"`
		Platform Platform  `json:"p"`
		Chat     string    `json:"chat"`
		Seats    [2]Seat   `json:"seats"`
		Status   Status    `json:"status"`
		Version  int       `json:"ver"`
		Deadline time.Time `json:"due,omitzero"`
		Created  time.Time `json:"created"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return Game{}, fmt.Errorf("session: decode game: %w: %s", ErrSchema, decodeFault(err))
	}
	if r.Schema < 1 || r.Schema > renjuSchema || !r.Status.valid() {
		return Game{}, fmt.Errorf("session: decode game %q: %w: schema %d, status %q", r.ID, ErrSchema, r.Schema, r.Status)
	}
	if r.Schema < 3 {
		migrateHandles(&r.Seats)
	}
	return Game{
		ID: r.ID, Platform: r.Platform, Chat: r.Chat, Seats: r.Seats, Status: r.Status,
		Version: r.Version, Deadline: r.Deadline, Created: r.Created,
	}, nil
}
