package web

import (
	"github.com/boardbot/boardbot/engine"
	"github.com/boardbot/boardbot/render"
	"github.com/boardbot/boardbot/session"
)

// state is a game as the page draws it. Cells are [x, y], y counted from
// the top row; sides are 0 (the first player: Black, or X) and 1.
type state struct {
	Game    session.GameID `json:"game"`
	Version int            `json:"version"`
	Width   int            `json:"width"`
	Height  int            `json:"height"`
	K       int            `json:"k"`
	// Marks is "xo" for games of up to four in a row, "stones" for five.
	Marks   string    `json:"marks"`
	Rules   string    `json:"rules"`
	Columns []string  `json:"columns"`
	Rows    []string  `json:"rows"`
	Players [2]player `json:"players"`
	// You is the holder's side, -1 when they have no seat.
	You     int      `json:"you"`
	Moves   [][2]int `json:"moves"`
	ToMove  int      `json:"toMove"`
	Running bool     `json:"running"`
	// Winner is the side that won, -1 for none.
	Winner    int      `json:"winner"`
	WinLine   [][2]int `json:"winLine"`
	Forbidden [][2]int `json:"forbidden"`
	Hint      *[2]int  `json:"hint"`
	HintsLeft int      `json:"hintsLeft"`
	Takebacks int      `json:"takebacks"`
	// Status is the board's status line in the holder's language.
	Status  string         `json:"status"`
	Lang    string         `json:"lang"`
	Rematch session.GameID `json:"rematch"`
}

// player is one seat.
type player struct {
	Name string `json:"name"`
	// AI is the AI's level ("easy", "medium", "hard"), "" for a person.
	AI string `json:"ai"`
}

// stateOf returns the page's state of v for the user with id user, in
// language l.
func stateOf(v session.View, user string, l render.Lang) state {
	r := v.Rules()
	s := state{
		Game: v.ID(), Version: v.Version(), Width: r.Width, Height: r.Height, K: r.K,
		Marks: "stones", Rules: r.String(), You: -1, ToMove: side(v.ToMove()), Running: v.Status() == session.Running,
		Winner: -1, HintsLeft: v.HintsLeft(), Takebacks: v.Takebacks(), Status: render.Status(v, l), Lang: string(l),
		Rematch: v.Rematch(), Moves: [][2]int{}, WinLine: [][2]int{}, Forbidden: [][2]int{},
	}
	if r.K < 5 {
		s.Marks = "xo" // as the chats draw it: ❌ ⭕ up to four in a row
	}
	for x := range r.Width {
		s.Columns = append(s.Columns, render.ColumnLabel(x))
	}
	for y := range r.Height {
		s.Rows = append(s.Rows, render.RowLabel(y, r.Height))
	}
	for i, st := range []engine.Stone{engine.Black, engine.White} {
		seat := v.Seat(st)
		s.Players[i] = player{Name: render.SeatName(seat, l)}
		if seat.IsAI() {
			s.Players[i].AI = seat.AI.String()
		}
		if !seat.IsAI() && seat.User.ID == user {
			s.You = i
		}
	}
	for _, p := range v.Moves() {
		s.Moves = append(s.Moves, cell(p))
	}
	if w := v.Winner(); w != engine.Empty { // none while running, or drawn
		s.Winner = side(w)
	}
	for _, p := range v.WinningLine() {
		s.WinLine = append(s.WinLine, cell(p))
	}
	for p := range v.Fouls() { // none unless Black is to move in renju
		s.Forbidden = append(s.Forbidden, cell(p))
	}
	if p, ok := v.Hint(); ok {
		c := cell(p)
		s.Hint = &c
	}
	return s
}

// side returns the page's number of a stone: 0 for Black, 1 for White.
func side(s engine.Stone) int {
	if s == engine.White {
		return 1
	}
	return 0
}

func cell(p engine.Point) [2]int { return [2]int{p.X, p.Y} }
