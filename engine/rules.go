package engine

import "fmt"

// Board size and line length limits every game respects.
const (
	MinSize = 3
	MaxSize = 19
	MinK    = 3
)

// Rules are the rules of one game: the board's width and height and how many
// stones in a row win.
type Rules struct {
	Width  int `json:"w"`
	Height int `json:"h"`
	K      int `json:"k"`
	// Exact makes only a line of exactly K stones win (standard gomoku);
	// otherwise K or more wins (freestyle).
	Exact bool `json:"exact,omitempty"`
	// Renju plays the renju rules (RIF) for K = 5: Black wins with exactly
	// five and may not play a double three, a double four or an overline
	// (see Board.Foul); White wins with five or more. It excludes Exact.
	Renju bool `json:"renju,omitempty"`
}

// Validate returns an error wrapping ErrBadRules when the board is outside
// MinSize..MaxSize, K is outside MinK..min(Width, Height), or Renju is asked
// with K other than 5 or together with Exact.
func (r Rules) Validate() error {
	if r.Width < MinSize || r.Width > MaxSize || r.Height < MinSize || r.Height > MaxSize {
		return fmt.Errorf("engine: board %dx%d: %w: sides must be %d to %d", r.Width, r.Height, ErrBadRules, MinSize, MaxSize)
	}
	if r.K < MinK || r.K > min(r.Width, r.Height) {
		return fmt.Errorf("engine: k=%d on %dx%d: %w: k must be %d to %d", r.K, r.Width, r.Height, ErrBadRules, MinK, min(r.Width, r.Height))
	}
	if r.Renju && (r.K != 5 || r.Exact) {
		return fmt.Errorf("engine: renju with k=%d exact=%v: %w: renju needs k=5 and not exact", r.K, r.Exact, ErrBadRules)
	}
	return nil
}

// Cells returns the number of cells on the board.
func (r Rules) Cells() int { return r.Width * r.Height }

// Contains reports whether p is on the board.
func (r Rules) Contains(p Point) bool {
	return p.X >= 0 && p.X < r.Width && p.Y >= 0 && p.Y < r.Height
}

// Family returns the family of games the rules belong to, for stats and
// display.
func (r Rules) Family() Family {
	switch {
	case r.Renju:
		return FamilyRenju
	case r.Width == 3 && r.Height == 3:
		return FamilyTicTacToe
	case r.K == 5 && r.Width >= 15 && r.Height >= 15:
		return FamilyGomoku
	}
	return FamilyNxN
}

// String returns the rules in the form the /play grammar accepts, such as
// "ttt", "gomoku", "renju" or "6x5 k4"; exact-K and renju rules carry an
// " exact" or " renju" suffix unless they are a preset.
func (r Rules) String() string {
	for _, p := range presets {
		if p.rules == r {
			return p.name
		}
	}
	s := fmt.Sprintf("%dx%d k%d", r.Width, r.Height, r.K)
	switch {
	case r.Exact:
		s += " exact"
	case r.Renju:
		s += " renju"
	}
	return s
}

// Family groups board sizes for stats and rendering.
type Family string

// The families of games.
const (
	FamilyTicTacToe Family = "ttt"
	FamilyNxN       Family = "nxn"
	FamilyGomoku    Family = "gomoku"
	FamilyRenju     Family = "renju"
)

type preset struct {
	name  string
	rules Rules
}

var presets = []preset{
	{"ttt", Rules{Width: 3, Height: 3, K: 3}},
	{"4x4", Rules{Width: 4, Height: 4, K: 4}},
	{"5x5", Rules{Width: 5, Height: 5, K: 4}},
	{"7x7", Rules{Width: 7, Height: 7, K: 5}},
	{"gomoku", Rules{Width: 15, Height: 15, K: 5}},
	{"gomoku19", Rules{Width: 19, Height: 19, K: 5}},
	{"renju", Rules{Width: 15, Height: 15, K: 5, Renju: true}},
}

// Preset returns the rules of a named preset (ttt, 4x4, 5x5, 7x7, gomoku,
// gomoku19, renju) and whether the name is one.
func Preset(name string) (Rules, bool) {
	for _, p := range presets {
		if p.name == name {
			return p.rules, true
		}
	}
	return Rules{}, false
}

// PresetNames returns the names of the presets, smallest board first, the
// renju preset last.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// TicTacToe returns the rules of tic-tac-toe: 3×3, three in a row.
func TicTacToe() Rules { r, _ := Preset("ttt"); return r }
