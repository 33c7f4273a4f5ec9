package engine

import "fmt"

// Board is a position of one game: the rules, the stones and the moves that
// put them there, in order. Black moves first. A Board is not safe for
// concurrent use; Clone gives another goroutine its own copy.
type Board struct {
	rules   Rules
	cells   []Stone
	moves   []Point
	outcome Outcome
}

// Status says whether a game goes on, was won, or was drawn.
type Status uint8

const (
	// Ongoing is a game with legal moves left and no winner.
	Ongoing Status = iota
	// Won is a game where the last move made a winning line.
	Won
	// Draw is a full board with no winning line.
	Draw
)

// String returns "ongoing", "won" or "draw".
func (s Status) String() string {
	switch s {
	case Won:
		return "won"
	case Draw:
		return "draw"
	}
	return "ongoing"
}

// Outcome is the state of a game after its last move: the winner and the
// whole winning line (K or more cells, in order along the line) when it was
// won.
type Outcome struct {
	Status Status
	Winner Stone
	Line   []Point
}

// NewBoard returns an empty board for r, or an error wrapping ErrBadRules.
func NewBoard(r Rules) (*Board, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &Board{rules: r, cells: make([]Stone, r.Cells())}, nil
}

// Replay returns the board reached by playing moves in order from an empty
// board, or the first error a move gives.
func Replay(r Rules, moves []Point) (*Board, error) {
	b, err := NewBoard(r)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if err := b.Play(m); err != nil {
			return nil, fmt.Errorf("engine: replay move %d: %w", i+1, err)
		}
	}
	return b, nil
}

// Setup returns the board holding the given stones, Black's and White's
// alternating from Black's first (Black has as many stones as White or one
// more), or the first error a stone gives. Unlike Replay it does not check
// renju fouls on the way: a position given whole, such as a Gomocup
// manager's BOARD, may hold black stones that would have been fouls had
// they been played in another order.
func Setup(r Rules, black, white []Point) (*Board, error) {
	if len(black) != len(white) && len(black) != len(white)+1 {
		return nil, fmt.Errorf("engine: setup %d black and %d white stones: %w", len(black), len(white), ErrBadSetup)
	}
	b, err := NewBoard(r)
	if err != nil {
		return nil, err
	}
	for i, m := range black {
		if err := b.place(m, false); err != nil {
			return nil, fmt.Errorf("engine: setup black stone %d: %w", i+1, err)
		}
		if i < len(white) {
			if err := b.place(white[i], false); err != nil {
				return nil, fmt.Errorf("engine: setup white stone %d: %w", i+1, err)
			}
		}
	}
	return b, nil
}

// Rules returns the rules of the game.
func (b *Board) Rules() Rules { return b.rules }

// At returns the stone at p, or Empty when p is off the board.
func (b *Board) At(p Point) Stone {
	if !b.rules.Contains(p) {
		return Empty
	}
	return b.cells[p.Y*b.rules.Width+p.X]
}

// ToMove returns the side whose turn it is.
func (b *Board) ToMove() Stone {
	if len(b.moves)%2 == 0 {
		return Black
	}
	return White
}

// MoveCount returns how many moves have been played.
func (b *Board) MoveCount() int { return len(b.moves) }

// Moves returns a copy of the moves played, in order.
func (b *Board) Moves() []Point { return append([]Point(nil), b.moves...) }

// LastMove returns the last move played and whether there is one.
func (b *Board) LastMove() (Point, bool) {
	if len(b.moves) == 0 {
		return Point{}, false
	}
	return b.moves[len(b.moves)-1], true
}

// Outcome returns the state of the game after the last move. The Line slice
// is a copy.
func (b *Board) Outcome() Outcome {
	o := b.outcome
	o.Line = append([]Point(nil), o.Line...)
	return o
}

// Over reports whether the game has been won or drawn.
func (b *Board) Over() bool { return b.outcome.Status != Ongoing }

// Legal reports whether the side to move may play at p: the game goes on,
// p is an empty cell, and under renju it is no foul for Black.
func (b *Board) Legal(p Point) bool {
	return !b.Over() && b.rules.Contains(p) && b.At(p) == Empty && !b.forbidden(p)
}

// forbidden reports whether p is a foul and Black is to move under renju.
func (b *Board) forbidden(p Point) bool {
	return b.rules.Renju && b.ToMove() == Black && b.Foul(p) != NoFoul
}

// LegalMoves returns every cell the side to move may play, row by row
// (every empty cell but Black's fouls under renju), or nil when the game
// is over.
func (b *Board) LegalMoves() []Point {
	if b.Over() {
		return nil
	}
	check := b.rules.Renju && b.ToMove() == Black
	var g grid
	if check {
		g = b.grid()
	}
	var ps []Point
	for y := 0; y < b.rules.Height; y++ {
		for x := 0; x < b.rules.Width; x++ {
			p := Point{x, y}
			if b.cells[y*b.rules.Width+x] == Empty && (!check || g.foul(g.index(p)) == NoFoul) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// Play puts the stone of the side to move at p and updates the outcome from
// the lines through p. It returns an error wrapping ErrGameOver, ErrOffBoard
// or ErrOccupied, or a *FoulError wrapping ErrForbidden for Black's foul
// under renju, and leaves the board unchanged when the move is illegal.
// Under renju a game where Black is to move and has only fouls left is a
// draw.
func (b *Board) Play(p Point) error { return b.place(p, true) }

// place is Play, checking Black's renju fouls when fouls is set.
func (b *Board) place(p Point, fouls bool) error {
	switch {
	case b.Over():
		return fmt.Errorf("engine: play %v: %w", p, ErrGameOver)
	case !b.rules.Contains(p):
		return fmt.Errorf("engine: play %v on %dx%d: %w", p, b.rules.Width, b.rules.Height, ErrOffBoard)
	case b.At(p) != Empty:
		return fmt.Errorf("engine: play %v: %w", p, ErrOccupied)
	}
	s := b.ToMove()
	if fouls && b.rules.Renju && s == Black {
		if f := b.Foul(p); f != NoFoul {
			return &FoulError{Point: p, Foul: f}
		}
	}
	b.cells[p.Y*b.rules.Width+p.X] = s
	b.moves = append(b.moves, p)
	switch line := b.winningLine(p, s); {
	case line != nil:
		b.outcome = Outcome{Status: Won, Winner: s, Line: line}
	case len(b.moves) == len(b.cells):
		b.outcome = Outcome{Status: Draw}
	case b.rules.Renju && s == White && !b.blackCanMove():
		b.outcome = Outcome{Status: Draw}
	}
	return nil
}

// blackCanMove reports whether some empty cell is no foul for Black.
func (b *Board) blackCanMove() bool {
	g := b.grid()
	for y := 0; y < b.rules.Height; y++ {
		for x := 0; x < b.rules.Width; x++ {
			if b.cells[y*b.rules.Width+x] == Empty && g.foul(g.index(Point{x, y})) == NoFoul {
				return true
			}
		}
	}
	return false
}

// Undo takes back the last move. It returns ErrNoMoves on an empty board.
func (b *Board) Undo() error {
	p, ok := b.LastMove()
	if !ok {
		return ErrNoMoves
	}
	b.cells[p.Y*b.rules.Width+p.X] = Empty
	b.moves = b.moves[:len(b.moves)-1]
	b.outcome = Outcome{}
	return nil
}

// Clone returns an independent copy of the board.
func (b *Board) Clone() *Board {
	c := *b
	c.cells = append([]Stone(nil), b.cells...)
	c.moves = append([]Point(nil), b.moves...)
	c.outcome.Line = append([]Point(nil), b.outcome.Line...)
	return &c
}

// directions are the four line directions: across, down, and both diagonals.
var directions = [4]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// winningLine returns the winning line through p for side s, or nil: K or
// more in a row, exactly K under exact rules and for Black under renju.
// Only lines through the last move can have changed, so this is the whole
// check.
func (b *Board) winningLine(p Point, s Stone) []Point {
	for _, d := range directions {
		back := b.run(p, Point{-d.X, -d.Y}, s)
		fwd := b.run(p, d, s)
		n := back + 1 + fwd
		exact := b.rules.Exact || b.rules.Renju && s == Black
		if n < b.rules.K || (exact && n != b.rules.K) {
			continue
		}
		line := make([]Point, n)
		for i := range line {
			line[i] = Point{p.X + (i-back)*d.X, p.Y + (i-back)*d.Y}
		}
		return line
	}
	return nil
}

// run counts the stones of side s next to p in direction d, p excluded.
func (b *Board) run(p, d Point, s Stone) int {
	n := 0
	for q := (Point{p.X + d.X, p.Y + d.Y}); b.rules.Contains(q) && b.At(q) == s; q = (Point{q.X + d.X, q.Y + d.Y}) {
		n++
	}
	return n
}
