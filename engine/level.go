package engine

import "fmt"

// Level is how strongly an AI player plays.
type Level uint8

const (
	// Easy plays loosely: a beginner can win.
	Easy Level = iota + 1
	// Medium takes a win, blocks a loss, and otherwise plays sensibly.
	Medium
	// Hard is the strongest the engine has.
	Hard
)

// Levels lists every level, weakest first.
var Levels = []Level{Easy, Medium, Hard}

// String returns "easy", "medium" or "hard".
func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel returns the level named s, or an error wrapping ErrBadLevel.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if l.String() == s {
			return l, nil
		}
	}
	return 0, fmt.Errorf("engine: level %q: %w", s, ErrBadLevel)
}

// Valid reports whether l is one of Levels.
func (l Level) Valid() bool { return l >= Easy && l <= Hard }
