package engine

// Stone is the content of a cell: empty, or the stone of one side.
type Stone uint8

const (
	// Empty is a cell with no stone.
	Empty Stone = iota
	// Black is the side that moves first (❌ in tic-tac-toe).
	Black
	// White is the side that moves second (⭕ in tic-tac-toe).
	White
)

// Opponent returns the other side; Empty stays Empty.
func (s Stone) Opponent() Stone {
	switch s {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (s Stone) String() string {
	switch s {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "empty"
}

// Point is a cell of the board: X is the column counted from the left, Y the
// row counted from the top, both from zero.
type Point struct {
	X, Y int
}
