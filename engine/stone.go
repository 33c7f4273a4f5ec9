package engine

import (
	"fmt"
	"strconv"
	"strings"
)

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

// ParseMoves reads points written "x,y x,y …", as the Gomocup protocol
// writes a move and the match tools record a game.
func ParseMoves(s string) ([]Point, error) {
	var ps []Point
	for _, f := range strings.Fields(s) {
		xs, ys, ok := strings.Cut(f, ",")
		x, errX := strconv.Atoi(xs)
		y, errY := strconv.Atoi(ys)
		if !ok || errX != nil || errY != nil {
			return nil, fmt.Errorf("engine: bad move %q, want x,y", f)
		}
		ps = append(ps, Point{x, y})
	}
	return ps, nil
}
